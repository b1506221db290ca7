//! A Gemini tool call → the tool-call row of the same meaning (`docs/TOOLS.md`, "Gemini"),
//! and its result → the result row (`crate::stream::result_text_row`).
//!
//! Built-ins are renamed to the Claude Code built-in of the same meaning and their arguments
//! to its names, so the rows (icons, summaries, diff bodies) are that tool's:
//! `run_shell_command` → `Bash`, `read_file`/`read_many_files` → `Read`, `write_file` →
//! `Write`, `replace` → `Edit`, `glob` → `Glob`, `grep_search`/`search_file_content` →
//! `Grep`, `list_directory` → `Glob <dir>/*`, `google_web_search` → `WebSearch`, `web_fetch`
//! → `WebFetch` (the first URL of its prompt), `invoke_agent` → `Task` (its `prompt` and
//! `agent_name` as Claude Code's `prompt` and `subagent_type`: `🤖 Task <the prompt's first
//! line> [<agent>]`). Any other tool (MCP tools, unknown names) is the generic row under its
//! own name.

use crate::field::Field;
use serde_json::{Value, json};

use crate::ctx::ClassifyCtx;
use crate::msg::{BodyFormat, TermMsg};

/// The call row of tool `name` with `args`.
pub(super) fn call_row(name: &str, args: &Value) -> TermMsg {
    // The built-ins whose input is Gemini's under other names: read in place.
    let renamed: Option<(&str, &[(&str, &str)])> = match name {
        "run_shell_command" => Some((
            "Bash",
            &[
                ("command", "command"),
                ("run_in_background", "is_background"),
            ],
        )),
        "write_file" => Some(("Write", &[("file_path", "file_path")])),
        "replace" => Some((
            "Edit",
            &[
                ("file_path", "file_path"),
                ("old_string", "old_string"),
                ("new_string", "new_string"),
                ("replace_all", "allow_multiple"),
            ],
        )),
        "glob" => Some(("Glob", &[("pattern", "pattern"), ("path", "dir_path")])),
        "grep_search" | "search_file_content" => Some((
            "Grep",
            &[
                ("pattern", "pattern"),
                ("path", "dir_path"),
                ("glob", "include"),
            ],
        )),
        "google_web_search" => Some(("WebSearch", &[("query", "query")])),
        // A subagent, named as Claude Code's are: its task (the prompt's first line, the
        // prompt as the body) and its agent (issue 45).
        "invoke_agent" => Some((
            "Task",
            &[("prompt", "prompt"), ("subagent_type", "agent_name")],
        )),
        _ => None,
    };
    if let Some((claude, names)) = renamed {
        return crate::tools::renamed_row(claude, args, names);
    }
    let a = |k: &str| args.field(k).cloned().unwrap_or(Value::Null);
    let (claude, input) = match name {
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
    use serde_json::{Value, json};

    /// A Gemini call of a renamed built-in reads as the input of the names it is renamed to,
    /// made (as it was made before it was read in place): every tool, every mix of its
    /// arguments absent, null, of each type, blank or not, on one line or not, with an
    /// argument of no name read, and inputs that are no object.
    #[test]
    fn renamed_calls_read_as_their_input_made() {
        let made = |name: &str, args: &Value| {
            let a = |k: &str| args.get(k).cloned().unwrap_or(Value::Null);
            let (claude, fields): (&str, Vec<(&str, Value)>) = match name {
                "run_shell_command" => (
                    "Bash",
                    vec![
                        ("command", a("command")),
                        ("run_in_background", a("is_background")),
                    ],
                ),
                "write_file" => ("Write", vec![("file_path", a("file_path"))]),
                "replace" => (
                    "Edit",
                    vec![
                        ("file_path", a("file_path")),
                        ("old_string", a("old_string")),
                        ("new_string", a("new_string")),
                        ("replace_all", a("allow_multiple")),
                    ],
                ),
                "glob" => (
                    "Glob",
                    vec![("pattern", a("pattern")), ("path", a("dir_path"))],
                ),
                "grep_search" | "search_file_content" => (
                    "Grep",
                    vec![
                        ("pattern", a("pattern")),
                        ("path", a("dir_path")),
                        ("glob", a("include")),
                    ],
                ),
                "google_web_search" => ("WebSearch", vec![("query", a("query"))]),
                _ => unreachable!(),
            };
            let input: serde_json::Map<String, Value> =
                fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
            crate::tools::tool_use_row(claude, &Value::Object(input))
        };
        let values = [
            None,
            Some(Value::Null),
            Some(json!("src/a b.rs")),
            Some(json!("  two\n lines\t ")),
            Some(json!("")),
            Some(json!("é\u{1b}[31m")),
            Some(json!(7)),
            Some(json!(true)),
            Some(json!([1, "x"])),
            Some(json!({"a": 1})),
        ];
        let tools: [(&str, &[&str]); 7] = [
            ("run_shell_command", &["command", "is_background"]),
            ("write_file", &["file_path"]),
            (
                "replace",
                &["file_path", "old_string", "new_string", "allow_multiple"],
            ),
            ("glob", &["pattern", "dir_path"]),
            ("grep_search", &["pattern", "dir_path", "include"]),
            ("search_file_content", &["pattern", "dir_path", "include"]),
            ("google_web_search", &["query"]),
        ];
        let mut cases = 0;
        for (name, keys) in tools {
            for odd in [json!(null), json!(5), json!("x"), json!([1]), json!({})] {
                assert_eq!(
                    super::call_row(name, &odd),
                    made(name, &odd),
                    "{name} {odd}"
                );
            }
            let n = keys.len();
            for pick in 0..values.len().pow(n as u32) {
                let mut args = serde_json::Map::new();
                args.insert("description".to_owned(), json!("not read"));
                let mut p = pick;
                for k in keys {
                    if let Some(v) = &values[p % values.len()] {
                        args.insert((*k).to_owned(), v.clone());
                    }
                    p /= values.len();
                }
                let args = Value::Object(args);
                assert_eq!(
                    super::call_row(name, &args),
                    made(name, &args),
                    "{name} {args}"
                );
                cases += 1;
            }
        }
        assert_eq!(cases, 100 + 10 + 10_000 + 100 + 1000 + 1000 + 10);
    }

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
