//! Subagent task events `⌁` (`subtype` `task_started` / `task_notification`, whatever the
//! line's type): started, or its notification with ✓/✗/◌.

use crate::field::Field;
use serde_json::{Map, Value};

use crate::kind::icon;
use crate::msg::{BodyFormat, Level, TermMsg};
use crate::text::{line_count, preview};

/// The `⌁` rows of a subagent task: started, or its notification with ✓/✗/◌.
pub(super) fn task_event(sub: &str, obj: &Map<String, Value>) -> TermMsg {
    let s = |k: &str| obj.field(k).and_then(Value::as_str);
    let id = s("task_id").unwrap_or("?");
    if sub == "task_started" {
        let mut summary = format!("task {id} started");
        if let Some(d) = s("description") {
            summary.push_str(&format!(" · {}", preview(d)));
        }
        if let Some(t) = s("subagent_type").or(s("task_type")) {
            summary.push_str(&format!(" [{t}]"));
        }
        let row = TermMsg::new(Level::Info, summary).icon(icon::TASK);
        return match s("prompt").map(str::trim).filter(|p| !p.is_empty()) {
            Some(p) => row.body_as(p, BodyFormat::Markdown),
            None => row,
        };
    }
    let status = s("status").unwrap_or("?");
    let (mark, level) = match status {
        "completed" => ("✓", Level::Info),
        "failed" => ("✗", Level::Error),
        _ => ("◌", Level::Info),
    };
    let mut summary = format!("task {id} {mark} {status}");
    let text = s("description")
        .or(s("summary"))
        .map(str::trim)
        .filter(|d| !d.is_empty());
    if let Some(d) = text {
        summary.push_str(&format!(" · {}", preview(d)));
    }
    if let Some(f) = s("output_file") {
        summary.push_str(&format!(" · → {f}"));
    }
    let row = TermMsg::new(level, summary).icon(icon::TASK);
    match s("summary").map(str::trim).filter(|t| !t.is_empty()) {
        Some(full)
            if preview(full).chars().count() < full.chars().count() || line_count(full) > 1 =>
        {
            row.body_as(full, BodyFormat::Markdown)
        }
        _ => row,
    }
}
