//! `system` lines by subtype, and the subagent task events (`⌁`).
//!
//! Each subtype gives its category's level (`docs/ROWS.md`, "system lines"): thinking-token ticks,
//! plugin-install and status ticks are debug and coalesced in place; `commands_changed` is a
//! debug row with a body; `api_retry` warns, and so does a transcript's `api_error` that is a
//! retry (the same row in both formats); any other `api_error` is an error; every other subtype,
//! known or not, is a debug `⚙ <subtype>` note, with its salient detail where it has one.

use crate::field::Field;
use serde_json::{Map, Value};

use crate::kind::icon;
use crate::msg::{Level, TermMsg};
use crate::text::{line_count, preview};
use crate::time::millis;

/// Subtypes that are dropped (the header reads them elsewhere, or they repeat what rows show).
const DROPPED: &[&str] = &["init", "result", "rate_limit_event"];

/// Classifies a `system` line.
pub(super) fn classify(subtype: Option<&str>, obj: &Map<String, Value>) -> Vec<TermMsg> {
    let Some(sub) = subtype else {
        return vec![note(Level::Debug, "⚙ system".to_owned())];
    };
    if DROPPED.contains(&sub) {
        return Vec::new();
    }
    let s = |k: &str| obj.field(k).and_then(Value::as_str);
    let n = |k: &str| obj.field(k).and_then(Value::as_f64);
    let row = match sub {
        "thinking_tokens" => {
            let summary = match n("estimated_tokens") {
                Some(t) => format!("thinking… ~{} tokens", int(t)),
                None => "thinking…".to_owned(),
            };
            TermMsg::new(Level::Debug, summary)
                .icon(icon::THINKING_TOKENS)
                .coalesce("thinking-tok")
        }
        "plugin_install" => {
            let name = s("name").map(|n| format!(" {n}")).unwrap_or_default();
            let state = match s("status") {
                Some("started") => "loading…".to_owned(),
                Some("completed" | "installed") => "✓ done".to_owned(),
                Some("failed") => match s("error") {
                    Some(e) => format!("✗ failed · {}", preview(e)),
                    None => "✗ failed".to_owned(),
                },
                Some(other) => other.to_owned(),
                None => "…".to_owned(),
            };
            let level = if s("status") == Some("failed") {
                Level::Warn
            } else {
                Level::Debug
            };
            // Each plugin's rows merge with each other only: two installs interleaved keep
            // both final states.
            let key = ["name", "plugin", "plugin_id", "id"]
                .iter()
                .find_map(|k| s(k))
                .map_or_else(
                    || "plugin-install".to_owned(),
                    |id| format!("plugin-install:{id}"),
                );
            TermMsg::new(level, format!("⚙ plugin install{name} · {state}")).coalesce(key)
        }
        "status"
            if s("status") == Some("compacting")
                && !obj.has("compact_result")
                && !obj.has("compact_error") =>
        {
            crate::kind::compacting_row()
        }
        "status" => {
            let mut summary = "⚙ status".to_owned();
            match obj.field("status") {
                Some(Value::String(st)) => summary.push_str(&format!(" · {st}")),
                Some(Value::Null) | None => {}
                Some(other) => summary.push_str(&format!(" · {other}")),
            }
            if let Some(r) = s("compact_result") {
                summary.push_str(&format!(" · compact {r}"));
            }
            if let Some(e) = s("compact_error") {
                summary.push_str(&format!(" · {}", preview(e)));
            }
            TermMsg::new(Level::Debug, summary).coalesce(crate::kind::STATUS_KEY)
        }
        "commands_changed" => commands_changed(obj),
        "compact_boundary" => compact_boundary(obj),
        "api_retry" => api_retry(obj),
        // Qwen Code's stream-json: a response cut off and asked again.
        "retry" => TermMsg::new(Level::Warn, "⚠ api retry · response cut off, asked again"),
        "api_error" => api_error(obj),
        "task_progress" => {
            let mut summary = format!("⌁ task {}", s("task_id").unwrap_or("?"));
            if let Some(d) = s("description") {
                summary.push_str(&format!(" · {}", preview(d)));
            }
            if let Some(t) = s("last_tool_name") {
                summary.push_str(&format!(" · {t}"));
            }
            TermMsg::new(Level::Debug, summary).coalesce("task-progress")
        }
        "task_updated" => {
            let mut summary = format!("⌁ task {}", s("task_id").unwrap_or("?"));
            if let Some(st) = obj
                .field("patch")
                .and_then(|p| p.field("status"))
                .and_then(Value::as_str)
            {
                summary.push_str(&format!(" · {st}"));
            }
            TermMsg::new(Level::Debug, summary)
        }
        "background_tasks_changed" => {
            let count = obj
                .field("tasks")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            TermMsg::new(
                Level::Debug,
                format!("⚙ background tasks · {count} running"),
            )
        }
        "hook_started" | "hook_progress" | "hook_response" => hook(sub, obj),
        "local_command_output" => with_text(Level::Debug, "⚙ command output", s("content")),
        "notification" => with_text(Level::Info, "⚙ notification", s("text")),
        "informational" => {
            let level = if s("level") == Some("warning") {
                Level::Warn
            } else {
                Level::Debug
            };
            with_text(level, "⚙ informational", s("content"))
        }
        "permission_denied" => {
            let tool = s("tool_name").unwrap_or("?");
            with_text(
                Level::Warn,
                &format!("⚠ permission denied · {tool}"),
                s("message"),
            )
        }
        "model_refusal_fallback" => {
            let from = s("original_model").unwrap_or("?");
            let to = s("fallback_model").unwrap_or("?");
            TermMsg::new(Level::Warn, format!("⚠ model refusal · {from} → {to}"))
        }
        "model_refusal_no_fallback" => {
            let from = s("original_model").unwrap_or("?");
            TermMsg::new(Level::Error, format!("✗ model refusal · {from}"))
        }
        "mirror_error" => with_text(Level::Warn, "⚠ mirror error", s("error")),
        "session_writes_lost" => TermMsg::new(
            Level::Warn,
            format!("⚠ session writes lost · {}", s("error_code").unwrap_or("?")),
        ),
        "worker_shutting_down" => with_text(Level::Debug, "⚙ worker shutting down", s("reason")),
        "session_state_changed" => with_text(
            Level::Debug,
            "⚙ session state",
            obj.field("state").and_then(Value::as_str),
        ),
        "files_persisted" => {
            let files = obj
                .field("files")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            let failed = obj
                .field("failed")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            let level = if failed > 0 {
                Level::Warn
            } else {
                Level::Debug
            };
            TermMsg::new(
                level,
                format!("⚙ files persisted · {files} saved · {failed} failed"),
            )
        }
        other => TermMsg::new(Level::Debug, format!("⚙ {other}")),
    };
    vec![row]
}

fn note(level: Level, summary: String) -> TermMsg {
    TermMsg::new(level, summary)
}

/// `<head> · <preview of text>`, with the whole text as the body when the preview cut it.
fn with_text(level: Level, head: &str, text: Option<&str>) -> TermMsg {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return TermMsg::new(level, head);
    };
    let p = preview(text);
    let row = TermMsg::new(level, format!("{head} · {p}"));
    if p.chars().count() < text.chars().count() || line_count(text) > 1 {
        row.body(text)
    } else {
        row
    }
}

fn commands_changed(obj: &Map<String, Value>) -> TermMsg {
    let commands = obj
        .field("commands")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let mut body = String::new();
    for c in commands {
        let (name, aliases) = match c {
            Value::String(name) => (name.as_str(), Vec::new()),
            Value::Object(o) => (
                o.field("name").and_then(Value::as_str).unwrap_or("?"),
                o.field("aliases")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default(),
            ),
            _ => continue,
        };
        body.push('/');
        body.push_str(name.trim_start_matches('/'));
        if !aliases.is_empty() {
            body.push_str(" (");
            body.push_str(&aliases.join(", "));
            body.push(')');
        }
        body.push('\n');
    }
    let row = TermMsg::new(
        Level::Debug,
        format!("⚙ commands changed · {} available", commands.len()),
    );
    if body.is_empty() {
        row
    } else {
        row.body(body.trim_end().to_owned())
    }
}

fn compact_boundary(obj: &Map<String, Value>) -> TermMsg {
    let meta = obj
        .field("compact_metadata")
        .or_else(|| obj.field("compactMetadata"));
    let field = |snake: &str, camel: &str| meta.and_then(|m| m.get(snake).or_else(|| m.get(camel)));
    let mut summary = "⚙ compact".to_owned();
    if let Some(t) = field("trigger", "trigger").and_then(Value::as_str) {
        summary.push_str(&format!(" · {t}"));
    }
    let pre = field("pre_tokens", "preTokens").and_then(Value::as_f64);
    let post = field("post_tokens", "postTokens").and_then(Value::as_f64);
    match (pre, post) {
        (Some(pre), Some(post)) => {
            summary.push_str(&format!(" · {}→{} tokens", int(pre), int(post)))
        }
        (Some(pre), None) => summary.push_str(&format!(" · {} tokens before", int(pre))),
        (None, Some(post)) => summary.push_str(&format!(" · {} tokens after", int(post))),
        (None, None) => {}
    }
    if let Some(d) = field("duration_ms", "durationMs")
        .and_then(Value::as_f64)
        .and_then(millis)
    {
        summary.push_str(&format!(" · {d}"));
    }
    TermMsg::new(Level::Debug, summary)
}

fn api_retry(obj: &Map<String, Value>) -> TermMsg {
    let n = |k: &str| obj.field(k).and_then(Value::as_f64);
    let mut summary = "⚠ api retry".to_owned();
    match (n("attempt"), n("max_retries")) {
        (Some(a), Some(m)) => summary.push_str(&format!(" · {}/{}", int(a), int(m))),
        (Some(a), None) => summary.push_str(&format!(" · attempt {}", int(a))),
        _ => {}
    }
    let status = n("error_status").map(int);
    let error = obj.field("error").map(error_text).filter(|e| !e.is_empty());
    match (status, error) {
        (Some(st), Some(e)) => summary.push_str(&format!(" · {st} {e}")),
        (Some(st), None) => summary.push_str(&format!(" · {st}")),
        (None, Some(e)) => summary.push_str(&format!(" · {e}")),
        (None, None) => {}
    }
    if let Some(d) = n("retry_delay_ms").and_then(millis) {
        summary.push_str(&format!(" · in {d}"));
    }
    TermMsg::new(Level::Warn, summary)
}

/// A hard API error — or, when it carries retry fields (transcripts write their retries as
/// `api_error` lines), a retry, shown as stream-json shows `api_retry`: the same warn row.
fn api_error(obj: &Map<String, Value>) -> TermMsg {
    let n = |k: &str| obj.field(k).and_then(Value::as_f64);
    let error = obj.field("error");
    let formatted = error
        .and_then(|e| e.field("formatted"))
        .and_then(Value::as_str);
    let text = match formatted {
        Some(f) => preview(f),
        None => error.map(error_text).unwrap_or_default(),
    };
    let status = error
        .and_then(|e| e.field("status"))
        .and_then(Value::as_f64)
        .map(int);
    let what = match (status, text.is_empty()) {
        (Some(st), true) => Some(st),
        (Some(st), false) if !text.starts_with(&st) => Some(format!("{st} {text}")),
        (_, false) => Some(text),
        (None, true) => None,
    };
    let attempt = n("retryAttempt").or_else(|| n("attempt"));
    let max = n("maxRetries").or_else(|| n("max_retries"));
    let delay = n("retryInMs")
        .or_else(|| n("retry_delay_ms"))
        .and_then(millis);
    let (level, mut summary) = if attempt.is_some() {
        (Level::Warn, "⚠ api retry".to_owned())
    } else {
        (Level::Error, "✗ api error".to_owned())
    };
    match (attempt, max) {
        (Some(a), Some(m)) => summary.push_str(&format!(" · {}/{}", int(a), int(m))),
        (Some(a), None) => summary.push_str(&format!(" · attempt {}", int(a))),
        _ => {}
    }
    if let Some(what) = what {
        summary.push_str(&format!(" · {what}"));
    }
    if let Some(d) = delay {
        summary.push_str(&format!(" · in {d}"));
    }
    let row = TermMsg::new(level, summary);
    match error
        .and_then(|e| e.field("message"))
        .and_then(Value::as_str)
    {
        Some(m) if formatted.is_some() => row.body(m),
        _ => row,
    }
}

/// An `error` field as text: a string, or an object's `message`/`type`.
fn error_text(v: &Value) -> String {
    match v {
        Value::String(s) => preview(s),
        Value::Object(o) => o
            .field("message")
            .or_else(|| o.field("type"))
            .and_then(Value::as_str)
            .map(preview)
            .unwrap_or_default(),
        Value::Null => String::new(),
        other => preview(&other.to_string()),
    }
}

fn hook(sub: &str, obj: &Map<String, Value>) -> TermMsg {
    let s = |k: &str| obj.field(k).and_then(Value::as_str);
    let name = s("hook_name").or(s("hook_event")).unwrap_or("?");
    let phase = match sub {
        "hook_started" => "started".to_owned(),
        "hook_progress" => "running".to_owned(),
        _ => match s("outcome") {
            Some(o) => o.to_owned(),
            None => "done".to_owned(),
        },
    };
    let failed = sub == "hook_response" && !matches!(s("outcome"), Some("success") | None);
    let level = if failed { Level::Warn } else { Level::Debug };
    let output: String = ["stdout", "stderr", "output"]
        .iter()
        .filter_map(|k| s(k))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    let row =
        TermMsg::new(level, format!("⚙ hook {name} · {phase}")).coalesce(format!("hook:{name}"));
    if output.is_empty() {
        row
    } else {
        row.body(output)
    }
}

/// A whole number as an integer, without a fraction (`52000`, not `52000.0`).
fn int(n: f64) -> String {
    if n.is_finite() && n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}
