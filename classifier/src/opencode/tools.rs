//! An OpenCode `tool` part → the call row of the Claude Code built-in of the same meaning
//! (`docs/TOOLS.md`), its arguments renamed, and its result row.
//!
//! `bash` → `Bash`, `read` → `Read`, `edit` → `Edit` (the diff OpenCode made, `metadata.diff`,
//! as the body when the row has none of its own), `write` → `Write`, `glob` → `Glob`, `grep` → `Grep`, `list` →
//! `Glob <path>/*`, `webfetch` → `WebFetch`, `websearch` → `WebSearch`, `todowrite` →
//! `TodoWrite`, `task` → `Task` (a subagent: its description, prompt and agent), `skill` →
//! `Skill`; `invalid` (a tool the model named that does not exist) → `🔧 invalid <name>`, its
//! result an error; any other (MCP tools, new names) the generic row under its own name.
//!
//! The part carries the call and its result together (`state.status` `completed` or `error`):
//! the call row, then the result row (`output`; an error for `error`, a shell's `metadata.exit`
//! other than 0 leading it as `exit N · `). A part still `pending`/`running` (an export of a
//! live session) gives the call row alone.

use serde_json::{Value, json};

use super::turn;
use crate::ctx::ClassifyCtx;
use crate::field::Field;
use crate::msg::{BodyFormat, TermMsg};
use crate::tools::{renamed_row, tool_use_row};

/// The call and result rows of a `tool` part.
pub(super) fn rows(part: &Value, ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    let name = part.field("tool").and_then(Value::as_str).unwrap_or("tool");
    let id = part.field("callID").and_then(Value::as_str).unwrap_or("");
    let state = part.field("state");
    let input = state.field("input").unwrap_or(&Value::Null);
    let status = state.field("status").and_then(Value::as_str).unwrap_or("");
    turn::call(ctx);
    let mut row = call_row(name, input);
    if !id.is_empty() {
        ctx.record_tool_use(id, name);
    }
    if row.body.is_none()
        && let Some(hunks) = state
            .field("metadata")
            .field("diff")
            .and_then(Value::as_str)
            .and_then(hunks)
    {
        row = row.body_as(hunks, BodyFormat::Diff);
    }
    rows.push(row);
    let id = (!id.is_empty()).then_some(id);
    match status {
        "completed" => {
            let output = state.field("output").and_then(Value::as_str).unwrap_or("");
            let exit = state
                .field("metadata")
                .field("exit")
                .and_then(Value::as_i64)
                .filter(|c| *c != 0);
            let failed = name == "invalid" || exit.is_some();
            let text = if name == "read" {
                unwrap_read(output)
            } else {
                output
            };
            let text = if failed && text.trim().is_empty() {
                "failed"
            } else {
                text
            };
            let mut result = crate::stream::result_text_row(text, failed, id, ctx);
            if let Some(code) = exit {
                result.summary = format!("exit {code} · {}", result.summary);
            }
            rows.push(result);
        }
        "error" => {
            let err = state.field("error").and_then(Value::as_str).unwrap_or("");
            let err = if err.trim().is_empty() { "failed" } else { err };
            rows.push(crate::stream::result_text_row(err, true, id, ctx));
        }
        _ => {}
    }
}

/// The call row of OpenCode tool `name` with `input`.
pub(super) fn call_row(name: &str, input: &Value) -> TermMsg {
    let renamed: Option<(&str, &[(&str, &str)])> = match name {
        "bash" => Some((
            "Bash",
            &[("command", "command"), ("description", "description")],
        )),
        "read" => Some((
            "Read",
            &[
                ("file_path", "filePath"),
                ("offset", "offset"),
                ("limit", "limit"),
            ],
        )),
        "edit" => Some((
            "Edit",
            &[
                ("file_path", "filePath"),
                ("old_string", "oldString"),
                ("new_string", "newString"),
                ("replace_all", "replaceAll"),
            ],
        )),
        "write" => Some(("Write", &[("file_path", "filePath")])),
        "glob" => Some(("Glob", &[("pattern", "pattern"), ("path", "path")])),
        "grep" => Some((
            "Grep",
            &[
                ("pattern", "pattern"),
                ("path", "path"),
                ("glob", "include"),
            ],
        )),
        "webfetch" => Some(("WebFetch", &[("url", "url")])),
        "websearch" => Some(("WebSearch", &[("query", "query")])),
        "todowrite" => Some(("TodoWrite", &[("todos", "todos")])),
        "task" => Some((
            "Task",
            &[
                ("description", "description"),
                ("prompt", "prompt"),
                ("subagent_type", "subagent_type"),
            ],
        )),
        "skill" => Some(("Skill", &[("skill", "name")])),
        _ => None,
    };
    if let Some((claude, names)) = renamed {
        return renamed_row(claude, input, names);
    }
    match name {
        "list" => {
            let dir = input.field("path").and_then(Value::as_str).unwrap_or(".");
            let pattern = format!("{}/*", dir.trim_end_matches('/'));
            tool_use_row("Glob", &json!({ "pattern": pattern }))
        }
        "invalid" => {
            let tool = input.field("tool").cloned().unwrap_or(Value::Null);
            tool_use_row("invalid", &json!({ "tool": tool }))
        }
        _ => tool_use_row(name, input),
    }
}

/// The hunks of a unified diff (from its first `@@`), `None` when it has none.
fn hunks(diff: &str) -> Option<&str> {
    let at = if diff.starts_with("@@") {
        0
    } else {
        diff.find("\n@@")? + 1
    };
    let h = diff[at..].trim_end_matches('\n');
    (!h.is_empty()).then_some(h)
}

/// A `read` output without its `<path>…</path><type>…</type><content>` wrapper.
fn unwrap_read(output: &str) -> &str {
    match output.find("<content>\n") {
        Some(at) if output.starts_with("<path>") => {
            let rest = &output[at + "<content>\n".len()..];
            rest.strip_suffix("</content>")
                .unwrap_or(rest)
                .trim_end_matches('\n')
        }
        _ => output,
    }
}
