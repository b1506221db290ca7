//! `GET /api/index/stream`: the index's live feed ([`crate::feed`]) as server-sent events,
//! routed by `crate::api` behind its token check (a share link's token never reaches it).
//!
//! Each frame is `event: session` with a session's entry as `GET /api/sessions` lists it
//! (whatever the reader's filters: the page applies them), sent when the entry changed, at
//! most once per session per [`crate::feed::EVERY`]; `event: reset` when this client fell
//! behind (read the index again); a `: keep-alive` comment every `keep_alive`. The client
//! reads the index (`GET /api/sessions`) after the stream opened, so no change falls between.

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::response::Response;
use tokio::sync::{broadcast, mpsc, watch};

use crate::error::AppError;
use crate::feed::{self, RESET_FRAME};
use crate::sse::{response, stopped};
use crate::state::AppState;

/// The SSE handler.
pub(crate) async fn stream(State(state): State<AppState>) -> Result<Response, AppError> {
    let store = state.store().clone();
    let index = store.index_feed().clone();
    let (rx, start) = index.subscribe();
    if start {
        let entry_of = move |id: String| {
            let store = store.clone();
            async move {
                match store.index_entry(&id).await {
                    Ok(entry) => entry.map(|e| e.to_entry()),
                    Err(e) => {
                        tracing::warn!("the index's live feed: session {id}: {e}");
                        None
                    }
                }
            }
        };
        let mut shutdown = state.shutdown();
        let until = async move { stopped(&mut shutdown).await };
        tokio::spawn(feed::run(index, entry_of, until));
    }
    // Small: a slow client holds back a few frames, then lags the broadcast (and is reset).
    let (tx, out) = mpsc::channel::<Bytes>(4);
    tokio::spawn(forward(rx, tx, state.config().keep_alive, state.shutdown()));
    Ok(response(out))
}

/// Sends the feed's frames to one client (`tx`), a reset frame in place of those it fell
/// behind by, and a keep-alive comment every `keep_alive`, until it goes or the server
/// shuts down.
async fn forward(
    mut rx: broadcast::Receiver<Bytes>,
    tx: mpsc::Sender<Bytes>,
    keep_alive: Duration,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut keep_alive = tokio::time::interval(keep_alive);
    keep_alive.tick().await;
    loop {
        let frame = tokio::select! {
            got = rx.recv() => match got {
                Ok(frame) => frame,
                Err(broadcast::error::RecvError::Lagged(missed)) => {
                    tracing::debug!("an index stream's client fell {missed} frames behind");
                    Bytes::from_static(RESET_FRAME)
                }
                Err(broadcast::error::RecvError::Closed) => return,
            },
            _ = keep_alive.tick() => Bytes::from_static(b": keep-alive\n\n"),
            _ = tx.closed() => return,
            () = stopped(&mut shutdown) => return,
        };
        if tx.send(frame).await.is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A client that fell behind the feed is sent one reset frame in place of what it
    /// missed, then the frames after; the feed's sender never waited for it.
    #[tokio::test]
    async fn a_client_behind_gets_a_reset_then_the_newest_frames() {
        let (feed, rx) = broadcast::channel::<Bytes>(4);
        for i in 0..10 {
            feed.send(Bytes::from(format!("frame {i}\n\n"))).unwrap();
        }
        let (tx, mut out) = mpsc::channel(1);
        let (stop, shutdown) = watch::channel(false);
        let task = tokio::spawn(forward(rx, tx, Duration::from_secs(3600), shutdown));
        let mut got = Vec::new();
        for _ in 0..5 {
            got.push(out.recv().await.unwrap());
        }
        assert_eq!(got[0], Bytes::from_static(RESET_FRAME));
        let rest: Vec<&[u8]> = got[1..].iter().map(|b| &b[..]).collect();
        assert_eq!(
            rest,
            [
                &b"frame 6\n\n"[..],
                b"frame 7\n\n",
                b"frame 8\n\n",
                b"frame 9\n\n"
            ]
        );
        stop.send_replace(true);
        task.await.unwrap();
        assert!(out.recv().await.is_none(), "shutdown ends the stream");
    }
}
