//! [`AppError`]: every error a handler answers, with its status and `{"error": "…"}` body
//! (`docs/API.md`); the session id's shape ([`valid_session_id`], `400` otherwise); and the
//! one rule for text a request stores in a text column ([`check_text`]: no NUL).

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::store;

/// Every error a handler can answer. Bad *input lines* are never errors (they become rows);
/// these are bad requests and failures, each answered as `{"error": "…"}`.
#[derive(Debug)]
pub enum AppError {
    /// `400`: a malformed id or parameter.
    BadRequest(String),
    /// `401`: the token is missing or wrong.
    Unauthorized,
    /// `403`: refused by the perimeter (a foreign `Host`, `Origin` or site).
    Forbidden(String),
    /// `404`: no such session or route.
    NotFound(String),
    /// `409`: the request conflicts with the session's state (posting to an ended session,
    /// another body under an `Idempotency-Key` already used).
    Conflict(String),
    /// `410`: a share link that expired or was revoked.
    Gone(String),
    /// `412`: a POST's `X-Hiveterm-After-Key` is not the session's newest key.
    PreconditionFailed(String),
    /// `429`: too many requests of a kind in a while (a comment link's notes).
    TooMany(String),
    /// `413`: the body is over the request limit.
    TooLarge(String),
    /// `415`: a state-changing request without a JSON/NDJSON type or the client header.
    Unsupported(String),
    /// `500`: the database or the server failed; logged, answered with a generic message.
    Internal(String),
    /// `503`: too many requests at once.
    Busy(String),
}

impl AppError {
    fn status(&self) -> StatusCode {
        match self {
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::Unauthorized => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::Conflict(_) => StatusCode::CONFLICT,
            AppError::Gone(_) => StatusCode::GONE,
            AppError::PreconditionFailed(_) => StatusCode::PRECONDITION_FAILED,
            AppError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
            AppError::Unsupported(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            AppError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AppError::Unauthorized => f.write_str("missing or wrong token"),
            AppError::BadRequest(m)
            | AppError::Forbidden(m)
            | AppError::NotFound(m)
            | AppError::Conflict(m)
            | AppError::Gone(m)
            | AppError::PreconditionFailed(m)
            | AppError::TooLarge(m)
            | AppError::TooMany(m)
            | AppError::Unsupported(m)
            | AppError::Internal(m)
            | AppError::Busy(m) => f.write_str(m),
        }
    }
}

impl From<store::StoreError> for AppError {
    fn from(err: store::StoreError) -> AppError {
        match err {
            store::StoreError::NoSession(id) => AppError::NotFound(format!("no session {id}")),
            store::StoreError::Ended(id) => AppError::Conflict(format!("session {id} has ended")),
            store::StoreError::Raced(m) => AppError::Busy(m),
            store::StoreError::NotAfter(m) => AppError::PreconditionFailed(m),
            store::StoreError::OverCap(m) => AppError::TooLarge(m),
            other => AppError::Internal(other.to_string()),
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        // A failure's details (paths, SQL) go to the log, not to whoever asked.
        let message = match &self {
            AppError::Internal(m) => {
                tracing::error!("{}", m.escape_debug());
                "internal error: see the server's log".to_owned()
            }
            other => other.to_string(),
        };
        (status, Json(contract::ErrorBody { error: message })).into_response()
    }
}

/// Whether `id` is a valid session id: 1–100 of `A-Za-z0-9._-`, not starting with `.`.
pub fn valid_session_id(id: &str) -> bool {
    (1..=100).contains(&id.len())
        && !id.starts_with('.')
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// `400` unless `id` is a valid session id.
pub(crate) fn check_id(id: &str) -> Result<(), AppError> {
    if valid_session_id(id) {
        Ok(())
    } else {
        Err(AppError::BadRequest(
            "a session id is 1-100 characters of A-Z a-z 0-9 . _ - not starting with '.'".into(),
        ))
    }
}

/// `400` if `text` (a title a request gives: a session's, a share's) holds a NUL character.
/// PostgreSQL's text columns cannot store one, and the failed statement would fail every
/// other write committed with it (group commit), so it is refused before the store, on
/// both backends alike.
pub(crate) fn check_text(what: &str, text: &str) -> Result<(), AppError> {
    if text.contains('\0') {
        return Err(AppError::BadRequest(format!(
            "{what} cannot contain a NUL character (\\0)"
        )));
    }
    Ok(())
}
