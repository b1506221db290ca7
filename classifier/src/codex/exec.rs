//! `codex exec --json` stdout → rows (`docs/ROWS.md`, "Codex").
//!
//! A tool item that starts and then completes shows once: `item.started` gives the call row
//! (`🖥️ Bash $ …`, `✏️ apply_patch …`, an MCP tool's row…) and remembers the item's id;
//! its `item.completed` then gives only the result row. An item completed without a start
//! seen (a stream read from its middle, an item type printed only when done) gives both.
//! So parallel items read as Claude Code's parallel tool calls do: calls, then results.

use std::ops::ControlFlow;

use crate::field::Field;
use serde_json::{Map, Value, json};

use super::exec_line::{Change, Exec, ExecType, Item, ItemKind};
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
    if let Some(exec) = Exec::of_map(ty, obj) {
        return rows(&exec, ctx);
    }
    match (ExecType::of(ty), obj.field("item")) {
        (Some(ty), Some(Value::Object(item))) => item_rows(ty, item, ctx),
        _ => vec![crate::stream::unrecognised(&Value::Object(obj.clone()))],
    }
}

/// The rows of an exec line read typed ([`Exec`]).
pub(crate) fn rows(exec: &Exec, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    match exec.ty {
        ExecType::ThreadStarted => {
            // A new process: its item ids start again at item_0.
            ctx.codex.started.clear();
            let id = exec.thread_id.as_deref().unwrap_or("?");
            vec![TermMsg::new(Level::Debug, ["⚙ codex thread ", id].concat())]
        }
        ExecType::TurnStarted => vec![turn_start_row("user", "")],
        ExecType::TurnCompleted => {
            let row = turn_ok_row();
            vec![match usage_line(" (thread so far)", exec.usage.as_ref()) {
                Some(line) => row.body(line),
                None => row,
            }]
        }
        ExecType::TurnFailed => {
            let why = exec.failure.as_deref().map(error_message);
            vec![turn_fail_row(why.as_deref())]
        }
        ExecType::Error => vec![api_error_row(exec.message.as_deref().unwrap_or("error"))],
        ExecType::ItemStarted | ExecType::ItemUpdated | ExecType::ItemCompleted => {
            match &exec.item {
                Some(item) => typed_item_rows(exec.ty, item, ctx),
                None => vec![TermMsg::new(
                    Level::Warn,
                    format!("{} line: no item", exec.ty.as_str()),
                )],
            }
        }
    }
}

/// The rows of one event of an item read typed.
fn typed_item_rows(ty: ExecType, item: &Item, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    fn s(f: Option<&String>) -> &str {
        f.map_or("", String::as_str)
    }
    let call = || match item.kind {
        Some(ItemKind::CommandExecution) => {
            Some(bash_row(&unwrap_command(s(item.command.as_ref()))))
        }
        Some(ItemKind::FileChange) => Some(file_change_row(&item.changes)),
        _ => None,
    };
    let mut rows = match call_rows(ty, s(item.id.as_ref()), call, ctx) {
        ControlFlow::Break(rows) => return rows,
        ControlFlow::Continue(rows) => rows,
    };
    match item.kind {
        Some(ItemKind::AgentMessage) => rows.extend(text_row(s(item.text.as_ref()))),
        Some(ItemKind::Reasoning) => rows.push(reasoning_row(s(item.text.as_ref()), "")),
        Some(ItemKind::CommandExecution) => {
            let failed = matches!(item.status.as_deref(), Some("failed" | "declined"));
            rows.push(result_row(
                s(item.output.as_ref()),
                item.exit_code,
                failed,
                ctx,
            ));
        }
        Some(ItemKind::FileChange) => rows.push(match item.status.as_deref() {
            Some("completed") | None => result_row("applied", None, false, ctx),
            Some(other) => result_row(&format!("patch {other}"), None, true, ctx),
        }),
        Some(ItemKind::Error) => rows.push(TermMsg::new(
            Level::Warn,
            format!("⚠ {}", item.message.as_deref().unwrap_or("error")),
        )),
        None => {}
    }
    rows
}

/// An item event's rows before its result. A tool item that starts and then completes shows
/// its call once (see the module's doc): `Break`: the event shows these rows and nothing
/// more (a start, an update); `Continue`: the item is complete, and its result row follows
/// these (its call's, when its start was not seen). `call` makes the item's call row (`None`
/// for an item that is no call); it is made only when shown.
fn call_rows(
    ty: ExecType,
    id: &str,
    call: impl FnOnce() -> Option<TermMsg>,
    ctx: &mut ClassifyCtx,
) -> ControlFlow<Vec<TermMsg>, Vec<TermMsg>> {
    match ty {
        // The item's final state comes with `item.completed`.
        ExecType::ItemUpdated => ControlFlow::Break(Vec::new()),
        ExecType::ItemStarted => ControlFlow::Break(match call() {
            Some(call) => {
                ctx.codex.remember_started(id);
                vec![call]
            }
            // Text, reasoning and unknown items are shown when complete.
            None => Vec::new(),
        }),
        _ => {
            let started = ctx.codex.forget_started(id);
            let call = if started { None } else { call() };
            ControlFlow::Continue(call.into_iter().collect())
        }
    }
}

/// The rows of one event of an item not read typed (an MCP call, a search, a plan, a kind
/// not known yet).
fn item_rows(ty: ExecType, item: &Map<String, Value>, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let s = |k: &str| item.field(k).and_then(Value::as_str);
    let id = s("id").unwrap_or("");
    let kind = s("type").unwrap_or("?");
    if kind == "todo_list" {
        return vec![plan_row(&todo_items(item), id)];
    }
    let call = || match kind {
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
    let mut rows = match call_rows(ty, id, call, ctx) {
        ControlFlow::Break(rows) => return rows,
        ControlFlow::Continue(rows) => rows,
    };
    match kind {
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
        other => rows.push(generic_row(
            &format!("{other} item"),
            &Value::Object(item.clone()),
        )),
    }
    rows
}

/// A `file_change` item's row: `✏️ apply_patch +added, updated, -deleted` (the first three),
/// its body every file with its kind, a line each (`add <path>`, `update <path>`,
/// `delete <path>`): the summary names three, and the stream has no diff (only the rollout
/// does) — issue 45.4: a patch of 15 files showed 3 and nothing listed the rest.
fn file_change_row(changes: &[Change]) -> TermMsg {
    let files = changes.iter().map(|c| {
        let path = c.path.as_deref().unwrap_or("?");
        match c.kind.as_deref() {
            Some("add") => format!("+{path}"),
            Some("delete") => format!("-{path}"),
            _ => path.to_owned(),
        }
    });
    let row = TermMsg::new(Level::Info, files_summary(files, None)).icon("✏\u{fe0f}");
    if changes.is_empty() {
        return row;
    }
    let body: Vec<String> = changes
        .iter()
        .map(|c| {
            let kind = c.kind.as_deref().unwrap_or("update");
            format!("{kind} {}", c.path.as_deref().unwrap_or("?"))
        })
        .collect();
    row.body(body.join("\n"))
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
