//! Which lines are OpenCode's ([`is_opencode`]) and their time ([`timestamp`]). Depends on no
//! classifier module, so the line parser can ask.

use serde_json::{Map, Value};

use crate::field::Field;

/// Whether a JSON object is an OpenCode line: a `run --format json` event (`type`, a string
/// `sessionID`, a numeric `timestamp`) or an `export` document (`info` with an `id`, a
/// `messages` list, no `type`).
pub(crate) fn is_opencode(map: &Map<String, Value>) -> bool {
    if map.field("sessionID").is_some_and(Value::is_string) {
        return map.field("type").is_some_and(Value::is_string)
            && map.field("timestamp").is_some_and(Value::is_number);
    }
    !map.has("type")
        && map.field("messages").is_some_and(Value::is_array)
        && map
            .field("info")
            .and_then(|i| i.field("id"))
            .is_some_and(Value::is_string)
}

/// Unix seconds of an OpenCode line (its `timestamp`, in milliseconds).
pub(crate) fn timestamp(map: &Map<String, Value>) -> Option<f64> {
    map.field("timestamp")
        .and_then(Value::as_f64)
        .map(|ms| ms / 1000.0)
        .filter(|t| t.is_finite())
}
