//! Share links: a capability to read one session, read-only, at `/p/<token>`.
//!
//! A share is made by `hiveterm share` or `POST /api/sessions/{id}/shares` (both need what
//! any write needs). Its token is 256 bits from the operating system's random source
//! ([`new_token`]), URL-safe base64 (43 characters); the store keeps only its SHA-256, and a
//! request's token is looked up by its hash and the hashes compared in constant time
//! ([`resolve`]). A share is a **snapshot** of the session up to its newest event when it was
//! made (every read under it stops there), or **live** (it follows the session); it may be
//! **redacted** (every row, body, badge and summary read through it comes from the raw events
//! passed through `classifier::redact` first, and so are its notes); it may take **comments**
//! (its readers may add notes, `crate::notes`). Expiry (default 7 days) and revocation are
//! checked on every request: `410` for a dead link (which shows no notes either), `404` for an unknown one, neither naming
//! the session.
//!
//! - this file: tokens, options, making, listing and revoking, resolving a token;
//! - `api`: the `/api` routes that manage shares (behind the server's token);
//! - `view`: `/p/<token>` — the page and the read endpoints under a share;
//! - `live`: a redacted share's live tail (its rows are folded from redacted raw events by
//!   `crate::redacted`);
//! - `compare`: a comparison link (issue 48, `hiveterm share --compare A B`): two sessions'
//!   comparison and nothing else, at `/p/<token>/compare`.

pub(crate) mod api;
pub mod compare;
mod live;
pub(crate) mod view;

use axum::response::Response;
use sha2::{Digest, Sha256};

use crate::error::AppError;
use crate::secret::same_bytes;
use crate::store::{NewShare, Share, Store, StoreError, TokenHash};

/// Random bytes in a token (256 bits).
pub const TOKEN_BYTES: usize = 32;
/// Characters in a token: [`TOKEN_BYTES`] in unpadded URL-safe base64.
pub const TOKEN_CHARS: usize = 43;
/// How long a share lasts unless told: 7 days.
pub const DEFAULT_EXPIRY_SECS: u64 = 7 * 24 * 3600;

/// A new token: [`TOKEN_BYTES`] from the operating system's random source, in unpadded
/// URL-safe base64 (`A-Z a-z 0-9 - _`).
pub fn new_token() -> Result<String, String> {
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes).map_err(|e| format!("no random bytes from the system: {e}"))?;
    Ok(onefile::base64_url(&bytes))
}

/// The SHA-256 of a token: what the store keeps.
pub fn token_hash(token: &str) -> TokenHash {
    Sha256::digest(token.as_bytes()).into()
}

/// Whether `s` has a token's shape (checked before any lookup).
pub fn is_token_shaped(s: &str) -> bool {
    s.len() == TOKEN_CHARS
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Parses an expiry: `never`, or a whole number with a unit `s`, `m`, `h` or `d` (`7d`,
/// `24h`); answers its length in seconds (`None`: never).
pub fn parse_expires(s: &str) -> Result<Option<u64>, String> {
    let s = s.trim();
    if s.eq_ignore_ascii_case("never") {
        return Ok(None);
    }
    let bad = || format!("an expiry is never or a number with s, m, h or d (7d, 24h), not {s:?}");
    let unit = match s.as_bytes().last() {
        Some(b's') => 1,
        Some(b'm') => 60,
        Some(b'h') => 3600,
        Some(b'd') => 86400,
        _ => return Err(bad()),
    };
    let n: u64 = s[..s.len() - 1].parse().map_err(|_| bad())?;
    match n.checked_mul(unit) {
        Some(secs) if secs > 0 => Ok(Some(secs)),
        _ => Err(bad()),
    }
}

/// What a new share is.
#[derive(Debug, Clone)]
pub struct ShareOptions {
    /// Its life in seconds; `None`: never expires.
    pub expires_in: Option<u64>,
    /// Follows the session instead of a snapshot.
    pub live: bool,
    /// Read redacted.
    pub redact: bool,
    /// A title for its readers.
    pub title: Option<String>,
    /// Its readers may add notes (a comment link).
    pub comments: bool,
}

impl Default for ShareOptions {
    fn default() -> ShareOptions {
        ShareOptions {
            expires_in: Some(DEFAULT_EXPIRY_SECS),
            live: false,
            redact: false,
            title: None,
            comments: false,
        }
    }
}

/// A share just made: the only time its token exists outside the link's holder.
#[derive(Debug, Clone)]
pub struct Created {
    /// The share as stored.
    pub share: Share,
    /// Its token.
    pub token: String,
}

impl Created {
    /// The link's path: `/p/<token>`.
    pub fn url(&self) -> String {
        format!("/p/{}", self.token)
    }
}

/// Whether a share is usable, and if not why: the contract's.
pub use contract::share::ShareStatus as Status;

/// A share's status at `now`.
pub fn status(share: &Share, now: f64) -> Status {
    if share.revoked_at.is_some() {
        Status::Revoked
    } else if share.expires_at.is_some_and(|t| now >= t) {
        Status::Expired
    } else {
        Status::Active
    }
}

/// What goes wrong making a share.
#[derive(Debug)]
pub enum ShareError {
    /// No such session.
    NoSession(String),
    /// The options do not make sense.
    Bad(String),
    /// The store or the random source failed.
    Failed(String),
}

impl std::fmt::Display for ShareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShareError::NoSession(id) => write!(f, "no session {id}"),
            ShareError::Bad(m) | ShareError::Failed(m) => f.write_str(m),
        }
    }
}

impl From<StoreError> for ShareError {
    fn from(e: StoreError) -> ShareError {
        ShareError::Failed(e.to_string())
    }
}

impl From<ShareError> for AppError {
    fn from(e: ShareError) -> AppError {
        match e {
            ShareError::NoSession(id) => AppError::NotFound(format!("no session {id}")),
            ShareError::Bad(m) => AppError::BadRequest(m),
            ShareError::Failed(m) => AppError::Internal(m),
        }
    }
}

/// Longest share title, in characters.
pub const MAX_TITLE_CHARS: usize = 200;

/// Makes a share of `session` as of `now`: a snapshot up to its newest stored event, or live.
pub async fn create(
    store: &Store,
    session: &str,
    options: &ShareOptions,
    now: f64,
) -> Result<Created, ShareError> {
    if !crate::error::valid_session_id(session) {
        return Err(ShareError::NoSession(session.to_owned()));
    }
    check_title(options)?;
    let info = store
        .session_info(session)
        .await?
        .ok_or_else(|| ShareError::NoSession(session.to_owned()))?;
    // A loaded hub may be ahead of the row read above only by events committed since: the
    // row's `last_seq` is committed, so the snapshot never names an uncommitted event.
    let token = new_token().map_err(ShareError::Failed)?;
    let share = store
        .create_share(NewShare {
            session: info.id,
            token_hash: token_hash(&token),
            title: options.title.clone().filter(|t| !t.trim().is_empty()),
            created_at: now,
            expires_at: options.expires_in.map(|s| now + s as f64),
            snapshot_seq: (!options.live).then_some(info.last_seq),
            redact: options.redact,
            comments: options.comments,
            compare_with: None,
            compare_seq: None,
        })
        .await?;
    Ok(Created { share, token })
}

/// A share's title, if given, is at most [`MAX_TITLE_CHARS`] characters of text.
fn check_title(options: &ShareOptions) -> Result<(), ShareError> {
    let Some(title) = &options.title else {
        return Ok(());
    };
    if title.chars().count() > MAX_TITLE_CHARS {
        return Err(ShareError::Bad(format!(
            "a share's title is at most {MAX_TITLE_CHARS} characters"
        )));
    }
    crate::error::check_text("a share's title", title).map_err(|e| ShareError::Bad(e.to_string()))
}

/// The share a token opens at `now`: `404` for a token of the wrong shape or none stored,
/// `410` for an expired or revoked one; neither answer names the session.
pub async fn resolve(store: &Store, token: &str, now: f64) -> Result<Share, AppError> {
    let unknown = || AppError::NotFound("no such share link".into());
    if !is_token_shaped(token) {
        return Err(unknown());
    }
    let hash = token_hash(token);
    let (share, stored) = store.share_by_hash(&hash).await?.ok_or_else(unknown)?;
    if !same_bytes(&stored, &hash) {
        return Err(unknown());
    }
    check_active(&share, now)?;
    Ok(share)
}

/// `410` unless `share` is active at `now`.
pub(crate) fn check_active(share: &Share, now: f64) -> Result<(), AppError> {
    match status(share, now) {
        Status::Active => Ok(()),
        Status::Expired => Err(AppError::Gone("this share link has expired".into())),
        Status::Revoked => Err(AppError::Gone("this share link was revoked".into())),
    }
}

/// The dead page's look: readable in both themes, nothing loaded.
const DEAD_STYLE: &str = "body{font:16px/1.5 system-ui,sans-serif;max-width:40em;margin:4em auto;\
     padding:0 1em;color-scheme:light dark}h1{font-size:1.2em}.dead-link{color:#d33}";

/// The short page of a link that does not open: `410` expired or revoked, `404` unknown.
pub(crate) fn dead_page(e: AppError) -> Response {
    let (code, text) = match e {
        AppError::Gone(m) => (axum::http::StatusCode::GONE, m),
        AppError::NotFound(m) => (axum::http::StatusCode::NOT_FOUND, m),
        other => return axum::response::IntoResponse::into_response(other),
    };
    let text = crate::web::escape(&text);
    let page = (
        code,
        axum::response::Html(format!(
            "<!doctype html><meta charset=utf-8><meta name=viewport content=\"width=device-width\">\
             <title>hiveterm · a dead link</title><style>{DEAD_STYLE}</style>\
             <h1>This link shows nothing</h1><p class=dead-link>{text}. Ask whoever sent it \
             for a new one.</p>"
        )),
    );
    axum::response::IntoResponse::into_response(page)
}

/// A share as listed (`GET /api/shares`, `hiveterm share --list`): the contract's.
pub use contract::share::Listed;

/// `share` as listed at `now`: the stored fields, its status and whether it is live. Never
/// its token (which is not stored).
pub fn listed(share: &Share, now: f64) -> Listed {
    Listed {
        share: share.clone(),
        live: share.live(),
        status: status(share, now),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use onefile::base64_url;

    #[test]
    fn base64_url_matches_rfc_4648_vectors() {
        let check = |input: &[u8], expect: &str| assert_eq!(base64_url(input), expect);
        check(b"", "");
        check(b"f", "Zg");
        check(b"fo", "Zm8");
        check(b"foo", "Zm9v");
        check(b"foob", "Zm9vYg");
        check(b"fooba", "Zm9vYmE");
        check(b"foobar", "Zm9vYmFy");
        check(&[0xfb, 0xff, 0xbf], "-_-_");
    }

    #[test]
    fn tokens_are_43_url_safe_characters_and_differ() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert!(is_token_shaped(&a) && is_token_shaped(&b), "{a} {b}");
        assert_ne!(a, b);
    }

    #[test]
    fn expiry_forms() {
        let check = |input: &str, expect: Result<Option<u64>, ()>| {
            assert_eq!(parse_expires(input).map_err(drop), expect, "{input}");
        };
        check("7d", Ok(Some(604_800)));
        check("24h", Ok(Some(86_400)));
        check("30m", Ok(Some(1_800)));
        check("2s", Ok(Some(2)));
        check("never", Ok(None));
        check("0d", Err(()));
        check("7", Err(()));
        check("d", Err(()));
        check("-1h", Err(()));
        check("99999999999999999999d", Err(()));
    }
}
