//! The top-level dispatch: one [`LiveEvent`] → zero or more rows.

use crate::ctx::ClassifyCtx;
use crate::document::Now;
use crate::event::{LiveEvent, LogEvent, from_value, line_event_lean};
use crate::lines::Line;
use crate::msg::{Level, TermEnvelope, TermMsg};
use crate::text::sanitize;

/// Classifies one event. Turn and note events map to one row each, agent-state events to
/// none, a Claude Code line to as many rows as it has parts. Never fails and never panics;
/// every string in the result is free of escape sequences and control characters.
pub fn classify(event: &LiveEvent, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    // Only this line's own rows may say their last row is clean.
    ctx.clean_last = false;
    let mut rows = if ctx.doc.is_empty() && !matches!(event, LiveEvent::Unreadable { .. }) {
        // (Nearly every line: no JSON document over many lines is open, nor begins.)
        crate::formats::rows(event, ctx)
    } else {
        document_rows(event, ctx)
    };
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

/// The rows of a line while a JSON document written over many lines may be read
/// ([`crate::document`]): the document's rows, then the line's own or the whole document's.
fn document_rows(event: &LiveEvent, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let out = ctx.doc.step(event);
    let mut rows = crate::document::rows(&out);
    let more = match out.now {
        Now::Other => crate::formats::rows(event, ctx),
        Now::Done(value, _) => crate::formats::rows(&from_value(*value).event, ctx),
        Now::Open(_) | Now::InBroken => Vec::new(),
    };
    if rows.is_empty() {
        rows = more;
    } else {
        rows.extend(more);
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
        parent: None,
        msgs,
    }
}

/// Parses and classifies one line of any supported log, whole or over the line limit; the
/// envelope's `seq` is [`Line::number`]. The one public way to classify a line: a whole line
/// from elsewhere is [`Line::whole`]`(seq, bytes)`.
pub fn classify_line(line: &Line, ctx: &mut ClassifyCtx) -> TermEnvelope {
    let event = line_event_lean(&line.bytes, line.oversize, crate::formats::lean_hints(ctx));
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
