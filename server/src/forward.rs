//! `hiveterm serve --follow PATH… --to URL`: an agent host's logs posted to a remote hiveterm
//! (any replica, behind any load balancer) instead of a local database, so the host needs no
//! database access.
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

use std::path::PathBuf;
use std::time::Duration;

use axum::body::Bytes;
use classifier::LineReader;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncReadExt, AsyncSeekExt};

/// Bytes read from the file at a time.
const CHUNK: usize = 256 * 1024;
/// Most lines in one POST.
const BATCH_LINES: usize = 2048;
/// How often the file is looked at for new lines.
const POLL: Duration = Duration::from_millis(200);
/// Longest wait between two tries.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// A remote hiveterm.
#[derive(Debug, Clone)]
pub struct Remote {
    /// `host:port`, also the `Host` header.
    authority: String,
    /// The path before `/api`, without a trailing `/`.
    prefix: String,
    token: Option<String>,
}

impl Remote {
    /// `http://host[:port][/prefix]`.
    pub fn parse(url: &str, token: Option<String>) -> Result<Remote, String> {
        let Some(rest) = url.strip_prefix("http://") else {
            return Err(format!(
                "--to {url}: only http:// URLs (for https, forward to a local TLS proxy)"
            ));
        };
        let (authority, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        if authority.is_empty() {
            return Err(format!("--to {url}: no host"));
        }
        let authority = if authority.contains(':') {
            authority.to_owned()
        } else {
            format!("{authority}:80")
        };
        let prefix = prefix.trim_end_matches('/');
        let prefix = if prefix.is_empty() {
            String::new()
        } else {
            format!("/{prefix}")
        };
        Ok(Remote {
            authority,
            prefix,
            token,
        })
    }

    /// One request on a new connection: the status and body, or why it failed.
    async fn request(
        &self,
        method: &str,
        path: &str,
        body: Vec<u8>,
    ) -> Result<(u16, Vec<u8>), String> {
        let exchange = async {
            let stream = tokio::net::TcpStream::connect(&self.authority)
                .await
                .map_err(|e| format!("connect: {e}"))?;
            let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
                .await
                .map_err(|e| format!("handshake: {e}"))?;
            tokio::spawn(conn);
            let mut req = hyper::Request::builder()
                .method(method)
                .uri(format!("{}{path}", self.prefix))
                .header("host", &self.authority)
                .header("content-type", "application/x-ndjson");
            if let Some(token) = &self.token {
                req = req.header("authorization", format!("Bearer {token}"));
            }
            let req = req
                .body(Full::new(Bytes::from(body)))
                .map_err(|e| e.to_string())?;
            let res = sender.send_request(req).await.map_err(|e| e.to_string())?;
            let status = res.status().as_u16();
            let body = res
                .into_body()
                .collect()
                .await
                .map_err(|e| e.to_string())?
                .to_bytes();
            Ok((status, body.to_vec()))
        };
        tokio::time::timeout(Duration::from_secs(60), exchange)
            .await
            .map_err(|_| "no answer in 60 s".to_owned())?
    }

    /// How many events session `id` has (0 if it does not exist yet).
    async fn last_seq(&self, id: &str) -> Result<u64, String> {
        let (status, body) = self
            .request("GET", &format!("/api/sessions/{id}"), Vec::new())
            .await?;
        match status {
            404 => Ok(0),
            200 => serde_json::from_slice::<serde_json::Value>(&body)
                .ok()
                .and_then(|v| v["last_seq"].as_u64())
                .ok_or_else(|| "an answer without last_seq".to_owned()),
            _ => Err(format!(
                "GET session: {status} {}",
                String::from_utf8_lossy(&body)
            )),
        }
    }

    /// Posts `lines` to session `id` (created with `title` if new).
    async fn post(&self, id: &str, title: &str, lines: &[Vec<u8>]) -> Result<(), Failure> {
        let mut body = Vec::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
        for line in lines {
            body.extend_from_slice(line);
            body.push(b'\n');
        }
        let path = format!("/api/sessions/{id}/events?title={}", query_escape(title));
        match self.request("POST", &path, body).await {
            Ok((200, _)) => Ok(()),
            // Refused for good: a bad token, an ended session, a body over its limits.
            Ok((status @ (400 | 401 | 403 | 409 | 413 | 415), body)) => Err(Failure::Refused(
                format!("{status} {}", String::from_utf8_lossy(&body)),
            )),
            Ok((status, body)) => Err(Failure::Retry(format!(
                "{status} {}",
                String::from_utf8_lossy(&body)
            ))),
            Err(e) => Err(Failure::Retry(e)),
        }
    }
}

/// Why a POST did not store its lines.
enum Failure {
    /// Worth trying again (the server is restarting, unreachable, failing).
    Retry(String),
    /// The server will not take them.
    Refused(String),
}

/// `title` as a query value.
fn query_escape(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    for b in title.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

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
    let mut outbox = Outbox {
        remote,
        id,
        title,
        stored,
        pending: Vec::new(),
    };
    // Lines of the file already sent: skip them.
    let mut skip = stored;
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
        Some(over) => serde_json::json!({
            "kind": "note",
            "text": format!(
                "hiveterm forward: a line of {} bytes, over the {}-byte line limit, was not sent",
                over.len, over.limit
            ),
        })
        .to_string()
        .into_bytes(),
    }
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
            "forwarding {} to http://{} as session {id}",
            path.display(),
            remote.authority
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
