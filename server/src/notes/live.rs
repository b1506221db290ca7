//! How a reader is shown notes ([`NotesView`]: redacted under a redacted link, another link's
//! title left out under a link) and the `notes` frames of the live streams: each change sent
//! as the note itself (`{"note": …}`), `{"deleted": id}`, or `{"reset": true}` when the
//! stream cannot tell which notes changed (it fell behind, or another process deleted one).

use axum::body::Bytes;
use contract::NotesFrame;

use crate::store::{Note, NoteChange, Store};

/// How one reader is shown a session's notes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NotesView {
    /// Their text and author redacted (a redacted link's).
    pub redact: bool,
    /// The link the reader reads through (`None`: the owner); a note of another comment link
    /// shows that link's id but not its title.
    pub share: Option<u64>,
}

impl NotesView {
    /// The owner's view: every note as stored.
    pub(crate) const OWNER: NotesView = NotesView {
        redact: false,
        share: None,
    };

    /// `note` as this reader is shown it.
    pub(crate) fn show(self, mut note: Note) -> Note {
        if self.redact {
            note.text = classifier::redact::redact_text(&note.text).0.into_owned();
            note.author = classifier::redact::redact_text(&note.author).0.into_owned();
        }
        if let (Some(share), Some(reader)) = (self.share, note.reader.as_mut())
            && reader.link != share
        {
            reader.title = None;
        }
        if self.redact
            && let Some(reader) = note.reader.as_mut()
            && let Some(title) = reader.title.as_mut()
        {
            *title = classifier::redact::redact_text(title).0.into_owned();
        }
        note
    }
}

/// A `notes` frame carrying `data` (no `id:`: it must not move `Last-Event-ID`).
fn frame(data: &NotesFrame) -> Bytes {
    let data = serde_json::to_string(data).unwrap_or_else(|_| r#"{"reset":true}"#.to_owned());
    Bytes::from(format!("event: notes\ndata: {data}\n\n"))
}

/// The frame that says: read the notes again.
pub(crate) fn reset_frame() -> Bytes {
    frame(&NotesFrame::Reset(true))
}

/// The `notes` frame of `change` to `session`'s notes for a reader with `view`: the note as
/// they are shown it (read from the store when the change does not carry it), or its id when
/// it was deleted. A failed read is a reset.
pub(crate) async fn change_frame(
    store: &Store,
    session: &str,
    change: NoteChange,
    view: NotesView,
) -> Bytes {
    let note = match change {
        NoteChange::Stored(note) => Some(Note::clone(&note)),
        NoteChange::Changed(id) => match store.note(session, id).await {
            Ok(Some(note)) => Some(note),
            Ok(None) => return frame(&NotesFrame::Deleted(id)),
            Err(e) => {
                tracing::warn!("note {id} of {session}: {e}");
                return reset_frame();
            }
        },
        NoteChange::Deleted(id) => return frame(&NotesFrame::Deleted(id)),
        NoteChange::Reset => None,
    };
    match note {
        Some(note) => frame(&NotesFrame::Note(Box::new(view.show(note)))),
        None => reset_frame(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Reader;

    fn note(link: Option<u64>) -> Note {
        Note {
            id: 1,
            from: 1,
            to: 1,
            text: "key ghp_0123456789abcdefghijklmnopqrstuvwxyzAB".into(),
            author: "Ann".into(),
            reader: link.map(|link| Reader {
                link,
                title: Some("review".into()),
            }),
            created_at: 1.0,
            updated_at: None,
        }
    }

    #[test]
    fn a_view_redacts_and_keeps_other_links_titles_out() {
        let check = |view: NotesView, link: Option<u64>, title: Option<&str>, redacted: bool| {
            let shown = view.show(note(link));
            assert_eq!(
                shown.reader.as_ref().and_then(|r| r.title.as_deref()),
                title
            );
            assert_eq!(shown.text.contains("REDACTED"), redacted, "{view:?}");
        };
        let link = |share, redact| NotesView {
            redact,
            share: Some(share),
        };
        check(NotesView::OWNER, Some(3), Some("review"), false);
        check(NotesView::OWNER, None, None, false);
        check(link(3, false), Some(3), Some("review"), false);
        check(link(4, false), Some(3), None, false);
        check(link(4, true), Some(3), None, true);
    }
}
