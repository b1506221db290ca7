//! The sessions' index: `GET /api/sessions` ([`SessionsPage`] of [`SessionEntry`]),
//! `GET /api/sessions/{id}` (one entry) and the index stream's `event: session` frame (one
//! entry); how it sorts ([`Sort`]) and the statuses it filters by ([`Status`]).

use serde::{Deserialize, Serialize};

/// How `GET /api/sessions` sorts (`?sort=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sort {
    /// By when the session started (the log's own first time, else when the server made it),
    /// newest first.
    #[default]
    Newest,
    /// By cost, highest first, unknown cost last.
    Cost,
    /// By error rows, most first.
    Errors,
}

impl Sort {
    /// Every sort, in the start page's selector order.
    pub const ALL: [Sort; 3] = [Sort::Newest, Sort::Cost, Sort::Errors];

    /// Its name in `?sort=`.
    pub fn as_str(self) -> &'static str {
        match self {
            Sort::Newest => "newest",
            Sort::Cost => "cost",
            Sort::Errors => "errors",
        }
    }

    /// The sort `?sort=` names, if any.
    pub fn parse(s: &str) -> Option<Sort> {
        Sort::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

/// A session's status in the index (`status`, and `?status=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Status {
    /// Live, no turn ended yet.
    #[default]
    #[serde(rename = "live")]
    Live,
    /// A turn is open on a live session.
    #[serde(rename = "in flight")]
    InFlight,
    /// Its last turn ended well (or, ended without turns, it has no error rows).
    #[serde(rename = "ok")]
    Ok,
    /// Its last turn failed (or, ended without turns, it has error rows).
    #[serde(rename = "failed")]
    Failed,
    /// It ended with a turn open, or its last turn was interrupted.
    #[serde(rename = "interrupted")]
    Interrupted,
}

impl Status {
    /// Every status, in the start page's filter order.
    pub const ALL: [Status; 5] = [
        Status::Live,
        Status::InFlight,
        Status::Ok,
        Status::Failed,
        Status::Interrupted,
    ];

    /// Its name on the wire (`in flight`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Live => "live",
            Status::InFlight => "in flight",
            Status::Ok => "ok",
            Status::Failed => "failed",
            Status::Interrupted => "interrupted",
        }
    }

    /// The status named `s`, if any.
    pub fn parse(s: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

/// Where a session's `cost` comes from (issue 50: an estimate is never shown as stated):
/// the summary's, `stated`, `estimated` or `unknown`.
pub use classifier::CostSource;

/// Tokens of a session (or a group of them): `{"input", "output", "cache_read",
/// "cache_creation"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Tokens {
    /// Input tokens.
    pub input: u64,
    /// Output tokens.
    pub output: u64,
    /// Input tokens read from the prompt cache.
    pub cache_read: u64,
    /// Input tokens written to the prompt cache.
    pub cache_creation: u64,
}

impl Tokens {
    /// Every kind added up.
    pub fn total(&self) -> u64 {
        self.input + self.output + self.cache_read + self.cache_creation
    }
}

/// One session as the index lists it (docs/API.md, `GET /api/sessions`). A field the page
/// finds missing reads as unknown or 0.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct SessionEntry {
    /// Its id (the page is `/s/{id}`).
    pub id: String,
    /// Its title: the agent's own, else the client's, else the first prompt.
    pub title: String,
    /// How its events arrive: `run`, `follow`, `stdin`, `post`, `demo`, `watch`…
    pub source: String,
    /// When the server made it (unix seconds).
    pub started: f64,
    /// When it ended, if it did.
    pub ended: Option<f64>,
    /// `ended` is `null`.
    pub live: bool,
    /// The newest stored seq (0 when empty).
    pub last_seq: u64,
    /// The agent (one of [`crate::AGENTS`]), `null` before any line of a known agent.
    pub agent: Option<String>,
    /// The agent's version, if the log says.
    pub agent_version: Option<String>,
    /// The first `cwd` the log gives.
    pub project: Option<String>,
    /// The first model the log names, else the model badge.
    pub model: Option<String>,
    /// Its status.
    pub status: Status,
    /// The log's own first time.
    pub started_at: Option<f64>,
    /// The log's own last time.
    pub ended_at: Option<f64>,
    /// Seconds between them.
    pub duration: Option<f64>,
    /// Turns started.
    pub turns: u64,
    /// Error rows.
    pub errors: u64,
    /// The seq of the first envelope with an error row.
    pub first_error: Option<u64>,
    /// Tokens in all.
    pub tokens: Tokens,
    /// US dollars, stated or estimated; `null`: unknown (not 0).
    pub cost: Option<f64>,
    /// Where `cost` comes from.
    pub cost_source: CostSource,
    /// The models it used that the price table has no price for (empty unless its cost is
    /// unknown).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unpriced_models: Vec<String>,
}

/// A page of the index: `{"sessions": [...], "next_before": c | null, "next": c}` (`next`
/// left out on the last page).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct SessionsPage {
    /// The sessions, in the sort's order.
    pub sessions: Vec<SessionEntry>,
    /// The cursor `before` takes (newest first only), else `null`.
    pub next_before: Option<String>,
    /// The cursor of the next page; absent on the last.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}
