//! The top-level dispatch: one [`LiveEvent`] → zero or more rows.

use crate::ctx::ClassifyCtx;
use crate::event::{LiveEvent, LogEvent, from_value, line_event_lean};
use crate::gemini::document::Now;
use crate::kind::{
    RowKind, as_prompt, icon, turn_fail_row, turn_kind, turn_ok_row, turn_start_row,
};
use crate::lines::Line;
use crate::msg::{Level, TermEnvelope, TermMsg};
use crate::text::{sanitize, truncate_chars};

/// Classifies one event. Turn and note events map to one row each, agent-state events to
/// none, a Claude Code line to as many rows as it has parts. Never fails and never panics;
/// every string in the result is free of escape sequences and control characters.
pub fn classify(event: &LiveEvent, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    // Only this line's own rows may say their last row is clean.
    ctx.clean_last = false;
    // A line of a JSON document written over many lines (docs/FORMATS.md, Gemini CLI).
    let out = ctx.gemini.doc.step(event);
    let mut rows = crate::gemini::document::rows(&out);
    let more = match out.now {
        Now::Other => event_rows(event, ctx),
        Now::Done(value, _) => event_rows(&from_value(*value).event, ctx),
        Now::Open(_) | Now::InBroken => Vec::new(),
    };
    // (Nearly every line has no document rows: its own are taken as they are.)
    if rows.is_empty() {
        rows = more;
    } else {
        rows.extend(more);
    }
    // A Gemini answer's growing row is known clean: its text is not scanned whole again.
    let clean_last = std::mem::take(&mut ctx.clean_last);
    let last = rows.len().wrapping_sub(1);
    for (i, row) in rows.iter_mut().enumerate() {
        sanitize(&mut row.summary);
        if let Some(body) = &mut row.body {
            if clean_last && i == last {
                debug_assert_eq!(crate::text::scan(body), crate::text::Clean::Nothing);
            } else {
                sanitize(body);
            }
        }
    }
    rows
}

/// Codex's and Gemini's rows under a harness (a hyperhive `turn_start`/`turn_end` seen: a
/// hyperhive log, a `hiveterm run` session), which owns the turn rows as it does for Claude
/// Code's: the agent's own turn start is its prompt (`prompt ← user`, or nothing without
/// one), its turn end gives no row (the harness's says how the run ended; errors are rows of
/// their own); an interruption stays.
fn under_harness(rows: Vec<TermMsg>, ctx: &ClassifyCtx) -> Vec<TermMsg> {
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

/// The rows of one event on its own.
fn event_rows(event: &LiveEvent, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    match event {
        LiveEvent::TurnStart { from, body } => {
            crate::stream::harness_turn(ctx, false, &mut Vec::new());
            vec![turn_start_row(from, body)]
        }
        LiveEvent::TurnEnd { ok, note } => {
            let mut rows = Vec::new();
            crate::stream::harness_turn(ctx, true, &mut rows);
            rows.push(if *ok {
                turn_ok_row()
            } else {
                turn_fail_row(note.as_deref())
            });
            rows
        }
        LiveEvent::Note { text } => vec![note(text)],
        LiveEvent::Stream { value } => crate::stream::classify_value(value, ctx),
        LiveEvent::Codex { value } => under_harness(crate::codex::classify(value, ctx), ctx),
        LiveEvent::CodexFact { fact } => under_harness(crate::codex::classify_fact(fact, ctx), ctx),
        LiveEvent::CodexExec { exec } => under_harness(crate::codex::classify_exec(exec, ctx), ctx),
        LiveEvent::Gemini { value } => under_harness(crate::gemini::classify(value, ctx), ctx),
        LiveEvent::GeminiRecord { record } => {
            under_harness(crate::gemini::classify_record(record, ctx), ctx)
        }
        LiveEvent::GeminiMeta { meta } => {
            under_harness(crate::gemini::classify_meta(meta, ctx), ctx)
        }
        LiveEvent::GeminiUpdate { update } => {
            under_harness(crate::gemini::classify_update(update, ctx), ctx)
        }
        LiveEvent::GeminiEvent { event } => {
            under_harness(crate::gemini::classify_event(event, ctx), ctx)
        }
        LiveEvent::GeminiDelta { text } => {
            under_harness(crate::gemini::classify_delta(text, ctx), ctx)
        }
        LiveEvent::OpenCode { value } => under_harness(crate::opencode::classify(value, ctx), ctx),
        LiveEvent::Qwen { value } => crate::qwen::classify(value, ctx),
        LiveEvent::Copilot { value } => under_harness(crate::copilot::classify(value, ctx), ctx),
        LiveEvent::StatusChanged { .. }
        | LiveEvent::ModelChanged { .. }
        | LiveEvent::EffortChanged { .. }
        | LiveEvent::TokenUsageChanged { .. }
        | LiveEvent::TurnStateChanged { .. } => Vec::new(),
        LiveEvent::Unrecognised { value } => vec![crate::stream::unrecognised(value)],
        LiveEvent::Unreadable { error, preview, .. } => vec![
            TermMsg::new(Level::Error, format!("unreadable line · {error}"))
                .icon(icon::ERROR)
                .body(preview.clone()),
        ],
    }
}

/// Classifies a parsed line, keeping its time. A line that began with a byte-order mark gets
/// a debug row saying so, so no oddity of the input goes unseen.
pub fn classify_log_event(event: &LogEvent, ctx: &mut ClassifyCtx) -> TermEnvelope {
    let mut msgs = classify(&event.event, ctx);
    if event.bom {
        msgs.push(TermMsg::new(
            Level::Debug,
            "byte-order mark at the start of the line, ignored",
        ));
    }
    TermEnvelope {
        ts: event.ts,
        seq: None,
        parent: None,
        msgs,
    }
}

/// Parses and classifies one line of any supported log, whole or over the line limit; the
/// envelope's `seq` is [`Line::number`]. The one public way to classify a line: a whole line
/// from elsewhere is [`Line::whole`]`(seq, bytes)`.
pub fn classify_line(line: &Line, ctx: &mut ClassifyCtx) -> TermEnvelope {
    let event = line_event_lean(&line.bytes, line.oversize, lean_hints(ctx));
    classify_log_event_at(&event, ctx, line.number)
}

/// [`classify_log_event`] for the event at `seq` in its session: the envelope numbered, and
/// its `parent` found (docs/FORMATS.md, "Subagents"). Every path that numbers envelopes
/// classifies through here or [`classify_line`].
pub fn classify_log_event_at(event: &LogEvent, ctx: &mut ClassifyCtx, seq: u64) -> TermEnvelope {
    let parent = crate::nest::link(&event.event, &mut ctx.nest, seq);
    let mut env = classify_log_event(event, ctx);
    env.seq = Some(seq);
    env.parent = parent;
    env
}

/// What the lines classified so far tell the lean parse of the next ([`crate::lean`]).
pub(crate) fn lean_hints(ctx: &ClassifyCtx) -> crate::lean::Hints {
    crate::lean::Hints {
        gemini_history_seen: ctx.gemini.history_seen(),
    }
}

/// Longest summary a note shows before the rest moves to its body.
const NOTE_SUMMARY_CHARS: usize = 200;

fn note(text: &str) -> TermMsg {
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
