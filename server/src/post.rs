//! `POST …/events` in bounded turns: a body of millions of short lines must not hold the one
//! writer for a minute (every other session's POST waiting) nor pile up gigabytes of lines,
//! seqs and frames in memory.
//!
//! - A body over [`MAX_LINES_PER_REQUEST`] lines (each newline ends one, and an
//!   unterminated last line is one more) is refused (`413`) before anything is stored:
//!   counting them is one `memchr` pass.
//! - The body is cut into lines a slice at a time and stored in appends of at most
//!   [`APPEND_LINES`] lines or [`APPEND_BYTES`] bytes, one after the other, so the writer
//!   takes other sessions' appends between them.
//! - POSTs to one session take turns ([`PostLocks`]) when they must: a request stored in
//!   several appends, or with an `Idempotency-Key`, alone, so its lines get consecutive seqs and
//!   a retry is not stored twice. A request that is one append (the usual agent's POST) shares
//!   its turn with others like it: they reach the store together and are committed together
//!   (the store's group commit; on PostgreSQL one transaction and one fsync for many POSTs
//!   instead of one each, in turn).
//! - The answer is a seq range (`first_seq`, `last_seq`, `count`); `seqs` lists them only up
//!   to [`LISTED_SEQS`].
//! - With an `Idempotency-Key`, every turn records how many lines were stored under the key
//!   in its own transaction, with the SHA-256 of the whole body; a retry of the same body
//!   with the same key skips those lines and answers the whole range, so a producer that got
//!   no answer can safely send again. Another body under a key already used is refused
//!   (`409`) before anything of it is stored: skipping "its" first lines would drop lines
//!   while answering that they were stored.
//! - With `X-Hiveterm-After-Key: K` too, a request under a new key is stored only if the
//!   session's newest key is `K` (empty: it has none), else `412` and nothing is stored: a
//!   producer restarted while its last POST was still on the way cannot store the same lines
//!   under two keys (the forwarder, `crate::forward`).

use axum::body::Bytes;
use classifier::LineReader;
use sha2::{Digest, Sha256};

mod keys;
pub(crate) mod locks;

pub(crate) use self::keys::last_key;
pub use self::locks::PostLocks;
use crate::error::AppError;
use crate::state::AppState;
use crate::store::{Append, IdempotencyKey, RawLine, Store};

/// Most lines (newlines, blank lines included) one request may hold.
pub const MAX_LINES_PER_REQUEST: usize = 1_000_000;
/// Most lines stored in one append (one writer command).
pub const APPEND_LINES: usize = 4096;
/// Most bytes of lines stored in one append (a single longer line is one append).
pub const APPEND_BYTES: usize = 8 * 1024 * 1024;
/// Most seqs listed one by one in an answer.
pub const LISTED_SEQS: usize = 1000;
/// Longest idempotency key.
pub const MAX_KEY_CHARS: usize = 200;
/// Bytes of the body cut into lines at a time.
const SLICE: usize = 64 * 1024;

/// The answer to a POST of events: the contract's.
pub use contract::post::Posted;

/// Whether a body of `len` bytes and `newlines` newlines is surely stored in one append.
fn one_append(len: usize, newlines: usize) -> bool {
    newlines < APPEND_LINES && len <= APPEND_BYTES
}

/// A POST's `Idempotency-Key` and `X-Hiveterm-After-Key` (see `docs/API.md`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Keys<'a> {
    /// The request's key.
    pub key: Option<&'a str>,
    /// Store it only if the session's newest key is this one (`Some("")`: none yet).
    pub after: Option<&'a str>,
}

impl<'a> Keys<'a> {
    /// A POST's keys from its headers; `400` for one that is not visible ASCII.
    pub fn from_headers(headers: &'a axum::http::HeaderMap) -> Result<Keys<'a>, AppError> {
        let header = |name: &str, shown: &str| match headers.get(name) {
            None => Ok(None),
            Some(v) => v
                .to_str()
                .map(Some)
                .map_err(|_| AppError::BadRequest(format!("an {shown} is visible ASCII"))),
        };
        Ok(Keys {
            key: header("idempotency-key", "Idempotency-Key")?,
            after: header("x-hiveterm-after-key", "X-Hiveterm-After-Key")?,
        })
    }
}

/// How many lines `body` holds, given its `newlines`: each newline ends one, and an
/// unterminated last line is one more (a body of exactly [`MAX_LINES_PER_REQUEST`]
/// newline-terminated lines is taken).
fn line_count(body: &[u8], newlines: usize) -> usize {
    newlines + usize::from(body.last().is_some_and(|&b| b != b'\n'))
}

/// Stores the JSONL `body` in session `id` (created with `title` if missing), in turns.
pub async fn post_lines(
    state: &AppState,
    id: &str,
    title: &str,
    body: Bytes,
    keys: Keys<'_>,
) -> Result<Posted, AppError> {
    let key = keys.key;
    if let Some(key) = key
        && !(1..=MAX_KEY_CHARS).contains(&key.len())
    {
        return Err(AppError::BadRequest(format!(
            "an Idempotency-Key is 1-{MAX_KEY_CHARS} characters"
        )));
    }
    let newlines = memchr::memchr_iter(b'\n', &body).count();
    if line_count(&body, newlines) > MAX_LINES_PER_REQUEST {
        return Err(AppError::TooLarge(format!(
            "the request has over {MAX_LINES_PER_REQUEST} lines; post them in several requests"
        )));
    }
    // Hashed before the turn: a big body is not hashed while others wait.
    let key = key.map(|key| IdempotencyKey {
        key: key.to_owned(),
        body_sha256: Sha256::digest(&body).into(),
        stored: 0,
        after: keys.after.map(str::to_owned),
    });
    let lock = state.post_locks().get(id);
    // The turn, held to the end: shared with other one-append POSTs, or the session's alone.
    let (_shared, _alone) = if key.is_none() && one_append(body.len(), newlines) {
        (Some(lock.read().await), None)
    } else {
        (None, Some(lock.write().await))
    };
    let done = match &key {
        Some(key) => state.store().keyed(id, &key.key).await?,
        None => None,
    };
    // A new keyed request that must follow the session's newest key (a retry is stored
    // anyway: its key is the newest or older). Checked in the turn it is stored in.
    if let (Some(after), Some(_), None) = (keys.after, &key, done) {
        let newest = state.store().last_key(id).await?.map(|(k, _)| k);
        if newest.as_deref().unwrap_or("") != after {
            return Err(AppError::PreconditionFailed(format!(
                "the session's newest Idempotency-Key is {newest:?}, not {after:?}; nothing \
                 was stored (ask GET …/keys/last where it is)"
            )));
        }
    }
    if let (Some(key), Some(done)) = (&key, done)
        && done.body_sha256.is_some_and(|h| h != key.body_sha256)
    {
        return Err(AppError::Conflict(
            "this Idempotency-Key was already used with another body in this session; \
             nothing of this one was stored (send new lines under a new key)"
                .into(),
        ));
    }
    let mut posting = Posting {
        store: state.store(),
        id,
        title,
        key: key.as_ref(),
        posted: Posted {
            session: id.to_owned(),
            created: false,
            first_seq: done.map(|d| d.first_seq),
            last_seq: done.map(|d| d.last_seq),
            count: done.map_or(0, |d| d.lines),
            seqs: match done {
                None => Some(Vec::new()),
                Some(d) if d.lines <= LISTED_SEQS as u64 => {
                    Some((d.first_seq..=d.last_seq).collect())
                }
                Some(_) => None,
            },
        },
        lines: Vec::new(),
        bytes: 0,
    };
    // Lines a try with this key already stored.
    let mut skip = done.map_or(0, |d| d.lines);
    let mut reader = LineReader::with_limit(state.config().max_line_bytes);
    let mut take = |lines: &mut Vec<RawLine>, line: classifier::Line| {
        if skip > 0 {
            skip -= 1;
        } else {
            lines.push(RawLine::from_line(line));
        }
    };
    for slice in body.chunks(SLICE) {
        let mut lines = std::mem::take(&mut posting.lines);
        reader.push(slice, |line| take(&mut lines, line));
        posting.lines = lines;
        posting.flush(false).await?;
    }
    let mut lines = std::mem::take(&mut posting.lines);
    reader.finish(|line| take(&mut lines, line));
    posting.lines = lines;
    posting.flush(true).await?;
    if posting.posted.count == 0 && !posting.posted.created {
        // An empty body still creates the session, as it always did.
        posting.store_chunk(Vec::new()).await?;
    }
    Ok(posting.posted)
}

/// A request being stored.
struct Posting<'a> {
    store: &'a Store,
    id: &'a str,
    title: &'a str,
    key: Option<&'a IdempotencyKey>,
    posted: Posted,
    /// Lines cut but not stored yet.
    lines: Vec<RawLine>,
    /// Their bytes.
    bytes: usize,
}

impl Posting<'_> {
    /// Stores full appends of the waiting lines (all of them with `all`).
    async fn flush(&mut self, all: bool) -> Result<(), AppError> {
        self.bytes = self.lines.iter().map(|l| l.bytes.len()).sum();
        while !self.lines.is_empty()
            && (all || self.lines.len() >= APPEND_LINES || self.bytes >= APPEND_BYTES)
        {
            let mut take = 0;
            let mut bytes = 0;
            for line in &self.lines {
                if take > 0 && (take == APPEND_LINES || bytes + line.bytes.len() > APPEND_BYTES) {
                    break;
                }
                take += 1;
                bytes += line.bytes.len();
            }
            let rest = self.lines.split_off(take);
            let chunk = std::mem::replace(&mut self.lines, rest);
            self.bytes -= bytes;
            self.store_chunk(chunk).await?;
        }
        Ok(())
    }

    async fn store_chunk(&mut self, lines: Vec<RawLine>) -> Result<(), AppError> {
        let appended = self
            .store
            .append(Append {
                session: self.id.to_owned(),
                lines,
                create: Some((self.title.to_owned(), "post".to_owned())),
                follow: None,
                source: None,
                // What this request takes to be stored under the key so far.
                key: self.key.map(|k| IdempotencyKey {
                    stored: self.posted.count,
                    ..k.clone()
                }),
            })
            .await
            .map_err(|e| {
                let err = AppError::from(e);
                match (&err, self.posted.count) {
                    (_, 0) => err,
                    (AppError::Internal(m), n) => AppError::Internal(format!(
                        "{m} (after {n} lines of the request were stored, seqs {}-{})",
                        self.posted.first_seq.unwrap_or(0),
                        self.posted.last_seq.unwrap_or(0)
                    )),
                    _ => err,
                }
            })?;
        let p = &mut self.posted;
        p.created |= appended.created;
        if let (Some(&first), Some(&last)) = (appended.seqs.first(), appended.seqs.last()) {
            p.first_seq.get_or_insert(first);
            p.last_seq = Some(last);
        }
        p.count += appended.seqs.len() as u64;
        if p.count > LISTED_SEQS as u64 {
            p.seqs = None;
        } else if let Some(seqs) = &mut p.seqs {
            seqs.extend(&appended.seqs);
        }
        Ok(())
    }
}
