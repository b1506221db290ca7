//! Derived data (the stored envelopes, checkpoints, the sessions' index columns and the
//! search index): what it depends on
//! ([`derived_format`]), and its rebuild from the raw events through the one fold when that
//! changed ([`rebuild_if_stale`]), shared by both backends: each gives its statements, in one
//! transaction, through [`Derive`].

use std::pin::pin;
use std::task::{Context, Poll, Waker};

use classifier::TermEnvelope;

use super::error::StoreError;
use crate::fold::{CHECKPOINT_BYTES, Checkpoint, SessionFold, StoredEvent};

/// The default checkpoint interval.
pub const CHECKPOINT_EVERY: u64 = 256;

/// Raw events read at a time by a rebuild.
const PAGE: u64 = 4096;

/// What derived data (checkpoints, stored envelopes) depends on: this crate's version, the
/// source of the classifier and of the fold (`fold.rs`, `badges.rs`; fingerprinted by
/// `build.rs`) and the checkpoints' placement (every `every` events, and every
/// [`CHECKPOINT_BYTES`]). Derived data written under another is dropped and rebuilt from the
/// raw events.
pub(crate) fn derived_format(every: u64) -> String {
    format!(
        "fold/{}/classifier-{}/every-{every}/bytes-{CHECKPOINT_BYTES}",
        env!("CARGO_PKG_VERSION"),
        env!("HIVETERM_CLASSIFIER_FINGERPRINT")
    )
}

/// A backend's statements for a rebuild, all in one transaction.
pub(crate) trait Derive {
    /// The [`derived_format`] the derived data was written under (`meta` key `derived`).
    async fn stored_format(&mut self) -> Result<Option<String>, StoreError>;
    /// Deletes every checkpoint, stored envelope and search index entry.
    async fn clear(&mut self) -> Result<(), StoreError>;
    /// Every session's id.
    async fn sessions(&mut self) -> Result<Vec<String>, StoreError>;
    /// A session's raw events `(after, upto]`, oldest first.
    async fn events(
        &mut self,
        session: &str,
        after: u64,
        upto: u64,
    ) -> Result<Vec<StoredEvent>, StoreError>;
    /// Stores the envelope (as JSON) of event `seq`, which has rows, and indexes its rows for
    /// search (`super::search`).
    async fn rendered(
        &mut self,
        session: &str,
        seq: u64,
        env: &TermEnvelope,
        json: &str,
    ) -> Result<(), StoreError>;
    /// Stores the fold after event `seq`.
    async fn checkpoint(
        &mut self,
        session: &str,
        seq: u64,
        cp: &Checkpoint,
    ) -> Result<(), StoreError>;
    /// Sets a session's title and index columns from its fold after its last event
    /// (`crate::index`).
    async fn index(&mut self, session: &str, fold: &SessionFold) -> Result<(), StoreError>;
    /// Records the format the derived data is now written under.
    async fn set_format(&mut self, format: &str) -> Result<(), StoreError>;
}

/// When the derived data was written under another [`derived_format`]: drops it and derives
/// it again from every session's raw events, through the one fold (an envelope stored for
/// each event with rows, a checkpoint where [`SessionFold::checkpoint_due`] says). Answers how many sessions were
/// rebuilt (`None`: the data was current); the caller commits, then calls [`log_rebuilt`].
pub(crate) async fn rebuild_if_stale(
    db: &mut impl Derive,
    every: u64,
) -> Result<Option<usize>, StoreError> {
    let want = derived_format(every);
    if db.stored_format().await?.as_deref() == Some(want.as_str()) {
        return Ok(None);
    }
    db.clear().await?;
    let sessions = db.sessions().await?;
    for id in &sessions {
        let mut fold = SessionFold::default();
        let mut pos = 0;
        loop {
            let events = db.events(id, pos, pos + PAGE).await?;
            if events.is_empty() {
                break;
            }
            for ev in events {
                let env = fold.step_stored(&ev).env;
                if !env.msgs.is_empty() {
                    db.rendered(id, ev.seq(), &env, &serde_json::to_string(&env)?)
                        .await?;
                }
                if let Some(cp) = fold.checkpoint_due(ev.seq(), every) {
                    db.checkpoint(id, ev.seq(), &cp).await?;
                }
                pos = ev.seq();
            }
        }
        db.index(id, &fold).await?;
    }
    db.set_format(&want).await?;
    Ok(Some(sessions.len()))
}

/// Logs a committed rebuild of [`rebuild_if_stale`].
pub(crate) fn log_rebuilt(rebuilt: Option<usize>) {
    if let Some(n) = rebuilt.filter(|&n| n > 0) {
        tracing::info!("rebuilt derived rows of {n} sessions");
    }
}

/// The value of a future that never waits (a [`Derive`] over SQLite, whose statements are
/// synchronous), on this thread.
pub(crate) fn ready<T>(fut: impl Future<Output = T>) -> T {
    match pin!(fut).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(value) => value,
        Poll::Pending => unreachable!("a synchronous Derive never waits"),
    }
}
