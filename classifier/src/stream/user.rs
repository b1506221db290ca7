//! `user` lines: prompts (turn starts), compaction summaries, slash commands, command output,
//! meta text, task notifications; and tool results `←` / `✗` / `Nl · …` / `recv ← …` (the call
//! each answers from the context), which assistant lines carry too (server-side tools).

use crate::field::Field;
use std::borrow::Cow;

use serde_json::{Map, Value};

use super::fields::{image_label, json_kind, malformed, str_field};
use super::{task, turns};
use crate::ctx::ClassifyCtx;
use crate::kind::{RowKind, icon, row_kind, turn_start_row};
use crate::msg::{BodyFormat, Level, TermMsg};
use crate::text::{line_count, preview, tag};

/// Longest single-line tool result shown flat (`docs/ROWS.md`, "Tool results").
const SHORT_RESULT_CHARS: usize = 120;
/// Longest headline of a long result.
const HEADLINE_CHARS: usize = 100;

/// A `user` line → its rows.
pub(super) fn user(obj: &Map<String, Value>, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let content = obj.field("message").and_then(|m| m.field("content"));
    match content {
        Some(Value::String(text)) => {
            let mut rows = Vec::new();
            user_text_rows(obj, text, ctx, &mut rows);
            rows
        }
        Some(Value::Array(blocks)) => {
            let mut rows = Vec::new();
            let mut text = String::new();
            for block in blocks {
                match block.field("type").and_then(Value::as_str) {
                    Some("tool_result") => {
                        let b = block.as_object().expect("has a type, so an object");
                        rows.push(tool_result_row(b, str_field(b, "tool_use_id"), ctx));
                    }
                    Some("text") => {
                        if let Some(t) = block.field("text").and_then(Value::as_str) {
                            if !text.is_empty() {
                                text.push_str("\n\n");
                            }
                            text.push_str(t);
                        }
                    }
                    Some("image") => {
                        let b = block.as_object().expect("has a type, so an object");
                        rows.push(TermMsg::new(Level::Info, image_label(b)).icon(icon::IMAGE));
                    }
                    Some(other) => {
                        rows.push(TermMsg::new(Level::Debug, format!("⚙ {other} block")))
                    }
                    None => rows.push(malformed(
                        "user",
                        &format!("content block is {}", json_kind(Some(block))),
                    )),
                }
            }
            let mut head = Vec::new();
            user_text_rows(obj, &text, ctx, &mut head);
            head.append(&mut rows);
            head
        }
        other => vec![malformed(
            "user",
            &format!(
                "message content is {}, expected text or a list of blocks",
                json_kind(other)
            ),
        )],
    }
}

/// A user message's text as rows, in front of its other blocks' rows: an interruption (with
/// the partial answer it cut), a prompt as the turn state has it ([`turns::prompt`]), or what
/// [`user_text`] makes of it.
fn user_text_rows(
    obj: &Map<String, Value>,
    text: &str,
    ctx: &mut ClassifyCtx,
    rows: &mut Vec<TermMsg>,
) {
    if turns::is_interruption(text) {
        turns::interrupted(ctx, turns::is_transcript(obj), rows);
        return;
    }
    if let Some(row) = user_text(obj, text) {
        rows.push(if row_kind(&row) == RowKind::TurnStart {
            turns::prompt(ctx, row, turns::is_transcript(obj))
        } else {
            row
        });
    }
}

/// A user message's text: a prompt (a turn starts), or one of Claude Code's own messages in
/// the user role (compaction summaries, slash commands, meta reminders, task notifications).
fn user_text(obj: &Map<String, Value>, text: &str) -> Option<TermMsg> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return None;
    }
    let flag = |k: &str| obj.field(k).and_then(Value::as_bool) == Some(true);
    if flag("isCompactSummary")
        || trimmed.starts_with("This session is being continued from a previous conversation")
    {
        return Some(
            TermMsg::new(Level::Debug, "⚙ compact summary").body_as(text, BodyFormat::Markdown),
        );
    }
    if let Some(cmd) = tag(trimmed, "command-name") {
        let args = tag(trimmed, "command-args").map(str::trim).unwrap_or("");
        let summary = if args.is_empty() {
            cmd.to_owned()
        } else {
            format!("{cmd} {}", preview(args))
        };
        return Some(TermMsg::new(Level::Info, format!("operator: {summary}")));
    }
    if let Some(out) =
        tag(trimmed, "local-command-stdout").or_else(|| tag(trimmed, "local-command-stderr"))
    {
        let out = out.trim();
        let row = TermMsg::new(Level::Debug, format!("⚙ command output · {}", preview(out)));
        return Some(if line_count(out) > 1 {
            row.body(out)
        } else {
            row
        });
    }
    if trimmed.starts_with("<task-notification>") {
        return Some(task_notification_text(trimmed));
    }
    // Reminders Claude Code injects for the model, not the reader.
    if trimmed.starts_with("<local-command-caveat>")
        || (flag("isMeta") && trimmed.starts_with("<system-reminder>"))
    {
        return None;
    }
    if flag("isMeta") || flag("isSynthetic") {
        let row = TermMsg::new(Level::Debug, preview(trimmed));
        return Some(if trimmed.chars().count() > 60 {
            row.body(text)
        } else {
            row
        });
    }
    let from = if flag("isSidechain") { "agent" } else { "user" };
    Some(turn_start_row(from, text))
}

/// A subagent's report delivered to the main agent as a `<task-notification>` user message.
fn task_notification_text(s: &str) -> TermMsg {
    let mut fields = Map::new();
    for (key, tag_name) in [
        ("task_id", "task-id"),
        ("status", "status"),
        ("summary", "summary"),
        ("output_file", "output-file"),
    ] {
        if let Some(v) = tag(s, tag_name) {
            fields.insert(key.to_owned(), Value::String(v.trim().to_owned()));
        }
    }
    let mut row = task::task_event("task_notification", &fields);
    if row.body.is_none() {
        row.body = Some(s.to_owned());
    }
    row
}

/// A `tool_result` block → its row: recv-correlated markdown, short flat, or long with a body;
/// errors red with the `<tool_use_error>` wrapper stripped.
pub(crate) fn tool_result_row(
    b: &Map<String, Value>,
    id: Option<&str>,
    ctx: &mut ClassifyCtx,
) -> TermMsg {
    let is_error = b.field("is_error").and_then(Value::as_bool) == Some(true);
    let raw = result_text(b.field("content"));
    result_text_row(&raw, is_error, id, ctx)
}

/// The row of a tool result whose content is `raw` (an error when `is_error`), of call `id`.
pub(crate) fn result_text_row(
    raw: &str,
    is_error: bool,
    id: Option<&str>,
    ctx: &mut ClassifyCtx,
) -> TermMsg {
    let text = if is_error {
        strip_tool_use_error(raw)
    } else {
        raw
    };
    let text = text.trim_matches(|c: char| c == '\n' || c == '\r');
    let tool = id.and_then(|id| ctx.tool_name(id));
    if !is_error && tool.is_some_and(is_recv) {
        let headline = preview(text);
        let summary = if headline.is_empty() {
            "recv ← (nothing)".to_owned()
        } else {
            format!("recv ← {headline}")
        };
        return TermMsg::new(Level::Info, summary)
            .icon(icon::TOOL_RESULT)
            .body_as(text, BodyFormat::Markdown);
    }
    let level = if is_error { Level::Error } else { Level::Info };
    // Every result carries its direction: `←` (inbound), `✗` when it failed.
    let icon = if is_error {
        icon::ERROR
    } else {
        icon::TOOL_RESULT
    };
    let trimmed = text.trim();
    // (A text of more bytes than four per character allowed is long without counting.)
    if trimmed.len() <= 4 * SHORT_RESULT_CHARS
        && line_count(trimmed) <= 1
        && trimmed.chars().count() <= SHORT_RESULT_CHARS
    {
        let summary = if trimmed.is_empty() {
            "(no output)"
        } else {
            trimmed
        };
        return TermMsg::new(level, summary).icon(icon);
    }
    let headline = trimmed
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let headline = crate::text::first_chars(headline, HEADLINE_CHARS);
    let mut summary = String::with_capacity(24 + headline.len());
    crate::text::push_u64(&mut summary, line_count(text) as u64);
    summary.push_str("l · ");
    summary.push_str(headline);
    summary.push('…');
    TermMsg::new(level, summary)
        .icon(icon)
        .body(crate::text::sanitized(text))
}

fn is_recv(name: &str) -> bool {
    name == "mcp__hyperhive__recv"
}

/// The text of a tool result's `content`: a string (borrowed, not copied: most of a
/// transcript's bytes are these), or text blocks joined by newlines (other blocks named in
/// brackets).
fn result_text(content: Option<&Value>) -> Cow<'_, str> {
    Cow::Owned(match content {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => return Cow::Borrowed(s),
        Some(Value::Array(blocks)) => {
            let mut out = String::new();
            for block in blocks {
                if !out.is_empty() {
                    out.push('\n');
                }
                match block.field("type").and_then(Value::as_str) {
                    Some("text") => {
                        out.push_str(block.field("text").and_then(Value::as_str).unwrap_or(""))
                    }
                    Some("image") => out.push_str("[image]"),
                    Some(other) => {
                        out.push('[');
                        out.push_str(other);
                        out.push(']');
                    }
                    None => out.push_str(&block.to_string()),
                }
            }
            out
        }
        Some(other) => other.to_string(),
    })
}

/// `<tool_use_error>msg</tool_use_error>` → `msg`; other text unchanged.
fn strip_tool_use_error(s: &str) -> &str {
    let t = s.trim();
    t.strip_prefix("<tool_use_error>")
        .and_then(|rest| rest.strip_suffix("</tool_use_error>"))
        .unwrap_or(s)
}
