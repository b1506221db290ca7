//! The lean parse of a rollout line's `payload` ([`crate::lean`]): the payload without the
//! fields no Codex row or summary reads — the system prompt of `session_meta`, the whole of
//! `world_state`, all but the model of `turn_context`, rate limits, per-response usage and
//! the totals' `total_tokens`, a usage record's turn and response ids,
//! encrypted reasoning, the mirrors' copies of messages and reasoning… Most of a rollout's
//! bytes are those, and a field skipped is checked as JSON but never built.
//!
//! A field is dropped only once the payload's `type` (or its item's) is known to be one whose
//! rows never read it; an unknown type keeps everything (its row may show its JSON). The
//! equivalence test (`tests/lean.rs`) holds the rows and summary of every fixture to the
//! whole parse's.

use crate::lean::shaped::Shape;

/// The shape of the `payload` of a rollout line of type `line` (read lean through
/// `crate::formats::Shaped`).
pub(crate) fn payload(line: &str) -> Of<'_> {
    Of::Payload(line)
}

/// What a map is, for [`keeps`].
#[derive(Clone, Copy)]
pub(crate) enum Of<'a> {
    /// A line's payload.
    Payload(&'a str),
    /// An `event_msg` `item_completed`'s `item`.
    Item,
    /// A map of which only one field is read (`thread_settings`: its `model`; `token_count`'s
    /// `info`: its `total_token_usage`).
    Only(&'a str),
    /// A token usage (`total_token_usage`, a `token_usage_record`'s turn and thread usage):
    /// the counts a turn's row and the summary read ([`USAGE_KEYS`]).
    Usage,
}

/// The counts of a token usage that are read (`rows::usage_line`, the summary's totals).
const USAGE_KEYS: &[&str] = &[
    "input_tokens",
    "cached_input_tokens",
    "cache_write_input_tokens",
    "output_tokens",
    "reasoning_output_tokens",
];

/// Whether field `key` of a map that is `of`, whose `type` is `ty` (`None`: not yet seen or
/// none), is read by a row or the summary.
fn keeps(of: Of, ty: Option<&str>, key: &str) -> bool {
    match (of, ty) {
        (Of::Payload("world_state"), _) => false,
        (Of::Payload("session_meta"), _) => key != "base_instructions",
        (Of::Payload("turn_context"), _) => key == "model",
        (Of::Payload("token_usage_record"), _) => matches!(
            key,
            "thread_id" | "session_id" | "turn_token_usage" | "thread_token_usage"
        ),
        (Of::Payload("response_item"), Some("reasoning")) => {
            matches!(key, "summary" | "content" | "id")
        }
        (
            Of::Payload("response_item"),
            Some(
                "function_call"
                | "function_call_output"
                | "custom_tool_call"
                | "custom_tool_call_output"
                | "local_shell_call",
            ),
        ) => matches!(
            key,
            "name" | "arguments" | "call_id" | "input" | "output" | "action"
        ),
        (Of::Payload("event_msg"), Some(ty)) => match ty {
            "task_started" | "turn_started" | "thread_settings_applied" => key == "thread_settings",
            "task_complete" | "turn_complete" | "turn_aborted" => {
                matches!(
                    key,
                    "error" | "duration_ms" | "time_to_first_token_ms" | "reason"
                )
            }
            "token_count" => key == "info",
            "item_completed" => key == "item",
            "user_message"
            | "agent_message"
            | "agent_reasoning"
            | "agent_reasoning_raw_content"
            | "exec_command_end"
            | "exec_command_output_delta"
            | "patch_apply_end" => false,
            _ => true,
        },
        // A mirror of a message or reasoning: only what it is.
        (Of::Item, Some("UserMessage" | "AgentMessage" | "Reasoning")) => key == "id",
        (Of::Item, Some("CommandExecution")) => matches!(
            key,
            "id" | "command" | "exit_code" | "status" | "aggregated_output"
        ),
        (Of::Item, Some("FileChange")) => {
            matches!(key, "id" | "changes" | "status" | "stdout" | "stderr")
        }
        (Of::Only(only), _) => key == only,
        (Of::Usage, _) => USAGE_KEYS.contains(&key),
        _ => true,
    }
}

impl Shape for Of<'_> {
    fn keeps(self, ty: Option<&str>, key: &str) -> bool {
        keeps(self, ty, key)
    }

    fn field(self, ty: Option<&str>, key: &str) -> Option<Self> {
        match (self, ty, key) {
            (Of::Payload("event_msg"), Some("item_completed"), "item") => Some(Of::Item),
            (Of::Payload("event_msg"), Some("thread_settings_applied"), "thread_settings") => {
                Some(Of::Only("model"))
            }
            (Of::Payload("event_msg"), Some("token_count"), "info") => {
                Some(Of::Only("total_token_usage"))
            }
            (Of::Only("total_token_usage"), _, "total_token_usage")
            | (Of::Payload("token_usage_record"), _, "turn_token_usage" | "thread_token_usage") => {
                Some(Of::Usage)
            }
            _ => None,
        }
    }
}
