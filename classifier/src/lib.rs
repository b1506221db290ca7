//! Agent session events in, terminal rows out.
//!
//! Every event of an agent session — a line of Claude Code stream-json, a line of a Claude
//! Code transcript, a hyperhive event, a line of an OpenAI Codex CLI or Google Gemini CLI
//! log — becomes zero or more [`TermMsg`] rows: an icon, a level, a one-line summary and an optional body. The server, the browser (this crate compiled
//! to WebAssembly) and the command line all call the same [`classify`], so the same log gives
//! the same rows everywhere.
//!
//! This crate does no I/O, reads no clock, spawns nothing and never fails: malformed or
//! unknown input becomes a row that says what was wrong. It does not render HTML except
//! through [`markdown`], the one door by which agent text becomes markup.
//!
//! Bytes become envelopes through one type, [`LogClassifier`] (feed chunks, finish); its rustdoc
//! says how a server that stores lines first gets the same envelopes.
//!
//! Contents, in the order data flows:
//! - [`lines`]: bytes in arbitrary chunks → lines ([`LineReader`]); framing only.
//! - [`event`]: a line → a [`LiveEvent`] with its time ([`parse_line`], [`event::line_event`]).
//! - [`classify`] with a [`ClassifyCtx`]: an event → rows ([`TermMsg`]), in an envelope
//!   ([`TermEnvelope`]) for the wire; [`classify_line`] does both for one [`Line`].
//! - [`LogClassifier`]: all of the above for a whole log; [`JsonWriter`]: its envelopes as
//!   JSON lines (a growing row's body escaped once).
//! - [`row_kind`], [`tool_of`], [`icon`]: what a row is, read back from its icon and summary
//!   (the wire has no kind tag); [`duration`]: the one way durations are written.
//! - [`active`]: the tool calls running now ([`active::ActiveTools`]), for a live page.
//! - [`SummaryFold`]: envelopes (with their events) → the log's [`Summary`], incrementally.
//! - [`markdown`]: a markdown body → safe HTML.
//! - [`partial`]: `stream_event` partial messages → a live preview ([`Preview`]).
//! - [`redact`]: secrets out of a log's lines before it is shared ([`redact::redact_line`]).
//! - [`zstd`]: a zstd-compressed log (Codex's idle rollouts) read decompressed.
//! - [`compare`]: two runs side by side: their steps aligned, the first divergence.

pub mod active;
mod ansi;
mod classify;
mod codex;
pub mod compare;
mod copilot;
mod ctx;
mod document;
pub mod event;
mod field;
mod formats;
mod gemini;
mod hyperhive;
mod kind;
mod lean;
pub mod lines;
mod log;
pub mod markdown;
mod msg;
mod nest;
mod opencode;
pub mod partial;
pub mod prices;
mod qwen;
pub mod redact;
mod stream;
mod summary;
mod swar;
#[cfg(test)]
mod testing;
mod text;
mod time;
mod tools;
pub mod zstd;

pub use crate::classify::{classify, classify_line, classify_log_event, classify_log_event_at};
pub use crate::ctx::ClassifyCtx;
pub use crate::event::{LiveEvent, LogEvent, parse_line};
pub use crate::kind::{RowKind, icon, row_kind, tool_of, turn_duration};
pub use crate::lines::{Line, LineReader, MAX_LINE_BYTES};
pub use crate::log::{EndHold, LogClassifier};
pub use crate::msg::writer::JsonWriter;
pub use crate::msg::{BodyFormat, Level, TermEnvelope, TermMsg};
pub use crate::partial::{Preview, PreviewKind};
pub use crate::prices::CostSource;
pub use crate::summary::{FileFold, SubagentEnd, SubagentSummary, Summary, SummaryFold};

/// What a bounded summary fold ([`SummaryFold::new`]) keeps (issue 46.2).
pub mod summary_limits {
    pub use crate::summary::files::{FILES_KEPT, MODELS_KEPT, NAME_BYTES, SEEN_KEPT, TOOLS_KEPT};
}
pub use crate::text::{line_count, sanitize};
pub use crate::time::{civil_from_days, duration};
