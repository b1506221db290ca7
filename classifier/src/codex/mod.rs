//! OpenAI Codex CLI logs: `codex exec --json` stdout and the rollout files of
//! `~/.codex/sessions/` (`docs/FORMATS.md`, "Codex"; the rows in `docs/ROWS.md`, "Codex").
//!
//! A line is Codex's by its shape ([`is_codex`](detect::is_codex)), never by its file; it becomes a
//! [`LiveEvent::Codex`](crate::LiveEvent::Codex) and is classified here ([`classify`]) with the
//! log's [`State`](state::State) (kept in the [`ClassifyCtx`], small and bounded).
//!
//! Contents:
//! - [`detect`]: which lines are Codex's ([`is_codex`](detect::is_codex), [`ROLLOUT_TYPES`]).
//! - [`state`]: [`State`](state::State), what the log's earlier lines left to know, and its bounds.
//! - [`fact`]: the rollout lines that give no row of their own, read typed ([`Fact`]), from
//!   the line ([`fast`](fact::fast)) or a parsed payload.
//! - [`exec_line`]: an `exec --json` line read typed ([`Exec`]), from the line ([`exec_line::fast`])
//!   or a parsed map, for the events whose rows come from their typed fields.
//! - [`exec`]: `exec --json` events (`thread.*`, `turn.*`, `item.*`, `error`) → rows.
//! - [`rollout`]: rollout lines (`{timestamp, type, payload}`) → rows; which of the rollout's
//!   repeated facts gives the row.
//! - [`calls`]: a rollout's calls and their outputs → rows.
//! - [`turn`]: a rollout's turn start row, shown once.
//! - [`lean`]: the lean parse of a rollout line's payload (the fields rows read).
//! - [`mirror`]: the rollout's `item_completed` mirrors, and the calls a rollout has made.
//! - [`rows`]: the rows both make, from the crate's own makers (Bash, tool results, `💭`…).
//! - [`shell`]: commands unwrapped from `bash -lc`, tool outputs and patches read back.
//! - [`summary`]: [`SummaryPart`], the log's agent version, models, tokens, tool calls, files.
//! - `tests`: data-driven cases (`check(lines, rows)`), malformed fields included.

mod calls;
pub(crate) mod detect;
mod exec;
pub(crate) mod exec_line;
pub(crate) mod fact;
pub(crate) mod lean;
mod mirror;
mod rollout;
mod rows;
mod shell;
pub(crate) mod state;
mod summary;
#[cfg(test)]
mod tests;
mod turn;

use crate::field::Field;
use serde_json::Value;

use crate::ctx::ClassifyCtx;
use crate::msg::TermMsg;

pub(crate) use self::detect::ROLLOUT_TYPES;
pub use self::exec_line::Exec;
pub use self::fact::Fact;
pub(crate) use self::summary::SummaryPart;

/// The rows of a rollout line that states a [`Fact`] (read by the classifier's parse).
pub(crate) fn classify_fact(fact: &Fact, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    rollout::fact(fact, ctx)
}

/// The rows of an `exec --json` line read typed (by the classifier's parse).
pub(crate) fn classify_exec(exec: &Exec, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    exec::rows(exec, ctx)
}

/// The rows of one Codex line.
pub(crate) fn classify(value: &Value, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let Some(obj) = value.as_object() else {
        return vec![crate::stream::unrecognised(value)];
    };
    let ty = obj.field("type").and_then(Value::as_str).unwrap_or("");
    match obj.field("payload") {
        Some(Value::Object(payload)) if ROLLOUT_TYPES.contains(&ty) => {
            rollout::classify(ty, payload, ctx)
        }
        Some(Value::Object(_)) => vec![crate::stream::unrecognised(value)],
        _ => exec::classify(ty, obj, ctx),
    }
}
