//! Detector of secret-named assignments (`DB_PASSWORD=…`, `.npmrc`'s `_authToken`, `gh`'s
//! `oauth_token:`, JSON fields): which names are secret, which values are placeholders.

use memchr::memchr2;

use super::report::{Kind, Span};
use super::tokens::{is_word, mixed, skip_spaces};
use super::value::{Enclosure, Lead, line_lead};

/// How sure a secret-looking name is that its value is a secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Strength {
    /// `password`, `secret`, `api_key`, `token`, …: any real value is one.
    Strong,
    /// Another `*_key` / `*_token` (`cache_key`, `page_token`): only a random-looking value.
    Weak,
    /// `pass`, `*_pass`, a word with other senses (a test's count, a compiler's pass): a
    /// value of 4 or more characters that is not a number.
    Short,
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
    if let Some(pass) = pass_name(name) {
        return pass.then_some((Kind::Password, Strength::Short));
    }
    // Every other secret name ends in one of these letters (password, passphrase, secret,
    // key, token, _auth): most names are rejected here, before any work.
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

/// For a name ending in `pass`: whether it is a password's (`pass`, `DB_PASS`, `smtp-pass`,
/// `smtpPass`; not `bypass`, `compass`).
fn pass_name(name: &str) -> Option<bool> {
    let n = name.len();
    let b = name.as_bytes();
    if n < 4 || !b[n - 4..].eq_ignore_ascii_case(b"pass") {
        return None;
    }
    Some(
        n == 4
            || matches!(b[n - 5], b'_' | b'-' | b'.')
            || (b[n - 4] == b'P' && b[n - 5].is_ascii_lowercase()),
    )
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
    // A closer alone is not code (`P@ss)w0rd`): what the value sits in closes before it.
    let call_or_index = b.iter().any(|&c| matches!(c, b'(' | b'['));
    let attribute_path = b.contains(&b'.')
        && b.iter().all(|&c| is_word(c) || c == b'.')
        && !b.iter().any(u8::is_ascii_digit);
    if call_or_index || attribute_path {
        return false;
    }
    match strength {
        Strength::Strong => true,
        Strength::Weak => b.len() >= 16 && mixed(b) && !b.contains(&b' '),
        Strength::Short => b.len() >= 4 && !b.iter().all(|c| c.is_ascii_digit() || *c == b'.'),
    }
}

/// `NAME=value`, `name = value`, `name: value`, `"name": "value"`, `name := value`,
/// `'name' => 'value'` with a secret-looking name → the value. A name before `:` must be
/// quoted, or begin its line (YAML, `.pypirc`), or open a list (`{`, `(`, `[`, `,`, `;`)
/// with a quoted value, so prose ("the password: see below") and type annotations
/// (`fn f(password: &str)`) are left alone; spaces around the operator are allowed
/// (`.aws/credentials`, `.pypirc`, code), and code on the right (`os.environ["KEY"]`) is not
/// a value. Whatever precedes the name, the value ends where the text it sits in closes
/// (see `value`): `(DB_PASSWORD=hunter2)`, `**TOKEN=x**`.
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

/// The operator of an assignment at a `=` or a `:`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    /// `=`
    Equals,
    /// `:` (YAML, JSON, an object literal)
    Colon,
    /// `:=` (Go, make)
    Walrus,
    /// `=>` (PHP, Perl, Ruby hashes): a quoted name only, `token => …` is an arrow function.
    Arrow,
}

impl Op {
    /// The operator at `sep`, if it is one: `==`, `::=`, `://`, `=/` are not.
    fn at(b: &[u8], sep: usize) -> Option<Op> {
        let prev = sep.checked_sub(1).map(|i| b[i]);
        let op = match (b[sep], b.get(sep + 1)) {
            (b':', Some(b'=')) if prev != Some(b':') => Op::Walrus,
            (b'=', Some(b'>')) => Op::Arrow,
            (_, Some(b'=' | b'>' | b'/')) => return None,
            (b':', _) => Op::Colon,
            _ => Op::Equals,
        };
        (prev != Some(b'=')).then_some(op)
    }

    fn len(self) -> usize {
        match self {
            Op::Equals | Op::Colon => 1,
            Op::Walrus | Op::Arrow => 2,
        }
    }
}

pub(super) fn assignment_at(b: &[u8], sep: usize) -> Option<Span> {
    let op = Op::at(b, sep)?;
    // The name, backwards: spaces, a closing quote, the name's characters, an opening quote.
    let mut j = sep;
    while j > 0 && matches!(b[j - 1], b' ' | b'\t') {
        j -= 1;
    }
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
    // Where what precedes the name (its opening quote excluded) ends.
    let lead = if quoted { j - 1 } else { j };
    let mut quoted_value_only = false;
    match op {
        // `:name => value` is a Ruby symbol's.
        Op::Arrow if !quoted && (lead == 0 || b[lead - 1] != b':') => return None,
        Op::Colon if !quoted => match line_lead(b, lead) {
            Lead::LineStart => {}
            Lead::ListStart => quoted_value_only = true,
            Lead::Other => return None,
        },
        _ => {}
    }
    if name.to_ascii_lowercase().contains("aws") && kind == Kind::Secret {
        kind = Kind::AwsSecret;
    }
    // The value.
    let v = skip_spaces(b, sep + op.len());
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
        Some(_) if !quoted_value_only => (v, Enclosure::of(b, lead).value_end(b, v)),
        _ => return None,
    };
    // `name: value` unquoted is a value alone on its line (YAML, `.pypirc`): words after it
    // are prose (`password: see the docs`).
    if op == Op::Colon && !quoted && start == v {
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
