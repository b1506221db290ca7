//! What an export is asked for ([`Options`], a line range read by [`parse_range`]) and what it
//! gives: the file's facts ([`Meta`]) and the redactions made ([`Report`]).

use classifier::Summary;
pub use contract::{Note, Reader};
use serde::{Serialize, Serializer};

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
    /// redacted with the rows: [`exported_notes`]).
    pub notes: Vec<Note>,
}

/// The notes an export with `opts` carries: those inside its range, ordered by `from`
/// (then `to`, then id), their text and author redacted when it redacts.
pub fn exported_notes(opts: &Options) -> Vec<Note> {
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
    notes.sort_by_key(Note::key);
    notes
}

/// The notes as a file's meta has always written them: `{"id", "from", "to", "text",
/// "author", "created_at"}`, `reader` only for a reader's (so an owner's note is the same
/// bytes as before readers were marked) and no `updated_at`. The page reads them back as
/// [`Note`]s.
fn meta_notes<S: Serializer>(notes: &[Note], s: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct InMeta<'a> {
        id: u64,
        from: u64,
        to: u64,
        text: &'a str,
        author: &'a str,
        created_at: f64,
        #[serde(skip_serializing_if = "Option::is_none")]
        reader: Option<&'a Reader>,
    }
    s.collect_seq(notes.iter().map(|n| InMeta {
        id: n.id,
        from: n.from,
        to: n.to,
        text: &n.text,
        author: &n.author,
        created_at: n.created_at,
        reader: n.reader.as_ref(),
    }))
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
    #[serde(skip_serializing_if = "Vec::is_empty", serialize_with = "meta_notes")]
    pub notes: Vec<Note>,
}

/// The redactions made, for a human to review before the file leaves (the contract's, also
/// a redacted share's report): `{"count", "events", "items", "truncated"}`.
pub use contract::share::{REPORT_ITEMS, Redaction, Report};

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
