//! The page's components, one per file: they read signals and never compute rows.
//!
//! - [`page`]: the thin `Page` composing the parts below; [`compare_page`]: two sessions
//!   side by side (`/compare/{a}/{b}`), a page of its own, which two logs compared offline
//!   show too ([`offline_compare`]: the page gives way to them; [`compare_logs`]: the start
//!   page's "compare two logs"); [`usage_page`]: what the sessions
//!   cost (`/usage`), its [`usage_table`].
//! - [`banner`] (title, close, connection, badges, progress), [`toolbar`] (filters, search,
//!   expand, open), [`summary_header`], [`start_page`] (with the fleet's [`fleet_search`], [`session_filters`] and
//!   [`session_table`]), [`drop_zone`] (drop and paste).
//! - [`row_list`]: the virtualised list, measuring, "jump to latest"; [`preview_row`]: the
//!   partial message being written; [`activity`]: the tool calls running and a compaction,
//!   counted up;
//!   [`navigator`]: where scroll offsets and the URL change; [`row`]: one row's markup (the
//!   layout contract of `docs/ROWS.md`).

pub mod activity;
pub mod banner;
pub mod compare_logs;
pub mod compare_page;
pub mod drop_zone;
pub mod fleet_search;
pub mod navigator;
pub mod offline_compare;
pub mod page;
pub mod preview_row;
pub mod row;
pub mod row_list;
pub mod session_filters;
pub mod session_table;
pub mod start_page;
pub mod summary_header;
pub mod toolbar;
pub mod usage_page;
pub mod usage_table;
