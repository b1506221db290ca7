//! Which lines are GitHub Copilot CLI's. Depends on nothing but [`crate::field`].

use crate::field::Field;
use serde_json::{Map, Value};

/// The namespaces of Copilot's session event types (`session.start`, `tool.execution_start`…).
const PREFIXES: &[&str] = &[
    "session.",
    "user.",
    "assistant.",
    "tool.",
    "model.",
    "system.",
    "subagent.",
    "hook.",
    "skill.",
    "permission.",
];

/// Whether a JSON object is a Copilot CLI line: a session event (a `type` in one of its
/// namespaces, an object `data`, an `id` and a `timestamp`; or `type` `abort` so) or the
/// `result` line of `--output-format json` (`exitCode` and `sessionId`, no `data`).
pub(crate) fn is_copilot(map: &Map<String, Value>) -> bool {
    let Some(ty) = map.field("type").and_then(Value::as_str) else {
        return false;
    };
    if ty == "result" {
        return map.has("exitCode") && map.has("sessionId") && !map.has("data");
    }
    map.field("data").is_some_and(Value::is_object)
        && map.field("id").is_some_and(Value::is_string)
        && map.has("timestamp")
        && (ty == "abort" || PREFIXES.iter().any(|p| ty.starts_with(p)))
}
