//! A page of a session's envelopes, newest first: `GET /api/sessions/{id}/events/history`
//! (and `/p/<token>/api/events/history`). The server splices its stored envelopes' JSON into
//! this shape without parsing them again (`server/src/store/request.rs`); its tests hold the
//! two to each other.

use classifier::TermEnvelope;
use serde::{Deserialize, Serialize};

/// `{"envelopes": [...], "next_before": n | null, "head": n, "cut_by_bytes": false}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HistoryPage {
    /// Envelopes, newest first.
    #[serde(default)]
    pub envelopes: Vec<TermEnvelope>,
    /// `before` for the next older page; `None` at the start of the session.
    #[serde(default)]
    pub next_before: Option<u64>,
    /// The newest stored seq at the time of the read.
    #[serde(default)]
    pub head: Option<u64>,
    /// The page stopped at its byte limit, not at `limit` envelopes.
    #[serde(default)]
    pub cut_by_bytes: bool,
}
