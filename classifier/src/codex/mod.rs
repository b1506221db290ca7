//! OpenAI Codex CLI logs: `codex exec --json` stdout and the rollout files of
//! `~/.codex/sessions/` (`docs/FORMATS.md`, "Codex").
//!
//! A line is Codex's by its shape ([`is_codex`]), never by its file; it becomes a
//! [`LiveEvent::Codex`](crate::LiveEvent::Codex) and is classified here ([`classify`]) with the
//! log's [`State`] (kept in the [`ClassifyCtx`]); [`SummaryPart`] is its share of the summary.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::ctx::ClassifyCtx;
use crate::msg::TermMsg;
use crate::summary::Summary;

/// Whether a JSON object is a line of a Codex log: an `exec --json` event (`thread.started`,
/// `turn.*`, `item.*`, `error`) or a rollout line (`timestamp`, `type`, `payload`).
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

/// What classifying a Codex line needs to know of the lines before it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct State {}

impl State {
    /// Nothing remembered (so a context without Codex lines serialises as before).
    pub(crate) fn is_empty(&self) -> bool {
        *self == State::default()
    }
}

/// The rows of one Codex line.
pub(crate) fn classify(value: &Value, _ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    vec![crate::stream::unrecognised(value)]
}

/// A Codex log's share of the summary: what [`crate::SummaryFold`] cannot read from rows.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct SummaryPart {}

impl SummaryPart {
    /// Folds in one Codex line.
    pub(crate) fn add(&mut self, _value: &Value, _summary: &mut Summary) {}

    /// Sets what is known only at the end (tokens) on the summary so far.
    pub(crate) fn finish(&self, _summary: &mut Summary) {}
}
