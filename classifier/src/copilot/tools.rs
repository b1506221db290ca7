//! Copilot CLI's built-in tools → the Claude Code built-in rows of the same meaning
//! (`docs/TOOLS.md`, "GitHub Copilot CLI"): `bash` → `Bash`, `view` → `Read` (`view_range`
//! `[a, b]` as from `a`, `b - a + 1` lines), `create` → `Write`, `edit` → `Edit`, `glob` →
//! `Glob`, `grep` → `Grep`, `web_fetch` → `WebFetch`, `task` → `Task`; any other (`sql`,
//! MCP tools, unknown names) is the generic row under its own name.

use crate::field::Field;
use serde_json::{Value, json};

use crate::msg::TermMsg;

/// The row of a call of `name` with `args`.
pub(crate) fn call_row(name: &str, args: &Value) -> TermMsg {
    let renamed: Option<(&str, &[(&str, &str)])> = match name {
        "bash" => Some(("Bash", &[("command", "command")])),
        "create" => Some(("Write", &[("file_path", "path")])),
        "edit" => Some((
            "Edit",
            &[
                ("file_path", "path"),
                ("old_string", "old_str"),
                ("new_string", "new_str"),
            ],
        )),
        "glob" => Some(("Glob", &[("pattern", "pattern"), ("path", "path")])),
        "grep" => Some((
            "Grep",
            &[("pattern", "pattern"), ("path", "path"), ("glob", "glob")],
        )),
        "web_fetch" => Some(("WebFetch", &[("url", "url")])),
        "task" => Some((
            "Task",
            &[
                ("description", "description"),
                ("prompt", "prompt"),
                ("subagent_type", "agent_type"),
            ],
        )),
        _ => None,
    };
    if let Some((claude, names)) = renamed {
        return crate::tools::renamed_row(claude, args, names);
    }
    if name == "view" {
        let range = args.field("view_range").and_then(Value::as_array);
        let at = |i: usize| range.and_then(|r| r.get(i)).and_then(Value::as_i64);
        let (offset, limit) = match (at(0), at(1)) {
            (Some(a), Some(b)) if b >= a && a > 0 => (json!(a), json!(b - a + 1)),
            (Some(a), _) if a > 0 => (json!(a), Value::Null),
            _ => (Value::Null, Value::Null),
        };
        let path = args.field("path").cloned().unwrap_or(Value::Null);
        let input = json!({"file_path": path, "offset": offset, "limit": limit});
        return crate::tools::tool_use_row("Read", &input);
    }
    crate::tools::tool_use_row(name, args)
}
