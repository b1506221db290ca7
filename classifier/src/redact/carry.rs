//! What one text of a log leaves for the next ones, so a secret over two lines, two events
//! or two content blocks goes whole: a private key block opened and not closed (its next
//! lines are its body, up to `-----END`), the end of the last prose text (a token it ended
//! with or cut, whose rest may open the next one), and the secrets found by their
//! surroundings (a password's value, redacted again wherever it shows up later).

use memchr::memmem;

use super::report::{Kind, Span};
use super::scan::scan_seen;
use super::tokens::{cut_token, is_b64url, mixed, prefixed_tokens, run};

/// Lines a private key block stays open without its `-----END` (an 8,192-bit RSA key is
/// about 100 lines, each maybe its own event between others).
const KEY_LINES: u32 = 200;
/// Secrets remembered, the latest kept.
const KNOWN: usize = 32;
/// Bytes of the last prose text's end kept to join with the next one's start.
const TAIL: usize = 128;

/// The state a redaction carries from text to text of one log.
#[derive(Debug, Clone, Default)]
pub(super) struct Carry {
    /// Lines left of a private key block opened and not closed.
    key: Option<u32>,
    /// The token characters the last prose text ended with (its last [`TAIL`] bytes).
    tail: Vec<u8>,
    /// The kind of the secret that ran to the end of the last prose text.
    open: Option<Kind>,
    /// Secrets found by their surroundings, oldest first.
    known: Vec<(Box<[u8]>, Kind)>,
    /// Which of them the current line may hold.
    present: Vec<usize>,
}

impl Carry {
    /// A line begins: the key block's count of lines, which known secrets it may hold.
    pub(super) fn line(&mut self, line: &[u8]) {
        if let Some(n) = &mut self.key {
            *n -= 1;
            if *n == 0 {
                self.key = None;
            }
        }
        self.present.clear();
        for (k, (secret, _)) in self.known.iter().enumerate() {
            // A secret JSON escapes may be in the line escaped: looked for in every text.
            let escaped = secret
                .iter()
                .any(|&c| c < 0x20 || matches!(c, b'"' | b'\\' | b'/'));
            if escaped || memmem::find(line, secret).is_some() {
                self.present.push(k);
            }
        }
    }

    /// The secrets of one text of the line (a line that is not JSON, or a string of one),
    /// as ranges of it. `prose`: a text an agent or a command wrote (its start may go on
    /// from the previous prose text's end).
    pub(super) fn text(&mut self, text: &[u8], prose: bool, spans: &mut Vec<Span>) {
        let first = spans.len();
        if self.key.is_some() {
            self.key_body(text, spans);
        }
        if scan_seen(text, spans) {
            self.key = Some(KEY_LINES);
        }
        if prose {
            self.go_on(text, spans);
            self.set_tail(text, spans);
        }
        for &Span { start, end, kind } in &spans[first..] {
            self.remember(&text[start..end], kind);
        }
        for &k in &self.present {
            let (secret, kind) = &self.known[k];
            for at in memmem::find_iter(text, &secret[..]) {
                spans.push(Span {
                    start: at,
                    end: at + secret.len(),
                    kind: *kind,
                });
            }
        }
    }

    /// Remembers `secret`, found by its surroundings, to redact it wherever it shows up.
    pub(super) fn remember(&mut self, secret: &[u8], kind: Kind) {
        let worth = (8..=256).contains(&secret.len())
            && kind != Kind::PrivateKey
            && !secret.iter().any(|&c| c < 0x20 || c == b'\\')
            && secret.iter().any(u8::is_ascii_alphanumeric);
        if !worth || self.known.iter().any(|(s, _)| &s[..] == secret) {
            return;
        }
        if self.known.len() == KNOWN {
            self.known.remove(0);
            // Indices move down by one; the oldest is gone.
            self.present.retain_mut(|k| {
                *k = k.wrapping_sub(1);
                *k != usize::MAX
            });
        }
        self.known.push((secret.into(), kind));
        self.present.push(self.known.len() - 1);
    }

    /// Inside an open key block: its body, up to `-----END` (which closes it). The body's
    /// lines are runs of base64 (12 or more characters, random-looking); runs with only
    /// whitespace between them are one.
    fn key_body(&mut self, text: &[u8], spans: &mut Vec<Span>) {
        let end = memmem::find(text, b"-----END").unwrap_or(text.len());
        if end < text.len() {
            self.key = None;
        }
        let region = &text[..end];
        let mut cur: Option<(usize, usize)> = None;
        let mut i = 0;
        while i < region.len() {
            if !pem(region[i]) {
                i += 1;
                continue;
            }
            let e = run(region, i, pem);
            let bounded = (i == 0 || !matches!(region[i - 1], b'-' | b'_' | b'.' | b'@'))
                && !matches!(region.get(e), Some(b'-' | b'_' | b'.' | b'@'));
            if e - i >= 12 && bounded && random(&region[i..e]) {
                match &mut cur {
                    Some((_, ce)) if region[*ce..i].iter().all(u8::is_ascii_whitespace) => {
                        *ce = e;
                    }
                    _ => {
                        if let Some((s, e)) = cur.take() {
                            spans.push(key_span(s, e));
                        }
                        cur = Some((i, e));
                    }
                }
            }
            i = e;
        }
        if let Some((s, e)) = cur {
            spans.push(key_span(s, e));
        }
    }

    /// The start of a prose text going on from the last one's end: the rest of a token
    /// that ran to its end, or a token whose first characters ended it.
    fn go_on(&mut self, text: &[u8], spans: &mut Vec<Span>) {
        let lead = run(text, 0, |c| is_b64url(c) || c == b'.');
        if lead == 0 {
            return;
        }
        if let Some(kind) = self.open {
            if random(&text[..lead]) {
                spans.push(Span {
                    start: 0,
                    end: lead,
                    kind,
                });
            }
            return;
        }
        if self.tail.is_empty() {
            return;
        }
        let mut joined = self.tail.clone();
        joined.extend_from_slice(&text[..lead.min(4096)]);
        let mut found = Vec::new();
        prefixed_tokens(&joined, None, &mut found);
        let cut = self.tail.len();
        for span in found {
            if span.start < cut && span.end > cut {
                spans.push(Span {
                    start: 0,
                    end: span.end - cut,
                    kind: span.kind,
                });
            }
        }
    }

    /// Keeps the end of a prose text for the next one: the token characters it ends with,
    /// and whether a secret ran to its end (a token cut by the end with 8 or more
    /// characters of its body is redacted here, as the start of a longer one).
    fn set_tail(&mut self, text: &[u8], spans: &mut Vec<Span>) {
        self.tail.clear();
        self.open = None;
        let word = |c: u8| is_b64url(c) || c == b'.';
        let start = text.len() - text.iter().rev().take_while(|&&c| word(c)).count();
        if start == text.len() {
            return;
        }
        self.open = spans
            .iter()
            .find(|s| s.end == text.len() && s.start < s.end)
            .map(|s| s.kind);
        if self.open.is_none() {
            let starts = (start..text.len()).filter(|&i| i == start || text[i - 1] == b'.');
            for i in starts {
                let Some((kind, body)) = cut_token(text, i) else {
                    continue;
                };
                let random = kind != Kind::OpenAi || mixed(&text[text.len() - body..]);
                if (body >= 8 || kind == Kind::Jwt) && random {
                    spans.push(Span {
                        start: i,
                        end: text.len(),
                        kind,
                    });
                    self.open = Some(kind);
                }
                break;
            }
        }
        self.tail
            .extend_from_slice(&text[start.max(text.len().saturating_sub(TAIL))..]);
    }
}

fn key_span(start: usize, end: usize) -> Span {
    Span {
        start,
        end,
        kind: Kind::PrivateKey,
    }
}

/// A character of a PEM body line (standard base64).
fn pem(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=')
}

/// Whether a run of characters looks random rather than like a word or a name: letters and
/// digits, base64's `+` or `=`, or a capital letter after its first character among small
/// ones.
fn random(r: &[u8]) -> bool {
    mixed(r)
        || r.iter().any(|&c| c == b'+' || c == b'=')
        || (r.len() > 1
            && r[1..].iter().any(u8::is_ascii_uppercase)
            && r.iter().any(u8::is_ascii_lowercase))
}
