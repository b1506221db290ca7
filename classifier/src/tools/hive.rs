//! The hyperhive, bash and matrix MCP tools of `docs/TOOLS.md`: icons and summaries.
//!
//! Each formatter returns `None` for a tool it has no case for; the caller then uses the
//! generic form. Inputs are read tolerantly (see [`super::args`]).

use crate::msg::BodyFormat;

use super::args::{Args, Out, Parts, clock, command, delay, join_list, millis, num_text};

/// The icon of a `mcp__hyperhive__` tool (the design notes' icon list, `docs/TOOLS.md`).
pub(super) fn hyperhive_icon(tool: &str) -> &'static str {
    match tool {
        "send" => "📤",
        "recv" => "📥",
        "ask" => "❓",
        "answer" => "✍\u{fe0f}",
        "remind" => "⏰",
        "set_status" => "🏷\u{fe0f}",
        "get_loose_ends" => "🪢",
        "cancel_loose_end" => "✂\u{fe0f}",
        "get_agent_meta" => "ℹ\u{fe0f}",
        "ack_until" => "✅",
        "get_logs" | "get_host_journal" => "📜",
        "restart" => "↻",
        "kill" => "⏹\u{fe0f}",
        "start" => "▶\u{fe0f}",
        "update" => "🔄",
        "list_containers" => "📋",
        t if t.starts_with("request_") => "📦",
        t if t.contains("schedule") => "⏱\u{fe0f}",
        _ => "🔧",
    }
}

/// The icon of a `mcp__bash__` tool: 🛑 for `kill`, 🖥️ for every other.
pub(super) fn bash_icon(tool: &str) -> &'static str {
    match tool {
        "kill" => "🛑",
        _ => "🖥\u{fe0f}",
    }
}

/// The icon of a `mcp__matrix__` tool.
pub(super) fn matrix_icon(tool: &str) -> &'static str {
    match tool {
        "send_message" | "send_reply" | "send_dm" => "💬",
        "read_room" => "📖",
        "mark_read" => "👁\u{fe0f}",
        "list_rooms" | "list_room_members" | "list_invites" => "📋",
        _ => "🔧",
    }
}

const TO: &[&str] = &["to", "recipient", "recipients"];
const BODY: &[&str] = &["body", "text", "message"];
const NAME: &[&str] = &["name", "agent"];

/// `mcp__hyperhive__<tool>`.
pub(super) fn hyperhive(tool: &str, a: Args) -> Option<Out> {
    let mut p = Parts::default();
    let out = match tool {
        "send" => {
            let body = a.string(BODY);
            let lines = body.map(|b| format!("{}L", crate::text::line_count(b)));
            let to = a.list(TO).map(|to| format!("→ {}", join_list(&to)));
            Out::args(p.sp(to).dot(lines).done())
                .with_body(body.unwrap_or(""), Some(BodyFormat::Markdown))
        }
        "ask" => {
            let to = a.list(TO).map(|to| format!("→ {}", join_list(&to)));
            let question = a.string(&["question", "body", "text"]).unwrap_or("");
            Out::args(p.sp(to).done()).with_body(question, Some(BodyFormat::Markdown))
        }
        "answer" => {
            let answer = a.string(&["answer", "body", "text"]).unwrap_or("");
            Out::args(p.sp(a.id(&["id", "question_id"])).done())
                .with_body(answer, Some(BodyFormat::Markdown))
        }
        "recv" => {
            let wait = match a.num(&["wait_seconds"]) {
                Some(s) => Some(format!("wait {}s", num_text(s))),
                None => a.num(&["wait_ms"]).map(|ms| format!("wait {}", millis(ms))),
            };
            let max = a.num(&["max"]).map(|m| format!("max {}", num_text(m)));
            Out::args(p.dot(wait).dot(max).done())
        }
        "remind" => {
            let after = a.num(&["in_seconds"]).map(delay);
            let at = a.field("at").and_then(clock).map(|t| format!("at {t}"));
            Out::args(
                p.sp(after)
                    .sp(at)
                    .sp(a.quoted(&["body", "text", "message"]))
                    .done(),
            )
        }
        "set_status" => Out::args(p.sp(a.quoted(&["text", "status"])).done()),
        "get_loose_ends" => Out::args(p.sp(a.name(&["agent", "name"])).done()),
        "get_agent_meta" => Out::args(p.sp(a.name(NAME)).done()),
        "cancel_loose_end" => Out::args(
            p.sp(a.name(&["kind"]))
                .sp(a.id(&["id", "loose_end_id"]))
                .done(),
        ),
        "ack_until" => Out::args(
            p.sp(a.name(&["seq", "until", "id"]).map(|n| format!("≤{n}")))
                .done(),
        ),
        "mark_todos_done" => Out::args(
            p.sp(a
                .list(&["ids", "id"])
                .map(|ids| format!("[{}]", join_list(&ids))))
                .done(),
        ),
        "kill" | "restart" | "start" | "update" | "request_init_config" => {
            Out::args(p.sp(a.name(NAME)).done())
        }
        "get_logs" => Out::args(p.sp(a.name(NAME)).sp(lines(a)).done()),
        "get_host_journal" => Out::args(
            p.dot(a.name(&["container", "name"]))
                .dot(a.name(&["grep", "pattern"]).map(|g| format!("/{g}/")))
                .dot(lines(a))
                .done(),
        ),
        "request_update_meta_inputs" => Out::args(p.sp(targets(a, &["inputs"])).done()),
        "cancel_schedule" => Out::args(p.sp(a.id(&["id"])).sp(targets(a, &["targets"])).done()),
        "fire_schedule_now" => Out::args(p.sp(a.id(&["id"])).done()),
        "edit_schedule" => {
            p.sp(a.id(&["id"]));
            let given = |keys: &[&str], label: &str| a.has(keys).then(|| label.to_owned());
            p.dot(given(&["body", "text"], "body"))
                .dot(given(&["interval_seconds", "interval"], "interval"))
                .dot(given(&["next_at", "next", "at"], "next"));
            let add = a.count(&["add_targets"]).filter(|&n| n > 0);
            let remove = a.count(&["remove_targets"]).filter(|&n| n > 0);
            p.dot(add.map(|n| format!("+{n} tgt")))
                .dot(remove.map(|n| format!("-{n} tgt")));
            Out::args(p.done())
        }
        "request_schedule_prompt" => {
            let to = a
                .list(&["targets", "target", "to"])
                .map(|t| format!("→ {}", join_list(&t)));
            let at = a.field("at").and_then(clock).map(|t| format!("at {t}"));
            let every = a
                .num(&["interval_seconds"])
                .filter(|&s| s != 0.0)
                .map(|s| format!("+{}s", num_text(s)));
            Out::args(p.sp(to).sp(at).sp(every).done())
        }
        _ => return None,
    };
    Some(out)
}

/// `mcp__bash__<tool>`.
pub(super) fn bash(tool: &str, a: Args) -> Option<Out> {
    let mut p = Parts::default();
    let out = match tool {
        "run" => shell(
            a,
            &["cmd", "command"],
            &["background", "bg", "run_in_background"],
        ),
        "status" => {
            let wait = match a.num(&["wait_seconds"]) {
                Some(s) => Some(format!("wait {}s", num_text(s))),
                None => a.num(&["wait_ms"]).map(|ms| format!("wait {}", millis(ms))),
            };
            let id = a.name(&["id", "job_id"]).map(|id| format!("id:{id}"));
            Out::args(p.dot(id).dot(wait).done())
        }
        "kill" => {
            let force = a.flag(&["force"]).then_some("[force]");
            Out::args(p.sp(a.name(&["id", "job_id"])).sp(force).done())
        }
        _ => return None,
    };
    Some(out)
}

/// `mcp__matrix__<tool>`.
pub(super) fn matrix(tool: &str, a: Args) -> Option<Out> {
    const ROOM: &[&str] = &["room", "room_id", "room_alias"];
    const USER: &[&str] = &["user", "user_id"];
    let mut p = Parts::default();
    let out = match tool {
        "send_message" | "send_reply" => Out::args(
            p.sp(a.name(ROOM).map(|r| format!("→ {r}")))
                .add(": ", a.quoted(BODY))
                .done(),
        ),
        "send_dm" => Out::args(
            p.sp(a.name(USER).map(|u| format!("→ {u}")))
                .add(": ", a.quoted(BODY))
                .done(),
        ),
        "send_reaction" => Out::args(
            p.sp(a.name(ROOM))
                .sp(a.name(&["emoji", "reaction", "key"]))
                .done(),
        ),
        "read_room" => Out::args(
            p.sp(a.name(ROOM))
                .sp(a.name(&["limit"]).map(|n| format!("[{n}]")))
                .done(),
        ),
        "mark_read" | "join_room" | "download_file" | "list_room_members" => {
            Out::args(p.sp(a.name(ROOM)).done())
        }
        "open_dm" => Out::args(p.sp(a.name(USER)).done()),
        "invite_user" => Out::args(
            p.sp(a.name(USER))
                .sp(a.name(ROOM).map(|r| format!("→ {r}")))
                .done(),
        ),
        _ => return None,
    };
    Some(out)
}

/// `[bg] $ cmd` with the long-command body; shared by `run*`, `Bash` and `Monitor`.
pub(super) fn shell(a: Args, cmd_keys: &[&str], bg_keys: &[&str]) -> Out {
    let bg = a.flag(bg_keys).then_some("[bg]");
    let cmd = a.string(cmd_keys).filter(|c| !c.trim().is_empty());
    let (summary, body) = match cmd.map(command) {
        Some((summary, body)) => (Some(summary), body),
        None => (None, None),
    };
    let out = Out::args(Parts::default().sp(bg).sp(summary).done());
    match body {
        Some(body) => out.with_body(&body, None),
        None => out,
    }
}

/// `50L` from a `lines` argument.
fn lines(a: Args) -> Option<String> {
    a.num(&["lines"]).map(|n| format!("{}L", num_text(n)))
}

/// A target list: `[a, b]`, or `all` when it is absent, `null` or the string `all`;
/// nothing when it is set to something that is not a list (an object).
fn targets(a: Args, keys: &[&str]) -> Option<String> {
    if !a.has(keys) {
        return Some("all".to_owned());
    }
    match a.list(keys)? {
        items if items.len() == 1 && items[0] == "all" => Some("all".to_owned()),
        items => Some(format!("[{}]", join_list(&items))),
    }
}
