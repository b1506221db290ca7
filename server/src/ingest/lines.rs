//! The one chunked read loop of every source ([`ChunkedLines`], [`pump`]): bytes read a chunk at
//! a time, framed into lines with [`LineReader`], stored through [`Store::append`]; and the
//! harness lines a source adds of its own ([`event_line`], [`note_line`]).

use classifier::LineReader;
use serde_json::json;
use tokio::io::{AsyncRead, AsyncReadExt};

use crate::store::{Append, FollowPos, RawLine, Store, StoreError};

/// How often a followed file is looked at.
pub const FOLLOW_POLL: std::time::Duration = std::time::Duration::from_millis(200);

/// Bytes read at a time.
pub(super) const CHUNK: usize = 64 * 1024;

/// Most bytes of a followed file read into one batch of lines (a big file is stored in
/// batches, not read whole into memory; a compressed one's decompressed bytes too).
pub(super) const FOLLOW_BATCH: usize = 16 * CHUNK;

/// Stores `lines` in `session` (which must exist).
pub(super) async fn store_lines(
    store: &Store,
    session: &str,
    lines: Vec<RawLine>,
    follow: Option<FollowPos>,
) -> Result<(), StoreError> {
    store_lines_from(store, session, lines, follow, None).await
}

/// Stores `lines` of the session's file `source` (`None`: its main one; else a subagent's id,
/// [`crate::fold::StoredEvent::source`]) in `session` (which must exist).
pub(super) async fn store_lines_from(
    store: &Store,
    session: &str,
    lines: Vec<RawLine>,
    follow: Option<FollowPos>,
    source: Option<&str>,
) -> Result<(), StoreError> {
    if lines.is_empty() && follow.is_none() {
        return Ok(());
    }
    store
        .append(Append {
            session: session.to_owned(),
            lines,
            create: None,
            follow,
            source: source.map(str::to_owned),
            key: None,
        })
        .await
        .map(drop)
}

/// A hyperhive event line (`{"kind": …, "ts": now, …}`) built by hiveterm itself.
pub fn event_line(kind: &str, fields: serde_json::Value) -> RawLine {
    let mut value = json!({ "kind": kind, "ts": crate::clock::now() });
    if let (Some(obj), serde_json::Value::Object(fields)) = (value.as_object_mut(), fields) {
        obj.extend(fields);
    }
    RawLine::now(value.to_string().into_bytes())
}

/// A note event line.
pub fn note_line(text: &str) -> RawLine {
    event_line("note", json!({ "text": text }))
}

/// `input`'s lines, as many at a time as each read completes: the one read loop of every
/// source of lines (`--stdin`, `--follow`'s reads, `run`'s stdout and stderr). What to do with
/// them, and on a failure, is the caller's loop.
pub(super) struct ChunkedLines<R, M> {
    input: R,
    reader: Option<LineReader>,
    buf: Vec<u8>,
    map: M,
    /// Named in the log when a read fails.
    what: String,
}

impl<R: AsyncRead + Unpin, M: Fn(classifier::Line) -> RawLine> ChunkedLines<R, M> {
    pub(super) fn new(what: String, input: R, max_line: usize, map: M) -> Self {
        ChunkedLines {
            input,
            reader: Some(LineReader::with_limit(max_line)),
            buf: vec![0u8; CHUNK],
            map,
            what,
        }
    }

    /// The lines the next reads complete (never none), then those the end completes; `None`
    /// once the input has ended (a read error ends it too, logged).
    pub(super) async fn next(&mut self) -> Option<Vec<RawLine>> {
        let map = &self.map;
        let mut lines = Vec::new();
        while lines.is_empty() {
            let reader = self.reader.as_mut()?;
            let n = match self.input.read(&mut self.buf).await {
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    tracing::warn!("reading {}: {e}", self.what);
                    0
                }
            };
            if n == 0 {
                let mut reader = self.reader.take()?;
                reader.finish(|line| lines.push(map(line)));
                return (!lines.is_empty()).then_some(lines);
            }
            reader.push(&self.buf[..n], |line| lines.push(map(line)));
        }
        Some(lines)
    }
}

/// Reads `input` to its end, storing each line as `map` makes it; stops at the first store
/// failure.
pub(super) async fn pump(
    store: &Store,
    session: &str,
    input: impl AsyncRead + Unpin,
    max_line: usize,
    map: impl Fn(classifier::Line) -> RawLine,
) -> Result<(), StoreError> {
    let mut lines = ChunkedLines::new(format!("input of {session}"), input, max_line, map);
    while let Some(batch) = lines.next().await {
        store_lines(store, session, batch, None).await?;
    }
    Ok(())
}
