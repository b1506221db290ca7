//! Which lines are Qwen Code's, and the agent and version a line names. Depends on nothing
//! but [`crate::field`]: the line reader (`event.rs`) and the summary ask it.

use crate::field::Field;
use serde_json::{Map, Value};

/// Whether a JSON object is a Qwen Code session record: a string `type` and `provenance`
/// beside a `sessionId` (no Claude Code or Gemini CLI line has `provenance`).
pub(crate) fn is_record(map: &Map<String, Value>) -> bool {
    map.field("provenance").is_some_and(Value::is_string)
        && map.has("sessionId")
        && map.field("type").is_some_and(Value::is_string)
}

/// Whether a JSON value is Qwen Code's `-o json` output: an array of objects with a string
/// `type`, one of them the `init` that names Qwen Code.
pub(crate) fn is_json_output(value: &Value) -> bool {
    let Some(items) = value.as_array() else {
        return false;
    };
    items
        .iter()
        .all(|v| v.field("type").is_some_and(Value::is_string))
        && items.iter().any(|v| version(v).is_some())
}

/// The Qwen Code version a stream-json `init` line states (`qwen_code_version`).
pub(crate) fn version(value: &Value) -> Option<&Value> {
    value.field("qwen_code_version")
}

/// The agent a Claude Code–shaped line names: `qwen` for an `init` of Qwen Code's,
/// `claude-code` for any other.
pub(crate) fn agent_of(value: &Value) -> &'static str {
    if version(value).is_some() {
        "qwen"
    } else {
        "claude-code"
    }
}
