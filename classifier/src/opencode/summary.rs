//! An OpenCode log's share of the summary: tokens and cost (as each `step-finish` states them:
//! `input`, `output` + `reasoning`, `cache.read`, `cache.write`; `cost` in dollars, so a stated
//! `0` is a cost of 0, not an unknown one), tool calls by OpenCode's tool name, tool errors
//! (`state.status` `error`, `invalid`, a shell's exit code other than 0), files changed
//! (`edit`/`write` paths), subagents (`task` calls); an export's version, models (`modelID`) and
//! times (`info.time` `created`/`updated`: the duration of a document with no line times).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::state::Figures;
use crate::field::Field;
use crate::summary::files::Kept;
use crate::summary::report::Summary;

/// An OpenCode log's share of the summary: what [`crate::SummaryFold`] cannot read from rows.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct SummaryPart {
    /// Every step's figures.
    fig: Figures,
}

impl SummaryPart {
    /// Whether nothing is kept (a log that is not OpenCode's).
    pub(crate) fn is_empty(&self) -> bool {
        *self == SummaryPart::default()
    }

    /// Folds in one OpenCode line (or export document).
    pub(crate) fn add(&mut self, value: &Value, summary: &mut Summary, kept: &mut Kept) {
        if value.field("type").is_some() {
            if let Some(p) = value.field("part") {
                self.part(p, summary, kept);
            }
            return;
        }
        let info = value.field("info");
        if summary.agent_version.is_none()
            && let Some(v) = info
                .field("version")
                .and_then(Value::as_str)
                .filter(|v| !v.is_empty() && v.len() <= 64)
        {
            summary.agent_version = Some(v.to_owned());
        }
        let time = info.field("time");
        for (k, first) in [("created", true), ("updated", false)] {
            let Some(t) = time.field(k).and_then(Value::as_f64).map(|ms| ms / 1000.0) else {
                continue;
            };
            if !t.is_finite() {
                continue;
            }
            let (a, b) = (&mut summary.started_at, &mut summary.ended_at);
            let slot = if first { a } else { b };
            *slot = Some(match (*slot, first) {
                (Some(x), true) => x.min(t),
                (Some(x), false) => x.max(t),
                (None, _) => t,
            });
        }
        let messages = value.field("messages").and_then(Value::as_array);
        for m in messages.into_iter().flatten() {
            if let Some(model) = m.field("info").field("modelID").and_then(Value::as_str)
                && !model.trim().is_empty()
            {
                kept.model(summary, model);
            }
            for p in m
                .field("parts")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                self.part(p, summary, kept);
            }
        }
    }

    fn part(&mut self, p: &Value, summary: &mut Summary, kept: &mut Kept) {
        match p.field("type").and_then(Value::as_str) {
            Some("step-finish") => self.fig.add(&Figures::of_step(p)),
            Some("tool") => {
                let name = p.field("tool").and_then(Value::as_str).unwrap_or("tool");
                kept.tool(summary, name);
                let state = p.field("state");
                let status = state.field("status").and_then(Value::as_str);
                let exit = state
                    .field("metadata")
                    .field("exit")
                    .and_then(Value::as_i64);
                if status == Some("error")
                    || (status == Some("completed")
                        && (name == "invalid" || exit.is_some_and(|c| c != 0)))
                {
                    summary.tool_errors += 1;
                }
                match name {
                    "edit" | "write" if status != Some("error") => {
                        if let Some(path) = state
                            .field("input")
                            .field("filePath")
                            .and_then(Value::as_str)
                        {
                            kept.file(path);
                        }
                    }
                    "task" => summary.subagents += 1,
                    _ => {}
                }
            }
            _ => {}
        }
    }

    /// Sets what is known only at the end (tokens, cost) on the summary so far.
    pub(crate) fn finish(&self, s: &mut Summary) {
        let f = &self.fig;
        s.input_tokens += f.input;
        s.output_tokens += f.output + f.reasoning;
        s.cache_read_tokens += f.cache_read;
        s.cache_creation_tokens += f.cache_write;
        if let Some(c) = f.cost_nanos {
            s.cost_usd = Some(s.cost_usd.unwrap_or(0.0) + c as f64 / 1e9);
        }
    }
}
