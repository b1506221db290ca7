//! Posting events: what `POST /api/sessions/{id}/events` answers ([`Posted`]) and
//! `GET /api/sessions/{id}/keys/last`, the newest `Idempotency-Key` a session's POSTs stored
//! ([`LastKey`]), which `--to URL` resumes from.

use serde::{Deserialize, Serialize};

/// The answer to a POST of events: `{"session", "created", "first_seq", "last_seq",
/// "count"}` and `seqs` when there are at most 1000.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Posted {
    /// The session.
    pub session: String,
    /// The session was created by this request.
    pub created: bool,
    /// The seq of the first line stored (`None`: no line).
    pub first_seq: Option<u64>,
    /// The seq of the last line stored.
    pub last_seq: Option<u64>,
    /// How many lines were stored (their seqs are `first_seq..=last_seq`).
    pub count: u64,
    /// Every seq, when there are at most 1000.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seqs: Option<Vec<u64>>,
}

/// `{"key", "first_seq", "last_seq", "lines", "body_sha256"}`, or `{"key": null}` when the
/// session has none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastKey {
    /// The key; `None`: no keyed POST stored yet (then nothing else is said).
    pub key: Option<String>,
    /// What the key stored, when there is one.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub stored: Option<Stored>,
}

/// What one keyed POST stored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stored {
    /// The seq of its first line.
    pub first_seq: u64,
    /// The seq of its last line.
    pub last_seq: u64,
    /// How many lines (their seqs are consecutive).
    pub lines: u64,
    /// The SHA-256 of the body first sent with the key, in hex (`null`: stored by a server
    /// from before it was kept).
    pub body_sha256: Option<String>,
}
