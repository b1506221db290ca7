//! What the page and its workers say to each other: the one module of [`crate::worker`] the
//! page may import.
//!
//! Every message is one of the typed enums below, written by [`encode`] and read by
//! [`decode`] (serde, JSON, externally tagged — `"ready"`, `{"file": {"job": 3}}` — the
//! cheapest form for serde to read: no buffering of the fields to find a tag), tested
//! natively both ways. What a message
//! carries beside its JSON — a `Blob`, or the rows' flat buffer — is its *attachment*,
//! posted next to it and never copied into JSON ([`port`] puts the two in one JS object,
//! `{msg, data}`, and takes them out again; a `Uint8Array`'s buffer is transferred).
//!
//! - [`ToWorker`] / [`FromWorker`]: the page and the classifier worker (`src/bin/worker.rs`):
//!   a log classified in chunks, its rows sent in [`row_batch`]'s flat layout, bodies read
//!   again, a search of the bodies, "save as one file".
//! - [`ToMarkdown`] / [`FromMarkdown`]: the page and the markdown worker
//!   (`src/bin/mdworker.rs`): a markdown body rendered to safe HTML.
//! - [`compare::ToCompare`] / [`compare::FromCompare`]: the page and the compare worker
//!   (`src/bin/cmpworker.rs`): two dropped logs aligned, the compare page's answer back.
//! - [`row_batch`]: the rows of a chunk without their bodies ([`row_batch::strip`]), as one
//!   flat buffer (pure, round-trip tested).

pub mod compare;
pub mod row_batch;

pub mod port;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The classifier worker's phases, in the order of [`Rows::phases`]: the milliseconds each
/// took so far for the log in hand (the big-log benchmark prints them).
pub const PHASES: [&str; 6] = [
    "read (waiting for the file's next chunk, copy into wasm)",
    "classify (lines, rows, summary fold, checkpoints)",
    "strip bodies",
    "rows encoded (row_batch)",
    "summary to JSON",
    "postMessage",
];

/// A row whose body stays in the file: where it is (`seq`, `idx`) and the body's line
/// count (the page's height estimate).
pub type Lazy = (u64, u32, u32);

/// A row of an offline log: its envelope's `seq` and its place in it.
pub type RowKey = (u64, u32);

/// A file of a session after its first, in the one `Blob` of all of them: the byte where it
/// starts, and its subagent's id (`LogClassifier::next_file`).
pub type Part = (f64, Option<String>);

/// Page → classifier worker. `job` numbers the log in hand: each [`ToWorker::File`] starts a
/// new one, and a message of another job is dropped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToWorker {
    /// Classify the attached `Blob` (a `File`, or the `Blob` of pasted text); ends the job
    /// in hand.
    File {
        /// The new job.
        job: u64,
        /// A session's several files in one `Blob`, one after the other: where each file
        /// after the first starts, and its subagent's id when its name says (none: one file).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        parts: Vec<Part>,
    },
    /// The frame with the job's first rows is painted: until then (or a few chunks) the
    /// worker reads one chunk at a time, since reads in flight held that frame up.
    Shown {
        /// The job.
        job: u64,
    },
    /// Drop the job in hand (and its search).
    Cancel,
    /// The bodies of these rows, read again from the file (answered by
    /// [`FromWorker::Bodies`]).
    Bodies {
        /// The job.
        job: u64,
        /// The rows.
        want: Vec<RowKey>,
    },
    /// Search the bodies for `query` (empty: stop searching); answered by
    /// [`FromWorker::Hits`].
    Search {
        /// The job.
        job: u64,
        /// The search's number.
        id: u64,
        /// What to find.
        query: String,
    },
    /// Make "save as one file" of the attached log `Blob`, or of `url`'s.
    Save(Save),
}

/// "Save as one file": what the page asks its save worker for.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Save {
    /// `GET …/events/raw` of a live session (else the log is the attached `Blob`).
    pub url: Option<String>,
    /// The log's name.
    pub name: String,
    /// The title typed (else `own_title`, else none).
    pub title: String,
    /// The session's own title.
    pub own_title: String,
    /// Whether secrets are redacted.
    pub redact: bool,
    /// The page's `<link href>`s (its stylesheet, its glue and wasm).
    pub links: Vec<String>,
    /// The notes of what is open, carried read-only by the file (absent: none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<onefile::Note>,
}

/// Classifier worker → page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FromWorker {
    /// The worker listens (sent once, when it starts).
    Ready,
    /// A chunk's rows (attached: their [`row_batch`] buffer, transferred).
    Rows(Rows),
    /// Bodies asked for: `(seq, idx, body)`.
    Bodies {
        /// The job.
        job: u64,
        /// The bodies found.
        found: Vec<(u64, u32, String)>,
    },
    /// Rows of search `id` whose body matches.
    Hits {
        /// The job.
        job: u64,
        /// The search.
        id: u64,
        /// The rows.
        hits: Vec<RowKey>,
        /// Whether the whole file was searched.
        done: bool,
    },
    /// Something failed: reading job `job`'s log, or a save (no job).
    Error {
        /// The job, if a log's.
        job: Option<u64>,
        /// What went wrong.
        message: String,
    },
    /// A save's progress: bytes of the log read.
    Saving {
        /// Bytes read.
        read: u64,
        /// Bytes in all.
        total: u64,
    },
    /// The file made (attached: its `Blob`).
    Saved(Saved),
}

/// A chunk of a log classified, and how far reading got.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Rows {
    /// The job.
    pub job: u64,
    /// Bytes read.
    pub read: u64,
    /// Bytes in all.
    pub total: u64,
    /// Physical lines read.
    pub lines: u64,
    /// Whether this is the last chunk.
    pub done: bool,
    /// The [`classifier::Summary`] of the log read so far, as JSON (the keys `hiveterm
    /// summary --json` prints, docs/CLI.md); the last chunk's is the whole log's.
    pub summary: String,
    /// Milliseconds per phase so far ([`PHASES`]).
    pub phases: Vec<f64>,
}

/// A file made by "save as one file".
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Saved {
    /// Envelopes in the file.
    pub rows: u64,
    /// Physical lines of the log.
    pub lines: u64,
    /// The file's size.
    pub bytes: u64,
    /// Whether it was redacted.
    pub redact: bool,
    /// The redactions, as JSON (`{count, events, truncated, items}`).
    pub report: String,
}

/// Page → markdown worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToMarkdown {
    /// Render a markdown body (as drawn: the cut part of a huge one).
    Render {
        /// The request.
        id: u64,
        /// The markdown.
        text: String,
    },
}

/// Markdown worker → page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FromMarkdown {
    /// The worker listens.
    Ready,
    /// Request `id`'s body as safe HTML (`classifier::markdown::render`).
    Rendered {
        /// The request.
        id: u64,
        /// The HTML.
        html: String,
    },
}

/// A message as its JSON.
pub fn encode<T: Serialize>(msg: &T) -> String {
    // None of these types can fail to serialise (no maps with non-string keys).
    serde_json::to_string(msg).unwrap_or_default()
}

/// A message from its JSON; `None` when it is not one of `T`'s.
pub fn decode<T: DeserializeOwned>(json: &str) -> Option<T> {
    serde_json::from_str(json).ok()
}

#[cfg(test)]
mod tests;
