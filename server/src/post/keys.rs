//! `GET /api/sessions/{id}/keys/last`: the session's newest `Idempotency-Key` and what was
//! stored under it, so a producer that names its keys after its position (the forwarder:
//! which bytes of which file) resumes where the receiver is, not where it thinks it is.

use axum::Json;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use contract::post::{LastKey, Stored};

use crate::error::{AppError, check_id};
use crate::state::AppState;

/// `{"key": K, "first_seq", "last_seq", "lines", "body_sha256"}` of the key whose lines end
/// last (after any keyed POST to the session in progress here is done), or
/// `{"key": null}` when no POST to the session had a key; `404` for an unknown session.
pub(crate) async fn last_key(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    check_id(&id)?;
    let store = state.store();
    // A keyed POST holds the session's turn alone: wait for one in progress to be stored.
    let lock = state.post_locks().get(&id);
    let _turn = lock.read().await;
    // The key first: a session is never deleted, so if it has a key it exists.
    let last = store.last_key(&id).await?;
    if last.is_none() && store.session_info(&id).await?.is_none() {
        return Err(AppError::NotFound(format!("no session {id}")));
    }
    Ok(Json(match last {
        Some((key, k)) => LastKey {
            key: Some(key),
            stored: Some(Stored {
                first_seq: k.first_seq,
                last_seq: k.last_seq,
                lines: k.lines,
                body_sha256: k
                    .body_sha256
                    .map(|h| h.iter().map(|b| format!("{b:02x}")).collect::<String>()),
            }),
        },
        None => LastKey::default(),
    })
    .into_response())
}
