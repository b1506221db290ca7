//! The page's pure parts, compiled and tested natively (`cargo test -p app`): the reducers
//! the components read, and the layout they draw. Nothing here touches the DOM or a worker.
//!
//! - [`state`]: the rows as a reducer, `apply(state, envelope)`: coalescing, paging,
//!   filters, bounds, turn times; [`rows`]: one held row (turn time, shape, filter).
//! - [`nav`]: navigation as a reducer: the current row, following the tail, permalinks
//!   (`#seq`, `#seq=a-b`) and paging back to them, selection, where the scroller goes.
//! - [`nest`]: subagents' rows nested under their call: a block's one-line summary, the order
//!   rows are shown in.
//! - [`layout`]: row heights and offsets for the virtualised list, the rendered window.
//! - [`text`]: search, highlights, clock and date formats, how much of a big body is drawn.
//! - [`summary`]: the summary header's strings from a log's summary, and when a live view
//!   fetches it again.
//! - [`fleet`]: the start page's fleet index and search across every session: the API's
//!   answers as typed rows, the filters' query strings, how cost, duration and tokens read;
//!   [`fleet_live`]: the table kept live by the index's stream (a changed entry put where
//!   the sort and filters say).
//! - [`compare`]: the compare page (`/compare/{a}/{b}`): the API's answer typed, the
//!   summary table's lines, the divergence stepping (`n`/`N`) as a reducer, the index's picks.
//! - [`usage`]: the usage page (`/usage`): the API's answer typed, the table's lines (stated
//!   and estimated apart, unknown with its models named), the grouping and the keys.
//! - [`byte_cache`]: text by key, bounded by bytes, oldest first out (bodies and markdown
//!   HTML kept for rows drawn again).

pub mod byte_cache;
pub mod compare;
pub mod fleet;
pub mod fleet_live;
pub mod layout;
pub mod nav;
pub mod nest;
pub mod rows;
pub mod state;
pub mod summary;
pub mod text;
pub mod usage;
