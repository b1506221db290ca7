//! The top-level dispatch: one [`LiveEvent`] → zero or more rows.

use crate::ctx::ClassifyCtx;
use crate::event::{LiveEvent, LogEvent, parse_line};
use crate::msg::{Level, TermEnvelope, TermMsg};
use crate::text::{sanitize, truncate_chars};

/// Classifies one event. Turn and note events map to one row each, agent-state events to
/// none, a Claude Code line to as many rows as it has parts. Never fails and never panics;
/// every string in the result is free of escape sequences and control characters.
pub fn classify(event: &LiveEvent, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let mut rows = match event {
        LiveEvent::TurnStart { from, body } => vec![turn_start(from, body)],
        LiveEvent::TurnEnd { ok: true, .. } => {
            vec![TermMsg::new(Level::Info, "turn ok").icon("✅")]
        }
        LiveEvent::TurnEnd { ok: false, note } => {
            let summary = match note.as_deref().map(str::trim) {
                Some(note) if !note.is_empty() => format!("turn fail — {}", first_line(note)),
                _ => "turn fail".to_owned(),
            };
            vec![TermMsg::new(Level::Error, summary).icon("❌")]
        }
        LiveEvent::Note { text } => vec![note(text)],
        LiveEvent::Stream { value } => crate::stream::classify_value(value, ctx),
        LiveEvent::StatusChanged { .. }
        | LiveEvent::ModelChanged { .. }
        | LiveEvent::EffortChanged { .. }
        | LiveEvent::TokenUsageChanged { .. }
        | LiveEvent::TurnStateChanged { .. } => Vec::new(),
        LiveEvent::Unrecognised { value } => vec![crate::stream::unrecognised(value)],
        LiveEvent::Unreadable { error, preview } => vec![
            TermMsg::new(Level::Error, format!("unreadable line · {error}"))
                .icon("✗")
                .body(preview.clone()),
        ],
    };
    for row in &mut rows {
        sanitize(&mut row.summary);
        if let Some(body) = &mut row.body {
            sanitize(body);
        }
    }
    rows
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
        msgs,
    }
}

/// Parses and classifies one line of any supported log. `seq` is stamped on the envelope.
pub fn classify_line(line: &[u8], seq: u64, ctx: &mut ClassifyCtx) -> TermEnvelope {
    let mut env = classify_log_event(&parse_line(line), ctx);
    env.seq = Some(seq);
    env
}

fn turn_start(from: &str, body: &str) -> TermMsg {
    let summary = if from.trim().is_empty() {
        "TURN".to_owned()
    } else {
        format!("TURN ← {from}")
    };
    let row = TermMsg::new(Level::Info, summary).icon("◆");
    if body.trim().is_empty() {
        row
    } else {
        row.body(body)
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
