//! Notes: commentary on a row range of a session (docs/API.md, "Notes"). One [`Note`] is
//! what the server stores and answers, what a stream's `notes` frame carries
//! ([`NotesFrame`]), what a one-file export's meta carries and what the page shows; what a
//! request writes: [`NoteInput`], [`NoteEdit`].

use serde::{Deserialize, Serialize};

/// A note: `{"id", "from", "to", "text", "author", "reader", "created_at", "updated_at"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Note {
    /// Its id where it was made (what `PATCH`/`DELETE …/notes/{id}` take).
    pub id: u64,
    /// The first seq of its range.
    pub from: u64,
    /// The last seq of its range (`from` for one row).
    pub to: u64,
    /// Its text, markdown (shown only through `classifier::markdown::render`).
    pub text: String,
    /// Who wrote it (free text; may be empty).
    #[serde(default)]
    pub author: String,
    /// A comment link's reader wrote it, through this link (`null`: the owner did); shown as
    /// a reader's, never as the owner's.
    #[serde(default)]
    pub reader: Option<Reader>,
    /// When it was made (unix seconds).
    #[serde(default)]
    pub created_at: f64,
    /// When its text was last changed, if it was.
    #[serde(default)]
    pub updated_at: Option<f64>,
}

impl Note {
    /// Its place in the order notes are listed: `from`, then `to`, then id.
    pub fn key(&self) -> (u64, u64, u64) {
        (self.from, self.to, self.id)
    }

    /// Its bytes, as the caps count them (text and author).
    pub fn bytes(&self) -> usize {
        self.text.len() + self.author.len()
    }
}

/// The comment link a reader's note came through: `{"link": 12, "title": "review"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reader {
    /// The link's (share's) id.
    pub link: u64,
    /// The link's title, if it has one and the reader may know it.
    #[serde(default)]
    pub title: Option<String>,
}

/// A new note as a request gives it: `{"from", "to", "text", "author"}` (`POST …/notes`;
/// no other field taken).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoteInput {
    /// The first seq of its range.
    pub from: u64,
    /// The last seq (`from` when absent: one row).
    #[serde(default)]
    pub to: Option<u64>,
    /// Its markdown text.
    pub text: String,
    /// Its author (required through a comment link).
    #[serde(default)]
    pub author: Option<String>,
}

/// A note's new text: the body of `PATCH …/notes/{id}` (`{"text"}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoteEdit {
    /// Its new markdown text.
    pub text: String,
}

/// A page of a session's notes: `{"notes": [...], "next": "from.to.id" | null}`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct NotesPage {
    /// The notes, ordered by [`Note::key`].
    #[serde(default)]
    pub notes: Vec<Note>,
    /// Where the next page starts (`?after=`); `null` on the last.
    #[serde(default)]
    pub next: Option<String>,
}

/// A stream's `event: notes` frame: one change to the session's notes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum NotesFrame {
    /// `{"note": …}`: a note made or changed, as this reader is shown it.
    #[serde(rename = "note")]
    Note(Box<Note>),
    /// `{"deleted": id}`: a note deleted.
    #[serde(rename = "deleted")]
    Deleted(u64),
    /// `{"reset": true}`: changes not told one by one; read the notes again.
    #[serde(rename = "reset")]
    Reset(bool),
}
