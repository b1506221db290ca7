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
//! Pure and linear: one pass per rule over the text, no regex, no allocation for a line with
//! nothing to redact. Like the classifier, it cannot fail: any bytes in, bytes out.
//!
//! - this file: [`redact_line`] (a JSON line or text) and [`redact_text`]
//! - [`report`]: the kinds of secret, a finding and its masked preview, a redacted line; the
//!   spans found and their replacement
//! - `json`: a JSON line's strings walked in place, secret-named keys' values whole
//! - `scan`: free text, every detector in turn
//! - detectors: `tokens` (well-known prefixes, JWTs, the byte classes), `shapes` (private key
//!   blocks, URL passwords, Slack webhooks, `Authorization` headers), `assign` (secret-named
//!   assignments, placeholders)

use std::borrow::Cow;

mod assign;
mod json;
mod report;
mod scan;
mod shapes;
mod tokens;

use self::json::redact_json;
use self::report::apply;
pub use self::report::{Finding, Kind, Redacted};
use self::scan::scan;

/// Redacts one line of a log (without its line terminator). A JSON line's strings are
/// redacted in place (the line stays valid JSON of the same structure); any other line is
/// redacted as text (invalid UTF-8 is kept as it is unless the line holds a secret, in which
/// case the line is read lossily).
pub fn redact_line(line: &[u8]) -> Redacted<'_> {
    let first = line.iter().position(|b| !b.is_ascii_whitespace());
    let json_like = first.is_some_and(|i| matches!(line[i], b'{' | b'[' | b'"'));
    if json_like && serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok() {
        return redact_json(line);
    }
    let text = String::from_utf8_lossy(line);
    let (redacted, findings) = redact_text(&text);
    match redacted {
        Cow::Borrowed(_) => Redacted {
            line: Cow::Borrowed(line),
            findings,
        },
        Cow::Owned(s) => Redacted {
            line: Cow::Owned(s.into_bytes()),
            findings,
        },
    }
}

/// Redacts free text: every secret this module knows is replaced by `[REDACTED:<kind>]`.
pub fn redact_text(text: &str) -> (Cow<'_, str>, Vec<Finding>) {
    let mut spans = Vec::new();
    scan(text.as_bytes(), &mut spans);
    if spans.is_empty() {
        return (Cow::Borrowed(text), Vec::new());
    }
    let (out, findings) = apply(text, spans);
    (Cow::Owned(out), findings)
}
