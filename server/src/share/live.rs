//! The live tail of a redacted live share: like `crate::sse`'s, but its frames come from the
//! share's redacted fold (`crate::redacted`) instead of the stored envelopes. The session's
//! broadcast only says that the session moved on; each time, the fold is moved to the new
//! head and the frames after the client's position are sent, then the badges when they
//! changed. No `preview` frames (partial messages are not redacted); `notes` frames as on
//! every stream, their notes redacted (`crate::notes::live::NotesView`).

use std::future::Future;
use std::sync::Arc;

use axum::body::Bytes;
use axum::response::Response;
use tokio::sync::{broadcast, mpsc};

use crate::api::Scope;
use crate::hub::{push_state_frame, state_json};
use crate::redacted::Redacted;
use crate::sse;
use crate::state::AppState;

/// Bytes of frames a backlog is sent in at a time.
const BACKLOG_BYTES: usize = 256 * 1024;

/// The stream after `after`, ended when `until` resolves or the server shuts down.
pub(crate) fn stream(
    state: AppState,
    scope: Scope,
    redacted: Arc<Redacted>,
    after: u64,
    until: impl Future<Output = ()> + Send + 'static,
    view: crate::notes::live::NotesView,
) -> Response {
    let (tx, out) = mpsc::channel::<Bytes>(4);
    let subscribed = (scope.hub.subscribe().0, (scope.hub.notes().watch(), view));
    tokio::spawn(feed(state, scope, redacted, subscribed, after, tx, until));
    sse::response(out)
}

async fn feed(
    state: AppState,
    scope: Scope,
    redacted: Arc<Redacted>,
    (mut rx, (mut notes, view)): (
        broadcast::Receiver<Arc<crate::hub::Batch>>,
        (
            broadcast::Receiver<crate::store::NoteChange>,
            crate::notes::live::NotesView,
        ),
    ),
    mut pos: u64,
    tx: mpsc::Sender<Bytes>,
    until: impl Future<Output = ()> + Send + 'static,
) {
    let mut shutdown = state.shutdown();
    let mut until = std::pin::pin!(until);
    let hub = scope.hub.clone();
    let mut keep_alive = tokio::time::interval(state.config().keep_alive);
    keep_alive.tick().await;
    let mut sent_badges = None;
    loop {
        // Up to the head: the backlog first, a bounded piece at a time, then whatever each
        // batch announced.
        let head = hub.head();
        while pos < head || sent_badges.is_none() {
            let frames = match next(&state, &scope, &redacted, pos, head, &mut sent_badges).await {
                Ok((frames, reached)) => {
                    pos = pos.max(reached);
                    frames
                }
                Err(e) => {
                    tracing::error!("redacted share stream of {}: {e}", scope.id);
                    return;
                }
            };
            if !frames.is_empty() && tx.send(Bytes::from(frames)).await.is_err() {
                return;
            }
        }
        loop {
            tokio::select! {
                received = notes.recv() => {
                    let Some(frame) = sse::note_frame(&state, &scope.id, received, view).await
                    else {
                        return;
                    };
                    if tx.send(frame).await.is_err() {
                        return;
                    }
                }
                batch = rx.recv() => match batch {
                    Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => break,
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                _ = keep_alive.tick() => {
                    if tx.send(Bytes::from_static(b": keep-alive\n\n")).await.is_err() {
                        return;
                    }
                }
                _ = tx.closed() => return,
                () = sse::stopped(&mut shutdown) => return,
                () = &mut until => return,
            }
        }
    }
}

/// The frames after `pos` (a bounded piece of them) up to `head`, then, once they reach it,
/// the badges when they changed; answers them and the event they reach.
async fn next(
    state: &AppState,
    scope: &Scope,
    redacted: &Redacted,
    pos: u64,
    head: u64,
    sent_badges: &mut Option<crate::badges::Badges>,
) -> Result<(Vec<u8>, u64), crate::store::StoreError> {
    let view = redacted.upto(state.store(), head).await?;
    let (mut frames, reached) = view.frames(pos, BACKLOG_BYTES).await?;
    if reached >= head {
        let badges = view.badges().await?;
        if sent_badges.as_ref() != Some(&badges) {
            let mut info = scope.info();
            info.last_seq = head;
            push_state_frame(&mut frames, &state_json(&info, &badges));
            *sent_badges = Some(badges);
        }
    }
    Ok((frames, reached.max(pos)))
}
