//! The state every handler is given: [`Config`] (limits and knobs) and [`AppState`] (the
//! store, the config, the shutdown signal, and the parts of the perimeter, the page's files,
//! the POST turns, the redacted shares' folds and the comment links' limits it owns).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use classifier::lines::MAX_LINE_BYTES;
use tokio::sync::watch;

use crate::error::{AppError, check_id};
use crate::hub::Hub;
use crate::store::Store;
use crate::{guard, notes, page, post, redacted, web};

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
    pub perimeter: guard::perimeter::Perimeter,
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
            perimeter: guard::perimeter::Perimeter::default(),
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
    slots: guard::perimeter::Slots,
    files: web::files::Files,
    post_locks: post::locks::PostLocks,
    redactions: redacted::Cache,
    note_limits: notes::Limits,
}

impl AppState {
    /// State over an opened store.
    pub fn new(store: Store, config: Config) -> AppState {
        AppState {
            inner: Arc::new(StateInner {
                store,
                config,
                shutdown: watch::Sender::new(false),
                slots: guard::perimeter::Slots::default(),
                files: web::files::Files::default(),
                post_locks: post::locks::PostLocks::default(),
                redactions: redacted::Cache::default(),
                note_limits: notes::Limits::default(),
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
    pub(crate) fn slots(&self) -> &guard::perimeter::Slots {
        &self.inner.slots
    }

    /// The names of the page's built files.
    pub(crate) fn files(&self) -> &web::files::Files {
        &self.inner.files
    }

    /// The per-session turns of POSTs.
    pub(crate) fn post_locks(&self) -> &post::locks::PostLocks {
        &self.inner.post_locks
    }

    /// The redacted shares' folds.
    pub(crate) fn redactions(&self) -> &redacted::Cache {
        &self.inner.redactions
    }

    /// The comment links' rate limits.
    pub(crate) fn note_limits(&self) -> &notes::Limits {
        &self.inner.note_limits
    }
}
