//! [`ActiveTools`]: the tool calls of a session that are running — called and not yet
//! answered — with when each was called, for a live page's indicator (`Bash 3s · Grep 1s`).
//!
//! A fold over events and the envelopes they classified to. The calls and answers are read
//! by id from each format's own fields:
//! - Claude Code (stream-json, transcripts, under a harness): an assistant message's
//!   `tool_use` blocks (`id`) and a user message's `tool_result` blocks (`tool_use_id`);
//! - Codex `exec --json`: `item.started` / `item.completed` of a tool item (`item.id`);
//!   rollouts: `function_call` / `custom_tool_call` and their `…_output` (`call_id`);
//! - Gemini stream-json: `tool_use` / `tool_result` (`tool_id`); a chat recording's
//!   `toolCalls` while their `status` says they run.
//!
//! A call is named as its row names it ([`crate::tool_of`]), so the indicator and the rows
//! agree. A turn's end (good, failed or interrupted) answers whatever is left: nothing runs
//! after it. At most [`MAX_ACTIVE`] calls are kept, oldest forgotten first.

use crate::field::Field;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::event::live::{LiveEvent, LogEvent};
use crate::kind::{row_kind, tool_of};
use crate::msg::TermEnvelope;

/// Most running calls kept.
pub const MAX_ACTIVE: usize = 64;

/// Longest call id or tool name kept, in bytes; a call with a longer id is not tracked.
const MAX_KEY_BYTES: usize = 256;

/// Statuses of a Gemini recording's tool call that mean it has not answered yet.
const GEMINI_RUNNING: &[&str] = &[
    "running",
    "executing",
    "scheduled",
    "validating",
    "awaiting_approval",
];

/// One running tool call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActiveTool {
    /// The call's id in its log.
    pub id: String,
    /// The tool, as its row names it (`Bash`, `Grep`, `mcp__github__create_issue`).
    pub name: String,
    /// When it was called (unix seconds), when the event had a time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<f64>,
}

/// The running tool calls, oldest first. Fold with [`ActiveTools::apply`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ActiveTools {
    calls: Vec<ActiveTool>,
}

impl ActiveTools {
    /// Folds in one event and the envelope it classified to (its `ts` is the calls' time). The
    /// event is a whole parse's ([`crate::parse_line`]): the lines read typed by the
    /// classifier's own parse (Codex `exec --json` items, Gemini stream-json events) are not
    /// looked at.
    pub fn apply(&mut self, event: &LogEvent, env: &TermEnvelope) {
        let mut started: Vec<(String, String)> = Vec::new();
        let mut answered: Vec<String> = Vec::new();
        match &event.event {
            LiveEvent::Stream { value } => claude(value, &mut started, &mut answered),
            LiveEvent::Codex { value } => codex(value, &mut started, &mut answered),
            LiveEvent::Gemini { value } => gemini(value, &mut started, &mut answered),
            LiveEvent::GeminiRecord { record } => {
                gemini_calls(record, &mut started, &mut answered);
            }
            _ => {}
        }
        self.calls.retain(|c| !answered.contains(&c.id));
        // Named as the rows name them when the rows are the calls, one for one.
        let names: Vec<&str> = env.msgs.iter().filter_map(tool_of).collect();
        let as_rows = names.len() == started.len();
        for (i, (id, raw)) in started.into_iter().enumerate() {
            if id.is_empty() || id.len() > MAX_KEY_BYTES || self.calls.iter().any(|c| c.id == id) {
                continue;
            }
            let name = if as_rows { names[i] } else { raw.as_str() };
            if self.calls.len() >= MAX_ACTIVE {
                self.calls.remove(0);
            }
            self.calls.push(ActiveTool {
                id,
                name: cut(name),
                since: env.ts,
            });
        }
        let turn_over = env.parent.is_none() && env.msgs.iter().any(|m| row_kind(m).ends_turn());
        if turn_over {
            self.calls.clear();
        }
    }

    /// The running calls, oldest first.
    pub fn calls(&self) -> &[ActiveTool] {
        &self.calls
    }

    /// Whether no call is running.
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }
}

/// A name cut to [`MAX_KEY_BYTES`] (at a character boundary).
fn cut(name: &str) -> String {
    let mut end = name.len().min(MAX_KEY_BYTES);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    name[..end].to_owned()
}

fn str_of<'a>(v: &'a Value, k: &str) -> Option<&'a str> {
    v.field(k).and_then(Value::as_str)
}

/// A Claude Code line: `tool_use` blocks of an assistant message, `tool_result` blocks of a
/// user message.
fn claude(value: &Value, started: &mut Vec<(String, String)>, answered: &mut Vec<String>) {
    let Some(content) = value
        .field("message")
        .field("content")
        .and_then(Value::as_array)
    else {
        return;
    };
    for block in content {
        match str_of(block, "type") {
            Some("tool_use") => {
                if let Some(id) = str_of(block, "id") {
                    let name = str_of(block, "name").unwrap_or("tool");
                    started.push((id.to_owned(), name.to_owned()));
                }
            }
            Some("tool_result") => {
                if let Some(id) = str_of(block, "tool_use_id") {
                    answered.push(id.to_owned());
                }
            }
            _ => {}
        }
    }
}

/// A Codex line: an `exec --json` tool item, or a rollout's call and its output.
fn codex(value: &Value, started: &mut Vec<(String, String)>, answered: &mut Vec<String>) {
    match str_of(value, "type") {
        Some(ty @ ("item.started" | "item.completed")) => {
            let Some(item) = value.field("item") else {
                return;
            };
            let kind = str_of(item, "type").unwrap_or("");
            let tool = matches!(
                kind,
                "command_execution"
                    | "file_change"
                    | "mcp_tool_call"
                    | "web_search"
                    | "collab_tool_call"
            );
            if let (true, Some(id)) = (tool, str_of(item, "id")) {
                if ty == "item.started" {
                    started.push((id.to_owned(), kind.to_owned()));
                } else {
                    answered.push(id.to_owned());
                }
            }
        }
        Some("response_item") => {
            let Some(p) = value.field("payload") else {
                return;
            };
            let Some(id) = str_of(p, "call_id") else {
                return;
            };
            match str_of(p, "type") {
                Some("function_call" | "custom_tool_call" | "local_shell_call") => {
                    let name = str_of(p, "name").unwrap_or("tool");
                    started.push((id.to_owned(), name.to_owned()));
                }
                Some(
                    "function_call_output" | "custom_tool_call_output" | "local_shell_call_output",
                ) => answered.push(id.to_owned()),
                _ => {}
            }
        }
        _ => {}
    }
}

/// A Gemini line: a stream-json `tool_use`/`tool_result`, or a recording's `toolCalls`.
fn gemini(value: &Value, started: &mut Vec<(String, String)>, answered: &mut Vec<String>) {
    match str_of(value, "type") {
        Some("tool_use") => {
            if let Some(id) = str_of(value, "tool_id") {
                let name = str_of(value, "tool_name").unwrap_or("tool");
                started.push((id.to_owned(), name.to_owned()));
            }
        }
        Some("tool_result") => {
            if let Some(id) = str_of(value, "tool_id") {
                answered.push(id.to_owned());
            }
        }
        _ if value.field("toolCalls").is_some() => {
            gemini_calls(
                &crate::gemini::typed::Record::of_value(value),
                started,
                answered,
            );
        }
        _ => {}
    }
}

/// The running and the finished calls of a recording's message.
fn gemini_calls(
    record: &crate::gemini::typed::Record,
    started: &mut Vec<(String, String)>,
    answered: &mut Vec<String>,
) {
    for call in record.tool_calls.iter().flatten() {
        let Some(id) = call.id.as_deref() else {
            continue;
        };
        let running = call
            .status
            .as_deref()
            .is_some_and(|s| GEMINI_RUNNING.contains(&s));
        if running {
            let name = call.name.as_deref().unwrap_or("tool");
            started.push((id.to_owned(), name.to_owned()));
        } else {
            answered.push(id.to_owned());
        }
    }
}

#[cfg(test)]
mod tests;
