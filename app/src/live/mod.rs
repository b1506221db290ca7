//! A live session, read from a `hiveterm serve`: history pages, the SSE tail, badges, the
//! summary.
//!
//! - [`wire`]: the server's wire, pure (history pages, badges, sessions, SSE events).
//! - [`preview`]: the throttled preview of a message being written.
//! - [`activity`]: the tool calls running and a compaction in progress, counted up.
//! - [`net`]: the HTTP and SSE calls (`gloo-net`: its `http` requests and `EventSource`).
//! - [`view`]: the live view: history, paging back, the stream, the summary.

pub mod activity;
pub mod net;
pub mod preview;
pub mod view;
pub mod wire;
