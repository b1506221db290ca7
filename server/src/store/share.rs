//! Share links in the store, whichever backend: a share names one session, and is kept with
//! the SHA-256 of its token (never the token), when it expires, whether it was revoked, and
//! how far it reaches (a snapshot's newest seq, or none for a live share). What a token is
//! and how a share is read lives in `crate::share`; this is only what is stored.

use serde::Serialize;

/// The SHA-256 of a share's token: all the database holds of it.
pub type TokenHash = [u8; 32];

/// A share link as stored (its token is not: only its hash, which is never answered).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Share {
    /// The share's id (what `--revoke` and `DELETE /api/shares/{id}` take).
    pub id: u64,
    /// The session it shows.
    pub session: String,
    /// A title for its readers, if one was given (else the session's).
    pub title: Option<String>,
    /// When it was made (unix seconds).
    pub created_at: f64,
    /// When it stops working (unix seconds); `None`: never.
    pub expires_at: Option<f64>,
    /// A snapshot's newest seq (the session's newest when the share was made); `None` for a
    /// live share, which follows the session.
    pub snapshot_seq: Option<u64>,
    /// Every row and body read through it is redacted (`classifier::redact`).
    pub redact: bool,
    /// When it was revoked, if it was.
    pub revoked_at: Option<f64>,
    /// Its readers may add notes (a comment link).
    pub comments: bool,
}

impl Share {
    /// Whether it follows the session (no snapshot).
    pub fn live(&self) -> bool {
        self.snapshot_seq.is_none()
    }
}

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
