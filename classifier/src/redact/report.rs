//! What a redaction found and what it leaves: the kinds of secret, a [`Finding`] with its
//! masked preview, a [`Redacted`] line; the [`Span`]s the detectors find and their replacement
//! by `[REDACTED:<kind>]` ([`apply`]).

use std::borrow::Cow;

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

/// A secret found in a text: its byte range and kind.
#[derive(Debug, Clone, Copy)]
pub(super) struct Span {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) kind: Kind,
}

/// Replaces `spans` in `text`; spans that overlap are one redaction (what either
/// covered goes). A span that does not fall on character boundaries is left out.
pub(super) fn apply(text: &str, mut spans: Vec<Span>) -> (String, Vec<Finding>) {
    spans.sort_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
    let mut merged: Vec<Span> = Vec::with_capacity(spans.len());
    for span in spans {
        if span.end <= span.start
            || !text.is_char_boundary(span.start)
            || !text.is_char_boundary(span.end)
        {
            continue;
        }
        match merged.last_mut() {
            Some(last) if span.start < last.end => {
                last.end = last.end.max(span.end);
            }
            _ => merged.push(span),
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut findings = Vec::with_capacity(merged.len());
    let mut at = 0;
    for span in merged {
        out.push_str(&text[at..span.start]);
        out.push_str("[REDACTED:");
        out.push_str(span.kind.as_str());
        out.push(']');
        findings.push(finding(span.kind, &text[span.start..span.end]));
        at = span.end;
    }
    out.push_str(&text[at..]);
    (out, findings)
}

/// The finding of `secret`, of kind `kind`.
pub(super) fn finding(kind: Kind, secret: &str) -> Finding {
    Finding {
        kind,
        preview: mask(secret),
    }
}

/// `sk-a… (108 chars)`: at most a quarter of the secret, at most 4 characters, shown.
fn mask(secret: &str) -> String {
    let n = secret.chars().count();
    let shown: String = secret.chars().take((n / 4).min(4)).collect();
    format!("{shown}… ({n} chars)")
}
