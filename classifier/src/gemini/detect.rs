//! Which lines are Gemini's: [`is_gemini`] by a line's shape, and a line's time
//! ([`timestamp`]). Depends only on [`crate::time`], so the line parsers can ask.

use crate::field::Field;
use serde_json::{Map, Value};

/// Whether a JSON object is a line of a Gemini log: a stream-json event (`init`, `message`,
/// `tool_use`, `tool_result`, `error`, `result` with `stats`), a chat recording's metadata
/// (`sessionId` and `projectHash`), update (`$set`) or message record (`id`, `type`,
/// `content` and no Claude Code `message`), or the `-o json` document (`session_id` with
/// `response`, `stats` or `error`, and no `type`).
pub(crate) fn is_gemini(map: &Map<String, Value>) -> bool {
    if map.has("$set") || (map.has("sessionId") && map.has("projectHash")) {
        return true;
    }
    let Some(ty) = map.field("type") else {
        return map.has("session_id")
            && (map.has("response") || map.has("stats") || map.has("error"));
    };
    let Some(ty) = ty.as_str() else {
        return false;
    };
    match ty {
        "init" | "tool_use" | "tool_result" => map.has("timestamp"),
        "message" => map.has("role"),
        "result" => map.has("status") && map.has("stats"),
        "error" => map.has("severity") || is_record(map),
        "gemini" => map.has("id") && !map.has("message"),
        "user" | "info" | "warning" => is_record(map),
        _ => false,
    }
}

/// A recording's message record: `id` and `content`, and no Claude Code `message`.
fn is_record(map: &Map<String, Value>) -> bool {
    map.has("id") && map.has("content") && !map.has("message")
}

/// Unix seconds of a Gemini line, when it says (`timestamp`; a recording's metadata line
/// `lastUpdated`).
pub(crate) fn timestamp(map: &Map<String, Value>) -> Option<f64> {
    crate::time::rfc3339(map.field("timestamp").or_else(|| map.field("lastUpdated")))
}

/// Whether a Gemini line ([`is_gemini`]) is a recording's message record, read as a
/// [`Record`]: an `id` and a `type` that is not a stream-json event's, and neither an update
/// (`$set`) nor a metadata line (`projectHash`).
pub(crate) fn is_message_record(map: &Map<String, Value>) -> bool {
    is_record_line(map) && !map.has("$set") && !map.has("projectHash")
}

/// A recording's line: a record by its `id` and `type`, or an update, or metadata.
pub(super) fn is_record_line(map: &Map<String, Value>) -> bool {
    map.has("id")
        && match map.field("type").and_then(Value::as_str) {
            Some("error") => !map.has("severity"),
            Some(ty) => !matches!(
                ty,
                "init" | "message" | "tool_use" | "tool_result" | "result"
            ),
            None => false,
        }
}
