//! The facts a rollout's lines state ([`Fact`]) and the token counts in them ([`Usage`]).

use serde::Serialize;

/// The token counts of a usage map (`total_token_usage`, a usage record's turn and thread
/// usage), each as `Value::as_u64` reads it (`None`: not written, or not a count).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    /// `input_tokens` (cached included).
    pub(crate) input: Option<u64>,
    /// `cached_input_tokens`.
    pub(crate) cached: Option<u64>,
    /// `cache_write_input_tokens`.
    pub(crate) written: Option<u64>,
    /// `output_tokens`.
    pub(crate) output: Option<u64>,
    /// `reasoning_output_tokens`.
    pub(crate) reasoning: Option<u64>,
}

/// A rollout line that gives no row of its own (but a model's), read typed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "fact", rename_all = "snake_case")]
pub enum Fact {
    /// A `token_usage_record`: the thread it counts (`thread_id` when written, else
    /// `session_id`), the turn's usage and the thread's total.
    UsageRecord {
        /// The thread, when a string.
        thread: Option<String>,
        /// `turn_token_usage`.
        turn: Option<Usage>,
        /// `thread_token_usage`.
        total: Option<Usage>,
    },
    /// An `event_msg` `token_count`: the thread's running total (`info.total_token_usage`).
    TokenCount {
        /// The running total.
        total: Option<Usage>,
    },
    /// A `turn_context`: the model the turn runs.
    TurnContext {
        /// `model`.
        model: Option<String>,
    },
    /// An `event_msg` `thread_settings_applied`: the settings' model.
    Settings {
        /// `thread_settings.model`.
        model: Option<String>,
    },
    /// An `event_msg` `task_started` or `turn_started`: a turn begins.
    TaskStarted,
    /// An `event_msg` `item_completed` whose item is not a command or a file change: a mirror
    /// of a line the rows come from.
    Mirror,
}
