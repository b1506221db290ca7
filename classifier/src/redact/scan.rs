//! Free text: every detector over it, in turn.

use super::assign::assignments;
use super::report::Span;
use super::shapes::{authorization, private_keys, slack_webhooks, url_passwords};
use super::tokens::prefixed_tokens;

/// Every rule over `text`, pushing what it finds.
pub(super) fn scan(b: &[u8], spans: &mut Vec<Span>) {
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
