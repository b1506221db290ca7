//! `assistant` lines: text (markdown, or an API error's text), thinking `💭`, tool calls
//! (made by [`crate::tools`]), server-side tool results, images `🖼️` and unknown blocks.

use crate::field::Field;
use serde_json::{Map, Value};

use super::fields::{image_label, json_kind, malformed, str_field};
use super::turns;
use super::user::tool_result_row;
use crate::ctx::ClassifyCtx;
use crate::kind::icon;
use crate::msg::{BodyFormat, Level, TermMsg};
use crate::text::{line_count, one_line};

/// An `assistant` line → its rows, then its part in the turn ([`turns::assistant`]).
pub(super) fn assistant(obj: &Map<String, Value>, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let message = obj.field("message");
    let content = message.and_then(|m| m.field("content"));
    // A synthetic message standing for a failed API call: its text is the error.
    let api_error = obj.field("is_api_error_message").and_then(Value::as_bool) == Some(true)
        || obj.field("isApiErrorMessage").and_then(Value::as_bool) == Some(true);
    let mut rows = Vec::new();
    match content {
        Some(Value::Array(blocks)) => {
            for block in blocks {
                assistant_block(block, api_error, ctx, &mut rows);
            }
        }
        Some(Value::String(text)) => push_text(text, api_error, &mut rows),
        other => rows.push(malformed(
            "assistant",
            &format!(
                "message content is {}, expected a list of blocks",
                json_kind(other)
            ),
        )),
    }
    turns::assistant(obj, ctx, api_error, &mut rows);
    rows
}

fn push_text(text: &str, api_error: bool, rows: &mut Vec<TermMsg>) {
    if text.trim().is_empty() {
        return;
    }
    if api_error {
        let row = TermMsg::new(Level::Error, one_line(text, 200)).icon(icon::ERROR);
        rows.push(if line_count(text) > 1 || text.chars().count() > 200 {
            row.body(text)
        } else {
            row
        });
    } else {
        rows.push(TermMsg::new(Level::Info, "").body_as(text, BodyFormat::Markdown));
    }
}

fn assistant_block(block: &Value, api_error: bool, ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    let Some(b) = block.as_object() else {
        rows.push(malformed(
            "assistant",
            &format!("content block is {}", json_kind(Some(block))),
        ));
        return;
    };
    match str_field(b, "type") {
        Some("text") => match b.field("text") {
            Some(Value::String(text)) => push_text(text, api_error, rows),
            other => rows.push(malformed(
                "assistant",
                &format!("text block's text is {}", json_kind(other)),
            )),
        },
        Some("thinking") => {
            let text = str_field(b, "thinking").map(str::trim).unwrap_or("");
            let summary = if text.is_empty() {
                "thinking …"
            } else {
                text
            };
            rows.push(TermMsg::new(Level::Debug, summary).icon(icon::THINKING));
        }
        Some("redacted_thinking") => {
            rows.push(TermMsg::new(Level::Debug, "thinking … (redacted)").icon(icon::THINKING));
        }
        Some("tool_use" | "server_tool_use" | "mcp_tool_use") => {
            let name = str_field(b, "name").unwrap_or("?");
            if let Some(id) = str_field(b, "id") {
                ctx.record_tool_use(id, name);
            }
            let input = b.field("input").unwrap_or(&Value::Null);
            rows.push(crate::qwen::tools::call_row(name, input));
        }
        Some(ty) if ty.ends_with("_tool_result") => {
            // A server-side tool's result (web search, web fetch, code execution…).
            rows.push(tool_result_row(b, None, ctx));
        }
        Some("image") => rows.push(TermMsg::new(Level::Info, image_label(b)).icon(icon::IMAGE)),
        Some(other) => rows.push(TermMsg::new(Level::Debug, format!("⚙ {other} block"))),
        None => rows.push(malformed("assistant", "content block without a type")),
    }
}
