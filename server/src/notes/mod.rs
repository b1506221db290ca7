//! Notes on a session's rows: what a note may be, making, changing and listing them over the
//! store, and the limits on the notes readers add through a comment link.
//!
//! A note names a row range of its session (`from`–`to` seqs, `1 <= from <= to <=` the
//! session's last seq — a snapshot share's last, for a note written through one), holds
//! markdown text (1 to [`MAX_TEXT_BYTES`] bytes, shown only through
//! `classifier::markdown::render`) and an author (free text, at most [`MAX_AUTHOR_CHARS`]).
//! The owner writes them over `/api` and `hiveterm note`; a comment link's readers add them
//! (author required, at most [`COMMENTS_PER_SHARE`], a burst of [`BURST`] then one every
//! [`REFILL`]).
//!
//! A session holds at most [`MAX_SESSION_NOTE_BYTES`] of notes and a comment link's readers
//! at most [`MAX_SHARE_NOTE_BYTES`] (`413` past them, checked in the store's write); notes are
//! read a page at a time (`crate::store::NotePage`) and a reader's note says which link it
//! came through (`reader`), so it never passes for the owner's.
//!
//! - this file: the rules, [`create`], [`update`] and [`Limits`];
//! - `live`: what a reader is shown of a note (`NotesView`: redacted for a redacted share)
//!   and the streams' `notes` frames, each change as the note itself;
//! - `api`: the HTTP handlers, the owner's under `/api/sessions/{id}/notes` and a share's
//!   readers' under `/p/<token>/api/notes` (routed by `crate::share::view`).

pub(crate) mod api;
pub(crate) mod live;

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::error::{AppError, check_text};
pub use crate::store::{MAX_SESSION_NOTE_BYTES, MAX_SHARE_NOTE_BYTES};
use crate::store::{NewNote, Note, Store};

/// Longest note text, in bytes (64 KiB).
pub const MAX_TEXT_BYTES: usize = 65_536;
/// Longest author name, in characters.
pub const MAX_AUTHOR_CHARS: usize = 100;
/// Most notes readers may add through one comment link.
pub const COMMENTS_PER_SHARE: u64 = 1000;
/// Notes a comment link takes at once before its readers must wait.
pub const BURST: u32 = 5;
/// How often a comment link takes one more note once its burst is spent.
pub const REFILL: Duration = Duration::from_secs(1);

/// A new note as a request gives it (`{"from", "to", "text", "author"}`): the contract's.
pub use contract::note::NoteInput;

/// A note's text checked: `400` when empty (or only white space), over
/// [`MAX_TEXT_BYTES`] or holding a NUL.
pub fn check_note_text(text: &str) -> Result<(), AppError> {
    if text.trim().is_empty() {
        return Err(AppError::BadRequest("a note's text is empty".into()));
    }
    if text.len() > MAX_TEXT_BYTES {
        return Err(AppError::BadRequest(format!(
            "a note's text is over {MAX_TEXT_BYTES} bytes ({} bytes)",
            text.len()
        )));
    }
    check_text("a note's text", text)
}

/// An author name cleaned: trimmed, control characters out; `400` over
/// [`MAX_AUTHOR_CHARS`] characters or holding a NUL.
pub fn clean_author(author: &str) -> Result<String, AppError> {
    check_text("a note's author", author)?;
    let mut author = author.trim().to_owned();
    classifier::sanitize(&mut author);
    let author = author.replace(['\n', '\t'], " ");
    if author.chars().count() > MAX_AUTHOR_CHARS {
        return Err(AppError::BadRequest(format!(
            "a note's author is at most {MAX_AUTHOR_CHARS} characters"
        )));
    }
    Ok(author)
}

/// `400` unless `1 <= from <= to <= last`.
pub fn check_range(from: u64, to: u64, last: u64) -> Result<(), AppError> {
    if from == 0 {
        return Err(AppError::BadRequest(
            "a note's range starts at seq 1 or later (from is 0)".into(),
        ));
    }
    if from > to {
        return Err(AppError::BadRequest(format!(
            "a note's range is from <= to (from {from} is after to {to})"
        )));
    }
    if to > last {
        return Err(AppError::BadRequest(format!(
            "a note's range ends at seq {to}, past the session's last ({last})"
        )));
    }
    Ok(())
}

/// Makes a note on session `session`, whose last seq is `last`, as of `now`; `share` is the
/// comment link a reader wrote it through.
pub async fn create(
    store: &Store,
    session: &str,
    last: u64,
    input: NoteInput,
    share: Option<u64>,
    now: f64,
) -> Result<Note, AppError> {
    let to = input.to.unwrap_or(input.from);
    check_range(input.from, to, last)?;
    check_note_text(&input.text)?;
    let author = clean_author(input.author.as_deref().unwrap_or(""))?;
    Ok(store
        .create_note(NewNote {
            session: session.to_owned(),
            from: input.from,
            to,
            text: input.text,
            author,
            created_at: now,
            share,
        })
        .await?)
}

/// Replaces the text of note `id` of `session`: `404` when there is none.
pub async fn update(
    store: &Store,
    session: &str,
    id: u64,
    text: String,
    now: f64,
) -> Result<Note, AppError> {
    check_note_text(&text)?;
    store
        .update_note(session, id, text, now)
        .await?
        .ok_or_else(|| no_note(session, id))
}

/// Deletes note `id` of `session`: `404` when there is none.
pub async fn delete(store: &Store, session: &str, id: u64) -> Result<Note, AppError> {
    store
        .delete_note(session, id)
        .await?
        .ok_or_else(|| no_note(session, id))
}

fn no_note(session: &str, id: u64) -> AppError {
    AppError::NotFound(format!("no note {id} in session {session}"))
}

/// The comment links' rate limits: per share, a bucket of [`BURST`] notes refilled one per
/// [`REFILL`].
#[derive(Default)]
pub struct Limits {
    buckets: Mutex<HashMap<u64, (f64, Instant)>>,
}

/// Most buckets kept; beyond it the full ones are forgotten (a full bucket is the default).
const MAX_BUCKETS: usize = 4096;

impl Limits {
    /// Takes one note from share `share`'s bucket at `now`: `Err` with how long to wait when
    /// it is empty.
    pub fn take(&self, share: u64, now: Instant) -> Result<(), Duration> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let refill = REFILL.as_secs_f64();
        if buckets.len() > MAX_BUCKETS {
            buckets.retain(|_, (left, at)| {
                *left + now.saturating_duration_since(*at).as_secs_f64() / refill < f64::from(BURST)
            });
        }
        let (left, at) = buckets.entry(share).or_insert((f64::from(BURST), now));
        let grown = *left + now.saturating_duration_since(*at).as_secs_f64() / refill;
        let grown = grown.min(f64::from(BURST));
        *at = now;
        if grown >= 1.0 {
            *left = grown - 1.0;
            Ok(())
        } else {
            *left = grown;
            Err(Duration::from_secs_f64((1.0 - grown) * refill))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        let check = |from: u64, to: u64, last: u64, ok: bool| {
            assert_eq!(
                check_range(from, to, last).is_ok(),
                ok,
                "{from}-{to} of {last}"
            );
        };
        check(1, 1, 1, true);
        check(2, 5, 5, true);
        check(0, 1, 5, false);
        check(3, 2, 5, false);
        check(1, 6, 5, false);
        check(1, 1, 0, false);
    }

    #[test]
    fn texts_and_authors() {
        let check =
            |text: &str, ok: bool| assert_eq!(check_note_text(text).is_ok(), ok, "{text:?}");
        check("x", true);
        check("", false);
        check(" \n\t", false);
        check("a\0b", false);
        check(&"é".repeat(MAX_TEXT_BYTES / 2), true);
        check(&"x".repeat(MAX_TEXT_BYTES + 1), false);
        assert_eq!(clean_author("  Ann \x1b[31mB\x1b[0m\n").unwrap(), "Ann B");
        assert!(clean_author(&"a".repeat(MAX_AUTHOR_CHARS + 1)).is_err());
        assert!(clean_author("a\0").is_err());
    }

    #[test]
    fn a_burst_then_one_per_refill() {
        let limits = Limits::default();
        let t0 = Instant::now();
        for _ in 0..BURST {
            assert!(limits.take(7, t0).is_ok());
        }
        assert!(limits.take(7, t0).is_err());
        assert!(
            limits.take(8, t0).is_ok(),
            "another share has its own bucket"
        );
        assert!(limits.take(7, t0 + REFILL).is_ok());
        assert!(limits.take(7, t0 + REFILL).is_err());
    }
}
