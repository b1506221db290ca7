//! Google Gemini CLI logs: `--output-format stream-json` stdout, the `-o json` document and the
//! chat recordings of `~/.gemini/tmp/<project>/chats/` (`docs/FORMATS.md`, "Gemini").
//!
//! A line is Gemini's by its shape ([`is_gemini`]), never by its file; it becomes a
//! [`LiveEvent::Gemini`](crate::LiveEvent::Gemini) and is classified here ([`classify`]) with the
//! log's [`State`] (kept in the [`ClassifyCtx`]); [`SummaryPart`] is its share of the summary.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::ctx::ClassifyCtx;
use crate::msg::TermMsg;
use crate::summary::Summary;

/// Whether a JSON object is a line of a Gemini log: a stream-json event (`init`, `message`,
/// `tool_use`, `tool_result`, `error`, `result` with `stats`), a chat recording's metadata
/// (`sessionId` and `projectHash`), update (`$set`) or message record (`id`, `type`,
/// `content` and no Claude Code `message`).
pub(crate) fn is_gemini(map: &Map<String, Value>) -> bool {
    if map.contains_key("$set")
        || (map.contains_key("sessionId") && map.contains_key("projectHash"))
    {
        return true;
    }
    let Some(ty) = map.get("type").and_then(Value::as_str) else {
        return false;
    };
    match ty {
        "init" | "tool_use" | "tool_result" => map.contains_key("timestamp"),
        "message" => map.contains_key("role"),
        "result" => map.contains_key("status") && map.contains_key("stats"),
        "error" => map.contains_key("severity"),
        "user" | "gemini" | "info" | "warning" => {
            map.contains_key("id") && map.contains_key("content") && !map.contains_key("message")
        }
        _ => false,
    }
}

/// Unix seconds of a Gemini line, when it says (`timestamp`; a recording's metadata line
/// `lastUpdated`).
pub(crate) fn timestamp(map: &Map<String, Value>) -> Option<f64> {
    crate::event::rfc3339(map.get("timestamp").or_else(|| map.get("lastUpdated")))
}

/// What classifying a Gemini line needs to know of the lines before it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct State {}

impl State {
    /// Nothing remembered (so a context without Gemini lines serialises as before).
    pub(crate) fn is_empty(&self) -> bool {
        *self == State::default()
    }
}

/// The rows of one Gemini line.
pub(crate) fn classify(value: &Value, _ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    vec![crate::stream::unrecognised(value)]
}

/// A Gemini log's share of the summary: what [`crate::SummaryFold`] cannot read from rows.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct SummaryPart {}

impl SummaryPart {
    /// Folds in one Gemini line.
    pub(crate) fn add(&mut self, _value: &Value, _summary: &mut Summary) {}

    /// Sets what is known only at the end (tokens) on the summary so far.
    pub(crate) fn finish(&self, _summary: &mut Summary) {}
}
