//! Notes in the store, whichever backend: a note belongs to one session and a row range
//! (`from`–`to` seqs), with markdown text, an author and a time; a reader's note written
//! through a comment link keeps that share's id. What a note may be (ranges, sizes) is
//! checked in `crate::notes`; this is only what is stored.

use serde::Serialize;

/// A note as stored and answered (`{"id", "from", "to", "text", "author", "created_at"}`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Note {
    /// The note's id (what `PATCH`/`DELETE …/notes/{id}` and `hiveterm note --delete` take).
    pub id: u64,
    /// The session it belongs to (not answered: the path names it).
    #[serde(skip)]
    pub session: String,
    /// The first seq of its range.
    pub from: u64,
    /// The last seq of its range (equal to `from` for one row).
    pub to: u64,
    /// Its text, markdown.
    pub text: String,
    /// Who wrote it (free text; may be empty).
    pub author: String,
    /// When it was made (unix seconds).
    pub created_at: f64,
    /// When its text was last changed, if it was.
    pub updated_at: Option<f64>,
    /// The share link a reader wrote it through (a comment link), if one did.
    #[serde(skip)]
    pub share: Option<u64>,
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

impl NoteWrite {
    /// The session it writes to (whose live pages are told after the commit).
    pub(crate) fn session(&self) -> &str {
        match self {
            NoteWrite::Create(n) => &n.session,
            NoteWrite::Update { session, .. } | NoteWrite::Delete { session, .. } => session,
        }
    }
}
