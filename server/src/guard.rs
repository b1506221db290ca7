//! The perimeter: what every request passes before a handler sees it, and the connections
//! the server accepts at all.
//!
//! The default server listens on loopback without a token, so any web page the user visits
//! can send it requests. [`guard`] (a middleware over the whole [`crate::app`]) refuses:
//! - a `Host` that is not this server's name (DNS rebinding: a page on `evil.example`
//!   rebound to 127.0.0.1 would otherwise read every transcript). Accepted: an IP literal
//!   (`127.0.0.1`, `[::1]`, …) or `localhost` with the bound port, or a `--public-name`.
//!   A request with no `Host` (not a browser: HTTP/1.0, an in-process test) passes;
//! - a state-changing request (any method but `GET`/`HEAD`/`OPTIONS`) that a foreign page
//!   could forge: it needs a JSON or NDJSON `Content-Type` or an `X-Hiveterm` header (a
//!   browser only sends either from another origin after a CORS preflight, which this server
//!   never grants), and it is refused when `Sec-Fetch-Site` or `Origin` say another site;
//! - an `/api` read a foreign page makes with `fetch` (`Sec-Fetch-Site: cross-site` or
//!   `same-site`, not a navigation);
//! - a body whose `Content-Length` is over the request limit, before any of it is read;
//! - requests over [`MAX_IN_FLIGHT`] at once, after waiting [`IN_FLIGHT_WAIT`] (`503`).
//!
//! It adds `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer` and `nosniff` to every
//! answer, and `Cache-Control: no-store` to `/api` answers. Every answer under a share link
//! (`/p/…`) also gets `Cache-Control: no-store`, `X-Robots-Tag: noindex` and the page's CSP
//! (when it has none), and its reads (`/p/<token>/api/…`) are refused to other sites' pages
//! like `/api` reads.
//!
//! [`serve_connections`] accepts connections itself (instead of `axum::serve`) so that a
//! client must send its request head within [`Limits::header_timeout`], at most
//! [`Limits::max_connections`] are open at once (the rest wait in the kernel's backlog
//! rather than failing `accept` with "too many open files"), a connection buffers at most
//! [`Limits::max_head_bytes`] of a request's head (over it: `431` and the connection
//! closed), so all of them together hold at most [`HEAD_BYTES_TOTAL`] of heads before any
//! is authenticated, and [`raise_fd_limit`] lifts the soft open-file limit to the hard one
//! at start.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};

pub(crate) mod perimeter;

pub use self::perimeter::{MAX_IN_FLIGHT, Perimeter, Slots};
use crate::error::AppError;
use crate::state::AppState;

/// How long a request waits for a slot before it is answered `503`.
pub const IN_FLIGHT_WAIT: Duration = Duration::from_secs(10);

/// The header that marks a state-changing request as not forged by a web page.
pub const CLIENT_HEADER: &str = "x-hiveterm";

/// The middleware: see the module's notes.
pub async fn guard(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let path = req.uri().path();
    let shared = path.starts_with("/p/");
    let api = path.starts_with("/api/") || path == "/api" || (shared && path.contains("/api/"));
    let verdict = check(&state, req.method(), req.headers(), api);
    let mut res = match verdict {
        Err(e) => e.into_response(),
        Ok(()) => {
            let slot =
                tokio::time::timeout(IN_FLIGHT_WAIT, state.slots().0.clone().acquire_owned()).await;
            match slot {
                Ok(Ok(permit)) => {
                    let res = next.run(req).await;
                    drop(permit);
                    res
                }
                _ => AppError::Busy("the server is busy; try again".into()).into_response(),
            }
        }
    };
    let headers = res.headers_mut();
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if api || shared {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    if shared {
        headers.insert("x-robots-tag", HeaderValue::from_static("noindex"));
        if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
            headers.insert(
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(crate::web::CSP),
            );
        }
    }
    res
}

/// Every refusal of [`guard`], in order: host, size, forgery.
fn check(
    state: &AppState,
    method: &Method,
    headers: &HeaderMap,
    api: bool,
) -> Result<(), AppError> {
    let perimeter = &state.config().perimeter;
    let host = headers.get(header::HOST).map(|h| h.to_str().unwrap_or(""));
    if let Some(host) = host
        && !host_allowed(perimeter, host)
    {
        return Err(AppError::Forbidden(format!(
            "Host {:?} is not this server's name (use 127.0.0.1, localhost or [::1] with its port, or start it with --public-name)",
            host.chars().take(100).collect::<String>()
        )));
    }
    if let Some(len) = headers.get(header::CONTENT_LENGTH) {
        let limit = state.config().max_request_bytes;
        let len = len.to_str().ok().and_then(|l| l.trim().parse::<u64>().ok());
        match len {
            Some(len) if len > limit as u64 => {
                return Err(AppError::TooLarge(format!(
                    "the request body is over {limit} bytes"
                )));
            }
            Some(_) => {}
            None => return Err(AppError::BadRequest("bad Content-Length".into())),
        }
    }
    let fetch_site = headers
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .map(str::to_ascii_lowercase);
    let foreign_site = fetch_site
        .as_deref()
        .is_some_and(|s| s != "same-origin" && s != "none");
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        let navigation = headers
            .get("sec-fetch-mode")
            .is_some_and(|m| m.as_bytes().eq_ignore_ascii_case(b"navigate"));
        if api && foreign_site && !navigation {
            return Err(AppError::Forbidden(
                "the API does not answer other sites' pages".into(),
            ));
        }
        return Ok(());
    }
    if foreign_site {
        return Err(AppError::Forbidden(
            "a state-changing request from another site's page is refused".into(),
        ));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("").to_ascii_lowercase();
        let same = host.is_some_and(|h| {
            let h = h.to_ascii_lowercase();
            origin == format!("http://{h}") || origin == format!("https://{h}")
        });
        if !same {
            return Err(AppError::Forbidden(format!(
                "a state-changing request from origin {:?} is refused",
                origin.chars().take(100).collect::<String>()
            )));
        }
    }
    if headers.contains_key(CLIENT_HEADER) || json_content_type(headers) {
        return Ok(());
    }
    Err(AppError::Unsupported(
        "a POST needs Content-Type: application/x-ndjson (or application/json), or an X-Hiveterm header"
            .into(),
    ))
}

/// Whether the body is declared JSON or JSON lines (no web form can send these types).
fn json_content_type(headers: &HeaderMap) -> bool {
    let Some(ct) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let essence = ct
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    matches!(
        essence.as_str(),
        "application/json"
            | "application/x-ndjson"
            | "application/ndjson"
            | "application/jsonl"
            | "application/x-jsonlines"
            | "application/jsonlines"
            | "application/json-seq"
    ) || (essence.starts_with("application/") && essence.ends_with("+json"))
}

/// Whether `host` (a `Host` header) names this server.
pub fn host_allowed(perimeter: &Perimeter, host: &str) -> bool {
    let host = host.trim().to_ascii_lowercase();
    let (name, port) = split_host(&host);
    let Some(name) = name else {
        return false;
    };
    for public in &perimeter.public_names {
        let public = public.to_ascii_lowercase();
        match split_host(&public) {
            (Some(n), None) if n == name => return true,
            (Some(n), Some(p)) if n == name && port == Some(p) => return true,
            _ => {}
        }
    }
    let local = name == "localhost" || is_ip_literal(name);
    let port_ok = match (perimeter.port, port) {
        (None, _) => true,
        (Some(bound), Some(p)) => bound == p,
        (Some(bound), None) => bound == 80,
    };
    local && port_ok
}

/// `name[:port]` or `[v6][:port]` → (name, port); `(None, _)` when it does not parse.
fn split_host(host: &str) -> (Option<&str>, Option<u16>) {
    let (name, port) = if host.starts_with('[') {
        match host.find(']') {
            Some(end) => (&host[..=end], host[end + 1..].strip_prefix(':')),
            None => return (None, None),
        }
    } else {
        match host.rsplit_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (host, None),
        }
    };
    if name.is_empty() {
        return (None, None);
    }
    match port.map(str::parse::<u16>) {
        None => (Some(name), None),
        Some(Ok(p)) => (Some(name), Some(p)),
        Some(Err(_)) => (None, None),
    }
}

/// An IPv4 literal or a bracketed IPv6 literal: no DNS name, so nothing to rebind.
fn is_ip_literal(name: &str) -> bool {
    match name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        Some(v6) => v6.parse::<std::net::Ipv6Addr>().is_ok(),
        None => name.parse::<std::net::Ipv4Addr>().is_ok(),
    }
}

/// Bounds on connections (see the module's notes).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Most connections open at once; more wait in the listen backlog.
    pub max_connections: usize,
    /// How long a client has to send a request's head (also how long an idle keep-alive
    /// connection stays open).
    pub header_timeout: Duration,
    /// Most bytes a connection buffers (hyper's `max_buf_size`): a request head (its line
    /// and headers) that does not fit is answered `431` and the connection closed.
    pub max_head_bytes: usize,
}

/// Bytes of request heads all connections together may buffer: [`Limits::max_head_bytes`]
/// is this shared among [`Limits::max_connections`], within [`HEAD_BYTES_PER_CONNECTION`].
pub const HEAD_BYTES_TOTAL: usize = 64 * 1024 * 1024;
/// The fewest and the most bytes of a request head one connection may buffer (the fewest:
/// Node.js's default cap on a head).
pub const HEAD_BYTES_PER_CONNECTION: (usize, usize) = (16 * 1024, 64 * 1024);

impl Limits {
    /// The limits for a process whose soft open-file limit is `nofile`: a quarter of the
    /// descriptors (at least 64, at most 4,096) stay free for the database and files.
    pub fn for_fd_limit(nofile: u64) -> Limits {
        let reserve = (nofile / 4).max(64);
        let max_connections = nofile.saturating_sub(reserve).clamp(64, 4096) as usize;
        let (fewest, most) = HEAD_BYTES_PER_CONNECTION;
        Limits {
            max_connections,
            header_timeout: Duration::from_secs(10),
            max_head_bytes: (HEAD_BYTES_TOTAL / max_connections).clamp(fewest, most),
        }
    }
}

/// Raises the soft open-file limit to the hard one; answers the soft limit now in force.
pub fn raise_fd_limit() -> u64 {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(n) => n,
        Err(e) => {
            tracing::warn!("cannot raise the open-file limit: {e}");
            rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(1024, |(soft, _)| soft)
        }
    }
}

/// Serves `router` on `listener` until `stop` resolves, within `limits`; then lets every
/// open connection finish its request (SSE streams are ended by the app's own shutdown).
pub async fn serve_connections(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    stop: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let max = limits.max_connections.max(1);
    let slots = Arc::new(Semaphore::new(max));
    let (close_tx, close_rx) = watch::channel(false);
    tokio::pin!(stop);
    loop {
        let permit = tokio::select! {
            p = slots.clone().acquire_owned() => p.expect("the semaphore is never closed"),
            () = &mut stop => break,
        };
        let stream = tokio::select! {
            r = listener.accept() => match r {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of descriptors or a connection reset before accept: wait, go on.
                    tracing::debug!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let service = TowerToHyperService::new(router.clone());
        let mut close = close_rx.clone();
        tokio::spawn(async move {
            let _permit = permit;
            let _ = stream.set_nodelay(true);
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_timeout)
                .max_buf_size(limits.max_head_bytes);
            let conn = builder.serve_connection(TokioIo::new(stream), service);
            tokio::pin!(conn);
            let closing = async move { close.wait_for(|&c| c).await.is_ok() };
            tokio::select! {
                r = conn.as_mut() => {
                    if let Err(e) = r {
                        tracing::debug!("connection: {e}");
                    }
                }
                true = closing => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
        });
    }
    drop(listener);
    close_tx.send_replace(true);
    let _ = slots.acquire_many(max as u32).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        let bound = Perimeter {
            port: Some(7171),
            public_names: vec!["hive.example.com".into(), "box.lan:8080".into()],
        };
        let check = |host: &str, expect: bool| {
            assert_eq!(host_allowed(&bound, host), expect, "{host}");
        };
        check("127.0.0.1:7171", true);
        check("localhost:7171", true);
        check("LOCALHOST:7171", true);
        check("[::1]:7171", true);
        check("10.0.0.5:7171", true);
        check("127.0.0.1:7172", false);
        check("localhost", false);
        check("evil.example:7171", false);
        check("localhost.evil.example:7171", false);
        check("127.0.0.1.nip.io:7171", false);
        check("[::1", false);
        check("[not-v6]:7171", false);
        check(":7171", false);
        check("localhost:x", false);
        check("", false);
        check("hive.example.com", true);
        check("hive.example.com:443", true);
        check("box.lan:8080", true);
        check("box.lan", false);
        check("box.lan:7171", false);
        let any_port = Perimeter::default();
        assert!(host_allowed(&any_port, "127.0.0.1:1"));
        assert!(host_allowed(&any_port, "localhost"));
        assert!(!host_allowed(&any_port, "evil.example"));
    }

    #[test]
    fn content_types() {
        let check = |ct: &str, expect: bool| {
            let mut h = HeaderMap::new();
            h.insert(header::CONTENT_TYPE, HeaderValue::from_str(ct).unwrap());
            assert_eq!(json_content_type(&h), expect, "{ct}");
        };
        check("application/x-ndjson", true);
        check("application/json; charset=utf-8", true);
        check("Application/JSON", true);
        check("application/vnd.api+json", true);
        check("text/plain", false);
        check("text/plain; application/json", false);
        check("application/x-www-form-urlencoded", false);
        check("multipart/form-data; boundary=x", false);
        check("", false);
        assert!(!json_content_type(&HeaderMap::new()));
    }

    #[test]
    fn connection_limits_leave_descriptors_free() {
        assert_eq!(Limits::for_fd_limit(1024).max_connections, 768);
        assert_eq!(Limits::for_fd_limit(100).max_connections, 64);
        assert_eq!(Limits::for_fd_limit(1 << 20).max_connections, 4096);
    }

    #[test]
    fn request_heads_are_bounded_per_connection_and_in_total() {
        assert_eq!(Limits::for_fd_limit(1 << 20).max_head_bytes, 16 * 1024);
        assert_eq!(Limits::for_fd_limit(100).max_head_bytes, 64 * 1024);
        for nofile in [100, 1024, 4096, 8192, 1 << 20] {
            let l = Limits::for_fd_limit(nofile);
            assert!(
                l.max_head_bytes * l.max_connections <= HEAD_BYTES_TOTAL,
                "{l:?}"
            );
        }
    }
}
