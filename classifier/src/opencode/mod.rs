//! OpenCode logs (read from OpenCode 1.18.33, `docs/FORMATS.md`, "OpenCode"): the standard
//! output of `opencode run --format json` (one JSON object a line) and the document of
//! `opencode export <session id>` (one JSON object, pretty-printed over many lines: joined by
//! the shared document joiner, `crate::document`, and read on its last line).
//!
//! A line is OpenCode's by its shape ([`detect::is_opencode`]): a `type` beside a string `sessionID`
//! and a numeric `timestamp` (stdout), or `info` (an object with an `id`) beside a `messages`
//! list and no `type` (an export). It becomes a [`LiveEvent::OpenCode`](crate::LiveEvent) and
//! is classified here ([`classify`]) with the log's [`state::State`] (kept in the
//! [`ClassifyCtx`]); [`summary::SummaryPart`] is its share of the summary.
//!
//! - [`part`]: one part (`text`, `reasoning`, `tool`, `step-start`, `step-finish`, others) →
//!   rows; a stdout line carries one part, an export's messages hold them;
//! - [`tools`]: a tool part → the built-in call row of the same meaning and its result row;
//! - [`turn`]: where turns start and end (a run's first line, `step-finish` `stop`, an `error`),
//!   and the turn's figures;
//! - [`export`]: an export document: the session row, every message's prompt and parts;
//! - [`state`]: what the context keeps between lines, and a turn's figures;
//! - [`detect`]: which lines are OpenCode's, and their time;
//! - [`summary`]: tokens, cost (stated per step), models, tool calls and files changed.
//!
//! **Not shown**: `step-start` (no row; a second one before the step finished is the retry of
//! a cut stream: a warn row), a `step-finish` of `tool-calls` (its figures go to the turn's
//! end and the summary), ids, `time` of parts, `snapshot`s, a tool's `metadata` other than a
//! shell's exit code and an edit's diff, an `error`'s response headers and body (its message
//! and status code are shown), an export's `permission` list and per-message `path`/`summary`.

use serde_json::Value;

use crate::ctx::ClassifyCtx;
use crate::field::Field;
use crate::msg::TermMsg;

pub(crate) mod detect;
mod export;
pub(crate) mod lean;
mod part;
pub(crate) mod state;
pub(crate) mod summary;
mod tools;
mod turn;

#[cfg(test)]
mod tests;

/// The rows of one OpenCode line (or export document).
pub(crate) fn classify(value: &Value, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let mut rows = Vec::new();
    let Some(map) = value.as_object() else {
        return rows;
    };
    let Some(ty) = map.field("type").and_then(Value::as_str) else {
        export::rows(map, ctx, &mut rows);
        return rows;
    };
    let session = map.field("sessionID").and_then(Value::as_str).unwrap_or("");
    let ts = map.field("timestamp").and_then(Value::as_f64);
    turn::line_opens(session, ts, ctx, &mut rows);
    match (ty, map.field("part")) {
        ("error", _) => turn::error(map.field("error"), ts, ctx, &mut rows),
        (_, Some(p)) if p.is_object() => part::rows(p, ts, ctx, &mut rows),
        (other, _) => rows.push(part::other_row(other)),
    }
    rows
}
