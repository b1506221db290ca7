//! `GET /api/compare/{a}/{b}`: two stored sessions aligned, for the compare page — what
//! `hiveterm diff --json --db` opens with ([`Head`]: the summaries, their differences, the
//! first divergence), then every turn and every aligned pair (not only those around the
//! divergences), up to [`MAX_PAIRS`] pairs: past it, the answer says so (`truncated`).
//!
//! Each session is read as its log (as `diff --db` reads it) and aligned by the classifier
//! ([`classifier::compare::align`], its cells bounded by `MAX_CELLS`), the answer made by
//! [`contract::compare::make::comparison`], on a blocking thread.

use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use contract::compare::make::comparison;

use super::{Side, read_session};
use crate::error::{AppError, check_id};
use crate::state::AppState;

/// Most aligned pairs one answer holds (and divergences listed): the first ones, in order.
pub use contract::compare::make::MAX_PAIRS;

/// The handler: `404` for a session not stored, `400` for a malformed id.
pub async fn compare(
    State(state): State<AppState>,
    Path((a, b)): Path<(String, String)>,
) -> Result<Response, AppError> {
    check_id(&a)?;
    check_id(&b)?;
    let store = state.store();
    let read = |e: String| {
        if e.starts_with("no session") {
            AppError::NotFound(e)
        } else {
            AppError::Internal(e)
        }
    };
    let sa = read_session(store, &a).await.map_err(read)?;
    let sb = read_session(store, &b).await.map_err(read)?;
    let body = tokio::task::spawn_blocking(move || answer_json(&sa, &sb))
        .await
        .map_err(|e| AppError::Internal(e.to_string()))?;
    Ok((
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response())
}

/// The answer for two runs, as JSON text ([`contract::compare::make::comparison`], which the
/// page's compare worker makes for two dropped logs).
pub fn answer_json(a: &Side, b: &Side) -> String {
    serde_json::to_string(&comparison(a, b)).unwrap_or_default()
}
