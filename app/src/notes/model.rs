//! The notes of what the page shows, purely (tested natively): the list ordered by `from`,
//! which notes show under a row (those whose range ends at its seq), stepping from one to
//! the next, a draft checked as the server checks it, and an offline log's notes made here.

use crate::model::nav::SeqRange;

pub use contract::{Note, NotesFrame as NoteFrame};

/// Longest note text, in bytes (the server's limit: `docs/API.md`, "Notes").
pub const MAX_TEXT_BYTES: usize = 65_536;
/// Longest author name, in characters.
pub const MAX_AUTHOR_CHARS: usize = 100;

/// The notes, ordered by `from`, then `to`, then id.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Notes {
    list: Vec<Note>,
}

impl Notes {
    /// `list`, ordered.
    pub fn new(mut list: Vec<Note>) -> Notes {
        list.sort_by_key(|n| (n.from, n.to, n.id));
        Notes { list }
    }

    /// Every note, in order.
    pub fn list(&self) -> &[Note] {
        &self.list
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The notes shown under the last row of envelope `seq`: those whose range ends there.
    pub fn under(&self, seq: u64) -> Vec<Note> {
        self.list.iter().filter(|n| n.to == seq).cloned().collect()
    }

    /// The note after (`forward`) or before note `at` (by id: it stays put when the list is
    /// read again), wrapping around; none stepped to yet, or gone since, gives the first or
    /// the last.
    pub fn step(&self, at: Option<u64>, forward: bool) -> Option<&Note> {
        let n = self.list.len();
        if n == 0 {
            return None;
        }
        let here = at.and_then(|id| self.list.iter().position(|x| x.id == id));
        let i = match (here, forward) {
            (None, true) => 0,
            (None, false) => n - 1,
            (Some(i), true) => (i + 1) % n,
            (Some(i), false) => (i + n - 1) % n,
        };
        self.list.get(i)
    }

    /// A note made here (an offline log's, kept in the tab): the next id, at `now`.
    pub fn add_local(&mut self, range: SeqRange, text: String, author: String, now: f64) -> Note {
        let id = self.list.iter().map(|n| n.id).max().unwrap_or(0) + 1;
        let note = Note {
            id,
            from: range.first,
            to: range.last,
            text,
            author,
            created_at: now,
            reader: None,
            updated_at: None,
        };
        self.list.push(note.clone());
        *self = Notes::new(std::mem::take(&mut self.list));
        note
    }

    /// `note` put in its place, replacing the one of its id.
    pub fn put(&mut self, note: Note) {
        self.list.retain(|n| n.id != note.id);
        let at = self
            .list
            .partition_point(|n| (n.from, n.to, n.id) < (note.from, note.to, note.id));
        self.list.insert(at, note);
    }

    /// A stream's change applied; `false`: it says nothing applicable (a reset): read them
    /// all again.
    pub fn apply(&mut self, change: NoteFrame) -> bool {
        match change {
            NoteFrame::Note(note) => self.put(*note),
            NoteFrame::Deleted(id) => {
                self.remove(id);
            }
            NoteFrame::Reset(_) => return false,
        }
        true
    }

    /// Note `id` removed; whether it was there.
    pub fn remove(&mut self, id: u64) -> bool {
        let before = self.list.len();
        self.list.retain(|n| n.id != id);
        self.list.len() != before
    }
}

/// A stream's `notes` frame's `data` (docs/API.md): a note made or changed, deleted, or —
/// anything else, an older server's `{}` too — read them all again.
pub fn parse_frame(data: &str) -> NoteFrame {
    serde_json::from_str(data).unwrap_or(NoteFrame::Reset(true))
}

/// What marks a reader's note (written through a comment link): `reader · link 4 “review”`;
/// `None` for the owner's (and an offline log's).
pub fn reader_label(note: &Note) -> Option<String> {
    let r = note.reader.as_ref()?;
    Some(match &r.title {
        Some(t) if !t.trim().is_empty() => format!("reader · link {} “{}”", r.link, t.trim()),
        _ => format!("reader · link {}", r.link),
    })
}

/// The range a note is on, as its link (`#12` or `#seq=12-15`).
pub fn range_of(note: &Note) -> SeqRange {
    SeqRange::between(note.from, note.to)
}

/// What the summary header says: `1 note`, `3 notes`.
pub fn count_line(n: usize) -> String {
    if n == 1 {
        "1 note".to_owned()
    } else {
        format!("{n} notes")
    }
}

/// A key that changes when the notes under a row change (the row is drawn again).
pub fn key_of(notes: &[Note]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for n in notes {
        (n.id, n.from, &n.text, &n.author).hash(&mut h);
    }
    h.finish()
}

/// A draft checked before it is sent: why it cannot be saved, if it cannot.
pub fn check_draft(text: &str, author: &str, author_needed: bool) -> Result<(), String> {
    if text.trim().is_empty() {
        return Err("write something first".to_owned());
    }
    if text.len() > MAX_TEXT_BYTES {
        return Err(format!(
            "a note is at most {MAX_TEXT_BYTES} bytes (this one is {})",
            text.len()
        ));
    }
    if author_needed && author.trim().is_empty() {
        return Err("say who you are (a name)".to_owned());
    }
    if author.chars().count() > MAX_AUTHOR_CHARS {
        return Err(format!("a name is at most {MAX_AUTHOR_CHARS} characters"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(id: u64, from: u64, to: u64) -> Note {
        Note {
            id,
            from,
            to,
            text: format!("n{id}"),
            author: String::new(),
            created_at: 0.0,
            reader: None,
            updated_at: None,
        }
    }

    /// Issue 46.5: a `notes` frame is applied as it comes (the note put in its place or
    /// replaced, a deleted one removed); only a reset (or an old server's `{}`) reads them
    /// all again.
    #[test]
    fn issue_46_5_a_frame_is_applied_not_read_again() {
        let check = |data: &str, want: Option<Vec<u64>>| {
            let mut notes = Notes::new(vec![note(1, 1, 1), note(2, 5, 5)]);
            let change = parse_frame(data);
            let ids = notes
                .apply(change)
                .then(|| notes.list().iter().map(|n| n.id).collect::<Vec<_>>());
            assert_eq!(ids, want, "{data}");
        };
        let put = |id: u64, from: u64| {
            format!(
                r#"{{"note":{{"id":{id},"from":{from},"to":{from},"text":"x","author":"","created_at":1}}}}"#
            )
        };
        check(&put(3, 3), Some(vec![1, 3, 2]));
        check(&put(2, 5), Some(vec![1, 2]));
        check(r#"{"deleted":1}"#, Some(vec![2]));
        check(r#"{"deleted":9}"#, Some(vec![1, 2]));
        check(r#"{"reset":true}"#, None);
        check("{}", None);
        check("not json", None);
        let mut notes = Notes::new(vec![note(1, 1, 1)]);
        notes.apply(parse_frame(&put(1, 1)));
        assert_eq!(notes.list()[0].text, "x", "a changed note replaces the old");
    }

    #[test]
    fn a_readers_note_is_labelled_as_one() {
        let mut n = note(1, 1, 1);
        assert_eq!(reader_label(&n), None);
        n.reader = Some(contract::Reader {
            link: 4,
            title: Some("review".into()),
        });
        assert_eq!(
            reader_label(&n).as_deref(),
            Some("reader · link 4 “review”")
        );
        n.reader = Some(contract::Reader {
            link: 4,
            title: None,
        });
        assert_eq!(reader_label(&n).as_deref(), Some("reader · link 4"));
    }

    #[test]
    fn ordered_and_found_under_their_last_row() {
        let notes = Notes::new(vec![
            note(1, 5, 9),
            note(2, 1, 3),
            note(3, 5, 5),
            note(4, 3, 3),
        ]);
        let ids = |v: &[Note]| v.iter().map(|n| n.id).collect::<Vec<_>>();
        assert_eq!(ids(notes.list()), [2, 4, 3, 1]);
        let check =
            |seq: u64, want: &[u64]| assert_eq!(ids(&notes.under(seq)), want, "under {seq}");
        check(3, &[2, 4]);
        check(9, &[1]);
        check(5, &[3]);
        check(4, &[]);
    }

    #[test]
    fn stepping_wraps_around() {
        let notes = Notes::new(vec![note(1, 1, 1), note(2, 2, 2), note(3, 3, 3)]);
        let check = |at: Option<u64>, fwd: bool, want: Option<u64>| {
            assert_eq!(notes.step(at, fwd).map(|n| n.id), want, "{at:?} {fwd}");
        };
        check(None, true, Some(1));
        check(None, false, Some(3));
        check(Some(1), true, Some(2));
        check(Some(3), true, Some(1));
        check(Some(1), false, Some(3));
        check(Some(9), true, Some(1));
        assert_eq!(Notes::default().step(None, true), None);
    }

    /// Regression (CI of stop 27): the stepper lost its place when the notes were read again
    /// (a live page re-reads them on every change), so › went back to the first note.
    #[test]
    fn stepping_keeps_its_place_when_the_list_is_read_again() {
        let before = Notes::new(vec![note(1, 3, 6), note(2, 30, 31)]);
        let at = before.step(None, true).map(|n| n.id);
        assert_eq!(at, Some(1));
        let again = Notes::new(vec![note(2, 30, 31), note(1, 3, 6), note(5, 1, 1)]);
        assert_eq!(again.step(at, true).map(|n| n.id), Some(2));
    }

    #[test]
    fn local_notes_get_the_next_id_and_go_in_order() {
        let mut notes = Notes::new(vec![note(4, 5, 5)]);
        let n = notes.add_local(SeqRange::between(9, 2), "x".into(), "me".into(), 7.0);
        assert_eq!((n.id, n.from, n.to, n.created_at), (5, 2, 9, 7.0));
        assert_eq!(notes.list()[0].id, 5);
        assert!(notes.remove(4));
        assert!(!notes.remove(4));
        assert_eq!(notes.len(), 1);
    }

    #[test]
    fn drafts_and_lines() {
        let check = |text: &str, author: &str, needed: bool, ok: bool| {
            assert_eq!(
                check_draft(text, author, needed).is_ok(),
                ok,
                "{text:?} {author:?}"
            );
        };
        check("why", "", false, true);
        check("  ", "", false, false);
        check("why", " ", true, false);
        check("why", "Ann", true, true);
        check(&"x".repeat(MAX_TEXT_BYTES + 1), "", false, false);
        check("why", &"a".repeat(MAX_AUTHOR_CHARS + 1), false, false);
        assert_eq!(count_line(1), "1 note");
        assert_eq!(count_line(0), "0 notes");
        assert_eq!(range_of(&note(1, 3, 5)).hash(), "#seq=3-5");
        assert_eq!(range_of(&note(1, 3, 3)).hash(), "#3");
        assert_ne!(key_of(&[note(1, 3, 3)]), key_of(&[note(2, 3, 3)]));
    }
}
