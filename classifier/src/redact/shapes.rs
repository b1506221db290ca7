//! Detectors of a secret by its surroundings: private key blocks, passwords in URLs, Slack
//! webhooks, `Authorization` headers.

use std::sync::LazyLock;

use memchr::memmem::Finder;
use memchr::{memchr, memmem};

use super::assign::placeholder;
use super::report::{Kind, Span};
use super::tokens::{is_b64url, is_word, mixed, run, skip_spaces};

/// The substring searchers, built once (building one costs more than a short search).
struct Finders {
    begin: Finder<'static>,
    end: Finder<'static>,
    scheme: Finder<'static>,
    slack: [Finder<'static>; 2],
    authorization: [Finder<'static>; 2],
}

static FINDERS: LazyLock<Finders> = LazyLock::new(|| Finders {
    begin: Finder::new(b"-----BEGIN "),
    end: Finder::new(b"-----END"),
    scheme: Finder::new(b"://"),
    slack: [
        Finder::new(b"hooks.slack.com/services/"),
        Finder::new(b"hooks.slack.com/workflows/"),
    ],
    authorization: [Finder::new(b"uthorization"), Finder::new(b"UTHORIZATION")],
});

/// The bodies of `-----BEGIN … PRIVATE KEY-----` blocks, up to their `-----END` (or the end
/// of the text, for a block cut short). The header and footer lines stay. Whether the text
/// ends inside a block that goes on (no `-----END`, and nothing after the header but what a
/// key's body holds): its next lines are the key's.
pub(super) fn private_keys(b: &[u8], spans: &mut Vec<Span>) -> bool {
    let finder = &FINDERS.begin;
    let mut from = 0;
    let mut open = false;
    while let Some(off) = finder.find(&b[from..]) {
        let begin = from + off;
        let header_rest = &b[begin + 11..];
        let Some(close) = memmem::find(&header_rest[..header_rest.len().min(80)], b"-----") else {
            from = begin + 11;
            continue;
        };
        let label = &header_rest[..close];
        if !label.ends_with(b"PRIVATE KEY") && !label.ends_with(b"PRIVATE KEY BLOCK") {
            from = begin + 11;
            continue;
        }
        let body_start = begin + 11 + close + 5;
        let body_end = FINDERS
            .end
            .find(&b[body_start..])
            .map_or(b.len(), |off| body_start + off);
        // Keep the whitespace (or escaped newlines) around the body.
        let inner = &b[body_start..body_end];
        open = body_end == b.len() && inner.iter().all(|&c| pem_body(c));
        let lead = inner
            .iter()
            .position(|c| !c.is_ascii_whitespace())
            .unwrap_or(inner.len());
        let trail = inner
            .iter()
            .rposition(|c| !c.is_ascii_whitespace())
            .map_or(0, |p| p + 1);
        if trail > lead {
            spans.push(Span {
                start: body_start + lead,
                end: body_start + trail,
                kind: Kind::PrivateKey,
            });
        }
        from = body_end.max(body_start);
        if from >= b.len() {
            break;
        }
    }
    open
}

/// A byte of a PEM body as printed: base64, whitespace, its headers (`Proc-Type: 4,…`),
/// an escaped newline.
pub(super) fn pem_body(c: u8) -> bool {
    c.is_ascii_alphanumeric()
        || c.is_ascii_whitespace()
        || matches!(c, b'+' | b'/' | b'=' | b':' | b',' | b'-' | b'\\')
}

/// Stops a URL's user information.
pub(super) fn ends_userinfo(c: u8) -> bool {
    matches!(
        c,
        b'/' | b'?' | b'#' | b'@' | b'"' | b'\'' | b'<' | b'>' | b'`' | b'\\'
    ) || c.is_ascii_whitespace()
}

/// `scheme://user:password@host` → the password.
pub(super) fn url_passwords(b: &[u8], spans: &mut Vec<Span>) {
    let finder = &FINDERS.scheme;
    let mut from = 0;
    while let Some(off) = finder.find(&b[from..]) {
        let at = from + off;
        from = at + 3;
        if at == 0 || !b[at - 1].is_ascii_alphanumeric() {
            continue;
        }
        let info_start = at + 3;
        let mut info_end = run(b, info_start, |c| !ends_userinfo(c));
        let Some(colon) = memchr(b':', &b[info_start..info_end]) else {
            continue;
        };
        let pass_start = info_start + colon + 1;
        if b.get(info_end) == Some(&b'/') {
            // A password with a `/` in it (`app:Xk29/Pw83@db`), not a port and a path
            // (`localhost:5173/@vite/client`): an `@` further on, then a host.
            let port = b[pass_start..info_end].iter().all(u8::is_ascii_digit);
            let end = run(b, info_end, |c| c == b'/' || !ends_userinfo(c));
            if port || b.get(end) != Some(&b'@') || !b.get(end + 1).is_some_and(|&c| is_word(c)) {
                continue;
            }
            info_end = end;
        }
        if b.get(info_end) != Some(&b'@') {
            continue;
        }
        let pass = &b[pass_start..info_end];
        if pass.is_empty() || placeholder(pass) {
            continue;
        }
        spans.push(Span {
            start: pass_start,
            end: info_end,
            kind: Kind::UrlPassword,
        });
    }
}

/// `hooks.slack.com/services/T…/B…/…` → the path after `services/`.
pub(super) fn slack_webhooks(b: &[u8], spans: &mut Vec<Span>) {
    for finder in &FINDERS.slack {
        let needle = finder.needle();
        let mut from = 0;
        while let Some(off) = finder.find(&b[from..]) {
            let start = from + off + needle.len();
            let end = run(b, start, |c| is_b64url(c) || c == b'/');
            if end - start >= 10 {
                spans.push(Span {
                    start,
                    end,
                    kind: Kind::SlackWebhook,
                });
            }
            from = end.max(start);
        }
    }
}

/// `Authorization: Bearer <credentials>` (any case, `:` or `=`, quoted or not) → the
/// credentials; the scheme stays.
pub(super) fn authorization(b: &[u8], spans: &mut Vec<Span>) {
    for finder in &FINDERS.authorization {
        let needle = finder.needle();
        let mut from = 0;
        while let Some(off) = finder.find(&b[from..]) {
            let at = from + off;
            from = at + needle.len();
            if at == 0 || !matches!(b[at - 1], b'a' | b'A') {
                continue;
            }
            if at >= 2 && is_word(b[at - 2]) && b[at - 2] != b'_' {
                continue;
            }
            let mut i = from;
            if matches!(b.get(i), Some(b'"' | b'\'')) {
                i += 1;
            }
            i = skip_spaces(b, i);
            if !matches!(b.get(i), Some(b':' | b'=')) {
                continue;
            }
            i = skip_spaces(b, i + 1);
            let quote = match b.get(i) {
                Some(&q @ (b'"' | b'\'')) => {
                    i += 1;
                    Some(q)
                }
                _ => None,
            };
            let Some((cred_start, cred_end)) = credentials(b, i, quote) else {
                continue;
            };
            let cred = &b[cred_start..cred_end];
            if placeholder(cred) {
                continue;
            }
            spans.push(Span {
                start: cred_start,
                end: cred_end,
                kind: Kind::Authorization,
            });
            from = cred_end;
        }
    }
}

/// Schemes whose credentials are one token.
pub(super) const TOKEN_SCHEMES: &[&str] = &[
    "bearer", "basic", "token", "bot", "apikey", "key", "sso-key",
];
/// Schemes whose credentials are `k=v, k=v` parameters, up to the quote or the line's end.
pub(super) const PARAM_SCHEMES: &[&str] = &[
    "digest",
    "negotiate",
    "ntlm",
    "hoba",
    "mutual",
    "aws4-hmac-sha256",
];

/// The credentials of an `Authorization` value starting at `i`: after a known scheme (which
/// stays), or, without one, a single random-looking token (so prose after the word is left).
pub(super) fn credentials(b: &[u8], i: usize, quote: Option<u8>) -> Option<(usize, usize)> {
    let word_end = run(b, i, |c| c.is_ascii_alphanumeric() || c == b'-');
    let word = &b[i..word_end];
    let after = skip_spaces(b, word_end);
    let is = |list: &[&str]| list.iter().any(|s| word.eq_ignore_ascii_case(s.as_bytes()));
    let token_end = |from: usize| {
        run(b, from, |c| {
            !c.is_ascii_whitespace() && !matches!(c, b'"' | b'\'' | b',' | b'\\')
        })
    };
    if after > word_end && is(TOKEN_SCHEMES) {
        let end = token_end(after);
        return (end > after).then_some((after, end));
    }
    if after > word_end && is(PARAM_SCHEMES) {
        let end = run(b, after, |c| {
            !matches!(c, b'\n' | b'\r' | b'\\' | b'"') && Some(c) != quote
        });
        let end = after + b[after..end].trim_ascii_end().len();
        return (end > after).then_some((after, end));
    }
    let end = token_end(i);
    let bare = &b[i..end];
    (bare.len() >= 8 && mixed(bare)).then_some((i, end))
}
