//! The database: one SQLite file in WAL mode, one writer thread, a pool of readers, and the
//! sessions' [`Hub`]s.
//!
//! Schema (version in `PRAGMA user_version`, migrated on open by [`MIGRATIONS`]):
//! - `sessions(id, title, source, started, ended, last_seq)`;
//! - `events(session, seq, ts, received, raw, cut_len, cut_limit)`: each event as received,
//!   `raw` byte for byte (only the first bytes of a line over the limit, whose length and
//!   the limit are in `cut_len`/`cut_limit`); `ts` the line's time or `received`;
//! - `checkpoints(session, seq, ctx, badges)`: the classifier context and badges after
//!   event `seq`, every `checkpoint_every` events (derived; see the crate's notes);
//! - `rendered(session, seq, json)`: the envelope of each event with rows, as the writer
//!   classified it (derived, like checkpoints; serves history pages without classifying);
//! - `follows(path, session, dev, ino, offset)`: how far a followed file has been stored;
//! - `meta(key, value)`: which classifier the derived tables were made with.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use classifier::ClassifyCtx;
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use tokio::sync::{mpsc, oneshot};

use crate::badges::Badges;
use crate::hub::{Hub, LivePreview, SessionInfo, push_json_frame};
use crate::replay::{self, classify_at, event_of};

/// Schema migrations; entry `i` takes `user_version` from `i` to `i + 1`.
pub const MIGRATIONS: &[&str] = &[
    r#"
CREATE TABLE sessions (
    id       TEXT PRIMARY KEY,
    title    TEXT NOT NULL,
    source   TEXT NOT NULL,
    started  REAL NOT NULL,
    ended    REAL,
    last_seq INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE events (
    session   TEXT NOT NULL,
    seq       INTEGER NOT NULL,
    ts        REAL NOT NULL,
    received  REAL NOT NULL,
    raw       BLOB NOT NULL,
    cut_len   INTEGER,
    cut_limit INTEGER,
    PRIMARY KEY (session, seq)
);
CREATE TABLE checkpoints (
    session TEXT NOT NULL,
    seq     INTEGER NOT NULL,
    ctx     TEXT NOT NULL,
    badges  TEXT NOT NULL,
    PRIMARY KEY (session, seq)
);
CREATE TABLE follows (
    path    TEXT PRIMARY KEY,
    session TEXT NOT NULL,
    dev     INTEGER NOT NULL,
    ino     INTEGER NOT NULL,
    offset  INTEGER NOT NULL
);
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"#,
    r#"
CREATE TABLE rendered (
    session TEXT NOT NULL,
    seq     INTEGER NOT NULL,
    json    TEXT NOT NULL,
    PRIMARY KEY (session, seq)
);
"#,
];

/// What derived data depends on: the checkpoint format, this crate's version and the
/// classifier's source (fingerprinted by `build.rs`). Derived data written under another is
/// dropped and rebuilt from the raw events on open.
const DERIVED_FORMAT: &str = concat!(
    "ctx-v1/",
    env!("CARGO_PKG_VERSION"),
    "/classifier-",
    env!("HIVETERM_CLASSIFIER_FINGERPRINT")
);

/// The default checkpoint interval.
pub const CHECKPOINT_EVERY: u64 = 256;

/// Most commands committed in one transaction.
const GROUP_MAX: usize = 256;

/// What can go wrong in the store.
#[derive(Debug)]
pub enum StoreError {
    /// SQLite failed.
    Sql(rusqlite::Error),
    /// No session with this id.
    NoSession(String),
    /// The session has ended; it takes no more events.
    Ended(String),
    /// Stored data does not parse.
    Corrupt(String),
    /// The database is from a newer hiveterm.
    TooNew(i64),
    /// The store is shut down.
    Closed,
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Sql(e) => write!(f, "database: {e}"),
            StoreError::NoSession(id) => write!(f, "no session {id}"),
            StoreError::Ended(id) => write!(f, "session {id} has ended"),
            StoreError::Corrupt(m) => write!(f, "database: {m}"),
            StoreError::TooNew(v) => write!(
                f,
                "database schema version {v} is newer than this hiveterm knows ({})",
                MIGRATIONS.len()
            ),
            StoreError::Closed => f.write_str("the store is shut down"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Sql(e)
    }
}

/// One line to store.
#[derive(Debug, Clone)]
pub struct RawLine {
    /// The bytes as received (the first bytes of an over-long line).
    pub bytes: Vec<u8>,
    /// For an over-long line: its full length and the limit.
    pub cut: Option<(u64, u64)>,
    /// When it was received (unix seconds).
    pub received: f64,
}

impl RawLine {
    /// A whole line received now.
    pub fn now(bytes: Vec<u8>) -> RawLine {
        RawLine {
            bytes,
            cut: None,
            received: crate::now(),
        }
    }

    /// A line from a [`classifier::LineReader`], received now.
    pub fn from_line(line: classifier::Line) -> RawLine {
        let cut = line.oversize.map(|o| (o.len, o.limit));
        RawLine {
            bytes: line.bytes,
            cut,
            received: crate::now(),
        }
    }
}

/// How far a followed file has been stored, committed with its lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FollowPos {
    /// The path as given.
    pub path: String,
    /// Device and inode of the file.
    pub dev: u64,
    /// Inode.
    pub ino: u64,
    /// Bytes stored through the last complete line.
    pub offset: u64,
}

/// The answer to an append.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Appended {
    /// The session was created by this append.
    pub created: bool,
    /// The seq of each line, in order.
    pub seqs: Vec<u64>,
}

/// An append request to the writer.
pub struct Append {
    /// The session.
    pub session: String,
    /// The lines, in order.
    pub lines: Vec<RawLine>,
    /// Create the session if missing, with this title and source.
    pub create: Option<(String, String)>,
    /// A followed file's position to commit with the lines.
    pub follow: Option<FollowPos>,
}

enum WriteCmd {
    Open {
        id: String,
        title: String,
        source: String,
        reply: oneshot::Sender<Result<bool, StoreError>>,
    },
    Append(Append, oneshot::Sender<Result<Appended, StoreError>>),
    End {
        id: String,
        reply: oneshot::Sender<Result<SessionInfo, StoreError>>,
    },
    Shutdown,
}

/// The database and the sessions' hubs. Cheap to clone.
#[derive(Clone)]
pub struct Store {
    inner: Arc<StoreInner>,
}

struct StoreInner {
    writer: mpsc::Sender<WriteCmd>,
    thread: Mutex<Option<JoinHandle<()>>>,
    shared: Arc<Shared>,
}

/// What the writer thread and the handlers share.
struct Shared {
    path: PathBuf,
    readers: Mutex<Vec<Connection>>,
    hubs: Mutex<HashMap<String, Arc<Hub>>>,
    checkpoint_every: u64,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Store {
    /// Opens (creating or migrating) the database at `path` and starts the writer thread.
    /// Sessions whose producer was this process (`run`, `stdin`, `follow`) and are still
    /// marked live are marked ended: their producer is gone.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Store::open_with(path, CHECKPOINT_EVERY)
    }

    /// [`Store::open`] with a checkpoint interval (tests use small ones).
    pub fn open_with(path: &Path, checkpoint_every: u64) -> Result<Store, StoreError> {
        let checkpoint_every = checkpoint_every.max(1);
        let mut conn = Connection::open(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        migrate(&mut conn)?;
        conn.execute(
            "UPDATE sessions SET ended = ?1
             WHERE ended IS NULL AND source IN ('run', 'stdin', 'follow')",
            params![crate::now()],
        )?;
        rebuild_derived_if_stale(&mut conn, checkpoint_every)?;
        let shared = Arc::new(Shared {
            path: path.to_owned(),
            readers: Mutex::new(Vec::new()),
            hubs: Mutex::new(HashMap::new()),
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
        Ok(Store {
            inner: Arc::new(StoreInner {
                writer: tx,
                thread: Mutex::new(Some(thread)),
                shared,
            }),
        })
    }

    /// Finishes every queued write and stops the writer thread. Later writes fail with
    /// [`StoreError::Closed`].
    pub async fn close(&self) {
        let _ = self.inner.writer.send(WriteCmd::Shutdown).await;
        let thread = lock(&self.inner.thread).take();
        if let Some(thread) = thread {
            let _ = tokio::task::spawn_blocking(move || thread.join()).await;
        }
    }

    /// Creates a session, or reopens (marks live) an existing one. Answers whether it was
    /// created.
    pub async fn open_session(
        &self,
        id: &str,
        title: &str,
        source: &str,
    ) -> Result<bool, StoreError> {
        let (reply, rx) = oneshot::channel();
        self.send(WriteCmd::Open {
            id: id.to_owned(),
            title: title.to_owned(),
            source: source.to_owned(),
            reply,
        })
        .await?;
        rx.await.map_err(|_| StoreError::Closed)?
    }

    /// Stores lines; answers once they are committed.
    pub async fn append(&self, append: Append) -> Result<Appended, StoreError> {
        let (reply, rx) = oneshot::channel();
        self.send(WriteCmd::Append(append, reply)).await?;
        rx.await.map_err(|_| StoreError::Closed)?
    }

    /// Marks a session ended.
    pub async fn end_session(&self, id: &str) -> Result<SessionInfo, StoreError> {
        let (reply, rx) = oneshot::channel();
        self.send(WriteCmd::End {
            id: id.to_owned(),
            reply,
        })
        .await?;
        rx.await.map_err(|_| StoreError::Closed)?
    }

    async fn send(&self, cmd: WriteCmd) -> Result<(), StoreError> {
        self.inner
            .writer
            .send(cmd)
            .await
            .map_err(|_| StoreError::Closed)
    }

    /// Runs `f` with a reader connection, on a blocking thread.
    pub async fn read<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let shared = self.inner.shared.clone();
        tokio::task::spawn_blocking(move || shared.with_reader(f))
            .await
            .map_err(|e| StoreError::Corrupt(format!("reader task failed: {e}")))?
    }

    /// The hub of a session, loading it from the database on first use; `None` if the
    /// session does not exist.
    pub async fn hub(&self, id: &str) -> Result<Option<Arc<Hub>>, StoreError> {
        if let Some(hub) = lock(&self.inner.shared.hubs).get(id) {
            return Ok(Some(hub.clone()));
        }
        let shared = self.inner.shared.clone();
        let id = id.to_owned();
        tokio::task::spawn_blocking(move || shared.hub(&id))
            .await
            .map_err(|e| StoreError::Corrupt(format!("hub task failed: {e}")))?
    }

    /// All sessions, newest first.
    pub async fn sessions(&self) -> Result<Vec<SessionInfo>, StoreError> {
        self.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id, title, source, started, ended, last_seq FROM sessions
                 ORDER BY started DESC, id",
            )?;
            let rows = stmt.query_map([], session_row)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    /// A followed file's stored position.
    pub async fn follow_pos(&self, path: &str) -> Result<Option<FollowPos>, StoreError> {
        let path = path.to_owned();
        self.read(move |conn| {
            Ok(conn
                .query_row(
                    "SELECT dev, ino, offset FROM follows WHERE path = ?1",
                    params![path],
                    |r| {
                        Ok(FollowPos {
                            path: path.clone(),
                            dev: r.get::<_, i64>(0)? as u64,
                            ino: r.get::<_, i64>(1)? as u64,
                            offset: r.get::<_, i64>(2)? as u64,
                        })
                    },
                )
                .optional()?)
        })
        .await
    }

    /// The checkpoint interval.
    pub fn checkpoint_every(&self) -> u64 {
        self.inner.shared.checkpoint_every
    }
}

fn session_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<SessionInfo> {
    let ended: Option<f64> = r.get(4)?;
    Ok(SessionInfo {
        id: r.get(0)?,
        title: r.get(1)?,
        source: r.get(2)?,
        started: r.get(3)?,
        ended,
        live: ended.is_none(),
        last_seq: r.get::<_, i64>(5)? as u64,
    })
}

fn load_session(conn: &Connection, id: &str) -> Result<Option<SessionInfo>, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT id, title, source, started, ended, last_seq FROM sessions WHERE id = ?1",
        )?
        .query_row(params![id], session_row)
        .optional()?)
}

impl Shared {
    fn with_reader<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let conn = lock(&self.readers).pop();
        let conn = match conn {
            Some(c) => c,
            None => {
                let c = Connection::open_with_flags(
                    &self.path,
                    OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )?;
                c.busy_timeout(std::time::Duration::from_secs(10))?;
                c
            }
        };
        // A read sees one snapshot: everything it reads was committed together.
        let result = (|| {
            conn.execute_batch("BEGIN")?;
            let r = f(&conn);
            conn.execute_batch("COMMIT")?;
            r
        })();
        if conn.is_autocommit() {
            lock(&self.readers).push(conn);
        }
        result
    }

    /// The hub of `id`, loaded under the hubs lock so it is loaded once and never while the
    /// writer is committing to that session (the writer takes the hub before it writes).
    fn hub(&self, id: &str) -> Result<Option<Arc<Hub>>, StoreError> {
        let mut hubs = lock(&self.hubs);
        if let Some(hub) = hubs.get(id) {
            return Ok(Some(hub.clone()));
        }
        let loaded = self.with_reader(|conn| {
            let Some(info) = load_session(conn, id)? else {
                return Ok(None);
            };
            let (ctx, badges) = replay::state_at(conn, id, info.last_seq)?;
            Ok(Some(Hub::new(info, ctx, badges)))
        })?;
        Ok(loaded.map(|hub| {
            let hub = Arc::new(hub);
            hubs.insert(id.to_owned(), hub.clone());
            hub
        }))
    }
}

fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if version > MIGRATIONS.len() as i64 {
        return Err(StoreError::TooNew(version));
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)?;
        tx.commit()?;
        tracing::info!("database migrated to schema version {}", i + 1);
    }
    Ok(())
}

/// Drops derived data (checkpoints, rendered envelopes) of another format, interval or
/// classifier and derives it again from the raw events.
fn rebuild_derived_if_stale(conn: &mut Connection, every: u64) -> Result<(), StoreError> {
    let want = format!("{DERIVED_FORMAT}/every-{every}");
    let have: Option<String> = conn
        .query_row("SELECT value FROM meta WHERE key = 'derived'", [], |r| {
            r.get(0)
        })
        .optional()?;
    if have.as_deref() == Some(want.as_str()) {
        return Ok(());
    }
    let tx = conn.transaction()?;
    tx.execute("DELETE FROM checkpoints", [])?;
    tx.execute("DELETE FROM rendered", [])?;
    let sessions: Vec<String> = {
        let mut stmt = tx.prepare("SELECT id FROM sessions")?;
        stmt.query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?
    };
    for id in &sessions {
        let (mut ctx, mut badges) = (ClassifyCtx::new(), Badges::default());
        let mut pos = 0;
        loop {
            let events = replay::load_events(&tx, id, pos, pos + 4096)?;
            if events.is_empty() {
                break;
            }
            for ev in events {
                let event = event_of(&ev.raw, ev.cut);
                let env = classify_at(&event, ev.seq, ev.ts, &mut ctx);
                badges.apply(&event, ev.ts, &env.msgs);
                if !env.msgs.is_empty() {
                    insert_rendered(&tx, id, ev.seq, &env)?;
                }
                if ev.seq % every == 0 {
                    insert_checkpoint(&tx, id, ev.seq, &ctx, &badges)?;
                }
                pos = ev.seq;
            }
        }
    }
    tx.execute(
        "INSERT OR REPLACE INTO meta(key, value) VALUES ('derived', ?1)",
        params![want],
    )?;
    tx.commit()?;
    if !sessions.is_empty() {
        tracing::info!("rebuilt derived rows of {} sessions", sessions.len());
    }
    Ok(())
}

/// Stores the envelope of an event with rows, as JSON.
fn insert_rendered(
    conn: &Connection,
    id: &str,
    seq: u64,
    env: &classifier::TermEnvelope,
) -> Result<(), StoreError> {
    let json = serde_json::to_string(env).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    insert_rendered_json(conn, id, seq, &json)
}

fn insert_rendered_json(
    conn: &Connection,
    id: &str,
    seq: u64,
    json: &str,
) -> Result<(), StoreError> {
    conn.prepare_cached("INSERT OR REPLACE INTO rendered(session, seq, json) VALUES (?1, ?2, ?3)")?
        .execute(params![id, seq as i64, json])?;
    Ok(())
}

fn insert_checkpoint(
    conn: &Connection,
    id: &str,
    seq: u64,
    ctx: &ClassifyCtx,
    badges: &Badges,
) -> Result<(), StoreError> {
    let ctx = serde_json::to_string(ctx).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    let badges = serde_json::to_string(badges).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    conn.prepare_cached(
        "INSERT OR REPLACE INTO checkpoints(session, seq, ctx, badges) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![id, seq as i64, ctx, badges])?;
    Ok(())
}

/// The writer thread: owns the write connection.
struct Writer {
    conn: Connection,
    shared: Arc<Shared>,
}

/// A session's state while a group is being written; installed in its hub after commit.
struct Pending {
    hub: Arc<Hub>,
    created: bool,
    info: SessionInfo,
    ctx: ClassifyCtx,
    badges: Badges,
    preview: LivePreview,
    /// Whether this group changed `preview` (then a `preview` frame is published).
    preview_changed: bool,
    frames: Vec<u8>,
}

/// A command done inside the transaction, waiting for the commit to be answered.
enum Done {
    Open(
        oneshot::Sender<Result<bool, StoreError>>,
        Result<bool, StoreError>,
    ),
    Append(
        oneshot::Sender<Result<Appended, StoreError>>,
        Result<Appended, StoreError>,
    ),
    End(
        oneshot::Sender<Result<SessionInfo, StoreError>>,
        Result<SessionInfo, StoreError>,
    ),
}

impl Done {
    fn answer(self, failed: Option<&str>) {
        let fail = |m: &str| StoreError::Corrupt(format!("commit failed: {m}"));
        match (self, failed) {
            (Done::Open(tx, r), None) => drop(tx.send(r)),
            (Done::Open(tx, r), Some(m)) => drop(tx.send(r.and(Err(fail(m))))),
            (Done::Append(tx, r), None) => drop(tx.send(r)),
            (Done::Append(tx, r), Some(m)) => drop(tx.send(r.and(Err(fail(m))))),
            (Done::End(tx, r), None) => drop(tx.send(r)),
            (Done::End(tx, r), Some(m)) => drop(tx.send(r.and(Err(fail(m))))),
        }
    }
}

impl Writer {
    fn run(mut self, mut rx: mpsc::Receiver<WriteCmd>) {
        while let Some(first) = rx.blocking_recv() {
            let mut group = vec![first];
            while group.len() < GROUP_MAX {
                match rx.try_recv() {
                    Ok(cmd) => group.push(cmd),
                    Err(_) => break,
                }
            }
            let shutdown = group.iter().any(|c| matches!(c, WriteCmd::Shutdown));
            self.write_group(group);
            if shutdown {
                break;
            }
        }
        if let Err(e) = self.conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)") {
            tracing::warn!("final WAL checkpoint: {e}");
        }
    }

    fn write_group(&mut self, group: Vec<WriteCmd>) {
        let mut pending: HashMap<String, Pending> = HashMap::new();
        let mut done: Vec<Done> = Vec::with_capacity(group.len());
        let tx = match self.conn.transaction() {
            Ok(tx) => tx,
            Err(e) => {
                let msg = e.to_string();
                for cmd in group {
                    fail_cmd(cmd, &msg);
                }
                return;
            }
        };
        let mut sql_error: Option<String> = None;
        for cmd in group {
            if let Some(msg) = &sql_error {
                fail_cmd(cmd, msg);
                continue;
            }
            let shared = &self.shared;
            let every = shared.checkpoint_every;
            let item = match cmd {
                WriteCmd::Shutdown => continue,
                WriteCmd::Open {
                    id,
                    title,
                    source,
                    reply,
                } => {
                    let r = (|| {
                        let (p, created) =
                            pending_for(shared, &tx, &mut pending, &id, Some((&title, &source)))?;
                        if !created && p.info.ended.is_some() {
                            p.info.ended = None;
                            p.info.live = true;
                            tx.execute(
                                "UPDATE sessions SET ended = NULL WHERE id = ?1",
                                params![id],
                            )?;
                        }
                        Ok(created)
                    })();
                    Done::Open(reply, r)
                }
                WriteCmd::Append(a, reply) => {
                    let r = append(shared, &tx, &mut pending, a, every);
                    Done::Append(reply, r)
                }
                WriteCmd::End { id, reply } => {
                    let r = (|| {
                        let (p, _) = pending_for(shared, &tx, &mut pending, &id, None)?;
                        if p.info.ended.is_none() {
                            // A message cut off by the end is no longer being written.
                            if !p.preview.preview.is_empty() {
                                p.preview = LivePreview {
                                    preview: classifier::Preview::new(),
                                    seq: p.info.last_seq,
                                };
                                p.preview_changed = true;
                            }
                            let now = crate::now();
                            p.info.ended = Some(now);
                            p.info.live = false;
                            tx.execute(
                                "UPDATE sessions SET ended = ?2 WHERE id = ?1",
                                params![id, now],
                            )?;
                        }
                        Ok(p.info.clone())
                    })();
                    Done::End(reply, r)
                }
            };
            // A refused command (no such session, ended) wrote nothing; any other error
            // may have written part of a command, so the whole group is rolled back.
            let fatal = match &item {
                Done::Open(_, Err(e)) => fatal(e),
                Done::Append(_, Err(e)) => fatal(e),
                Done::End(_, Err(e)) => fatal(e),
                _ => None,
            };
            if fatal.is_some() {
                sql_error = fatal;
            }
            done.push(item);
        }
        let failed = match sql_error {
            Some(msg) => {
                let _ = tx.rollback();
                Some(msg)
            }
            None => tx.commit().err().map(|e| e.to_string()),
        };
        if let Some(msg) = &failed {
            tracing::error!("write failed, rolled back: {msg}");
        } else {
            let mut hubs = lock(&self.shared.hubs);
            for (id, p) in pending {
                if p.created {
                    hubs.insert(id, p.hub.clone());
                }
                let preview = p.preview_changed.then_some(p.preview);
                p.hub.publish(p.info, p.ctx, p.badges, preview, p.frames);
            }
        }
        for d in done {
            d.answer(failed.as_deref());
        }
    }
}

fn fatal(e: &StoreError) -> Option<String> {
    match e {
        StoreError::NoSession(_) | StoreError::Ended(_) => None,
        other => Some(other.to_string()),
    }
}

fn fail_cmd(cmd: WriteCmd, msg: &str) {
    let err = || StoreError::Corrupt(format!("write failed: {msg}"));
    match cmd {
        WriteCmd::Open { reply, .. } => drop(reply.send(Err(err()))),
        WriteCmd::Append(_, reply) => drop(reply.send(Err(err()))),
        WriteCmd::End { reply, .. } => drop(reply.send(Err(err()))),
        WriteCmd::Shutdown => {}
    }
}

/// The pending state of session `id` in this group, from its hub (loaded if need be), or a
/// new session when it does not exist and `create` is given. Also answers whether it was
/// created by this call.
fn pending_for<'a>(
    shared: &Shared,
    tx: &Connection,
    pending: &'a mut HashMap<String, Pending>,
    id: &str,
    create: Option<(&str, &str)>,
) -> Result<(&'a mut Pending, bool), StoreError> {
    let mut created = false;
    if !pending.contains_key(id) {
        let p = match shared.hub(id)? {
            Some(hub) => {
                let inner = hub.lock();
                let p = Pending {
                    hub: hub.clone(),
                    created: false,
                    info: inner.info.clone(),
                    ctx: inner.ctx.clone(),
                    badges: inner.badges.clone(),
                    preview: inner.preview.clone(),
                    preview_changed: false,
                    frames: Vec::new(),
                };
                drop(inner);
                p
            }
            None => {
                let Some((title, source)) = create else {
                    return Err(StoreError::NoSession(id.to_owned()));
                };
                let info = SessionInfo {
                    id: id.to_owned(),
                    title: title.to_owned(),
                    source: source.to_owned(),
                    started: crate::now(),
                    ended: None,
                    live: true,
                    last_seq: 0,
                };
                tx.execute(
                    "INSERT INTO sessions(id, title, source, started, ended, last_seq)
                     VALUES (?1, ?2, ?3, ?4, NULL, 0)",
                    params![info.id, info.title, info.source, info.started],
                )?;
                created = true;
                tracing::info!("session {id} created ({source}): {title}");
                Pending {
                    hub: Arc::new(Hub::new(
                        info.clone(),
                        ClassifyCtx::new(),
                        Badges::default(),
                    )),
                    created: true,
                    info,
                    ctx: ClassifyCtx::new(),
                    badges: Badges::default(),
                    preview: LivePreview::default(),
                    preview_changed: false,
                    frames: Vec::new(),
                }
            }
        };
        pending.insert(id.to_owned(), p);
    }
    let p = pending.get_mut(id).expect("inserted above");
    Ok((p, created))
}

fn append(
    shared: &Shared,
    tx: &Connection,
    pending: &mut HashMap<String, Pending>,
    a: Append,
    every: u64,
) -> Result<Appended, StoreError> {
    let create = a.create.as_ref().map(|(t, s)| (t.as_str(), s.as_str()));
    let (p, created) = pending_for(shared, tx, pending, &a.session, create)?;
    if p.info.ended.is_some() {
        return Err(StoreError::Ended(a.session));
    }
    let mut insert = tx.prepare_cached(
        "INSERT INTO events(session, seq, ts, received, raw, cut_len, cut_limit)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    let mut seqs = Vec::with_capacity(a.lines.len());
    for line in a.lines {
        let seq = p.info.last_seq + 1;
        let event = event_of(&line.bytes, line.cut);
        let ts = event.ts.filter(|t| t.is_finite()).unwrap_or(line.received);
        let env = classify_at(&event, seq, ts, &mut p.ctx);
        p.badges.apply(&event, ts, &env.msgs);
        if p.preview.preview.apply(&event.event) {
            p.preview.seq = seq;
            p.preview_changed = true;
        }
        insert.execute(params![
            a.session,
            seq as i64,
            ts,
            line.received,
            line.bytes,
            line.cut.map(|c| c.0 as i64),
            line.cut.map(|c| c.1 as i64),
        ])?;
        if !env.msgs.is_empty() {
            let json =
                serde_json::to_string(&env).map_err(|e| StoreError::Corrupt(e.to_string()))?;
            insert_rendered_json(tx, &a.session, seq, &json)?;
            push_json_frame(&mut p.frames, seq, &json);
        }
        p.info.last_seq = seq;
        if seq % every == 0 {
            insert_checkpoint(tx, &a.session, seq, &p.ctx, &p.badges)?;
        }
        seqs.push(seq);
    }
    tx.prepare_cached("UPDATE sessions SET last_seq = ?2 WHERE id = ?1")?
        .execute(params![a.session, p.info.last_seq as i64])?;
    if let Some(f) = &a.follow {
        tx.prepare_cached(
            "INSERT OR REPLACE INTO follows(path, session, dev, ino, offset)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(params![
            f.path,
            a.session,
            f.dev as i64,
            f.ino as i64,
            f.offset as i64
        ])?;
    }
    Ok(Appended { created, seqs })
}
