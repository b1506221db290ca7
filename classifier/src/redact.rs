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

use std::borrow::Cow;
use std::sync::LazyLock;

use memchr::memmem::Finder;
use memchr::{memchr, memchr2, memmem};

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

/// What kind of secret a redaction removed; its [`Kind::as_str`] is the `<kind>` of
/// `[REDACTED:<kind>]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Anthropic API or OAuth key (`sk-ant-…`).
    Anthropic,
    /// OpenAI API key (`sk-…`, `sk-proj-…`).
    OpenAi,
    /// AWS access key id (`AKIA…`, `ASIA…`).
    AwsAccessKeyId,
    /// AWS secret access key (by its name: `aws_secret_access_key`, `SecretAccessKey`).
    AwsSecret,
    /// GitHub token (`ghp_…`, `gho_…`, `github_pat_…`).
    GitHub,
    /// GitLab token (`glpat-…` and the other `gl…-` prefixes).
    GitLab,
    /// Slack token (`xoxb-…`, `xoxp-…`, `xapp-…`).
    Slack,
    /// Slack incoming-webhook URL path (`hooks.slack.com/services/…`).
    SlackWebhook,
    /// Stripe secret or restricted key, webhook secret (`sk_live_…`, `rk_test_…`, `whsec_…`).
    Stripe,
    /// Google API key (`AIza…`), OAuth client secret (`GOCSPX-…`), access token (`ya29.…`).
    Google,
    /// npm token (`npm_…`), and `.npmrc`'s `_authToken` / `_auth` / `_password`.
    Npm,
    /// PyPI upload token (`pypi-…`).
    PyPi,
    /// Another service's token of a well-known shape (Hugging Face, SendGrid, DigitalOcean,
    /// Shopify, Docker Hub, age).
    Token,
    /// JSON Web Token (`eyJ….eyJ….…`).
    Jwt,
    /// The body of a PEM private key block (`-----BEGIN … PRIVATE KEY-----`).
    PrivateKey,
    /// The password of a URL (`scheme://user:password@host`).
    UrlPassword,
    /// The credentials of an `Authorization` header.
    Authorization,
    /// The value of a password-named assignment (`DB_PASSWORD=…`, `password = …`).
    Password,
    /// The value of another secret-named assignment (`*_KEY=`, `*_TOKEN=`, `*_SECRET=`).
    Secret,
}

impl Kind {
    /// The name in `[REDACTED:<name>]`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Anthropic => "anthropic_key",
            Kind::OpenAi => "openai_key",
            Kind::AwsAccessKeyId => "aws_access_key_id",
            Kind::AwsSecret => "aws_secret_key",
            Kind::GitHub => "github_token",
            Kind::GitLab => "gitlab_token",
            Kind::Slack => "slack_token",
            Kind::SlackWebhook => "slack_webhook",
            Kind::Stripe => "stripe_key",
            Kind::Google => "google_key",
            Kind::Npm => "npm_token",
            Kind::PyPi => "pypi_token",
            Kind::Token => "token",
            Kind::Jwt => "jwt",
            Kind::PrivateKey => "private_key",
            Kind::UrlPassword => "url_password",
            Kind::Authorization => "authorization",
            Kind::Password => "password",
            Kind::Secret => "secret",
        }
    }
}

/// One secret removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What it was.
    pub kind: Kind,
    /// A masked preview for a human reviewing redactions: its first few characters (at most
    /// a quarter of it, at most 4) and its length, e.g. `sk-a… (108 chars)`.
    pub preview: String,
}

/// A line after redaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redacted<'a> {
    /// The line: borrowed, unchanged, when nothing was found.
    pub line: Cow<'a, [u8]>,
    /// What was removed, in order.
    pub findings: Vec<Finding>,
}

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

/// A secret found in a text: its byte range and kind.
#[derive(Debug, Clone, Copy)]
struct Span {
    start: usize,
    end: usize,
    kind: Kind,
}

/// Replaces `spans` in `text` (overlaps resolved: the earliest start wins, then the longest).
fn apply(text: &str, mut spans: Vec<Span>) -> (String, Vec<Finding>) {
    spans.sort_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
    let mut out = String::with_capacity(text.len());
    let mut findings = Vec::with_capacity(spans.len());
    let mut at = 0;
    for span in spans {
        if span.start < at || span.end <= span.start {
            continue;
        }
        out.push_str(&text[at..span.start]);
        out.push_str("[REDACTED:");
        out.push_str(span.kind.as_str());
        out.push(']');
        findings.push(Finding {
            kind: span.kind,
            preview: mask(&text[span.start..span.end]),
        });
        at = span.end;
    }
    out.push_str(&text[at..]);
    (out, findings)
}

/// `sk-a… (108 chars)`: at most a quarter of the secret, at most 4 characters, shown.
fn mask(secret: &str) -> String {
    let n = secret.chars().count();
    let shown: String = secret.chars().take((n / 4).min(4)).collect();
    format!("{shown}… ({n} chars)")
}

// ---------------------------------------------------------------------------------------------
// JSON lines

/// Redacts the strings of a valid JSON line, splicing rewritten string literals into the
/// original bytes. A string that is the value of a secret-named key is redacted whole.
fn redact_json(line: &[u8]) -> Redacted<'_> {
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
enum KeyClass {
    /// A secret-named field: its whole value is the secret.
    Secret(Kind, Strength),
    /// An `Authorization` header field: the credentials after its scheme.
    Authorization,
}

fn key_class(name: &str) -> Option<KeyClass> {
    if name.eq_ignore_ascii_case("authorization")
        || name.eq_ignore_ascii_case("proxy-authorization")
    {
        return Some(KeyClass::Authorization);
    }
    name_kind(name).map(|(kind, strength)| KeyClass::Secret(kind, strength))
}

/// The end (one past the closing quote) of the JSON string literal opening at `start`, and
/// whether it holds an escape.
fn string_end(line: &[u8], start: usize) -> (usize, bool) {
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

fn skip_ws(line: &[u8], mut i: usize) -> usize {
    while line.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

// ---------------------------------------------------------------------------------------------
// Text

/// Every rule over `text`, pushing what it finds.
fn scan(b: &[u8], spans: &mut Vec<Span>) {
    if b.len() < 8 {
        return;
    }
    prefixed_tokens(b, spans);
    private_keys(b, spans);
    url_passwords(b, spans);
    slack_webhooks(b, spans);
    authorization(b, spans);
    assignments(b, spans);
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn is_b64url(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

fn is_alnum(c: u8) -> bool {
    c.is_ascii_alphanumeric()
}

fn is_upper_alnum(c: u8) -> bool {
    c.is_ascii_uppercase() || c.is_ascii_digit()
}

fn is_hex(c: u8) -> bool {
    c.is_ascii_hexdigit()
}

/// A token rule: a literal prefix, then a body of `class` characters, at least `min` long
/// (exactly `min` when `exact`).
struct Rule {
    prefix: &'static [u8],
    class: fn(u8) -> bool,
    min: usize,
    exact: bool,
    kind: Kind,
}

const fn rule(prefix: &'static [u8], class: fn(u8) -> bool, min: usize, kind: Kind) -> Rule {
    Rule {
        prefix,
        class,
        min,
        exact: false,
        kind,
    }
}

const fn exact(prefix: &'static [u8], class: fn(u8) -> bool, len: usize, kind: Kind) -> Rule {
    Rule {
        prefix,
        class,
        min: len,
        exact: true,
        kind,
    }
}

/// Token shapes by prefix. Longer prefixes before the shorter ones they start with.
static RULES: &[Rule] = &[
    rule(b"sk-ant-", is_b64url, 20, Kind::Anthropic),
    rule(b"sk-", is_b64url, 20, Kind::OpenAi),
    rule(b"sk_live_", is_alnum, 16, Kind::Stripe),
    rule(b"sk_test_", is_alnum, 16, Kind::Stripe),
    rule(b"rk_live_", is_alnum, 16, Kind::Stripe),
    rule(b"rk_test_", is_alnum, 16, Kind::Stripe),
    rule(b"whsec_", is_alnum, 24, Kind::Stripe),
    rule(b"shpat_", is_hex, 32, Kind::Token),
    rule(b"shpss_", is_hex, 32, Kind::Token),
    rule(b"shpca_", is_hex, 32, Kind::Token),
    rule(b"shppa_", is_hex, 32, Kind::Token),
    exact(b"AKIA", is_upper_alnum, 16, Kind::AwsAccessKeyId),
    exact(b"ASIA", is_upper_alnum, 16, Kind::AwsAccessKeyId),
    exact(b"AGPA", is_upper_alnum, 16, Kind::AwsAccessKeyId),
    exact(b"AIDA", is_upper_alnum, 16, Kind::AwsAccessKeyId),
    exact(b"AROA", is_upper_alnum, 16, Kind::AwsAccessKeyId),
    exact(b"ANPA", is_upper_alnum, 16, Kind::AwsAccessKeyId),
    exact(b"AIza", is_b64url, 35, Kind::Google),
    rule(b"AGE-SECRET-KEY-1", is_upper_alnum, 50, Kind::Token),
    rule(b"GOCSPX-", is_b64url, 20, Kind::Google),
    rule(b"ya29.", is_b64url, 20, Kind::Google),
    rule(b"ghp_", is_alnum, 30, Kind::GitHub),
    rule(b"gho_", is_alnum, 30, Kind::GitHub),
    rule(b"ghu_", is_alnum, 30, Kind::GitHub),
    rule(b"ghs_", is_alnum, 30, Kind::GitHub),
    rule(b"ghr_", is_alnum, 30, Kind::GitHub),
    rule(b"github_pat_", is_word, 40, Kind::GitHub),
    rule(b"glpat-", is_b64url, 20, Kind::GitLab),
    rule(b"gldt-", is_b64url, 20, Kind::GitLab),
    rule(b"glrt-", is_b64url, 20, Kind::GitLab),
    rule(b"glptt-", is_b64url, 20, Kind::GitLab),
    rule(b"glcbt-", is_b64url, 20, Kind::GitLab),
    rule(b"glft-", is_b64url, 20, Kind::GitLab),
    rule(b"glsoat-", is_b64url, 20, Kind::GitLab),
    rule(b"xoxb-", is_b64url, 10, Kind::Slack),
    rule(b"xoxp-", is_b64url, 10, Kind::Slack),
    rule(b"xoxa-", is_b64url, 10, Kind::Slack),
    rule(b"xoxr-", is_b64url, 10, Kind::Slack),
    rule(b"xoxs-", is_b64url, 10, Kind::Slack),
    rule(b"xoxe.xoxp-", is_b64url, 10, Kind::Slack),
    rule(b"xoxe-", is_b64url, 10, Kind::Slack),
    rule(b"xapp-", is_b64url, 10, Kind::Slack),
    exact(b"npm_", is_alnum, 36, Kind::Npm),
    rule(b"pypi-", is_b64url, 50, Kind::PyPi),
    rule(b"hf_", is_alnum, 30, Kind::Token),
    rule(b"dop_v1_", is_hex, 64, Kind::Token),
    rule(b"dckr_pat_", is_b64url, 20, Kind::Token),
];

/// Whether a byte can start a [`RULES`] prefix or a JWT (`eyJ`) or SendGrid key (`SG.`).
fn starts_rule(c: u8) -> bool {
    matches!(
        c,
        b's' | b'r'
            | b'w'
            | b'A'
            | b'G'
            | b'y'
            | b'g'
            | b'x'
            | b'n'
            | b'p'
            | b'h'
            | b'd'
            | b'e'
            | b'S'
    )
}

/// Tokens known by their prefix, JWTs and SendGrid keys, each standing alone (not inside a
/// longer word).
fn prefixed_tokens(b: &[u8], spans: &mut Vec<Span>) {
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if !starts_rule(c) || (i > 0 && is_b64url(b[i - 1])) {
            i += 1;
            continue;
        }
        if let Some(end) = token_at(b, i, spans) {
            i = end;
        } else {
            i += 1;
        }
    }
}

/// The token starting at `i`, if any: pushed, and its end returned.
fn token_at(b: &[u8], i: usize, spans: &mut Vec<Span>) -> Option<usize> {
    let rest = &b[i..];
    if rest.starts_with(b"eyJ") {
        let end = jwt_end(b, i)?;
        spans.push(Span {
            start: i,
            end,
            kind: Kind::Jwt,
        });
        return Some(end);
    }
    if rest.starts_with(b"SG.") {
        let a = run(b, i + 3, is_b64url);
        let c = (b.get(a) == Some(&b'.')).then(|| run(b, a + 1, is_b64url))?;
        if a - (i + 3) >= 16 && c - (a + 1) >= 16 {
            spans.push(Span {
                start: i,
                end: c,
                kind: Kind::Token,
            });
            return Some(c);
        }
        return None;
    }
    for r in RULES {
        // Two bytes first: most candidates end here, without a call to compare.
        if r.prefix[0] != rest[0]
            || r.prefix[1] != rest.get(1).copied().unwrap_or(0)
            || !rest.starts_with(r.prefix)
        {
            continue;
        }
        let body = i + r.prefix.len();
        let end = run(b, body, r.class);
        let len = end - body;
        // The token must end where its characters end (not run on into a longer word).
        let clean_end = b.get(end).is_none_or(|&c| !is_word(c));
        let long_enough = if r.exact { len == r.min } else { len >= r.min };
        if !long_enough || !clean_end {
            // `sk-ant-` failing must not hide a plain `sk-`, so keep looking.
            continue;
        }
        if r.kind == Kind::OpenAi && !mixed(&b[body..end]) {
            return None;
        }
        spans.push(Span {
            start: i,
            end,
            kind: r.kind,
        });
        return Some(end);
    }
    None
}

/// The end of the run of `class` characters from `i`.
fn run(b: &[u8], mut i: usize, class: impl Fn(u8) -> bool) -> usize {
    while i < b.len() && class(b[i]) {
        i += 1;
    }
    i
}

/// Whether `s` has both a digit and a letter (random, not a word-like-name-with-dashes).
fn mixed(s: &[u8]) -> bool {
    s.iter().any(u8::is_ascii_digit) && s.iter().any(u8::is_ascii_alphabetic)
}

/// `eyJ<header>.<payload>.<signature>`, base64url parts.
fn jwt_end(b: &[u8], start: usize) -> Option<usize> {
    let header = run(b, start, is_b64url);
    if header - start < 10 || b.get(header) != Some(&b'.') {
        return None;
    }
    let payload = run(b, header + 1, is_b64url);
    if payload - (header + 1) < 10 || b.get(payload) != Some(&b'.') {
        return None;
    }
    let signature = run(b, payload + 1, is_b64url);
    (signature - (payload + 1) >= 10).then_some(signature)
}

/// The bodies of `-----BEGIN … PRIVATE KEY-----` blocks, up to their `-----END` (or the end
/// of the text, for a block cut short). The header and footer lines stay.
fn private_keys(b: &[u8], spans: &mut Vec<Span>) {
    let finder = &FINDERS.begin;
    let mut from = 0;
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
}

/// Stops a URL's user information.
fn ends_userinfo(c: u8) -> bool {
    matches!(
        c,
        b'/' | b'?' | b'#' | b'@' | b'"' | b'\'' | b'<' | b'>' | b'`' | b'\\'
    ) || c.is_ascii_whitespace()
}

/// `scheme://user:password@host` → the password.
fn url_passwords(b: &[u8], spans: &mut Vec<Span>) {
    let finder = &FINDERS.scheme;
    let mut from = 0;
    while let Some(off) = finder.find(&b[from..]) {
        let at = from + off;
        from = at + 3;
        if at == 0 || !b[at - 1].is_ascii_alphanumeric() {
            continue;
        }
        let info_start = at + 3;
        let info_end = run(b, info_start, |c| !ends_userinfo(c));
        if b.get(info_end) != Some(&b'@') {
            continue;
        }
        let Some(colon) = memchr(b':', &b[info_start..info_end]) else {
            continue;
        };
        let pass_start = info_start + colon + 1;
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
fn slack_webhooks(b: &[u8], spans: &mut Vec<Span>) {
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
fn authorization(b: &[u8], spans: &mut Vec<Span>) {
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
const TOKEN_SCHEMES: &[&str] = &[
    "bearer", "basic", "token", "bot", "apikey", "key", "sso-key",
];
/// Schemes whose credentials are `k=v, k=v` parameters, up to the quote or the line's end.
const PARAM_SCHEMES: &[&str] = &[
    "digest",
    "negotiate",
    "ntlm",
    "hoba",
    "mutual",
    "aws4-hmac-sha256",
];

/// The credentials of an `Authorization` value starting at `i`: after a known scheme (which
/// stays), or, without one, a single random-looking token (so prose after the word is left).
fn credentials(b: &[u8], i: usize, quote: Option<u8>) -> Option<(usize, usize)> {
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

fn skip_spaces(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    i
}

/// How sure a secret-looking name is that its value is a secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Strength {
    /// `password`, `secret`, `api_key`, `token`, …: any real value is one.
    Strong,
    /// Another `*_key` / `*_token` (`cache_key`, `page_token`): only a random-looking value.
    Weak,
}

/// Names of keys and tokens that are not secrets.
const NOT_SECRET: &[&str] = &[
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
fn name_kind(name: &str) -> Option<(Kind, Strength)> {
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
fn placeholder(v: &[u8]) -> bool {
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
fn secret_value(v: &str, strength: Strength) -> bool {
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
fn ends_value(c: u8) -> bool {
    c.is_ascii_whitespace() || matches!(c, b'"' | b'\'' | b'&' | b',' | b';' | b'`' | b'\\')
}

/// `NAME=value`, `name = value`, `name: value`, `"name": "value"` with a secret-looking name
/// → the value. A name before `:` must be quoted or begin its line (YAML, `.pypirc`), so prose
/// ("the password: see below") is left alone; spaces around `=` are allowed (`.aws/credentials`,
/// `.pypirc`, code), and code on the right (`os.environ["KEY"]`) is not a value.
fn assignments(b: &[u8], spans: &mut Vec<Span>) {
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

fn assignment_at(b: &[u8], sep: usize) -> Option<Span> {
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
    let value = std::str::from_utf8(&b[start..end]).ok()?;
    // A value that is another secret's shape is left to that rule's kind.
    if !secret_value(value, strength) {
        return None;
    }
    let trimmed = value.trim_end_matches([',', '.', ')']);
    Some(Span {
        start,
        end: start + trimmed.len(),
        kind,
    })
}
