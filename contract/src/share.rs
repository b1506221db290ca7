//! Share links (docs/API.md, "Share links"): what a share is asked for ([`ShareRequest`]), a
//! share as listed ([`Listed`] of a [`Share`]),
//! the answer that makes one ([`Created`], with a redacted share's [`Review`]), what a link
//! shows of itself ([`ShareInfo`]), and the redactions made ([`Report`]: a redacted share's
//! and a one-file export's).

use classifier::redact::Finding;
use serde::{Deserialize, Serialize};

/// The optional body of `POST /api/sessions/{id}/shares`: every field optional, no other
/// field taken.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShareRequest {
    /// `never`, or a whole number with `s`, `m`, `h` or `d` (`7d`); default `7d`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<String>,
    /// Follow the session (else a snapshot of it now).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub live: Option<bool>,
    /// Redact secrets from what it shows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redact: Option<bool>,
    /// The title its readers see (at most 200 characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Its readers may add notes (a comment link).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<bool>,
}

/// Redactions listed one by one in a [`Report`] (all are counted).
pub const REPORT_ITEMS: usize = 1000;

/// One redaction, for review: `{"seq", "kind", "preview"}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Redaction {
    /// The event (or a log's line, 1-based) it is in.
    pub seq: u64,
    /// What it was (`anthropic_key`, …: `classifier::redact::Kind::as_str`).
    pub kind: String,
    /// A masked preview (`sk-a… (108 chars)`).
    pub preview: String,
}

/// The redactions made, for a human to review before a file leaves or a redacted share's
/// link is sent: `{"count", "events", "items", "truncated"}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Report {
    /// Redactions in all.
    pub count: u64,
    /// Events (lines) with at least one.
    pub events: u64,
    /// The first [`REPORT_ITEMS`] redactions.
    pub items: Vec<Redaction>,
    /// Whether `items` stopped before `count`.
    pub truncated: bool,
}

impl Report {
    /// The redactions made in event `seq` (none: nothing to count), listed while fewer than
    /// [`REPORT_ITEMS`] are: the one bookkeeping of the export's report and of a redacted
    /// share's.
    pub fn add(&mut self, seq: u64, findings: &[Finding]) {
        if findings.is_empty() {
            return;
        }
        self.count += findings.len() as u64;
        self.events += 1;
        for f in findings {
            if self.items.len() < REPORT_ITEMS {
                self.items.push(Redaction {
                    seq,
                    kind: f.kind.as_str().to_owned(),
                    preview: f.preview.clone(),
                });
            }
        }
        self.truncated = self.count > self.items.len() as u64;
    }
}

/// A redacted share's `redactions`: its [`Report`] and a `note` saying redaction is best
/// effort.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Review {
    /// The redactions.
    #[serde(flatten)]
    pub report: Report,
    /// `pattern redaction is best effort: review the rows before sending the link`.
    #[serde(default)]
    pub note: String,
}

/// What [`Review::note`] says.
pub const REVIEW_NOTE: &str =
    "pattern redaction is best effort: review the rows before sending the link";

/// Whether a share opens, and if not why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ShareStatus {
    /// It opens.
    #[default]
    Active,
    /// Its time is over.
    Expired,
    /// It was revoked.
    Revoked,
}

/// A share link as stored (never its token: only its hash is kept, and never answered).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Share {
    /// Its id (what `DELETE /api/shares/{id}` takes).
    pub id: u64,
    /// The session it shows.
    pub session: String,
    /// A title for its readers, if one was given (else the session's).
    pub title: Option<String>,
    /// When it was made (unix seconds).
    pub created_at: f64,
    /// When it stops opening (unix seconds); `None`: never.
    pub expires_at: Option<f64>,
    /// A snapshot's newest seq; `None` for a live share, which follows the session.
    pub snapshot_seq: Option<u64>,
    /// Every row and body read through it is redacted.
    pub redact: bool,
    /// When it was revoked, if it was.
    pub revoked_at: Option<f64>,
    /// Its readers may add notes (a comment link).
    pub comments: bool,
    /// A comparison link's second session (issue 48): the link shows `session` and this one
    /// side by side, and nothing else. Absent for a session's link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compare_with: Option<String>,
    /// A comparison snapshot's newest seq of `compare_with` (`snapshot_seq` is `session`'s).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compare_seq: Option<u64>,
}

impl Share {
    /// Whether it follows the session (no snapshot).
    pub fn live(&self) -> bool {
        self.snapshot_seq.is_none()
    }

    /// Whether it is a comparison link (`hiveterm share --compare A B`).
    pub fn is_comparison(&self) -> bool {
        self.compare_with.is_some()
    }
}

/// A share as listed (`GET /api/shares`, `DELETE /api/shares/{id}`, `hiveterm share --list`):
/// the stored fields, whether it is live and its status.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Listed {
    /// The stored share.
    #[serde(flatten)]
    pub share: Share,
    /// Whether it follows the session.
    #[serde(default)]
    pub live: bool,
    /// Active, expired or revoked when asked.
    #[serde(default)]
    pub status: ShareStatus,
}

/// `GET /api/shares`: `{"shares": [...]}`, newest first.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SharesList {
    /// Every share.
    #[serde(default)]
    pub shares: Vec<Listed>,
}

/// The answer of `POST /api/sessions/{id}/shares` (`201`): the share as listed, its link's
/// path and, for a redacted share, the redactions to review.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Created {
    /// The share.
    #[serde(flatten)]
    pub listed: Listed,
    /// The link's path, `/p/<token>` (told once).
    #[serde(default)]
    pub url: String,
    /// A redacted share's redactions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redactions: Option<Review>,
}

/// What a link shows of itself: `GET /p/<token>/api/share`.
#[expect(
    clippy::struct_excessive_bools,
    reason = "each is one of the documented answer's flags"
)]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ShareInfo {
    /// The title the link's readers see (the share's, else the session's).
    pub title: Option<String>,
    /// When the share was made (unix seconds).
    pub created_at: Option<f64>,
    /// When it stops opening (unix seconds); `None`: never.
    pub expires_at: Option<f64>,
    /// Whether it follows the session as it grows (else a snapshot).
    pub live: bool,
    /// The newest seq it shows (a snapshot).
    pub snapshot_seq: Option<u64>,
    /// Whether secrets were redacted from it.
    pub redact: bool,
    /// Whether its readers may add notes (a comment link).
    pub comments: bool,
    /// Whether it is a comparison link (issue 48: its page is `/p/<token>/compare`, its one
    /// read besides this `…/api/compare`). Absent for a session's link.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub compare: bool,
}
