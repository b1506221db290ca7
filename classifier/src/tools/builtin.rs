//! Claude Code's built-in tools: icons and summaries.
//!
//! The design notes give Read, Write, Edit, Glob, Grep, Bash and TodoWrite; every other
//! built-in gets the argument a reader needs (`docs/TOOLS.md`, and the table in [`super`]'s docs). A built-in whose input
//! has none of the arguments its case reads falls back to the generic form, so an unknown
//! schema still shows what it carries.

use crate::field::Field;
use crate::msg::BodyFormat;
use crate::text::line_count;

use super::args::{Args, Out, PREVIEW_MAX, Parts, delay, join_list, num_text, one_line};
use super::hive::shell;

/// The icon of a built-in tool (🔧 for one this crate does not know).
pub(super) fn icon(name: &str) -> &'static str {
    match name {
        "Read" | "NotebookRead" | "ReadMcpResourceTool" => "📖",
        "Edit" | "MultiEdit" => "✏\u{fe0f}",
        "Write" => "📝",
        "NotebookEdit" => "📓",
        "Glob" => "📂",
        "Grep" => "🔍",
        "Bash" | "BashOutput" | "TaskOutput" | "PowerShell" => "🖥\u{fe0f}",
        "KillShell" | "KillBash" | "TaskStop" => "🛑",
        "TodoWrite" | "TaskCreate" | "TaskUpdate" | "TaskGet" | "TaskList" => "🗒\u{fe0f}",
        "Agent" | "Task" => "🤖",
        "WebFetch" => "🌐",
        "WebSearch" => "🔎",
        "ToolSearch" => "🧰",
        "Skill" | "SlashCommand" => "🧩",
        "SendMessage" => "📤",
        "ScheduleWakeup" => "⏰",
        "CronCreate" | "CronDelete" | "CronList" => "⏱\u{fe0f}",
        "EnterWorktree" | "ExitWorktree" => "🌿",
        "Monitor" => "📡",
        "ListAgents" | "ListMcpResourcesTool" => "📋",
        "Workflow" => "🔀",
        "ReportFindings" => "📑",
        "AskUserQuestion" => "❓",
        "EnterPlanMode" | "ExitPlanMode" => "🗺\u{fe0f}",
        "LSP" => "🧭",
        _ => "🔧",
    }
}

const PATH: &[&str] = &["file_path", "path", "filePath"];
const TASK_ID: &[&str] = &["taskId", "task_id", "id"];

/// The summary (and body) of built-in `name`, or `None` to use the generic form.
pub(super) fn format(name: &str, a: Args) -> Option<Out> {
    let mut p = Parts::default();
    let out = match name {
        "Read" => {
            p.sp(a.name(PATH))
                .dot(a.num(&["offset"]).map(|n| format!("from {}", num_text(n))))
                .dot(a.num(&["limit"]).map(|n| format!("{}L", num_text(n))))
                .dot(a.name(&["pages"]).map(|pages| format!("pages {pages}")));
            Out::args(p.done())
        }
        "Write" | "NotebookRead" => {
            Out::args(p.sp(a.name(&["file_path", "path", "notebook_path"])).done())
        }
        "Edit" => {
            let (counts, diff) = edit_diff(a);
            let all = a.flag(&["replace_all"]).then_some("[all]");
            Out::args(p.sp(a.name(PATH)).dot(counts).sp(all).done())
                .with_body(&diff, Some(BodyFormat::Diff))
        }
        "MultiEdit" => multi_edit(a),
        "Glob" => Out::args(
            p.sp(a.name(&["pattern"]))
                .sp(a.name(&["path"]).map(|d| format!("in {d}")))
                .done(),
        ),
        "Grep" => Out::args(
            p.sp(a.name(&["pattern"]))
                .sp(a.name(&["path"]).map(|d| format!("in {d}")))
                .dot(a.name(&["glob"]))
                .done(),
        ),
        "Bash" | "PowerShell" => shell(a, &["command", "cmd"], &["run_in_background"]),
        "TodoWrite" => {
            let n = a.field("todos").and_then(|t| t.as_array()).map(Vec::len);
            Out::args(
                p.sp(n.map(|n| format!("({n} {})", plural(n, "item"))))
                    .done(),
            )
        }
        "Agent" | "Task" => {
            let prompt = a.string(&["prompt"]).unwrap_or("");
            let what = a
                .name(&["description"])
                .or_else(|| a.text(&["prompt"]).map(|s| one_line(&s, PREVIEW_MAX)));
            p.sp(a.flag(&["run_in_background"]).then_some("[bg]"))
                .sp(what)
                .sp(a.name(&["subagent_type"]).map(|t| format!("[{t}]")));
            Out::args(p.done()).with_body(prompt, Some(BodyFormat::Markdown))
        }
        "WebFetch" => Out::args(p.sp(a.name(&["url"])).done()),
        "WebSearch" | "ToolSearch" => Out::args(p.sp(a.quoted(&["query"])).done()),
        "NotebookEdit" => Out::args(
            p.sp(a.name(&["notebook_path", "file_path", "path"]))
                .dot(a.name(&["edit_mode"]))
                .dot(a.name(&["cell_id"]).map(|c| format!("cell {c}")))
                .done(),
        ),
        "TaskCreate" => Out::args(p.sp(a.quoted(&["subject", "title", "description"])).done()),
        "TaskUpdate" => Out::args(
            p.sp(a.id(TASK_ID))
                .sp(a.name(&["status"]).map(|s| format!("→ {s}")))
                .sp(a.quoted(&["subject"]))
                .dot(a.name(&["owner"]).map(|o| format!("owner {o}")))
                .done(),
        ),
        "TaskGet" => Out::args(p.sp(a.id(TASK_ID)).done()),
        "TaskStop" | "TaskOutput" | "KillShell" | "KillBash" | "BashOutput" => Out::args(
            p.sp(a.name(&["task_id", "taskId", "shell_id", "bash_id", "id"]))
                .done(),
        ),
        "Skill" | "SlashCommand" => Out::args(
            p.sp(a.name(&["skill", "command", "name"]))
                .sp(a.quoted(&["args"]))
                .done(),
        ),
        "SendMessage" => {
            let body = a.string(&["message", "content", "body"]);
            let to = a
                .list(&["to", "recipient"])
                .map(|to| format!("→ {}", join_list(&to)));
            p.sp(to).dot(body.map(|b| format!("{}L", line_count(b))));
            Out::args(p.done()).with_body(body.unwrap_or(""), Some(BodyFormat::Markdown))
        }
        "ScheduleWakeup" => Out::args(
            p.sp(a.num(&["delaySeconds", "delay_seconds"]).map(delay))
                .sp(a.quoted(&["reason", "prompt"]))
                .done(),
        ),
        "CronCreate" => {
            let once = a.field("recurring").and_then(|r| r.as_bool()) == Some(false);
            Out::args(
                p.sp(a.name(&["cron", "schedule"]))
                    .sp(a.quoted(&["prompt"]))
                    .sp(once.then_some("[once]"))
                    .sp(a.flag(&["durable"]).then_some("[durable]"))
                    .done(),
            )
        }
        "CronDelete" => Out::args(p.sp(a.name(&["id", "job_id"])).done()),
        "EnterWorktree" => Out::args(p.sp(a.name(&["name", "branch", "path"])).done()),
        "ExitWorktree" => Out::args(
            p.sp(a.name(&["action", "mode"]))
                .sp(a.flag(&["discard_changes"]).then_some("[discard]"))
                .done(),
        ),
        "Monitor" if a.has(&["command", "cmd"]) => shell(a, &["command", "cmd"], &[]),
        "Monitor" => Out::args(a.quoted(&["description"])?),
        "Workflow" => Out::args(a.name(&["workflow", "workflow_name", "name"])?),
        "AskUserQuestion" => {
            let questions = a.field("questions").and_then(|q| q.as_array())?;
            let first = questions
                .iter()
                .find_map(|q| q.field("question").and_then(|q| q.as_str()))?;
            let more = questions.len().saturating_sub(1);
            p.sp(Some(super::args::quote(first)))
                .sp((more > 0).then(|| format!("(+{more} more)")));
            Out::args(p.done())
        }
        "ExitPlanMode" => {
            let plan = a.string(&["plan"])?;
            Out::args(format!("plan · {}L", line_count(plan)))
                .with_body(plan, Some(BodyFormat::Markdown))
        }
        "LSP" => {
            let at = a.name(&["filePath", "file_path", "path"]).map(|f| {
                let mut at = f;
                for key in ["line", "character"] {
                    if let Some(n) = a.num(&[key]) {
                        at.push_str(&format!(":{}", num_text(n)));
                    }
                }
                at
            });
            Out::args(p.sp(a.name(&["operation"])).sp(at).done())
        }
        "ListMcpResourcesTool" => Out::args(a.name(&["server"])?),
        "ReadMcpResourceTool" => Out::args(p.sp(a.name(&["server"])).sp(a.name(&["uri"])).done()),
        _ => return None,
    };
    Some(out)
}

/// `N edit`/`N edits`.
fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_owned()
    } else {
        format!("{word}s")
    }
}

/// One Edit's counts (`-N +N`, or `+N` for an empty `old_string`) and its diff lines
/// (`-old`, `+new`). No counts when neither string is given.
fn edit_diff(a: Args) -> (Option<String>, String) {
    let old = a.string(&["old_string"]);
    let new = a.string(&["new_string"]);
    if old.is_none() && new.is_none() {
        return (None, String::new());
    }
    let (old, new) = (old.unwrap_or(""), new.unwrap_or(""));
    let (minus, plus) = (line_count(old), line_count(new));
    let counts = if old.is_empty() {
        format!("+{plus}")
    } else {
        format!("-{minus} +{plus}")
    };
    let mut diff = String::with_capacity(old.len() + new.len() + minus + plus + 2);
    push_lines(&mut diff, '-', old);
    push_lines(&mut diff, '+', new);
    (Some(counts), diff)
}

/// Appends each line of `text` to `diff`, prefixed with `sign`. `str::lines` yields exactly
/// [`line_count`] lines (`"\n"` is one empty line), so the body agrees with the counts.
fn push_lines(diff: &mut String, sign: char, text: &str) {
    for line in text.lines() {
        if !diff.is_empty() {
            diff.push('\n');
        }
        diff.push(sign);
        diff.push_str(line);
    }
}

/// `MultiEdit <path> · N edits · -A +B`, with every edit's diff lines one after another.
fn multi_edit(a: Args) -> Out {
    let mut p = Parts::default();
    p.sp(a.name(PATH));
    let Some(edits) = a.field("edits").and_then(|e| e.as_array()) else {
        return Out::args(p.done());
    };
    let (mut minus, mut plus) = (0, 0);
    let mut diff = String::new();
    for edit in edits {
        let old = edit
            .field("old_string")
            .and_then(|v| v.as_str())
            .unwrap_or("");
        let new = edit
            .field("new_string")
            .and_then(|v| v.as_str())
            .unwrap_or("");
        minus += line_count(old);
        plus += line_count(new);
        push_lines(&mut diff, '-', old);
        push_lines(&mut diff, '+', new);
    }
    p.dot(Some(format!(
        "{} {}",
        edits.len(),
        plural(edits.len(), "edit")
    )))
    .dot(Some(format!("-{minus} +{plus}")));
    Out::args(p.done()).with_body(&diff, Some(BodyFormat::Diff))
}
