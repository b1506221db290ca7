//! Detectors: tokens of a well-known prefix (API keys of each service, the `RULES` table) and
//! JWTs; the byte classes the other detectors share.

use std::sync::LazyLock;

use super::report::{Kind, Span};
use super::view::View;

pub(super) fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

pub(super) fn is_b64url(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

pub(super) fn is_alnum(c: u8) -> bool {
    c.is_ascii_alphanumeric()
}

pub(super) fn is_upper_alnum(c: u8) -> bool {
    c.is_ascii_uppercase() || c.is_ascii_digit()
}

pub(super) fn is_hex(c: u8) -> bool {
    c.is_ascii_hexdigit()
}

/// A token rule: a literal prefix, then a body of `class` characters, at least `min` long
/// (exactly `min` when `exact`).
pub(super) struct Rule {
    prefix: &'static [u8],
    class: fn(u8) -> bool,
    min: usize,
    exact: bool,
    kind: Kind,
}

pub(super) const fn rule(
    prefix: &'static [u8],
    class: fn(u8) -> bool,
    min: usize,
    kind: Kind,
) -> Rule {
    Rule {
        prefix,
        class,
        min,
        exact: false,
        kind,
    }
}

pub(super) const fn exact(
    prefix: &'static [u8],
    class: fn(u8) -> bool,
    len: usize,
    kind: Kind,
) -> Rule {
    Rule {
        prefix,
        class,
        min: len,
        exact: true,
        kind,
    }
}

/// Token shapes by prefix. Longer prefixes before the shorter ones they start with.
pub(super) static RULES: &[Rule] = &[
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

/// [`RULES`] by the first byte of their prefix, in their order (a word starting with `s`
/// is tried against the 4 rules starting with `s`, not all 50).
struct ByFirst {
    order: Vec<&'static Rule>,
    /// Per first byte: its rules' range in `order`.
    range: [(u16, u16); 256],
}

impl ByFirst {
    fn rules(&self, c: u8) -> &[&'static Rule] {
        let (a, b) = self.range[usize::from(c)];
        &self.order[usize::from(a)..usize::from(b)]
    }
}

static BY_FIRST: LazyLock<ByFirst> = LazyLock::new(|| {
    let mut order: Vec<&'static Rule> = RULES.iter().collect();
    // Stable: rules of one first byte keep their order (longer prefixes first).
    order.sort_by_key(|r| r.prefix[0]);
    let mut range = [(0u16, 0u16); 256];
    for (i, r) in order.iter().enumerate() {
        let entry = &mut range[usize::from(r.prefix[0])];
        if entry.1 == 0 {
            entry.0 = i as u16;
        }
        entry.1 = i as u16 + 1;
    }
    ByFirst { order, range }
});

/// Whether a byte can start a [`RULES`] prefix or a JWT (`eyJ`) or SendGrid key (`SG.`).
pub(super) fn starts_rule(c: u8) -> bool {
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
/// In a [`View`], a token may follow a word character that something unseen (a colour code)
/// separated it from.
pub(super) fn prefixed_tokens(b: &[u8], view: Option<&View>, spans: &mut Vec<Span>) {
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if !starts_rule(c)
            || (i > 0 && is_b64url(b[i - 1]) && !view.is_some_and(|v| v.cut_before(i)))
        {
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
pub(super) fn token_at(b: &[u8], i: usize, spans: &mut Vec<Span>) -> Option<usize> {
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
    for r in BY_FIRST.rules(rest[0]) {
        // The second byte first: most candidates end here, without a call to compare.
        if r.prefix[1] != rest.get(1).copied().unwrap_or(0) || !rest.starts_with(r.prefix) {
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

/// A token cut short by the end of `b`: its prefix at `i`, its body running to the end (a
/// key split over two text blocks); its kind and how long its body is so far.
pub(super) fn cut_token(b: &[u8], i: usize) -> Option<(Kind, usize)> {
    let rest = &b[i..];
    if rest.starts_with(b"eyJ") {
        let end = run(b, i, |c| is_b64url(c) || c == b'.');
        return (end == b.len() && rest.contains(&b'.')).then_some((Kind::Jwt, rest.len()));
    }
    RULES.iter().find_map(|r| {
        let body = i + r.prefix.len();
        (rest.starts_with(r.prefix) && run(b, body, r.class) == b.len())
            .then(|| (r.kind, b.len() - body))
    })
}

/// The end of the run of `class` characters from `i`.
pub(super) fn run(b: &[u8], mut i: usize, class: impl Fn(u8) -> bool) -> usize {
    while i < b.len() && class(b[i]) {
        i += 1;
    }
    i
}

/// Whether `s` has both a digit and a letter (random, not a word-like-name-with-dashes).
pub(super) fn mixed(s: &[u8]) -> bool {
    s.iter().any(u8::is_ascii_digit) && s.iter().any(u8::is_ascii_alphabetic)
}

/// `eyJ<header>.<payload>.<signature>`, base64url parts.
pub(super) fn jwt_end(b: &[u8], start: usize) -> Option<usize> {
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

pub(super) fn skip_spaces(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    i
}
