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
        && is_event_type(ty)
}

/// Whether `ty` is a session event's type: `abort`, or one in a namespace of [`PREFIXES`].
pub(crate) fn is_event_type(ty: &str) -> bool {
    ty == "abort" || PREFIXES.iter().any(|p| ty.starts_with(p))
}

/// The types that give no row (`super`'s docs): rows read nothing of them.
pub(crate) fn is_quiet(ty: &str) -> bool {
    ty.ends_with("_delta")
        || ty.starts_with("model.")
        || matches!(
            ty,
            "assistant.message_start"
                | "assistant.reasoning"
                | "assistant.turn_start"
                | "assistant.turn_end"
                | "assistant.idle"
                | "tool.shell_output"
                | "tool.execution_partial_result"
                | "session.skills_loaded"
                | "session.mcp_servers_loaded"
                | "session.tools_updated"
                | "session.background_tasks_changed"
                | "session.todos_changed"
                | "session.usage_record"
                | "system.message"
        )
}
