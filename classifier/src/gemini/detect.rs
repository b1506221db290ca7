//! Which lines are Gemini's: [`is_gemini`] by a line's shape, and a line's time
//! ([`timestamp`]). Depends only on [`crate::time`], so the line parsers can ask.

use serde_json::{Map, Value};

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
    crate::time::rfc3339(map.get("timestamp").or_else(|| map.get("lastUpdated")))
}
