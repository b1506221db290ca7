//! Share links in the store, whichever backend: a share names one session, and is kept with
//! the SHA-256 of its token (never the token), when it expires, whether it was revoked, and
//! how far it reaches (a snapshot's newest seq, or none for a live share); a comparison link
//! (issue 48) names a second session too, and how far it reaches in that one. What a token is
//! and how a share is read lives in `crate::share`; this is only what is stored.

/// The SHA-256 of a share's token: all the database holds of it.
pub type TokenHash = [u8; 32];

/// A share link as stored (its token is not: only its hash, which is never answered): the
/// contract's.
pub use contract::share::Share;

/// A share to store.
#[derive(Debug, Clone)]
pub struct NewShare {
    /// The session.
    pub session: String,
    /// The SHA-256 of its token.
    pub token_hash: TokenHash,
    /// Its title, if any.
    pub title: Option<String>,
    /// When it was made.
    pub created_at: f64,
    /// When it expires; `None`: never.
    pub expires_at: Option<f64>,
    /// A snapshot's newest seq; `None`: live.
    pub snapshot_seq: Option<u64>,
    /// Read redacted.
    pub redact: bool,
    /// Its readers may add notes.
    pub comments: bool,
    /// A comparison link's second session (`session` is its first).
    pub compare_with: Option<String>,
    /// A comparison snapshot's newest seq of `compare_with`.
    pub compare_seq: Option<u64>,
}

/// A share write, queued like any other write (SQLite's one writer thread).
#[derive(Debug)]
pub(crate) enum ShareWrite {
    /// Store a new share.
    Create(NewShare),
    /// Mark share `id` revoked at `at` (once: a revoked share keeps its first time).
    Revoke { id: u64, at: f64 },
}

/// What a [`ShareWrite`] answered.
#[derive(Debug)]
pub(crate) enum ShareWritten {
    /// The share as stored.
    Created(Share),
    /// The share after revocation; `None`: no such share.
    Revoked(Option<Share>),
}
