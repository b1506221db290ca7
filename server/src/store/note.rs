//! Notes in the store, whichever backend: a note belongs to one session and a row range
//! (`from`–`to` seqs), with markdown text, an author and a time; a reader's note written
//! through a comment link keeps that share's id. What a note may be (ranges, sizes) is
//! checked in `crate::notes`; this is only what is stored.

use std::sync::Arc;

/// Most bytes of notes (text and author) one session holds: a write past it is refused
/// ([`StoreError::OverCap`](super::error::StoreError::OverCap)). Every read of a session's notes is
/// bounded by it, and a note's changes are sent one by one ([`NoteChange`]).
pub const MAX_SESSION_NOTE_BYTES: u64 = 4 * 1024 * 1024;
/// Most bytes of notes the readers of one comment link write.
pub const MAX_SHARE_NOTE_BYTES: u64 = 1024 * 1024;
/// Most notes in one page of `GET …/notes`.
pub const PAGE_NOTES: usize = 200;
/// Most bytes (text and author) in one page of `GET …/notes`, past its first note.
pub const PAGE_BYTES: usize = 256 * 1024;

/// Where a page of notes starts: after the note of this `(from, to, id)`.
pub type NoteKey = (u64, u64, u64);

/// A note as stored and answered, and a comment link's reader as its author: the
/// contract's ([`contract::Note`]: `{"id", "from", "to", "text", "author", "reader",
/// "created_at", "updated_at"}`). The link a reader wrote it through is `reader.link`.
pub use contract::{Note, Reader};

/// A change to a session's notes, told to its live streams (which send it as a `notes`
/// frame).
#[derive(Debug, Clone)]
pub enum NoteChange {
    /// Made or changed here: the note as stored.
    Stored(Arc<Note>),
    /// Made or changed elsewhere (another process, another replica): read it.
    Changed(u64),
    /// Deleted.
    Deleted(u64),
    /// Changes not told one by one: read them all again.
    Reset,
}

/// A note to store.
#[derive(Debug, Clone)]
pub struct NewNote {
    /// The session.
    pub session: String,
    /// The first seq of its range.
    pub from: u64,
    /// The last seq of its range.
    pub to: u64,
    /// Its text.
    pub text: String,
    /// Its author.
    pub author: String,
    /// When it was made.
    pub created_at: f64,
    /// The comment link it came through, if any.
    pub share: Option<u64>,
}

/// A note write, queued like any other write (SQLite's one writer thread). Each answers the
/// note as stored after it (`None`: no such note in that session).
#[derive(Debug)]
pub(crate) enum NoteWrite {
    /// Store a new note.
    Create(NewNote),
    /// Replace the text of note `id` of `session`.
    Update {
        session: String,
        id: u64,
        text: String,
        at: f64,
    },
    /// Delete note `id` of `session` (answers it as it was).
    Delete { session: String, id: u64 },
}

/// How many of a session's notes' bytes are over [`MAX_SESSION_NOTE_BYTES`] after a write that
/// leaves `others` bytes in its other notes and `bytes` in this one; `shared`: the bytes of
/// the comment link's readers' notes after it (over [`MAX_SHARE_NOTE_BYTES`]). The refusal
/// says which cap.
pub(crate) fn over_cap(others: u64, bytes: u64, shared: Option<u64>) -> Option<String> {
    if others + bytes > MAX_SESSION_NOTE_BYTES {
        return Some(format!(
            "this session's notes would be over {MAX_SESSION_NOTE_BYTES} bytes \
             ({} with this one); delete or shorten some first",
            others + bytes
        ));
    }
    match shared {
        Some(total) if total > MAX_SHARE_NOTE_BYTES => Some(format!(
            "this link's readers' notes would be over {MAX_SHARE_NOTE_BYTES} bytes ({total} with this one)"
        )),
        _ => None,
    }
}

impl NoteWrite {
    /// The session it writes to (whose live pages are told after the commit).
    pub(crate) fn session(&self) -> &str {
        match self {
            NoteWrite::Create(n) => &n.session,
            NoteWrite::Update { session, .. } | NoteWrite::Delete { session, .. } => session,
        }
    }
}

/// One page of a session's notes: those after `after` whose range ends by `head`, in order, at
/// most [`PAGE_NOTES`] and [`PAGE_BYTES`] (past the first); the key the next page starts after
/// when there are more.
#[derive(Debug, Default)]
pub struct NotePage {
    /// The page's notes.
    pub notes: Vec<Note>,
    /// Where the next page starts; `None`: this was the last.
    pub next: Option<NoteKey>,
}

impl NotePage {
    /// A page from `notes` read in order (at most [`PAGE_NOTES`] + 1 of them, stopping once
    /// the page is full): the one more tells there is a next page.
    pub(crate) fn of(
        notes: impl IntoIterator<Item = Result<Note, super::error::StoreError>>,
    ) -> Result<NotePage, super::error::StoreError> {
        let mut page = NotePage::default();
        let mut bytes = 0;
        for note in notes {
            let note = note?;
            if page.notes.len() == PAGE_NOTES
                || (!page.notes.is_empty() && bytes + note.bytes() > PAGE_BYTES)
            {
                page.next = page.notes.last().map(Note::key);
                break;
            }
            bytes += note.bytes();
            page.notes.push(note);
        }
        Ok(page)
    }
}
