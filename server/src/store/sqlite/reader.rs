//! Reading SQLite: a pool of read-only connections, each read one snapshot; the sessions,
//! a session's fold at any seq (a checkpoint plus the events after it, through the one
//! fold), and history pages and SSE backlogs from the stored envelopes.

use std::path::PathBuf;
use std::sync::Mutex;

use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};

use super::packed;
use crate::fold::{Checkpoint, SessionFold, StoredEvent, stored_line};
use crate::hub::{Hub, SessionInfo, push_json_frame};
use crate::index::SESSION_COLUMNS;
use crate::store::error::StoreError;
use crate::store::request::{BACKFILL_BYTES, BACKFILL_ROWS, FollowPos, HistoryPage, Keyed};

/// Events read from the database at a time.
const CHUNK_EVENTS: u64 = 512;

/// Read-only connections to the database, reused.
pub(super) struct Readers {
    path: PathBuf,
    pool: Mutex<Vec<Connection>>,
}

impl Readers {
    pub(super) fn new(path: PathBuf) -> Readers {
        Readers {
            path,
            pool: Mutex::new(Vec::new()),
        }
    }

    fn pool(&self) -> std::sync::MutexGuard<'_, Vec<Connection>> {
        self.pool.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` with a reader connection in one read transaction, so everything it reads was
    /// committed together. Blocks: call it on a blocking thread.
    pub(super) fn with<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let conn = self.pool().pop();
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
        let result = (|| {
            conn.execute_batch("BEGIN")?;
            let r = f(&conn);
            conn.execute_batch("COMMIT")?;
            r
        })();
        if conn.is_autocommit() {
            self.pool().push(conn);
        }
        result
    }
}

pub(super) fn session_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<SessionInfo> {
    let ended: Option<f64> = r.get(4)?;
    Ok(SessionInfo {
        id: r.get(0)?,
        title: r.get(1)?,
        source: r.get(2)?,
        started: r.get(3)?,
        ended,
        live: ended.is_none(),
        last_seq: r.get::<_, i64>(5)? as u64,
        given_title: r.get(6)?,
    })
}

/// At most `limit` sessions, newest first (by `started`, then id), after `before` (the
/// `started` and id of the last one of the previous page).
pub(super) fn sessions(
    conn: &Connection,
    before: Option<&(f64, String)>,
    limit: usize,
) -> Result<Vec<SessionInfo>, StoreError> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let rows = match before {
        None => conn
            .prepare_cached(&format!(
                "SELECT {SESSION_COLUMNS} FROM sessions ORDER BY started DESC, id LIMIT ?1"
            ))?
            .query_map(params![limit], session_row)?
            .collect::<Result<_, _>>()?,
        Some((started, id)) => conn
            .prepare_cached(&format!(
                "SELECT {SESSION_COLUMNS} FROM sessions
                 WHERE started < ?1 OR (started = ?1 AND id > ?2)
                 ORDER BY started DESC, id LIMIT ?3"
            ))?
            .query_map(params![started, id, limit], session_row)?
            .collect::<Result<_, _>>()?,
    };
    Ok(rows)
}

/// One session's row.
pub(super) fn session(conn: &Connection, id: &str) -> Result<Option<SessionInfo>, StoreError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {SESSION_COLUMNS} FROM sessions WHERE id = ?1"
        ))?
        .query_row(params![id], session_row)
        .optional()?)
}

/// A followed file's stored position.
pub(super) fn follow_pos(
    conn: &Connection,
    path: &str,
) -> Result<Option<(FollowPos, String)>, StoreError> {
    Ok(conn
        .query_row(
            "SELECT dev, ino, offset, session, within, mark FROM follows WHERE path = ?1",
            params![path],
            |r| {
                let pos = FollowPos {
                    path: path.to_owned(),
                    dev: r.get::<_, i64>(0)? as u64,
                    ino: r.get::<_, i64>(1)? as u64,
                    offset: r.get::<_, i64>(2)? as u64,
                    within: r.get::<_, i64>(4)? as u64,
                    mark: r.get::<_, i64>(5)? as u64,
                };
                Ok((pos, r.get::<_, String>(3)?))
            },
        )
        .optional()?)
}

/// A session's newest idempotency key (the one whose lines end last) and what was stored
/// under it.
pub(super) fn last_key(
    conn: &Connection,
    session: &str,
) -> Result<Option<(String, Keyed)>, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT key, first_seq, last_seq, lines, body_sha256 FROM idempotency
             WHERE session = ?1 ORDER BY last_seq DESC LIMIT 1",
        )?
        .query_row(params![session], |r| {
            Ok((
                r.get::<_, String>(0)?,
                Keyed {
                    first_seq: r.get::<_, i64>(1)? as u64,
                    last_seq: r.get::<_, i64>(2)? as u64,
                    lines: r.get::<_, i64>(3)? as u64,
                    body_sha256: r
                        .get::<_, Option<Vec<u8>>>(4)?
                        .and_then(|h| h.try_into().ok()),
                },
            ))
        })
        .optional()?)
}

/// What was stored under an idempotency key.
pub(super) fn keyed(
    conn: &Connection,
    session: &str,
    key: &str,
) -> Result<Option<Keyed>, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT first_seq, last_seq, lines, body_sha256 FROM idempotency
             WHERE session = ?1 AND key = ?2",
        )?
        .query_row(params![session, key], |r| {
            Ok(Keyed {
                first_seq: r.get::<_, i64>(0)? as u64,
                last_seq: r.get::<_, i64>(1)? as u64,
                lines: r.get::<_, i64>(2)? as u64,
                body_sha256: r
                    .get::<_, Option<Vec<u8>>>(3)?
                    .and_then(|h| h.try_into().ok()),
            })
        })
        .optional()?)
}

/// Events `(after, upto]` of a session, oldest first.
pub(super) fn load_events(
    conn: &Connection,
    session: &str,
    after: u64,
    upto: u64,
) -> Result<Vec<StoredEvent>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT seq, ts, raw, cut_len, cut_limit, source FROM events
         WHERE session = ?1 AND seq > ?2 AND seq <= ?3 ORDER BY seq",
    )?;
    let rows = stmt.query_map(params![session, after as i64, upto as i64], |r| {
        let cut_len: Option<i64> = r.get(3)?;
        let cut_limit: Option<i64> = r.get(4)?;
        let cut = cut_len.map(|len| (len as u64, cut_limit.unwrap_or(0) as u64));
        Ok(StoredEvent {
            ts: r.get(1)?,
            line: stored_line(r.get::<_, i64>(0)? as u64, r.get(2)?, cut),
            source: r.get(5)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The session's fold after event `seq`: the newest checkpoint at or before it plus the
/// events in between, with no partial message (a message cut by a checkpoint would be shown
/// wrong; previews are transient).
pub(super) fn fold_at(
    conn: &Connection,
    session: &str,
    seq: u64,
) -> Result<SessionFold, StoreError> {
    let (mut pos, cp) = checkpoint_at(conn, session, seq)?;
    let mut fold = SessionFold::resume(cp);
    while pos < seq {
        let upto = seq.min(pos + CHUNK_EVENTS);
        for ev in load_events(conn, session, pos, upto)? {
            fold.step_stored(&ev);
        }
        pos = upto;
    }
    fold.preview = Default::default();
    Ok(fold)
}

/// The hub of session `id` as stored, or `None` if there is no such session.
pub(super) fn load_hub(conn: &Connection, id: &str) -> Result<Option<Hub>, StoreError> {
    let Some(info) = session(conn, id)? else {
        return Ok(None);
    };
    let fold = fold_at(conn, id, info.last_seq)?;
    Ok(Some(Hub::new(info, fold)))
}

/// A history page (`{"envelopes", "next_before", "head"}`, see `docs/API.md`) read from the
/// stored envelopes: events with rows and `seq < before` (and `<= head`), newest first. No
/// classification happens here.
pub(super) fn rendered_page(
    conn: &Connection,
    session: &str,
    head: u64,
    before: Option<u64>,
    limit: usize,
) -> Result<Vec<u8>, StoreError> {
    let hi = before.map_or(head + 1, |b| b.min(head + 1));
    let mut stmt = conn.prepare_cached(
        "SELECT seq, json FROM rendered WHERE session = ?1 AND seq < ?2
         ORDER BY seq DESC LIMIT ?3",
    )?;
    let mut rows = stmt.query(params![session, hi as i64, limit as i64 + 1])?;
    let mut page = HistoryPage::new(limit);
    while let Some(row) = rows.next()? {
        let seq = row.get::<_, i64>(0)? as u64;
        if !page.push(seq, &packed::text(row.get_ref(1)?)?) {
            break;
        }
    }
    Ok(page.finish(head))
}

/// SSE frames of the stored envelopes of events `(after, upto]`, a bounded chunk of them.
/// Returns the frames and the seq they reach (`upto` when all were read).
pub(super) fn rendered_frames(
    conn: &Connection,
    session: &str,
    after: u64,
    upto: u64,
) -> Result<(Vec<u8>, u64), StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT seq, json FROM rendered WHERE session = ?1 AND seq > ?2 AND seq <= ?3
         ORDER BY seq LIMIT ?4",
    )?;
    let mut rows = stmt.query(params![session, after as i64, upto as i64, BACKFILL_ROWS])?;
    let mut out = Vec::new();
    let mut count = 0;
    let mut last = after;
    while let Some(row) = rows.next()? {
        let seq = row.get::<_, i64>(0)? as u64;
        push_json_frame(&mut out, seq, &packed::text(row.get_ref(1)?)?);
        last = seq;
        count += 1;
        if out.len() >= BACKFILL_BYTES {
            return Ok((out, last));
        }
    }
    Ok((out, if count < BACKFILL_ROWS { upto } else { last }))
}

/// The newest checkpoint at or before `seq`: its seq and the fold; `(0, empty)` when there
/// is none.
fn checkpoint_at(
    conn: &Connection,
    session: &str,
    seq: u64,
) -> Result<(u64, Checkpoint), StoreError> {
    // The newest one that parses: a checkpoint that does not (one written by a build that
    // stored an infinite sum as null) falls back to an earlier one, or to the start.
    let mut upto = seq as i64;
    loop {
        let row: Option<(i64, [Value; 3])> = conn
            .prepare_cached(
                "SELECT seq, ctx, badges, summary FROM checkpoints
                 WHERE session = ?1 AND seq <= ?2 ORDER BY seq DESC LIMIT 1",
            )?
            .query_row(params![session, upto], |r| {
                Ok((r.get(0)?, [r.get(1)?, r.get(2)?, r.get(3)?]))
            })
            .optional()?;
        let Some((cp, columns)) = row else {
            return Ok((0, Checkpoint::default()));
        };
        let [ctx, badges, summary] = columns.map(|c| packed::text(ValueRef::from(&c)));
        match Checkpoint::from_columns(&ctx?, &badges?, &summary?) {
            Some(checkpoint) => return Ok((cp as u64, checkpoint)),
            None => {
                tracing::warn!(
                    "checkpoint {cp} of session {session:?} does not parse; using an earlier one"
                );
                upto = cp - 1;
            }
        }
    }
}
