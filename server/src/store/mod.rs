//! The store: every session's raw events, the rows derived from them, and the sessions'
//! live `Hub`s, behind one handle ([`Store`]) that the HTTP layer and the sources talk to
//! without knowing which database is underneath.
//!
//! A backend is one module beside this one (`sqlite` today) and one variant of `Backend`.
//! What each backend keeps (see `sqlite::schema` for SQLite's tables) and promises:
//! - every event raw, byte for byte, with its session, `seq` (1, 2, 3, … per session, no
//!   gaps) and `ts`; an append is answered only once it is committed;
//! - each event folded in seq order through the one `crate::fold::SessionFold`, its
//!   envelope stored when it has rows, the fold checkpointed every `checkpoint_every`
//!   events; both derived tables rebuilt from the raw events when `derived_format`
//!   changes (another classifier);
//! - after a commit, the touched sessions' hubs get their new fold and the committed frames
//!   (nothing is broadcast that is not stored);
//! - each session's index columns (`crate::index`: agent, project, title, status, turns,
//!   errors, tokens, cost…) set from its fold in the transaction that stores its events, when
//!   they change, and again by the derived-table rebuild; a server started with other prices
//!   than the stored estimates were made with makes them again (`prices_seen`); the index's pages
//!   ([`Store::index_page`]) and usage ([`Store::usage`]) read them;
//! - history pages and SSE backlogs read from the stored envelopes, never classified again;
//! - the search index (`search`): each stored envelope's rows, kept and rebuilt with
//!   `rendered`; hits checked again here, so exactly the rows holding the query;
//! - notes (`note`) beside the session; after a note's write commits, the session's hub on
//!   every replica is told (`Hub::notes_changed`), and its streams send a `notes` frame.

mod derived;
mod error;
mod fleet;
pub(crate) mod note;
mod note_reads;
mod packed;
mod postgres;
mod prices_seen;
mod repriced;
mod request;
mod search;
mod share;
mod sqlite;

use std::path::Path;
use std::sync::Arc;

use classifier::prices::Prices;

pub use crate::hub::SessionInfo;
pub use derived::CHECKPOINT_EVERY;
pub use error::StoreError;
use note::NoteWrite;
pub use note::{
    MAX_SESSION_NOTE_BYTES, MAX_SHARE_NOTE_BYTES, NewNote, Note, NoteChange, NoteKey, NotePage,
    PAGE_BYTES, PAGE_NOTES, Reader,
};
pub(crate) use request::HistoryPage;
pub use request::{
    Append, Appended, FollowPos, IdempotencyKey, Keyed, MAX_TITLE_BYTES, RawLine, cut_title,
};
pub use search::{Cursor, Hit, SearchPage, SearchQuery};
pub use share::{NewShare, Share, TokenHash};
use share::{ShareWrite, ShareWritten};

use crate::fold::{SessionFold, StoredEvent};
use crate::hub::Hub;

/// The database and the sessions' hubs. Cheap to clone.
#[derive(Clone)]
pub struct Store {
    backend: Arc<Backend>,
}

/// Whether `db` names a PostgreSQL database rather than a SQLite file.
pub fn is_postgres(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// The backends; the HTTP layer and the sources only see [`Store`].
enum Backend {
    /// One SQLite file, one writer thread.
    Sqlite(sqlite::Sqlite),
    /// A PostgreSQL database shared by any number of replicas.
    Postgres(postgres::Postgres),
}

impl Store {
    /// Opens (creating or migrating) the SQLite database at `path`. Sessions whose producer
    /// was a process (`run`, `stdin`, `follow`) and are still marked live are marked ended:
    /// their producer is gone.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Store::open_with(path, CHECKPOINT_EVERY)
    }

    /// Opens the database `db` names: a `postgres://` or `postgresql://` URL is a PostgreSQL
    /// database (migrated on open; it must be called inside a tokio runtime), anything else
    /// the path of a SQLite file.
    pub fn open_db(db: &str, checkpoint_every: u64) -> Result<Store, StoreError> {
        Store::open_priced(db, checkpoint_every, &crate::prices::current())
    }

    /// [`Store::open_db`] with the prices the sessions' estimates are made with: those stored
    /// with other prices are made again (issue 50, `prices_seen`). A server's are this
    /// process's (`crate::prices::current`); tests give others.
    pub fn open_priced(
        db: &str,
        checkpoint_every: u64,
        prices: &Prices,
    ) -> Result<Store, StoreError> {
        let every = checkpoint_every.max(1);
        let backend = if is_postgres(db) {
            Backend::Postgres(postgres::Postgres::open(db, every, Some(prices))?)
        } else {
            Backend::Sqlite(sqlite::Sqlite::open(Path::new(db), every, prices)?)
        };
        Ok(Store {
            backend: Arc::new(backend),
        })
    }

    /// Opens the database `db` names for a one-shot command (`hiveterm share`) beside a
    /// server that may be running on it: migrated, but with none of [`Store::open`]'s
    /// start-up work (no session is marked ended, derived tables are not rebuilt).
    pub fn open_admin(db: &str) -> Result<Store, StoreError> {
        if is_postgres(db) {
            let db = postgres::Postgres::open(db, CHECKPOINT_EVERY, None)?;
            return Ok(Store {
                backend: Arc::new(Backend::Postgres(db)),
            });
        }
        let db = sqlite::Sqlite::open_admin(std::path::Path::new(db))?;
        Ok(Store {
            backend: Arc::new(Backend::Sqlite(db)),
        })
    }

    /// [`Store::open`] with a checkpoint interval (tests use small ones).
    pub fn open_with(path: &Path, checkpoint_every: u64) -> Result<Store, StoreError> {
        let prices = crate::prices::current();
        let db = sqlite::Sqlite::open(path, checkpoint_every.max(1), &prices)?;
        Ok(Store {
            backend: Arc::new(Backend::Sqlite(db)),
        })
    }

    /// Finishes every queued write and stops writing. Later writes fail with
    /// [`StoreError::Closed`].
    pub async fn close(&self) {
        match &*self.backend {
            Backend::Sqlite(db) => db.close().await,
            Backend::Postgres(db) => db.close(),
        }
    }

    /// Creates a session, or reopens (marks live) an existing one. Answers whether it was
    /// created. A title over [`MAX_TITLE_BYTES`] is stored cut ([`cut_title`]).
    pub async fn open_session(
        &self,
        id: &str,
        title: &str,
        source: &str,
    ) -> Result<bool, StoreError> {
        let title = request::cut_title(title);
        match &*self.backend {
            Backend::Sqlite(db) => db.open_session(id, title, source).await,
            Backend::Postgres(db) => db.open_session(id, title, source).await,
        }
    }

    /// Stores lines; answers once they are committed. A new session's title over
    /// [`MAX_TITLE_BYTES`] is stored cut ([`cut_title`]).
    pub async fn append(&self, mut append: Append) -> Result<Appended, StoreError> {
        if let Some((title, _)) = &mut append.create {
            title.truncate(request::cut_title(title).len());
        }
        match &*self.backend {
            Backend::Sqlite(db) => db.append(append).await,
            Backend::Postgres(db) => db.append(append).await,
        }
    }

    /// Marks a session ended.
    pub async fn end_session(&self, id: &str) -> Result<SessionInfo, StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.end_session(id).await,
            Backend::Postgres(db) => db.end_session(id).await,
        }
    }

    /// At most `limit` sessions, newest first (by `started`, then id), after `before` (the
    /// `started` and id of the previous page's last one).
    pub async fn sessions(
        &self,
        before: Option<(f64, String)>,
        limit: usize,
    ) -> Result<Vec<SessionInfo>, StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.sessions(before, limit).await,
            Backend::Postgres(db) => db.sessions(before, limit).await,
        }
    }

    /// What was stored under idempotency key `key` of session `id`, if anything.
    pub async fn keyed(&self, id: &str, key: &str) -> Result<Option<Keyed>, StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.keyed(id, key).await,
            Backend::Postgres(db) => db.keyed(id, key).await,
        }
    }

    /// Session `id`'s newest idempotency key (the one whose lines end last) and what was
    /// stored under it: where a producer that names its keys after its position (the
    /// forwarder) resumes.
    pub async fn last_key(&self, id: &str) -> Result<Option<(String, Keyed)>, StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.last_key(id).await,
            Backend::Postgres(db) => db.last_key(id).await,
        }
    }

    /// A followed file's stored position.
    pub async fn follow_pos(&self, path: &str) -> Result<Option<FollowPos>, StoreError> {
        Ok(self.followed(path).await?.map(|(pos, _)| pos))
    }

    /// A followed file's stored position and the session its lines went to.
    pub async fn followed(&self, path: &str) -> Result<Option<(FollowPos, String)>, StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.follow_pos(path).await,
            Backend::Postgres(db) => db.follow_pos(path).await,
        }
    }

    /// A session's row as stored (no hub is loaded).
    pub async fn session_info(&self, id: &str) -> Result<Option<SessionInfo>, StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.session_info(id).await,
            Backend::Postgres(db) => db.session_info(id).await,
        }
    }

    /// A session's fold after event `seq` (its newest checkpoint at or before, and the
    /// events after it): what a snapshot's state and summary are read from.
    pub(crate) async fn fold_at(&self, id: &str, seq: u64) -> Result<SessionFold, StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.fold_at(id, seq).await,
            Backend::Postgres(db) => db.fold_at(id, seq).await,
        }
    }

    /// A session's raw events `(after, upto]`, oldest first (what a redacted share folds).
    pub(crate) async fn events(
        &self,
        id: &str,
        after: u64,
        upto: u64,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.events(id, after, upto).await,
            Backend::Postgres(db) => db.events(id, after, upto).await,
        }
    }

    async fn write_share(&self, write: ShareWrite) -> Result<ShareWritten, StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.write_share(write).await,
            Backend::Postgres(db) => db.write_share(write).await,
        }
    }

    /// Stores a new share; answers it as stored (with its id).
    pub async fn create_share(&self, share: NewShare) -> Result<Share, StoreError> {
        match self.write_share(ShareWrite::Create(share)).await? {
            ShareWritten::Created(share) => Ok(share),
            ShareWritten::Revoked(_) => Err(StoreError::Corrupt("share write mixed up".into())),
        }
    }

    /// Revokes share `id` at `at`; answers it (`None`: no such share). Revoking twice keeps
    /// the first time.
    pub async fn revoke_share(&self, id: u64, at: f64) -> Result<Option<Share>, StoreError> {
        match self.write_share(ShareWrite::Revoke { id, at }).await? {
            ShareWritten::Revoked(share) => Ok(share),
            ShareWritten::Created(_) => Err(StoreError::Corrupt("share write mixed up".into())),
        }
    }

    /// Every share, newest first (revoked and expired ones too).
    pub async fn shares(&self) -> Result<Vec<Share>, StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.shares().await,
            Backend::Postgres(db) => db.shares().await,
        }
    }

    /// The share stored with token hash `hash`, and the hash as stored (for the caller's
    /// constant-time comparison); `None` when there is none.
    pub async fn share_by_hash(
        &self,
        hash: &TokenHash,
    ) -> Result<Option<(Share, Vec<u8>)>, StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.share_by_hash(*hash).await,
            Backend::Postgres(db) => db.share_by_hash(hash).await,
        }
    }

    /// Share `id`, if there is one.
    pub async fn share(&self, id: u64) -> Result<Option<Share>, StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.share(id).await,
            Backend::Postgres(db) => db.share(id).await,
        }
    }

    async fn write_note(&self, write: NoteWrite) -> Result<Option<Note>, StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.write_note(write).await,
            Backend::Postgres(db) => db.write_note(write).await,
        }
    }

    /// Stores a new note; answers it as stored (with its id). The session's live pages, on
    /// every replica, are told after the commit (a `notes` frame on their streams).
    pub async fn create_note(&self, note: NewNote) -> Result<Note, StoreError> {
        self.write_note(NoteWrite::Create(note))
            .await?
            .ok_or_else(|| StoreError::Corrupt("a note just stored is missing".into()))
    }

    /// Replaces the text of note `id` of `session`; answers it (`None`: no such note).
    pub async fn update_note(
        &self,
        session: &str,
        id: u64,
        text: String,
        at: f64,
    ) -> Result<Option<Note>, StoreError> {
        let session = session.to_owned();
        self.write_note(NoteWrite::Update {
            session,
            id,
            text,
            at,
        })
        .await
    }

    /// Deletes note `id` of `session`; answers it as it was (`None`: no such note).
    pub async fn delete_note(&self, session: &str, id: u64) -> Result<Option<Note>, StoreError> {
        let session = session.to_owned();
        self.write_note(NoteWrite::Delete { session, id }).await
    }

    /// A session's notes, ordered by `from` (then `to`, then id).
    pub async fn notes(&self, session: &str) -> Result<Vec<Note>, StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.notes(session).await,
            Backend::Postgres(db) => db.notes(session).await,
        }
    }

    /// How many notes readers wrote through share `share` (a comment link's cap).
    pub async fn notes_of_share(&self, share: u64) -> Result<u64, StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.notes_of_share(share).await,
            Backend::Postgres(db) => db.notes_of_share(share).await,
        }
    }

    /// How many sessions' hubs are loaded in memory (idle ones are dropped beyond
    /// `hub::MAX_HUBS`).
    pub fn loaded_hubs(&self) -> usize {
        match &*self.backend {
            Backend::Sqlite(db) => db.loaded_hubs(),
            Backend::Postgres(db) => db.loaded_hubs(),
        }
    }

    /// The checkpoint interval.
    pub fn checkpoint_every(&self) -> u64 {
        match &*self.backend {
            Backend::Sqlite(db) => db.checkpoint_every(),
            Backend::Postgres(db) => db.checkpoint_every(),
        }
    }

    /// The hub of a session, loading it from the database on first use; `None` if the
    /// session does not exist.
    pub(crate) async fn hub(&self, id: &str) -> Result<Option<Arc<Hub>>, StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.hub(id).await,
            Backend::Postgres(db) => db.hub(id).await,
        }
    }

    /// A history page, as the JSON of `docs/API.md`: envelopes with rows and `seq < before`
    /// (all when `None`) and `<= head`, newest first, at most `limit`.
    pub(crate) async fn history_page(
        &self,
        id: &str,
        head: u64,
        before: Option<u64>,
        limit: usize,
    ) -> Result<Vec<u8>, StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.history_page(id, head, before, limit).await,
            Backend::Postgres(db) => db.history_page(id, head, before, limit).await,
        }
    }

    /// SSE frames of the stored envelopes of events `(after, upto]`, a bounded chunk of
    /// them; answers the frames and the seq they reach (`upto` when all were read).
    pub(crate) async fn frames(
        &self,
        id: &str,
        after: u64,
        upto: u64,
    ) -> Result<(Vec<u8>, u64), StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.frames(id, after, upto).await,
            Backend::Postgres(db) => db.frames(id, after, upto).await,
        }
    }
}
