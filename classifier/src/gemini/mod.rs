//! Google Gemini CLI logs: `--output-format stream-json` stdout, the `-o json` document and the
//! chat recordings of `~/.gemini/tmp/<project>/chats/` (`docs/FORMATS.md`, "Gemini").
//!
//! A line is Gemini's by its shape ([`is_gemini`]), never by its file; it becomes a
//! [`LiveEvent::Gemini`](crate::LiveEvent::Gemini) and is classified here ([`classify`]) with the
//! log's [`State`] (kept in the [`ClassifyCtx`]); [`SummaryPart`] is its share of the summary.
//!
//! - [`stream`]: stream-json events (`init`, `message`, `tool_use`, `tool_result`, `error`,
//!   `result`) and the `-o json` document once whole (`session_id` with `response`/`error`);
//! - [`record`]: a chat recording's metadata, `$set` updates and message records (a message
//!   written again shows only what is new);
//! - [`tools`]: a Gemini tool call → the existing tool-call row of the same meaning, and its
//!   result → the existing result row;
//! - [`document`]: a JSON document written over many lines (`-o json`), joined by the context
//!   and read on the line that completes it;
//! - [`summary`]: tokens, models, tool calls and files changed, each counted once.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::ctx::ClassifyCtx;
use crate::msg::TermMsg;

pub(crate) mod document;
mod record;
mod stream;
mod summary;
mod tools;

pub(crate) use self::summary::SummaryPart;

/// Whether a JSON object is a line of a Gemini log: a stream-json event (`init`, `message`,
/// `tool_use`, `tool_result`, `error`, `result` with `stats`), a chat recording's metadata
/// (`sessionId` and `projectHash`), update (`$set`) or message record (`id`, `type`,
/// `content` and no Claude Code `message`), or the `-o json` document (`session_id` with
/// `response`, `stats` or `error`, and no `type`).
pub(crate) fn is_gemini(map: &Map<String, Value>) -> bool {
    if map.contains_key("$set")
        || (map.contains_key("sessionId") && map.contains_key("projectHash"))
    {
        return true;
    }
    let Some(ty) = map.get("type") else {
        return map.contains_key("session_id")
            && (map.contains_key("response")
                || map.contains_key("stats")
                || map.contains_key("error"));
    };
    let Some(ty) = ty.as_str() else {
        return false;
    };
    match ty {
        "init" | "tool_use" | "tool_result" => map.contains_key("timestamp"),
        "message" => map.contains_key("role"),
        "result" => map.contains_key("status") && map.contains_key("stats"),
        "error" => map.contains_key("severity") || is_record(map),
        "gemini" => map.contains_key("id") && !map.contains_key("message"),
        "user" | "info" | "warning" => is_record(map),
        _ => false,
    }
}

/// A recording's message record: `id` and `content`, and no Claude Code `message`.
fn is_record(map: &Map<String, Value>) -> bool {
    map.contains_key("id") && map.contains_key("content") && !map.contains_key("message")
}

/// Unix seconds of a Gemini line, when it says (`timestamp`; a recording's metadata line
/// `lastUpdated`).
pub(crate) fn timestamp(map: &Map<String, Value>) -> Option<f64> {
    crate::event::rfc3339(map.get("timestamp").or_else(|| map.get("lastUpdated")))
}

/// What classifying a Gemini line needs to know of the lines before it. Bounded: the answer
/// text of one row ([`stream::TEXT_ROW_BYTES`]), the last [`record::MAX_MESSAGES`] messages
/// and [`record::MAX_RESULTS`] results of a recording.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct State {
    /// A turn is open (a prompt came, its end did not).
    #[serde(skip_serializing_if = "is_false")]
    turn_open: bool,
    /// Stream-json: an `init` came and its prompt has not.
    #[serde(skip_serializing_if = "is_false")]
    awaiting_prompt: bool,
    /// Stream-json: the answer text of the row being written (its deltas so far).
    #[serde(skip_serializing_if = "String::is_empty")]
    text: String,
    /// Stream-json: the number of answer rows so far (each its own coalesce key).
    #[serde(skip_serializing_if = "is_zero")]
    text_rows: u64,
    /// Stream-json: the row before this line was the answer row being written.
    #[serde(skip_serializing_if = "is_false")]
    text_last: bool,
    /// Recording: what each recent message showed ([`record`]).
    #[serde(skip_serializing_if = "record::Seen::is_empty")]
    seen: record::Seen,
    /// A JSON document over many lines being read ([`document`]).
    #[serde(skip_serializing_if = "document::Pending::is_empty")]
    pub(crate) doc: document::Pending,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl State {
    /// Nothing remembered (so a context without Gemini lines serialises as before).
    pub(crate) fn is_empty(&self) -> bool {
        *self == State::default()
    }
}

/// The rows of one Gemini line.
pub(crate) fn classify(value: &Value, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let Some(map) = value.as_object() else {
        return vec![crate::stream::unrecognised(value)];
    };
    let record = map.contains_key("id")
        && match map.get("type").and_then(Value::as_str) {
            Some("error") => !map.contains_key("severity"),
            Some(ty) => !matches!(
                ty,
                "init" | "message" | "tool_use" | "tool_result" | "result"
            ),
            None => false,
        };
    if record || map.contains_key("$set") || map.contains_key("projectHash") {
        ctx.gemini.text_last = false;
        return record::classify(map, ctx);
    }
    stream::classify(map, ctx)
}

/// 64-bit FNV-1a of `s`: the same on every platform (wasm too), to remember what was shown
/// without keeping it.
pub(crate) fn fnv(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests;
