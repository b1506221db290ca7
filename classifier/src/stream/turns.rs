//! Where turns start and end in a raw Claude Code log, and what an interrupted turn keeps.
//!
//! **With a harness** (a hyperhive `turn_start`/`turn_end` seen, as in a hyperhive event log
//! or a `hiveterm run` session, whose own turn events wrap the agent's stream), the harness's
//! turn rows are the only ones: `init` and `result` lines add none.
//!
//! **Stream-json without a harness:**
//! - A turn starts at the user message when the stream carries one (`--input-format
//!   stream-json`, `--replay-user-messages`): `◆ TURN ← user` with the prompt; the `init` that
//!   follows it adds nothing. Otherwise it starts at the `system init` that opens the run:
//!   `◆ TURN ← user` without a body. A prompt that comes after such an `init` but before any
//!   assistant message belongs to that turn: it is shown as `prompt ← user`, not a second
//!   start.
//! - Every `result` line is one turn end: `✅ turn ok` (info), or `❌ turn fail — <why>`
//!   (error), with the turn's own `duration_ms` when the line has it (`turn ok · 310ms`), when `is_error` is true (an API failure reports `subtype: success` with
//!   `is_error: true`) or the subtype is an `error_*` one. Its plain body lists the figures
//!   the line carries (wall and API time, turns, cost, tokens, permission denials).
//! - Runs pair first-in first-out. Real streams interleave: a background task's notification
//!   starts a second run (a second `init`, shown as `◆ TURN ← task`) while the first is still
//!   open, and the two `result` lines come after both (`subagent.stream.jsonl`: `init`,
//!   `init`, `result` of the first run with its 2 turns, `result` of the second with 1).
//!   So an `init` while a run is open opens another turn, and each `result` ends the oldest.
//!
//! **Transcripts** carry no `init` or `result`: a user prompt starts a turn, and the turn ends
//! at the assistant line that ends it — the first line with a text block of a message whose
//! `stop_reason` is `end_turn`, `stop_sequence` or `refusal` (transcripts write one line per
//! content block, each with its message's `stop_reason`; the answer's text comes last): a
//! `✅ turn ok` row after that line's rows, or `❌ turn fail — <error>` when the message stands
//! for a failed API call. A message that ends no open turn (a resumed answer after a meta
//! "cut off" prompt) adds nothing. So a transcript whose last turn finished shows it ended,
//! with no clock; one cut mid-turn (still being written) shows it running.
//!
//! **Interruptions:** `[Request interrupted by user]` and `[Request interrupted by user for
//! tool use]` are one `⏹ interrupted by user` warn row, not a turn start; in a transcript it
//! also ends the open turn. Answer text streamed through `stream_event` deltas whose complete
//! assistant message never came is shown, when the turn ends, fails or is interrupted, as a
//! `(interrupted)` row holding exactly the text streamed so far (markdown), before the end row.

use crate::field::Field;
use serde_json::{Map, Value};

use crate::ctx::ClassifyCtx;
use crate::kind::{as_prompt, interrupted_row, timed, turn_fail_row, turn_ok_row, turn_start_row};
use crate::msg::{BodyFormat, Level, TermMsg};
use crate::partial::MAX_PREVIEW_BYTES;
use crate::text::truncate_chars;

use crate::time::millis;

/// Longest `<why>` of a failed turn.
const WHY_CHARS: usize = 160;

/// A hyperhive turn event: the harness owns the turn rows from now on. A turn end first
/// shows a partial answer that never completed.
pub(crate) fn harness_turn(ctx: &mut ClassifyCtx, ends: bool, rows: &mut Vec<TermMsg>) {
    ctx.turns.harness = true;
    ctx.turns.open = 0;
    ctx.turns.fresh = false;
    ctx.turns.awaiting_init = false;
    if ends {
        flush_partial(ctx, rows);
    } else {
        ctx.turns.partial.clear();
    }
}

/// A `system init` line.
pub(crate) fn init(ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let t = &mut ctx.turns;
    if t.harness {
        return Vec::new();
    }
    if t.awaiting_init {
        t.awaiting_init = false;
        return Vec::new();
    }
    let from = if t.open == 0 { "user" } else { "task" };
    t.open += 1;
    t.fresh = true;
    vec![turn_start_row(from, "")]
}

/// A user prompt's `◆ TURN ← …` row, as the turn state has it: the start of a turn, or the
/// prompt of the turn an `init` just opened.
pub(crate) fn prompt(ctx: &mut ClassifyCtx, row: TermMsg, transcript: bool) -> TermMsg {
    let t = &mut ctx.turns;
    if t.harness {
        return row;
    }
    if transcript {
        t.open = 1;
        return row;
    }
    if t.fresh {
        t.fresh = false;
        return as_prompt(row);
    }
    t.open += 1;
    t.awaiting_init = true;
    row
}

/// An interruption: a partial answer first, then `⏹ interrupted by user`.
pub(crate) fn interrupted(ctx: &mut ClassifyCtx, transcript: bool, rows: &mut Vec<TermMsg>) {
    flush_partial(ctx, rows);
    rows.push(interrupted_row());
    if transcript && !ctx.turns.harness {
        ctx.turns.open = 0;
    }
    ctx.turns.fresh = false;
}

/// A `stream_event` line: answer text deltas of the main agent are kept.
pub(crate) fn stream_event(obj: &Map<String, Value>, ctx: &mut ClassifyCtx) {
    if obj
        .field("parent_tool_use_id")
        .is_some_and(|p| !p.is_null())
    {
        return;
    }
    let Some(event) = obj.field("event") else {
        return;
    };
    if event.field("type").and_then(Value::as_str) != Some("content_block_delta") {
        return;
    }
    let delta = event.field("delta");
    if delta.and_then(|d| d.field("type")).and_then(Value::as_str) != Some("text_delta") {
        return;
    }
    if let Some(piece) = delta.and_then(|d| d.field("text")).and_then(Value::as_str) {
        let partial = &mut ctx.turns.partial;
        if partial.len() + piece.len() <= MAX_PREVIEW_BYTES {
            partial.push_str(piece);
        }
    }
}

/// After an assistant line's rows: its complete message supersedes the partial answer; in a
/// transcript, the line that ends the turn adds the turn's end row.
pub(crate) fn assistant(
    obj: &Map<String, Value>,
    ctx: &mut ClassifyCtx,
    api_error: bool,
    rows: &mut Vec<TermMsg>,
) {
    let main = obj.field("parent_tool_use_id").is_none_or(Value::is_null);
    if main {
        ctx.turns.partial.clear();
    }
    ctx.turns.fresh = false;
    if !is_transcript(obj) || ctx.turns.harness || ctx.turns.open == 0 {
        return;
    }
    let message = obj.field("message");
    let stop = message
        .and_then(|m| m.field("stop_reason"))
        .and_then(Value::as_str);
    if !matches!(stop, Some("end_turn" | "stop_sequence" | "refusal")) {
        return;
    }
    let text = match message.and_then(|m| m.field("content")) {
        Some(Value::String(s)) => Some(s.as_str()),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter(|b| b.field("type").and_then(Value::as_str) == Some("text"))
            .find_map(|b| b.field("text").and_then(Value::as_str)),
        _ => None,
    };
    let Some(text) = text else {
        return;
    };
    ctx.turns.open = 0;
    rows.push(if api_error {
        turn_fail_row(Some(&truncate_chars(text.trim(), WHY_CHARS)))
    } else {
        turn_ok_row()
    });
}

/// A `result` line: one turn end (none under a harness), after any partial answer.
pub(crate) fn result(obj: &Map<String, Value>, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    if ctx.turns.harness {
        return Vec::new();
    }
    let mut rows = Vec::new();
    flush_partial(ctx, &mut rows);
    let t = &mut ctx.turns;
    t.open = t.open.saturating_sub(1);
    t.fresh = false;
    t.awaiting_init = false;
    let row = match failure(obj) {
        Some(why) => turn_fail_row(Some(&why)),
        None => turn_ok_row(),
    };
    let row = timed(row, obj.field("duration_ms").and_then(Value::as_f64));
    let figures = figures(obj);
    rows.push(if figures.is_empty() {
        row
    } else {
        row.body(figures)
    });
    rows
}

/// Why a `result` line is a failure, or `None` for a success.
fn failure(obj: &Map<String, Value>) -> Option<String> {
    let s = |k: &str| obj.field(k).and_then(Value::as_str);
    let n = |k: &str| obj.field(k).and_then(Value::as_f64);
    let subtype = s("subtype").unwrap_or("");
    let is_error = obj.field("is_error").and_then(Value::as_bool) == Some(true);
    let error_subtype = subtype.starts_with("error");
    if !is_error && !error_subtype {
        return None;
    }
    let first = |text: &str| {
        let line = text.trim().lines().next().unwrap_or("").trim();
        truncate_chars(line, WHY_CHARS)
    };
    let errors = obj
        .field("errors")
        .and_then(Value::as_array)
        .and_then(|e| e.iter().find_map(Value::as_str))
        // Qwen Code's: `error.message`.
        .or_else(|| obj.field("error")?.field("message")?.as_str())
        .map(first)
        .filter(|e| !e.is_empty());
    let why = match subtype {
        "error_max_turns" => match n("num_turns") {
            Some(t) => format!("max turns ({})", int(t)),
            None => "max turns".to_owned(),
        },
        "error_max_budget_usd" => match n("total_cost_usd") {
            Some(c) => format!("max budget (${c})"),
            None => "max budget".to_owned(),
        },
        "error_max_structured_output_retries" => "structured output retries used up".to_owned(),
        "error_during_execution" => errors
            .clone()
            .unwrap_or_else(|| "error during execution".to_owned()),
        other if other.starts_with("error_") => other["error_".len()..].replace('_', " "),
        _ => match s("result").map(first).filter(|r| !r.is_empty()) {
            Some(r) => r,
            None => match n("api_error_status") {
                Some(st) => format!("API error {}", int(st)),
                None => errors.clone().unwrap_or_else(|| "error".to_owned()),
            },
        },
    };
    Some(why)
}

/// The figures a `result` line carries, one a line, for the turn end's body.
fn figures(obj: &Map<String, Value>) -> String {
    let n = |k: &str| obj.field(k).and_then(Value::as_f64);
    let mut out = Vec::new();
    match (
        n("duration_ms").and_then(millis),
        n("duration_api_ms").and_then(millis),
    ) {
        (Some(w), Some(a)) => out.push(format!("time {w} (API {a})")),
        (Some(w), None) => out.push(format!("time {w}")),
        (None, Some(a)) => out.push(format!("API time {a}")),
        (None, None) => {}
    }
    if let Some(t) = n("num_turns") {
        out.push(format!("turns {}", int(t)));
    }
    if let Some(c) = n("total_cost_usd") {
        out.push(format!("cost ${}", round_cost(c)));
    }
    if let Some(u) = obj.field("usage").and_then(Value::as_object) {
        let tok = |k: &str| u.field(k).and_then(Value::as_f64);
        let parts: Vec<String> = [
            ("input_tokens", "in"),
            ("output_tokens", "out"),
            ("cache_read_input_tokens", "cache read"),
            ("cache_creation_input_tokens", "cache write"),
        ]
        .iter()
        .filter_map(|(k, label)| tok(k).map(|v| format!("{} {label}", int(v))))
        .collect();
        if !parts.is_empty() {
            out.push(format!("tokens {}", parts.join(" · ")));
        }
    }
    if let Some(d) = obj.field("permission_denials").and_then(Value::as_array)
        && !d.is_empty()
    {
        let tools: Vec<&str> = d
            .iter()
            .filter_map(|x| x.field("tool_name").and_then(Value::as_str))
            .collect();
        if tools.is_empty() {
            out.push(format!("permission denials {}", d.len()));
        } else {
            out.push(format!(
                "permission denials {} ({})",
                d.len(),
                tools.join(", ")
            ));
        }
    }
    out.join("\n")
}

/// Cost to at most 6 decimals, without trailing zeros (`0.031464`, `0.00435`, `0`).
fn round_cost(c: f64) -> String {
    if !c.is_finite() {
        return format!("{c}");
    }
    let s = format!("{c:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() || s == "-" {
        "0".to_owned()
    } else {
        s.to_owned()
    }
}

/// A whole number without a fraction.
fn int(n: f64) -> String {
    if n.is_finite() && n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

/// Shows the partial answer, if any, as an `(interrupted)` row, and forgets it.
fn flush_partial(ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    let text = std::mem::take(&mut ctx.turns.partial);
    if !text.trim().is_empty() {
        rows.push(TermMsg::new(Level::Info, "(interrupted)").body_as(text, BodyFormat::Markdown));
    }
}

/// A transcript line (camelCase `sessionId`), as opposed to stream-json's `session_id`.
pub(crate) fn is_transcript(obj: &Map<String, Value>) -> bool {
    obj.has("sessionId")
}

/// Whether a user text is Claude Code's interruption marker.
pub(crate) fn is_interruption(text: &str) -> bool {
    let t = text.trim();
    t == "[Request interrupted by user]" || t == "[Request interrupted by user for tool use]"
}
