//! Detector of secret-named assignments (`DB_PASSWORD=…`, `.npmrc`'s `_authToken`, `gh`'s
//! `oauth_token:`, JSON fields): which names are secret, which values are placeholders.

use memchr::memchr2;

use super::report::{Kind, Span};
use super::tokens::{is_word, mixed, run, skip_spaces};

/// How sure a secret-looking name is that its value is a secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Strength {
    /// `password`, `secret`, `api_key`, `token`, …: any real value is one.
    Strong,
    /// Another `*_key` / `*_token` (`cache_key`, `page_token`): only a random-looking value.
    Weak,
}

/// Names of keys and tokens that are not secrets.
pub(super) const NOT_SECRET: &[&str] = &[
    "publickey",
    "primarykey",
    "foreignkey",
    "sortkey",
    "partitionkey",
    "hashkey",
    "rangekey",
    "coalescekey",
    "idempotencykey",
    "cachekey",
    "nexttoken",
    "pagetoken",
    "nextpagetoken",
    "continuationtoken",
    "csrftoken",
];

/// Whether `name` (a variable, field or option name) says its value is a secret, and which
/// kind the value is.
pub(super) fn name_kind(name: &str) -> Option<(Kind, Strength)> {
    let name = name.trim_start_matches('-');
    // Every secret name ends in one of these letters (password, passphrase, secret, key,
    // token, _auth): most names are rejected here, before any work.
    let last = name.as_bytes().last()?.to_ascii_lowercase();
    if !matches!(last, b'd' | b'e' | b't' | b'y' | b'n' | b'h') || name.len() > 64 {
        return None;
    }
    let mut buf = [0u8; 64];
    let mut len = 0;
    for c in name.bytes() {
        match c {
            b'_' | b'-' | b'.' => {}
            c if c.is_ascii_alphanumeric() => {
                buf[len] = c.to_ascii_lowercase();
                len += 1;
            }
            _ => return None,
        }
    }
    let norm = std::str::from_utf8(&buf[..len]).ok()?;
    if NOT_SECRET.contains(&norm) {
        return None;
    }
    if norm.ends_with("password") || norm.ends_with("passwd") || norm.ends_with("passphrase") {
        return Some((Kind::Password, Strength::Strong));
    }
    if norm == "awssecretaccesskey" || norm == "secretaccesskey" {
        return Some((Kind::AwsSecret, Strength::Strong));
    }
    // `.npmrc`: `_auth`, `_authToken`, `_password` (the last one caught above).
    if name == "_auth" || name == "_authToken" {
        return Some((Kind::Npm, Strength::Strong));
    }
    let strong = [
        "secret",
        "apikey",
        "secretkey",
        "privatekey",
        "accesskey",
        "authkey",
        "authtoken",
        "accesstoken",
        "refreshtoken",
        "sessiontoken",
        "oauthtoken",
        "bearertoken",
        "apitoken",
        "clientsecret",
        "signingkey",
        "encryptionkey",
        "masterkey",
    ];
    if norm == "token" || strong.iter().any(|s| norm.ends_with(s)) {
        return Some((Kind::Secret, Strength::Strong));
    }
    // Another `*_key` / `*Key` / `*_token` / `*Token`: separated from what precedes it.
    for suffix in ["key", "token"] {
        if norm.ends_with(suffix) && norm.len() > suffix.len() {
            let tail = &name[name.len() - suffix.len()..];
            let before = name.as_bytes()[name.len() - suffix.len() - 1];
            let camel = tail.as_bytes()[0].is_ascii_uppercase() && before.is_ascii_lowercase();
            let separated = matches!(before, b'_' | b'-' | b'.') || camel;
            if separated {
                return Some((Kind::Secret, Strength::Weak));
            }
        }
    }
    None
}

/// Values that stand for a secret rather than being one: variables, templates, masks.
pub(super) fn placeholder(v: &[u8]) -> bool {
    let Some(&first) = v.first() else {
        return true;
    };
    if matches!(first, b'$' | b'<' | b'{' | b'%' | b'*') || v.starts_with(b"[REDACTED") {
        return true;
    }
    if v.iter().all(|&c| c == first) {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    matches!(
        lower.as_slice(),
        b"null"
            | b"none"
            | b"nil"
            | b"true"
            | b"false"
            | b"undefined"
            | b"password"
            | b"changeme"
            | b"redacted"
            | b"secret"
            | b"token"
            | b"..."
            | b"xxx"
    )
}

/// Whether `v`, the value of a secret-named field, is a secret worth redacting.
pub(super) fn secret_value(v: &str, strength: Strength) -> bool {
    let b = v.trim().as_bytes();
    if b.is_empty() || placeholder(b) {
        return false;
    }
    // Code, not a value: a call, an index, an attribute path (`os.environ["X"]`, `process.env.X`).
    let call_or_index = b.iter().any(|&c| matches!(c, b'(' | b')' | b'[' | b']'));
    let attribute_path = b.contains(&b'.')
        && b.iter().all(|&c| is_word(c) || c == b'.')
        && !b.iter().any(u8::is_ascii_digit);
    if call_or_index || attribute_path {
        return false;
    }
    match strength {
        Strength::Strong => true,
        Strength::Weak => b.len() >= 16 && mixed(b) && !b.contains(&b' '),
    }
}

/// Stops an unquoted assignment value.
pub(super) fn ends_value(c: u8) -> bool {
    c.is_ascii_whitespace() || matches!(c, b'"' | b'\'' | b'&' | b',' | b';' | b'`' | b'\\')
}

/// `NAME=value`, `name = value`, `name: value`, `"name": "value"` with a secret-looking name
/// → the value. A name before `:` must be quoted or begin its line (YAML, `.pypirc`), so prose
/// ("the password: see below") is left alone; spaces around `=` are allowed (`.aws/credentials`,
/// `.pypirc`, code), and code on the right (`os.environ["KEY"]`) is not a value.
pub(super) fn assignments(b: &[u8], spans: &mut Vec<Span>) {
    let mut from = 0;
    while let Some(off) = memchr2(b'=', b':', &b[from..]) {
        let sep = from + off;
        from = sep + 1;
        if let Some(span) = assignment_at(b, sep) {
            from = span.end.max(from);
            spans.push(span);
        }
    }
}

pub(super) fn assignment_at(b: &[u8], sep: usize) -> Option<Span> {
    // `==`, `:=`, `=>`, `://` are not assignments of this kind.
    if matches!(b.get(sep + 1), Some(b'=' | b'>' | b'/')) || (sep > 0 && b[sep - 1] == b'=') {
        return None;
    }
    // The name, backwards: spaces, a closing quote, the name's characters, an opening quote.
    let mut j = sep;
    while j > 0 && matches!(b[j - 1], b' ' | b'\t') {
        j -= 1;
    }
    let spaced = j < sep;
    let quoted = j > 0 && matches!(b[j - 1], b'"' | b'\'');
    if quoted {
        j -= 1;
    }
    let name_end = j;
    while j > 0 && (is_word(b[j - 1]) || matches!(b[j - 1], b'-' | b'.')) && name_end - j <= 64 {
        j -= 1;
    }
    if j == name_end {
        return None;
    }
    let name = std::str::from_utf8(&b[j..name_end]).ok()?;
    let (mut kind, strength) = name_kind(name)?;
    if quoted && (j == 0 || !matches!(b[j - 1], b'"' | b'\'')) {
        return None;
    }
    // `name: value` needs a quoted name or a name that begins its line.
    if b[sep] == b':' && !quoted {
        let line_start = b[..j]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1);
        let lead = &b[line_start..j];
        if !lead.iter().all(|&c| matches!(c, b' ' | b'\t' | b'-')) {
            return None;
        }
    }
    if name.to_ascii_lowercase().contains("aws") && kind == Kind::Secret {
        kind = Kind::AwsSecret;
    }
    // The value.
    let mut v = sep + 1;
    if spaced || b[sep] == b':' {
        v = skip_spaces(b, v);
    } else if matches!(b.get(v), Some(b' ' | b'\t')) {
        // `NAME= value`: not the `.env` shape; allowed like `name = value`.
        v = skip_spaces(b, v);
    }
    let (start, end) = match b.get(v) {
        Some(&q @ (b'"' | b'\'')) => {
            let start = v + 1;
            let len = b[start..]
                .iter()
                .position(|&c| c == q || c == b'\n' || c == b'\\')?;
            if b[start + len] != q {
                return None;
            }
            (start, start + len)
        }
        Some(_) => (v, run(b, v, |c| !ends_value(c))),
        None => return None,
    };
    // `name: value` unquoted is a value alone on its line (YAML, `.pypirc`): words after it
    // are prose (`password: see the docs`).
    if b[sep] == b':' && !quoted && start == v {
        let after = skip_spaces(b, end);
        if !matches!(b.get(after), None | Some(b'\n' | b'\r' | b'\\')) {
            return None;
        }
    }
    let value = std::str::from_utf8(&b[start..end]).ok()?;
    // A value that is another secret's shape is left to that rule's kind.
    if !secret_value(value, strength) {
        return None;
    }
    let trimmed = value.trim_end_matches([',', '.', ')', '}', ']']);
    Some(Span {
        start,
        end: start + trimmed.len(),
        kind,
    })
}
