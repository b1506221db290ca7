//! A rollout's calls → rows: a `function_call`'s ([`function_row`]), a `custom_tool_call`'s
//! ([`custom_row`]) and a call's output, read as its tool writes it ([`output_row`]).

use crate::field::Field;
use serde_json::Value;

use super::mirror::strings;
use super::rows::{bash_row, plan_row, result_row};
use super::shell::{Patch, exec_output, patch_body, patch_output, unwrap_argv};
use crate::ctx::ClassifyCtx;
use crate::kind::icon;
use crate::msg::{BodyFormat, Level, TermMsg};
use crate::text::line_count;

/// The row of a `function_call`: `exec_command` / `shell` / `container.exec` as the Bash row,
/// `update_plan` as the plan, anything else as its tool row.
pub(super) fn function_row(name: &str, args: &Value, call_id: &str) -> TermMsg {
    match name {
        "exec_command" => {
            let cmd = args.field("cmd").and_then(Value::as_str).unwrap_or("");
            bash_row(cmd)
        }
        "shell" | "container.exec" | "local_shell" => match args.field("command") {
            Some(Value::String(cmd)) => bash_row(cmd),
            other => bash_row(&unwrap_argv(&strings(other))),
        },
        "update_plan" => {
            let items: Vec<(String, bool)> = args
                .field("plan")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|i| {
                    let step = i.field("step").and_then(Value::as_str).unwrap_or("");
                    let done = i.field("status").and_then(Value::as_str) == Some("completed");
                    (step.to_owned(), done)
                })
                .collect();
            plan_row(&items, call_id)
        }
        _ => crate::tools::tool_use_row(name, args),
    }
}

/// The row of a `custom_tool_call`: `apply_patch` as the edit row with the patch as its diff,
/// code mode's `exec` with its JavaScript as the body, any other with its input.
pub(super) fn custom_row(name: &str, input: &str) -> TermMsg {
    match name {
        "apply_patch" => {
            let patch = Patch::parse(input);
            TermMsg::new(Level::Info, patch.summary())
                .icon("✏\u{fe0f}")
                .body_as(patch_body(input), BodyFormat::Diff)
        }
        _ => {
            let lines = line_count(input);
            let what = if name == "exec" { "script" } else { "input" };
            TermMsg::new(Level::Info, format!("{name} · {lines}L {what}"))
                .icon(icon::TOOL)
                .body(input)
        }
    }
}

/// A call's output, read as its tool writes it.
pub(super) fn output_row(tool: Option<&str>, text: &str, ctx: &mut ClassifyCtx) -> TermMsg {
    match tool {
        Some(t) if t.starts_with("apply_patch") => {
            let out = patch_output(text);
            result_row(&out.text, None, out.exit.is_some_and(|c| c != 0), ctx)
        }
        Some(t) if t.starts_with("exec ·") => {
            let failed = text.starts_with("Script failed") || text.starts_with("Script error");
            result_row(text, None, failed, ctx)
        }
        _ => {
            let out = exec_output(text);
            let mut row = result_row(&out.text, out.exit, false, ctx);
            if out.running {
                row.summary = format!("{} (still running)", row.summary);
            }
            row
        }
    }
}
