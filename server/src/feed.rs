//! The sessions' index's live feed (`GET /api/index/stream`, its handler in
//! `crate::index::stream`): one stream for the whole index, not one per session. Whatever
//! changes a session's index entry (made, appended to, ended, opened again; here or, on
//! PostgreSQL, on another replica) goes through its hub's publish
//! ([`crate::hub::Hubs::publish`]) or the replicas' `LISTEN`, which mark the session here
//! ([`IndexFeed::changed`]: an insert into a set, so a writer never waits for a reader).
//!
//! One task per server ([`run`], started by the first subscriber, ended once nobody
//! listens and nothing is pending) takes the marked sessions and sends each one's entry as
//! the index lists it ([`crate::index::Entry::to_entry`], read through
//! `crate::store::Store::index_entry` as of now: the latest state) to every subscriber, as
//! one pre-rendered `event: session` frame. A session is sent at most once per [`EVERY`]: a
//! change within that time of the last send waits for its end (and goes as the state then).
//! An entry the same as the last one sent is not sent again: one commit may mark a session
//! more than once (its writer's publish, then on PostgreSQL its own `NOTIFY` coming back
//! through `LISTEN`), and only a change is news.
//!
//! Subscribers hold a bounded broadcast receiver; one that falls [`CAPACITY`] frames behind
//! is sent `event: reset` (read the index again) instead of what it missed.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::body::Bytes;
use tokio::sync::{Notify, broadcast};
use tokio::time::Instant;

/// The least time between two frames of one session.
pub const EVERY: Duration = Duration::from_millis(250);

/// How many frames a subscriber may fall behind before it is told to read the index again.
pub const CAPACITY: usize = 1024;

/// The frame that tells a subscriber it missed changes: read the index again.
pub const RESET_FRAME: &[u8] = b"event: reset\ndata: {}\n\n";

/// The sessions whose entries changed, and the subscribers they are sent to.
pub struct IndexFeed {
    inner: Mutex<Inner>,
    wake: Notify,
    tx: broadcast::Sender<Bytes>,
}

#[derive(Default)]
struct Inner {
    /// Sessions changed since their last send.
    dirty: HashSet<String>,
    /// Whether the sending task runs.
    running: bool,
}

impl Default for IndexFeed {
    fn default() -> IndexFeed {
        IndexFeed {
            inner: Mutex::new(Inner::default()),
            wake: Notify::new(),
            tx: broadcast::channel(CAPACITY).0,
        }
    }
}

impl IndexFeed {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Marks session `id`'s entry changed (after a commit). Nothing when nobody listens.
    pub fn changed(&self, id: &str) {
        if self.tx.receiver_count() == 0 {
            return;
        }
        let mut inner = self.lock();
        if !inner.dirty.contains(id) {
            inner.dirty.insert(id.to_owned());
        }
        drop(inner);
        self.wake.notify_one();
    }

    /// Tells every subscriber to read the index again (changes may have been missed: a
    /// replica's `LISTEN` connection was lost).
    pub fn reset(&self) {
        let _ = self.tx.send(Bytes::from_static(RESET_FRAME));
    }

    /// A receiver of the frames from now on, and whether the caller must start the sending
    /// task ([`run`]): the first subscriber while none runs.
    pub fn subscribe(&self) -> (broadcast::Receiver<Bytes>, bool) {
        let mut inner = self.lock();
        let rx = self.tx.subscribe();
        let start = !inner.running;
        inner.running = true;
        (rx, start)
    }

    /// The sessions due now (not sent within [`EVERY`] of `now`), taken out of the set, and
    /// when the next of those left is due; or `None` when nobody listens and nothing is
    /// pending, the task marked stopped (under the same lock [`IndexFeed::subscribe`]
    /// takes, so a new subscriber starts a new one).
    fn take_due(
        &self,
        sent: &HashMap<String, Instant>,
        now: Instant,
    ) -> Option<(Vec<String>, Option<Instant>)> {
        let mut inner = self.lock();
        if self.tx.receiver_count() == 0 {
            inner.dirty.clear();
            inner.running = false;
            return None;
        }
        let mut due = Vec::new();
        let mut next: Option<Instant> = None;
        inner.dirty.retain(|id| match sent.get(id) {
            Some(&at) if at + EVERY > now => {
                next = Some(next.map_or(at + EVERY, |n| n.min(at + EVERY)));
                true
            }
            _ => {
                due.push(id.clone());
                false
            }
        });
        Some((due, next))
    }
}

/// The `event: session` frame of an entry (`contract::SessionEntry`).
pub fn session_frame<T: serde::Serialize>(entry: &T) -> Bytes {
    let mut out = b"event: session\ndata: ".to_vec();
    out.extend_from_slice(&serde_json::to_vec(entry).unwrap_or_else(|_| b"{}".to_vec()));
    out.extend_from_slice(b"\n\n");
    Bytes::from(out)
}

fn digest(frame: &[u8]) -> u64 {
    use std::hash::{DefaultHasher, Hasher};
    let mut h = DefaultHasher::new();
    h.write(frame);
    h.finish()
}

/// The sending task: until nobody listens (or `until` resolves: the server shuts down), each
/// marked session's entry, read by `entry_of` (`None`: no such session, nothing sent), at
/// most once per [`EVERY`].
pub async fn run<F, Fut, T>(
    feed: Arc<IndexFeed>,
    entry_of: F,
    until: impl std::future::Future<Output = ()>,
) where
    F: Fn(String) -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
    T: serde::Serialize,
{
    let mut sent: HashMap<String, Instant> = HashMap::new();
    // Each session's last frame sent, as a digest (for as long as the task runs: a new
    // subscriber reads the index after subscribing, so it has at least that state).
    let mut last: HashMap<String, u64> = HashMap::new();
    let mut until = std::pin::pin!(until);
    loop {
        let now = Instant::now();
        sent.retain(|_, at| *at + EVERY > now);
        let Some((due, next)) = feed.take_due(&sent, now) else {
            return;
        };
        for id in due {
            let Some(entry) = entry_of(id.clone()).await else {
                continue;
            };
            let frame = session_frame(&entry);
            let digest = digest(&frame);
            if last.get(&id) == Some(&digest) {
                continue;
            }
            // No receivers left is fine: `take_due` ends the task next.
            let _ = feed.tx.send(frame);
            sent.insert(id.clone(), Instant::now());
            last.insert(id, digest);
        }
        let wait = next.unwrap_or_else(|| Instant::now() + Duration::from_secs(1));
        tokio::select! {
            () = feed.wake.notified() => {}
            () = tokio::time::sleep_until(wait) => {}
            () = &mut until => {
                feed.lock().running = false;
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression (CI, stop 31): on PostgreSQL a commit marked its session twice (the
    /// writer's publish, then its own `NOTIFY` back through `LISTEN`), and when the first
    /// mark had been sent already the same entry went again 250 ms later.
    #[tokio::test(start_paused = true)]
    async fn an_entry_marked_again_unchanged_is_not_sent_again() {
        let feed = Arc::new(IndexFeed::default());
        let (mut rx, start) = feed.subscribe();
        assert!(start);
        let state = Arc::new(Mutex::new(1));
        let entry_of = {
            let state = state.clone();
            move |id: String| {
                let n = *state.lock().unwrap();
                async move { Some(serde_json::json!({"id": id, "n": n})) }
            }
        };
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(run(feed.clone(), entry_of, async move {
            let _ = stopped.await;
        }));
        let frame = |n: i32| session_frame(&serde_json::json!({"id": "s", "n": n}));
        feed.changed("s");
        assert_eq!(rx.recv().await.unwrap(), frame(1));
        // Marked again with nothing changed, before and after the 250 ms: nothing.
        feed.changed("s");
        tokio::time::sleep(EVERY * 2).await;
        feed.changed("s");
        tokio::time::sleep(EVERY * 2).await;
        assert!(rx.try_recv().is_err());
        // A change goes.
        *state.lock().unwrap() = 2;
        feed.changed("s");
        assert_eq!(rx.recv().await.unwrap(), frame(2));
        // And back to the first state is a change too.
        *state.lock().unwrap() = 1;
        feed.changed("s");
        assert_eq!(rx.recv().await.unwrap(), frame(1));
        stop.send(()).unwrap();
        task.await.unwrap();
    }
}
