//! The `/api` routes that manage share links, behind the server's token and the perimeter's
//! write checks like every other write (see `docs/API.md`):
//!
//! | method and path                 | answer                                              |
//! |---------------------------------|-----------------------------------------------------|
//! | `POST /sessions/{id}/shares`    | `201` the share, its `url` (`/p/<token>`, the only time it is told) and, when redacted, the `redactions` found |
//! | `POST /compare/{a}/{b}/shares`  | `201` a comparison link (`super::compare`), the same answer (both sessions' redactions) |
//! | `GET  /shares`                  | `{"shares": [share…]}`, newest first                |
//! | `DELETE /shares/{id}`           | the share, now revoked                              |

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, post};
use contract::share::{Created, SharesList};

use super::{ShareOptions, listed, parse_expires};
use crate::error::{AppError, check_id};
use crate::state::AppState;

/// The share routes (nested under `/api` with the session routes by `crate::app`, behind
/// the token check).
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/sessions/{id}/shares", post(create))
        .route("/compare/{a}/{b}/shares", post(create_compare))
        .route("/shares", axum::routing::get(list))
        .route("/shares/{id}", delete(revoke))
}

/// The optional JSON body of `POST …/shares`: the contract's.
type Body = contract::share::ShareRequest;

/// A share's options from `POST …/shares`' optional body.
fn options_of(body: &Bytes) -> Result<ShareOptions, AppError> {
    let body: Body = if body.iter().all(u8::is_ascii_whitespace) {
        Body::default()
    } else {
        serde_json::from_slice(body)
            .map_err(|e| AppError::BadRequest(format!("a share's options: {e}")))?
    };
    Ok(ShareOptions {
        expires_in: match &body.expires {
            Some(e) => parse_expires(e).map_err(AppError::BadRequest)?,
            None => ShareOptions::default().expires_in,
        },
        live: body.live.unwrap_or(false),
        redact: body.redact.unwrap_or(false),
        title: body.title,
        comments: body.comments.unwrap_or(false),
    })
}

async fn create(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, AppError> {
    check_id(&id)?;
    let options = options_of(&body)?;
    let now = crate::clock::now();
    let created = super::create(state.store(), &id, &options, now).await?;
    let redactions = if created.share.redact {
        Some(crate::redacted::report(state.store(), state.redactions(), &created.share).await?)
    } else {
        None
    };
    let answer = Created {
        listed: listed(&created.share, now),
        url: created.url(),
        redactions,
    };
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

/// `POST /api/compare/{a}/{b}/shares`: a comparison link (`comments` is `400`).
async fn create_compare(
    State(state): State<AppState>,
    Path((a, b)): Path<(String, String)>,
    body: Bytes,
) -> Result<Response, AppError> {
    check_id(&a)?;
    check_id(&b)?;
    let options = options_of(&body)?;
    let now = crate::clock::now();
    let created = super::compare::create(state.store(), (&a, &b), &options, now).await?;
    let redactions = if created.share.redact {
        let both = super::compare::reports(state.store(), &created.share).await?;
        Some(super::compare::merged(both))
    } else {
        None
    };
    let answer = Created {
        listed: listed(&created.share, now),
        url: created.url(),
        redactions,
    };
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

async fn list(State(state): State<AppState>) -> Result<Response, AppError> {
    let now = crate::clock::now();
    let shares = state.store().shares().await?;
    let shares = shares.iter().map(|s| listed(s, now)).collect();
    Ok(Json(SharesList { shares }).into_response())
}

async fn revoke(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let id: u64 = id
        .parse()
        .map_err(|_| AppError::BadRequest("a share id is a whole number".into()))?;
    let now = crate::clock::now();
    let share = state
        .store()
        .revoke_share(id, now)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("no share {id}")))?;
    Ok(Json(listed(&share, now)).into_response())
}
