//! The hiveterm server: an agent session's raw events in SQLite, served as terminal rows.
//!
//! Events arrive from a running agent (`hiveterm run`), a followed log file (`--follow`),
//! standard input (`--stdin`) or an agent host (`POST /api/sessions/{id}/events`). Each is
//! stored once, byte for byte and unclassified, with its session, `seq` and `ts`. They leave
//! classified — the same [`classifier::classify`] on every path — as `TermEnvelope` JSON: a
//! live SSE tail, history pages for scrollback, and the header's badges. The HTTP API is
//! documented in `docs/API.md` (and in `api`).
//!
//! This crate does not classify (that is the `classifier` crate), does not render the page
//! (that is `app/`, whose built files it serves), and keeps no state but the database and
//! what can be rebuilt from it.
//!
//! Contents, in the order data flows:
//! - [`ingest`]: sources → raw lines ([`ingest::run_command`], [`ingest::follow`],
//!   [`ingest::stdin`], [`ingest::demo`]; POST lives in `api`).
//! - [`store`]: the database behind one handle, [`Store`]; a backend per module (SQLite:
//!   schema and self-migration, the one writer thread with group commit, a pool of readers).
//! - `fold`: the one per-session fold — each stored event, in seq order, to its envelope
//!   and the session's next state (classifier context, badges, partial message) — used by
//!   the writer, by a session loaded from a checkpoint, and by the derived-table rebuild.
//! - `badges`: events → the header's badges (`/state`), part of the fold.
//! - `hub`: per-session live state and the broadcast of committed, pre-rendered frames.
//! - `api` and `sse`: the HTTP handlers; `web`: the page's files and its CSP.
//! - [`share`]: share links — making them, and the read-only `/p/<token>` page and reads;
//!   [`redacted`]: a redacted share's rows, folded from redacted raw events.
//! - [`serve`]: options, binding, auth, shutdown — what `hiveterm serve`/`run` call.
//!
//! # Architecture notes
//!
//! **One writer.** All SQLite writes go through one thread owning the write connection. It
//! takes every pending command at once and commits them in one transaction (group commit), then
//! — only after the commit — publishes the new frames to the session's hub and answers the
//! callers. So an acknowledged event is durable, and nothing is ever sent that is not stored.
//! SQLite runs in WAL mode with `synchronous=FULL`; readers use their own connections.
//!
//! **Full-context classification everywhere.** A `tool_result` is shown according to its
//! `tool_use` (a `recv` result as markdown), which may be thousands of events earlier. The
//! [`classifier::ClassifyCtx`] carries that correlation. The writer keeps each session's
//! `fold::SessionFold` after its newest event and folds each new event into it, once, in the
//! transaction that stores it: the raw event goes to `events`, its envelope (if it has rows) to
//! `rendered`, and every `checkpoint_every` events (256) the fold to `checkpoints`. The live
//! tail, an SSE client resuming after `Last-Event-ID` and every history page all serve those
//! same envelopes, so an event gives the same rows on every path, however far back its call
//! was. The raw events stay the record: `rendered` and `checkpoints` are derived, and
//! `build.rs` fingerprints the classifier's source and the fold's; when they (or this crate's
//! version) change, both are dropped on open and derived again by replaying the raw events through the same
//! fold, so rows always come from the classifier being run. A session resumed after a restart
//! starts from its newest checkpoint and replays the rest.
//!
//! **Live fan-out.** Each committed batch becomes one `hub::Batch` holding the SSE bytes of its
//! frames, rendered once and shared by every client (`Bytes` clones). A client subscribes and
//! reads the head under the hub's lock (publishing happens under the same lock), so it
//! backfills `(after, head]` from the database and then takes batches after `head` from the
//! broadcast, with nothing lost or repeated; a client that falls behind the broadcast backfills
//! from the database again.
//!
//! **Partial messages.** The fold also carries a [`classifier::Preview`] (the message the agent
//! is streaming, `stream_event` lines, which have no rows); a batch that changes it ends with
//! one transient `preview` frame (no `id:`, never stored), and a client joining mid-message
//! gets the current one after its backlog.

pub(crate) mod api;
pub(crate) mod badges;
pub mod export;
pub(crate) mod fold;
pub(crate) mod forward;
pub mod guard;
pub(crate) mod hub;
pub mod ingest;
pub mod page;
pub mod post;
pub mod redacted;
pub mod serve;
pub mod share;
pub(crate) mod sse;
pub mod store;
pub(crate) mod web;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::Router;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use classifier::lines::MAX_LINE_BYTES;
use tokio::sync::watch;

use crate::hub::Hub;

pub use crate::hub::MAX_HUBS;
pub use crate::hub::MAX_INLINE_BATCH;
pub use crate::store::Store;
pub use crate::web::CSP;

/// Limits and knobs shared by every request.
#[derive(Debug, Clone)]
pub struct Config {
    /// Longest line stored whole; longer ones are cut and shown as an error row. Default:
    /// the classifier's [`MAX_LINE_BYTES`], the limit of `hiveterm classify` and the page, so a
    /// log gives the same rows on every path.
    pub max_line_bytes: usize,
    /// Largest `POST …/events` body; larger is `413`. Default: [`request_limit_for`] the
    /// line limit, so any line stored whole can be posted.
    pub max_request_bytes: usize,
    /// Interval of SSE keep-alive comments.
    pub keep_alive: Duration,
    /// When set, every `/api` call needs it (`Authorization: Bearer` or `?token=`).
    pub token: Option<String>,
    /// Where the page's built files are (`dist/`), when [`Config::page`] is `None`.
    pub static_dir: PathBuf,
    /// The page served from memory (the one the binary carries, [`page::embedded`]) instead
    /// of `static_dir`. `None` by default; `hiveterm serve` sets it unless given `--static`.
    pub page: Option<Arc<page::Bundle>>,
    /// The names the server answers to (see [`guard`]).
    pub perimeter: guard::Perimeter,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_line_bytes: MAX_LINE_BYTES,
            max_request_bytes: request_limit_for(MAX_LINE_BYTES),
            keep_alive: Duration::from_secs(15),
            token: None,
            static_dir: PathBuf::from("dist"),
            page: None,
            perimeter: guard::Perimeter::default(),
        }
    }
}

/// The default request limit for a line limit: one longest line and 1 MiB more (its newline
/// and other lines).
pub fn request_limit_for(max_line_bytes: usize) -> usize {
    max_line_bytes.saturating_add(1024 * 1024)
}

/// Everything a handler needs: the store, the limits, and the shutdown signal.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<StateInner>,
}

struct StateInner {
    store: Store,
    config: Config,
    shutdown: watch::Sender<bool>,
    slots: guard::Slots,
    files: web::Files,
    post_locks: post::PostLocks,
    redactions: redacted::Cache,
}

impl AppState {
    /// State over an opened store.
    pub fn new(store: Store, config: Config) -> AppState {
        AppState {
            inner: Arc::new(StateInner {
                store,
                config,
                shutdown: watch::Sender::new(false),
                slots: guard::Slots::default(),
                files: web::Files::default(),
                post_locks: post::PostLocks::default(),
                redactions: redacted::Cache::default(),
            }),
        }
    }

    /// Ends every open SSE stream (and refuses none of the other requests), so a graceful
    /// HTTP shutdown does not wait for clients that never hang up.
    pub fn begin_shutdown(&self) {
        self.inner.shutdown.send_replace(true);
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// The limits.
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// A receiver of the shutdown signal.
    pub fn shutdown(&self) -> watch::Receiver<bool> {
        self.inner.shutdown.subscribe()
    }

    /// The hub of an existing session: `400` for an invalid id, `404` for an unknown one.
    pub(crate) async fn session(&self, id: &str) -> Result<Arc<Hub>, AppError> {
        check_id(id)?;
        self.store()
            .hub(id)
            .await?
            .ok_or_else(|| AppError::NotFound(format!("no session {id}")))
    }

    /// The in-flight request slots.
    pub(crate) fn slots(&self) -> &guard::Slots {
        &self.inner.slots
    }

    /// The names of the page's built files.
    pub(crate) fn files(&self) -> &web::Files {
        &self.inner.files
    }

    /// The per-session turns of POSTs.
    pub(crate) fn post_locks(&self) -> &post::PostLocks {
        &self.inner.post_locks
    }

    /// The redacted shares' folds.
    pub(crate) fn redactions(&self) -> &redacted::Cache {
        &self.inner.redactions
    }
}

/// The whole HTTP app: `/api/…` (see `api`), share links under `/p/` (see [`share`]) and the
/// page (see `web`), behind the perimeter ([`guard`]).
pub fn app(state: AppState) -> Router {
    Router::new()
        .nest("/api", api::router(state.clone(), share::api::routes()))
        .merge(share::view::router())
        .merge(web::router())
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::guard,
        ))
        .with_state(state)
}

/// Every error a handler can answer. Bad *input lines* are never errors (they become rows);
/// these are bad requests and failures, each answered as `{"error": "…"}`.
#[derive(Debug)]
pub enum AppError {
    /// `400`: a malformed id or parameter.
    BadRequest(String),
    /// `401`: the token is missing or wrong.
    Unauthorized,
    /// `403`: refused by the perimeter (a foreign `Host`, `Origin` or site).
    Forbidden(String),
    /// `404`: no such session or route.
    NotFound(String),
    /// `409`: the request conflicts with the session's state (posting to an ended session).
    Conflict(String),
    /// `410`: a share link that expired or was revoked.
    Gone(String),
    /// `413`: the body is over the request limit.
    TooLarge(String),
    /// `415`: a state-changing request without a JSON/NDJSON type or the client header.
    Unsupported(String),
    /// `500`: the database or the server failed; logged, answered with a generic message.
    Internal(String),
    /// `503`: too many requests at once.
    Busy(String),
}

impl AppError {
    fn status(&self) -> StatusCode {
        match self {
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::Unauthorized => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::Conflict(_) => StatusCode::CONFLICT,
            AppError::Gone(_) => StatusCode::GONE,
            AppError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::Unsupported(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            AppError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AppError::Unauthorized => f.write_str("missing or wrong token"),
            AppError::BadRequest(m)
            | AppError::Forbidden(m)
            | AppError::NotFound(m)
            | AppError::Conflict(m)
            | AppError::Gone(m)
            | AppError::TooLarge(m)
            | AppError::Unsupported(m)
            | AppError::Internal(m)
            | AppError::Busy(m) => f.write_str(m),
        }
    }
}

impl From<store::StoreError> for AppError {
    fn from(err: store::StoreError) -> AppError {
        match err {
            store::StoreError::NoSession(id) => AppError::NotFound(format!("no session {id}")),
            store::StoreError::Ended(id) => AppError::Conflict(format!("session {id} has ended")),
            other => AppError::Internal(other.to_string()),
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        // A failure's details (paths, SQL) go to the log, not to whoever asked.
        let message = match &self {
            AppError::Internal(m) => {
                tracing::error!("{}", m.escape_debug());
                "internal error: see the server's log".to_owned()
            }
            other => other.to_string(),
        };
        (status, Json(serde_json::json!({ "error": message }))).into_response()
    }
}

/// Whether `id` is a valid session id: 1–100 of `A-Za-z0-9._-`, not starting with `.`.
pub fn valid_session_id(id: &str) -> bool {
    (1..=100).contains(&id.len())
        && !id.starts_with('.')
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// `400` unless `id` is a valid session id.
pub(crate) fn check_id(id: &str) -> Result<(), AppError> {
    if valid_session_id(id) {
        Ok(())
    } else {
        Err(AppError::BadRequest(
            "a session id is 1-100 characters of A-Z a-z 0-9 . _ - not starting with '.'".into(),
        ))
    }
}

/// The current time in unix seconds.
pub fn now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}
