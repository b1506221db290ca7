//! `GET /api/sessions/{id}/events/stream`: the live tail as server-sent events.
//!
//! A client is a position `pos` (the last seq it has been sent or skipped). It starts at
//! `Last-Event-ID`, else `?after=`, else 0; subscribes to the session's hub and reads its
//! head under one lock; sends the backlog `(pos, head]` from the database (the envelopes the
//! writer classified and stored with the events); sends the badges; then sends each broadcast batch that starts at
//! `pos`. A batch that starts later (the client fell behind the broadcast) or came without
//! its bytes (too big to broadcast) is replaced by a backfill from the database. So every committed envelope is sent exactly once, in order,
//! and nothing uncommitted is ever sent.
//!
//! A `notes` frame (no `id:`) carries one change of the session's notes: the note as made or
//! changed, a deleted note's id, or a reset (read them again: `crate::notes::live`). `preview` frames (the partial message being written) are transient: they ride in the
//! batches, are never stored and carry no `id:`. A client gets the current one after its
//! backlog (if a message is being written), and after any backfill the one as of where the
//! backfill ended, so its last preview frame always describes the head it has reached.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use tokio::sync::{broadcast, mpsc};

use crate::error::AppError;
use crate::hub::{Batch, Hub, push_state_frame};
use crate::notes::live::{NotesView, change_frame, reset_frame};
use crate::query::{Params, StreamParams};
use crate::state::AppState;
use crate::store::NoteChange;

/// The SSE handler.
pub async fn stream(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Params(params): Params<StreamParams>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let after = after_of(&headers, &params)?;
    let hub = state.session(&id).await?;
    Ok(stream_of(
        state,
        id,
        hub,
        after,
        std::future::pending(),
        NotesView::OWNER,
    ))
}

/// Where a client starts: `Last-Event-ID`, else `?after=`, else 0.
pub(crate) fn after_of(headers: &HeaderMap, params: &StreamParams) -> Result<u64, AppError> {
    let last_event_id = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|v| !v.is_empty());
    match last_event_id.or(params.after.as_deref()) {
        None => Ok(0),
        Some(v) => v.parse::<u64>().map_err(|_| {
            AppError::BadRequest("Last-Event-ID and after must be whole numbers".into())
        }),
    }
}

/// The stream of session `id` after `after`, ended when `until` resolves (a share that
/// expires or is revoked) or the server shuts down.
pub(crate) fn stream_of(
    state: AppState,
    id: String,
    hub: Arc<Hub>,
    after: u64,
    until: impl Future<Output = ()> + Send + 'static,
    view: NotesView,
) -> Response {
    let subscribed = hub.subscribe();
    let notes = (hub.notes().watch(), view);
    // Small: a slow client holds back at most two chunks; the rest waits in the database.
    let (tx, out) = mpsc::channel::<Bytes>(4);
    tokio::spawn(feed(state, id, hub, (subscribed, notes), after, tx, until));
    response(out)
}

/// An SSE answer whose frames come from `out`.
pub(crate) fn response(out: mpsc::Receiver<Bytes>) -> Response {
    let body = Body::from_stream(futures_util::stream::unfold(out, |mut out| async move {
        let first = out.recv().await?;
        Some((Ok::<Bytes, Infallible>(coalesce(first, &mut out)), out))
    }));
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/event-stream"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (
                header::HeaderName::from_static("x-accel-buffering"),
                HeaderValue::from_static("no"),
            ),
        ],
        body,
    )
        .into_response()
}

/// Sends the frames of events `(pos, upto]` from the database (the envelopes the writer
/// stored); answers the new position.
async fn backfill(
    state: &AppState,
    id: &str,
    mut pos: u64,
    upto: u64,
    tx: &mpsc::Sender<Bytes>,
) -> Result<u64, ()> {
    tracing::debug!("SSE client of {id}: events ({pos}, {upto}] from the database");
    while pos < upto {
        let (frames, last) = state
            .store()
            .frames(id, pos, upto)
            .await
            .map_err(|e| tracing::error!("SSE backfill of {id}: {e}"))?;
        if !frames.is_empty() {
            tx.send(Bytes::from(frames)).await.map_err(drop)?;
        }
        pos = last;
    }
    Ok(pos)
}

/// What a stream subscribed to before its task started: the hub's batches after `head`
/// with the preview as of it, and the notes' changes.
type Subscribed = (
    (broadcast::Receiver<Arc<Batch>>, u64, Option<Bytes>),
    (broadcast::Receiver<NoteChange>, NotesView),
);

/// The `notes` frame of what `notes` received (a reset when the stream fell behind); `None`
/// once the hub is gone.
pub(crate) async fn note_frame(
    state: &AppState,
    session: &str,
    received: Result<NoteChange, broadcast::error::RecvError>,
    view: NotesView,
) -> Option<Bytes> {
    match received {
        Ok(change) => Some(change_frame(state.store(), session, change, view).await),
        Err(broadcast::error::RecvError::Lagged(_)) => Some(reset_frame()),
        Err(broadcast::error::RecvError::Closed) => None,
    }
}

async fn feed(
    state: AppState,
    id: String,
    hub: Arc<Hub>,
    ((mut rx, head, preview), (mut notes, view)): Subscribed,
    after: u64,
    tx: mpsc::Sender<Bytes>,
    until: impl Future<Output = ()> + Send + 'static,
) {
    let mut shutdown = state.shutdown();
    let mut until = std::pin::pin!(until);
    let Ok(mut pos) = backfill(&state, &id, after, head, &tx).await else {
        return;
    };
    // A client ahead of the log (a database replaced under it) waits for it to catch up.
    pos = pos.max(after);
    if send_state(&hub, &tx).await.is_err() {
        return;
    }
    if let Some(frame) = preview
        && tx.send(frame).await.is_err()
    {
        return;
    }
    let mut keep_alive = tokio::time::interval(state.config().keep_alive);
    keep_alive.tick().await;
    loop {
        tokio::select! {
            received = notes.recv() => {
                let Some(frame) = note_frame(&state, &id, received, view).await else {
                    return;
                };
                if tx.send(frame).await.is_err() {
                    return;
                }
            }
            batch = rx.recv() => match batch {
                Ok(batch) => {
                    if let (true, Some(bytes)) = (batch.after == pos, &batch.bytes) {
                        if tx.send(bytes.clone()).await.is_err() {
                            return;
                        }
                        pos = batch.last;
                    } else if batch.last <= pos {
                        // Already sent (from the database).
                    } else {
                        // A gap, or a batch too big to broadcast: read it from the database.
                        match backfill(&state, &id, pos, batch.last, &tx).await {
                            Ok(p) => pos = p,
                            Err(()) => return,
                        }
                        if send_state(&hub, &tx).await.is_err() {
                            return;
                        }
                        if let Some(frame) = &batch.preview
                            && tx.send(frame.clone()).await.is_err()
                        {
                            return;
                        }
                    }
                }
                Err(broadcast::error::RecvError::Lagged(missed)) => {
                    tracing::debug!("SSE client of {id} fell {missed} batches behind; backfilling");
                    let (head, preview) = hub.head_and_preview();
                    match backfill(&state, &id, pos, head, &tx).await {
                        Ok(p) => pos = p,
                        Err(()) => return,
                    }
                    if send_state(&hub, &tx).await.is_err() {
                        return;
                    }
                    if tx.send(preview).await.is_err() {
                        return;
                    }
                }
                Err(broadcast::error::RecvError::Closed) => return,
            },
            _ = keep_alive.tick() => {
                if tx.send(Bytes::from_static(b": keep-alive\n\n")).await.is_err() {
                    return;
                }
            }
            _ = tx.closed() => return,
            () = stopped(&mut shutdown) => return,
            () = &mut until => return,
        }
    }
}

/// Joins `first` with whatever else is already queued (up to 256 KiB), so a client that is
/// behind gets one write instead of many.
fn coalesce(first: Bytes, out: &mut mpsc::Receiver<Bytes>) -> Bytes {
    const MAX: usize = 256 * 1024;
    let mut joined: Option<Vec<u8>> = None;
    while joined.as_ref().map_or(first.len(), Vec::len) < MAX {
        let Ok(next) = out.try_recv() else { break };
        joined
            .get_or_insert_with(|| first.to_vec())
            .extend_from_slice(&next);
    }
    joined.map_or(first, Bytes::from)
}

/// Sends the current badges as a `state` frame.
async fn send_state(hub: &Hub, tx: &mpsc::Sender<Bytes>) -> Result<(), ()> {
    let mut frame = Vec::new();
    push_state_frame(&mut frame, &hub.state_json());
    tx.send(Bytes::from(frame)).await.map_err(drop)
}

/// Resolves once the server is shutting down.
pub(crate) async fn stopped(rx: &mut tokio::sync::watch::Receiver<bool>) {
    loop {
        let stop = *rx.borrow_and_update();
        if stop {
            return;
        }
        if rx.changed().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}
