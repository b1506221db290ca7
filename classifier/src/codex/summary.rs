//! A Codex log's share of the summary: the agent's version, models, tokens (the log's own
//! running totals: the last per thread, summed over threads), tool calls as the rows name
//! them, tool errors, and files changed. Codex writes no cost: `cost_usd` stays `null`.

use crate::field::Field;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::detect::ROLLOUT_TYPES;
use super::exec_line::{Exec, ExecType, ItemKind};
use super::fact::{Fact, Usage};
use super::rows::API_ERROR;
use crate::kind::{RowKind, icon, tool_of, turn_kind};
use crate::msg::{Level, TermEnvelope};
use crate::summary::files::Kept;
use crate::summary::report::Summary;

/// Most threads whose totals are kept.
const MAX_THREADS: usize = 64;

/// Token counts of one thread's running total: input (cached included), cached, cache
/// write, output.
type Counts = [u64; 4];

/// A Codex log's share of the summary: what [`crate::SummaryFold`] cannot read from rows.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct SummaryPart {
    /// The thread the lines are of (`thread.started`, `session_meta`).
    thread: String,
    /// The last running total of each thread.
    totals: Vec<(String, Counts)>,
}

impl SummaryPart {
    /// Folds in one Codex line and the rows it gave.
    pub(crate) fn add(
        &mut self,
        value: &Value,
        env: &TermEnvelope,
        summary: &mut Summary,
        kept: &mut Kept,
    ) {
        let ty = value.field("type").and_then(Value::as_str).unwrap_or("");
        let payload = value.field("payload");
        if let Some(Value::Object(p)) = payload
            && ROLLOUT_TYPES.contains(&ty)
            && let Some(fact) = Fact::of_payload(ty, p)
        {
            return self.add_fact(&fact, env, summary, kept);
        }
        if let Some(exec) = value.as_object().and_then(|obj| Exec::of_map(ty, obj)) {
            return self.add_exec(&exec, env, summary, kept);
        }
        rows(env, summary, kept);
        let p = |k: &str| payload.and_then(|p| p.field(k));
        let ps = |k: &str| p(k).and_then(Value::as_str);
        match ty {
            "session_meta" => {
                self.thread(p("id").or(p("session_id")).and_then(Value::as_str));
                if summary.agent_version.is_none()
                    && let Some(v) = ps("cli_version")
                {
                    summary.agent_version = Some(v.to_owned());
                }
            }
            "event_msg" if ps("type") == Some("item_completed") => {
                let item = p("item");
                let field = |k: &str| item.and_then(|i| i.field(k));
                if field("type").and_then(Value::as_str) == Some("FileChange")
                    && field("status").and_then(Value::as_str) == Some("completed")
                {
                    let changes = field("changes").and_then(Value::as_object);
                    for (path, c) in changes.into_iter().flatten() {
                        kept.file(path);
                        if let Some(to) = c.field("move_path").and_then(Value::as_str) {
                            kept.file(to);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// Folds in one `exec --json` line read typed and the rows it gave.
    pub(crate) fn add_exec(
        &mut self,
        exec: &Exec,
        env: &TermEnvelope,
        summary: &mut Summary,
        kept: &mut Kept,
    ) {
        rows(env, summary, kept);
        match (exec.ty, &exec.item) {
            (ExecType::ThreadStarted, _) => self.thread(exec.thread_id.as_deref()),
            (ExecType::TurnCompleted, _) => self.total(exec.usage.as_ref()),
            (ExecType::ItemCompleted, Some(item))
                if item.kind == Some(ItemKind::FileChange)
                    && item.status.as_deref() == Some("completed") =>
            {
                for path in item.changes.iter().filter_map(|c| c.path.as_deref()) {
                    kept.file(path);
                }
            }
            _ => {}
        }
    }

    /// Folds in one rollout line that states a [`Fact`] and the rows it gave.
    pub(crate) fn add_fact(
        &mut self,
        fact: &Fact,
        env: &TermEnvelope,
        summary: &mut Summary,
        kept: &mut Kept,
    ) {
        rows(env, summary, kept);
        match fact {
            Fact::UsageRecord { thread, total, .. } => {
                self.thread(thread.as_deref());
                self.total(total.as_ref());
            }
            Fact::TokenCount { total } => self.total(total.as_ref()),
            Fact::TurnContext { model: m } | Fact::Settings { model: m } => {
                model(summary, kept, m.as_deref());
            }
            Fact::TaskStarted | Fact::Mirror => {}
        }
    }

    /// Sets the tokens: each thread's last running total, summed over the threads.
    pub(crate) fn finish(&self, summary: &mut Summary) {
        for (_, [input, cached, written, output]) in &self.totals {
            summary.input_tokens += input;
            summary.cache_read_tokens += cached;
            summary.cache_creation_tokens += written;
            summary.output_tokens += output;
        }
    }

    fn thread(&mut self, id: Option<&str>) {
        if let Some(id) = id
            && id != self.thread
        {
            id.clone_into(&mut self.thread);
        }
    }

    /// A running total of the current thread: replaces the one before.
    fn total(&mut self, usage: Option<&Usage>) {
        let Some(u) = usage else {
            return;
        };
        let usage = [u.input, u.cached, u.written, u.output].map(|n| n.unwrap_or(0));
        match self.totals.iter_mut().find(|(t, _)| *t == self.thread) {
            Some((_, last)) => *last = usage,
            None => {
                if self.totals.len() >= MAX_THREADS {
                    self.totals.remove(0);
                }
                self.totals.push((self.thread.clone(), usage));
            }
        }
    }
}

/// Counts one line's rows: tool calls by tool, tool errors, lines not understood.
fn rows(env: &TermEnvelope, summary: &mut Summary, kept: &mut Kept) {
    for msg in &env.msgs {
        if let Some(tool) = tool_of(msg) {
            kept.tool(summary, tool);
        } else if msg.level == Level::Error
            && turn_kind(msg) == RowKind::Other
            && !msg.summary.starts_with(API_ERROR)
        {
            summary.tool_errors += 1;
        }
        if msg.icon.as_deref() == Some(icon::UNRECOGNISED) {
            summary.lines_not_understood += 1;
        }
    }
}

fn model(summary: &mut Summary, kept: &mut Kept, m: Option<&str>) {
    if let Some(m) = m
        && !m.is_empty()
    {
        kept.model(summary, m);
    }
}
