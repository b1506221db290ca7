//! Qwen Code's built-in tools → the Claude Code built-in rows of the same meaning
//! (`docs/TOOLS.md`): `run_shell_command` → `Bash`, `read_file` → `Read`, `write_file` →
//! `Write`, `edit` → `Edit`, `glob` → `Glob`, `grep_search` → `Grep`, `todo_write` →
//! `TodoWrite`, `web_fetch` → `WebFetch`, `agent` → `Task`. Their arguments are Claude
//! Code's under Qwen's names. Any other name is the generic row ([`crate::tools`]).

use serde_json::Value;

use crate::msg::TermMsg;

/// The row of a call of `name` with `input`, a Qwen built-in shown as its Claude Code
/// counterpart; any other tool as [`crate::tools::tool_use_row`] shows it.
pub(crate) fn call_row(name: &str, input: &Value) -> TermMsg {
    let renamed: Option<(&str, &[(&str, &str)])> = match name {
        "run_shell_command" => Some((
            "Bash",
            &[
                ("command", "command"),
                ("run_in_background", "is_background"),
            ],
        )),
        "read_file" => Some((
            "Read",
            &[
                ("file_path", "file_path"),
                ("offset", "offset"),
                ("limit", "limit"),
            ],
        )),
        "write_file" => Some(("Write", &[("file_path", "file_path")])),
        "edit" => Some((
            "Edit",
            &[
                ("file_path", "file_path"),
                ("old_string", "old_string"),
                ("new_string", "new_string"),
                ("replace_all", "replace_all"),
            ],
        )),
        "glob" => Some(("Glob", &[("pattern", "pattern"), ("path", "path")])),
        "grep_search" => Some((
            "Grep",
            &[("pattern", "pattern"), ("path", "path"), ("glob", "glob")],
        )),
        "todo_write" => Some(("TodoWrite", &[("todos", "todos")])),
        "web_fetch" => Some(("WebFetch", &[("url", "url"), ("prompt", "prompt")])),
        "agent" => Some((
            "Task",
            &[
                ("description", "description"),
                ("prompt", "prompt"),
                ("subagent_type", "subagent_type"),
            ],
        )),
        _ => None,
    };
    match renamed {
        Some((claude, names)) => crate::tools::renamed_row(claude, input, names),
        None => crate::tools::tool_use_row(name, input),
    }
}
