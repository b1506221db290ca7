//! The search across every session's rows: `GET /api/search` ([`HitsPage`] of [`Hit`]).

use serde::{Deserialize, Serialize};

/// Where a hit's query was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Place {
    /// In the row's summary.
    #[default]
    Summary,
    /// In the row's body.
    Body,
}

/// One hit: a row holding the query (docs/API.md, `GET /api/search`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Hit {
    /// The session it is in.
    pub session: String,
    /// The seq of its event (`/s/{session}#seq=N`).
    pub seq: u64,
    /// Its row's index among the event's rows.
    pub row: u64,
    /// The event's time (unix seconds).
    pub ts: f64,
    /// The row's icon, if any.
    pub icon: Option<String>,
    /// `debug`, `info`, `warn` or `error`.
    pub level: String,
    /// The row's summary.
    pub summary: String,
    /// Where the query is: the summary or the body.
    #[serde(rename = "in")]
    pub place: Place,
    /// Plain text around the match.
    pub snippet: String,
}

/// A page of hits: `{"hits": [...], "next": c | null}`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct HitsPage {
    /// The hits, newest first.
    pub hits: Vec<Hit>,
    /// The cursor of the next page; `null` on the last.
    pub next: Option<String>,
}
