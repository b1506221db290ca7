//! Which lines are Codex's: [`is_codex`] by a line's shape, and the rollout line types
//! ([`ROLLOUT_TYPES`]). Depends on nothing else of the crate, so the line parsers can ask.

use crate::field::Field;
use serde_json::{Map, Value};

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
    let Some(ty) = map.field("type").and_then(Value::as_str) else {
        return false;
    };
    if map.field("payload").is_some_and(Value::is_object) && map.has("timestamp") {
        return true;
    }
    if ty == "error" {
        // `{"type":"error","message":…}`: Gemini's error event has `severity` and a time.
        return map.field("message").is_some_and(Value::is_string)
            && !map.has("severity")
            && !map.has("timestamp");
    }
    ty.starts_with("thread.") || ty.starts_with("turn.") || ty.starts_with("item.")
}
