//! The hiveterm page: one agent session as terminal rows, in the browser.
//!
//! Rows come from the `classifier` crate, either live from a `hiveterm serve` (SSE) or from
//! a log dropped onto the page and classified right here, in a Web Worker (its own wasm,
//! `src/bin/worker.rs`, which carries the classifier and no Leptos). The page makes no row
//! content of its own: icons, summaries and levels are drawn as the classifier made them. It
//! adds the layout (flat or expandable) and the turn times; for those, the in-flight banner
//! and the tool filter it must know which rows are turn boundaries and tool calls, which
//! [`state::kind_of`] and [`state::tool_of`] tell today by matching the classifier's icons and
//! summaries (issue 8 moves that knowledge into the classifier).
//!
//! Pure parts, compiled and tested natively:
//! - [`state`]: the view as a reducer, `apply(state, envelope)`: coalescing, paging, filters,
//!   bounds, turn times.
//! - [`layout`]: row heights and offsets for the virtualised list.
//! - [`text`]: search, highlights, clock and duration formats.
//!
//! Browser parts (components read signals, never compute rows):
//! - [`row`]: the `<Row>` component, exactly the layout contract of `docs/ROWS.md`.
//! - [`markdown_view`]: the one place HTML from the classifier's markdown module enters the DOM.
//! - [`page`]: the page: toolbar, virtualised list, keyboard, drop zone, live view.
//! - [`offline`] / [`worker`]: reading a dropped file in chunks in a Web Worker.
//! - [`keep`]: the offline log kept in IndexedDB for a reload of this tab (its pruning is pure).
//! - [`live`]: the server's SSE stream, history pages and state badges.

pub mod layout;
pub mod state;
pub mod text;

pub mod keep;
pub mod live;
pub mod markdown_view;
pub mod offline;
pub mod page;
pub mod prefs;
pub mod row;
pub mod worker;
