//! What an export is asked for ([`Options`], a line range read by [`parse_range`]) and what it
//! gives: the file's facts ([`Meta`]) and the redactions made ([`Report`]).

use classifier::Summary;
use classifier::redact::Finding;
use serde::{Deserialize, Serialize};

/// What to export.
#[derive(Debug, Clone)]
pub struct Options {
    /// Redact secrets from every line first.
    pub redact: bool,
    /// Keep only the rows of these lines (1-based, inclusive).
    pub range: Option<(u64, u64)>,
    /// The title shown by the page; default: the log's name.
    pub title: Option<String>,
    /// The longest line classified whole (as `hiveterm classify`).
    pub max_line_bytes: usize,
    /// Notes on the log's rows, carried read-only by the file (those within the range,
    /// redacted with the rows: [`Note::exported`]).
    pub notes: Vec<Note>,
}

/// A note on a row range of the log (`from`–`to` seqs: lines of a log file, events of a
/// server's session): the shape of the server's notes (docs/API.md, "Notes").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Note {
    /// Its id where it was made.
    pub id: u64,
    /// The first seq of its range.
    pub from: u64,
    /// The last seq.
    pub to: u64,
    /// Its markdown text (shown only through `classifier::markdown::render`).
    pub text: String,
    /// Who wrote it.
    #[serde(default)]
    pub author: String,
    /// When it was made (unix seconds).
    #[serde(default)]
    pub created_at: f64,
    /// A comment link's reader wrote it, through this link (absent: the owner did, or the
    /// log's reader on the page); shown as a reader's, never as the owner's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reader: Option<NoteReader>,
}

/// The comment link a reader's note came through (docs/API.md, "Notes": `reader`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NoteReader {
    /// The link's id.
    pub link: u64,
    /// The link's title, if it has one and the reader may know it.
    #[serde(default)]
    pub title: Option<String>,
}

impl Note {
    /// The notes an export with `opts` carries: those inside its range, ordered by `from`
    /// (then `to`, then id), their text and author redacted when it redacts.
    pub fn exported(opts: &Options) -> Vec<Note> {
        let mut notes: Vec<Note> = opts
            .notes
            .iter()
            .filter(|n| opts.range.is_none_or(|(a, b)| a <= n.from && n.to <= b))
            .cloned()
            .map(|mut n| {
                if opts.redact {
                    n.text = classifier::redact::redact_text(&n.text).0.into_owned();
                    n.author = classifier::redact::redact_text(&n.author).0.into_owned();
                    if let Some(title) = n.reader.as_mut().and_then(|r| r.title.as_mut()) {
                        *title = classifier::redact::redact_text(title).0.into_owned();
                    }
                }
                n
            })
            .collect();
        notes.sort_by_key(|n| (n.from, n.to, n.id));
        notes
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            redact: false,
            range: None,
            title: None,
            max_line_bytes: classifier::MAX_LINE_BYTES,
            notes: Vec::new(),
        }
    }
}

/// What was exported: the facts the page reads first (`meta` in the file).
#[derive(Debug, Clone, Serialize)]
pub struct Meta {
    /// Version of this layout.
    pub format: u32,
    /// The page's title.
    pub title: String,
    /// The log's name (its file name).
    pub name: String,
    /// Physical lines read (with a range: up to its end).
    pub lines: u64,
    /// Envelopes embedded (those with rows).
    pub envelopes: u64,
    /// Bytes of the embedded envelopes (JSON lines) before compression.
    pub bytes: u64,
    /// The range kept, if any.
    pub range: Option<(u64, u64)>,
    /// Redactions made, when redacting.
    pub redactions: Option<u64>,
    /// The kept lines' summary.
    pub summary: Summary,
    /// The notes the file carries (absent when none, so a file without notes is the same
    /// bytes as before notes were carried).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// Redactions listed one by one in a [`Report`] (all are counted).
pub const REPORT_ITEMS: usize = 1000;

/// One redaction, for review.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Redaction {
    /// The line it is in (1-based).
    pub seq: u64,
    /// What it was (`anthropic_key`, …: [`classifier::redact::Kind::as_str`]).
    pub kind: &'static str,
    /// A masked preview (`sk-a… (108 chars)`).
    pub preview: String,
}

/// The redactions made, for a human to review before the file leaves or a redacted share's
/// link is sent: the shape of a redacted share's report (docs/API.md, server/src/redacted.rs
/// serialises this one), `{"count", "events", "items", "truncated"}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Redactions in all.
    pub count: u64,
    /// Lines with at least one.
    pub events: u64,
    /// The first [`REPORT_ITEMS`] redactions.
    pub items: Vec<Redaction>,
    /// Whether `items` stopped before `count`.
    pub truncated: bool,
}

impl Report {
    /// The redactions made in line `seq` (none: nothing to count), listed while fewer than
    /// [`REPORT_ITEMS`] are. The one bookkeeping of the export's report and of a redacted
    /// share's (server/src/redacted.rs).
    pub fn add(&mut self, seq: u64, findings: &[Finding]) {
        if findings.is_empty() {
            return;
        }
        self.count += findings.len() as u64;
        self.events += 1;
        for f in findings {
            if self.items.len() < REPORT_ITEMS {
                self.items.push(Redaction {
                    seq,
                    kind: f.kind.as_str(),
                    preview: f.preview.clone(),
                });
            }
        }
        self.truncated = self.count > self.items.len() as u64;
    }
}

/// Parses `A-B` (1-based lines, inclusive, `A` ≤ `B`).
pub fn parse_range(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("bad range {s:?}: expected A-B, line numbers with A <= B");
    let (a, b) = s.split_once('-').ok_or_else(bad)?;
    let a: u64 = a.trim().parse().map_err(|_| bad())?;
    let b: u64 = b.trim().parse().map_err(|_| bad())?;
    if a == 0 || a > b {
        return Err(bad());
    }
    Ok((a, b))
}
