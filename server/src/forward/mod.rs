//! `hiveterm serve --follow PATH… --to URL` and `hiveterm run --to URL -- CMD…`: an agent
//! host's logs, or a command's output, posted to a remote hiveterm (any replica, behind any load
//! balancer) instead of a local database, so the host needs no database access. One engine,
//! [`Outbox`], posts a remote session's lines in order, in batches, with retries; the two
//! differ only in where the lines come from ([`forward_follow`], [`forward_lines`]).
//!
//! Each followed file is one remote session (the id `--follow` gives it locally), fed by this
//! forwarder alone. Its lines are posted as they complete, in order. **Resume**: the remote
//! session's `last_seq` is how many of the file's lines it has (one event per non-blank line),
//! so a forwarder (re)started on a file skips that many and posts the rest. **Retries**: a POST
//! that fails (the server restarting, the network) is retried with backoff, and before each
//! retry the remote `last_seq` is read again: lines a POST stored without its answer arriving
//! are not sent twice. So nothing is lost or doubled, whoever restarts.
//!
//! Plain `http://host:port[/prefix]` only (no TLS in hiveterm: put a TLS-terminating proxy
//! on the agent host, or a tunnel). A file truncated while followed is read again from its
//! start, its lines appended after those already sent (as `--follow` does locally).
//!
//! A run (`run --to`) is one new remote session, fed as its command writes; the command never
//! waits for the remote (its lines queue here while the remote is away), and the session is
//! ended when the command has exited and every line is stored.

mod remote;

use std::path::PathBuf;
use std::time::Duration;

use classifier::LineReader;
use tokio::io::{AsyncReadExt, AsyncSeekExt};

use remote::Failure;
pub use remote::Remote;

/// Bytes read from the file at a time.
const CHUNK: usize = 256 * 1024;
/// Most lines in one POST.
const BATCH_LINES: usize = 2048;
/// How often the file is looked at for new lines.
const POLL: Duration = Duration::from_millis(200);
/// Longest wait between two tries.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// Lines read from the file and not yet stored remotely, and how many the remote has.
struct Outbox {
    remote: Remote,
    id: String,
    title: String,
    /// Lines of the file the remote session has (its `last_seq`).
    stored: u64,
    pending: Vec<Vec<u8>>,
}

impl Outbox {
    /// The outbox of remote session `id`, resumed after the lines the remote has (asked until
    /// it answers).
    async fn open(remote: Remote, id: String, title: String) -> Outbox {
        let mut backoff = Duration::from_millis(200);
        let stored = loop {
            match remote.last_seq(&id).await {
                Ok(n) => break n,
                Err(e) => {
                    tracing::warn!("forwarding {id}: {e}; retrying in {backoff:?}");
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                }
            }
        };
        Outbox {
            remote,
            id,
            title,
            stored,
            pending: Vec::new(),
        }
    }

    /// Ends the remote session (retried until the remote answers; an end is idempotent).
    async fn end(&self) -> Result<(), String> {
        let mut backoff = Duration::from_millis(200);
        let path = format!("/api/sessions/{}/end", self.id);
        loop {
            match self.remote.request("POST", &path, Vec::new()).await {
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
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(MAX_BACKOFF);
        }
    }

    /// Sends every pending line, retrying until the remote has them all.
    async fn flush(&mut self) -> Result<(), String> {
        let mut backoff = Duration::from_millis(200);
        while !self.pending.is_empty() {
            let n = self.pending.len().min(BATCH_LINES);
            match self
                .remote
                .post(&self.id, &self.title, &self.pending[..n])
                .await
            {
                Ok(()) => {
                    self.pending.drain(..n);
                    self.stored += n as u64;
                    backoff = Duration::from_millis(200);
                }
                Err(Failure::Refused(why)) => {
                    return Err(format!(
                        "{} refused the lines of {}: {why}",
                        self.remote.authority, self.id
                    ));
                }
                Err(Failure::Retry(why)) => {
                    tracing::warn!("forwarding {}: {why}; retrying in {backoff:?}", self.id);
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                    // The POST may have been stored without its answer reaching us.
                    if let Ok(now) = self.remote.last_seq(&self.id).await {
                        let done = now
                            .saturating_sub(self.stored)
                            .min(self.pending.len() as u64);
                        self.pending.drain(..done as usize);
                        self.stored += done;
                    }
                }
            }
        }
        Ok(())
    }
}

/// Forwards `path` to `remote` as session `id` forever (until the task is dropped).
pub async fn forward_follow(
    remote: Remote,
    id: String,
    path: PathBuf,
    max_line: usize,
) -> Result<(), String> {
    let title = path.display().to_string();
    let mut outbox = Outbox::open(remote, id, title).await;
    // Lines of the file already sent: skip them.
    let mut skip = outbox.stored;
    let mut reader = LineReader::with_limit(max_line);
    let mut offset = 0u64;
    let mut buf = vec![0u8; CHUNK];
    let mut file: Option<tokio::fs::File> = None;
    loop {
        if file.is_none() {
            file = tokio::fs::File::open(&path).await.ok();
        }
        if let Some(f) = &mut file {
            let len = f.metadata().await.map(|m| m.len()).unwrap_or(0);
            if len < offset {
                // Truncated: read it again from the start; its lines follow those sent.
                let _ = f.seek(std::io::SeekFrom::Start(0)).await;
                (offset, reader, skip) = (0, LineReader::with_limit(max_line), 0);
            }
            loop {
                let n = match f.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                offset += n as u64;
                reader.push(&buf[..n], |line| {
                    if skip > 0 {
                        skip -= 1;
                    } else {
                        outbox.pending.push(line_to_send(line));
                    }
                });
                if outbox.pending.len() >= BATCH_LINES {
                    outbox.flush().await?;
                }
            }
            outbox.flush().await?;
        }
        tokio::time::sleep(POLL).await;
    }
}

/// What is posted for a line: its bytes, or for a line over the limit (only its first bytes
/// were kept) a note saying so.
fn line_to_send(line: classifier::Line) -> Vec<u8> {
    match line.oversize {
        None => line.bytes,
        Some(over) => oversize_note(over.len, over.limit),
    }
}

/// [`line_to_send`] for a line a run made (`crate::ingest`'s lines).
pub(crate) fn raw_to_send(line: crate::store::RawLine) -> Vec<u8> {
    match line.cut {
        None => line.bytes,
        Some((len, limit)) => oversize_note(len, limit),
    }
}

/// The note posted instead of a line over the limit.
fn oversize_note(len: u64, limit: u64) -> Vec<u8> {
    serde_json::json!({
        "kind": "note",
        "text": format!(
            "hiveterm forward: a line of {len} bytes, over the {limit}-byte line limit, was not sent"
        ),
    })
    .to_string()
    .into_bytes()
}

/// `hiveterm run --to URL`: posts the lines `lines` gives to remote session `id` (created with
/// `title`), in order, until every sender is dropped; then ends the session. Lines that come
/// while a POST is out wait and go together in the next.
pub(crate) async fn forward_lines(
    remote: Remote,
    id: String,
    title: String,
    mut lines: tokio::sync::mpsc::UnboundedReceiver<Vec<u8>>,
) -> Result<(), String> {
    let mut outbox = Outbox::open(remote, id, title).await;
    while let Some(line) = lines.recv().await {
        outbox.pending.push(line);
        while outbox.pending.len() < BATCH_LINES {
            match lines.try_recv() {
                Ok(line) => outbox.pending.push(line),
                Err(_) => break,
            }
        }
        outbox.flush().await?;
    }
    outbox.end().await
}

/// `hiveterm serve --follow … --to URL`: forwards each of `paths` until `stop` resolves (or
/// the remote refuses one).
pub async fn run(
    remote: Remote,
    paths: &[PathBuf],
    max_line: usize,
    stop: impl std::future::Future<Output = ()>,
) -> Result<(), String> {
    let mut tasks = tokio::task::JoinSet::new();
    for path in paths {
        let (path, id) = (path.clone(), crate::ingest::follow_session_id(path));
        println!(
            "forwarding {} to {} as session {id}",
            path.display(),
            remote.url()
        );
        let remote = remote.clone();
        tasks.spawn(async move {
            let shown = path.display().to_string();
            let result = forward_follow(remote, id, path, max_line).await;
            (shown, result)
        });
    }
    tokio::select! {
        () = stop => Ok(()),
        Some(done) = tasks.join_next() => match done {
            Ok((path, Err(e))) => Err(format!("forwarding {path}: {e}")),
            Ok((_, Ok(()))) => Ok(()),
            Err(e) => Err(format!("a forwarder failed: {e}")),
        },
    }
}
