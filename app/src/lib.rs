//! The hiveterm page: one agent session as terminal rows, in the browser.
//!
//! Rows come from the `classifier` crate, either live from a `hiveterm serve` (SSE) or from
//! a log dropped onto the page and classified right here, in a Web Worker (its own wasm,
//! `src/bin/worker.rs`, which carries the classifier and no Leptos). The page renders nothing
//! the classifier did not produce: icons, summaries and levels are the classifier's; the page
//! adds only the layout (flat or expandable) and the turn times.
//!
//! Pure parts, compiled and tested natively (`cargo test -p app`):
//! - [`state`]: the rows as a reducer, `apply(state, envelope)`: coalescing, paging, filters,
//!   bounds, turn times.
//! - [`nav`]: navigation as a reducer: the current row, following the tail, permalinks
//!   (`#seq`, `#seq=a-b`) and paging back to them, selection, where the scroller goes.
//! - [`layout`]: row heights and offsets for the virtualised list, the rendered window.
//! - [`text`]: search, highlights, clock and date formats, how much of a big body is drawn.
//! - [`live`] / [`preview`]: the server's wire (history pages, badges, sessions, SSE
//!   events) and the throttled live preview.
//! - [`summary`]: the summary header's strings from a log's summary, and when a live view
//!   fetches it again.
//! - [`md_render`]: markdown bodies rendered in the worker — one request per body, held
//!   until it listens, answers cached; [`bodies`]: an offline log's bodies asked again of
//!   its worker; both cache in a [`byte_cache`] (bounded by bytes, oldest first out).
//! - [`body_search`]: a search of an offline log's bodies that classifies again only the
//!   spans of the file whose bodies can hold the query (a set of their three-byte sequences
//!   each), finding exactly what a full pass finds.
//! - [`share`]: where a live view reads (a session, or a share link `/p/<token>` in
//!   read-only postmortem mode), what a share link is, what a dead one says;
//!   [`share_form`]: the share button's options, request, answer and steps;
//!   [`save_file`]: "save as one file"'s options, steps and file name.
//!
//! The page, one component per file (components read signals, never compute rows):
//! - [`page`]: the thin `Page` composing the parts below.
//! - [`banner`], [`toolbar`], [`row_list`] (with [`row`], the layout contract of `docs/ROWS.md`, and
//!   [`markdown_view`], the one place HTML from the classifier's markdown module enters the
//!   DOM, rendered in the worker: [`md_render`]), [`summary_header`], [`start_page`],
//!   [`drop_zone`], [`share_button`] (a live session's), [`save_button`] ("save as one
//!   file", a live session's or an offline log's; [`redaction_review`] is the redactions
//!   both show for review), [`dead_link`] (a share link's).
//! - [`log_file`]: an offline log opened, read, kept, reopened, closed; [`offline`] /
//!   [`worker`]: reading it in chunks in a Web Worker, its rows sent to the page in
//!   [`row_batch`]'s flat layout (pure, tested natively; [`worker_export`]: "save as one
//!   file" made there, by the `onefile` crate); [`keep`]: the copy kept in IndexedDB
//!   for a reload of the tab (its pruning is pure).
//! - [`export`]: the page inside a one-file export (`hiveterm export`): its embedded rows
//!   shown as an offline log, no server asked.
//! - [`live_view`]: a live session: history, paging back, the SSE stream; [`net`]: the HTTP
//!   and SSE calls (`web-sys` `fetch` and `EventSource`).
//! - [`browser`]: the browser glue — URL, `#seq`, `?token=`, clock, preferences, clipboard —
//!   and the only `cfg(target_arch)` stand-ins.

pub mod layout;
pub mod live;
pub mod nav;
pub mod preview;
pub mod save_file;
pub mod share;
pub mod share_form;
pub mod state;
pub mod summary;
pub mod text;

pub mod banner;
pub mod bodies;
pub mod body_search;
pub mod browser;
pub mod byte_cache;
pub mod dead_link;
pub mod drop_zone;
pub mod export;
pub mod keep;
pub mod live_view;
pub mod log_file;
pub mod markdown_view;
pub mod md_render;
pub mod navigator;
pub mod net;
pub mod offline;
pub mod page;
pub mod redaction_review;
pub mod row;
pub mod row_batch;
pub mod row_list;
pub mod rows;
pub mod save_button;
pub mod share_button;
pub mod start_page;
pub mod summary_header;
pub mod toolbar;
pub mod worker;
pub mod worker_export;
