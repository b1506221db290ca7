//! One OpenCode part → its rows: `text` (the answer, markdown), `reasoning` (`💭`), `tool`
//! ([`super::tools`]), `step-start` and `step-finish` ([`super::turn`]), `retry` (a warn row);
//! any other type (`file`, `agent`, `subtask`, `patch`, `snapshot`, `compaction`, …) a debug
//! `⚙ <type>` row.

use serde_json::Value;

use super::{tools, turn};
use crate::ctx::ClassifyCtx;
use crate::field::Field;
use crate::kind::icon;
use crate::msg::{BodyFormat, Level, TermMsg};
use crate::text::one_line;

/// Longest reasoning summary, in characters.
const HEAD_CHARS: usize = 120;

/// The rows of `part` (an object), at `ts` (unix milliseconds, when known).
pub(super) fn rows(part: &Value, ts: Option<f64>, ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    let s = |k: &str| part.field(k).and_then(Value::as_str);
    match s("type").unwrap_or("") {
        "step-start" => turn::step_start(ctx, rows),
        "step-finish" => turn::step_finish(part, ts, ctx, rows),
        "text" => {
            let text = s("text").unwrap_or("");
            if !text.trim().is_empty() {
                rows.push(TermMsg::new(Level::Info, "").body_as(text, BodyFormat::Markdown));
            }
        }
        "reasoning" => rows.push(reasoning_row(s("text").unwrap_or(""))),
        "tool" => tools::rows(part, ctx, rows),
        "retry" => {
            let why = part
                .field("error")
                .field("data")
                .field("message")
                .and_then(Value::as_str)
                .unwrap_or("");
            let mut summary = "⚠ api retry".to_owned();
            if let Some(n) = part.field("attempt").and_then(Value::as_u64) {
                summary.push_str(&format!(" · attempt {n}"));
            }
            if !why.trim().is_empty() {
                summary.push_str(" · ");
                summary.push_str(&one_line(why, HEAD_CHARS));
            }
            rows.push(TermMsg::new(Level::Warn, summary));
        }
        "" => rows.push(other_row("part without a type")),
        other => rows.push(other_row(&format!("{} part", one_line(other, 40)))),
    }
}

/// `⚙ <what>` (debug): a part or line of a type not read.
pub(super) fn other_row(what: &str) -> TermMsg {
    TermMsg::new(Level::Debug, format!("⚙ {}", one_line(what, 60)))
}

/// `💭 <first line>` (debug; markdown emphasis and heading marks off it), the whole text as
/// its body when it says more.
fn reasoning_row(text: &str) -> TermMsg {
    let text = text.trim();
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let head = first
        .trim()
        .trim_matches(|c| c == '*' || c == '_' || c == '#')
        .trim();
    let summary = if head.is_empty() {
        "reasoning …".to_owned()
    } else {
        one_line(head, HEAD_CHARS)
    };
    let row = TermMsg::new(Level::Debug, summary).icon(icon::THINKING);
    if text.len() > first.len() {
        row.body_as(text, BodyFormat::Markdown)
    } else {
        row
    }
}
