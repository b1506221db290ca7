//! `/api/…`: sessions, ingest, history and state. The JSON shapes are in `docs/API.md`.
//!
//! | method and path                              | answer                                  |
//! |----------------------------------------------|-----------------------------------------|
//! | `GET  /sessions?limit&before`                | `{"sessions": [SessionInfo…], "next_before"}` newest first |
//! | `GET  /sessions/{id}`                        | `SessionInfo`                           |
//! | `GET  /sessions/{id}/state`                  | `SessionInfo` + badges                  |
//! | `GET  /sessions/{id}/summary`                | the postmortem `classifier::Summary`    |
//! | `GET  /sessions/{id}/events/history?before&limit` | `{"envelopes", "next_before", "head"}` |
//! | `GET  /sessions/{id}/events/stream?after`    | SSE, see [`crate::sse`]                 |
//! | `POST /sessions/{id}/events?title`           | JSONL in; `{"session", "created", "first_seq", "last_seq", "count", "seqs"}` |
//! | `POST /sessions/{id}/end`                    | `SessionInfo`                           |
//!
//! With a token configured every route needs `Authorization: Bearer T` or `?token=T`.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::body::Body;
use axum::extract::{Path, Query, Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::json;

use crate::{AppError, AppState, check_id};

/// Default and largest history page.
pub const HISTORY_DEFAULT: usize = 200;
/// Largest history page.
pub const HISTORY_MAX: usize = 1000;

/// The `/api` routes, behind the token check.
pub fn router(state: AppState) -> Router<AppState> {
    Router::new()
        .route("/sessions", get(list_sessions))
        .route("/sessions/{id}", get(get_session))
        .route("/sessions/{id}/state", get(get_state))
        .route("/sessions/{id}/summary", get(get_summary))
        .route("/sessions/{id}/events", post(post_events))
        .route("/sessions/{id}/end", post(end_session))
        .route("/sessions/{id}/events/history", get(history))
        .route("/sessions/{id}/events/stream", get(crate::sse::stream))
        .fallback(|| async { AppError::NotFound("no such API route".into()) })
        .layer(middleware::from_fn_with_state(state, auth))
}

/// Checks the token, when one is configured.
async fn auth(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let Some(token) = state.config().token.as_deref() else {
        return next.run(req).await;
    };
    let bearer = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    let query = req.uri().query().and_then(|q| {
        Query::<HashMap<String, String>>::try_from_uri(&format!("/?{q}").parse().ok()?)
            .ok()
            .and_then(|Query(m)| m.get("token").cloned())
    });
    let ok =
        bearer.is_some_and(|b| same(b, token)) || query.as_deref().is_some_and(|q| same(q, token));
    if ok {
        next.run(req).await
    } else {
        AppError::Unauthorized.into_response()
    }
}

/// Compares without an early exit on the first differing byte.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

fn json_text(text: Arc<str>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        text.to_string(),
    )
        .into_response()
}

fn number(params: &HashMap<String, String>, key: &str) -> Result<Option<u64>, AppError> {
    params
        .get(key)
        .map(|v| {
            v.parse::<u64>()
                .map_err(|_| AppError::BadRequest(format!("{key} must be a whole number")))
        })
        .transpose()
}

/// Default and largest page of `GET /sessions`.
pub const SESSIONS_DEFAULT: usize = 500;
/// Largest page of `GET /sessions`.
pub const SESSIONS_MAX: usize = 1000;

/// `GET /sessions?limit&before`: newest first, a page at a time; `next_before` (the last
/// one's `started~id`) asks for the next.
async fn list_sessions(
    State(state): State<AppState>,
    Query(params): Query<HashMap<String, String>>,
) -> Result<Response, AppError> {
    let limit = number(&params, "limit")?
        .map_or(SESSIONS_DEFAULT, |l| {
            usize::try_from(l).unwrap_or(SESSIONS_MAX)
        })
        .clamp(1, SESSIONS_MAX);
    let before = match params.get("before") {
        None => None,
        Some(cursor) => Some(
            cursor
                .split_once('~')
                .and_then(|(t, id)| Some((t.parse::<f64>().ok()?, id.to_owned())))
                .filter(|(t, _)| t.is_finite())
                .ok_or_else(|| AppError::BadRequest("before must be a next_before".into()))?,
        ),
    };
    let mut sessions = state.store().sessions(before, limit + 1).await?;
    let next = (sessions.len() > limit).then(|| {
        sessions.truncate(limit);
        sessions.last().map(|s| format!("{}~{}", s.started, s.id))
    });
    Ok(Json(json!({ "sessions": sessions, "next_before": next.flatten() })).into_response())
}

async fn get_session(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let hub = state.session(&id).await?;
    Ok(Json(hub.info()).into_response())
}

async fn get_state(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let hub = state.session(&id).await?;
    Ok(json_text(hub.state_json()))
}

/// The summary of the session's events so far: the classifier's summary fold, kept up to
/// date by the session's fold as events are stored (never a pass over the log).
async fn get_summary(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let hub = state.session(&id).await?;
    Ok(Json(hub.summary()).into_response())
}

async fn end_session(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    check_id(&id)?;
    let info = state.store().end_session(&id).await?;
    Ok(Json(info).into_response())
}

async fn history(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(params): Query<HashMap<String, String>>,
) -> Result<Response, AppError> {
    let before = number(&params, "before")?;
    let limit = number(&params, "limit")?
        .map_or(HISTORY_DEFAULT, |l| l as usize)
        .clamp(1, HISTORY_MAX);
    let hub = state.session(&id).await?;
    let head = hub.head();
    let page = state.store().history_page(&id, head, before, limit).await?;
    Ok((
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        page,
    )
        .into_response())
}

/// `POST …/events`: a JSONL body, stored line by line in bounded turns ([`crate::post`]).
async fn post_events(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(params): Query<HashMap<String, String>>,
    headers: axum::http::HeaderMap,
    body: Body,
) -> Result<Response, AppError> {
    check_id(&id)?;
    let key = match headers.get("idempotency-key") {
        None => None,
        Some(k) => Some(
            k.to_str()
                .map_err(|_| AppError::BadRequest("an Idempotency-Key is visible ASCII".into()))?,
        ),
    };
    let limit = state.config().max_request_bytes;
    let too_large = || AppError::TooLarge(format!("the request body is over {limit} bytes"));
    let bytes = axum::body::to_bytes(body, limit)
        .await
        .map_err(|_| too_large())?;
    let title = params.get("title").cloned().unwrap_or_else(|| id.clone());
    let posted = crate::post::post_lines(&state, &id, &title, bytes, key).await?;
    Ok(Json(posted).into_response())
}
