//! Agent session events in, terminal rows out.
//!
//! Every event of an agent session — a line of Claude Code stream-json, a line of a Claude
//! Code transcript, a hyperhive event — becomes zero or more [`TermMsg`] rows: an icon, a
//! level, a one-line summary and an optional body. The server, the browser (this crate compiled
//! to WebAssembly) and the command line all call the same [`classify`], so the same log gives
//! the same rows everywhere.
//!
//! This crate does no I/O, reads no clock, spawns nothing and never fails: malformed or
//! unknown input becomes a row that says what was wrong. It does not render HTML except
//! through [`markdown`], the one door by which agent text becomes markup.
//!
//! Contents, in the order data flows:
//! - [`lines`]: bytes in arbitrary chunks → lines ([`LineReader`]).
//! - [`event`]: a line → a [`LiveEvent`] with its time ([`parse_line`]).
//! - [`classify`] with a [`ClassifyCtx`]: an event → rows ([`TermMsg`]), in an envelope
//!   ([`TermEnvelope`]) for the wire.
//! - [`markdown`]: a markdown body → safe HTML.
//! - [`partial`]: `stream_event` partial messages → a live preview ([`Preview`]).

mod ansi;
mod classify;
mod ctx;
pub mod event;
pub mod lines;
pub mod markdown;
mod msg;
pub mod partial;
mod stream;
mod text;
mod time;
mod tools;

pub use crate::classify::{classify, classify_line, classify_log_event};
pub use crate::ctx::ClassifyCtx;
pub use crate::event::{LiveEvent, LogEvent, parse_line};
pub use crate::lines::{Line, LineReader};
pub use crate::msg::{BodyFormat, Level, TermEnvelope, TermMsg};
pub use crate::partial::{Preview, PreviewKind};
pub use crate::text::sanitize;
