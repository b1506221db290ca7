//! hyperhive, the harness (`hiveterm run`, a hyperhive event log): its lines (`kind`:
//! `turn_start`, `turn_end`, `note`, `stream`, `*_changed`) read into events, the rows of its
//! turns and notes, and the rule that a harness owns the turn rows of the agent it runs.

use serde_json::Value;

use crate::ctx::ClassifyCtx;
use crate::event::live::LiveEvent;
use crate::field::Field;
use crate::kind::{RowKind, as_prompt, turn_fail_row, turn_kind, turn_ok_row, turn_start_row};
use crate::msg::{Level, TermMsg};
use crate::text::truncate_chars;

/// The event of a hyperhive line (`kind` as written): an unknown kind, or a known one
/// without its fields, is [`LiveEvent::Unrecognised`].
pub(crate) fn event(kind: Option<&str>, mut value: Value) -> LiveEvent {
    let obj = value.as_object_mut().expect("checked by caller");
    let text = |k: &str| obj.field(k).and_then(Value::as_str).map(str::to_owned);
    let field = |k: &str| obj.field(k).cloned().unwrap_or(Value::Null);
    let event = match kind {
        Some("turn_start") => match (text("from"), text("body")) {
            (None, None) => None,
            (from, body) => Some(LiveEvent::TurnStart {
                from: from.unwrap_or_default(),
                body: body.unwrap_or_default(),
            }),
        },
        Some("turn_end") => obj
            .field("ok")
            .and_then(Value::as_bool)
            .map(|ok| LiveEvent::TurnEnd {
                ok,
                note: text("note"),
            }),
        Some("note") => text("text").map(|text| LiveEvent::Note { text }),
        Some("stream") => match obj.field("value") {
            None | Some(Value::Null) => None,
            Some(_) => obj.remove("value").map(|value| LiveEvent::Stream { value }),
        },
        Some("status_changed") => Some(LiveEvent::StatusChanged {
            status: field("status"),
        }),
        Some("model_changed") => Some(LiveEvent::ModelChanged {
            model: field("model"),
        }),
        Some("effort_changed") => Some(LiveEvent::EffortChanged {
            effort: field("effort"),
        }),
        Some("token_usage_changed") => Some(LiveEvent::TokenUsageChanged {
            usage: field("usage"),
        }),
        Some("turn_state_changed") => Some(LiveEvent::TurnStateChanged {
            state: field("state"),
        }),
        _ => None,
    };
    event.unwrap_or(LiveEvent::Unrecognised { value })
}

/// The row of a harness's turn start (its own turn bookkeeping first).
pub(crate) fn turn_start(from: &str, body: &str, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    crate::stream::harness_turn(ctx, false, &mut Vec::new());
    vec![turn_start_row(from, body)]
}

/// The rows of a harness's turn end: what the turn left open, then how it ended.
pub(crate) fn turn_end(ok: bool, note: Option<&str>, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let mut rows = Vec::new();
    crate::stream::harness_turn(ctx, true, &mut rows);
    rows.push(if ok {
        turn_ok_row()
    } else {
        turn_fail_row(note)
    });
    rows
}

/// An agent's rows under a harness (a hyperhive `turn_start`/`turn_end` seen: a
/// hyperhive log, a `hiveterm run` session), which owns the turn rows as it does for Claude
/// Code's: the agent's own turn start is its prompt (`prompt ← user`, or nothing without
/// one), its turn end gives no row (the harness's says how the run ended; errors are rows of
/// their own); an interruption stays.
pub(crate) fn under_harness(rows: Vec<TermMsg>, ctx: &ClassifyCtx) -> Vec<TermMsg> {
    if !ctx.turns.harness {
        return rows;
    }
    rows.into_iter()
        .filter_map(|row| match turn_kind(&row) {
            RowKind::TurnStart => row.body.is_some().then(|| as_prompt(row)),
            RowKind::TurnOk | RowKind::TurnFail => None,
            _ => Some(row),
        })
        .collect()
}

/// Longest summary a note shows before the rest moves to its body.
const NOTE_SUMMARY_CHARS: usize = 200;

/// The row of a harness note: `stderr:` a warning, `operator:` info, anything else debug.
pub(crate) fn note(text: &str) -> TermMsg {
    let level = if text.starts_with("stderr:") {
        Level::Warn
    } else if text.starts_with("operator:") {
        Level::Info
    } else {
        Level::Debug
    };
    let head = first_line(text);
    let summary = truncate_chars(head, NOTE_SUMMARY_CHARS);
    let row = TermMsg::new(level, summary.clone());
    if summary.len() == text.len() {
        row
    } else {
        row.body(text)
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}
