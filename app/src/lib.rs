//! The hiveterm page: one agent session as terminal rows, in the browser.
//!
//! Rows come from the `classifier` crate, either live from a `hiveterm serve` (SSE) or from
//! a log dropped onto the page and classified right here, in a Web Worker (its own wasm,
//! `src/bin/worker.rs`, which carries the classifier and no Leptos). The page renders nothing
//! the classifier did not produce: icons, summaries and levels are the classifier's; the page
//! adds only the layout (flat or expandable) and the turn times.
//!
//! The folders, each opening with its own table of contents:
//! - [`model`]: the pure reducers and layout, compiled and tested natively (`cargo test -p
//!   app`): rows, navigation, heights, text, the summary header's strings.
//! - [`view`]: the page's components, one per file (they read signals, never compute rows),
//!   from the thin [`view::page::Page`] down to one row.
//! - [`markdown`]: markdown bodies rendered in the markdown worker, and the one place HTML
//!   enters the DOM ([`markdown::view`]).
//! - [`live`]: a live session: the server's wire, the preview, HTTP and SSE, the live view.
//! - [`offline`]: a dropped, picked or pasted log read by the classifier worker, its bodies
//!   asked again, kept for a reload; the page inside a one-file export.
//! - [`notes`]: notes on a row or a range: shown under its last row, written with `a` or
//!   "note…", counted and stepped through in the summary header.
//! - [`share`]: what leaves the page: share links and "save as one file".
//! - [`worker`]: the workers' side (their own wasm); the page imports only
//!   [`worker::protocol`], the typed messages both sides send.
//! - [`browser`]: the browser glue — URL, `#seq`, `?token=`, clock, preferences, clipboard —
//!   and the page's only `cfg(target_arch)` stand-ins (the workers' wasm-only loops are
//!   gated in [`worker`]).
//!
//! No module-level import circle: if a module uses another, that one does not use it back,
//! directly or through others. What serves an offline log (its worker, its bodies) is owned
//! by the log ([`offline::log_file::LogFile`]); the markdown renderer by the page; each is
//! handed to the rows through Leptos's context, not reached through globals.

pub mod browser;
pub mod live;
pub mod markdown;
pub mod model;
pub mod notes;
pub mod offline;
pub mod share;
pub mod view;
pub mod worker;
