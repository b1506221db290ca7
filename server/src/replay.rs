//! Stored events → envelopes, each classified with the context of every event before it.
//!
//! The context at any seq is the nearest checkpoint at or before it plus a replay of the
//! events in between ([`ctx_at`], [`state_at`]); the writer uses it to resume a session,
//! and to derive the stored envelopes again when the classifier changes. History pages and
//! SSE backlogs are read from those stored envelopes ([`rendered_page`], [`rendered_frames`]);
//! [`history`] computes the same page from the raw events, the reference the tests hold the
//! stored envelopes to.

use classifier::event::unreadable;
use classifier::{ClassifyCtx, LogEvent, TermEnvelope, classify_log_event, parse_line};
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use crate::badges::Badges;
use crate::store::StoreError;

/// Events read from the database at a time.
const CHUNK_EVENTS: u64 = 512;

/// One event as stored.
#[derive(Debug, Clone)]
pub struct StoredEvent {
    /// Its seq.
    pub seq: u64,
    /// Its time (the line's, else when received).
    pub ts: f64,
    /// The bytes as received (the first bytes only, for a cut line).
    pub raw: Vec<u8>,
    /// For a line over the limit: its full length and the limit.
    pub cut: Option<(u64, u64)>,
}

/// What a stored line means: [`parse_line`] of it, or for a cut line an unreadable event
/// saying how long it was.
pub fn event_of(raw: &[u8], cut: Option<(u64, u64)>) -> LogEvent {
    match cut {
        None => parse_line(raw),
        Some((len, limit)) => LogEvent::at(
            None,
            unreadable(
                raw,
                format!("line is {len} bytes, over the {limit}-byte line limit"),
            ),
        ),
    }
}

/// Classifies a parsed event as the event `seq` at time `ts`.
pub fn classify_at(event: &LogEvent, seq: u64, ts: f64, ctx: &mut ClassifyCtx) -> TermEnvelope {
    let mut env = classify_log_event(event, ctx);
    env.seq = Some(seq);
    env.ts = Some(ts);
    env
}

/// Classifies a stored event.
pub fn classify_stored(ev: &StoredEvent, ctx: &mut ClassifyCtx) -> TermEnvelope {
    classify_at(&event_of(&ev.raw, ev.cut), ev.seq, ev.ts, ctx)
}

/// Events `(after, upto]` of a session, oldest first.
pub fn load_events(
    conn: &Connection,
    session: &str,
    after: u64,
    upto: u64,
) -> Result<Vec<StoredEvent>, StoreError> {
    let mut stmt = conn.prepare_cached(
        "SELECT seq, ts, raw, cut_len, cut_limit FROM events
         WHERE session = ?1 AND seq > ?2 AND seq <= ?3 ORDER BY seq",
    )?;
    let rows = stmt.query_map(params![session, after as i64, upto as i64], |r| {
        let cut_len: Option<i64> = r.get(3)?;
        let cut_limit: Option<i64> = r.get(4)?;
        Ok(StoredEvent {
            seq: r.get::<_, i64>(0)? as u64,
            ts: r.get(1)?,
            raw: r.get(2)?,
            cut: cut_len.map(|len| (len as u64, cut_limit.unwrap_or(0) as u64)),
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The newest checkpoint at or before `seq`: its seq, context and badges; `(0, empty, default)`
/// when there is none.
pub fn checkpoint_at(
    conn: &Connection,
    session: &str,
    seq: u64,
) -> Result<(u64, ClassifyCtx, Badges), StoreError> {
    let row: Option<(i64, String, String)> = conn
        .prepare_cached(
            "SELECT seq, ctx, badges FROM checkpoints
             WHERE session = ?1 AND seq <= ?2 ORDER BY seq DESC LIMIT 1",
        )?
        .query_row(params![session, seq as i64], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .optional()?;
    let Some((cp, ctx, badges)) = row else {
        return Ok((0, ClassifyCtx::new(), Badges::default()));
    };
    match (serde_json::from_str(&ctx), serde_json::from_str(&badges)) {
        (Ok(ctx), Ok(badges)) => Ok((cp as u64, ctx, badges)),
        _ => Err(StoreError::Corrupt(format!(
            "checkpoint {cp} of session {session} does not parse"
        ))),
    }
}

/// The context and badges after event `seq`: a checkpoint plus a replay.
pub fn state_at(
    conn: &Connection,
    session: &str,
    seq: u64,
) -> Result<(ClassifyCtx, Badges), StoreError> {
    let (mut pos, mut ctx, mut badges) = checkpoint_at(conn, session, seq)?;
    while pos < seq {
        let upto = seq.min(pos + CHUNK_EVENTS);
        for ev in load_events(conn, session, pos, upto)? {
            let event = event_of(&ev.raw, ev.cut);
            let env = classify_at(&event, ev.seq, ev.ts, &mut ctx);
            badges.apply(&event, ev.ts, &env.msgs);
        }
        pos = upto;
    }
    Ok((ctx, badges))
}

/// The context after event `seq`.
pub fn ctx_at(conn: &Connection, session: &str, seq: u64) -> Result<ClassifyCtx, StoreError> {
    let (mut pos, mut ctx, _) = checkpoint_at(conn, session, seq)?;
    while pos < seq {
        let upto = seq.min(pos + CHUNK_EVENTS);
        for ev in load_events(conn, session, pos, upto)? {
            classify_stored(&ev, &mut ctx);
        }
        pos = upto;
    }
    Ok(ctx)
}

/// A history page (`GET …/events/history`).
#[derive(Debug, Clone, Serialize)]
pub struct HistoryPage {
    /// Envelopes with rows, newest first.
    pub envelopes: Vec<TermEnvelope>,
    /// `before` for the next older page, or `None` at the start of the log.
    pub next_before: Option<u64>,
    /// The newest stored seq when the page was read.
    pub head: u64,
}

/// Up to `limit` envelopes with rows of events before `before` (all when `None`), newest
/// first. Walks back one checkpoint interval at a time; each interval is classified forward
/// from its own checkpoint, so the intervals of a page are classified in parallel.
pub fn history(
    conn: &Connection,
    session: &str,
    head: u64,
    before: Option<u64>,
    limit: usize,
) -> Result<HistoryPage, StoreError> {
    let mut hi = before.map_or(head, |b| b.saturating_sub(1).min(head));
    let mut out: Vec<TermEnvelope> = Vec::new();
    while hi > 0 && out.len() < limit {
        // Enough intervals to cover the envelopes still wanted, if most events give rows.
        let want = (limit - out.len()) as u64;
        let mut work = Vec::new();
        let mut covered = 0;
        while hi > 0 && covered < want + want / 8 {
            let (cp, mut ctx, _) = checkpoint_at(conn, session, hi - 1)?;
            // Keep intervals bounded even where checkpoints are missing.
            let lo = cp.max(hi.saturating_sub(CHUNK_EVENTS * 8));
            if lo > cp {
                ctx = ctx_at(conn, session, lo)?;
            }
            work.push((load_events(conn, session, lo, hi)?, ctx));
            covered += hi - lo;
            hi = lo;
        }
        for chunk in classify_intervals(work) {
            out.extend(chunk.into_iter().rev());
        }
    }
    let next_before = if out.len() > limit {
        out.truncate(limit);
        out.last().and_then(|e| e.seq)
    } else if hi > 0 {
        out.last().and_then(|e| e.seq).or(Some(hi + 1))
    } else {
        None
    };
    Ok(HistoryPage {
        envelopes: out,
        next_before,
        head,
    })
}

/// Classifies each interval (its events and the context before them) into its envelopes with
/// rows, oldest first; intervals on their own threads when there are several.
fn classify_intervals(work: Vec<(Vec<StoredEvent>, ClassifyCtx)>) -> Vec<Vec<TermEnvelope>> {
    fn one((events, mut ctx): (Vec<StoredEvent>, ClassifyCtx)) -> Vec<TermEnvelope> {
        events
            .iter()
            .map(|ev| classify_stored(ev, &mut ctx))
            .filter(|env| !env.msgs.is_empty())
            .collect()
    }
    if work.len() < 2 {
        return work.into_iter().map(one).collect();
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = work
            .into_iter()
            .map(|w| scope.spawn(move || one(w)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

/// A history page (the JSON of [`HistoryPage`]) read from the stored envelopes: events with
/// rows and `seq < before` (and `<= head`), newest first. No classification happens here.
pub fn rendered_page(
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
    let rows = stmt.query_map(params![session, hi as i64, limit as i64 + 1], |r| {
        Ok((r.get::<_, i64>(0)? as u64, r.get::<_, String>(1)?))
    })?;
    let mut out = Vec::with_capacity(64 * 1024);
    out.extend_from_slice(b"{\"envelopes\":[");
    let mut oldest = None;
    let mut more = false;
    for (n, row) in rows.enumerate() {
        let (seq, json) = row?;
        if n == limit {
            more = true;
            break;
        }
        if n > 0 {
            out.push(b',');
        }
        out.extend_from_slice(json.as_bytes());
        oldest = Some(seq);
    }
    out.extend_from_slice(b"],\"next_before\":");
    match oldest.filter(|_| more) {
        Some(seq) => out.extend_from_slice(seq.to_string().as_bytes()),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(format!(",\"head\":{head}}}").as_bytes());
    Ok(out)
}

/// Most frames one backfill read returns: a slow client holds at most a few such chunks.
const BACKFILL_ROWS: i64 = 128;
/// Bytes after which a backfill read stops adding frames.
const BACKFILL_BYTES: usize = 128 * 1024;

/// SSE frames of the stored envelopes of events `(after, upto]`, a bounded chunk of them.
/// Returns the frames and the seq they reach (`upto` when all were read).
pub fn rendered_frames(
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
        let json: String = row.get(1)?;
        crate::hub::push_json_frame(&mut out, seq, &json);
        last = seq;
        count += 1;
        if out.len() >= BACKFILL_BYTES {
            return Ok((out, last));
        }
    }
    Ok((out, if count < BACKFILL_ROWS { upto } else { last }))
}
