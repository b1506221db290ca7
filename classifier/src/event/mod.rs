//! Source events: what one line of a log (or one message from a live agent) means.
//!
//! A line is recognised by its shape, never by the file it came from:
//! a hyperhive event-log line has `kind`; a Claude Code stream-json or transcript line has
//! `type` (transcripts add `uuid`/`sessionId`/`timestamp`) and becomes [`LiveEvent::Stream`].
//! Anything else still becomes an event ([`LiveEvent::Unrecognised`], [`LiveEvent::Unreadable`]),
//! so every line yields rows and parsing never fails.

use serde_json::Value;

use crate::lean::Hints;
use crate::lines::{Line, Oversize};

pub(crate) mod live;

pub(crate) use self::live::MAX_TEXT_BYTES;
pub use self::live::{LiveEvent, LogEvent};

/// How many bytes of a bad line a preview keeps.
const PREVIEW_BYTES: usize = 200;

/// Parses one line (without its newline) of any supported log format. Never fails.
pub fn parse_line(line: &[u8]) -> LogEvent {
    parse(line, None)
}

/// [`parse_line`] for classifying only: a Claude Code line's [`LiveEvent::Stream`] value may
/// lack the top-level fields no row and no summary reads ([`crate::lean`]); its envelope and
/// its summary are [`parse_line`]'s, in the context `hints` was taken from.
pub(crate) fn parse_line_lean(line: &[u8], hints: Hints) -> LogEvent {
    parse(line, Some(hints))
}

fn parse(line: &[u8], lean: Option<Hints>) -> LogEvent {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let (line, bom) = match line.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => (rest, true),
        None => (line, false),
    };
    if let Some(hints) = lean
        && let Some(mut event) = crate::formats::typed(line, hints)
    {
        event.bom = bom;
        return event;
    }
    let value = lean.and_then(|hints| crate::lean::parse(line, hints));
    let mut parsed = match value.map_or_else(|| serde_json::from_slice::<Value>(line), Ok) {
        Ok(value) => from_value(value),
        Err(err) => {
            let mut event = unreadable(line, describe_json_error(line, &err));
            if let LiveEvent::Unreadable { text, .. } = &mut event
                && line.len() <= MAX_TEXT_BYTES
            {
                *text = std::str::from_utf8(line).ok().map(str::to_owned);
            }
            LogEvent::at(None, event)
        }
    };
    parsed.bom = bom;
    parsed
}

/// What a framed line means: [`parse_line`] of a whole line, [`over_limit`] of an over-long
/// one. The one door from a [`Line`] to an event.
pub fn line_event(line: &Line) -> LogEvent {
    match line.oversize {
        None => parse_line(&line.bytes),
        Some(over) => LogEvent::at(None, over_limit(&line.bytes, over)),
    }
}

/// [`line_event`] for classifying only ([`parse_line_lean`]): the same envelope and summary.
/// `bytes`: the line's (its head when `oversize`).
pub(crate) fn line_event_lean(bytes: &[u8], oversize: Option<Oversize>, hints: Hints) -> LogEvent {
    match oversize {
        None => parse_line_lean(bytes, hints),
        Some(over) => LogEvent::at(None, over_limit(bytes, over)),
    }
}

/// The event of a line over the line limit, from its first bytes: an
/// [`LiveEvent::Unreadable`] saying how long it was, in the one wording every path shows
/// (`{len} bytes, over the {limit}-byte line limit`). Its preview always ends in `…`: the
/// line went on.
pub fn over_limit(head: &[u8], over: Oversize) -> LiveEvent {
    let Oversize { len, limit } = over;
    let mut event = unreadable(
        head,
        format!("{len} bytes, over the {limit}-byte line limit"),
    );
    if let LiveEvent::Unreadable { preview, .. } = &mut event
        && !preview.ends_with('…')
    {
        preview.push('…');
    }
    event
}

/// Interprets an already-parsed line: which agent's it is, in the order of the table of
/// formats ([`crate::formats`]), else a hyperhive event, a Claude Code line or an
/// unrecognised one. Never fails.
pub fn from_value(value: Value) -> LogEvent {
    crate::formats::recognise(value)
}

/// Builds the event for a line that could not be read.
pub fn unreadable(line: &[u8], error: String) -> LiveEvent {
    let cut = floor_boundary(line, PREVIEW_BYTES);
    let mut preview = String::from_utf8_lossy(&line[..cut]).into_owned();
    if cut < line.len() {
        preview.push('…');
    }
    LiveEvent::Unreadable {
        error,
        preview,
        text: None,
    }
}

fn describe_json_error(line: &[u8], err: &serde_json::Error) -> String {
    if let Err(utf8) = std::str::from_utf8(line) {
        return format!("invalid UTF-8 at byte {}", utf8.valid_up_to());
    }
    let msg = err.to_string();
    if msg.starts_with("recursion limit exceeded") {
        // serde_json stops at 128 levels; say so in words rather than its internal term.
        return format!(
            "not JSON: nested more than 128 levels deep (column {})",
            err.column()
        );
    }
    format!("not JSON: {msg}")
}

/// The largest `i <= max` that does not split a UTF-8 sequence (bytes need not be UTF-8).
fn floor_boundary(bytes: &[u8], max: usize) -> usize {
    if bytes.len() <= max {
        return bytes.len();
    }
    let mut i = max;
    while i > 0 && i > max - 4 && (bytes[i] & 0xC0) == 0x80 {
        i -= 1;
    }
    i
}
