//! Claude Code lines (stream-json and transcripts) → rows.
//!
//! The rows of `docs/ROWS.md` for Claude Code lines: a `result` or `rate_limit_event`
//! gives nothing; `system` lines go by subtype ([`system`]); task events get the `⌁` glyph;
//! `assistant` content blocks become text, thinking and tool-call rows; `user` content becomes
//! a turn start (a prompt) or tool-result rows; transcript bookkeeping is quiet; anything else
//! is the `!` warn row. Fields of the wrong type degrade to a row that says so.
//!
//! - this file: the dispatch by `type` ([`classify_value`]), tool progress, summaries and
//!   titles, the quiet types (their list, [`crate::lean::QUIET_TYPES`], is the parse layer's:
//!   it parses them leanly), the `!` row ([`unrecognised`])
//! - [`assistant`]: text, thinking, tool calls, images, unknown blocks
//! - [`user`]: prompts and the other user text, tool results
//! - [`system`]: `system` lines by subtype
//! - [`task`]: subagent task events `⌁`
//! - [`turns`]: where turns start and end
//! - [`fields`]: reading a field, the row for a field of the wrong shape
//! - [`lean`]: what of a line's `message` the lean parse keeps

use crate::field::Field;
use serde_json::{Map, Value};

use crate::ctx::ClassifyCtx;
use crate::kind::icon;
use crate::msg::{Level, TermMsg};
use crate::text::{preview, truncate_chars};

mod assistant;
mod fields;
pub(crate) mod lean;
mod system;
mod task;
mod turns;
mod user;

use self::assistant::assistant;
use self::fields::str_field;
use self::user::user;
use crate::lean::QUIET_TYPES;

pub(crate) use self::turns::harness_turn;
pub(crate) use self::user::result_text_row;

/// Longest raw JSON shown in an unrecognised row's summary.
const RAW_SUMMARY_CHARS: usize = 200;

/// Classifies one raw Claude Code line.
pub(crate) fn classify_value(value: &Value, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let Some(obj) = value.as_object() else {
        return vec![unrecognised(value)];
    };
    let Some(ty) = obj.field("type").and_then(Value::as_str) else {
        return vec![unrecognised(value)];
    };
    let subtype = obj.field("subtype").and_then(Value::as_str);
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
        return vec![task::task_event(sub, obj)];
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
        "conversation_reset" => vec![crate::kind::reset_row()],
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

fn tool_progress(obj: &Map<String, Value>) -> TermMsg {
    let name = str_field(obj, "tool_name").unwrap_or("tool");
    let mut summary = format!("⏳ {name}");
    if let Some(secs) = obj.field("elapsed_time_seconds").and_then(Value::as_f64) {
        summary.push_str(&format!(" · {}s", secs.round() as i64));
    }
    TermMsg::new(Level::Debug, summary).coalesce("tool-progress")
}
