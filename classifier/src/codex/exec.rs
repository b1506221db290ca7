//! `codex exec --json` stdout → rows (`docs/ROWS.md`, "Codex").
//!
//! A tool item that starts and then completes shows once: `item.started` gives the call row
//! (`🖥️ Bash $ …`, `✏️ apply_patch …`, an MCP tool's row…) and remembers the item's id;
//! its `item.completed` then gives only the result row. An item completed without a start
//! seen (a stream read from its middle, an item type printed only when done) gives both.
//! So parallel items read as Claude Code's parallel tool calls do: calls, then results.

use crate::field::Field;
use serde_json::{Map, Value, json};

use super::fact::Usage;
use super::rows::{
    api_error_row, bash_row, error_message, generic_row, plan_row, reasoning_row, result_row,
    text_row, usage_line,
};
use super::shell::{files_summary, unwrap_command};
use crate::ctx::ClassifyCtx;
use crate::kind::{turn_fail_row, turn_ok_row, turn_start_row};
use crate::msg::{Level, TermMsg};

/// Classifies one `exec --json` line of type `ty`.
pub(crate) fn classify(ty: &str, obj: &Map<String, Value>, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let s = |k: &str| obj.field(k).and_then(Value::as_str);
    match ty {
        "thread.started" => {
            // A new process: its item ids start again at item_0.
            ctx.codex.started.clear();
            let id = s("thread_id").unwrap_or("?");
            vec![TermMsg::new(Level::Debug, format!("⚙ codex thread {id}"))]
        }
        "turn.started" => vec![turn_start_row("user", "")],
        "turn.completed" => {
            let row = turn_ok_row();
            vec![match usage_line(
                " (thread so far)",
                Usage::of_value(obj.field("usage")).as_ref(),
            ) {
                Some(line) => row.body(line),
                None => row,
            }]
        }
        "turn.failed" => {
            let why = obj
                .field("error")
                .and_then(|e| e.field("message").and_then(Value::as_str))
                .map(error_message);
            vec![turn_fail_row(why.as_deref())]
        }
        "error" => vec![api_error_row(s("message").unwrap_or("error"))],
        "item.started" | "item.updated" | "item.completed" => match obj.field("item") {
            Some(Value::Object(item)) => item_rows(ty, item, ctx),
            _ => vec![TermMsg::new(Level::Warn, format!("{ty} line: no item"))],
        },
        _ => vec![crate::stream::unrecognised(&Value::Object(obj.clone()))],
    }
}

/// The rows of one item event.
fn item_rows(ty: &str, item: &Map<String, Value>, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let s = |k: &str| item.field(k).and_then(Value::as_str);
    let id = s("id").unwrap_or("");
    let kind = s("type").unwrap_or("?");
    let value = || Value::Object(item.clone());
    if kind == "todo_list" {
        return vec![plan_row(&todo_items(item), id)];
    }
    let call = match kind {
        "command_execution" => Some(bash_row(&unwrap_command(s("command").unwrap_or("")))),
        "file_change" => Some(file_change_row(item)),
        "mcp_tool_call" => {
            let server = s("server").unwrap_or("?");
            let tool = s("tool").unwrap_or("?");
            let args = item.field("arguments").cloned().unwrap_or(Value::Null);
            Some(crate::tools::tool_use_row(
                &format!("mcp__{server}__{tool}"),
                &args,
            ))
        }
        "web_search" => Some(crate::tools::tool_use_row(
            "WebSearch",
            &json!({ "query": s("query").unwrap_or("") }),
        )),
        "collab_tool_call" => Some(crate::tools::tool_use_row(
            s("tool").unwrap_or("collab"),
            &json!({ "prompt": s("prompt").unwrap_or("") }),
        )),
        _ => None,
    };
    if ty == "item.updated" {
        // The item's final state comes with `item.completed`.
        return Vec::new();
    }
    if ty == "item.started" {
        let Some(call) = call else {
            // Text, reasoning and unknown items are shown when complete.
            return Vec::new();
        };
        ctx.codex.remember_started(id);
        return vec![call];
    }
    let started = ctx.codex.forget_started(id);
    let mut rows = Vec::new();
    if let Some(call) = call
        && !started
    {
        rows.push(call);
    }
    match kind {
        "agent_message" => rows.extend(text_row(s("text").unwrap_or(""))),
        "reasoning" => rows.push(reasoning_row(s("text").unwrap_or(""), "")),
        "command_execution" => {
            let exit = item.field("exit_code").and_then(Value::as_i64);
            let failed = matches!(s("status"), Some("failed" | "declined"));
            rows.push(result_row(
                s("aggregated_output").unwrap_or(""),
                exit,
                failed,
                ctx,
            ));
        }
        "file_change" => rows.push(match s("status") {
            Some("completed") | None => result_row("applied", None, false, ctx),
            Some(other) => result_row(&format!("patch {other}"), None, true, ctx),
        }),
        "mcp_tool_call" => {
            let error = item
                .field("error")
                .and_then(|e| e.field("message").and_then(Value::as_str).or(e.as_str()));
            let text = match (error, item.field("result")) {
                (Some(e), _) => e.to_owned(),
                (None, Some(r)) => mcp_text(r),
                (None, None) => String::new(),
            };
            let failed = error.is_some() || s("status") == Some("failed");
            rows.push(result_row(&text, None, failed, ctx));
        }
        "web_search" | "collab_tool_call" => {}
        "error" => rows.push(TermMsg::new(
            Level::Warn,
            format!("⚠ {}", s("message").unwrap_or("error")),
        )),
        other => rows.push(generic_row(&format!("{other} item"), &value())),
    }
    rows
}

/// A `file_change` item's row: `✏️ apply_patch +added, updated, -deleted` (no diff: the
/// stream has none, only the rollout does).
fn file_change_row(item: &Map<String, Value>) -> TermMsg {
    let changes = item.field("changes").and_then(Value::as_array);
    let files = changes.into_iter().flatten().map(|c| {
        let path = c.field("path").and_then(Value::as_str).unwrap_or("?");
        match c.field("kind").and_then(Value::as_str) {
            Some("add") => format!("+{path}"),
            Some("delete") => format!("-{path}"),
            _ => path.to_owned(),
        }
    });
    TermMsg::new(Level::Info, files_summary(files, None)).icon("✏\u{fe0f}")
}

/// A `todo_list` item's entries: `(text, completed)`.
fn todo_items(item: &Map<String, Value>) -> Vec<(String, bool)> {
    item.field("items")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|i| {
            (
                i.field("text")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned(),
                i.field("completed").and_then(Value::as_bool) == Some(true),
            )
        })
        .collect()
}

/// An MCP result's text: its `content` text blocks, else its JSON.
fn mcp_text(r: &Value) -> String {
    match r.field("content").and_then(Value::as_array) {
        Some(blocks) => blocks
            .iter()
            .map(|b| match b.field("text").and_then(Value::as_str) {
                Some(t) => t.to_owned(),
                None => b.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        None => r.to_string(),
    }
}
