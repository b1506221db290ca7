//! The postmortem summary of a log: a pure, incremental fold over its events and envelopes.
//!
//! [`SummaryFold::add`] takes each event with the envelope it was classified into, in log
//! order; [`SummaryFold::summary`] is the [`Summary`] so far, at any point, and [`head`] the
//! same cut to its first files or to the subagents whose end changed (a page's every chunk). The fold is
//! serialisable (serde), so a server checkpoints it beside the [`ClassifyCtx`] and resumes
//! it; folding a log in pieces gives the same summary as folding it whole.
//!
//! What is counted, and from where:
//! - the agent: the first line of a known agent names it (`claude-code`, `codex`, `gemini`),
//!   and a line only the hyperhive harness writes (its status, model, effort, tokens,
//!   turn state) names the log `hyperhive` (turns and notes do not: `hiveterm run` writes
//!   them around any agent, whose own lines name it); its version from the first line
//!   that says (Claude Code: `version`, `init`'s `claude_code_version`); lines of no known
//!   shape or not JSON: `lines_not_understood`;
//! - turns started / ok / failed / interrupted: the rows, through [`row_kind`];
//! - errors and warnings: rows of that level; `first_error_seq` the seq of the first envelope
//!   with an error row;
//! - duration: the first to the last envelope time;
//! - tool calls: every `tool_use` block (a subagent's forwarded ones included), by the tool's
//!   name as the log writes it; tool errors: `tool_result` blocks with `is_error`;
//! - tokens: the `usage` of `result` lines when the log has any (their sum), else of
//!   assistant messages (each message once, however many lines it is written in);
//! - cost: the largest `total_cost_usd` of `result` lines and `totalCostUSD` of a
//!   transcript's `cost-state` lines (Claude Code's are cumulative within a session, resumed
//!   runs included, so summing would count it again and again, and a stream and a transcript
//!   of the same run state the same total); without one, an estimate from the tokens of each
//!   model ([`priced`], [`crate::prices`]);
//! - models: the `model` of `init` lines and assistant messages, in first-seen order;
//! - subagents started: `Task`/`Agent` tool calls; each subagent's share (its envelopes, those
//!   with a `parent`: tool calls, tool errors, error rows, time), whose turns are not counted
//!   as the session's ([`subagents`]);
//! - files changed: the paths of `Write`, `Edit`, `MultiEdit` and `NotebookEdit` calls, in
//!   first-seen order;
//! - of the files, tools and models, a fold keeps the first few and counts the others
//!   ([`files`], issue 46.2), unless made [`SummaryFold::whole`].
//!
//! [`ClassifyCtx`]: crate::ClassifyCtx

pub(crate) mod files;
mod head;
mod per_file;
mod priced;
pub(crate) mod report;
mod subagents;

use crate::field::Field;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use self::files::Kept;
pub use self::per_file::FileFold;
pub(crate) use self::per_file::Tokens;
use self::per_file::pick;
pub use self::report::{SubagentEnd, SubagentSummary, Summary};
use crate::document::Now;
use crate::event::live::LiveEvent;
use crate::kind::{RowKind, turn_kind};
use crate::msg::{Level, TermEnvelope};

/// The fold: a [`Summary`] in the making, with what it needs to count each thing once.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SummaryFold {
    summary: Summary,
    /// What is kept of the files changed, tools and models (`summary.files_changed` stays
    /// empty: a summary is made from this), bounded unless made [`SummaryFold::whole`].
    kept: Kept,
    /// Tokens of `result` lines, and whether there was one.
    result_tokens: Tokens,
    results: u64,
    /// Tokens of assistant messages; the last message's id and counted usage, so its other
    /// lines replace rather than add.
    message_tokens: Tokens,
    last_message: Option<(String, Tokens)>,
    /// Tokens by model and price tier ([`priced`]), and the last message's share of them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    by_model: Vec<crate::prices::ModelTokens>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_priced: Option<crate::prices::ModelTokens>,
    /// A Codex log's share ([`crate::codex`]).
    codex: crate::codex::SummaryPart,
    /// A Gemini log's share ([`crate::gemini`]).
    gemini: crate::gemini::SummaryPart,
    /// An OpenCode log's share ([`crate::opencode`]).
    #[serde(skip_serializing_if = "crate::opencode::summary::SummaryPart::is_empty")]
    opencode: crate::opencode::summary::SummaryPart,
    /// A JSON document over many lines being read (as the classifier reads it).
    #[serde(skip_serializing_if = "crate::document::Pending::is_empty")]
    doc: crate::document::Pending,
    /// Where each subagent's entry is (made again when a fold is read back).
    #[serde(skip)]
    subagents: subagents::Index,
}

impl SummaryFold {
    /// At the start of a log: a fold whose size does not grow with the log's files, tools and
    /// models (the first few of each, and how many others: [`files`]), for a fold that is kept
    /// or checkpointed (the server's, the page's).
    pub fn new() -> SummaryFold {
        SummaryFold::default()
    }

    /// At the start of a log, keeping every file, tool and model, uncut: for one pass over a
    /// log whose summary is then printed whole (`hiveterm summary --json`). Read back from
    /// JSON, a fold is bounded again.
    pub fn whole() -> SummaryFold {
        SummaryFold {
            kept: Kept::whole(),
            ..SummaryFold::default()
        }
    }

    /// Swaps the part of the fold that belongs to the file being read with `file`'s
    /// ([`FileFold`]).
    pub fn swap_file(&mut self, file: &mut FileFold) {
        std::mem::swap(&mut self.last_message, &mut file.last_message);
        std::mem::swap(&mut self.last_priced, &mut file.last_priced);
        std::mem::swap(&mut self.doc, &mut file.doc);
    }

    /// Folds in the next event and the envelope it was classified into.
    pub fn add(&mut self, event: &LiveEvent, env: &TermEnvelope) {
        // What the envelope adds to its subagent's share: the totals before it (only then).
        let before = env.parent.map(|_| subagents::Totals::of(&self.summary));
        self.rows(env);
        // A line of a JSON document over many lines: read as the document, once whole.
        let out = self.doc.step(event);
        if let Some(b) = &out.broken {
            self.summary.lines_not_understood += u64::from(b.lines);
        }
        match out.now {
            Now::Other => self.event(event, env),
            Now::Done(value, _) => self.event(&crate::event::from_value(*value).event, env),
            Now::Open(_) | Now::InBroken => {}
        }
        subagents::add(
            &mut self.summary,
            &mut self.subagents,
            before,
            Some(event),
            env,
        );
    }

    /// Folds in the rows the end of the log adds ([`crate::ClassifyCtx::end_of_log`]), which
    /// no line holds: `env` is the log's last envelope with only those rows.
    pub fn add_end(&mut self, env: &TermEnvelope) {
        let before = env.parent.map(|_| subagents::Totals::of(&self.summary));
        self.rows(env);
        subagents::add(&mut self.summary, &mut self.subagents, before, None, env);
    }

    /// Folds in one event's own share (its rows are counted by [`SummaryFold::add`]).
    fn event(&mut self, event: &LiveEvent, env: &TermEnvelope) {
        let value = match event {
            LiveEvent::Stream { value } => {
                self.agent(crate::qwen::detect::agent_of(value));
                value
            }
            LiveEvent::Copilot { value } => {
                self.agent("copilot");
                let tokens = crate::copilot::summary::add(value, &mut self.summary, &mut self.kept);
                if let Some([input, output, cache_read, cache_creation]) = tokens {
                    self.message_tokens.add(Tokens {
                        input,
                        output,
                        cache_read,
                        cache_creation,
                    });
                }
                return;
            }
            LiveEvent::Qwen { value } => {
                self.agent("qwen");
                if let Some([input, output, cache_read]) = crate::qwen::side_call_tokens(value) {
                    let cache_creation = 0;
                    self.message_tokens.add(Tokens {
                        input,
                        output,
                        cache_read,
                        cache_creation,
                    });
                }
                return crate::qwen::each_line(value, |line| self.stream(line));
            }
            LiveEvent::Codex { value } => {
                self.agent("codex");
                return self
                    .codex
                    .add(value, env, &mut self.summary, &mut self.kept);
            }
            LiveEvent::CodexFact { fact } => {
                self.agent("codex");
                return self
                    .codex
                    .add_fact(fact, env, &mut self.summary, &mut self.kept);
            }
            LiveEvent::CodexExec { exec } => {
                self.agent("codex");
                return self
                    .codex
                    .add_exec(exec, env, &mut self.summary, &mut self.kept);
            }
            LiveEvent::Gemini { value } => {
                self.agent("gemini");
                return self.gemini.add(value, &mut self.summary, &mut self.kept);
            }
            LiveEvent::GeminiRecord { record } => {
                self.agent("gemini");
                return self
                    .gemini
                    .add_record(record, &mut self.summary, &mut self.kept);
            }
            LiveEvent::GeminiUpdate { update } => {
                self.agent("gemini");
                return self
                    .gemini
                    .add_update(update, &mut self.summary, &mut self.kept);
            }
            LiveEvent::GeminiEvent { event } => {
                self.agent("gemini");
                return self
                    .gemini
                    .add_event(event, &mut self.summary, &mut self.kept);
            }
            LiveEvent::GeminiMeta { .. } | LiveEvent::GeminiDelta { .. } => {
                self.agent("gemini");
                return;
            }
            LiveEvent::OpenCode { value } => {
                self.agent("opencode");
                return self.opencode.add(value, &mut self.summary, &mut self.kept);
            }
            // Turns and notes are written by hiveterm's own sources too (`hiveterm run`
            // around any command): they name no agent; the agent's own lines do.
            LiveEvent::TurnStart { .. } | LiveEvent::TurnEnd { .. } | LiveEvent::Note { .. } => {
                return;
            }
            LiveEvent::StatusChanged { .. }
            | LiveEvent::ModelChanged { .. }
            | LiveEvent::EffortChanged { .. }
            | LiveEvent::TokenUsageChanged { .. }
            | LiveEvent::TurnStateChanged { .. } => {
                // A harness around Claude Code: it names the log.
                self.summary.agent = Some("hyperhive".to_owned());
                return;
            }
            LiveEvent::Unrecognised { .. } | LiveEvent::Unreadable { .. } => {
                self.summary.lines_not_understood += 1;
                return;
            }
        };
        self.stream(value);
    }

    /// Folds in a Claude Code line (or a line of the same meaning, Qwen Code's).
    fn stream(&mut self, value: &Value) {
        match value.field("type").and_then(Value::as_str) {
            Some("assistant") => {
                self.version(value.field("version"));
                self.assistant(value);
            }
            Some("user") => {
                self.version(value.field("version"));
                self.user(value);
            }
            Some("result") => self.result(value),
            // A transcript's running total (issue 45: Claude Code 2.1.332 states its cost
            // only there): as cumulative as `result`'s, so the largest of both counts once.
            Some("cost-state") => self.cost(value.field("totalCostUSD")),
            Some("system") if value.field("subtype").and_then(Value::as_str) == Some("init") => {
                self.model(value.field("model"));
                self.version(value.field("claude_code_version"));
                self.version(crate::qwen::detect::version(value));
            }
            _ => {}
        }
    }

    /// The summary so far.
    pub fn summary(&self) -> Summary {
        self.summary_head(usize::MAX)
    }

    /// The agent's version, from the first line that says (a transcript's `version`, an
    /// `init`'s `claude_code_version`).
    fn version(&mut self, v: Option<&Value>) {
        if self.summary.agent_version.is_none()
            && let Some(v) = v
                .and_then(Value::as_str)
                .filter(|v| !v.is_empty() && v.len() <= 64)
        {
            self.summary.agent_version = Some(v.to_owned());
        }
    }

    /// Names the log's agent, unless a harness (or an earlier line) already did.
    fn agent(&mut self, name: &str) {
        if self.summary.agent.is_none() {
            self.summary.agent = Some(name.to_owned());
        }
    }

    fn rows(&mut self, env: &TermEnvelope) {
        let s = &mut self.summary;
        if let Some(ts) = env.ts.filter(|t| t.is_finite()) {
            s.started_at = Some(s.started_at.map_or(ts, |a| a.min(ts)));
            s.ended_at = Some(s.ended_at.map_or(ts, |b| b.max(ts)));
        }
        for msg in &env.msgs {
            match msg.level {
                Level::Error => {
                    s.errors += 1;
                    if s.first_error_seq.is_none() {
                        s.first_error_seq = env.seq;
                    }
                }
                Level::Warn => s.warnings += 1,
                Level::Debug | Level::Info => {}
            }
            // A subagent's own turns are not the session's.
            if env.parent.is_some() {
                continue;
            }
            match turn_kind(msg) {
                RowKind::TurnStart => s.turns += 1,
                RowKind::TurnOk => s.turns_ok += 1,
                RowKind::TurnFail => s.turns_failed += 1,
                RowKind::Interrupted => s.turns_interrupted += 1,
                RowKind::ToolCall
                | RowKind::ToolResult
                | RowKind::ConversationReset
                | RowKind::Compacting
                | RowKind::Other => {}
            }
        }
    }

    fn assistant(&mut self, value: &Value) {
        let [model, usage, id, content] =
            pick(value.field("message"), ["model", "usage", "id", "content"]);
        self.model(model);
        if let Some(tokens) = Tokens::of(usage) {
            let id = id.and_then(Value::as_str).unwrap_or("");
            let again =
                matches!(&self.last_message, Some((last, _)) if !id.is_empty() && last == id);
            self.price_message(model, usage, again);
            match &mut self.last_message {
                Some((last, counted)) if !id.is_empty() && last == id => {
                    self.message_tokens.sub(*counted);
                    *counted = tokens;
                }
                // The buffer of the last id is reused: one allocation per log, not per line.
                Some((last, counted)) => {
                    last.clear();
                    last.push_str(id);
                    *counted = tokens;
                }
                None => self.last_message = Some((id.to_owned(), tokens)),
            }
            self.message_tokens.add(tokens);
        }
        let Some(blocks) = content.and_then(Value::as_array) else {
            return;
        };
        for b in blocks {
            let [kind, name, input] = pick(Some(b), ["type", "name", "input"]);
            if !matches!(
                kind.and_then(Value::as_str),
                Some("tool_use" | "server_tool_use" | "mcp_tool_use")
            ) {
                continue;
            }
            let name = name.and_then(Value::as_str).unwrap_or("?");
            self.kept.tool(&mut self.summary, name);
            match name {
                "Task" | "Agent" => self.summary.subagents += 1,
                // (`write_file`, `edit`: Qwen Code's.)
                "Write" | "Edit" | "MultiEdit" | "NotebookEdit" | "write_file" | "edit" => {
                    let path = ["file_path", "notebook_path", "path"]
                        .iter()
                        .find_map(|k| input.and_then(|i| i.get(*k)).and_then(Value::as_str));
                    if let Some(path) = path {
                        self.kept.file(path);
                    }
                }
                _ => {}
            }
        }
    }

    fn user(&mut self, value: &Value) {
        let [content] = pick(value.field("message"), ["content"]);
        let Some(blocks) = content.and_then(Value::as_array) else {
            return;
        };
        self.summary.tool_errors += blocks
            .iter()
            .filter(|b| {
                let [kind, is_error] = pick(Some(b), ["type", "is_error"]);
                kind.and_then(Value::as_str) == Some("tool_result")
                    && is_error.and_then(Value::as_bool) == Some(true)
            })
            .count() as u64;
    }

    fn result(&mut self, value: &Value) {
        self.results += 1;
        if let Some(tokens) = Tokens::of(value.field("usage")) {
            self.result_tokens.add(tokens);
        }
        self.cost(value.field("total_cost_usd"));
    }

    /// A cost the log states (a `result`'s `total_cost_usd`, a `cost-state`'s
    /// `totalCostUSD`): both are the session's running total, so the largest is its cost.
    fn cost(&mut self, cost: Option<&Value>) {
        if let Some(cost) = cost.and_then(Value::as_f64).filter(|c| c.is_finite()) {
            let s = &mut self.summary;
            s.cost_usd = Some(s.cost_usd.map_or(cost, |c| c.max(cost)));
        }
    }

    fn model(&mut self, model: Option<&Value>) {
        if let Some(m) = model.and_then(Value::as_str)
            && !m.is_empty()
            && !m.starts_with('<')
        {
            self.kept.model(&mut self.summary, m);
        }
    }
}
