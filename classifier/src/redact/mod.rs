//! Secrets out of a log before it leaves: API keys and tokens, JWTs, private key blocks,
//! passwords in URLs, `Authorization` headers, Slack webhooks, and secret-named assignments
//! (`.env`, `~/.aws/credentials`, `.npmrc`, `.pypirc`, `gh`'s `hosts.yml`, JSON fields).
//!
//! Each secret becomes `[REDACTED:<kind>]`; its surroundings stay (the variable's name, the
//! URL's host, the header's scheme, the rest of the line). A JSON line stays valid JSON of the
//! same structure: only its strings are redacted, and only the strings that held a secret are
//! rewritten, so every other byte of the line is kept. A line that is not JSON is redacted as
//! text. Pattern redaction is best effort: it catches the shapes listed in
//! `docs/CLI.md` ("hiveterm redact"), not a secret of a shape nobody knows.
//!
//! **What a reader sees** is what is redacted: a text is scanned as stored and, when it
//! differs, as shown (JSON escapes decoded, colour codes, control and format characters
//! removed: `view`), what is found there mapped back to the bytes it came from. So a token
//! inside `ESC[32m…ESC[0m`, split by a BEL or a U+202E, or written `\u0073k-ant-…` in a line
//! that is not JSON, goes.
//!
//! **One log is redacted by one [`Redactor`]**, line after line: a secret over several lines,
//! events or content blocks goes whole — a private key block printed a line an event is
//! redacted up to its `-----END`, a token cut by the end of one text block loses its rest at
//! the start of the next, and a secret found by its surroundings (a password's value) is
//! redacted again wherever it shows up later. [`redact_line`] and [`redact_text`] redact one
//! line or text alone.
//!
//! Pure and linear: one pass per rule over the text, no regex, no allocation for a line with
//! nothing to redact. Like the classifier, it cannot fail: any bytes in, bytes out.
//!
//! - this file: [`Redactor`], [`redact_line`] (a JSON line or text) and [`redact_text`]
//! - [`report`]: the kinds of secret, a finding and its masked preview, a redacted line; the
//!   spans found and their replacement
//! - `json`: a JSON line's strings walked in place, secret-named keys' values whole
//! - `carry`: what one text leaves for the next (an open key block, a cut token, the secrets
//!   found)
//! - `scan`: free text, every detector in turn, as stored and as seen; `view`: what a reader
//!   sees of a text, mapped back
//! - detectors: `tokens` (well-known prefixes, JWTs, the byte classes), `shapes` (private key
//!   blocks, URL passwords, Slack webhooks, `Authorization` headers), `assign` (secret-named
//!   assignments, placeholders) and `value` (where an assignment's value ends: the brackets
//!   or marks it sits in)

use std::borrow::Cow;

mod assign;
mod carry;
mod json;
mod report;
mod scan;
mod shapes;
mod tokens;
mod value;
mod view;

use self::carry::Carry;
use self::json::redact_json;
use self::report::apply;
pub use self::report::{Finding, Kind, Redacted};

/// The redaction of one log (a file, a session), line after line in order: what a line
/// leaves open (a private key block, a token cut at its end, a secret to find again)
/// carries to the next. Every path that redacts a log uses one per log.
#[derive(Debug, Clone, Default)]
pub struct Redactor {
    carry: Carry,
}

impl Redactor {
    /// A redaction at the start of a log.
    pub fn new() -> Redactor {
        Redactor::default()
    }

    /// Redacts the next line of the log (without its line terminator). A JSON line's
    /// strings are redacted in place (the line stays valid JSON of the same structure); any
    /// other line is redacted as text (invalid UTF-8 is kept as it is unless the line holds
    /// a secret, in which case the line is read lossily).
    pub fn redact_line<'a>(&mut self, line: &'a [u8]) -> Redacted<'a> {
        self.carry.line(line);
        let first = line.iter().position(|b| !b.is_ascii_whitespace());
        let json_like = first.is_some_and(|i| matches!(line[i], b'{' | b'[' | b'"'));
        if json_like && serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok() {
            return redact_json(&mut self.carry, line);
        }
        let text = String::from_utf8_lossy(line);
        let (redacted, findings) = self.text(&text);
        match redacted {
            Some(s) => Redacted {
                line: Cow::Owned(s.into_bytes()),
                findings,
            },
            None => Redacted {
                line: Cow::Borrowed(line),
                findings,
            },
        }
    }

    /// Redacts the next text of the log (prose: a line that is not JSON).
    pub fn redact_text<'a>(&mut self, text: &'a str) -> (Cow<'a, str>, Vec<Finding>) {
        self.carry.line(text.as_bytes());
        match self.text(text) {
            (Some(s), findings) => (Cow::Owned(s), findings),
            (None, findings) => (Cow::Borrowed(text), findings),
        }
    }

    fn text(&mut self, text: &str) -> (Option<String>, Vec<Finding>) {
        let mut spans = Vec::new();
        self.carry.text(text.as_bytes(), true, &mut spans);
        if spans.is_empty() {
            return (None, Vec::new());
        }
        let (out, findings) = apply(text, spans);
        (Some(out), findings)
    }
}

/// Redacts one line of a log on its own (without its line terminator): see
/// [`Redactor::redact_line`]; a log's lines are redacted by one [`Redactor`].
pub fn redact_line(line: &[u8]) -> Redacted<'_> {
    Redactor::new().redact_line(line)
}

/// Redacts a text on its own: every secret this module knows is replaced by
/// `[REDACTED:<kind>]`.
pub fn redact_text(text: &str) -> (Cow<'_, str>, Vec<Finding>) {
    Redactor::new().redact_text(text)
}
