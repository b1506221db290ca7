//! A stream-json answer written delta by delta, as rows: one markdown row per paragraph, the
//! last one growing.
//!
//! A row that grows is sent whole at every delta (a row replaces the one before it of the same
//! coalesce key; it carries all its text, so a log cut after any delta still shows all of the
//! answer). One row for a whole answer made each delta cost the answer so far: an 8 KB answer
//! in 24-byte deltas wrote 1.3 MB of rows, and a log of such answers was classified at five
//! times the floor's time, its page ten times over its target. The answer is cut into rows at
//! its paragraphs instead, so a delta costs at most its paragraph (and a row never holds more
//! than [`TEXT_ROW_BYTES`]).
//!
//! A paragraph ends at a blank line outside a fenced code block, once the next line that is
//! not blank begins with neither a space nor a tab (an indented line continues a list item, or
//! is code). Each line is looked at once, when it is complete: a delta costs its own bytes,
//! plus the copy of its row.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::text::{Clean, scan};

/// Most bytes of answer text one row holds; a longer paragraph goes on in a new row (so the
/// state, and each envelope, stays bounded).
pub(super) const TEXT_ROW_BYTES: usize = 16 * 1024;

/// The answer being written: its row's text and what is known of its lines.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Answer {
    /// The text of the row being written.
    pub(super) text: String,
    /// The answer's first bytes (at most [`TEXT_ROW_BYTES`]), for telling a stream printed
    /// again from its start.
    pub(super) head: String,
    /// Where in `text` the first line not yet looked at starts.
    pub(super) at: usize,
    /// How far `text` is known to have no line end after `at` (a long line growing is not
    /// searched again from its start at every delta).
    pub(super) searched: usize,
    /// The open code fence at `at`: its character and length.
    pub(super) fence: Option<(u8, usize)>,
    /// The row has a line that is not blank before `at`.
    pub(super) content: bool,
    /// Where a run of blank lines after the row's content starts, when one ends at `at`: the
    /// paragraph may end there.
    pub(super) blank: Option<usize>,
    /// `text` is known to need no sanitizing: every piece added since the row began was
    /// clean ([`scan`]). (Whether a text needs it is a property of each of its characters, so
    /// a text of clean pieces, and any part of it, is clean.) The growing row is then not
    /// scanned again whole at every delta (`crate::classify`).
    pub(super) clean: bool,
}

/// Saved as its two texts, `[text, head]` (what was known of the row's lines is learnt again
/// from its text at the next delta).
impl Serialize for Answer {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (&self.text, &self.head).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Answer {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Answer, D::Error> {
        let (text, head) = <(String, String)>::deserialize(d)?;
        Ok(Answer {
            text,
            head,
            ..Answer::default()
        })
    }
}

impl Answer {
    /// Nothing written.
    pub(crate) fn is_empty(&self) -> bool {
        *self == Answer::default()
    }

    /// A new answer.
    pub(super) fn start(&mut self) {
        // `Answer::default()`, its texts' room kept for the next answer (a new answer at every
        // run would otherwise grow its two texts again, delta by delta).
        let Answer {
            text,
            head,
            at,
            searched,
            fence,
            content,
            blank,
            clean,
        } = self;
        text.clear();
        head.clear();
        *at = 0;
        *searched = 0;
        *fence = None;
        *content = false;
        *blank = None;
        *clean = false;
    }

    /// Whether `piece` is the answer printed again from its start.
    pub(super) fn restarts_with(&self, piece: &str) -> bool {
        self.head.starts_with(piece)
    }

    /// A new row of the same answer (the row before is full): its lines start afresh, inside
    /// the same code block if one is open.
    pub(super) fn new_row(&mut self) {
        self.text.clear();
        self.at = 0;
        self.searched = 0;
        self.content = false;
        self.blank = None;
        self.clean = false;
    }

    /// Adds `piece` to the row; each paragraph it ends, as the text of its row (the row being
    /// written first), the row being written going on with what follows.
    pub(super) fn push(&mut self, piece: &str) -> Vec<String> {
        let room = TEXT_ROW_BYTES.saturating_sub(self.head.len());
        self.head.push_str(cut(piece, room));
        self.clean = (self.clean || self.text.is_empty()) && scan(piece) == Clean::Nothing;
        self.text.push_str(piece);
        let mut ended = Vec::new();
        loop {
            // The next line's first character that is not a space or tab (a blank line's
            // end, or what says whether the line is indented).
            let next = self.text.as_bytes()[self.at..]
                .iter()
                .position(|&b| b != b' ' && b != b'\t')
                .map(|i| (i, self.text.as_bytes()[self.at + i]));
            if let Some(start) = self.blank
                && let Some((indent, first)) = next
                && first != b'\n'
                && first != b'\r'
            {
                self.blank = None;
                if indent == 0 {
                    let rest = self.text.split_off(self.at);
                    self.text.truncate(start);
                    ended.push(std::mem::replace(&mut self.text, rest));
                    self.at = 0;
                    self.searched = 0;
                    self.content = false;
                }
            }
            let from = self.at.max(self.searched);
            let Some(len) = memchr::memchr(b'\n', &self.text.as_bytes()[from..]) else {
                self.searched = self.text.len();
                break;
            };
            let start = self.at;
            self.at = from + len + 1;
            self.look_at(start);
        }
        ended
    }

    /// Looks at the complete line that starts at `start` (and ends before `self.at`).
    fn look_at(&mut self, start: usize) {
        let line = &self.text[start..self.at];
        let fence = fence(line);
        if let Some((c, len)) = self.fence {
            if fence.is_some_and(|(d, n, rest)| d == c && n >= len && rest.trim().is_empty()) {
                self.fence = None;
            }
            return;
        }
        if line.trim().is_empty() {
            if self.content && self.blank.is_none() {
                self.blank = Some(start);
            }
            return;
        }
        self.content = true;
        self.blank = None;
        if let Some((c, len, _)) = fence {
            self.fence = Some((c, len));
        }
    }
}

/// A code fence line (up to three spaces, then three or more backticks or tildes): its
/// character, its length and what follows it.
fn fence(line: &str) -> Option<(u8, usize, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = &line[indent..];
    let c = *rest.as_bytes().first()?;
    if indent > 3 || (c != b'`' && c != b'~') {
        return None;
    }
    let len = rest.len() - rest.trim_start_matches(c as char).len();
    (len >= 3).then(|| (c, len, &rest[len..]))
}

/// `s` cut to at most `max` bytes at a character boundary.
pub(super) fn cut(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut i = max;
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    &s[..i]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows `deltas` make: each paragraph's text, the last row's as it stands.
    fn rows(deltas: &[&str]) -> Vec<String> {
        let mut a = Answer::default();
        let mut out = Vec::new();
        for d in deltas {
            out.extend(a.push(d));
        }
        out.push(a.text);
        out
    }

    /// `start` leaves the answer as a new one, whatever it held (an open fence, a blank run).
    #[test]
    fn start_is_a_new_answer() {
        for deltas in [&["a\n\n", "```rust\nfn x"][..], &["text  \n\n\n"], &["x"]] {
            let mut a = Answer::default();
            for d in deltas {
                a.push(d);
            }
            a.start();
            assert_eq!(a, Answer::default(), "{deltas:?}");
        }
    }

    fn check(text: &str, expect: &[&str]) {
        // The same rows whatever the deltas: the text whole, and cut at every byte.
        assert_eq!(rows(&[text]), expect, "{text:?} whole");
        for i in 1..text.len() {
            if text.is_char_boundary(i) {
                assert_eq!(
                    rows(&[&text[..i], &text[i..]]),
                    expect,
                    "{text:?} cut at {i}"
                );
            }
        }
        let bytes: Vec<String> = text.chars().map(String::from).collect();
        let bytes: Vec<&str> = bytes.iter().map(String::as_str).collect();
        assert_eq!(rows(&bytes), expect, "{text:?} a character at a time");
    }

    #[test]
    fn paragraphs_are_rows() {
        check("One.", &["One."]);
        check("One.\n\nTwo.", &["One.\n", "Two."]);
        check(
            "One.\n\n\n  \nTwo.\nThree.\n\n",
            &["One.\n", "Two.\nThree.\n\n"],
        );
        check("\n\nOne.\n\nTwo.", &["\n\nOne.\n", "Two."]);
        check("One.\r\n\r\nTwo.", &["One.\r\n", "Two."]);
        check("- a\n\n- b\n\n1. c", &["- a\n", "- b\n", "1. c"]);
    }

    #[test]
    fn an_indented_line_goes_on_in_its_row() {
        check("1. a\n\n   more\n\n2. b", &["1. a\n\n   more\n", "2. b"]);
        check("- a\n\n\tcode\n", &["- a\n\n\tcode\n"]);
    }

    #[test]
    fn a_code_block_is_one_row() {
        check(
            "Code:\n\n```rust\nfn a() {}\n\nfn b() {}\n```\n\nAfter.",
            &[
                "Code:\n",
                "```rust\nfn a() {}\n\nfn b() {}\n```\n",
                "After.",
            ],
        );
        check(
            "~~~~\na\n\n~~~\nb\n\n~~~~~\n\nc",
            &["~~~~\na\n\n~~~\nb\n\n~~~~~\n", "c"],
        );
        check(
            "````\na\n\n``` not a close\n\nb",
            &["````\na\n\n``` not a close\n\nb"],
        );
        check("    ```\n\nb", &["    ```\n", "b"]);
    }

    #[test]
    fn the_head_is_the_answers_first_bytes() {
        let mut a = Answer::default();
        a.push("One.\n\nTwo");
        assert!(a.restarts_with("One.\n\nTw"));
        assert!(!a.restarts_with("Two"));
        a.push(&"x".repeat(2 * TEXT_ROW_BYTES));
        assert_eq!(a.head.len(), TEXT_ROW_BYTES);
    }
}
