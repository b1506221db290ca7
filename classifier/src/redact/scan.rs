//! Free text: every detector over it, in turn; over the text as stored and, when it differs,
//! as a reader sees it ([`View`]).

use super::assign::assignments;
use super::report::Span;
use super::shapes::{authorization, private_keys, slack_webhooks, url_passwords};
use super::tokens::prefixed_tokens;
use super::view::View;

/// Every rule over `text` as stored and as seen, pushing what it finds (as ranges of
/// `text`); whether it ends inside a private key block still open.
pub(super) fn scan_seen(text: &[u8], spans: &mut Vec<Span>) -> bool {
    let mut open = scan(text, None, spans);
    if let Some(view) = View::of(text) {
        let mut seen = Vec::new();
        open |= scan(view.text.as_bytes(), Some(&view), &mut seen);
        for span in seen.into_iter().filter(|s| s.end > s.start) {
            let (start, end) = view.source(span.start, span.end);
            spans.push(Span { start, end, ..span });
        }
    }
    open
}

/// Every rule over `b`, pushing what it finds; whether it ends inside a private key block.
pub(super) fn scan(b: &[u8], view: Option<&View>, spans: &mut Vec<Span>) -> bool {
    if b.len() < 8 {
        return false;
    }
    prefixed_tokens(b, view, spans);
    let open = private_keys(b, spans);
    url_passwords(b, spans);
    slack_webhooks(b, spans);
    authorization(b, spans);
    assignments(b, spans);
    open
}
