//! Reading PostgreSQL: the sessions, the events of a session, its fold at any seq (a
//! checkpoint plus the events after it, through the one fold), and history pages and SSE
//! backlogs from the stored envelopes. The same answers as `crate::store::sqlite::reader`.

use deadpool_postgres::GenericClient;
use tokio_postgres::Row;

use super::handle::pg;
use crate::fold::{Checkpoint, SessionFold, StoredEvent, stored_line};
use crate::hub::{SessionInfo, push_json_frame};
use crate::store::error::StoreError;
use crate::store::request::{BACKFILL_BYTES, BACKFILL_ROWS, FollowPos, HistoryPage, Keyed};

/// Events read from the database at a time.
const CHUNK_EVENTS: u64 = 512;

/// The columns of a session row, in [`session_row`]'s order.
pub(super) const SESSION_COLUMNS: &str = crate::index::SESSION_COLUMNS;

pub(super) fn session_row(r: &Row) -> SessionInfo {
    let ended: Option<f64> = r.get(4);
    SessionInfo {
        id: r.get(0),
        title: r.get(1),
        source: r.get(2),
        started: r.get(3),
        ended,
        live: ended.is_none(),
        last_seq: r.get::<_, i64>(5) as u64,
        given_title: r.get(6),
    }
}

/// At most `limit` sessions, newest first (by `started`, then id), after `before` (the
/// `started` and id of the last one of the previous page).
pub(super) async fn sessions(
    client: &impl GenericClient,
    before: Option<&(f64, String)>,
    limit: usize,
) -> Result<Vec<SessionInfo>, StoreError> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let rows =
        match before {
            None => client
                .query(
                    &format!(
                        "SELECT {SESSION_COLUMNS} FROM sessions ORDER BY started DESC, id LIMIT $1"
                    ),
                    &[&limit],
                )
                .await,
            Some((started, id)) => {
                client
                    .query(
                        &format!(
                            "SELECT {SESSION_COLUMNS} FROM sessions
                     WHERE started < $1 OR (started = $1 AND id > $2)
                     ORDER BY started DESC, id LIMIT $3"
                        ),
                        &[started, id, &limit],
                    )
                    .await
            }
        }
        .map_err(pg)?;
    Ok(rows.iter().map(session_row).collect())
}

/// One session's row.
pub(super) async fn session(
    client: &impl GenericClient,
    id: &str,
) -> Result<Option<SessionInfo>, StoreError> {
    let stmt = client
        .prepare_cached(&format!(
            "SELECT {SESSION_COLUMNS} FROM sessions WHERE id = $1"
        ))
        .await
        .map_err(pg)?;
    let row = client.query_opt(&stmt, &[&id]).await.map_err(pg)?;
    Ok(row.as_ref().map(session_row))
}

/// A followed file's stored position.
pub(super) async fn follow_pos(
    client: &impl GenericClient,
    path: &str,
) -> Result<Option<(FollowPos, String)>, StoreError> {
    let row = client
        .query_opt(
            r#"SELECT dev, ino, "offset", session, within, mark FROM follows WHERE path = $1"#,
            &[&path],
        )
        .await
        .map_err(pg)?;
    Ok(row.map(|r| {
        let pos = FollowPos {
            path: path.to_owned(),
            dev: r.get::<_, i64>(0) as u64,
            ino: r.get::<_, i64>(1) as u64,
            offset: r.get::<_, i64>(2) as u64,
            within: r.get::<_, i64>(4) as u64,
            mark: r.get::<_, i64>(5) as u64,
        };
        (pos, r.get::<_, String>(3))
    }))
}

/// A session's newest idempotency key (the one whose lines end last) and what was stored
/// under it.
pub(super) async fn last_key(
    client: &impl GenericClient,
    session: &str,
) -> Result<Option<(String, Keyed)>, StoreError> {
    let row = client
        .query_opt(
            "SELECT key, first_seq, last_seq, lines, body_sha256 FROM idempotency
             WHERE session = $1 ORDER BY last_seq DESC LIMIT 1",
            &[&session],
        )
        .await
        .map_err(pg)?;
    Ok(row.map(|r| {
        (
            r.get::<_, String>(0),
            Keyed {
                first_seq: r.get::<_, i64>(1) as u64,
                last_seq: r.get::<_, i64>(2) as u64,
                lines: r.get::<_, i64>(3) as u64,
                body_sha256: r
                    .get::<_, Option<Vec<u8>>>(4)
                    .and_then(|h| h.try_into().ok()),
            },
        )
    }))
}

/// What was stored under an idempotency key.
pub(super) async fn keyed(
    client: &impl GenericClient,
    session: &str,
    key: &str,
) -> Result<Option<Keyed>, StoreError> {
    let row = client
        .query_opt(
            "SELECT first_seq, last_seq, lines, body_sha256 FROM idempotency
             WHERE session = $1 AND key = $2",
            &[&session, &key],
        )
        .await
        .map_err(pg)?;
    Ok(row.map(|r| Keyed {
        first_seq: r.get::<_, i64>(0) as u64,
        last_seq: r.get::<_, i64>(1) as u64,
        lines: r.get::<_, i64>(2) as u64,
        body_sha256: r
            .get::<_, Option<Vec<u8>>>(3)
            .and_then(|h| h.try_into().ok()),
    }))
}

/// Events `(after, upto]` of a session, oldest first.
pub(super) async fn load_events(
    client: &impl GenericClient,
    session: &str,
    after: u64,
    upto: u64,
) -> Result<Vec<StoredEvent>, StoreError> {
    let stmt = client
        .prepare_cached(
            "SELECT seq, ts, raw, cut_len, cut_limit, source FROM events
             WHERE session = $1 AND seq > $2 AND seq <= $3 ORDER BY seq",
        )
        .await
        .map_err(pg)?;
    let rows = client
        .query(&stmt, &[&session, &(after as i64), &(upto as i64)])
        .await
        .map_err(pg)?;
    Ok(rows
        .iter()
        .map(|r| {
            let cut_len: Option<i64> = r.get(3);
            let cut_limit: Option<i64> = r.get(4);
            let cut = cut_len.map(|len| (len as u64, cut_limit.unwrap_or(0) as u64));
            StoredEvent {
                ts: r.get(1),
                line: stored_line(r.get::<_, i64>(0) as u64, r.get(2), cut),
                source: r.get(5),
            }
        })
        .collect())
}

/// Folds the events `(fold's seq = from, upto]` of a session into `fold`; answers whether
/// the partial message changed.
pub(super) async fn fold_events(
    client: &impl GenericClient,
    session: &str,
    fold: &mut SessionFold,
    from: u64,
    upto: u64,
) -> Result<bool, StoreError> {
    let (mut pos, mut preview_changed) = (from, false);
    while pos < upto {
        let to = upto.min(pos + CHUNK_EVENTS);
        for ev in load_events(client, session, pos, to).await? {
            preview_changed |= fold.step_stored(&ev).preview_changed;
        }
        pos = to;
    }
    Ok(preview_changed)
}

/// Folds the events `(fold's seq = from, upto]` of a session into `fold`, reading each with
/// its stored envelope (one query per chunk, not one for the events and one for the
/// envelopes): answers whether the partial message changed, and the SSE frames of the
/// envelopes, or `None` when they come to more than `max` bytes (then clients read them from
/// the database themselves).
pub(super) async fn fold_events_with_frames(
    client: &impl GenericClient,
    session: &str,
    fold: &mut SessionFold,
    from: u64,
    upto: u64,
    max: usize,
) -> Result<(bool, Option<Vec<u8>>), StoreError> {
    let stmt = client
        .prepare_cached(
            "SELECT e.seq, e.ts, e.raw, e.cut_len, e.cut_limit, r.json, e.source FROM events e
             LEFT JOIN rendered r ON r.session = e.session AND r.seq = e.seq
             WHERE e.session = $1 AND e.seq > $2 AND e.seq <= $3 ORDER BY e.seq",
        )
        .await
        .map_err(pg)?;
    let (mut pos, mut preview_changed) = (from, false);
    let mut frames = Some(Vec::new());
    while pos < upto {
        let to = upto.min(pos + CHUNK_EVENTS);
        let rows = client
            .query(&stmt, &[&session, &(pos as i64), &(to as i64)])
            .await
            .map_err(pg)?;
        for r in &rows {
            let seq = r.get::<_, i64>(0) as u64;
            let cut_len: Option<i64> = r.get(3);
            let cut_limit: Option<i64> = r.get(4);
            let cut = cut_len.map(|len| (len as u64, cut_limit.unwrap_or(0) as u64));
            let ev = StoredEvent {
                ts: r.get(1),
                line: stored_line(seq, r.get(2), cut),
                source: r.get(6),
            };
            preview_changed |= fold.step_stored(&ev).preview_changed;
            if let (Some(out), Some(json)) = (&mut frames, r.get::<_, Option<&str>>(5)) {
                push_json_frame(out, seq, json);
                if out.len() > max {
                    frames = None;
                }
            }
        }
        pos = to;
    }
    Ok((preview_changed, frames))
}

/// The session's fold after event `seq`: the newest checkpoint at or before it plus the
/// events in between, with no partial message (previews are transient).
pub(super) async fn fold_at(
    client: &impl GenericClient,
    session: &str,
    seq: u64,
) -> Result<SessionFold, StoreError> {
    let (pos, cp) = checkpoint_at(client, session, seq).await?;
    let mut fold = SessionFold::resume(cp);
    fold_events(client, session, &mut fold, pos, seq).await?;
    fold.preview = Default::default();
    Ok(fold)
}

/// A history page (`{"envelopes", "next_before", "head"}`, see `docs/API.md`) from the
/// stored envelopes: events with rows and `seq < before` (and `<= head`), newest first.
pub(super) async fn rendered_page(
    client: &impl GenericClient,
    session: &str,
    head: u64,
    before: Option<u64>,
    limit: usize,
) -> Result<Vec<u8>, StoreError> {
    let hi = before.map_or(head + 1, |b| b.min(head + 1));
    let stmt = client
        .prepare_cached(
            "SELECT seq, json FROM rendered WHERE session = $1 AND seq < $2
             ORDER BY seq DESC LIMIT $3",
        )
        .await
        .map_err(pg)?;
    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 3] =
        [&session, &(hi as i64), &(limit as i64 + 1)];
    let rows = client
        .query_raw(&stmt, params.iter().copied())
        .await
        .map_err(pg)?;
    futures_util::pin_mut!(rows);
    let mut page = HistoryPage::new(limit);
    while let Some(row) = futures_util::StreamExt::next(&mut rows).await {
        let row = row.map_err(pg)?;
        if !page.push(row.get::<_, i64>(0) as u64, row.get(1)) {
            break;
        }
    }
    Ok(page.finish(head))
}

/// SSE frames of the stored envelopes of events `(after, upto]`, a bounded chunk of them.
/// Returns the frames and the seq they reach (`upto` when all were read).
pub(super) async fn rendered_frames(
    client: &impl GenericClient,
    session: &str,
    after: u64,
    upto: u64,
) -> Result<(Vec<u8>, u64), StoreError> {
    let stmt = client
        .prepare_cached(
            "SELECT seq, json FROM rendered WHERE session = $1 AND seq > $2 AND seq <= $3
             ORDER BY seq LIMIT $4",
        )
        .await
        .map_err(pg)?;
    let rows = client
        .query(
            &stmt,
            &[&session, &(after as i64), &(upto as i64), &BACKFILL_ROWS],
        )
        .await
        .map_err(pg)?;
    let mut out = Vec::new();
    let mut last = after;
    for row in &rows {
        let seq = row.get::<_, i64>(0) as u64;
        let json: &str = row.get(1);
        push_json_frame(&mut out, seq, json);
        last = seq;
        if out.len() >= BACKFILL_BYTES {
            return Ok((out, last));
        }
    }
    let all = (rows.len() as i64) < BACKFILL_ROWS;
    Ok((out, if all { upto } else { last }))
}

/// The newest checkpoint at or before `seq`: its seq and the fold; `(0, empty)` when there
/// is none.
async fn checkpoint_at(
    client: &impl GenericClient,
    session: &str,
    seq: u64,
) -> Result<(u64, Checkpoint), StoreError> {
    let stmt = client
        .prepare_cached(
            "SELECT seq, ctx, badges, summary FROM checkpoints
             WHERE session = $1 AND seq <= $2 ORDER BY seq DESC LIMIT 1",
        )
        .await
        .map_err(pg)?;
    // The newest one that parses: one that does not falls back to an earlier one, or to
    // the start (as SQLite's).
    let mut upto = seq as i64;
    loop {
        let Some(row) = client
            .query_opt(&stmt, &[&session, &upto])
            .await
            .map_err(pg)?
        else {
            return Ok((0, Checkpoint::default()));
        };
        let cp: i64 = row.get(0);
        match Checkpoint::from_columns(row.get(1), row.get(2), row.get(3)) {
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
