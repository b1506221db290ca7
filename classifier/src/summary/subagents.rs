//! Each subagent's share of the summary ([`SubagentSummary`]): the envelopes with a `parent`
//! counted under that parent, besides the totals.
//!
//! What an envelope adds to the totals (tool calls, tool errors, error rows), whoever counted
//! it (Claude Code's fold, Codex's or Gemini's share), is added to its subagent's too: the
//! difference of the totals before and after it. A subagent's entry is made at its call
//! (with the call's agent type and description), or at its first envelope when the call was
//! not seen.
//!
//! The entries are found through an [`Index`] (by the call's seq, by its tool-use id), so a
//! log with thousands of subagents folds as fast as one with a few.

use std::collections::HashMap;

use crate::field::Field;
use serde_json::Value;

use super::report::{SubagentEnd, SubagentSummary, Summary};
use crate::event::live::LiveEvent;
use crate::gemini::typed::{Event, Record};
use crate::msg::{Level, TermEnvelope};
use crate::text::tag;

/// The totals an envelope may add to.
#[derive(Clone, Copy)]
pub(super) struct Totals {
    calls: u64,
    tool_errors: u64,
}

impl Totals {
    pub(super) fn of(s: &Summary) -> Totals {
        Totals {
            calls: s.tool_calls_total(),
            tool_errors: s.tool_errors,
        }
    }
}

/// Where each entry of a summary's `by_subagent` is: by its call's seq (`parent`), and by its
/// call's tool-use id (the first entry of each). Kept beside the summary by the fold, not
/// carried with it: [`Index::sync`] rebuilds it for a summary it did not see grow.
#[derive(Debug, Clone, Default)]
pub(crate) struct Index {
    by_parent: HashMap<u64, usize>,
    by_call: HashMap<String, usize>,
    /// The number of entries indexed.
    len: usize,
}

/// Derived data: folds are equal by what they carry, whatever their indexes.
impl PartialEq for Index {
    fn eq(&self, _: &Index) -> bool {
        true
    }
}

impl Index {
    /// Made again from `s` when it has entries this index has not seen (a fold carried
    /// elsewhere and read back).
    fn sync(&mut self, s: &Summary) {
        if self.len == s.by_subagent.len() {
            return;
        }
        *self = Index::default();
        for i in 0..s.by_subagent.len() {
            self.note(s, i);
        }
    }

    /// Indexes entry `i` of `s`, just pushed.
    fn note(&mut self, s: &Summary, i: usize) {
        let a = &s.by_subagent[i];
        self.by_parent.entry(a.parent).or_insert(i);
        if let Some(id) = &a.call_id {
            self.by_call.entry(id.clone()).or_insert(i);
        }
        self.len = s.by_subagent.len();
    }

    /// Pushes `entry` onto `s` and indexes it; its index.
    fn push(&mut self, s: &mut Summary, entry: SubagentSummary) -> usize {
        s.by_subagent.push(entry);
        let i = s.by_subagent.len() - 1;
        self.note(s, i);
        i
    }
}

/// After `env` (holding `event`, none for the rows the end of a log adds) was folded into `s`,
/// whose totals were `before` (taken when `env` has a parent): a subagent's call gets its
/// entry; a subagent's envelope is counted under its parent.
pub(super) fn add(
    s: &mut Summary,
    index: &mut Index,
    before: Option<Totals>,
    event: Option<&LiveEvent>,
    env: &TermEnvelope,
) {
    index.sync(s);
    if let Some(seq) = env.seq
        && let Some((agent_type, description, call_id)) = event.and_then(call)
        && !index.by_parent.contains_key(&seq)
    {
        let entry = SubagentSummary {
            parent: seq,
            agent_type,
            description,
            call_id,
            ..SubagentSummary::default()
        };
        index.push(s, entry);
    }
    if !s.by_subagent.is_empty()
        && let Some(event) = event
    {
        ends(event, |id, end| {
            if let Some(&i) = index.by_call.get(id) {
                s.by_subagent[i].ended = Some(end);
            }
        });
    }
    let (Some(parent), Some(before)) = (env.parent, before) else {
        return;
    };
    let after = Totals::of(s);
    let i = match index.by_parent.get(&parent) {
        Some(&i) => i,
        None => {
            let entry = SubagentSummary {
                parent,
                ..SubagentSummary::default()
            };
            index.push(s, entry)
        }
    };
    let entry = &mut s.by_subagent[i];
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

/// A subagent call's agent type, description and tool-use id, when `event` makes one: Claude
/// Code's `Task`/`Agent` tool use, Gemini's `invoke_agent` (a chat recording's answer, a
/// stream-json call).
fn call(event: &LiveEvent) -> Option<(Option<String>, Option<String>, Option<String>)> {
    // Cut as the fold's other names are (issue 46.2: every checkpoint holds them).
    let text = |v: Option<&Value>, k: &str| {
        v.and_then(|v| v.field(k))
            .and_then(Value::as_str)
            .map(|t| super::files::cut(t, super::files::NAME_BYTES))
    };
    match event {
        LiveEvent::Stream { value } if value.field("type")?.as_str()? == "assistant" => {
            let blocks = value.field("message")?.field("content")?.as_array()?;
            blocks.iter().find_map(|b| {
                let name = b.field("name")?.as_str()?;
                (b.field("type")?.as_str()? == "tool_use" && matches!(name, "Task" | "Agent")).then(
                    || {
                        let input = b.field("input");
                        let (kind, what) =
                            (text(input, "subagent_type"), text(input, "description"));
                        let id = b.field("id").and_then(Value::as_str).map(str::to_owned);
                        (kind, what, id)
                    },
                )
            })
        }
        LiveEvent::GeminiRecord { record } => gemini_call(record),
        LiveEvent::GeminiEvent { event } => match &**event {
            Event::ToolUse {
                tool_name: Some(name),
                tool_id,
                parameters,
            } if name == "invoke_agent" => {
                Some((text(Some(parameters), "agent_name"), None, tool_id.clone()))
            }
            _ => None,
        },
        LiveEvent::Gemini { value } => match value.field("type")?.as_str()? {
            "gemini" => gemini_call(&Record::of_value(value)),
            "tool_use" if value.field("tool_name")?.as_str()? == "invoke_agent" => Some((
                text(value.field("parameters"), "agent_name"),
                None,
                text(Some(value), "tool_id"),
            )),
            _ => None,
        },
        _ => None,
    }
}

/// A recording's answer's first `invoke_agent` call: its agent and call id.
fn gemini_call(record: &Record) -> Option<(Option<String>, Option<String>, Option<String>)> {
    if record.ty() != "gemini" {
        return None;
    }
    let c = record
        .tool_calls
        .as_ref()?
        .iter()
        .find(|c| c.name.as_deref() == Some("invoke_agent"))?;
    let agent = c.args.as_ref().field("agent_name").and_then(Value::as_str);
    let agent = agent.map(|a| super::files::cut(a, super::files::NAME_BYTES));
    Some((agent, None, c.id.clone()))
}

/// Each recorded call's end, by its final `status`.
fn gemini_ends(record: &Record, mut f: impl FnMut(&str, SubagentEnd)) {
    for c in record.tool_calls.iter().flatten() {
        let end = match c.status.as_deref() {
            Some("success") => SubagentEnd::Ok,
            Some("error") => SubagentEnd::Failed,
            Some("cancelled") => SubagentEnd::Interrupted,
            _ => continue,
        };
        if let Some(id) = c.id.as_deref() {
            f(id, end);
        }
    }
}

/// What the text of an async subagent's launch result starts with: its call answered at once,
/// the subagent still running.
const ASYNC_LAUNCH: &str = "Async agent launched";

/// Calls `f` with each subagent call id `event` says the end of, and how it ended: a Claude
/// Code `tool_result` (good, or `is_error`; not an async launch's), a `task_notification`
/// (`completed`, `failed`, `killed`/`stopped`/`cancelled`); a Gemini `tool_result` or a
/// recorded call's final `status`.
fn ends(event: &LiveEvent, mut f: impl FnMut(&str, SubagentEnd)) {
    let str_of = |v: &Value, k: &str| v.field(k).and_then(Value::as_str).map(str::to_owned);
    match event {
        LiveEvent::Stream { value } => match value.field("type").and_then(Value::as_str) {
            Some("system") if str_of(value, "subtype").as_deref() == Some("task_notification") => {
                let status = str_of(value, "status");
                if let (Some(id), Some(end)) =
                    (str_of(value, "tool_use_id"), task_end(status.as_deref()))
                {
                    f(&id, end);
                }
            }
            Some("user") => {
                // A transcript's `<task-notification>` message: the subagent's end, by call id.
                let content = value.field("message").field("content");
                let text = match content {
                    Some(Value::String(t)) => t.trim_start(),
                    Some(Value::Array(_)) => result_start(content),
                    _ => "",
                };
                if text.starts_with("<task-notification>") {
                    if let (Some(id), Some(end)) = (
                        tag(text, "tool-use-id").map(str::trim),
                        task_end(tag(text, "status")),
                    ) {
                        f(id, end);
                    }
                    return;
                }
                let blocks = value
                    .field("message")
                    .field("content")
                    .and_then(Value::as_array);
                for b in blocks.into_iter().flatten() {
                    if b.field("type").and_then(Value::as_str) != Some("tool_result") {
                        continue;
                    }
                    let Some(id) = str_of(b, "tool_use_id") else {
                        continue;
                    };
                    if result_start(b.field("content")).starts_with(ASYNC_LAUNCH) {
                        continue;
                    }
                    let error = b.field("is_error").and_then(Value::as_bool) == Some(true);
                    f(
                        &id,
                        if error {
                            SubagentEnd::Failed
                        } else {
                            SubagentEnd::Ok
                        },
                    );
                }
            }
            _ => {}
        },
        LiveEvent::Gemini { value } => {
            if value.field("type").and_then(Value::as_str) == Some("tool_result") {
                if let (Some(id), Some(end)) = (
                    str_of(value, "tool_id"),
                    status_end(str_of(value, "status").as_deref()),
                ) {
                    f(&id, end);
                }
                return;
            }
            if value.field("toolCalls").is_some() {
                gemini_ends(&Record::of_value(value), f);
            }
        }
        LiveEvent::GeminiRecord { record } => gemini_ends(record, f),
        LiveEvent::GeminiEvent { event } => {
            if let Event::ToolResult {
                tool_id: Some(id),
                status,
                ..
            } = &**event
                && let Some(end) = status_end(status.as_deref())
            {
                f(id, end);
            }
        }
        _ => {}
    }
}

/// How a Gemini stream-json `tool_result` of status `status` ends its call's subagent.
fn status_end(status: Option<&str>) -> Option<SubagentEnd> {
    match status {
        Some("success") => Some(SubagentEnd::Ok),
        Some("error") => Some(SubagentEnd::Failed),
        Some("cancelled") => Some(SubagentEnd::Interrupted),
        _ => None,
    }
}

/// The start of a `tool_result`'s text (enough to tell an async launch): its string, or its
/// first text block's; unlike the rows' reading, nothing is joined or copied.
fn result_start(content: Option<&Value>) -> &str {
    match content {
        Some(Value::String(s)) => s.trim_start(),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .find_map(|b| b.field("text").and_then(Value::as_str))
            .map_or("", str::trim_start),
        _ => "",
    }
}

/// A subagent task's final status as an end (`None`: not a final one).
fn task_end(status: Option<&str>) -> Option<SubagentEnd> {
    match status.map(str::trim) {
        Some("completed") => Some(SubagentEnd::Ok),
        Some("failed") => Some(SubagentEnd::Failed),
        Some("killed" | "stopped" | "cancelled") => Some(SubagentEnd::Interrupted),
        _ => None,
    }
}
