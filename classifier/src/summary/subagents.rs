//! Each subagent's share of the summary ([`SubagentSummary`]): the envelopes with a `parent`
//! counted under that parent, besides the totals.
//!
//! What an envelope adds to the totals (tool calls, tool errors, error rows), whoever counted
//! it (Claude Code's fold, Codex's or Gemini's share), is added to its subagent's too: the
//! difference of the totals before and after it. A subagent's entry is made at its call
//! (with the call's agent type and description), or at its first envelope when the call was
//! not seen.

use serde_json::Value;

use super::report::{SubagentSummary, Summary};
use crate::event::LiveEvent;
use crate::msg::{Level, TermEnvelope};

/// The totals an envelope may add to.
#[derive(Clone, Copy)]
pub(super) struct Totals {
    calls: u64,
    tool_errors: u64,
}

impl Totals {
    pub(super) fn of(s: &Summary) -> Totals {
        Totals {
            calls: s.tool_calls.values().sum(),
            tool_errors: s.tool_errors,
        }
    }
}

/// After `env` (holding `event`) was folded into `s`, whose totals were `before`: a
/// subagent's call gets its entry; a subagent's envelope is counted under its parent.
pub(super) fn add(s: &mut Summary, before: Totals, event: &LiveEvent, env: &TermEnvelope) {
    if let Some(seq) = env.seq
        && let Some((agent_type, description)) = call(event)
        && !s.by_subagent.iter().any(|a| a.parent == seq)
    {
        s.by_subagent.push(SubagentSummary {
            parent: seq,
            agent_type,
            description,
            ..SubagentSummary::default()
        });
    }
    let Some(parent) = env.parent else {
        return;
    };
    let after = Totals::of(s);
    let entry = match s.by_subagent.iter().position(|a| a.parent == parent) {
        Some(i) => &mut s.by_subagent[i],
        None => {
            s.by_subagent.push(SubagentSummary {
                parent,
                ..SubagentSummary::default()
            });
            s.by_subagent.last_mut().expect("just pushed")
        }
    };
    entry.tool_calls += after.calls.saturating_sub(before.calls);
    entry.tool_errors += after.tool_errors.saturating_sub(before.tool_errors);
    entry.errors += env.msgs.iter().filter(|m| m.level == Level::Error).count() as u64;
    if let Some(ts) = env.ts.filter(|t| t.is_finite()) {
        entry.started_at = Some(entry.started_at.map_or(ts, |a| a.min(ts)));
        entry.ended_at = Some(entry.ended_at.map_or(ts, |b| b.max(ts)));
        entry.duration_s = entry
            .started_at
            .zip(entry.ended_at)
            .map(|(a, b)| ((b - a) * 1000.0).round() / 1000.0);
    }
}

/// A subagent call's agent type and description, when `event` makes one: Claude Code's
/// `Task`/`Agent` tool use, Gemini's `invoke_agent` (a chat recording's answer, a stream-json
/// call).
fn call(event: &LiveEvent) -> Option<(Option<String>, Option<String>)> {
    let text = |v: Option<&Value>, k: &str| {
        v.and_then(|v| v.get(k))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    match event {
        LiveEvent::Stream { value } if value.get("type")?.as_str()? == "assistant" => {
            let blocks = value.get("message")?.get("content")?.as_array()?;
            blocks.iter().find_map(|b| {
                let name = b.get("name")?.as_str()?;
                (b.get("type")?.as_str()? == "tool_use" && matches!(name, "Task" | "Agent")).then(
                    || {
                        let input = b.get("input");
                        (text(input, "subagent_type"), text(input, "description"))
                    },
                )
            })
        }
        LiveEvent::Gemini { value } => match value.get("type")?.as_str()? {
            "gemini" => value
                .get("toolCalls")?
                .as_array()?
                .iter()
                .find(|c| c.get("name").and_then(Value::as_str) == Some("invoke_agent"))
                .map(|c| (text(c.get("args"), "agent_name"), None)),
            "tool_use" if value.get("tool_name")?.as_str()? == "invoke_agent" => {
                Some((text(value.get("parameters"), "agent_name"), None))
            }
            _ => None,
        },
        _ => None,
    }
}
