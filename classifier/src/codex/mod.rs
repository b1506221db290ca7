//! OpenAI Codex CLI logs: `codex exec --json` stdout and the rollout files of
//! `~/.codex/sessions/` (`docs/FORMATS.md`, "Codex"; the rows in `docs/ROWS.md`, "Codex").
//!
//! A line is Codex's by its shape ([`is_codex`]), never by its file; it becomes a
//! [`LiveEvent::Codex`](crate::LiveEvent::Codex) and is classified here ([`classify`]) with the
//! log's [`State`] (kept in the [`ClassifyCtx`], small and bounded).
//!
//! Contents:
//! - [`exec`]: `exec --json` events (`thread.*`, `turn.*`, `item.*`, `error`) → rows.
//! - [`rollout`]: rollout lines (`{timestamp, type, payload}`) → rows; which of the rollout's
//!   repeated facts gives the row.
//! - [`lean`]: the lean parse of a rollout line's payload (the fields rows read).
//! - [`mirror`]: the rollout's `item_completed` mirrors, and the calls a rollout has made.
//! - [`rows`]: the rows both make, from the crate's own makers (Bash, tool results, `💭`…).
//! - [`shell`]: commands unwrapped from `bash -lc`, tool outputs and patches read back.
//! - [`summary`]: [`SummaryPart`], the log's agent version, models, tokens, tool calls, files.
//! - `tests`: data-driven cases (`check(lines, rows)`), malformed fields included.

mod exec;
pub(crate) mod lean;
mod mirror;
mod rollout;
mod rows;
mod shell;
mod summary;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::ctx::ClassifyCtx;
use crate::msg::TermMsg;

pub(crate) use self::summary::SummaryPart;

/// Most call or item ids remembered (the oldest are forgotten first).
const MAX_REMEMBERED: usize = 64;
/// Most calls remembered as in flight.
const MAX_PENDING: usize = 16;

/// The rollout line types (`{timestamp, type, payload}`).
pub(crate) const ROLLOUT_TYPES: &[&str] = &[
    "session_meta",
    "response_item",
    "event_msg",
    "turn_context",
    "token_usage_record",
    "world_state",
    "compacted",
];

/// Whether a JSON object is a line of a Codex log: an `exec --json` event (`thread.started`,
/// `turn.*`, `item.*`, `error` with only a `message`) or a rollout line (`timestamp`, `type`,
/// an object `payload`).
pub(crate) fn is_codex(map: &Map<String, Value>) -> bool {
    let Some(ty) = map.get("type").and_then(Value::as_str) else {
        return false;
    };
    if map.get("payload").is_some_and(Value::is_object) && map.contains_key("timestamp") {
        return true;
    }
    if ty == "error" {
        // `{"type":"error","message":…}`: Gemini's error event has `severity` and a time.
        return map.get("message").is_some_and(Value::is_string)
            && !map.contains_key("severity")
            && !map.contains_key("timestamp");
    }
    ty.starts_with("thread.") || ty.starts_with("turn.") || ty.starts_with("item.")
}

/// Where a rollout is in its turn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Turn {
    /// No turn known to be open.
    #[default]
    Idle,
    /// `task_started` seen, no row of the turn yet.
    Pending,
    /// The turn's start row is shown.
    Open,
}

/// What classifying a Codex line needs to know of the lines before it. Bounded: at most
/// [`MAX_REMEMBERED`] ids of each kind and [`MAX_PENDING`] calls in flight.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct State {
    /// `exec --json`: tool items started and not yet completed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    started: Vec<String>,
    /// Rollout: call ids seen (their `item_completed` mirrors give no row).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    calls: Vec<String>,
    /// Rollout: calls without output yet, with their row's summary.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pending: Vec<(String, String)>,
    /// Rollout: the turn.
    turn: Turn,
    /// Rollout: the model last shown.
    #[serde(skip_serializing_if = "String::is_empty")]
    model: String,
    /// Rollout: the current turn's tokens as its end row says them (from the last
    /// `token_usage_record`).
    #[serde(skip_serializing_if = "Option::is_none")]
    turn_usage: Option<String>,
}

impl State {
    /// Nothing remembered (so a context without Codex lines serialises as before).
    pub(crate) fn is_empty(&self) -> bool {
        *self == State::default()
    }

    fn remember_started(&mut self, id: &str) {
        if self.started.len() >= MAX_REMEMBERED {
            self.started.remove(0);
        }
        self.started.push(id.to_owned());
    }

    /// Whether `id` was started (and forgets it).
    fn forget_started(&mut self, id: &str) -> bool {
        match self.started.iter().position(|s| s == id) {
            Some(at) => {
                self.started.remove(at);
                true
            }
            None => false,
        }
    }
}

/// The rows of one Codex line.
pub(crate) fn classify(value: &Value, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let Some(obj) = value.as_object() else {
        return vec![crate::stream::unrecognised(value)];
    };
    let ty = obj.get("type").and_then(Value::as_str).unwrap_or("");
    match obj.get("payload") {
        Some(Value::Object(payload)) if ROLLOUT_TYPES.contains(&ty) => {
            rollout::classify(ty, payload, ctx)
        }
        Some(Value::Object(_)) => vec![crate::stream::unrecognised(value)],
        _ => exec::classify(ty, obj, ctx),
    }
}
