//! The wire types: one row ([`TermMsg`]) and the envelope that carries a source event's rows.
//!
//! Their JSON shape is the contract of `docs/FORMATS.md` ("Rows on the wire": six fields,
//! optional ones left out when absent, no kind tag). Besides these, serde is derived only on
//! the other wire types: [`crate::ClassifyCtx`] (handed from a server to a page that resumes
//! mid-log) and [`crate::LiveEvent`] (serialise only, to the hyperhive event-log shape).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

pub(crate) mod writer;

/// How loud a row is. It alone drives the row's colour.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Muted: thinking, ticks, ambient harness chatter, unknown system subtypes.
    Debug,
    /// Default foreground: turns, assistant text, tool calls and their results.
    #[default]
    Info,
    /// Amber with a left rule: stderr, unrecognised shapes, API retries.
    Warn,
    /// Red with a left rule: failed turns, tool errors, hard API errors, unreadable lines.
    Error,
}

impl Level {
    /// The lowercase wire name (`"debug"`, …), also the CSS class suffix.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Debug => "debug",
            Level::Info => "info",
            Level::Warn => "warn",
            Level::Error => "error",
        }
    }
}

/// How a row's body is to be rendered. A body without a format is plain text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BodyFormat {
    /// Markdown, rendered through [`crate::markdown`].
    Markdown,
    /// A line diff: lines starting `+` were added, `-` removed.
    Diff,
}

/// One terminal row. The same six fields for every row.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TermMsg {
    /// Glyph in the row's fixed-width prefix cell, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<Cow<'static, str>>,
    /// Severity; drives colour.
    pub level: Level,
    /// The one-line summary (may be empty for a flat markdown row).
    pub summary: String,
    /// Expandable body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// How to render `body`; absent means plain text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_format: Option<BodyFormat>,
    /// Consecutive rows with the same key replace each other while the previous is still last.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coalesce_key: Option<String>,
}

impl TermMsg {
    /// A row with a level and summary and nothing else.
    pub fn new(level: Level, summary: impl Into<String>) -> TermMsg {
        TermMsg {
            level,
            summary: summary.into(),
            ..TermMsg::default()
        }
    }

    /// Sets the icon.
    pub fn icon(mut self, icon: impl Into<Cow<'static, str>>) -> TermMsg {
        self.icon = Some(icon.into());
        self
    }

    /// Sets a plain-text body.
    pub fn body(mut self, body: impl Into<String>) -> TermMsg {
        self.body = Some(body.into());
        self
    }

    /// Sets a body with a format.
    pub fn body_as(mut self, body: impl Into<String>, format: BodyFormat) -> TermMsg {
        self.body = Some(body.into());
        self.body_format = Some(format);
        self
    }

    /// Sets the coalesce key.
    pub fn coalesce(mut self, key: impl Into<String>) -> TermMsg {
        self.coalesce_key = Some(key.into());
        self
    }
}

/// The rows of one source event, as they travel (SSE frame, history page, `hiveterm classify`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TermEnvelope {
    /// Unix seconds of the event, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ts: Option<f64>,
    /// The event's position in its log.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    /// A subagent's envelope: the `seq` of the envelope holding the tool call (Claude Code's
    /// `Task`/`Agent`) that started the subagent; absent for the main agent's (docs/FORMATS.md,
    /// "Subagents"). Rows themselves carry no nesting: it is the envelope's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<u64>,
    /// Zero or more rows.
    pub msgs: Vec<TermMsg>,
}

impl TermEnvelope {
    /// Appends the envelope's JSON to `out`: exactly the bytes of `serde_json::to_writer`
    /// (the derived `Serialize`, compact), written straight into the buffer. `hiveterm
    /// classify` writes every envelope of a log this way: its strings are mostly long bodies,
    /// which this scans eight bytes at a time for the few bytes JSON escapes.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        self.write_json_with(out, |out, msg| msg.write_json(out));
    }

    /// [`TermEnvelope::write_json`], each row written by `row`.
    fn write_json_with(&self, out: &mut Vec<u8>, mut row: impl FnMut(&mut Vec<u8>, &TermMsg)) {
        out.push(b'{');
        if let Some(ts) = self.ts {
            out.extend_from_slice(b"\"ts\":");
            // serde_json's own number form (and `null` for a non-finite time).
            let _ = serde_json::to_writer(&mut *out, &ts);
            out.push(b',');
        }
        if let Some(seq) = self.seq {
            out.extend_from_slice(b"\"seq\":");
            let _ = serde_json::to_writer(&mut *out, &seq);
            out.push(b',');
        }
        if let Some(parent) = self.parent {
            out.extend_from_slice(b"\"parent\":");
            let _ = serde_json::to_writer(&mut *out, &parent);
            out.push(b',');
        }
        out.extend_from_slice(b"\"msgs\":[");
        for (i, msg) in self.msgs.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            row(out, msg);
        }
        out.extend_from_slice(b"]}");
    }
}

impl TermMsg {
    /// Appends the row's JSON to `out`, as [`TermEnvelope::write_json`].
    pub fn write_json(&self, out: &mut Vec<u8>) {
        self.write_json_with(out, json_str);
    }

    /// [`TermMsg::write_json`], the body's JSON string written by `body`.
    fn write_json_with(&self, out: &mut Vec<u8>, body: impl FnOnce(&mut Vec<u8>, &str)) {
        out.push(b'{');
        if let Some(icon) = &self.icon {
            out.extend_from_slice(b"\"icon\":");
            json_str(out, icon);
            out.push(b',');
        }
        out.extend_from_slice(b"\"level\":\"");
        out.extend_from_slice(self.level.as_str().as_bytes());
        out.extend_from_slice(b"\",\"summary\":");
        json_str(out, &self.summary);
        if let Some(text) = &self.body {
            out.extend_from_slice(b",\"body\":");
            body(out, text);
        }
        if let Some(format) = self.body_format {
            out.extend_from_slice(match format {
                BodyFormat::Markdown => b",\"body_format\":\"markdown\"",
                BodyFormat::Diff => b",\"body_format\":\"diff\"",
            });
        }
        if let Some(key) = &self.coalesce_key {
            out.extend_from_slice(b",\"coalesce_key\":");
            json_str(out, key);
        }
        out.push(b'}');
    }
}

/// `s` as a JSON string, escaped as serde_json escapes it: `"`, `\\`, and the control
/// characters U+0000–U+001F (`\b \t \n \f \r` short, the others `\u00xx`); nothing else.
fn json_str(out: &mut Vec<u8>, s: &str) {
    out.reserve(s.len() + 2);
    out.push(b'"');
    escaped(out, s);
    out.push(b'"');
}

/// `s` escaped as [`json_str`] escapes it, without the quotes. Each byte is escaped alone, so
/// the escaped text of `a + b` is `a`'s and then `b`'s.
fn escaped(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let b = s.as_bytes();
    let mut start = 0;
    let mut i = next_escape(b, 0);
    while i < b.len() {
        out.extend_from_slice(&b[start..i]);
        let c = b[i];
        match c {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\r' => out.extend_from_slice(b"\\r"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0C => out.extend_from_slice(b"\\f"),
            _ => out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(c >> 4)],
                HEX[usize::from(c & 0xF)],
            ]),
        }
        start = i + 1;
        i = next_escape(b, start);
    }
    out.extend_from_slice(&b[start..]);
}

/// The index of the first byte at or after `i` that JSON escapes (`"`, `\\`, below 0x20), or
/// `b.len()`. Eight bytes at a time: in each 64-bit word the lowest flagged byte is exact
/// (Mycroft's zero-byte test; a borrow only flags bytes above a true one).
fn next_escape(bytes: &[u8], mut at: usize) -> usize {
    const ONES: u64 = u64::MAX / 255;
    const HIGH: u64 = ONES << 7;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let ctrl = word.wrapping_sub(ONES * 0x20) & !word;
        let quotes = word ^ (ONES * u64::from(b'"'));
        let quote = quotes.wrapping_sub(ONES) & !quotes;
        let slashes = word ^ (ONES * u64::from(b'\\'));
        let slash = slashes.wrapping_sub(ONES) & !slashes;
        let hit = (ctrl | quote | slash) & HIGH;
        if hit != 0 {
            return at + (hit.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while at < bytes.len() && !matches!(bytes[at], b'"' | b'\\' | 0..=0x1F) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_json_is_serde_json() {
        let check = |env: &TermEnvelope| {
            let mut got = Vec::new();
            env.write_json(&mut got);
            let want = serde_json::to_vec(env).unwrap();
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(&want)
            );
        };
        let mut every_byte: String = (0u8..0x80).map(char::from).collect();
        every_byte.push_str("é—✓🔍\u{202E}\u{7f}");
        let mut strings = vec![String::new(), every_byte.clone()];
        // Each special byte at every offset of a word, and runs of them.
        for c in [
            '"', '\\', '\n', '\t', '\r', '\u{1}', '\u{1f}', '\u{8}', '\u{c}', 'é',
        ] {
            for at in 0..20 {
                let mut s = "x".repeat(at);
                s.push(c);
                s.push_str(&"y".repeat(19 - at));
                strings.push(s);
            }
            strings.push(c.to_string().repeat(17));
        }
        for (i, s) in strings.iter().enumerate() {
            let mut msg = TermMsg::new(Level::Warn, s.clone());
            if i % 2 == 0 {
                msg = msg.icon(s.clone()).body_as(s.clone(), BodyFormat::Diff);
            } else {
                msg = msg.body(s.clone()).coalesce(s.clone());
            }
            check(&TermEnvelope {
                ts: None,
                seq: None,
                parent: (i % 3 == 0).then_some(i as u64),
                msgs: vec![msg],
            });
        }
        for ts in [
            0.0,
            -0.0,
            1796004905.959,
            1e300,
            5e-324,
            f64::NAN,
            f64::INFINITY,
            12.5,
        ] {
            for seq in [None, Some(0), Some(u64::MAX)] {
                check(&TermEnvelope {
                    ts: Some(ts),
                    seq,
                    parent: seq.map(|s| s / 2),
                    msgs: vec![
                        TermMsg::new(Level::Debug, "a").body_as("b", BodyFormat::Markdown),
                        TermMsg::new(Level::Error, ""),
                        TermMsg::new(Level::Info, "x"),
                    ],
                });
            }
        }
        check(&TermEnvelope::default());
    }
}
