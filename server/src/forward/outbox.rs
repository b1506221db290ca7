//! What both forwarders share: a batch of lines ([`Batch`]), and the remote session they
//! go to ([`Outbox`]), which posts a batch under its key, the same request again until it is
//! stored.

use std::time::Duration;

use super::remote::{Failure, Remote};

/// Most lines in one POST.
pub(super) const BATCH_LINES: usize = 2048;
/// Most bytes of lines in one POST (a longer line goes alone): under the server's 8 MiB
/// append, so a batch is usually stored in one transaction.
pub(super) const BATCH_BYTES: usize = 4 * 1024 * 1024;
/// Longest wait between two tries.
pub(super) const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// Lines waiting to be posted together.
#[derive(Default)]
pub(super) struct Batch {
    pub(super) lines: Vec<Vec<u8>>,
    pub(super) bytes: usize,
}

impl Batch {
    pub(super) fn push(&mut self, line: Vec<u8>) {
        self.bytes += line.len() + 1;
        self.lines.push(line);
    }

    pub(super) fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Whether `line` would take it over [`BATCH_BYTES`] (it is sent first, then).
    pub(super) fn would_overflow(&self, line: &[u8]) -> bool {
        !self.is_empty() && self.bytes + line.len() + 1 > BATCH_BYTES
    }

    pub(super) fn is_full(&self) -> bool {
        self.lines.len() >= BATCH_LINES || self.bytes >= BATCH_BYTES
    }

    /// The body of a POST: each line and a newline; empties the batch.
    pub(super) fn take_body(&mut self) -> Vec<u8> {
        let mut body = Vec::with_capacity(self.bytes);
        for line in self.lines.drain(..) {
            body.extend_from_slice(&line);
            body.push(b'\n');
        }
        self.bytes = 0;
        body
    }
}

/// Where a remote session's lines go.
pub(super) struct Outbox {
    pub(super) remote: Remote,
    pub(super) id: String,
    pub(super) title: String,
}

/// Sleeps `backoff`, then doubles it (up to [`MAX_BACKOFF`]).
pub(super) async fn back_off(backoff: &mut Duration) {
    tokio::time::sleep(*backoff).await;
    *backoff = (*backoff * 2).min(MAX_BACKOFF);
}

/// Why lines were not sent.
#[derive(Debug)]
pub(super) enum Unsent {
    /// Refused for good: the forwarder stops with this.
    Refused(String),
    /// The remote session moved on past the key they were to follow: resume.
    Moved(String),
}

impl Outbox {
    /// Posts `body` under `key`, to follow key `after` (`""`: none), the same request again
    /// until the remote answers that it is stored (or refuses it).
    pub(super) async fn send(&self, key: &str, after: &str, body: &[u8]) -> Result<(), Unsent> {
        let mut backoff = Duration::from_millis(200);
        loop {
            match self
                .remote
                .post(&self.id, &self.title, (key, after), body)
                .await
            {
                Ok(()) => return Ok(()),
                Err(Failure::Refused(why)) => {
                    return Err(Unsent::Refused(format!(
                        "{} refused the lines of {}: {why}",
                        self.remote.authority, self.id
                    )));
                }
                Err(Failure::Moved(why)) => return Err(Unsent::Moved(why)),
                Err(Failure::Retry(why)) => {
                    tracing::warn!(
                        "forwarding {} ({key}): {why}; sending it again in {backoff:?}",
                        self.id
                    );
                    back_off(&mut backoff).await;
                }
            }
        }
    }

    /// Ends the remote session (retried until the remote answers; an end is idempotent).
    pub(super) async fn end(&self) -> Result<(), String> {
        let mut backoff = Duration::from_millis(200);
        let path = format!("/api/sessions/{}/end", self.id);
        loop {
            match self.remote.request("POST", &path, None, Vec::new()).await {
                Ok((200, _)) => return Ok(()),
                Ok((status @ (400..=499), body)) => {
                    return Err(format!(
                        "{} refused to end {}: {status} {}",
                        self.remote.authority,
                        self.id,
                        String::from_utf8_lossy(&body)
                    ));
                }
                Ok((status, _)) => {
                    tracing::warn!("ending {}: {status}; retrying in {backoff:?}", self.id);
                }
                Err(e) => tracing::warn!("ending {}: {e}; retrying in {backoff:?}", self.id),
            }
            back_off(&mut backoff).await;
        }
    }
}

/// What is posted for a line: its bytes, or for a line over the limit (only its first bytes
/// were kept) a note saying so.
pub(super) fn line_to_send(line: classifier::Line) -> Vec<u8> {
    match line.oversize {
        None => line.bytes,
        Some(over) => oversize_note(over.len, over.limit),
    }
}

/// The note posted instead of a line over the limit.
pub(super) fn oversize_note(len: u64, limit: u64) -> Vec<u8> {
    serde_json::json!({
        "kind": "note",
        "text": format!(
            "hiveterm forward: a line of {len} bytes, over the {limit}-byte line limit, was not sent"
        ),
    })
    .to_string()
    .into_bytes()
}
