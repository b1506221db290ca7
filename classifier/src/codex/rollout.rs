//! Rollout lines (`~/.codex/sessions/…/rollout-*.jsonl`) → rows (`docs/ROWS.md`, "Codex").
//!
//! **One source per fact.** The rollout writes the conversation twice: as `response_item`s
//! (what the model saw) and as `event_msg` `item_completed` (the UI's view). The rows come
//! from the `response_item`s — messages, reasoning, calls and their outputs — and the
//! `item_completed` mirrors give none, except a `CommandExecution` or `FileChange` whose id
//! matches no call seen (code mode: the commands and patches its JavaScript ran), which has
//! no other line: it gives its call and result rows.
//!
//! **Turns.** `task_started` opens a turn; the user's prompt (the first user message that is
//! not one Codex injected: `<environment_context>`, `<turn_aborted>`, instructions) gives the
//! `◆ TURN ← user` row with the prompt. A turn whose first row is not a prompt gets a bodiless
//! `◆ TURN ← user` first. `task_complete` ends it (`✅ turn ok` with its time and tokens, or
//! `❌ turn fail — <error>`), `turn_aborted` with `⏹ interrupted by user` naming the calls
//! still in flight.

use crate::field::Field;
use serde_json::{Map, Value, json};

use super::calls::{custom_row, function_row, output_row};
use super::fact::Fact;
use super::mirror::{mirror, strings};
use super::rows::{
    api_error_row, bash_row, debug_row, error_message, figures, generic_row, reasoning_row,
    text_row, usage_line,
};
use super::shell::unwrap_argv;
use super::state::Turn;
use super::turn::{open, prompt};
use crate::ctx::ClassifyCtx;
use crate::kind::{interrupted_row, timed, turn_fail_row, turn_ok_row};
use crate::msg::{Level, TermMsg};
use crate::text::preview;

/// Classifies one rollout line of type `ty` with its `payload`.
pub(crate) fn classify(
    ty: &str,
    payload: &Map<String, Value>,
    ctx: &mut ClassifyCtx,
) -> Vec<TermMsg> {
    if let Some(fact) = Fact::of_payload(ty, payload) {
        return self::fact(&fact, ctx);
    }
    let s = |k: &str| payload.field(k).and_then(Value::as_str);
    match ty {
        "session_meta" => {
            ctx.codex.turn = Turn::Idle;
            ctx.codex.pending.clear();
            let mut parts = vec![format!("codex {}", s("cli_version").unwrap_or("?"))];
            for k in ["model_provider", "originator", "cwd"] {
                if let Some(v) = s(k) {
                    parts.push(v.to_owned());
                }
            }
            vec![TermMsg::new(
                Level::Debug,
                format!("⚙ {}", parts.join(" · ")),
            )]
        }
        "response_item" => response_item(payload, ctx),
        "event_msg" => event_msg(payload, ctx),
        "compacted" => vec![debug_row("context compacted", s("message").unwrap_or(""))],
        // What the model is told (environment, tools, permissions): a snapshot, not an event.
        "world_state" => Vec::new(),
        _ => vec![crate::stream::unrecognised(
            &json!({ "type": ty, "payload": payload }),
        )],
    }
}

/// The rows of a line that states a [`Fact`]: none but a new model's.
pub(crate) fn fact(fact: &Fact, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    match fact {
        Fact::TurnContext { model: Some(m) } if *m != ctx.codex.model => {
            m.clone_into(&mut ctx.codex.model);
            vec![TermMsg::new(Level::Debug, format!("⚙ model {m}"))]
        }
        Fact::UsageRecord { turn, .. } => {
            ctx.codex.turn_usage = usage_line(" (turn)", turn.as_ref());
            Vec::new()
        }
        Fact::TaskStarted => {
            ctx.codex.turn = Turn::Pending;
            ctx.codex.pending.clear();
            ctx.codex.turn_usage = None;
            Vec::new()
        }
        Fact::TurnContext { .. }
        | Fact::TokenCount { .. }
        | Fact::Settings { .. }
        | Fact::Mirror => Vec::new(),
    }
}

/// A `response_item`: the conversation as the model sees it.
fn response_item(p: &Map<String, Value>, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let s = |k: &str| p.field(k).and_then(Value::as_str);
    let call_id = s("call_id").unwrap_or("");
    match s("type").unwrap_or("") {
        "message" => message(p, ctx),
        "reasoning" => {
            let summary = texts(p.field("summary"));
            let raw = texts(p.field("content"));
            open(ctx, vec![reasoning_row(&summary, &raw)])
        }
        "function_call" => {
            let args = s("arguments")
                .and_then(|a| serde_json::from_str::<Value>(a).ok())
                .unwrap_or(Value::Null);
            let row = function_row(s("name").unwrap_or("?"), &args, call_id);
            ctx.codex.call(call_id, &row.summary);
            open(ctx, vec![row])
        }
        "local_shell_call" => {
            let argv = strings(p.field("action").and_then(|a| a.field("command")));
            let row = bash_row(&unwrap_argv(&argv));
            ctx.codex.call(call_id, &row.summary);
            open(ctx, vec![row])
        }
        "custom_tool_call" => {
            let input = s("input").unwrap_or("");
            let row = custom_row(s("name").unwrap_or("?"), input);
            ctx.codex.call(call_id, &row.summary);
            open(ctx, vec![row])
        }
        "function_call_output" | "custom_tool_call_output" => {
            let tool = ctx.codex.answered(call_id);
            let text = match p.field("output") {
                Some(Value::String(t)) => t.clone(),
                Some(Value::Array(_)) => texts(p.field("output")),
                Some(v) => texts(v.field("content")),
                None => String::new(),
            };
            vec![output_row(tool.as_deref(), &text, ctx)]
        }
        "web_search_call" => {
            let query = p
                .field("action")
                .and_then(|a| a.field("query"))
                .and_then(Value::as_str)
                .unwrap_or("");
            open(
                ctx,
                vec![crate::tools::tool_use_row(
                    "WebSearch",
                    &json!({ "query": query }),
                )],
            )
        }
        "additional_tools" => {
            let n = p
                .field("tools")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            vec![TermMsg::new(
                Level::Debug,
                format!("⚙ tools declared · {n}"),
            )]
        }
        "" => vec![generic_row("? item", &Value::Object(p.clone()))],
        other => vec![generic_row(
            &format!("{other} item"),
            &Value::Object(p.clone()),
        )],
    }
}

/// A message: the agent's text, the user's prompt, or a block Codex injected.
fn message(p: &Map<String, Value>, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let text = texts(p.field("content"));
    match p.field("role").and_then(Value::as_str) {
        Some("assistant") => open(ctx, text_row(&text).into_iter().collect()),
        Some("user") => match injected(p, &text) {
            Some("") => Vec::new(),
            Some(what) => vec![debug_row(what, &text)],
            None => prompt(ctx, &text),
        },
        Some("developer" | "system") => vec![debug_row(
            &format!("instructions · {}", preview(first_line(&text))),
            &text,
        )],
        _ => vec![generic_row("message", &Value::Object(p.clone()))],
    }
}

/// What Codex put in a user message itself, or `None` for the user's own words. `Some("")`
/// for the interruption notice (its turn's `turn_aborted` row says it).
fn injected<'a>(p: &Map<String, Value>, text: &'a str) -> Option<&'a str> {
    let t = text.trim_start();
    if t.starts_with("<turn_aborted>") {
        return Some("");
    }
    if t.starts_with("<environment_context>") {
        return Some("environment context");
    }
    // The content kinds Codex records (`user.text` is the user's).
    let kinds = p
        .field("internal_chat_message_metadata_passthrough")
        .and_then(|m| m.field("content_item_kinds"))
        .and_then(Value::as_array);
    if let Some(kinds) = kinds
        && !kinds.is_empty()
        && !kinds
            .iter()
            .any(|k| k.as_str().is_some_and(|k| k.starts_with("user.")))
    {
        return Some("context");
    }
    if t.starts_with("<user_instructions>")
        || t.starts_with("# AGENTS.md instructions")
        || t.starts_with("<INSTRUCTIONS>")
        || t.starts_with("<user_shell_command>")
    {
        return Some("instructions");
    }
    None
}

/// An `event_msg`: the client's own events. Mirrors of `response_item`s give no row.
fn event_msg(p: &Map<String, Value>, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let s = |k: &str| p.field(k).and_then(Value::as_str);
    match s("type").unwrap_or("") {
        "task_complete" | "turn_complete" => {
            let mut rows = open(ctx, Vec::new());
            ctx.codex.turn = Turn::Idle;
            ctx.codex.pending.clear();
            let why = p.field("error").map(|e| {
                match e.field("message").and_then(Value::as_str).or(e.as_str()) {
                    Some(m) => error_message(m),
                    None => e.to_string(),
                }
            });
            let row = match why {
                Some(why) => turn_fail_row(Some(&why)),
                None => turn_ok_row(),
            };
            let row = timed(row, p.field("duration_ms").and_then(Value::as_f64));
            let figures = figures(p, ctx.codex.turn_usage.take());
            rows.push(if figures.is_empty() {
                row
            } else {
                row.body(figures)
            });
            rows
        }
        "turn_aborted" => {
            let mut rows = open(ctx, Vec::new());
            ctx.codex.turn = Turn::Idle;
            let mut body: Vec<String> = std::mem::take(&mut ctx.codex.pending)
                .into_iter()
                .map(|(_, summary)| format!("in flight: {summary}"))
                .collect();
            if let Some(r) = s("reason").filter(|r| *r != "interrupted") {
                body.push(format!("reason: {r}"));
            }
            body.extend(
                figures(p, ctx.codex.turn_usage.take())
                    .lines()
                    .map(str::to_owned),
            );
            let row = interrupted_row();
            rows.push(if body.is_empty() {
                row
            } else {
                row.body(body.join("\n"))
            });
            rows
        }
        // A command's or a file change's (any other is a mirror: a [`Fact`]).
        "item_completed" => match p.field("item") {
            Some(Value::Object(item)) => mirror(item, ctx),
            _ => Vec::new(),
        },
        "error" => vec![api_error_row(s("message").unwrap_or("error"))],
        "stream_error" => vec![TermMsg::new(
            Level::Warn,
            format!("⚠ api retry · {}", preview(s("message").unwrap_or(""))),
        )],
        "warning" => vec![TermMsg::new(
            Level::Warn,
            format!("⚠ {}", preview(s("message").unwrap_or(""))),
        )],
        "context_compacted" => vec![TermMsg::new(Level::Debug, "⚙ context compacted")],
        // The legacy mirrors of response items and of commands and patches
        // (`exec_command_*`, `patch_apply_*`); running totals and settings are [`Fact`]s.
        "user_message"
        | "agent_message"
        | "agent_reasoning"
        | "agent_reasoning_raw_content"
        | "agent_reasoning_section_break"
        | "exec_command_begin"
        | "exec_command_end"
        | "exec_command_output_delta"
        | "patch_apply_begin"
        | "patch_apply_end"
        | "mcp_tool_call_begin"
        | "mcp_tool_call_end"
        | "web_search_begin"
        | "web_search_end"
        | "plan_update"
        | "turn_diff"
        | "session_configured"
        | "item_started"
        | "background_event" => Vec::new(),
        other => vec![TermMsg::new(Level::Debug, format!("⚙ {other}"))],
    }
}

/// The text of content parts (`input_text`, `output_text`, `summary_text`, `reasoning_text`,
/// a bare string), joined by newlines.
fn texts(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| match p {
                Value::String(s) => Some(s.as_str()),
                _ => p.field("text").and_then(Value::as_str),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

fn first_line(s: &str) -> &str {
    s.trim().lines().next().unwrap_or("")
}
