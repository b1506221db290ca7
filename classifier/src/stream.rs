//! Claude Code lines (stream-json and transcripts) → rows.

use serde_json::Value;

use crate::ctx::ClassifyCtx;
use crate::msg::{Level, TermMsg};

/// Classifies one raw Claude Code line.
pub(crate) fn classify_value(value: &Value, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let _ = ctx;
    vec![unrecognised(value)]
}

/// The seed's `!` warn row for a shape nobody recognises: the raw JSON, trimmed.
pub(crate) fn unrecognised(value: &Value) -> TermMsg {
    TermMsg::new(
        Level::Warn,
        crate::text::truncate_chars(&value.to_string(), 200),
    )
    .icon("!")
}
