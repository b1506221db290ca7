//! [`Summary`], the report a log's summary fold makes ([`crate::SummaryFold`]): the type only,
//! so the agents' shares of the fold (`codex::summary`, `gemini::summary`) fill it in without
//! depending on the fold.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::prices::{CostSource, ModelTokens};

/// What a log says happened: the JSON `hiveterm summary --json` prints, the server serves and
/// the page shows. Keys are documented in `docs/CLI.md`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The agent that wrote the log: `claude-code`, `codex`, `gemini`, `hyperhive` (a harness
    /// around Claude Code); `null` before any line of a known agent.
    #[serde(default)]
    pub agent: Option<String>,
    /// The agent's version, where its log says (`null` otherwise).
    #[serde(default)]
    pub agent_version: Option<String>,
    /// Lines of no known shape or not JSON at all (each still one visible row).
    #[serde(default)]
    pub lines_not_understood: u64,
    /// Turns started (`◆ TURN` rows).
    pub turns: u64,
    /// Turns that ended well (`✅ turn ok`).
    pub turns_ok: u64,
    /// Turns that failed (`❌ turn fail`).
    pub turns_failed: u64,
    /// Interruptions by the user (`⏹ interrupted by user`).
    pub turns_interrupted: u64,
    /// Tool calls by tool name, as the log names the tool (a name cut to 256 bytes; in the
    /// server's summary, the first 64 names; the others' calls in `tool_calls_more`).
    pub tool_calls: BTreeMap<String, u64>,
    /// Calls of tools `tool_calls` does not name (0, and not written, when it names them all).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tool_calls_more: u64,
    /// Tools `tool_calls` does not name: how many (not written when 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tools_more: u64,
    /// Tool results that were errors.
    pub tool_errors: u64,
    /// Error rows.
    pub errors: u64,
    /// Warning rows.
    pub warnings: u64,
    /// The seq of the first envelope with an error row; `null` when there is none.
    pub first_error_seq: Option<u64>,
    /// Unix seconds of the first envelope with a time.
    pub started_at: Option<f64>,
    /// Unix seconds of the last (latest) envelope time.
    pub ended_at: Option<f64>,
    /// Seconds from the first to the last envelope time, to the millisecond; `null` without
    /// times.
    pub duration_s: Option<f64>,
    /// The session's cost in US dollars: the cost the log states (the largest
    /// `total_cost_usd`), else the estimate from the price table (`cost_source`); `null` when
    /// neither is known.
    pub cost_usd: Option<f64>,
    /// Where `cost_usd` comes from: `stated` (the log), `estimated` (tokens × the price
    /// table, [`crate::prices`]) or `unknown`; not written for a log of no tokens and no cost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_source: Option<CostSource>,
    /// With `cost_source` `unknown`: the models of no price (not written when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unpriced_models: Vec<String>,
    /// Tokens by model and price tier, the Anthropic way (input without the cached part),
    /// what an estimate is made of (not written when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tokens_by_model: Vec<ModelTokens>,
    /// Input tokens.
    pub input_tokens: u64,
    /// Output tokens.
    pub output_tokens: u64,
    /// Tokens read from the prompt cache.
    pub cache_read_tokens: u64,
    /// Tokens written to the prompt cache.
    pub cache_creation_tokens: u64,
    /// Models used, in first-seen order (in the server's summary the first 16, each cut to
    /// 256 bytes).
    pub models: Vec<String>,
    /// Models used that `models` does not list (not written when 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub models_more: u64,
    /// Subagents started (`Task`/`Agent` calls).
    pub subagents: u64,
    /// Each subagent's share (its envelopes, those with a `parent`), in the order their calls
    /// came; the totals above count them too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub by_subagent: Vec<SubagentSummary>,
    /// Files written or edited, in first-seen order: every one in `hiveterm summary --json`;
    /// in the server's summary (`GET …/summary`, the index, a share) and the page's, the first
    /// 256, each cut to 256 bytes; in a summary cut to its first paths
    /// ([`crate::SummaryFold::summary_head`]: `…/summary?files=N`), the first N.
    pub files_changed: Vec<String>,
    /// Files changed that `files_changed` does not list (0, and not written, when it lists
    /// them all).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub files_changed_more: u64,
    /// `files_changed_more` is an upper bound (not written when false): past the first 4,096
    /// distinct files, a file changed again may count again (the server's fold keeps a
    /// fingerprint of 4,096 files at most, issue 46.2).
    #[serde(default, skip_serializing_if = "is_false")]
    pub files_changed_at_most: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Summary {
    /// How many files the log changed, listed or not (an upper bound when
    /// `files_changed_at_most`).
    pub fn files_changed_total(&self) -> u64 {
        self.files_changed.len() as u64 + self.files_changed_more
    }

    /// Tool calls, counted by name or not.
    pub fn tool_calls_total(&self) -> u64 {
        self.tool_calls.values().sum::<u64>() + self.tool_calls_more
    }
}

/// One subagent's share of a [`Summary`]: what the envelopes whose `parent` is its call's
/// envelope hold (a subagent it started in turn has its own).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SubagentSummary {
    /// The seq of the envelope holding the call that started it.
    pub parent: u64,
    /// The kind of agent the call asked for (Claude Code's `subagent_type`, Gemini's
    /// `agent_name`), when it says.
    #[serde(default)]
    pub agent_type: Option<String>,
    /// The call's `description`, when it has one.
    #[serde(default)]
    pub description: Option<String>,
    /// Its tool calls (every `tool_use`).
    pub tool_calls: u64,
    /// Its tool results that were errors.
    pub tool_errors: u64,
    /// Its error rows.
    pub errors: u64,
    /// Unix seconds of its first envelope with a time.
    #[serde(default)]
    pub started_at: Option<f64>,
    /// Unix seconds of its last (latest) envelope time.
    #[serde(default)]
    pub ended_at: Option<f64>,
    /// Seconds from the first to the last, to the millisecond.
    #[serde(default)]
    pub duration_s: Option<f64>,
    /// How it ended, once the log says: its call's result (not an async launch's), or Claude
    /// Code's `task_notification` for it. `None` while it runs, or when the log never says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<SubagentEnd>,
    /// Its call's tool-use id, to find its result by (`None` when the call was not seen).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
}

/// How a subagent ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SubagentEnd {
    /// It finished: its call's result came back good, or its task `completed`.
    Ok,
    /// Its call's result was an error, or its task `failed`.
    Failed,
    /// It was stopped before it finished (its task `killed`, `stopped` or `cancelled`).
    Interrupted,
}
