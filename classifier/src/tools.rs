//! Tool calls: a `tool_use` block → its row. Every call is one `info` row with a per-tool
//! icon, a one-line summary of its salient arguments, and a body for the few tools that
//! have one. The contract, with every case, is `docs/TOOLS.md`.
//!
//! **Names.** `mcp__hyperhive__<t>`, `mcp__bash__<t>` and `mcp__matrix__<t>` print as `<t>*`
//! (`send*`, `run*`, `send_message*`). Any other MCP tool `mcp__<server>__<t>` prints as
//! `<server>:<t>` (`github:create_issue`) and always takes the generic form; a name that does
//! not split that way prints whole. Built-ins and unknown names print as they are.
//!
//! **Shape.** `name args` — or `name()` when the call has nothing to show (no arguments, or
//! none of the ones its case reads), or just `name` when the input is not a JSON object.
//! Arguments are read tolerantly ([`args`]): a missing, `null` or mistyped argument drops its
//! part of the summary, never the row; numbers are accepted where strings are expected.
//! Values are folded onto one line; `"…"` is the quoted preview (60 characters).
//!
//! Hyperhive, bash and matrix tools follow the design notes' table (`docs/TOOLS.md`); where
//! the notes are silent:
//!
//! | call | summary |
//! |---|---|
//! | recv with both | `recv* wait 30s · max 5`; `wait_ms` prints `wait 250ms` (`wait 2s` when whole) |
//! | remind | `+90s` / `+5m` / `+2h` / `+1d` (largest unit that divides `in_seconds`); `at` also takes unix seconds |
//! | ask / answer | `ask* → to` / `answer* #id`, question / answer as markdown body (older notes) |
//! | run / Bash / Monitor, long | summary `$ <first line>` cut at 120 characters, ` …` if more lines; plain body with all of it |
//! | list_schedules, list_containers, list_rooms, list_invites | the generic form: `name()`, or its arguments if any |
//!
//! Claude Code built-ins (icons in [`builtin::icon`]):
//!
//! | tool | summary | body |
//! |---|---|---|
//! | Read | `Read <path>` + ` · from <offset>` + ` · <limit>L` + ` · pages <p>` | — |
//! | Write / NotebookRead | `Write <path>` | — |
//! | Edit | `Edit <path> · -N +N` (`+N` for an empty `old_string`) + ` [all]` for `replace_all` | diff |
//! | MultiEdit | `MultiEdit <path> · N edits · -A +B` | diff of every edit |
//! | Glob / Grep | `Glob <pattern>` + ` in <path>`; Grep also ` · <glob>` | — |
//! | Bash | `Bash [bg] $ <cmd>` | long command, plain |
//! | TodoWrite | `TodoWrite (N items)` (`(1 item)`) | — |
//! | Agent / Task | `Agent [bg] <description> [<subagent_type>]` | prompt, markdown |
//! | WebFetch / WebSearch / ToolSearch | `WebFetch <url>` / `WebSearch "query"` / `ToolSearch "query"` | — |
//! | NotebookEdit | `NotebookEdit <path> · <edit_mode> · cell <id>` | — |
//! | TaskCreate / TaskUpdate / TaskGet | `TaskCreate "subject"` / `TaskUpdate #1 → completed "subject" · owner o` / `TaskGet #1` | — |
//! | TaskStop / TaskOutput / KillShell / BashOutput | `TaskStop <id>` | — |
//! | Skill / SlashCommand | `Skill <skill> "args"` | — |
//! | SendMessage | `SendMessage → to · NL` | message, markdown |
//! | ScheduleWakeup | `ScheduleWakeup +20m "reason"` | — |
//! | CronCreate / CronDelete | `CronCreate <cron> "prompt" [once] [durable]` / `CronDelete <id>` | — |
//! | EnterWorktree / ExitWorktree | `EnterWorktree <name>` / `ExitWorktree <action> [discard]` | — |
//! | AskUserQuestion | `AskUserQuestion "first question" (+N more)` | — |
//! | ExitPlanMode | `ExitPlanMode plan · NL` | plan, markdown |
//! | LSP | `LSP <operation> <file>:<line>:<character>` | — |
//! | ReadMcpResourceTool / ListMcpResourcesTool | `ReadMcpResourceTool <server> <uri>` / `ListMcpResourcesTool <server>` | — |
//! | Monitor / Workflow | `Monitor $ <cmd>` or `"description"` / `Workflow <name>` | — |
//! | TaskList, CronList, ListAgents, EnterPlanMode, ReportFindings, anything else | generic | — |
//!
//! The generic form is [`generic::fmt_args_generic`]: `name k: "v"`, first four pairs in input
//! order joined with `, `, ` …+N` past that.

mod args;
mod builtin;
mod generic;
mod hive;

use std::borrow::Cow;

use serde_json::Value;

use crate::msg::{Level, TermMsg};

use self::args::{Args, Out, one_line};

/// Longest a tool name runs in a summary.
const TOOL_NAME_MAX: usize = 80;

/// The row for a call of tool `name` with `input`. Never fails, whatever `input` holds.
pub(crate) fn tool_use_row(name: &str, input: &Value) -> TermMsg {
    let tool = Tool::parse(name);
    let Some(map) = input.as_object() else {
        return TermMsg::new(Level::Info, tool.short_name()).icon(tool.icon());
    };
    let out = tool
        .format(Args::new(map))
        .unwrap_or_else(|| Out::args(generic::fmt_args_generic(map)));
    call_row(tool, out)
}

/// [`tool_use_row`] of built-in `name` with the input `names` makes of another agent's
/// `input` (each pair: the name the built-in reads, the name in `input`; a name absent from
/// `input` is `null`), read in place: Gemini's calls of the built-ins of the same meaning.
pub(crate) fn renamed_row(name: &str, input: &Value, names: &[(&str, &str)]) -> TermMsg {
    let tool = Tool::parse(name);
    let empty = serde_json::Map::new();
    let map = input.as_object().unwrap_or(&empty);
    let out = tool.format(Args::renamed(map, names)).unwrap_or_else(|| {
        // (Every built-in a call is renamed to has a form of its own; were one to give none,
        // the generic form of the input made.)
        let made: serde_json::Map<String, Value> = names
            .iter()
            .map(|(k, from)| {
                (
                    (*k).to_owned(),
                    map.get(*from).cloned().unwrap_or(Value::Null),
                )
            })
            .collect();
        Out::args(generic::fmt_args_generic(&made))
    });
    call_row(tool, out)
}

/// [`tool_use_row`] of a `Bash` call of `command` alone (`{"command": command}`), without
/// building that input: Codex's shell commands, every command call of its logs.
pub(crate) fn bash_row(command: &str) -> TermMsg {
    let out = if command.trim().is_empty() {
        Out::default()
    } else {
        let (args, body) = args::command(command);
        let out = Out::args(args);
        match body {
            Some(body) => out.with_body(&body, None),
            None => out,
        }
    };
    call_row(Tool::parse("Bash"), out)
}

/// The row of a call of `tool` formatted as `out`: `<short name> <args>` (`<short name>()`
/// with none), the tool's icon, `out`'s body.
fn call_row(tool: Tool<'_>, out: Out) -> TermMsg {
    let mut summary = tool.short_name();
    if out.args.is_empty() {
        summary.push_str("()");
    } else {
        summary.reserve(1 + out.args.len());
        summary.push(' ');
        summary.push_str(&out.args);
    }
    let row = TermMsg::new(Level::Info, summary).icon(tool.icon());
    match out.body {
        Some((body, Some(format))) => row.body_as(body, format),
        Some((body, None)) => row.body(body),
        None => row,
    }
}

/// Which family a tool belongs to, from its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tool<'a> {
    /// `mcp__hyperhive__<tool>`.
    Hyperhive(&'a str),
    /// `mcp__bash__<tool>`.
    Bash(&'a str),
    /// `mcp__matrix__<tool>`.
    Matrix(&'a str),
    /// Any other `mcp__<server>__<tool>`.
    OtherMcp { server: &'a str, tool: &'a str },
    /// A built-in, or any name that is not an MCP tool's.
    Plain(&'a str),
}

impl<'a> Tool<'a> {
    fn parse(name: &'a str) -> Tool<'a> {
        let Some(rest) = name.strip_prefix("mcp__") else {
            return Tool::Plain(name);
        };
        match rest.split_once("__") {
            Some((server, tool)) if !server.is_empty() && !tool.is_empty() => match server {
                "hyperhive" => Tool::Hyperhive(tool),
                "bash" => Tool::Bash(tool),
                "matrix" => Tool::Matrix(tool),
                _ => Tool::OtherMcp { server, tool },
            },
            _ => Tool::Plain(name),
        }
    }

    /// The name as the summary prints it, on one line.
    fn short_name(self) -> String {
        let name = match self {
            Tool::Hyperhive(t) | Tool::Bash(t) | Tool::Matrix(t) => Cow::Owned(format!("{t}*")),
            Tool::OtherMcp { server, tool } => Cow::Owned(format!("{server}:{tool}")),
            Tool::Plain(name) => Cow::Borrowed(name),
        };
        let name = one_line(&name, TOOL_NAME_MAX);
        if name.split_whitespace().next().is_none() {
            "tool".to_owned()
        } else {
            name
        }
    }

    fn icon(self) -> &'static str {
        match self {
            Tool::Hyperhive(t) => hive::hyperhive_icon(t),
            Tool::Bash(t) => hive::bash_icon(t),
            Tool::Matrix(t) => hive::matrix_icon(t),
            Tool::OtherMcp { .. } => crate::kind::icon::TOOL,
            Tool::Plain(name) => builtin::icon(name),
        }
    }

    /// The tool's own case, or `None` for the generic form.
    fn format(self, args: Args) -> Option<Out> {
        match self {
            Tool::Hyperhive(t) => hive::hyperhive(t, args),
            Tool::Bash(t) => hive::bash(t, args),
            Tool::Matrix(t) => hive::matrix(t, args),
            Tool::OtherMcp { .. } => None,
            Tool::Plain(name) => builtin::format(name, args),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{bash_row, tool_use_row};
    use crate::msg::{BodyFormat, Level};

    /// `bash_row(c)` is the row of a `Bash` call of `{"command": c}`, for commands of every
    /// form the row tells apart: blank, one line, long, many lines, with whitespace to fold.
    #[test]
    fn a_bash_row_is_the_bash_calls_row() {
        let long = "x".repeat(300);
        let wide = "é ".repeat(150);
        let pieces = [
            "", " ", "ls", "\n", "a\tb", "  c  ", &long, &wide, "\r\n", "$(x)",
        ];
        for a in pieces {
            for b in pieces {
                let cmd = format!("{a}{b}");
                let input = json!({ "command": cmd });
                assert_eq!(bash_row(&cmd), tool_use_row("Bash", &input), "{cmd:?}");
            }
        }
    }

    /// The body a case expects.
    enum B<'a> {
        No,
        Md(&'a str),
        Diff(&'a str),
        Plain(&'a str),
    }
    use B::{Diff, Md, No, Plain};

    /// Emoji are compared without U+FE0F (`docs/FORMATS.md`, "Rows on the wire").
    fn bare(icon: &str) -> String {
        icon.replace('\u{fe0f}', "")
    }

    #[track_caller]
    fn check(name: &str, input: &str, icon: &str, summary: &str, body: B) {
        let value: Value = serde_json::from_str(input).expect("test input is JSON");
        let row = tool_use_row(name, &value);
        let case = format!("{name} {input}");
        assert_eq!(row.level, Level::Info, "{case}");
        assert_eq!(row.coalesce_key, None, "{case}");
        assert_eq!(
            bare(row.icon.as_deref().unwrap_or("")),
            bare(icon),
            "{case}"
        );
        assert_eq!(row.summary, summary, "{case}");
        let (body, format) = match body {
            No => (None, None),
            Md(b) => (Some(b), Some(BodyFormat::Markdown)),
            Diff(b) => (Some(b), Some(BodyFormat::Diff)),
            Plain(b) => (Some(b), None),
        };
        assert_eq!(row.body.as_deref(), body, "{case}");
        assert_eq!(row.body_format, format, "{case}");
    }

    #[test]
    #[rustfmt::skip]
    fn hyperhive_messaging() {
        let h = |t: &str| format!("mcp__hyperhive__{t}");
        check(&h("send"), r#"{"to":"alice","body":"hi\nthere"}"#, "📤", "send* → alice · 2L", Md("hi\nthere"));
        check(&h("send"), r#"{"to":"bob","body":"On it — reviewing PR #7 now."}"#, "📤", "send* → bob · 1L", Md("On it — reviewing PR #7 now."));
        check(&h("send"), r#"{"to":"alice"}"#, "📤", "send* → alice", No);
        check(&h("send"), r#"{"body":"x"}"#, "📤", "send* 1L", Md("x"));
        check(&h("send"), r#"{"to":"alice","body":""}"#, "📤", "send* → alice · 0L", No);
        check(&h("send"), r#"{"to":["a","b"],"body":"x"}"#, "📤", "send* → a, b · 1L", Md("x"));
        check(&h("send"), r#"{"to":"alice","text":"via text"}"#, "📤", "send* → alice · 1L", Md("via text"));
        check(&h("send"), r#"{"to":7,"body":5}"#, "📤", "send* → 7", No);
        check(&h("ask"), r#"{"to":"operator","question":"ship it?"}"#, "❓", "ask* → operator", Md("ship it?"));
        check(&h("ask"), r#"{"to":"operator","body":"ok?"}"#, "❓", "ask* → operator", Md("ok?"));
        check(&h("ask"), r#"{}"#, "❓", "ask*()", No);
        check(&h("answer"), r#"{"id":12,"answer":"yes"}"#, "✍️", "answer* #12", Md("yes"));
        check(&h("answer"), r##"{"id":"#12","body":"no"}"##, "✍️", "answer* #12", Md("no"));
        check(&h("recv"), r#"{}"#, "📥", "recv*()", No);
        check(&h("recv"), r#"{"wait_seconds":30}"#, "📥", "recv* wait 30s", No);
        check(&h("recv"), r#"{"max":5}"#, "📥", "recv* max 5", No);
        check(&h("recv"), r#"{"wait_seconds":30,"max":5}"#, "📥", "recv* wait 30s · max 5", No);
        check(&h("recv"), r#"{"wait_ms":100}"#, "📥", "recv* wait 100ms", No);
        check(&h("recv"), r#"{"wait_ms":30000}"#, "📥", "recv* wait 30s", No);
        check(&h("recv"), r#"{"wait_seconds":"30"}"#, "📥", "recv* wait 30s", No);
        check(&h("recv"), r#"{"wait_seconds":null,"max":"lots"}"#, "📥", "recv*()", No);
        check(&h("recv"), r#"{"wait_seconds":1.5}"#, "📥", "recv* wait 1.5s", No);
    }

    #[test]
    #[rustfmt::skip]
    fn hyperhive_remind_and_status() {
        let h = |t: &str| format!("mcp__hyperhive__{t}");
        let remind = h("remind");
        check(&remind, r#"{"body":"check CI","in_seconds":300}"#, "⏰", r#"remind* +5m "check CI""#, No);
        check(&remind, r#"{"body":"check CI","at":"2026-11-30T14:05:00Z"}"#, "⏰", r#"remind* at 14:05Z "check CI""#, No);
        check(&remind, r#"{"body":"check CI","at":"2026-11-30T15:05:00+01:00"}"#, "⏰", r#"remind* at 14:05Z "check CI""#, No);
        check(&remind, r#"{"in_seconds":600,"text":"check CI again"}"#, "⏰", r#"remind* +10m "check CI again""#, No);
        check(&remind, r#"{"body":"x","in_seconds":90}"#, "⏰", r#"remind* +90s "x""#, No);
        check(&remind, r#"{"body":"x","in_seconds":7200}"#, "⏰", r#"remind* +2h "x""#, No);
        check(&remind, r#"{"body":"x","in_seconds":5400}"#, "⏰", r#"remind* +90m "x""#, No);
        check(&remind, r#"{"body":"x","in_seconds":172800}"#, "⏰", r#"remind* +2d "x""#, No);
        check(&remind, r#"{"body":"x","in_seconds":0}"#, "⏰", r#"remind* +0s "x""#, No);
        check(&remind, r#"{"body":"x","in_seconds":-30}"#, "⏰", r#"remind* -30s "x""#, No);
        check(&remind, r#"{"body":"x","in_seconds":2.5}"#, "⏰", r#"remind* +2.5s "x""#, No);
        check(&remind, r#"{"body":"x","at":1796004921}"#, "⏰", r#"remind* at 02:15Z "x""#, No);
        check(&remind, r#"{"body":"x","at":"tomorrow"}"#, "⏰", r#"remind* at tomorrow "x""#, No);
        check(&remind, r#"{"in_seconds":300}"#, "⏰", "remind* +5m", No);
        check(&remind, r#"{"body":"line one\nline two"}"#, "⏰", r#"remind* "line one line two""#, No);
        let long = format!(r#"{{"body":"{}","in_seconds":60}}"#, "y".repeat(70));
        check(&remind, &long, "⏰", &format!("remind* +1m \"{}…\"", "y".repeat(60)), No);
        let set = h("set_status");
        check(&set, r#"{"text":"building"}"#, "🏷️", r#"set_status* "building""#, No);
        check(&set, r#"{"status":"reviewing PR #7 🔍"}"#, "🏷️", r#"set_status* "reviewing PR #7 🔍""#, No);
        check(&set, r#"{"text":"a\n\nb"}"#, "🏷️", r#"set_status* "a b""#, No);
        check(&set, r#"{}"#, "🏷️", "set_status*()", No);
    }

    #[test]
    #[rustfmt::skip]
    fn hyperhive_loose_ends_and_meta() {
        let h = |t: &str| format!("mcp__hyperhive__{t}");
        check(&h("get_loose_ends"), r#"{}"#, "🪢", "get_loose_ends*()", No);
        check(&h("get_loose_ends"), r#"{"agent":"bob"}"#, "🪢", "get_loose_ends* bob", No);
        check(&h("get_agent_meta"), r#"{}"#, "ℹ️", "get_agent_meta*()", No);
        check(&h("get_agent_meta"), r#"{"name":"bob"}"#, "ℹ️", "get_agent_meta* bob", No);
        check(&h("cancel_loose_end"), r#"{"kind":"question","id":12}"#, "✂️", "cancel_loose_end* question #12", No);
        check(&h("cancel_loose_end"), r#"{"kind":"question"}"#, "✂️", "cancel_loose_end* question", No);
        check(&h("cancel_loose_end"), r#"{"id":"12"}"#, "✂️", "cancel_loose_end* #12", No);
        check(&h("ack_until"), r#"{"seq":42}"#, "✅", "ack_until* ≤42", No);
        check(&h("ack_until"), r#"{}"#, "✅", "ack_until*()", No);
        let done = h("mark_todos_done");
        check(&done, r#"{"ids":[1,2,3]}"#, "🔧", "mark_todos_done* [1, 2, 3]", No);
        check(&done, r#"{"ids":[1,2,3,4,5,6,7,8]}"#, "🔧", "mark_todos_done* [1, 2, 3, 4, 5, 6, 7, 8]", No);
        check(&done, r#"{"ids":[1,2,3,4,5,6,7,8,9,10]}"#, "🔧", "mark_todos_done* [1, 2, 3, 4, 5, 6, 7, 8, …]", No);
        check(&done, r#"{"ids":["a",{"x":1},[1,2],null]}"#, "🔧", "mark_todos_done* [a, {…}, [2], null]", No);
        check(&done, r#"{"ids":[]}"#, "🔧", "mark_todos_done* []", No);
        check(&done, r#"{"ids":7}"#, "🔧", "mark_todos_done* [7]", No);
        check(&done, r#"{}"#, "🔧", "mark_todos_done*()", No);
    }

    #[test]
    #[rustfmt::skip]
    fn hyperhive_lifecycle_and_config() {
        let h = |t: &str| format!("mcp__hyperhive__{t}");
        check(&h("kill"), r#"{"name":"bob"}"#, "⏹️", "kill* bob", No);
        check(&h("restart"), r#"{"name":"bob"}"#, "↻", "restart* bob", No);
        check(&h("start"), r#"{"name":"bob"}"#, "▶️", "start* bob", No);
        check(&h("update"), r#"{"name":"bob"}"#, "🔄", "update* bob", No);
        check(&h("kill"), r#"{}"#, "⏹️", "kill*()", No);
        check(&h("get_logs"), r#"{"name":"bob"}"#, "📜", "get_logs* bob", No);
        check(&h("get_logs"), r#"{"name":"bob","lines":50}"#, "📜", "get_logs* bob 50L", No);
        let journal = h("get_host_journal");
        check(&journal, r#"{}"#, "📜", "get_host_journal*()", No);
        check(&journal, r#"{"container":"h-bob","grep":"panic","lines":100}"#, "📜", "get_host_journal* h-bob · /panic/ · 100L", No);
        check(&journal, r#"{"container":"h-bob"}"#, "📜", "get_host_journal* h-bob", No);
        check(&journal, r#"{"grep":"panic"}"#, "📜", "get_host_journal* /panic/", No);
        check(&journal, r#"{"lines":100}"#, "📜", "get_host_journal* 100L", No);
        check(&journal, r#"{"container":"h-bob","lines":100}"#, "📜", "get_host_journal* h-bob · 100L", No);
        check(&h("request_init_config"), r#"{"name":"bob"}"#, "📦", "request_init_config* bob", No);
        let meta = h("request_update_meta_inputs");
        check(&meta, r#"{"inputs":["a","b"]}"#, "📦", "request_update_meta_inputs* [a, b]", No);
        check(&meta, r#"{}"#, "📦", "request_update_meta_inputs* all", No);
        check(&meta, r#"{"inputs":null}"#, "📦", "request_update_meta_inputs* all", No);
        check(&meta, r#"{"inputs":"all"}"#, "📦", "request_update_meta_inputs* all", No);
        check(&meta, r#"{"inputs":{"a":1}}"#, "📦", "request_update_meta_inputs*()", No);
        check(&h("list_containers"), r#"{}"#, "📋", "list_containers*()", No);
    }

    #[test]
    #[rustfmt::skip]
    fn hyperhive_scheduling() {
        let h = |t: &str| format!("mcp__hyperhive__{t}");
        check(&h("list_schedules"), r#"{}"#, "⏱️", "list_schedules*()", No);
        check(&h("list_schedules"), r#"{"agent":"bob"}"#, "⏱️", r#"list_schedules* agent: "bob""#, No);
        check(&h("cancel_schedule"), r#"{"id":3}"#, "⏱️", "cancel_schedule* #3 all", No);
        check(&h("cancel_schedule"), r#"{"id":3,"targets":["a","b"]}"#, "⏱️", "cancel_schedule* #3 [a, b]", No);
        check(&h("fire_schedule_now"), r#"{"id":3}"#, "⏱️", "fire_schedule_now* #3", No);
        let edit = h("edit_schedule");
        check(&edit, r#"{"id":3,"body":"x","interval_seconds":60,"next_at":"2026-01-01T00:00:00Z","add_targets":["a"],"remove_targets":["b","c"]}"#, "⏱️", "edit_schedule* #3 · body · interval · next · +1 tgt · -2 tgt", No);
        check(&edit, r#"{"id":3}"#, "⏱️", "edit_schedule* #3", No);
        check(&edit, r#"{"id":3,"interval_seconds":60}"#, "⏱️", "edit_schedule* #3 · interval", No);
        check(&edit, r#"{"id":3,"add_targets":["a","b"]}"#, "⏱️", "edit_schedule* #3 · +2 tgt", No);
        check(&edit, r#"{"id":3,"body":null,"add_targets":[]}"#, "⏱️", "edit_schedule* #3", No);
        check(&edit, r#"{"body":"x"}"#, "⏱️", "edit_schedule* body", No);
        let prompt = h("request_schedule_prompt");
        check(&prompt, r#"{"targets":["a","b"],"at":"2026-11-30T09:00:00Z","body":"standup"}"#, "📦", "request_schedule_prompt* → a, b at 09:00Z", No);
        check(&prompt, r#"{"targets":["a","b"],"at":"2026-11-30T09:00:00Z","interval_seconds":86400,"body":"standup"}"#, "📦", "request_schedule_prompt* → a, b at 09:00Z +86400s", No);
        check(&prompt, r#"{"targets":["a"],"at":"2026-11-30T09:00:00Z","interval_seconds":0}"#, "📦", "request_schedule_prompt* → a at 09:00Z", No);
        check(&prompt, r#"{"at":"2026-11-30T09:00:00Z"}"#, "📦", "request_schedule_prompt* at 09:00Z", No);
        check(&h("request_something_new"), r#"{}"#, "📦", "request_something_new*()", No);
        check(&h("pause_schedule"), r#"{"id":3}"#, "⏱️", "pause_schedule* id: 3", No);
        check(&h("brand_new"), r#"{"x":"y"}"#, "🔧", r#"brand_new* x: "y""#, No);
    }

    #[test]
    #[rustfmt::skip]
    fn bash_mcp() {
        let run = "mcp__bash__run";
        check(run, r#"{"cmd":"cargo test"}"#, "🖥️", "run* $ cargo test", No);
        check(run, r#"{"cmd":"cargo test","background":true}"#, "🖥️", "run* [bg] $ cargo test", No);
        check(run, r#"{"cmd":"cargo test","background":false}"#, "🖥️", "run* $ cargo test", No);
        check(run, r#"{"command":"ls"}"#, "🖥️", "run* $ ls", No);
        check(run, r#"{"cmd":"cd x\ncargo test"}"#, "🖥️", "run* $ cd x …", Plain("cd x\ncargo test"));
        let long = "a".repeat(121);
        check(run, &json!({ "cmd": long }).to_string(), "🖥️", &format!("run* $ {}…", "a".repeat(120)), Plain(&long));
        let edge = "a".repeat(120);
        check(run, &json!({ "cmd": edge }).to_string(), "🖥️", &format!("run* $ {edge}"), No);
        check(run, r#"{"cmd":"  cargo test\n"}"#, "🖥️", "run* $ cargo test", No);
        check(run, r#"{"background":true}"#, "🖥️", "run* [bg]", No);
        check(run, r#"{"cmd":""}"#, "🖥️", "run*()", No);
        check(run, r#"{"cmd":42}"#, "🖥️", "run*()", No);
        check("mcp__bash__status", r#"{"id":"xyz"}"#, "🖥️", "status* id:xyz", No);
        check("mcp__bash__status", r#"{"id":"j-1001"}"#, "🖥️", "status* id:j-1001", No);
        check("mcp__bash__status", r#"{"id":"xyz","wait_seconds":10}"#, "🖥️", "status* id:xyz · wait 10s", No);
        check("mcp__bash__status", r#"{"id":"xyz","wait_ms":2500}"#, "🖥️", "status* id:xyz · wait 2500ms", No);
        check("mcp__bash__kill", r#"{"id":"xyz"}"#, "🛑", "kill* xyz", No);
        check("mcp__bash__kill", r#"{"id":"xyz","force":true}"#, "🛑", "kill* xyz [force]", No);
        check("mcp__bash__kill", r#"{"id":"j-9999","force":false}"#, "🛑", "kill* j-9999", No);
        check("mcp__bash__list", r#"{}"#, "🖥️", "list*()", No);
    }

    #[test]
    #[rustfmt::skip]
    fn matrix_mcp() {
        let m = |t: &str| format!("mcp__matrix__{t}");
        check(&m("send_message"), r##"{"room":"#ops","body":"hi"}"##, "💬", r##"send_message* → #ops: "hi""##, No);
        check(&m("send_message"), r#"{"room":"!dev:example.org","body":"Build is green ✅"}"#, "💬", r#"send_message* → !dev:example.org: "Build is green ✅""#, No);
        check(&m("send_reply"), r##"{"room":"#ops","body":"hi","event_id":"$e"}"##, "💬", r##"send_reply* → #ops: "hi""##, No);
        check(&m("send_message"), r##"{"room":"#ops"}"##, "💬", "send_message* → #ops", No);
        check(&m("send_message"), r#"{"body":"a\nb"}"#, "💬", r#"send_message* "a b""#, No);
        check(&m("send_dm"), r#"{"user":"@bob:hs","body":"hi"}"#, "💬", r#"send_dm* → @bob:hs: "hi""#, No);
        check(&m("send_reaction"), r##"{"room":"#ops","event_id":"$e","emoji":"👍"}"##, "🔧", "send_reaction* #ops 👍", No);
        check(&m("read_room"), r##"{"room":"#ops"}"##, "📖", "read_room* #ops", No);
        check(&m("read_room"), r##"{"room":"#ops","limit":20}"##, "📖", "read_room* #ops [20]", No);
        check(&m("mark_read"), r##"{"room":"#ops"}"##, "👁️", "mark_read* #ops", No);
        check(&m("join_room"), r##"{"room":"#ops"}"##, "🔧", "join_room* #ops", No);
        check(&m("open_dm"), r#"{"user":"@bob:hs"}"#, "🔧", "open_dm* @bob:hs", No);
        check(&m("invite_user"), r##"{"user":"@bob:hs","room":"#ops"}"##, "🔧", "invite_user* @bob:hs → #ops", No);
        check(&m("list_rooms"), r#"{}"#, "📋", "list_rooms*()", No);
        check(&m("list_room_members"), r##"{"room":"#ops"}"##, "📋", "list_room_members* #ops", No);
        check(&m("list_invites"), r#"{}"#, "📋", "list_invites*()", No);
        check(&m("download_file"), r##"{"room":"#ops","event_id":"$e"}"##, "🔧", "download_file* #ops", No);
        check(&m("leave_room"), r##"{"room":"#ops"}"##, "🔧", r##"leave_room* room: "#ops""##, No);
    }

    #[test]
    #[rustfmt::skip]
    fn builtins_of_the_seeds() {
        let p = "/home/dev/work/file_tools";
        check("Read", &format!(r#"{{"file_path":"{p}/README.md"}}"#), "📖", &format!("Read {p}/README.md"), No);
        check("Read", &format!(r#"{{"file_path":"{p}/docs/big.log","offset":100,"limit":5}}"#), "📖", &format!("Read {p}/docs/big.log · from 100 · 5L"), No);
        check("Read", r#"{"file_path":"/a/lib.rs","limit":5}"#, "📖", "Read /a/lib.rs · 5L", No);
        check("Read", r#"{"file_path":"/a/doc.pdf","pages":"1-3"}"#, "📖", "Read /a/doc.pdf · pages 1-3", No);
        check("Read", r#"{"path":"/a/README.md"}"#, "📖", "Read /a/README.md", No);
        check("Read", r#"{}"#, "📖", "Read()", No);
        check("Write", r##"{"file_path":"/a/CHANGELOG.md","content":"# Changelog\n\n- x\n"}"##, "📝", "Write /a/CHANGELOG.md", No);
        check("Write", r#"{"content":"x"}"#, "📝", "Write()", No);
        check("Edit", r#"{"replace_all":false,"file_path":"/a/lib.rs","old_string":"/// Multiplies.","new_string":"/// Subtracts.\npub fn sub() {}\n\n/// Multiplies."}"#, "✏️", "Edit /a/lib.rs · -1 +4", Diff("-/// Multiplies.\n+/// Subtracts.\n+pub fn sub() {}\n+\n+/// Multiplies."));
        check("Edit", r#"{"file_path":"/a/main.rs","old_string":"let a = 2;","new_string":"let a = 20;"}"#, "✏️", "Edit /a/main.rs · -1 +1", Diff("-let a = 2;\n+let a = 20;"));
        check("Edit", r#"{"file_path":"/a/x","old_string":"","new_string":"a\nb\n"}"#, "✏️", "Edit /a/x · +2", Diff("+a\n+b"));
        check("Edit", r#"{"file_path":"/a/x","old_string":"a\nb","new_string":""}"#, "✏️", "Edit /a/x · -2 +0", Diff("-a\n-b"));
        check("Edit", r#"{"file_path":"/a/x","old_string":"a","new_string":"b","replace_all":true}"#, "✏️", "Edit /a/x · -1 +1 [all]", Diff("-a\n+b"));
        check("Edit", r#"{"file_path":"/a/x","old_string":"a\r\nb\r\n","new_string":"c"}"#, "✏️", "Edit /a/x · -2 +1", Diff("-a\n-b\n+c"));
        check("Edit", r#"{"file_path":"/a/x","old_string":"\n","new_string":"x"}"#, "✏️", "Edit /a/x · -1 +1", Diff("-\n+x"));
        check("Edit", r#"{"file_path":"/a/x","old_string":"","new_string":""}"#, "✏️", "Edit /a/x · +0", No);
        check("Edit", r#"{"file_path":"/a/x"}"#, "✏️", "Edit /a/x", No);
        check("Edit", r#"{"old_string":"a","new_string":"b"}"#, "✏️", "Edit -1 +1", Diff("-a\n+b"));
        check("Glob", r#"{"pattern":"**/*.rs"}"#, "📂", "Glob **/*.rs", No);
        check("Glob", r#"{"pattern":"*.md","path":"/a/docs"}"#, "📂", "Glob *.md in /a/docs", No);
        check("Grep", r#"{"pattern":"fn ","output_mode":"files_with_matches"}"#, "🔍", "Grep fn", No);
        check("Grep", r#"{"pattern":"TODO","output_mode":"content","-n":true}"#, "🔍", "Grep TODO", No);
        check("Grep", r#"{"pattern":"ERROR","path":"/a/docs","output_mode":"count"}"#, "🔍", "Grep ERROR in /a/docs", No);
        check("Grep", r#"{"pattern":"ERROR","glob":"*.log"}"#, "🔍", "Grep ERROR · *.log", No);
        check("Bash", r#"{"command":"echo ok","description":"Echo"}"#, "🖥️", "Bash $ echo ok", No);
        check("Bash", r#"{"command":"sleep 30","description":"Times out","timeout":1500}"#, "🖥️", "Bash $ sleep 30", No);
        check("Bash", r#"{"command":"npm run dev","run_in_background":true}"#, "🖥️", "Bash [bg] $ npm run dev", No);
        check("Bash", r#"{"command":"set -e\nmake"}"#, "🖥️", "Bash $ set -e …", Plain("set -e\nmake"));
        check("TodoWrite", r#"{"todos":[{"content":"x","status":"pending","activeForm":"x"}]}"#, "🗒️", "TodoWrite (1 item)", No);
        check("TodoWrite", r#"{"todos":[{},{},{}]}"#, "🗒️", "TodoWrite (3 items)", No);
        check("TodoWrite", r#"{"todos":"x"}"#, "🗒️", "TodoWrite()", No);
    }

    #[test]
    #[rustfmt::skip]
    fn builtins_beyond_the_seeds() {
        check("Agent", r#"{"description":"Survey the repo","subagent_type":"general-purpose","prompt":"read README.md"}"#, "🤖", "Agent Survey the repo [general-purpose]", Md("read README.md"));
        check("Task", r#"{"description":"Survey","prompt":"p"}"#, "🤖", "Task Survey", Md("p"));
        check("Agent", r#"{"prompt":"do the\nthing","run_in_background":true}"#, "🤖", "Agent [bg] do the thing", Md("do the\nthing"));
        check("WebFetch", r#"{"url":"http://127.0.0.1:8765/page","prompt":"what is the answer?"}"#, "🌐", "WebFetch http://127.0.0.1:8765/page", No);
        check("WebSearch", r#"{"query":"rust serde preserve_order"}"#, "🔎", r#"WebSearch "rust serde preserve_order""#, No);
        check("MultiEdit", r#"{"file_path":"/a/x","edits":[{"old_string":"a","new_string":"b"},{"old_string":"","new_string":"c\nd","replace_all":true}]}"#, "✏️", "MultiEdit /a/x · 2 edits · -1 +3", Diff("-a\n+b\n+c\n+d"));
        check("MultiEdit", r#"{"file_path":"/a/x","edits":[{"old_string":"a","new_string":"b"}]}"#, "✏️", "MultiEdit /a/x · 1 edit · -1 +1", Diff("-a\n+b"));
        check("MultiEdit", r#"{"file_path":"/a/x","edits":[null, 3, {"old_string":7}]}"#, "✏️", "MultiEdit /a/x · 3 edits · -0 +0", No);
        check("MultiEdit", r#"{"file_path":"/a/x"}"#, "✏️", "MultiEdit /a/x", No);
        check("NotebookEdit", r#"{"notebook_path":"/a/n.ipynb","new_source":"x","edit_mode":"insert","cell_id":"c1"}"#, "📓", "NotebookEdit /a/n.ipynb · insert · cell c1", No);
        check("NotebookEdit", r#"{"notebook_path":"/a/n.ipynb","new_source":"x"}"#, "📓", "NotebookEdit /a/n.ipynb", No);
        check("TaskCreate", r#"{"subject":"Add subtraction","description":"Add a sub() function","activeForm":"Adding"}"#, "🗒️", r#"TaskCreate "Add subtraction""#, No);
        check("TaskUpdate", r#"{"taskId":"1","status":"in_progress"}"#, "🗒️", "TaskUpdate #1 → in_progress", No);
        check("TaskUpdate", r#"{"taskId":"1","subject":"Renamed","owner":"bob"}"#, "🗒️", r#"TaskUpdate #1 "Renamed" · owner bob"#, No);
        check("TaskGet", r#"{"taskId":"3"}"#, "🗒️", "TaskGet #3", No);
        check("TaskList", r#"{}"#, "🗒️", "TaskList()", No);
        check("TaskStop", r#"{"task_id":"b7x"}"#, "🛑", "TaskStop b7x", No);
        check("TaskOutput", r#"{"task_id":"b7x","block":true}"#, "🖥️", "TaskOutput b7x", No);
        check("KillShell", r#"{"shell_id":"s1"}"#, "🛑", "KillShell s1", No);
        check("BashOutput", r#"{"bash_id":"s1"}"#, "🖥️", "BashOutput s1", No);
        check("ToolSearch", r#"{"query":"select:mcp__hyperhive__send,mcp__hyperhive__recv,mcp__hyperhive__remind,mcp__bash__run"}"#, "🧰", r#"ToolSearch "select:mcp__hyperhive__send,mcp__hyperhive__recv,mcp__hyperh…""#, No);
        check("Skill", r#"{"skill":"pdf"}"#, "🧩", "Skill pdf", No);
        check("Skill", r#"{"skill":"review","args":"--fast"}"#, "🧩", r#"Skill review "--fast""#, No);
        check("SlashCommand", r#"{"command":"/compact"}"#, "🧩", "SlashCommand /compact", No);
        check("SendMessage", r#"{"to":"researcher","message":"look at\nthis","summary":"s"}"#, "📤", "SendMessage → researcher · 2L", Md("look at\nthis"));
        check("SendMessage", r#"{"recipient":"lead","content":"done"}"#, "📤", "SendMessage → lead · 1L", Md("done"));
        check("SendMessage", r#"{"to":"lead","message":{"type":"shutdown_request"}}"#, "📤", "SendMessage → lead", No);
        check("ScheduleWakeup", r#"{"delaySeconds":1200,"reason":"wait for CI","prompt":"/loop check"}"#, "⏰", r#"ScheduleWakeup +20m "wait for CI""#, No);
        check("ScheduleWakeup", r#"{"delaySeconds":90,"prompt":"/loop check"}"#, "⏰", r#"ScheduleWakeup +90s "/loop check""#, No);
        check("CronCreate", r#"{"cron":"*/5 * * * *","prompt":"check the deploy"}"#, "⏱️", r#"CronCreate */5 * * * * "check the deploy""#, No);
        check("CronCreate", r#"{"cron":"30 14 28 2 *","prompt":"p","recurring":false,"durable":true}"#, "⏱️", r#"CronCreate 30 14 28 2 * "p" [once] [durable]"#, No);
        check("CronDelete", r#"{"id":"a1b2c3d4"}"#, "⏱️", "CronDelete a1b2c3d4", No);
        check("CronList", r#"{}"#, "⏱️", "CronList()", No);
        check("EnterWorktree", r#"{"name":"feature-x"}"#, "🌿", "EnterWorktree feature-x", No);
        check("EnterWorktree", r#"{}"#, "🌿", "EnterWorktree()", No);
        check("ExitWorktree", r#"{"action":"remove","discard_changes":true}"#, "🌿", "ExitWorktree remove [discard]", No);
        check("Monitor", r#"{"command":"tail -f server.log","description":"watch for 5xx"}"#, "📡", "Monitor $ tail -f server.log", No);
        check("Monitor", r#"{"description":"watch CI"}"#, "📡", r#"Monitor "watch CI""#, No);
        check("Monitor", r#"{"timeout_ms":5}"#, "📡", "Monitor timeout_ms: 5", No);
        check("ListAgents", r#"{}"#, "📋", "ListAgents()", No);
        check("Workflow", r#"{"name":"release","inputs":{}}"#, "🔀", "Workflow release", No);
        check("Workflow", r#"{"steps":[1,2]}"#, "🔀", "Workflow steps: [2]", No);
        check("ReportFindings", r#"{"findings":[{},{}],"summary":"two bugs"}"#, "📑", r#"ReportFindings findings: [2], summary: "two bugs""#, No);
        check("AskUserQuestion", r#"{"questions":[{"question":"Which DB?","header":"DB","options":[]}]}"#, "❓", r#"AskUserQuestion "Which DB?""#, No);
        check("AskUserQuestion", r#"{"questions":[{"question":"A?"},{"question":"B?"},{"question":"C?"}]}"#, "❓", r#"AskUserQuestion "A?" (+2 more)"#, No);
        check("AskUserQuestion", r#"{"questions":[]}"#, "❓", "AskUserQuestion questions: [0]", No);
        check("ExitPlanMode", "{\"plan\":\"# Plan\\n1. x\\n2. y\"}", "🗺️", "ExitPlanMode plan · 3L", Md("# Plan\n1. x\n2. y"));
        check("EnterPlanMode", r#"{}"#, "🗺️", "EnterPlanMode()", No);
        check("LSP", r#"{"operation":"goToDefinition","filePath":"/a/lib.rs","line":12,"character":5}"#, "🧭", "LSP goToDefinition /a/lib.rs:12:5", No);
        check("ListMcpResourcesTool", r#"{"server":"docs"}"#, "📋", "ListMcpResourcesTool docs", No);
        check("ListMcpResourcesTool", r#"{}"#, "📋", "ListMcpResourcesTool()", No);
        check("ReadMcpResourceTool", r#"{"server":"docs","uri":"docs://a"}"#, "📖", "ReadMcpResourceTool docs docs://a", No);
        check("NotebookRead", r#"{"notebook_path":"/a/n.ipynb"}"#, "📖", "NotebookRead /a/n.ipynb", No);
    }

    #[test]
    #[rustfmt::skip]
    fn names_and_other_mcp_servers() {
        check("mcp__github__create_issue", r#"{"title":"bug"}"#, "🔧", r#"github:create_issue title: "bug""#, No);
        check("mcp__plugin_x_y__do__thing", r#"{}"#, "🔧", "plugin_x_y:do__thing()", No);
        // Another server's `send` is not hyperhive's.
        check("mcp__other__send", r#"{"to":"a","body":"b"}"#, "🔧", r#"other:send to: "a", body: "b""#, No);
        check("mcp__", r#"{}"#, "🔧", "mcp__()", No);
        check("mcp__hyperhive__", r#"{}"#, "🔧", "mcp__hyperhive__()", No);
        check("mcp__solo", r#"{"a":1}"#, "🔧", "mcp__solo a: 1", No);
        check("SomeNewTool", r#"{"a":1}"#, "🔧", "SomeNewTool a: 1", No);
        check("", r#"{}"#, "🔧", "tool()", No);
        check("two\nlines", r#"{}"#, "🔧", "two lines()", No);
        check("read", r#"{"file_path":"/a"}"#, "🔧", r#"read file_path: "/a""#, No);
    }

    #[test]
    #[rustfmt::skip]
    fn generic_fallback() {
        check("X", r#"{}"#, "🔧", "X()", No);
        check("X", r#"{"k":"v"}"#, "🔧", r#"X k: "v""#, No);
        check("X", r#"{"k":3}"#, "🔧", "X k: 3", No);
        check("X", r#"{"k":-1.5}"#, "🔧", "X k: -1.5", No);
        check("X", r#"{"k":true}"#, "🔧", "X k: true", No);
        check("X", r#"{"k":null}"#, "🔧", "X k: null", No);
        check("X", r#"{"k":[1,2,3]}"#, "🔧", "X k: [3]", No);
        check("X", r#"{"k":{"deep":{"er":1}}}"#, "🔧", "X k: {…}", No);
        check("X", r#"{"z":"1","a":2,"m":[],"b":{}}"#, "🔧", r#"X z: "1", a: 2, m: [0], b: {…}"#, No);
        check("X", r#"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}"#, "🔧", "X a: 1, b: 2, c: 3, d: 4 …+2", No);
        check("X", r#"{"k":"line\none\ttab"}"#, "🔧", r#"X k: "line one tab""#, No);
        let long = "w".repeat(61);
        check("X", &json!({ "k": long }).to_string(), "🔧", &format!("X k: \"{}…\"", "w".repeat(60)), No);
        let key = "k".repeat(41);
        check("X", &json!({ key: 1 }).to_string(), "🔧", &format!("X {}…: 1", "k".repeat(40)), No);
        check("X", r#"{"a\nb":1}"#, "🔧", "X a b: 1", No);
    }

    #[test]
    fn non_object_input_prints_the_name_alone() {
        for input in ["null", "\"text\"", "42", "true", "[1,2]"] {
            check("mcp__hyperhive__send", input, "📤", "send*", No);
            check("Edit", input, "✏️", "Edit", No);
            check("mcp__x__y", input, "🔧", "x:y", No);
        }
    }

    #[test]
    #[rustfmt::skip]
    fn wrong_types_drop_their_part() {
        check("Read", r#"{"file_path":["a"],"offset":"ten","limit":{}}"#, "📖", "Read()", No);
        check("Read", r#"{"file_path":12}"#, "📖", "Read 12", No);
        check("Edit", r#"{"file_path":"/x","old_string":1,"new_string":null}"#, "✏️", "Edit /x", No);
        check("mcp__hyperhive__remind", r#"{"body":["x"],"in_seconds":"soon","at":{}}"#, "⏰", "remind*()", No);
        check("mcp__hyperhive__remind", r#"{"body":"x","in_seconds":1e300}"#, "⏰", r#"remind* +1e300s "x""#, No);
        check("mcp__hyperhive__get_logs", r#"{"name":{"a":1},"lines":"50"}"#, "📜", "get_logs* 50L", No);
        check("mcp__hyperhive__set_status", r#"{"text":"   ","status":"idle"}"#, "🏷️", r#"set_status* "idle""#, No);
        check("mcp__hyperhive__cancel_schedule", r#"{"id":3,"targets":{"a":1}}"#, "⏱️", "cancel_schedule* #3", No);
        check("mcp__bash__kill", r#"{"id":"x","force":"true"}"#, "🛑", "kill* x [force]", No);
        check("mcp__bash__kill", r#"{"id":"x","force":"no"}"#, "🛑", "kill* x", No);
        check("mcp__hyperhive__send", r#"{"to":{"name":"a"},"body":"b"}"#, "📤", "send* 1L", Md("b"));
        check("TodoWrite", r#"{"todos":null}"#, "🗒️", "TodoWrite()", No);
        check("AskUserQuestion", r#"{"questions":[{"question":5}]}"#, "❓", "AskUserQuestion questions: [1]", No);
    }

    /// Every tool's row reads back as a tool call naming the tool as its summary prints it
    /// (so [`crate::kind::icon::TOOLS`] holds every icon these functions can return), with
    /// and without arguments.
    #[test]
    fn every_tool_row_is_a_tool_call() {
        use crate::kind::{RowKind, row_kind, tool_of};
        let builtin = [
            "Read",
            "NotebookRead",
            "ReadMcpResourceTool",
            "Edit",
            "MultiEdit",
            "Write",
            "NotebookEdit",
            "Glob",
            "Grep",
            "Bash",
            "BashOutput",
            "TaskOutput",
            "PowerShell",
            "KillShell",
            "KillBash",
            "TaskStop",
            "TodoWrite",
            "TaskCreate",
            "TaskUpdate",
            "TaskGet",
            "TaskList",
            "Agent",
            "Task",
            "WebFetch",
            "WebSearch",
            "ToolSearch",
            "Skill",
            "SlashCommand",
            "SendMessage",
            "ScheduleWakeup",
            "CronCreate",
            "CronDelete",
            "CronList",
            "EnterWorktree",
            "ExitWorktree",
            "Monitor",
            "ListAgents",
            "ListMcpResourcesTool",
            "Workflow",
            "ReportFindings",
            "AskUserQuestion",
            "EnterPlanMode",
            "ExitPlanMode",
            "LSP",
            "SomethingNew",
        ];
        let hive = [
            "send",
            "recv",
            "ask",
            "answer",
            "remind",
            "set_status",
            "get_loose_ends",
            "cancel_loose_end",
            "get_agent_meta",
            "ack_until",
            "get_logs",
            "get_host_journal",
            "restart",
            "kill",
            "start",
            "update",
            "list_containers",
            "request_spawn",
            "list_schedules",
            "something_new",
        ];
        let bash = ["run", "kill", "other"];
        let matrix = [
            "send_message",
            "send_reply",
            "send_dm",
            "read_room",
            "mark_read",
            "list_rooms",
            "list_room_members",
            "list_invites",
            "other",
        ];
        let mut calls: Vec<(String, String)> = builtin
            .iter()
            .map(|n| (n.to_string(), n.to_string()))
            .collect();
        calls.extend(
            hive.iter()
                .map(|t| (format!("mcp__hyperhive__{t}"), format!("{t}*"))),
        );
        calls.extend(
            bash.iter()
                .map(|t| (format!("mcp__bash__{t}"), format!("{t}*"))),
        );
        calls.extend(
            matrix
                .iter()
                .map(|t| (format!("mcp__matrix__{t}"), format!("{t}*"))),
        );
        calls.push((
            "mcp__github__create_issue".into(),
            "github:create_issue".into(),
        ));
        calls.push(("mcp__".into(), "mcp__".into()));
        for (name, shown) in &calls {
            for input in [
                json!({}),
                json!({"file_path": "a", "command": "ls", "x": 1}),
                json!(7),
            ] {
                let row = tool_use_row(name, &input);
                assert_eq!(row_kind(&row), RowKind::ToolCall, "{name} {input}: {row:?}");
                assert_eq!(
                    tool_of(&row),
                    Some(shown.as_str()),
                    "{name} {input}: {row:?}"
                );
            }
        }
    }

    /// The design notes write some icons with U+FE0F; rows carry them the same way.
    #[test]
    fn icons_keep_the_seeds_variation_selectors() {
        let icon = |name: &str| tool_use_row(name, &json!({})).icon.unwrap_or_default();
        assert_eq!(icon("mcp__hyperhive__set_status"), "🏷\u{fe0f}");
        assert_eq!(icon("mcp__hyperhive__cancel_loose_end"), "✂\u{fe0f}");
        assert_eq!(icon("mcp__hyperhive__get_agent_meta"), "ℹ\u{fe0f}");
        assert_eq!(icon("mcp__hyperhive__kill"), "⏹\u{fe0f}");
        assert_eq!(icon("mcp__hyperhive__start"), "▶\u{fe0f}");
        assert_eq!(icon("mcp__hyperhive__list_schedules"), "⏱\u{fe0f}");
        assert_eq!(icon("mcp__hyperhive__answer"), "✍\u{fe0f}");
        assert_eq!(icon("mcp__bash__run"), "🖥\u{fe0f}");
        assert_eq!(icon("mcp__matrix__mark_read"), "👁\u{fe0f}");
        assert_eq!(icon("Edit"), "✏\u{fe0f}");
        assert_eq!(icon("mcp__hyperhive__restart"), "↻");
    }

    /// Odd values in every argument of every tool: no panic, one info row, one short line.
    #[test]
    fn survives_odd_inputs() {
        let mut deep = json!("bottom");
        for _ in 0..300 {
            deep = json!({ "k": deep, "n": 1 });
        }
        let huge = "x\n".repeat(20_000);
        let odd = [
            Value::Null,
            json!(true),
            json!(0),
            json!(-1),
            json!(-1.5e-300),
            json!(u64::MAX),
            json!(i64::MIN),
            json!(f64::MAX),
            json!(""),
            json!(" \n\t "),
            json!("#"),
            json!("\u{1b}[31mred\u{1b}[0m\r\n"),
            json!(huge),
            json!([]),
            json!([null, [], {}, huge]),
            json!({}),
            deep,
        ];
        let names = [
            "send",
            "ask",
            "answer",
            "recv",
            "remind",
            "set_status",
            "get_loose_ends",
            "get_agent_meta",
            "cancel_loose_end",
            "ack_until",
            "mark_todos_done",
            "kill",
            "restart",
            "start",
            "update",
            "get_logs",
            "get_host_journal",
            "request_init_config",
            "request_update_meta_inputs",
            "list_schedules",
            "cancel_schedule",
            "fire_schedule_now",
            "edit_schedule",
            "request_schedule_prompt",
            "list_containers",
        ]
        .iter()
        .map(|t| format!("mcp__hyperhive__{t}"))
        .chain(
            ["run", "status", "kill"]
                .iter()
                .map(|t| format!("mcp__bash__{t}")),
        )
        .chain(
            [
                "send_message",
                "send_reply",
                "send_dm",
                "send_reaction",
                "read_room",
                "mark_read",
                "join_room",
                "open_dm",
                "invite_user",
                "list_rooms",
                "list_room_members",
                "list_invites",
                "download_file",
            ]
            .iter()
            .map(|t| format!("mcp__matrix__{t}")),
        )
        .chain(
            [
                "Read",
                "Write",
                "Edit",
                "MultiEdit",
                "Glob",
                "Grep",
                "Bash",
                "TodoWrite",
                "Agent",
                "Task",
                "WebFetch",
                "WebSearch",
                "NotebookEdit",
                "NotebookRead",
                "TaskCreate",
                "TaskUpdate",
                "TaskGet",
                "TaskList",
                "TaskStop",
                "TaskOutput",
                "KillShell",
                "BashOutput",
                "ToolSearch",
                "Skill",
                "SlashCommand",
                "SendMessage",
                "ScheduleWakeup",
                "CronCreate",
                "CronDelete",
                "CronList",
                "EnterWorktree",
                "ExitWorktree",
                "Monitor",
                "ListAgents",
                "Workflow",
                "ReportFindings",
                "AskUserQuestion",
                "ExitPlanMode",
                "EnterPlanMode",
                "LSP",
                "ListMcpResourcesTool",
                "ReadMcpResourceTool",
                "mcp__x__y",
                "Unknown",
            ]
            .iter()
            .map(|t| t.to_string()),
        )
        .collect::<Vec<_>>();
        let keys = [
            "to",
            "recipient",
            "body",
            "text",
            "message",
            "content",
            "question",
            "answer",
            "id",
            "question_id",
            "wait_seconds",
            "wait_ms",
            "max",
            "in_seconds",
            "at",
            "status",
            "agent",
            "name",
            "kind",
            "seq",
            "ids",
            "lines",
            "container",
            "grep",
            "inputs",
            "targets",
            "interval_seconds",
            "next_at",
            "add_targets",
            "remove_targets",
            "cmd",
            "command",
            "background",
            "force",
            "room",
            "user",
            "event_id",
            "emoji",
            "limit",
            "file_path",
            "path",
            "old_string",
            "new_string",
            "replace_all",
            "edits",
            "pattern",
            "glob",
            "offset",
            "pages",
            "run_in_background",
            "todos",
            "description",
            "prompt",
            "subagent_type",
            "url",
            "query",
            "notebook_path",
            "edit_mode",
            "cell_id",
            "subject",
            "taskId",
            "task_id",
            "owner",
            "skill",
            "args",
            "delaySeconds",
            "reason",
            "cron",
            "recurring",
            "durable",
            "action",
            "discard_changes",
            "questions",
            "plan",
            "operation",
            "filePath",
            "line",
            "character",
            "server",
            "uri",
            "workflow",
        ];
        let mut inputs = Vec::new();
        for value in &odd {
            inputs.push(value.clone());
            let all: serde_json::Map<String, Value> = keys
                .iter()
                .map(|k| (k.to_string(), value.clone()))
                .collect();
            inputs.push(Value::Object(all));
            inputs.extend(keys.iter().map(|key| json!({ *key: value })));
        }
        for name in &names {
            for input in &inputs {
                let row = tool_use_row(name, input);
                assert_eq!(row.level, Level::Info);
                assert!(
                    !row.summary.contains(['\n', '\r', '\t']),
                    "{name}: {:?}",
                    row.summary
                );
                assert!(
                    row.summary.chars().count() < 1200,
                    "{name}: {}",
                    row.summary.len()
                );
                assert!(row.icon.is_some());
            }
        }
    }
}
