//! A session's header badges: `GET /api/sessions/{id}/state` (and under a share), and the
//! session stream's `event: state` frame ([`State`]: the session's [`Session`] facts and its
//! [`Badges`]). The server folds [`Badges`] event by event (`server/src/badges.rs`) and keeps
//! them in its checkpoints in this same shape.

use std::borrow::Cow;

use classifier::active::ActiveTools;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the server knows of a session itself (the first fields of [`State`] and of an index
/// entry).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Session {
    /// Its id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// How its events arrive: `run`, `follow`, `stdin`, `post`, `demo`…
    pub source: String,
    /// When the server made it (unix seconds).
    pub started: f64,
    /// When it ended, if it did.
    pub ended: Option<f64>,
    /// `ended` is `null`.
    pub live: bool,
    /// The newest stored seq (0 when empty).
    pub last_seq: u64,
}

/// The badges computed from a session's events (docs/API.md, `GET …/state`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Badges {
    /// The last reported status (usually a string; any JSON the agent sent).
    pub status: Option<Value>,
    /// The last reported model.
    pub model: Option<Value>,
    /// The last reported effort.
    pub effort: Option<Value>,
    /// The most recent token-usage object.
    pub usage: Option<Value>,
    /// The turn in flight, if any, and turn counts.
    pub turn: Turn,
    /// The last reported turn state.
    pub turn_state: Option<Value>,
    /// The session's cost (US dollars) as its `result`/`cost-state` lines state it: the
    /// largest cumulative total.
    pub cost_usd: f64,
    /// Sum of `duration_ms` over `result` lines.
    pub duration_ms: f64,
    /// How many `result` lines.
    pub results: u64,
    /// Rows of level error.
    pub errors: u64,
    /// Rows of level warn.
    pub warnings: u64,
    /// The tool calls running now (called, not yet answered), oldest first.
    pub active_tools: ActiveTools,
}

/// Turn bookkeeping: `{"in_flight", "since", "from", "count", "last_ok"}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Turn {
    /// A turn has started and not ended.
    pub in_flight: bool,
    /// When the current or last turn started.
    pub since: Option<f64>,
    /// Who prompted the current or last turn.
    pub from: Option<String>,
    /// How many turns started.
    pub count: u64,
    /// How the last turn ended.
    pub last_ok: Option<bool>,
    /// How the end of the log ends the turn in flight, for a log that writes no turn end (a
    /// Gemini chat recording): `Some(true)` ok, `Some(false)` failed. An ended session's
    /// turn ends so ([`Turn::ended`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_end: Option<bool>,
}

impl Badges {
    /// The badges as a session shows them: an ended (`ended`) session's turn that the log's
    /// end ends is over ([`Turn::ended`], issue 45).
    pub fn of_session(&self, ended: bool) -> Cow<'_, Badges> {
        if ended && self.turn.at_end.is_some() {
            Cow::Owned(Badges {
                turn: self.turn.ended(),
                ..self.clone()
            })
        } else {
            Cow::Borrowed(self)
        }
    }
}

impl Turn {
    /// The turn as an ended session's: one in flight that the log's end ends
    /// ([`Turn::at_end`]) is over, as that says.
    #[must_use]
    pub fn ended(&self) -> Turn {
        let mut turn = self.clone();
        if let Some(ok) = turn.at_end.take().filter(|_| turn.in_flight) {
            turn.in_flight = false;
            turn.last_ok = Some(ok);
        }
        turn
    }
}

/// `GET …/state` and a `state` frame: the session's facts, then its badges, in one object.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct State {
    /// The session.
    #[serde(flatten)]
    pub session: Session,
    /// Its badges.
    #[serde(flatten)]
    pub badges: Badges,
}
