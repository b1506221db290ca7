//! Reading a Claude Code line's fields, and the warn row for one of the wrong shape: shared
//! by the line kinds' modules.

use crate::field::Field;
use serde_json::{Map, Value};

use crate::msg::{Level, TermMsg};

/// A row for a line of a known type whose field has the wrong shape.
pub(super) fn malformed(ty: &str, what: &str) -> TermMsg {
    TermMsg::new(Level::Warn, format!("{ty} line: {what}"))
}

/// `obj[key]` when it is a string.
pub(super) fn str_field<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    obj.field(key).and_then(Value::as_str)
}

/// What a JSON value is, for a row that says a field has the wrong shape.
pub(super) fn json_kind(v: Option<&Value>) -> &'static str {
    match v {
        None => "missing",
        Some(Value::Null) => "null",
        Some(Value::Bool(_)) => "a boolean",
        Some(Value::Number(_)) => "a number",
        Some(Value::String(_)) => "a string",
        Some(Value::Array(_)) => "a list",
        Some(Value::Object(_)) => "an object",
    }
}

/// An image block's label: `image · <media type>`.
pub(super) fn image_label(b: &Map<String, Value>) -> String {
    match b
        .field("source")
        .and_then(|s| s.field("media_type"))
        .and_then(Value::as_str)
    {
        Some(mt) => format!("image · {mt}"),
        None => "image".to_owned(),
    }
}
