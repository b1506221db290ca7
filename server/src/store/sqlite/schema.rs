//! The SQLite schema: its migrations, opening the write connection, the rows of the derived
//! tables, and rebuilding them when the classifier changes.
//!
//! Tables (version in `PRAGMA user_version`, migrated on open by `super::migrations::MIGRATIONS`):
//! - `sessions(id, title, source, started, ended, last_seq, given_title, agent,
//!   agent_version, project, model, started_at, ended_at, outcome, turns, errors,
//!   input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens, cost,
//!   first_error, newest_row)`: `given_title` the title its client gave, `newest_row` the
//!   time of its newest search row (`super::search`), the rest the index's columns
//!   (`crate::index`), indexed for `GET /api/sessions`' sorts (`sessions_newest`,
//!   `sessions_cost`, `sessions_errors`) and filters (`sessions_agent`, `sessions_project`);
//! - `events(session, seq, ts, received, raw, cut_len, cut_limit, source)`: each event as
//!   received, `raw` byte for byte (only the first bytes of a line over the limit, whose
//!   length and the limit are in `cut_len`/`cut_limit`); `ts` the line's time or `received`;
//!   `source` the session's file it came from when not the main one (a subagent's id,
//!   [`crate::fold::StoredEvent::source`]: classified with that file's context);
//! - `checkpoints(session, seq, ctx, badges, summary)`: the session's fold after event `seq`
//!   ([`crate::fold::Checkpoint`]), every `checkpoint_every` events (derived);
//! - `rendered(session, seq, json)`: the envelope of each event with rows, as the writer
//!   folded it (derived, like checkpoints; serves history pages without classifying);
//! - the JSON of both, DEFLATEd as a BLOB when that makes it smaller, else TEXT (issue 51,
//!   `super::packed`: a database written before holds TEXT, read as it is);
//! - `follows(path, session, dev, ino, offset, within, mark)`: how far a followed file has
//!   been stored, and a hash of its bytes before there (`crate::ingest::mark`);
//! - `idempotency(session, key, first_seq, last_seq, lines, body_sha256)`: what was stored
//!   under a POST's `Idempotency-Key`, and the SHA-256 of the body first sent with it
//!   (indexed by `(session, last_seq)` too: a session's newest key is what a forwarder
//!   resumes from);
//! - `search_rows(id, session, seq, rowno, ts, level, icon, summary, body)`: each row of each
//!   stored envelope (derived, like `rendered`), and `search_fts`, its FTS5 `trigram` index
//!   over `summary` and `body` (`super::search`);
//! - `meta(key, value)`: which classifier the derived tables were made with;
//! - `shares(id, token_hash, session, title, created, expires, snapshot_seq, redact,
//!   revoked, comments, compare_with, compare_seq)`: share links (`crate::store::share`), the
//!   token only as its SHA-256; a comparison link's second session in `compare_with`;
//! - `notes(id, session, from_seq, to_seq, text, author, created, updated, share)`: notes on
//!   a session's rows (`crate::store::note`), `share` the comment link a reader used.

use std::path::Path;

use classifier::TermEnvelope;
use classifier::prices::Prices;
use rusqlite::{Connection, OptionalExtension, params};

use crate::fold::{Checkpoint, SessionFold, StoredEvent};
use crate::index::{self, Index};
use crate::store::derived;
use crate::store::derived::Derive;
use crate::store::error::StoreError;
use crate::store::prices_seen::{self, Reprice, Unstated};

use super::migrations::MIGRATIONS;
use super::packed;
use super::reader;

/// The write connection's page cache, in KiB.
const WRITER_CACHE_KIB: i64 = 16 * 1024;

/// Opens (creating or migrating) the database at `path` as the write connection, marks the
/// sessions whose producer was a process (`run`, `stdin`, `follow`, `watch`) and that are still live
/// ended (their producer is gone), rebuilds stale derived tables, and prices again the stored
/// estimates made with prices other than `prices` ([`prices_seen`]).
pub(super) fn open_writer(
    path: &Path,
    every: u64,
    prices: &Prices,
) -> Result<Connection, StoreError> {
    let mut conn = open_admin(path)?;
    // The writer's page cache (the default is 2 MB): the indexes' pages it touches stay in
    // memory between transactions. (The write-ahead log keeps SQLite's 1,000-page checkpoint:
    // at 10,000 an import was 8% faster, but under the load benchmark every reader looked
    // through a 40 MB log, fell behind and read its backlog from the database, and the
    // server grew to 9 GB.)
    conn.pragma_update(None, "cache_size", -WRITER_CACHE_KIB)?;
    conn.execute(
        "UPDATE sessions SET ended = ?1
         WHERE ended IS NULL AND source IN ('run', 'stdin', 'follow', 'watch')",
        params![crate::clock::now()],
    )?;
    rebuild_derived_if_stale(&mut conn, every)?;
    let tx = conn.transaction()?;
    let repriced = derived::ready(prices_seen::reprice_if_changed(&mut Derived(&tx), prices))?;
    tx.commit()?;
    prices_seen::log_repriced(repriced);
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

/// Drops derived data (checkpoints, rendered envelopes, the search index) of another format, interval or
/// classifier ([`derived::derived_format`]) and derives it again from the raw events,
/// through the one fold ([`derived::rebuild_if_stale`], in one transaction).
fn rebuild_derived_if_stale(conn: &mut Connection, every: u64) -> Result<(), StoreError> {
    let tx = conn.transaction()?;
    let rebuilt = derived::ready(derived::rebuild_if_stale(&mut Derived(&tx), every))?;
    if rebuilt.is_some() {
        // The search index was emptied and its rows added again: their FTS entries.
        super::search::sync(&tx, 0)?;
    }
    tx.commit()?;
    derived::log_rebuilt(rebuilt);
    Ok(())
}

/// The rebuild's statements over a SQLite transaction.
struct Derived<'a>(&'a Connection);

impl Derive for Derived<'_> {
    async fn stored_format(&mut self) -> Result<Option<String>, StoreError> {
        Ok(self
            .0
            .query_row("SELECT value FROM meta WHERE key = 'derived'", [], |r| {
                r.get(0)
            })
            .optional()?)
    }

    async fn clear(&mut self) -> Result<(), StoreError> {
        self.0.execute("DELETE FROM checkpoints", [])?;
        self.0.execute("DELETE FROM rendered", [])?;
        super::search::clear(self.0)
    }

    async fn sessions(&mut self) -> Result<Vec<String>, StoreError> {
        let mut stmt = self.0.prepare("SELECT id FROM sessions")?;
        Ok(stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?)
    }

    async fn events(
        &mut self,
        session: &str,
        after: u64,
        upto: u64,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        reader::load_events(self.0, session, after, upto)
    }

    async fn rendered(
        &mut self,
        session: &str,
        seq: u64,
        env: &TermEnvelope,
        json: &str,
    ) -> Result<(), StoreError> {
        insert_rendered(self.0, session, seq, env, json)
    }

    async fn checkpoint(
        &mut self,
        session: &str,
        seq: u64,
        cp: &Checkpoint,
    ) -> Result<(), StoreError> {
        insert_checkpoint(self.0, session, seq, cp)
    }

    async fn index(&mut self, session: &str, fold: &SessionFold) -> Result<(), StoreError> {
        let given: String = self.0.query_row(
            "SELECT COALESCE(given_title, title) FROM sessions WHERE id = ?1",
            params![session],
            |r| r.get(0),
        )?;
        let (title, idx) = index::row_of(session, &given, fold);
        update_index(self.0, session, &title, &idx)
    }

    async fn set_format(&mut self, format: &str) -> Result<(), StoreError> {
        self.0.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES ('derived', ?1)",
            params![format],
        )?;
        Ok(())
    }
}

/// [`prices_seen`]'s statements over a SQLite transaction.
impl Reprice for Derived<'_> {
    async fn stored_prices(&mut self) -> Result<Option<String>, StoreError> {
        Ok(self
            .0
            .query_row("SELECT value FROM meta WHERE key = 'prices'", [], |r| {
                r.get(0)
            })
            .optional()?)
    }

    async fn unstated(&mut self) -> Result<Vec<Unstated>, StoreError> {
        let mut stmt = self.0.prepare(prices_seen::UNSTATED_SQL)?;
        Ok(stmt
            .query_map([], |r| {
                Ok(Unstated {
                    id: r.get(0)?,
                    tokens_by_model: r.get(1)?,
                })
            })?
            .collect::<Result<_, _>>()?)
    }

    async fn set_cost(
        &mut self,
        id: &str,
        cost: Option<f64>,
        unpriced: Option<String>,
    ) -> Result<(), StoreError> {
        self.0
            .prepare_cached(&prices_seen::set_cost_sql(|n| format!("?{n}")))?
            .execute(params![id, cost, i64::from(cost.is_some()), unpriced])?;
        Ok(())
    }

    async fn set_prices(&mut self, fingerprint: &str) -> Result<(), StoreError> {
        self.0.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES ('prices', ?1)",
            params![fingerprint],
        )?;
        Ok(())
    }
}

/// Stores the envelope `env` (as `json`, packed when that makes it smaller) of event `seq`,
/// which has rows, and indexes its rows for search.
pub(super) fn insert_rendered(
    conn: &Connection,
    id: &str,
    seq: u64,
    env: &TermEnvelope,
    json: &str,
) -> Result<(), StoreError> {
    conn.prepare_cached("INSERT OR REPLACE INTO rendered(session, seq, json) VALUES (?1, ?2, ?3)")?
        .execute(params![id, seq as i64, packed::value(json)])?;
    super::search::index(conn, id, seq, env)
}

/// Stores the fold after event `seq` (each column packed when that makes it smaller).
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
    .execute(params![
        id,
        seq as i64,
        packed::value(&ctx),
        packed::value(&badges),
        packed::value(&summary)
    ])?;
    Ok(())
}

/// Sets a session's title and index columns (`crate::index`).
pub(super) fn update_index(
    conn: &Connection,
    id: &str,
    title: &str,
    idx: &Index,
) -> Result<(), StoreError> {
    let sql = index::update_sql(|n| format!("?{n}"));
    let args = index::update_args(id, title, idx);
    conn.prepare_cached(&sql)?
        .execute(rusqlite::params_from_iter(
            args.iter().map(super::index::sql_value),
        ))?;
    Ok(())
}
