//! Tool calls: a `tool_use` block → its row (per-tool icon, salient-argument summary, and a
//! body for the few tools that have one). The seeds' salient-arg table and SPEC.md §3.

use serde_json::Value;

use crate::msg::{Level, TermMsg};

/// The row for a call of tool `name` with `input`. Never fails, whatever `input` holds.
pub(crate) fn tool_use_row(name: &str, input: &Value) -> TermMsg {
    // Placeholder until the per-tool table lands: generic form.
    let _ = input;
    TermMsg::new(Level::Info, name.to_owned()).icon("🔧")
}
