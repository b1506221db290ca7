//! Claude Code lines (stream-json and transcripts) → rows.
//!
//! The rows of `docs/ROWS.md` for Claude Code lines: a `result` or `rate_limit_event`
//! gives nothing; `system` lines go by subtype ([`system`]); task events get the `⌁` glyph;
//! `assistant` content blocks become text, thinking and tool-call rows; `user` content becomes
//! a turn start (a prompt) or tool-result rows; transcript bookkeeping is quiet; anything else
//! is the `!` warn row. Fields of the wrong type degrade to a row that says so.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::ctx::ClassifyCtx;
use crate::kind::{RowKind, icon, row_kind, turn_start_row};
use crate::msg::{BodyFormat, Level, TermMsg};
use crate::text::{fold_whitespace, line_count, preview, truncate_chars};

mod system;
mod turns;

pub(crate) use self::turns::harness_turn;

/// Line types Claude Code declares that carry nothing a reader needs as a row. (`result`,
/// `init` and `stream_event` are read by [`turns`]: turn ends and starts, partial answers.)
pub(crate) const QUIET_TYPES: &[&str] = &[
    "rate_limit_event",
    "keep_alive",
    "control_request",
    "control_response",
    "control_cancel_request",
    "auth_status",
    "active_goal",
    // transcript bookkeeping
    "file-history-snapshot",
    "queue-operation",
    "attachment",
    "api-request",
    "api-request-blob",
    "api-request-shape",
    "progress",
    "last-prompt",
    "mode",
    "atis-latch",
    "cost-state",
    "tools-used",
    "agent-name",
    "agent-color",
];

/// Longest single-line tool result shown flat (`docs/ROWS.md`, "Tool results").
const SHORT_RESULT_CHARS: usize = 120;
/// Longest headline of a long result.
const HEADLINE_CHARS: usize = 100;
/// Longest raw JSON shown in an unrecognised row's summary.
const RAW_SUMMARY_CHARS: usize = 200;

/// Classifies one raw Claude Code line.
pub(crate) fn classify_value(value: &Value, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let Some(obj) = value.as_object() else {
        return vec![unrecognised(value)];
    };
    let Some(ty) = obj.get("type").and_then(Value::as_str) else {
        return vec![unrecognised(value)];
    };
    let subtype = obj.get("subtype").and_then(Value::as_str);
    match (ty, subtype) {
        ("system", Some("init")) => return turns::init(ctx),
        ("result", _) => return turns::result(obj, ctx),
        ("stream_event", _) => {
            turns::stream_event(obj, ctx);
            return Vec::new();
        }
        _ => {}
    }
    if let Some(sub @ ("task_started" | "task_notification")) = subtype {
        return vec![system::task_event(sub, obj)];
    }
    match ty {
        "system" => system::classify(subtype, obj),
        "assistant" => assistant(obj, ctx),
        "user" => user(obj, ctx),
        "tool_progress" => vec![tool_progress(obj)],
        "tool_use_summary" => str_field(obj, "summary")
            .map(|s| {
                vec![TermMsg::new(
                    Level::Debug,
                    format!("⚙ tool summary · {}", preview(s)),
                )]
            })
            .unwrap_or_default(),
        "prompt_suggestion" => str_field(obj, "suggestion")
            .map(|s| {
                vec![TermMsg::new(
                    Level::Debug,
                    format!("⚙ suggestion · {}", preview(s)),
                )]
            })
            .unwrap_or_default(),
        "conversation_reset" => vec![TermMsg::new(Level::Info, "⚙ conversation reset")],
        "summary" => str_field(obj, "summary")
            .map(|s| {
                vec![TermMsg::new(
                    Level::Debug,
                    format!("⚙ summary · {}", preview(s)),
                )]
            })
            .unwrap_or_default(),
        "custom-title" | "ai-title" => ["customTitle", "aiTitle", "title"]
            .iter()
            .find_map(|k| str_field(obj, k))
            .map(|t| {
                vec![TermMsg::new(
                    Level::Debug,
                    format!("⚙ title · {}", preview(t)),
                )]
            })
            .unwrap_or_default(),
        _ if QUIET_TYPES.contains(&ty) => Vec::new(),
        _ => vec![unrecognised(value)],
    }
}

/// The `!` warn row for a shape nobody recognises: the raw JSON, trimmed, and all
/// of it in the body when the summary had to be cut.
pub(crate) fn unrecognised(value: &Value) -> TermMsg {
    let raw = value.to_string();
    let summary = truncate_chars(&raw, RAW_SUMMARY_CHARS);
    let row = TermMsg::new(Level::Warn, summary.clone()).icon(icon::UNRECOGNISED);
    if summary.len() == raw.len() {
        row
    } else {
        row.body(raw)
    }
}

/// A row for a line of a known type whose field has the wrong shape.
fn malformed(ty: &str, what: &str) -> TermMsg {
    TermMsg::new(Level::Warn, format!("{ty} line: {what}"))
}

fn str_field<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    obj.get(key).and_then(Value::as_str)
}

fn json_kind(v: Option<&Value>) -> &'static str {
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

fn assistant(obj: &Map<String, Value>, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let message = obj.get("message");
    let content = message.and_then(|m| m.get("content"));
    // A synthetic message standing for a failed API call: its text is the error.
    let api_error = obj.get("is_api_error_message").and_then(Value::as_bool) == Some(true)
        || obj.get("isApiErrorMessage").and_then(Value::as_bool) == Some(true);
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
        let row = TermMsg::new(Level::Error, truncate_chars(&fold_whitespace(text), 200))
            .icon(icon::ERROR);
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
        Some("text") => match b.get("text") {
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
            let input = b.get("input").unwrap_or(&Value::Null);
            rows.push(crate::tools::tool_use_row(name, input));
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

fn image_label(b: &Map<String, Value>) -> String {
    match b
        .get("source")
        .and_then(|s| s.get("media_type"))
        .and_then(Value::as_str)
    {
        Some(mt) => format!("image · {mt}"),
        None => "image".to_owned(),
    }
}

fn user(obj: &Map<String, Value>, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let content = obj.get("message").and_then(|m| m.get("content"));
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
                match block.get("type").and_then(Value::as_str) {
                    Some("tool_result") => {
                        let b = block.as_object().expect("has a type, so an object");
                        rows.push(tool_result_row(b, str_field(b, "tool_use_id"), ctx));
                    }
                    Some("text") => {
                        if let Some(t) = block.get("text").and_then(Value::as_str) {
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
    let flag = |k: &str| obj.get(k).and_then(Value::as_bool) == Some(true);
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

/// The text between `<name>` and `</name>`, when `s` has both.
fn tag<'a>(s: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("<{name}>");
    let close = format!("</{name}>");
    let start = s.find(&open)? + open.len();
    let len = s[start..].find(&close)?;
    Some(&s[start..start + len])
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
    let mut row = system::task_event("task_notification", &fields);
    if row.body.is_none() {
        row.body = Some(s.to_owned());
    }
    row
}

fn tool_progress(obj: &Map<String, Value>) -> TermMsg {
    let name = str_field(obj, "tool_name").unwrap_or("tool");
    let mut summary = format!("⏳ {name}");
    if let Some(secs) = obj.get("elapsed_time_seconds").and_then(Value::as_f64) {
        summary.push_str(&format!(" · {}s", secs.round() as i64));
    }
    TermMsg::new(Level::Debug, summary).coalesce("tool-progress")
}

/// A `tool_result` block → its row: recv-correlated markdown, short flat, or long with a body;
/// errors red with the `<tool_use_error>` wrapper stripped.
pub(crate) fn tool_result_row(
    b: &Map<String, Value>,
    id: Option<&str>,
    ctx: &mut ClassifyCtx,
) -> TermMsg {
    let is_error = b.get("is_error").and_then(Value::as_bool) == Some(true);
    let raw = result_text(b.get("content"));
    let text = if is_error {
        strip_tool_use_error(&raw)
    } else {
        &raw
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
        return TermMsg::new(Level::Info, summary).body_as(text, BodyFormat::Markdown);
    }
    let level = if is_error { Level::Error } else { Level::Info };
    let trimmed = text.trim();
    // (A text of more bytes than four per character allowed is long without counting.)
    if trimmed.len() <= 4 * SHORT_RESULT_CHARS
        && line_count(trimmed) <= 1
        && trimmed.chars().count() <= SHORT_RESULT_CHARS
    {
        let icon = if is_error {
            icon::ERROR
        } else {
            icon::TOOL_RESULT
        };
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
    let headline: String = headline.chars().take(HEADLINE_CHARS).collect();
    TermMsg::new(level, format!("{}l · {headline}…", line_count(text))).body(text)
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
                match block.get("type").and_then(Value::as_str) {
                    Some("text") => {
                        out.push_str(block.get("text").and_then(Value::as_str).unwrap_or(""))
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
