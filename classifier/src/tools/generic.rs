//! The generic form (`docs/TOOLS.md`): the summary of a tool that has no case of its own.
//!
//! - no fields → nothing (the row prints `name()`);
//! - one field → `k: "v"` for a string, `k: v` for a number, bool or null, `k: [N]` for an
//!   array of N items, `k: {…}` for an object;
//! - more fields → the first four in the order the input gives them, each as above, joined
//!   with `, `, then ` …+N` for the N left out.
//!
//! Strings are previewed (whitespace folded, 60 characters, `…`); keys are cut at 40
//! characters. Nothing is looked at below the top level, so no input can make this recurse.

use serde_json::{Map, Value};

use super::args::{ITEM_MAX, one_line, quote};

/// How many pairs a generic summary shows.
const PAIRS_MAX: usize = 4;

/// The generic summary of an input object (empty for an empty object).
pub(super) fn fmt_args_generic(input: &Map<String, Value>) -> String {
    let mut out = input
        .iter()
        .take(PAIRS_MAX)
        .map(|(k, v)| format!("{}: {}", one_line(k, ITEM_MAX), value(v)))
        .collect::<Vec<_>>()
        .join(", ");
    if input.len() > PAIRS_MAX {
        out.push_str(&format!(" …+{}", input.len() - PAIRS_MAX));
    }
    out
}

fn value(v: &Value) -> String {
    match v {
        Value::String(s) => quote(s),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".to_owned(),
        Value::Array(items) => format!("[{}]", items.len()),
        Value::Object(_) => "{…}".to_owned(),
    }
}
