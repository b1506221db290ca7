//! The handle of an open PostgreSQL store ([`Postgres`]) and what its handlers, writer and
//! listener share: the hubs, each session's write lock and queue ([`Slot`]), the channel
//! replicas announce writes on; and [`pg`], a driver error as a store error.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use deadpool_postgres::Pool;
use tokio::sync::oneshot;

use crate::hub::Hubs;
use crate::store::error::StoreError;
use crate::store::request::{Append, Appended};

/// The channel replicas announce committed writes on (see [`listen`]).
pub(super) const CHANNEL: &str = "hiveterm";

/// A PostgreSQL error as a store error, with what caused it (the driver's "db error" says
/// nothing without the server's message under it).
pub(super) fn pg(e: impl std::error::Error) -> StoreError {
    let mut msg = format!("postgres: {e}");
    let mut cause = e.source();
    while let Some(c) = cause {
        msg.push_str(&format!(": {c}"));
        cause = c.source();
    }
    StoreError::Corrupt(msg)
}

/// An open PostgreSQL store.
pub(crate) struct Postgres {
    pub(super) pool: Pool,
    /// The search rows written since the planner's statistics were last made.
    pub(super) stats: Arc<super::analyze::Stats>,
    pub(super) shared: Arc<Shared>,
    pub(super) listener: Mutex<Option<tokio::task::JoinHandle<()>>>,
}

/// What the handlers, the writer and the listener share.
pub(super) struct Shared {
    pub(super) config: tokio_postgres::Config,
    pub(super) hubs: Hubs,
    /// Each session's write lock (held to change its hub) and queue of appends.
    pub(super) locks: Mutex<HashMap<String, Arc<Slot>>>,
    pub(super) checkpoint_every: u64,
}

/// A session's write lock, and the appends waiting for it (written together by whoever
/// takes the lock next: `writer::append`).
#[derive(Default)]
pub(super) struct Slot {
    pub(super) lock: tokio::sync::Mutex<()>,
    pub(super) queue: Mutex<Queued>,
}

impl Shared {
    pub(super) fn slot_of(&self, id: &str) -> Arc<Slot> {
        let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
        if locks.len() > crate::hub::MAX_HUBS && !locks.contains_key(id) {
            // Slots nobody holds (no write, no load waiting) are dropped: one per session
            // ever written would grow without bound. A held one is in use; a new one is made
            // for a session when next needed (its queue is only filled while it is held).
            locks.retain(|_, slot| Arc::strong_count(slot) > 1);
        }
        locks.entry(id.to_owned()).or_default().clone()
    }
}

/// Appends queued for a session, each with the channel its answer goes to.
pub(super) type Queued = Vec<(Append, oneshot::Sender<Result<Appended, StoreError>>)>;
