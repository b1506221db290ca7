//! A remote hiveterm as the forwarder sees it: its URL, one request per connection (given up
//! after a timeout), where a session is (its newest `Idempotency-Key`, or its `last_seq`), and
//! a keyed POST of lines answered as stored, worth retrying, or refused.

use std::time::Duration;

use axum::body::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;

/// A remote hiveterm.
#[derive(Debug, Clone)]
pub struct Remote {
    /// `host:port`, also the `Host` header.
    pub(super) authority: String,
    /// The path before `/api`, without a trailing `/`.
    prefix: String,
    token: Option<String>,
    /// How long one request may take, connecting included, before it is given up.
    timeout: Duration,
}

/// How long one request may take by default.
const TIMEOUT: Duration = Duration::from_secs(60);

/// A session's newest `Idempotency-Key` and what the remote stored under it
/// (`GET /api/sessions/{id}/keys/last`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct LastKey {
    pub key: String,
    /// Lines stored under it.
    pub lines: u64,
    /// The SHA-256 of the body first sent with it (`None`: not known).
    pub body_sha256: Option<[u8; 32]>,
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
            timeout: TIMEOUT,
        })
    }

    /// The same remote, with requests given up after `timeout` (default 60 s) and retried.
    pub fn with_timeout(mut self, timeout: Duration) -> Remote {
        self.timeout = timeout;
        self
    }

    /// `http://host:port[/prefix]`, as shown to a user.
    pub(crate) fn url(&self) -> String {
        format!("http://{}{}", self.authority, self.prefix)
    }

    /// One request on a new connection: the status and body, or why it failed.
    pub(super) async fn request(
        &self,
        method: &str,
        path: &str,
        keys: Option<(&str, &str)>,
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
            if let Some((key, after)) = keys {
                req = req
                    .header("idempotency-key", key)
                    .header("x-hiveterm-after-key", after);
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
        tokio::time::timeout(self.timeout, exchange)
            .await
            .map_err(|_| format!("no answer in {:?}", self.timeout))?
    }

    /// How many events session `id` has (0 if it does not exist yet).
    pub(super) async fn last_seq(&self, id: &str) -> Result<u64, String> {
        let (status, body) = self
            .request("GET", &format!("/api/sessions/{id}"), None, Vec::new())
            .await?;
        match status {
            404 => Ok(0),
            200 => serde_json::from_slice::<contract::SessionEntry>(&body)
                .map(|s| s.last_seq)
                .map_err(|e| format!("GET session: {e}")),
            _ => Err(format!(
                "GET session: {status} {}",
                String::from_utf8_lossy(&body)
            )),
        }
    }

    /// Session `id`'s newest `Idempotency-Key`: `None` when it has none, does not exist, or
    /// the remote is a hiveterm from before keys could be asked for (`404` for the route).
    pub(super) async fn last_key(&self, id: &str) -> Result<Option<LastKey>, String> {
        let (status, body) = self
            .request(
                "GET",
                &format!("/api/sessions/{id}/keys/last"),
                None,
                Vec::new(),
            )
            .await?;
        match status {
            404 => Ok(None),
            200 => {
                let v: contract::post::LastKey =
                    serde_json::from_slice(&body).map_err(|e| format!("GET keys/last: {e}"))?;
                let Some(key) = v.key else {
                    return Ok(None);
                };
                let stored = v.stored.unwrap_or_default();
                let sha = stored.body_sha256.as_deref().and_then(|h| {
                    let bytes: Option<Vec<u8>> = (0..h.len())
                        .step_by(2)
                        .map(|i| h.get(i..i + 2).and_then(|b| u8::from_str_radix(b, 16).ok()))
                        .collect();
                    bytes.and_then(|b| b.try_into().ok())
                });
                Ok(Some(LastKey {
                    key,
                    lines: stored.lines,
                    body_sha256: sha,
                }))
            }
            _ => Err(format!(
                "GET keys/last: {status} {}",
                String::from_utf8_lossy(&body)
            )),
        }
    }

    /// Posts `body` (lines, each ending in a newline) to session `id` (created with `title`
    /// if new) under idempotency key `key`, to be stored only after key `after` (`""`: none).
    pub(super) async fn post(
        &self,
        id: &str,
        title: &str,
        (key, after): (&str, &str),
        body: &[u8],
    ) -> Result<(), Failure> {
        let path = format!("/api/sessions/{id}/events?title={}", query_escape(title));
        match self
            .request("POST", &path, Some((key, after)), body.to_vec())
            .await
        {
            Ok((200, _)) => Ok(()),
            Ok((412, body)) => Err(Failure::Moved(String::from_utf8_lossy(&body).into_owned())),
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
pub(super) enum Failure {
    /// Worth trying again (the server is restarting, unreachable, failing).
    Retry(String),
    /// The server will not take them.
    Refused(String),
    /// The session's newest key is not the one they were to follow: another forwarder (or
    /// an earlier run of this one, its POST late) stored lines since; resume from there.
    Moved(String),
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
