//! A JSON document written over many lines (`gemini -p … -o json` prints one, pretty, at the
//! end of a run; `opencode export` writes one), read back as one line: framing every format
//! shares, as [`LineReader`](crate::LineReader)'s lines are, kept in the context
//! ([`ClassifyCtx`](crate::ClassifyCtx)) while one is open.
//!
//! No line of such a document is JSON on its own, and each line is still one envelope (seq =
//! its line number). So the context keeps the document's lines while it is open
//! ([`Pending`]): a line that is just `{` or `[` begins one; each unreadable line after it is
//! added; a line ending in `}` or `]` may complete it (it is parsed then), and the completing
//! line gives the document's rows, as if the whole document were that line. Rows:
//!
//! - each line of an open document: a debug row `⚙ JSON document · N lines so far`, all with the
//!   coalesce key `json-doc`, so the page shows one row that counts; the completing line's
//!   first row (`⚙ JSON document · N lines`, same key) replaces it, then the document's own rows;
//! - a document that cannot be one (a line that no JSON line can start with, a closing line
//!   after which it still does not parse, a line of any other kind while it is open, over
//!   [`MAX_DOC_BYTES`] or [`MAX_DOC_LINES`]): one error row `✗ unreadable line · a JSON document
//!   of N lines (from line A) does not parse: <why>` with its text as the body, so no line is
//!   lost; the line that broke it is then read on its own.
//!
//! A log that ends while a document is open shows the counting row last. The summary folds
//! the same steps (its own [`Pending`]): a completed document is read as its value, a broken
//! one's lines count as not understood.

use serde_json::Value;

use serde::{Deserialize, Serialize};

use crate::event::live::LiveEvent;
use crate::kind::icon;
use crate::msg::{Level, TermMsg};

/// The lines of the document being read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Pending {
    /// Its text so far, lines joined by `\n` (empty: none open).
    pub(crate) text: String,
    /// How many lines.
    pub(crate) lines: u32,
}

impl Pending {
    /// Nothing open.
    pub(crate) fn is_empty(&self) -> bool {
        self.text.is_empty()
    }
}

/// Most bytes of one document.
pub(crate) const MAX_DOC_BYTES: usize = 1 << 20;
/// Most lines of one document.
pub(crate) const MAX_DOC_LINES: u32 = 100_000;
/// Most bytes of a broken document shown in its row's body.
const BODY_BYTES: usize = 64 * 1024;

/// What one line did to the document.
#[derive(Debug, PartialEq)]
pub(crate) enum Now {
    /// Nothing: no document open, the line begins none.
    Other,
    /// The line is (still) part of an open document of N lines.
    Open(u32),
    /// The line completed a document of N lines: its value.
    Done(Box<Value>, u32),
    /// The line was the last of a document that broke (in [`Outcome::broken`]).
    InBroken,
}

/// One line's step: a document that broke (its text, lines and why), then what the line is.
#[derive(Debug, PartialEq)]
pub(crate) struct Outcome {
    pub broken: Option<Broken>,
    pub now: Now,
}

/// A document that could not be one.
#[derive(Debug, PartialEq)]
pub(crate) struct Broken {
    pub text: String,
    pub lines: u32,
    pub why: String,
}

impl Pending {
    /// The step of one line's event.
    pub(crate) fn step(&mut self, event: &LiveEvent) -> Outcome {
        let text = match event {
            LiveEvent::Unreadable { text: Some(t), .. } => Some(t.as_str()),
            _ => None,
        };
        if self.is_empty() {
            return Outcome {
                broken: None,
                now: text.map_or(Now::Other, |t| self.begin(t)),
            };
        }
        let Some(line) = text else {
            return Outcome {
                broken: Some(self.fail("a line of another kind came before its end")),
                now: Now::Other,
            };
        };
        let first = line.trim_start().chars().next();
        if !first.is_none_or(|c| "\"{}[],:-0123456789tfn".contains(c)) {
            let broken = self.fail("a line no JSON line can start so");
            let now = self.begin(line);
            return Outcome {
                broken: Some(broken),
                now,
            };
        }
        self.text.push('\n');
        self.text.push_str(line);
        self.lines += 1;
        if self.text.len() > MAX_DOC_BYTES || self.lines > MAX_DOC_LINES {
            return Outcome {
                broken: Some(self.fail("over the document limit")),
                now: Now::InBroken,
            };
        }
        let end = line.trim_end();
        if !(end.ends_with('}') || end.ends_with(']')) {
            return Outcome {
                broken: None,
                now: Now::Open(self.lines),
            };
        }
        match serde_json::from_str::<Value>(&self.text) {
            Ok(v) => {
                let lines = self.lines;
                *self = Pending::default();
                Outcome {
                    broken: None,
                    now: Now::Done(Box::new(v), lines),
                }
            }
            Err(e) if e.is_eof() => Outcome {
                broken: None,
                now: Now::Open(self.lines),
            },
            Err(e) => Outcome {
                broken: Some(self.fail(&format!("not JSON: {e}"))),
                now: Now::InBroken,
            },
        }
    }

    /// A line on its own: `{` or `[` begins a document.
    fn begin(&mut self, line: &str) -> Now {
        if matches!(line.trim(), "{" | "[") {
            self.text = line.to_owned();
            self.lines = 1;
            Now::Open(1)
        } else {
            Now::Other
        }
    }

    /// The open document, broken; nothing open after.
    fn fail(&mut self, why: &str) -> Broken {
        let p = std::mem::take(self);
        Broken {
            text: p.text,
            lines: p.lines,
            why: why.to_owned(),
        }
    }
}

/// The rows of a step: before the line's own rows ([`Now::Other`]), or before the rows of the
/// document's value ([`Now::Done`]).
pub(crate) fn rows(out: &Outcome) -> Vec<TermMsg> {
    let mut rows = Vec::new();
    if let Some(b) = &out.broken {
        let mut body = b.text.clone();
        if body.len() > BODY_BYTES {
            let mut i = BODY_BYTES;
            while !body.is_char_boundary(i) {
                i -= 1;
            }
            body.truncate(i);
            body.push('…');
        }
        rows.push(
            TermMsg::new(
                Level::Error,
                format!(
                    "unreadable line · a JSON document of {} does not parse: {}",
                    lines(b.lines),
                    b.why
                ),
            )
            .icon(icon::ERROR)
            .body(body),
        );
    }
    match &out.now {
        Now::Open(n) => rows.push(
            TermMsg::new(
                Level::Debug,
                format!("⚙ JSON document · {} so far", lines(*n)),
            )
            .coalesce("json-doc"),
        ),
        Now::Done(_, n) => rows.push(
            TermMsg::new(Level::Debug, format!("⚙ JSON document · {}", lines(*n)))
                .coalesce("json-doc"),
        ),
        Now::Other | Now::InBroken => {}
    }
    rows
}

fn lines(n: u32) -> String {
    if n == 1 {
        "1 line".to_owned()
    } else {
        format!("{n} lines")
    }
}
