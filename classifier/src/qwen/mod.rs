//! Qwen Code (`@qwen-code/qwen-code`, read from 0.24.4: `docs/FORMATS.md`, "Qwen Code").
//!
//! Qwen Code writes three logs. Its `--output-format stream-json` stdout is Claude Code's
//! stream-json (read by [`crate::stream`] as such); what is Qwen's there is named here: the
//! `init` line's `qwen_code_version` names the log's agent ([`detect::agent_of`]), and its built-in
//! tools (Gemini CLI's names: `run_shell_command`, `read_file`, `edit`, …) are shown as the
//! Claude Code built-ins of the same meaning ([`tools::call_row`]). Its `-o json` stdout is
//! one JSON array of those lines, on one line ([`detect::is_json_output`]): each element is read as
//! a stream-json line. Its session files (`~/.qwen/projects/<project>/chats/<id>.jsonl`) are
//! records of another shape (`provenance`, a `message` of Gemini `parts`: [`detect::is_record`]),
//! each read as the Claude Code transcript line of the same meaning ([`record::to_stream`]),
//! so the turns, tool calls and results are the transcripts' rows.
//!
//! **Not shown**: the `system` records `attribution_snapshot` and the `ui_telemetry` events
//! `qwen-code.api_response` and `qwen-code.tool_call` (their tokens, times and calls repeat
//! what the assistant and tool result records say, but for the memory extraction's calls, whose
//! tokens the summary counts: [`side_call_tokens`]); a tool result's `resultDisplay` (the
//! output is shown from the `functionResponse`); the stream's `goal_state` events. A
//! `qwen-code.api_error` is shown: an HTTP 4xx other than 408/429 fails the turn, any other
//! is a retry (`⚠ api retry`).

pub(crate) mod detect;
pub(crate) mod lean;
pub(crate) mod record;
pub(crate) mod tools;

use serde_json::Value;

use crate::ctx::ClassifyCtx;
use crate::field::Field;
use crate::msg::TermMsg;

/// The rows of a Qwen Code line that is not stream-json: the `-o json` array (each element's
/// rows in turn) or a session record (the rows of its transcript line; none for bookkeeping).
pub(crate) fn classify(value: &Value, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let mut rows = Vec::new();
    each_line(value, |line| {
        rows.extend(crate::stream::classify_value(line, ctx))
    });
    rows
}

/// Calls `f` with each Claude Code line a Qwen line reads as: the `-o json` array's
/// elements, or a record's transcript line (none for a record that gives no row).
pub(crate) fn each_line(value: &Value, mut f: impl FnMut(&Value)) {
    match value {
        Value::Array(items) => items.iter().for_each(f),
        _ => {
            if let Some(line) = record::to_stream(value) {
                f(&line);
            }
        }
    }
}

/// `[input, output, cache_read]` tokens of an API call that only a `ui_telemetry`
/// `qwen-code.api_response` record states: Qwen Code's background memory extraction
/// (`prompt_id` `<session>#managed-auto-memory-extractor-<id>#<n>`, issue 47), which writes
/// no assistant record (every other `api_response` repeats an assistant record's
/// `usageMetadata`, counted there). Qwen Code's own `result` counts these calls.
pub(crate) fn side_call_tokens(value: &Value) -> Option<[u64; 3]> {
    let event = value.field("systemPayload")?.field("uiEvent")?;
    let name = event.field("event.name").and_then(Value::as_str);
    let prompt = event.field("prompt_id").and_then(Value::as_str)?;
    if name != Some("qwen-code.api_response") || !prompt.contains("#managed-auto-memory-extractor-")
    {
        return None;
    }
    let n = |k: &str| event.field(k).and_then(Value::as_u64).unwrap_or(0);
    Some([
        n("input_token_count"),
        n("output_token_count"),
        n("cached_content_token_count"),
    ])
}

#[cfg(test)]
mod tests;
