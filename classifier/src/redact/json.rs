//! JSON lines: their strings walked in place, each redacted as text, or whole when it is
//! the value of a secret-named key (or the credentials of an `Authorization` field); every
//! other byte of the line kept.

use std::borrow::Cow;

use memchr::{memchr, memchr2};

use super::assign::{Strength, name_kind, placeholder, secret_value};
use super::report::{Kind, Redacted, Span, apply};
use super::scan::scan;
use super::shapes::credentials;

/// Redacts the strings of a valid JSON line, splicing rewritten string literals into the
/// original bytes. A string that is the value of a secret-named key is redacted whole.
pub(super) fn redact_json(line: &[u8]) -> Redacted<'_> {
    let mut out: Vec<u8> = Vec::new();
    let mut findings = Vec::new();
    let mut copied = 0;
    let mut i = 0;
    // The secret-named key whose value may come next, and where its `:` ended.
    let mut key: Option<(KeyClass, usize)> = None;
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
            .filter(|&(_, colon)| !is_key && line[colon..start].iter().all(u8::is_ascii_whitespace))
            .map(|(class, _)| class);
        let mut spans = Vec::new();
        match of_key {
            Some(KeyClass::Secret(kind, strength))
                if std::str::from_utf8(&text).is_ok_and(|t| secret_value(t, strength)) =>
            {
                spans.push(Span {
                    start: 0,
                    end: text.len(),
                    kind,
                });
            }
            Some(KeyClass::Authorization) => match credentials(&text, 0, None) {
                Some((start, end)) if !placeholder(&text[start..end]) => {
                    spans.push(Span {
                        start,
                        end,
                        kind: Kind::Authorization,
                    });
                }
                _ => scan(&text, &mut spans),
            },
            _ => scan(&text, &mut spans),
        }
        if is_key {
            key = std::str::from_utf8(&text)
                .ok()
                .and_then(key_class)
                .map(|class| (class, after + 1));
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
