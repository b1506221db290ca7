//! The SQLite backend: one file in WAL mode (`synchronous=FULL`), one writer thread owning
//! the write connection ([`writer`]; each command's statements in [`commands`]), a pool of
//! read-only connections ([`reader`]), the schema and its migrations ([`schema`]), share
//! links ([`shares`]), notes ([`notes`]).

mod commands;
mod index;
mod migrations;
mod notes;
mod packed;
mod reader;
mod schema;
mod search;
mod shared;
mod shares;
mod writer;

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use tokio::sync::{mpsc, oneshot};

use crate::fold::{SessionFold, StoredEvent};
use crate::hub::{Hub, Hubs, SessionInfo};
use crate::store::error::StoreError;
use crate::store::note::{Note, NoteWrite};
use crate::store::request::{Append, Appended, FollowPos, Keyed};
use crate::store::share::{Share, ShareWrite, ShareWritten, TokenHash};

use reader::Readers;
use shared::Shared;
use writer::{WriteCmd, Writer};

/// An open SQLite store.
pub(crate) struct Sqlite {
    writer: mpsc::Sender<WriteCmd>,
    thread: Mutex<Option<JoinHandle<()>>>,
    shared: Arc<Shared>,
}

impl Sqlite {
    /// Opens (creating or migrating) the database at `path` and starts the writer thread;
    /// stored estimates made with other prices than `prices` are made again.
    /// A server's store also watches the notes other processes write on the file
    /// (`notes::watch`).
    pub(crate) fn open(
        path: &Path,
        checkpoint_every: u64,
        prices: &classifier::prices::Prices,
    ) -> Result<Sqlite, StoreError> {
        let db = Sqlite::start(
            path,
            schema::open_writer(path, checkpoint_every, prices)?,
            checkpoint_every,
        )?;
        let shared = Arc::downgrade(&db.shared);
        std::thread::Builder::new()
            .name("hiveterm-notes".into())
            .spawn(move || notes::watch(&shared))
            .map_err(|e| StoreError::Corrupt(format!("cannot start the notes' watch: {e}")))?;
        Ok(db)
    }

    /// [`Sqlite::open`] for a one-shot command: migrated, nothing else done on open.
    pub(crate) fn open_admin(path: &Path) -> Result<Sqlite, StoreError> {
        Sqlite::start(
            path,
            schema::open_admin(path)?,
            crate::store::derived::CHECKPOINT_EVERY,
        )
    }

    /// Starts the writer thread on the opened write connection `conn` of `path`.
    fn start(
        path: &Path,
        conn: rusqlite::Connection,
        checkpoint_every: u64,
    ) -> Result<Sqlite, StoreError> {
        let shared = Arc::new(Shared {
            readers: Readers::new(path.to_owned()),
            hubs: Hubs::default(),
            checkpoint_every,
        });
        let (tx, rx) = mpsc::channel(1024);
        let writer = Writer {
            conn,
            shared: shared.clone(),
        };
        let thread = std::thread::Builder::new()
            .name("hiveterm-db".into())
            .spawn(move || writer.run(rx))
            .map_err(|e| StoreError::Corrupt(format!("cannot start the writer thread: {e}")))?;
        Ok(Sqlite {
            writer: tx,
            thread: Mutex::new(Some(thread)),
            shared,
        })
    }

    pub(crate) async fn close(&self) {
        let _ = self.writer.send(WriteCmd::Shutdown).await;
        let thread = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(thread) = thread {
            let _ = tokio::task::spawn_blocking(move || thread.join()).await;
        }
    }

    /// Sends a command to the writer and waits for its answer.
    async fn write<T>(
        &self,
        cmd: impl FnOnce(oneshot::Sender<Result<T, StoreError>>) -> WriteCmd,
    ) -> Result<T, StoreError> {
        let (reply, rx) = oneshot::channel();
        self.writer
            .send(cmd(reply))
            .await
            .map_err(|_| StoreError::Closed)?;
        rx.await.map_err(|_| StoreError::Closed)?
    }

    pub(crate) async fn open_session(
        &self,
        id: &str,
        title: &str,
        source: &str,
    ) -> Result<bool, StoreError> {
        let (id, title, source) = (id.to_owned(), title.to_owned(), source.to_owned());
        self.write(|reply| WriteCmd::Open {
            id,
            title,
            source,
            reply,
        })
        .await
    }

    pub(crate) async fn append(&self, append: Append) -> Result<Appended, StoreError> {
        self.write(|reply| WriteCmd::Append(append, reply)).await
    }

    pub(crate) async fn end_session(&self, id: &str) -> Result<SessionInfo, StoreError> {
        let id = id.to_owned();
        self.write(|reply| WriteCmd::End { id, reply }).await
    }

    /// Runs `f` on a blocking thread with the shared state.
    async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Shared) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let shared = self.shared.clone();
        tokio::task::spawn_blocking(move || f(&shared))
            .await
            .map_err(|e| StoreError::Corrupt(format!("database task failed: {e}")))?
    }

    pub(crate) async fn hub(&self, id: &str) -> Result<Option<Arc<Hub>>, StoreError> {
        if let Some(hub) = self.shared.hubs.get(id) {
            return Ok(Some(hub));
        }
        let id = id.to_owned();
        self.blocking(move |shared| shared.hub(&id)).await
    }

    pub(crate) async fn sessions(
        &self,
        before: Option<(f64, String)>,
        limit: usize,
    ) -> Result<Vec<SessionInfo>, StoreError> {
        self.blocking(move |shared| {
            shared
                .readers
                .with(|conn| reader::sessions(conn, before.as_ref(), limit))
        })
        .await
    }

    pub(crate) async fn index_page(
        &self,
        query: crate::index::Query,
    ) -> Result<Vec<crate::index::Entry>, StoreError> {
        self.blocking(move |shared| shared.readers.with(|conn| index::index_page(conn, &query)))
            .await
    }

    pub(crate) async fn usage(
        &self,
        by: crate::index::By,
        since: Option<f64>,
    ) -> Result<Vec<crate::index::UsageGroup>, StoreError> {
        self.blocking(move |shared| shared.readers.with(|conn| index::usage(conn, by, since)))
            .await
    }

    pub(crate) async fn follow_pos(
        &self,
        path: &str,
    ) -> Result<Option<(FollowPos, String)>, StoreError> {
        let path = path.to_owned();
        self.blocking(move |shared| shared.readers.with(|conn| reader::follow_pos(conn, &path)))
            .await
    }

    pub(crate) async fn history_page(
        &self,
        id: &str,
        head: u64,
        before: Option<u64>,
        limit: usize,
    ) -> Result<Vec<u8>, StoreError> {
        let id = id.to_owned();
        self.blocking(move |shared| {
            shared
                .readers
                .with(|conn| reader::rendered_page(conn, &id, head, before, limit))
        })
        .await
    }

    pub(crate) async fn frames(
        &self,
        id: &str,
        after: u64,
        upto: u64,
    ) -> Result<(Vec<u8>, u64), StoreError> {
        let id = id.to_owned();
        self.blocking(move |shared| {
            shared
                .readers
                .with(|conn| reader::rendered_frames(conn, &id, after, upto))
        })
        .await
    }

    pub(crate) async fn last_key(&self, id: &str) -> Result<Option<(String, Keyed)>, StoreError> {
        let id = id.to_owned();
        self.blocking(move |shared| shared.readers.with(|conn| reader::last_key(conn, &id)))
            .await
    }

    pub(crate) async fn keyed(&self, id: &str, key: &str) -> Result<Option<Keyed>, StoreError> {
        let (id, key) = (id.to_owned(), key.to_owned());
        self.blocking(move |shared| shared.readers.with(|conn| reader::keyed(conn, &id, &key)))
            .await
    }

    pub(crate) async fn session_info(&self, id: &str) -> Result<Option<SessionInfo>, StoreError> {
        let id = id.to_owned();
        self.blocking(move |shared| shared.readers.with(|conn| reader::session(conn, &id)))
            .await
    }

    pub(crate) async fn fold_at(&self, id: &str, seq: u64) -> Result<SessionFold, StoreError> {
        let id = id.to_owned();
        self.blocking(move |shared| shared.readers.with(|conn| reader::fold_at(conn, &id, seq)))
            .await
    }

    pub(crate) async fn events(
        &self,
        id: &str,
        after: u64,
        upto: u64,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        let id = id.to_owned();
        self.blocking(move |shared| {
            shared
                .readers
                .with(|conn| reader::load_events(conn, &id, after, upto))
        })
        .await
    }

    pub(crate) async fn write_share(&self, write: ShareWrite) -> Result<ShareWritten, StoreError> {
        self.write(|reply| WriteCmd::Share(write, reply)).await
    }

    pub(crate) async fn shares(&self) -> Result<Vec<Share>, StoreError> {
        self.blocking(|shared| shared.readers.with(shares::all))
            .await
    }

    pub(crate) async fn share_by_hash(
        &self,
        hash: TokenHash,
    ) -> Result<Option<(Share, Vec<u8>)>, StoreError> {
        self.blocking(move |shared| shared.readers.with(|conn| shares::by_hash(conn, &hash)))
            .await
    }

    pub(crate) async fn share(&self, id: u64) -> Result<Option<Share>, StoreError> {
        self.blocking(move |shared| shared.readers.with(|conn| shares::share(conn, id)))
            .await
    }

    pub(crate) async fn write_note(&self, write: NoteWrite) -> Result<Option<Note>, StoreError> {
        self.write(|reply| WriteCmd::Note(write, reply)).await
    }

    pub(crate) async fn search(
        &self,
        q: crate::store::search::SearchQuery,
    ) -> Result<crate::store::search::SearchPage, StoreError> {
        self.blocking(move |shared| {
            shared.readers.with(|conn| {
                let mut pager = crate::store::search::Pager::new(q);
                while let Some((after, n)) = pager.ask() {
                    let batch = search::candidates(conn, pager.query(), after.as_ref(), n)?;
                    pager.take(batch);
                }
                Ok(pager.finish())
            })
        })
        .await
    }

    pub(crate) async fn notes(&self, session: &str) -> Result<Vec<Note>, StoreError> {
        let session = session.to_owned();
        self.blocking(move |shared| {
            shared
                .readers
                .with(|conn| notes::of_session(conn, &session))
        })
        .await
    }

    pub(crate) async fn note(&self, session: &str, id: u64) -> Result<Option<Note>, StoreError> {
        let session = session.to_owned();
        self.blocking(move |shared| shared.readers.with(|conn| notes::note(conn, &session, id)))
            .await
    }

    pub(crate) async fn notes_page(
        &self,
        session: &str,
        after: Option<crate::store::note::NoteKey>,
        head: u64,
    ) -> Result<crate::store::note::NotePage, StoreError> {
        let session = session.to_owned();
        self.blocking(move |shared| {
            shared
                .readers
                .with(|conn| notes::page(conn, &session, after, head))
        })
        .await
    }

    pub(crate) async fn notes_of_share(&self, share: u64) -> Result<u64, StoreError> {
        self.blocking(move |shared| {
            shared
                .readers
                .with(|conn| notes::count_of_share(conn, share))
        })
        .await
    }

    /// The sessions' hubs (and the index's live feed they mark).
    pub(crate) fn hubs(&self) -> &crate::hub::Hubs {
        &self.shared.hubs
    }

    pub(crate) fn loaded_hubs(&self) -> usize {
        self.shared.hubs.lock().len()
    }

    pub(crate) fn checkpoint_every(&self) -> u64 {
        self.shared.checkpoint_every
    }
}
