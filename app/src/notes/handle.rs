//! Where the page's notes come from and go ([`NotesHandle`], handed down by context): a
//! session's (`/api/sessions/{id}/notes`: read, made, deleted), a share link's (read; made by
//! a comment link's readers, with their name), an offline log's (made here, kept in the
//! tab's `sessionStorage` with the log's name, so a reload of the tab keeps them as it keeps
//! the log), an exported file's (read-only, from its meta). A live view reads them a page at
//! a time, then applies each change its stream's `notes` frames carry
//! ([`NotesHandle::apply`]; a reset reads them again).

use leptos::prelude::*;

use crate::model::nav::SeqRange;
use crate::notes::model::{Note, NoteFrame, Notes, check_draft};
use crate::share::link::Source;

/// `sessionStorage` key of an offline log's notes: `{"name", "notes"}`.
pub const KEEP_KEY: &str = "hiveterm.notes";

/// Where notes are read and written.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Backend {
    /// None yet (the start page).
    #[default]
    None,
    /// A server's session or share link; `comments`: a share link's readers may write.
    Live { source: Source, comments: bool },
    /// An offline log named so: notes made here, kept in the tab.
    Offline(String),
    /// An exported file: its notes, read-only.
    Exported,
}

/// The page's notes and the editor's state.
#[derive(Clone, Copy)]
pub struct NotesHandle {
    /// The notes shown.
    pub notes: RwSignal<Notes>,
    /// The range a note is being written for (the editor is open).
    pub editing: RwSignal<Option<SeqRange>>,
    /// Why the last save or delete failed.
    pub error: RwSignal<Option<String>>,
    /// The note the header stepped to (its id).
    pub at: RwSignal<Option<u64>>,
    backend: RwSignal<Backend>,
}

impl Default for NotesHandle {
    fn default() -> NotesHandle {
        NotesHandle::new()
    }
}

impl NotesHandle {
    /// No notes, nowhere to write them.
    pub fn new() -> NotesHandle {
        NotesHandle {
            notes: RwSignal::new(Notes::default()),
            editing: RwSignal::new(None),
            error: RwSignal::new(None),
            at: RwSignal::new(None),
            backend: RwSignal::new(Backend::None),
        }
    }

    /// Whether a note can be written here (a session, a comment link, an offline log).
    pub fn can_write(&self) -> bool {
        self.backend.with(writable)
    }

    /// [`NotesHandle::can_write`], read without tracking (a key, a click).
    pub fn can_write_untracked(&self) -> bool {
        self.backend.with_untracked(writable)
    }

    /// Whether a note needs its author's name (a comment link's reader).
    pub fn author_needed(&self) -> bool {
        self.backend.with(needs_author)
    }

    /// Whether notes can be deleted here (the session's owner, an offline log's reader).
    pub fn can_delete(&self) -> bool {
        self.backend.track();
        self.can_delete_untracked()
    }

    /// [`NotesHandle::can_delete`], read without tracking (a row drawn once).
    pub fn can_delete_untracked(&self) -> bool {
        self.backend.with_untracked(|b| match b {
            Backend::Live { source, .. } => !source.is_share(),
            Backend::Offline(_) => true,
            Backend::None | Backend::Exported => false,
        })
    }

    /// Reads a live view's notes from `source` (`comments`: its readers may write).
    pub fn live(self, source: Source, comments: bool) {
        self.backend.set(Backend::Live { source, comments });
        self.at.set(None);
        self.reload();
    }

    /// An offline log was opened (`Some(name)`) or closed: a log reopened by a reload of
    /// the tab (`restored`) gets the notes kept with it; a log opened by hand starts with
    /// none (and the tab forgets the last log's), as does none.
    pub fn offline(self, name: Option<String>, restored: bool) {
        let kept = match (&name, restored) {
            (Some(n), true) => imp::kept(n),
            (Some(n), false) => {
                imp::keep(n, &[]);
                Vec::new()
            }
            (None, _) => Vec::new(),
        };
        match name {
            Some(n) => self.backend.set(Backend::Offline(n)),
            None => self.backend.set(Backend::None),
        }
        self.at.set(None);
        self.shown(Notes::new(kept));
    }

    /// An exported file's notes: shown read-only.
    pub fn exported(self, notes: Vec<Note>) {
        self.backend.set(Backend::Exported);
        self.at.set(None);
        self.shown(Notes::new(notes));
    }

    /// `notes` shown; the stepper keeps its place (a note by id) when they are read again.
    fn shown(self, notes: Notes) {
        if self.notes.with_untracked(|n| *n != notes) {
            self.notes.set(notes);
        }
    }

    /// Reads a live view's notes again, a page at a time (`?after=` each page's `next`),
    /// shown once all are read: when it opens, after its stream was away, or on a reset. A
    /// dead link's read fails: its notes go with its rows.
    pub fn reload(self) {
        let Backend::Live { source, .. } = self.backend.get_untracked() else {
            return;
        };
        leptos::task::spawn_local(async move {
            let base = source.notes_url();
            let mut all = Vec::new();
            let mut after: Option<String> = None;
            loop {
                let url = match &after {
                    // A cursor is digits and dots: nothing to escape.
                    Some(a) => {
                        let sep = if base.contains('?') { '&' } else { '?' };
                        format!("{base}{sep}after={a}")
                    }
                    None => base.clone(),
                };
                match crate::live::net::get_json_at::<contract::NotesPage>(&url).await {
                    Ok(page) => {
                        all.extend(page.notes);
                        // A page that does not move on ends the read (never a loop).
                        match page.next {
                            Some(n) if after.as_ref() != Some(&n) => after = Some(n),
                            _ => break,
                        }
                    }
                    Err(e) if matches!(e.status, 404 | 410) => {
                        self.shown(Notes::default());
                        return;
                    }
                    Err(_) => return,
                }
            }
            self.shown(Notes::new(all));
        });
    }

    /// A change a live view's stream sent (`notes` frame): applied to the notes shown; a
    /// reset reads them all again.
    pub fn apply(self, change: NoteFrame) {
        let mut notes = self.notes.get_untracked();
        if notes.apply(change) {
            self.shown(notes);
        } else {
            self.reload();
        }
    }

    /// Saves a note on `range`; the editor closes once it is stored.
    pub fn save(self, range: SeqRange, text: String, author: String) {
        if let Err(e) = check_draft(&text, &author, self.backend.with_untracked(needs_author)) {
            self.error.set(Some(e));
            return;
        }
        match self.backend.get_untracked() {
            Backend::Offline(name) => {
                let now = crate::browser::now_ms() / 1000.0;
                self.notes.update(|n| {
                    n.add_local(range, text, author, now);
                });
                self.notes.with_untracked(|n| imp::keep(&name, n.list()));
                self.done();
            }
            Backend::Live { source, .. } => {
                let body = serde_json::to_string(&contract::note::NoteInput {
                    from: range.first,
                    to: Some(range.last),
                    text,
                    author: Some(author),
                })
                .unwrap_or_default();
                leptos::task::spawn_local(async move {
                    let url = source.notes_url();
                    match crate::live::net::write_at::<Note>("POST", &url, Some(&body)).await {
                        Ok(note) => {
                            self.done();
                            self.apply(NoteFrame::Note(Box::new(note)));
                        }
                        Err(e) => self.error.set(Some(format!("not saved: {}", e.text))),
                    }
                });
            }
            Backend::None | Backend::Exported => {
                self.error.set(Some("notes cannot be written here".into()));
            }
        }
    }

    fn done(self) {
        self.error.set(None);
        self.editing.set(None);
    }

    /// Deletes note `id`.
    pub fn delete(self, id: u64) {
        match self.backend.get_untracked() {
            Backend::Offline(name) => {
                self.notes.update(|n| {
                    n.remove(id);
                });
                self.notes.with_untracked(|n| imp::keep(&name, n.list()));
            }
            Backend::Live { source, .. } => {
                let Some(url) = source.note_url(id) else {
                    return;
                };
                leptos::task::spawn_local(async move {
                    match crate::live::net::write_at::<Note>("DELETE", &url, None).await {
                        Ok(_) => self.apply(NoteFrame::Deleted(id)),
                        Err(e) => self.error.set(Some(format!("not deleted: {}", e.text))),
                    }
                });
            }
            Backend::None | Backend::Exported => {}
        }
    }
}

/// Whether notes can be written through `b` (a session, a comment link, an offline log).
fn writable(b: &Backend) -> bool {
    match b {
        Backend::Live { source, comments } => !source.is_share() || *comments,
        Backend::Offline(_) => true,
        Backend::None | Backend::Exported => false,
    }
}

/// Whether notes written through `b` need their author's name (a share link's reader).
fn needs_author(b: &Backend) -> bool {
    matches!(b, Backend::Live { source, .. } if source.is_share())
}

/// The tab's `sessionStorage` (natively there is none: nothing is kept).
mod imp {
    use super::{KEEP_KEY, Note};

    #[derive(serde::Serialize, serde::Deserialize)]
    struct Kept {
        name: String,
        notes: Vec<Note>,
    }

    fn storage() -> Option<web_sys::Storage> {
        web_sys::window()?.session_storage().ok()?
    }

    /// The notes kept in this tab for the log named `name` (none when they are another's).
    pub fn kept(name: &str) -> Vec<Note> {
        storage()
            .and_then(|s| s.get_item(KEEP_KEY).ok()?)
            .and_then(|json| serde_json::from_str::<Kept>(&json).ok())
            .filter(|k| k.name == name)
            .map(|k| k.notes)
            .unwrap_or_default()
    }

    /// Keeps `notes` as this tab's, for the log named `name`.
    pub fn keep(name: &str, notes: &[Note]) {
        let kept = Kept {
            name: name.to_owned(),
            notes: notes.to_vec(),
        };
        if let (Some(s), Ok(json)) = (storage(), serde_json::to_string(&kept)) {
            let _ = s.set_item(KEEP_KEY, &json);
        }
    }
}
