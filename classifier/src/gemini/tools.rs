//! A Gemini tool call → the tool-call row of the same meaning (`docs/TOOLS.md`, "Gemini"),
//! and its result → the result row (`crate::stream::result_text_row`).
//!
//! Built-ins are renamed to the Claude Code built-in of the same meaning and their arguments
//! to its names, so the rows (icons, summaries, diff bodies) are that tool's:
//! `run_shell_command` → `Bash`, `read_file`/`read_many_files` → `Read`, `write_file` →
//! `Write`, `replace` → `Edit`, `glob` → `Glob`, `grep_search`/`search_file_content` →
//! `Grep`, `list_directory` → `Glob <dir>/*`, `google_web_search` → `WebSearch`, `web_fetch`
//! → `WebFetch` (the first URL of its prompt). Any other tool (`invoke_agent`, MCP tools,
//! unknown names) is the generic row under its own name.

use crate::field::Field;
use serde_json::{Value, json};

use crate::ctx::ClassifyCtx;
use crate::msg::{BodyFormat, TermMsg};

/// The call row of tool `name` with `args`.
pub(super) fn call_row(name: &str, args: &Value) -> TermMsg {
    let a = |k: &str| args.field(k).cloned().unwrap_or(Value::Null);
    let (claude, input) = match name {
        "run_shell_command" => (
            "Bash",
            object([
                ("command", a("command")),
                ("run_in_background", a("is_background")),
            ]),
        ),
        "read_file" => {
            let start = args.field("start_line").and_then(Value::as_u64);
            let end = args.field("end_line").and_then(Value::as_u64);
            let limit = match (start, end) {
                (Some(s), Some(e)) if e >= s => json!(e - s + 1),
                _ => Value::Null,
            };
            (
                "Read",
                object([
                    ("file_path", a("file_path")),
                    ("offset", a("start_line")),
                    ("limit", limit),
                ]),
            )
        }
        "write_file" => ("Write", object([("file_path", a("file_path"))])),
        "replace" => (
            "Edit",
            object([
                ("file_path", a("file_path")),
                ("old_string", a("old_string")),
                ("new_string", a("new_string")),
                ("replace_all", a("allow_multiple")),
            ]),
        ),
        "glob" => (
            "Glob",
            object([("pattern", a("pattern")), ("path", a("dir_path"))]),
        ),
        "grep_search" | "search_file_content" => (
            "Grep",
            object([
                ("pattern", a("pattern")),
                ("path", a("dir_path")),
                ("glob", a("include")),
            ]),
        ),
        "list_directory" => match args.field("dir_path").and_then(Value::as_str) {
            Some(dir) => (
                "Glob",
                object([(
                    "pattern",
                    Value::String(format!("{}/*", dir.trim_end_matches('/'))),
                )]),
            ),
            None => (name, args.clone()),
        },
        "google_web_search" => ("WebSearch", object([("query", a("query"))])),
        "web_fetch" => match args
            .field("prompt")
            .and_then(Value::as_str)
            .and_then(first_url)
        {
            Some(url) => ("WebFetch", object([("url", Value::from(url))])),
            None => (name, args.clone()),
        },
        _ => (name, args.clone()),
    };
    crate::tools::tool_use_row(claude, &input)
}

/// A tool's input of `fields`, in their order (made at its size).
fn object<const N: usize>(fields: [(&str, Value); N]) -> Value {
    Value::Object(fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

/// The first `http://` or `https://` word of a text.
fn first_url(s: &str) -> Option<&str> {
    s.split_whitespace()
        .find(|w| w.starts_with("http://") || w.starts_with("https://"))
}

/// The result row of call `id` (remembered in `ctx` with its name): `text`, an error when
/// `error` is true.
pub(super) fn result_row(id: &str, text: &str, error: bool, ctx: &mut ClassifyCtx) -> TermMsg {
    crate::stream::result_text_row(text, error, Some(id), ctx)
}

/// A recorded call's diff (`resultDisplay.fileDiff` of `write_file`/`replace`) from its first
/// hunk, for the call row's body; `None` when the record has none.
pub(super) fn file_diff(diff: Option<&str>) -> Option<String> {
    let diff = diff?;
    let at = diff.find("\n@@").map_or(0, |i| i + 1);
    let hunks = diff[at..].trim_end_matches('\n');
    (!hunks.is_empty()).then(|| hunks.to_owned())
}

/// Adds a recorded diff as a call row's body, unless the row has one (an `Edit` row's own).
pub(super) fn with_diff(row: TermMsg, diff: Option<String>) -> TermMsg {
    match diff {
        Some(d) if row.body.is_none() => row.body_as(d, BodyFormat::Diff),
        _ => row,
    }
}

/// A recorded shell output's text (`Output: …` inside `<untrusted_context>`) and its exit code
/// (`Exit Code: N`), when it says.
/// The first line that starts so says it; found many bytes at a time (a file read's output is
/// long, and every call's is read for it).
pub(super) fn shell_exit(output: &str) -> Option<i64> {
    const EXIT: &str = "Exit Code: ";
    let b = output.as_bytes();
    let at = memchr::memmem::find_iter(b, EXIT).find(|&i| i == 0 || b[i - 1] == b'\n')?;
    let rest = &output[at + EXIT.len()..];
    let line = rest.split('\n').next().unwrap_or("");
    line.trim().parse().ok()
}

/// Text without the `<untrusted_context>` wrapper a recorded tool output carries.
pub(super) fn unwrap_context(s: &str) -> &str {
    let t = s.trim();
    t.strip_prefix("<untrusted_context>")
        .and_then(|r| r.strip_suffix("</untrusted_context>"))
        .map_or(s, |r| r.trim_matches('\n'))
}

#[cfg(test)]
mod tests {
    /// `shell_exit` is the first line's that starts with `Exit Code: `, as `lines()` reads them.
    #[test]
    fn shell_exit_reads_the_first_line_that_says() {
        let reference = |output: &str| -> Option<i64> {
            output
                .lines()
                .find_map(|l| l.strip_prefix("Exit Code: "))
                .and_then(|n| n.trim().parse().ok())
        };
        let pieces = [
            "",
            "\n",
            "\r\n",
            "\r",
            "x",
            "Exit Code: 0",
            "Exit Code: 2",
            "Exit Code: -1",
            "Exit Code:  7 ",
            "Exit Code: x",
            "Exit Code: 3\r",
            " Exit Code: 4",
            "xExit Code: 5",
            "Exit Code: ",
            "Exit Code",
            "é",
        ];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let output = format!("{a}{b}{c}");
                    assert_eq!(super::shell_exit(&output), reference(&output), "{output:?}");
                }
            }
        }
    }
}
