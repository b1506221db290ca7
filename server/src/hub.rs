//! Per-session live state: the session row, the classifier context after its newest event,
//! its badges, the partial message being written (the `preview` frame), and the broadcast of
//! committed batches to SSE clients.
//!
//! Only the store's writer thread changes a hub, and only after a commit ([`Hub::publish`]).
//! Publishing and subscribing take the same lock, so a subscriber's `head` splits the log
//! exactly: events up to it are in the database, events after it arrive as batches.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use axum::body::Bytes;
use classifier::PreviewKind;
use serde::Serialize;
use tokio::sync::broadcast;

use crate::badges::Badges;
use crate::feed::IndexFeed;
use crate::fold::{LivePreview, SessionFold};

pub mod notes;

/// How many batches a slow client may fall behind before it backfills from the database.
const BROADCAST_CAPACITY: usize = 512;

/// Largest batch whose frames travel in the broadcast, so its memory stays bounded
/// (capacity × this): a bigger commit is cut into batches at frame ends (`crate::cuts`); only
/// a single frame bigger than this is announced without its bytes, for clients to read from
/// the database.
pub const MAX_INLINE_BATCH: usize = 128 * 1024;

/// A session as the server holds it: the contract's [`contract::Session`] facts
/// ([`SessionInfo::session`]) and the title its client gave.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SessionInfo {
    /// The session id.
    pub id: String,
    /// A human title.
    pub title: String,
    /// How its events arrive: `run`, `follow`, `stdin`, `post`, `demo`.
    pub source: String,
    /// When it was created (unix seconds).
    pub started: f64,
    /// When it ended, if it has.
    pub ended: Option<f64>,
    /// `ended` is `None`.
    pub live: bool,
    /// The newest stored seq (0 when empty).
    pub last_seq: u64,
    /// The title its client gave when it made it (`title` is the log's once it says one:
    /// `crate::index::title`). Not listed.
    #[serde(skip)]
    pub given_title: String,
}

impl SessionInfo {
    /// Its facts as the contract writes them (the first fields of `…/state`).
    pub fn session(&self) -> contract::Session {
        contract::Session {
            id: self.id.clone(),
            title: self.title.clone(),
            source: self.source.clone(),
            started: self.started,
            ended: self.ended,
            live: self.live,
            last_seq: self.last_seq,
        }
    }
}

/// One committed batch of a session: events `(after, last]`, rendered once as SSE bytes
/// (frames of the events that have rows, then a `state` frame if the badges changed).
#[derive(Debug)]
pub struct Batch {
    /// The seq before the batch's first event.
    pub after: u64,
    /// The batch's last seq (equal to `after` for a state-only batch).
    pub last: u64,
    /// The SSE bytes, or `None` for a batch over [`MAX_INLINE_BATCH`]: read it from the
    /// database.
    pub bytes: Option<Bytes>,
    /// The `preview` frame as of `last`, when the batch changed the preview or it is being
    /// written: what a client that backfills this batch from the database sends after it
    /// (preview frames are not stored).
    pub preview: Option<Bytes>,
}

/// A session's live state.
pub struct Hub {
    inner: Mutex<HubInner>,
    tx: broadcast::Sender<Arc<Batch>>,
    /// The session's notes' changes, each committed (its streams send each as a `notes`
    /// frame).
    notes: notes::HubNotes,
}

/// What a hub holds under its lock.
pub struct HubInner {
    /// The session row as committed.
    pub info: SessionInfo,
    /// The session's fold after event `info.last_seq`.
    pub fold: SessionFold,
    state_json: Arc<str>,
    preview_frame: Bytes,
}

impl Hub {
    /// A hub for a session whose events up to `info.last_seq` folded into `fold`.
    pub fn new(info: SessionInfo, fold: SessionFold) -> Hub {
        let state_json = state_json(&info, &fold.badges);
        let (tx, _) = broadcast::channel(BROADCAST_CAPACITY);
        let preview_frame = Bytes::from(preview_frame(&fold.preview));
        Hub {
            inner: Mutex::new(HubInner {
                info,
                fold,
                state_json,
                preview_frame,
            }),
            tx,
            notes: notes::HubNotes::default(),
        }
    }

    /// The session's notes' changes: told after each note's write commits, here or on
    /// another replica, and sent by its streams.
    pub fn notes(&self) -> &notes::HubNotes {
        &self.notes
    }

    /// The locked state.
    pub fn lock(&self) -> MutexGuard<'_, HubInner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A receiver of batches after the returned head, and the `preview` frame as of that
    /// head if a message is being written.
    pub fn subscribe(&self) -> (broadcast::Receiver<Arc<Batch>>, u64, Option<Bytes>) {
        let inner = self.lock();
        let preview = (!inner.fold.preview.preview.is_empty()).then(|| inner.preview_frame.clone());
        (self.tx.subscribe(), inner.info.last_seq, preview)
    }

    /// The newest committed seq and the `preview` frame as of it (a cleared one when nothing
    /// is being written).
    pub fn head_and_preview(&self) -> (u64, Bytes) {
        let inner = self.lock();
        (inner.info.last_seq, inner.preview_frame.clone())
    }

    /// The session row.
    pub fn info(&self) -> SessionInfo {
        self.lock().info.clone()
    }

    /// The newest committed seq.
    pub fn head(&self) -> u64 {
        self.lock().info.last_seq
    }

    /// The `/state` JSON.
    pub fn state_json(&self) -> Arc<str> {
        self.lock().state_json.clone()
    }

    /// The postmortem summary of the committed events.
    pub fn summary(&self) -> classifier::Summary {
        let inner = self.lock();
        inner.fold.summary_ended(inner.info.ended.is_some())
    }

    /// Installs the state after a commit and broadcasts the batch. `frames` are the SSE
    /// frames of the committed events after the previous head, or `None` when they are too
    /// big to broadcast (clients read them from the database); `preview_changed` says the
    /// batch changed the partial message (then one `preview` frame follows its envelopes:
    /// the state at its end).
    pub fn publish(
        &self,
        info: SessionInfo,
        fold: SessionFold,
        preview_changed: bool,
        frames: Option<Vec<u8>>,
    ) {
        let mut inner = self.lock();
        let after = inner.info.last_seq;
        let changed = inner.fold.badges != fold.badges
            || inner.info.ended != info.ended
            || inner.info.title != info.title;
        let inline = frames.is_some();
        let mut frames = frames.unwrap_or_default();
        let events_len = frames.len();
        if preview_changed {
            inner.preview_frame = Bytes::from(preview_frame(&fold.preview));
            frames.extend_from_slice(&inner.preview_frame);
        }
        inner.state_json = state_json(&info, &fold.badges);
        if changed {
            push_state_frame(&mut frames, &inner.state_json);
        }
        let last = info.last_seq;
        inner.info = info;
        inner.fold = fold;
        if last != after || !frames.is_empty() {
            let preview = (preview_changed || !inner.fold.preview.preview.is_empty())
                .then(|| inner.preview_frame.clone());
            // A big commit travels in pieces (`crate::cuts`), each a batch of its own.
            let mut after = after;
            let mut start = 0;
            let pieces = (inline && frames.len() > MAX_INLINE_BATCH)
                .then(|| crate::cuts::cuts(&frames[..events_len], MAX_INLINE_BATCH))
                .flatten()
                .unwrap_or_default();
            let frames = Bytes::from(frames);
            for cut in pieces.iter().take(pieces.len().saturating_sub(1)) {
                let piece = frames.slice(start..cut.end);
                let bytes = (piece.len() <= MAX_INLINE_BATCH).then_some(piece);
                let batch = Batch {
                    after,
                    last: cut.last,
                    bytes,
                    preview: None,
                };
                let _ = self.tx.send(Arc::new(batch));
                (after, start) = (cut.last, cut.end);
            }
            let rest = frames.slice(start..);
            let bytes = (inline && rest.len() <= MAX_INLINE_BATCH).then_some(rest);
            let batch = Batch {
                after,
                last,
                bytes,
                preview,
            };
            // No receivers is fine: nobody is watching.
            let _ = self.tx.send(Arc::new(batch));
        }
    }
}

/// Every loaded session's hub, by id. A hub is loaded once, under its own session's lock
/// (a big session's first load after a restart takes seconds: the registry is not held
/// meanwhile, so every other request goes on). Beyond [`MAX_HUBS`], hubs nobody holds (no
/// stream, no request, not in a write) are dropped: they are loaded again from the database
/// when asked for (a partial-message preview, which is not stored, goes with them).
///
/// Every publish goes through [`Hubs::publish`], which also marks the session in the index's
/// live feed (`crate::feed`).
#[derive(Default)]
pub struct Hubs {
    map: Mutex<HashMap<String, Arc<Hub>>>,
    loading: Mutex<HashMap<String, Arc<Mutex<()>>>>,
    feed: Arc<IndexFeed>,
}

/// How many hubs stay loaded before idle ones are dropped.
pub const MAX_HUBS: usize = 1024;

impl Hubs {
    /// The locked map (the writer inserts the hubs of sessions it created after the commit).
    pub fn lock(&self) -> MutexGuard<'_, HashMap<String, Arc<Hub>>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The index's live feed (`GET /api/index/stream`).
    pub fn feed(&self) -> &Arc<IndexFeed> {
        &self.feed
    }

    /// [`Hub::publish`] on `hub` (session `id`'s), then `id` marked in the index's live feed.
    pub fn publish(
        &self,
        hub: &Hub,
        info: SessionInfo,
        fold: SessionFold,
        preview_changed: bool,
        frames: Option<Vec<u8>>,
    ) {
        let id = info.id.clone();
        hub.publish(info, fold, preview_changed, frames);
        self.feed.changed(&id);
    }

    /// The hub of `id` if it is loaded.
    pub fn get(&self, id: &str) -> Option<Arc<Hub>> {
        self.lock().get(id).cloned()
    }

    /// Registers the hub of a session the writer just created, or answers the one a reader
    /// loaded between the commit and now (so there is only ever one hub per session).
    pub fn insert_created(&self, id: String, hub: Arc<Hub>) -> Arc<Hub> {
        let mut map = self.lock();
        let hub = map.entry(id).or_insert(hub).clone();
        evict_idle(&mut map);
        hub
    }

    /// The hub of `id`, loaded with `load` (`None`: no such session) under `id`'s own lock, so
    /// it is loaded once and never while a writer is committing to that session (writers
    /// take the hub, through here, before they write).
    pub fn get_or_load<E>(
        &self,
        id: &str,
        load: impl FnOnce() -> Result<Option<Hub>, E>,
    ) -> Result<Option<Arc<Hub>>, E> {
        if let Some(hub) = self.get(id) {
            return Ok(Some(hub));
        }
        let turn = {
            let mut loading = self.loading.lock().unwrap_or_else(|e| e.into_inner());
            loading.entry(id.to_owned()).or_default().clone()
        };
        let guard = turn.lock().unwrap_or_else(|e| e.into_inner());
        let result = match self.get(id) {
            Some(hub) => Ok(Some(hub)),
            None => load().map(|loaded| {
                loaded.map(|hub| {
                    let hub = Arc::new(hub);
                    let mut map = self.lock();
                    map.insert(id.to_owned(), hub.clone());
                    evict_idle(&mut map);
                    hub
                })
            }),
        };
        drop(guard);
        let mut loading = self.loading.lock().unwrap_or_else(|e| e.into_inner());
        if loading.get(id).is_some_and(|t| Arc::ptr_eq(t, &turn)) && Arc::strong_count(&turn) == 2 {
            loading.remove(id);
        }
        result
    }
}

/// Drops hubs only the registry holds once there are more than [`MAX_HUBS`], down to half.
fn evict_idle(map: &mut HashMap<String, Arc<Hub>>) {
    if map.len() <= MAX_HUBS {
        return;
    }
    let mut excess = map.len() - MAX_HUBS / 2;
    map.retain(|_, hub| {
        if excess > 0 && Arc::strong_count(hub) == 1 {
            excess -= 1;
            false
        } else {
            true
        }
    });
}

/// The `/state` object: the session row and its badges side by side.
pub fn state_json(info: &SessionInfo, badges: &Badges) -> Arc<str> {
    let state = contract::State {
        session: info.session(),
        badges: badges.of_session(info.ended.is_some()).into_owned(),
    };
    serde_json::to_string(&state)
        .unwrap_or_else(|_| "{}".to_owned())
        .into()
}

/// Appends the SSE frame of an envelope already serialised as `json`.
pub fn push_json_frame(out: &mut Vec<u8>, seq: u64, json: &str) {
    out.extend_from_slice(format!("id: {seq}\ndata: ").as_bytes());
    out.extend_from_slice(json.as_bytes());
    out.extend_from_slice(b"\n\n");
}

/// Appends a `state` frame.
pub fn push_state_frame(out: &mut Vec<u8>, state_json: &str) {
    out.extend_from_slice(b"event: state\ndata: ");
    out.extend_from_slice(state_json.as_bytes());
    out.extend_from_slice(b"\n\n");
}

/// The `preview` frame of `p`: `{"seq", "kind", "tool", "text"}` with `kind` null when
/// nothing is being written, the text through [`classifier::sanitize`]. No `id:` line: it
/// must not move a client's `Last-Event-ID`.
pub fn preview_frame(p: &LivePreview) -> Vec<u8> {
    let kind = p.preview.kind().map(|k| match k {
        PreviewKind::Text => contract::sse::PreviewKind::Text,
        PreviewKind::Thinking => contract::sse::PreviewKind::Thinking,
        PreviewKind::ToolInput => contract::sse::PreviewKind::ToolInput,
    });
    let mut text = p.preview.text().to_owned();
    classifier::sanitize(&mut text);
    let frame = contract::sse::Preview {
        seq: p.seq,
        kind,
        tool: p.preview.tool().map(str::to_owned),
        text,
    };
    let mut out = b"event: preview\ndata: ".to_vec();
    out.extend_from_slice(&serde_json::to_vec(&frame).unwrap_or_else(|_| b"{}".to_vec()));
    out.extend_from_slice(b"\n\n");
    out
}
