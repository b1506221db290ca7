//! Google Gemini CLI logs: `--output-format stream-json` stdout, the `-o json` document and the
//! chat recordings of `~/.gemini/tmp/<project>/chats/` (`docs/FORMATS.md`, "Gemini").
//!
//! A line is Gemini's by its shape ([`is_gemini`](detect::is_gemini)), never by its file; it becomes a
//! [`LiveEvent::Gemini`](crate::LiveEvent::Gemini) and is classified here ([`classify`]) with the
//! log's [`State`](state::State) (kept in the [`ClassifyCtx`]); [`SummaryPart`] is its share of the summary.
//!
//! - [`stream`]: stream-json events (`init`, `message`, `tool_use`, `tool_result`, `error`,
//!   `result`) and the `-o json` document once whole (`session_id` with `response`/`error`);
//! - [`answer`]: a stream-json answer's deltas → one row per paragraph, the last growing;
//! - [`run_end`]: how a run ended: why it failed, and its figures;
//! - [`record`]: a chat recording's metadata, `$set` updates and message records (a message
//!   written again shows only what is new);
//! - [`typed`]: a message record read into typed fields ([`Record`]), from its line or from a
//!   [`Value`] ([`LiveEvent::GeminiRecord`](crate::LiveEvent::GeminiRecord)); a stream-json
//!   `init`, prompt, `tool_use`, `tool_result` or `result` read from its line ([`Event`]);
//! - [`tools`]: a Gemini tool call → the existing tool-call row of the same meaning, and its
//!   result → the existing result row;
//! - [`lean`]: what a lean parse of a recording line leaves out;
//! - [`summary`]: tokens, models, tool calls and files changed, each counted once;
//! - [`detect`]: which lines are Gemini's ([`is_gemini`](detect::is_gemini)) and their time ([`timestamp`](detect::timestamp));
//! - [`state`]: [`State`](state::State) and the data it holds, and [`digest`](state::digest), the hash it remembers by.
//!
//! The `-o json` document, written over many lines, is joined by the shared `crate::document`
//! (as OpenCode's export is) and read by [`stream`] on the line that completes it.

use crate::field::Field;
use serde_json::Value;

use crate::ctx::ClassifyCtx;
use crate::msg::TermMsg;

mod answer;
pub(crate) mod detect;
pub(crate) mod lean;
mod record;
mod run_end;
pub(crate) mod state;
mod stream;
mod summary;
mod tools;
pub(crate) mod typed;

use self::detect::is_record_line;
pub(crate) use self::summary::SummaryPart;
pub use self::typed::{Event, Meta, Record, Update};

/// The end of a log whose turn ends are not written (a Gemini chat recording's).
impl ClassifyCtx {
    /// How the end of the log would end its open turn, for a log whose turn ends are not
    /// written (a Gemini chat recording: its turn ends when nothing follows the model's
    /// answer): `Some(true)` ok, `Some(false)` failed; `None` when no turn is open, or the open
    /// one was cut (nothing says how it ended: an ended session calls it interrupted).
    pub fn end_pending(&self) -> Option<bool> {
        let state = &self.gemini;
        if !state.turn_open {
            None
        } else if state.seen.failed.is_some() {
            Some(false)
        } else if state.seen.answered {
            Some(true)
        } else {
            None
        }
    }

    /// The rows the end of the log adds (its open turn's end, as [`end_pending`](Self::end_pending)
    /// says; none when it says `None`). [`crate::LogClassifier::finish`] adds them to the
    /// envelope of the log's last line.
    pub fn end_of_log(&mut self) -> Vec<TermMsg> {
        let mut rows = Vec::new();
        if self.end_pending().is_some() {
            record::close_turn(self, &mut rows);
        }
        rows
    }
}

/// The rows of one Gemini line.
pub(crate) fn classify(value: &Value, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let Some(map) = value.as_object() else {
        return vec![crate::stream::unrecognised(value)];
    };
    if is_record_line(map) || map.has("$set") || map.has("projectHash") {
        ctx.gemini.text_last = false;
        return record::classify(map, ctx);
    }
    stream::classify(map, ctx)
}

/// The rows of one message record.
pub(crate) fn classify_record(record: &Record, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    ctx.gemini.text_last = false;
    let mut rows = Vec::new();
    record::message(record, ctx, &mut rows);
    rows
}

/// The rows of one metadata line read typed.
pub(crate) fn classify_meta(meta: &Meta, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    ctx.gemini.text_last = false;
    let mut rows = Vec::new();
    record::metadata(meta, ctx, &mut rows);
    rows
}

/// The rows of one update line read typed.
pub(crate) fn classify_update(update: &Update, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    ctx.gemini.text_last = false;
    let mut rows = Vec::new();
    record::set_rows(update, ctx, &mut rows);
    rows
}

/// The rows of one stream-json `init`, prompt, `tool_use`, `tool_result` or `result` read typed.
pub(crate) fn classify_event(event: &Event, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    ctx.gemini.text_last = false;
    let mut rows = Vec::new();
    match event {
        Event::Init { session_id, model } => {
            stream::init(session_id.as_deref(), model.as_deref(), ctx, &mut rows);
        }
        Event::Prompt { content } => stream::prompt(content, ctx, &mut rows),
        Event::Result {
            status,
            failed,
            error,
            stats,
        } => stream::result(
            status.as_deref(),
            failed.then(|| run_end::Why(error.as_deref())),
            stats.as_ref(),
            ctx,
            &mut rows,
        ),
        Event::ToolUse {
            tool_name,
            tool_id,
            parameters,
        } => stream::tool_use(
            tool_name.as_deref(),
            tool_id.as_deref(),
            parameters,
            ctx,
            &mut rows,
        ),
        Event::ToolResult {
            tool_id,
            status,
            output,
            error,
        } => stream::tool_result(
            tool_id.as_deref(),
            status.as_deref(),
            output.as_deref(),
            error.as_deref(),
            ctx,
            &mut rows,
        ),
    }
    rows
}

/// The rows of one stream-json answer delta read typed (its text).
pub(crate) fn classify_delta(text: &str, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let mut rows = Vec::new();
    stream::delta(text, ctx, &mut rows);
    rows
}

#[cfg(test)]
mod tests;
