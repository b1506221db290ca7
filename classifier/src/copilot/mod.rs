//! GitHub Copilot CLI (`@github/copilot`, read from 1.0.102: `docs/FORMATS.md`, "GitHub
//! Copilot CLI"): its session events, one JSON object a line, `{type, data, id, timestamp,
//! parentId}` (`ephemeral: true` on those only its stdout has), and the `result` line that
//! ends `copilot -p … --output-format json`. The same events are its store,
//! `~/.copilot/session-state/<id>/events.jsonl` (without the ephemeral ones, with
//! `session.start`, `session.resume`, `system.message`, `session.usage_record`,
//! `session.shutdown`).
//!
//! - [`detect`]: which lines are Copilot's ([`detect::is_copilot`]), asked before Gemini's.
//! - [`rows`]: a line → its rows ([`classify`]): `user.message` opens a turn (`◆ TURN ←
//!   user`, the prompt as body); `assistant.message` gives its reasoning (`💭`), its text
//!   (markdown) and a row per tool it calls ([`tools`]: the Claude Code built-in rows);
//!   `tool.execution_complete` the call's result (an error row when it failed or its command
//!   exited non-zero); `assistant.turn_retry` `⚠ api retry`; `session.error` `❌ turn fail`;
//!   `result` and `session.shutdown` end the turn (the next prompt, too; `abort` interrupts).
//! - [`summary`]: its share of the summary (agent `copilot`, version, models, tool calls and
//!   errors, files changed, tokens from `session.usage_record`).
//!
//! **Not shown** (no row, an empty envelope): the deltas (`assistant.message_delta`,
//! `assistant.reasoning_delta`, `assistant.tool_call_delta`, `assistant.message_start`) and
//! `assistant.reasoning` (the complete `assistant.message` carries the text and its
//! `reasoningText`); `tool.execution_start` of a call already shown, `tool.shell_output` and
//! `tool.execution_partial_result` (the result carries the output); `assistant.turn_start` /
//! `turn_end` (one model call each, not a user's turn) and `assistant.idle`; the model-call
//! bookkeeping (`model.call_start`, `call_finished`, `call_final_result`, `call_failure`: the
//! retry or the error says what failed); `session.skills_loaded`, `mcp_servers_loaded`,
//! `tools_updated`, `background_tasks_changed`, `todos_changed`; `session.info`
//! `model_retry` (the retry row says it); `system.message` (the system prompt, kilobytes per
//! session); `session.usage_record` (figures: the summary). An event of another type is a
//! debug `⚙ <type>` row.

pub(crate) mod detect;
pub(crate) mod lean;
mod rows;
pub(crate) mod summary;
pub(crate) mod tools;

pub(crate) use self::rows::classify;

#[cfg(test)]
mod tests;
