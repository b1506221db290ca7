//! [`Summary`], the report a log's summary fold makes ([`crate::SummaryFold`]): the type only,
//! so the agents' shares of the fold (`codex::summary`, `gemini::summary`) fill it in without
//! depending on the fold.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

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
    /// Tool calls by tool name, as the log names the tool.
    pub tool_calls: BTreeMap<String, u64>,
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
    /// The session's cost in US dollars (the largest `total_cost_usd`); `null` when no line
    /// says.
    pub cost_usd: Option<f64>,
    /// Input tokens.
    pub input_tokens: u64,
    /// Output tokens.
    pub output_tokens: u64,
    /// Tokens read from the prompt cache.
    pub cache_read_tokens: u64,
    /// Tokens written to the prompt cache.
    pub cache_creation_tokens: u64,
    /// Models used, in first-seen order.
    pub models: Vec<String>,
    /// Subagents started (`Task`/`Agent` calls).
    pub subagents: u64,
    /// Files written or edited, in first-seen order.
    pub files_changed: Vec<String>,
}
