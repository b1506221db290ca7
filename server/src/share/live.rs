//! The live tail of a redacted live share: like `crate::sse`'s, but its frames come from the
//! share's redacted fold (`crate::redacted`) instead of the stored envelopes. The session's
//! broadcast only says that the session moved on; each time, the fold is moved to the new
//! head and the frames after the client's position are sent, then the badges when they
//! changed. No `preview` frames (partial messages are not redacted).

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

/// The stream after `after`, ended when `until` resolves or the server shuts down.
pub(crate) fn stream(
    state: AppState,
    scope: Scope,
    redacted: Arc<Redacted>,
    after: u64,
    until: impl Future<Output = ()> + Send + 'static,
) -> Response {
    let (tx, out) = mpsc::channel::<Bytes>(4);
    tokio::spawn(feed(state, scope, redacted, after, tx, until));
    sse::response(out)
}

async fn feed(
    state: AppState,
    scope: Scope,
    redacted: Arc<Redacted>,
    mut pos: u64,
    tx: mpsc::Sender<Bytes>,
    until: impl Future<Output = ()> + Send + 'static,
) {
    let mut shutdown = state.shutdown();
    let mut until = std::pin::pin!(until);
    let hub = scope.hub.clone();
    let (mut rx, _, _) = hub.subscribe();
    let mut keep_alive = tokio::time::interval(state.config().keep_alive);
    keep_alive.tick().await;
    let mut sent_badges = None;
    loop {
        // Up to the head: the backlog first, then whatever each batch announced.
        let head = hub.head();
        let frames = match redacted.upto(state.store(), head).await {
            Ok(folded) => {
                let mut frames = folded.frames(pos, head);
                let badges = folded.badges();
                if sent_badges.as_ref() != Some(&badges) {
                    let mut info = scope.info();
                    info.last_seq = head;
                    push_state_frame(&mut frames, &state_json(&info, &badges));
                    sent_badges = Some(badges);
                }
                frames
            }
            Err(e) => {
                tracing::error!("redacted share stream of {}: {e}", scope.id);
                return;
            }
        };
        pos = pos.max(head);
        if !frames.is_empty() && tx.send(Bytes::from(frames)).await.is_err() {
            return;
        }
        loop {
            tokio::select! {
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
