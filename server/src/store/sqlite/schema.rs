//! The SQLite schema: its migrations, opening the write connection, the rows of the derived
//! tables, and rebuilding them when the classifier changes.
//!
//! Tables (version in `PRAGMA user_version`, migrated on open by [`MIGRATIONS`]):
//! - `sessions(id, title, source, started, ended, last_seq)`;
//! - `events(session, seq, ts, received, raw, cut_len, cut_limit)`: each event as received,
//!   `raw` byte for byte (only the first bytes of a line over the limit, whose length and
//!   the limit are in `cut_len`/`cut_limit`); `ts` the line's time or `received`;
//! - `checkpoints(session, seq, ctx, badges, summary)`: the session's fold after event `seq`
//!   ([`crate::fold::Checkpoint`]), every `checkpoint_every` events (derived);
//! - `rendered(session, seq, json)`: the envelope of each event with rows, as the writer
//!   folded it (derived, like checkpoints; serves history pages without classifying);
//! - `follows(path, session, dev, ino, offset)`: how far a followed file has been stored;
//! - `meta(key, value)`: which classifier the derived tables were made with;
//! - `shares(id, token_hash, session, title, created, expires, snapshot_seq, redact,
//!   revoked)`: share links (`crate::store::share`), the token only as its SHA-256.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};

use crate::fold::{Checkpoint, SessionFold};
use crate::store::StoreError;

use super::reader;

/// Schema migrations; entry `i` takes `user_version` from `i` to `i + 1`.
pub(crate) const MIGRATIONS: &[&str] = &[
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
    r#"
CREATE TABLE idempotency (
    session   TEXT NOT NULL,
    key       TEXT NOT NULL,
    first_seq INTEGER NOT NULL,
    last_seq  INTEGER NOT NULL,
    lines     INTEGER NOT NULL,
    PRIMARY KEY (session, key)
);
"#,
    r#"
ALTER TABLE checkpoints ADD COLUMN summary TEXT NOT NULL DEFAULT '{}';
"#,
    r#"
CREATE TABLE shares (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    token_hash   BLOB NOT NULL UNIQUE,
    session      TEXT NOT NULL,
    title        TEXT,
    created      REAL NOT NULL,
    expires      REAL,
    snapshot_seq INTEGER,
    redact       INTEGER NOT NULL DEFAULT 0,
    revoked      REAL
);
"#,
];

/// Opens (creating or migrating) the database at `path` as the write connection, marks the
/// sessions whose producer was a process (`run`, `stdin`, `follow`) and that are still live
/// ended (their producer is gone), and rebuilds stale derived tables.
pub(super) fn open_writer(path: &Path, every: u64) -> Result<Connection, StoreError> {
    let mut conn = open_admin(path)?;
    conn.execute(
        "UPDATE sessions SET ended = ?1
         WHERE ended IS NULL AND source IN ('run', 'stdin', 'follow')",
        params![crate::clock::now()],
    )?;
    rebuild_derived_if_stale(&mut conn, every)?;
    Ok(conn)
}

/// Opens (creating or migrating) the database at `path` as a write connection, and does
/// nothing else: what a one-shot command beside a running server opens.
pub(super) fn open_admin(path: &Path) -> Result<Connection, StoreError> {
    let mut conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    migrate(&mut conn)?;
    Ok(conn)
}

fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if version > MIGRATIONS.len() as i64 {
        return Err(StoreError::TooNew(version, MIGRATIONS.len()));
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
/// classifier ([`crate::store::DERIVED_FORMAT`]) and derives it again from the raw events,
/// through the one fold.
fn rebuild_derived_if_stale(conn: &mut Connection, every: u64) -> Result<(), StoreError> {
    let want = crate::store::derived_format(every);
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
        let mut fold = SessionFold::default();
        let mut pos = 0;
        loop {
            let events = reader::load_events(&tx, id, pos, pos + 4096)?;
            if events.is_empty() {
                break;
            }
            for ev in events {
                let env = fold.step_stored(&ev).env;
                if !env.msgs.is_empty() {
                    insert_rendered(&tx, id, ev.seq(), &serde_json::to_string(&env)?)?;
                }
                if ev.seq() % every == 0 {
                    insert_checkpoint(&tx, id, ev.seq(), &fold.checkpoint())?;
                }
                pos = ev.seq();
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

/// Stores the envelope (as JSON) of event `seq`, which has rows.
pub(super) fn insert_rendered(
    conn: &Connection,
    id: &str,
    seq: u64,
    json: &str,
) -> Result<(), StoreError> {
    conn.prepare_cached("INSERT OR REPLACE INTO rendered(session, seq, json) VALUES (?1, ?2, ?3)")?
        .execute(params![id, seq as i64, json])?;
    Ok(())
}

/// Stores the fold after event `seq`.
pub(super) fn insert_checkpoint(
    conn: &Connection,
    id: &str,
    seq: u64,
    cp: &Checkpoint,
) -> Result<(), StoreError> {
    let [ctx, badges, summary] = cp.to_columns()?;
    conn.prepare_cached(
        "INSERT OR REPLACE INTO checkpoints(session, seq, ctx, badges, summary)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![id, seq as i64, ctx, badges, summary])?;
    Ok(())
}
