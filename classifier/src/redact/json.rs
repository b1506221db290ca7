//! JSON lines: their strings walked in place, each redacted as text, or whole when it is
//! the value of a secret-named key (or the credentials of an `Authorization` field); every
//! other byte of the line kept.

use std::borrow::Cow;

use memchr::{memchr, memchr2};

use super::assign::{Strength, name_kind, placeholder, secret_value};
use super::carry::Carry;
use super::report::{Kind, Redacted, Span, apply, finding};
use super::scan::scan_seen;
use super::shapes::credentials;

/// Keys whose string value is prose an agent or a command wrote (a key cut at its end may
/// go on in the next such string).
const PROSE_KEYS: &[&str] = &[
    "text",
    "content",
    "thinking",
    "body",
    "note",
    "output",
    "result",
    "stdout",
    "stderr",
    "message",
    "delta",
    "data",
    "line",
    "prompt",
    "aggregated_output",
    "formatted_output",
];

/// What the key just read says of the value after it.
#[derive(Clone, Copy)]
struct Key {
    class: Option<KeyClass>,
    prose: bool,
    /// Where its `:` ended.
    colon: usize,
}

/// Redacts the strings of a valid JSON line, splicing rewritten string literals into the
/// original bytes. A string that is the value of a secret-named key is redacted whole, and
/// so is a number (as the string `"[REDACTED:<kind>]"`).
pub(super) fn redact_json<'a>(carry: &mut Carry, line: &'a [u8]) -> Redacted<'a> {
    let mut out: Vec<u8> = Vec::new();
    let mut findings = Vec::new();
    let mut copied = 0;
    let mut i = 0;
    let mut key: Option<Key> = None;
    while let Some(off) = memchr(b'"', &line[i..]) {
        let start = i + off;
        let (end, escaped) = string_end(line, start);
        let literal = &line[start..end];
        // The string's bytes, decoded (UTF-8: the line was checked to be JSON).
        let text: Cow<'_, [u8]> = if escaped {
            serde_json::from_slice::<String>(literal)
                .map_or(Cow::Borrowed(&b""[..]), |s| Cow::Owned(s.into_bytes()))
        } else {
            Cow::Borrowed(&literal[1..literal.len() - 1])
        };
        let after = skip_ws(line, end);
        let is_key = line.get(after) == Some(&b':');
        // Is this the value of the key just seen?
        let of_key = key
            .take()
            .filter(|k| !is_key && line[k.colon..start].iter().all(u8::is_ascii_whitespace));
        let mut spans = Vec::new();
        match of_key.and_then(|k| k.class) {
            Some(KeyClass::Secret(kind, strength))
                if std::str::from_utf8(&text).is_ok_and(|t| secret_value(t, strength)) =>
            {
                carry.remember(&text, kind);
                spans.push(Span {
                    start: 0,
                    end: text.len(),
                    kind,
                });
            }
            Some(KeyClass::Authorization) => match credentials(&text, 0, None) {
                Some((start, end)) if !placeholder(&text[start..end]) => {
                    carry.remember(&text[start..end], Kind::Authorization);
                    spans.push(Span {
                        start,
                        end,
                        kind: Kind::Authorization,
                    });
                }
                _ => carry.text(&text, false, &mut spans),
            },
            _ if is_key => {
                scan_seen(&text, &mut spans);
            }
            _ => carry.text(&text, of_key.is_some_and(|k| k.prose), &mut spans),
        }
        if is_key {
            let name = std::str::from_utf8(&text).ok();
            let k = Key {
                class: name.and_then(key_class),
                prose: name.is_some_and(|n| PROSE_KEYS.contains(&n)),
                colon: after + 1,
            };
            key = Some(k);
        }
        if let Some(text) = (!spans.is_empty())
            .then(|| std::str::from_utf8(&text).ok())
            .flatten()
        {
            let (redacted, found) = apply(text, spans);
            out.extend_from_slice(&line[copied..start]);
            let literal = serde_json::to_string(&redacted).unwrap_or_else(|_| "\"\"".to_owned());
            out.extend_from_slice(literal.as_bytes());
            copied = end;
            findings.extend(found);
        }
        // A number as a secret-named key's value: the whole number.
        if let Some(Key {
            class: Some(KeyClass::Secret(kind, Strength::Strong)),
            colon,
            ..
        }) = key
            && is_key
            && let Some((n_start, n_end)) = number_at(line, skip_ws(line, colon))
        {
            let number = std::str::from_utf8(&line[n_start..n_end]).unwrap_or_default();
            carry.remember(number.as_bytes(), kind);
            out.extend_from_slice(&line[copied..n_start]);
            out.extend_from_slice(b"\"[REDACTED:");
            out.extend_from_slice(kind.as_str().as_bytes());
            out.extend_from_slice(b"]\"");
            copied = n_end;
            findings.push(finding(kind, number));
        }
        i = end;
    }
    if findings.is_empty() {
        return Redacted {
            line: Cow::Borrowed(line),
            findings,
        };
    }
    out.extend_from_slice(&line[copied..]);
    Redacted {
        line: Cow::Owned(out),
        findings,
    }
}

/// The JSON number at `i`, when it is one of 4 or more characters (a PIN, a numeric
/// password; not a `0` or a count).
fn number_at(line: &[u8], i: usize) -> Option<(usize, usize)> {
    if !line
        .get(i)
        .is_some_and(|&c| c.is_ascii_digit() || c == b'-')
    {
        return None;
    }
    let end = i + line[i..]
        .iter()
        .take_while(|&&c| c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E'))
        .count();
    (end - i >= 4).then_some((i, end))
}

/// What a JSON key says about its value.
#[derive(Debug, Clone, Copy)]
pub(super) enum KeyClass {
    /// A secret-named field: its whole value is the secret.
    Secret(Kind, Strength),
    /// An `Authorization` header field: the credentials after its scheme.
    Authorization,
}

pub(super) fn key_class(name: &str) -> Option<KeyClass> {
    if name.eq_ignore_ascii_case("authorization")
        || name.eq_ignore_ascii_case("proxy-authorization")
    {
        return Some(KeyClass::Authorization);
    }
    name_kind(name).map(|(kind, strength)| KeyClass::Secret(kind, strength))
}

/// The end (one past the closing quote) of the JSON string literal opening at `start`, and
/// whether it holds an escape.
pub(super) fn string_end(line: &[u8], start: usize) -> (usize, bool) {
    let mut j = start + 1;
    let mut escaped = false;
    while let Some(off) = memchr2(b'"', b'\\', &line[j..]) {
        let k = j + off;
        if line[k] == b'\\' {
            escaped = true;
            j = k + 2;
            if j > line.len() {
                return (line.len(), escaped);
            }
        } else {
            return (k + 1, escaped);
        }
    }
    (line.len(), escaped)
}

pub(super) fn skip_ws(line: &[u8], mut i: usize) -> usize {
    while line.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}
