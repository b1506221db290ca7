//! `/p/<token>`: the page in read-only postmortem mode, and the reads under a share — the
//! session's own read endpoints with `/api/sessions/{id}` replaced by `/p/<token>/api`, through
//! the same functions (`crate::api`'s `*_of`, `crate::sse::stream_of`) over the share's
//! [`Scope`]:
//!
//! | method and path                         | answer                                      |
//! |-----------------------------------------|---------------------------------------------|
//! | `GET /p/<token>`                        | the page (`index.html`)                     |
//! | `GET /p/<token>/api/share`              | what the link shows: title, snapshot, expiry, redaction |
//! | `GET /p/<token>/api/state`              | the session row and badges, as of the snapshot |
//! | `GET /p/<token>/api/summary`            | the postmortem summary, as of the snapshot  |
//! | `GET /p/<token>/api/events/history`     | history pages, up to the snapshot           |
//! | `GET /p/<token>/api/events/stream`      | SSE, a live share only                      |
//! | `GET /p/<token>/api/notes`              | the session's notes on the rows it shows (as of now), redacted when it is |
//! | `POST /p/<token>/api/notes`             | a reader's note: a comment link only (`403` otherwise); see `crate::notes::api` |
//!
//! A comparison link's token opens none of these but `…/api/share` (`404`): its page and its
//! comparison are `super::compare`'s.
//!
//! Every request resolves the token again (expiry and revocation are honoured each time; a
//! stream ends when its share expires or is revoked). The security headers of every `/p/`
//! answer are added by the perimeter (`crate::guard`).

use std::time::Duration;

use axum::Json;
use axum::Router;
use axum::extract::{Path, Request, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use contract::share::ShareInfo;

use super::{Status, resolve, status};
use crate::api::{Scope, history_of, state_of, summary_of};
use crate::error::AppError;
use crate::query::{HistoryParams, Params, StreamParams};
use crate::state::AppState;
use crate::store::{Share, Store};

/// How often a stream under a share checks that the share is still alive.
const RECHECK: Duration = Duration::from_secs(5);

/// The `/p/` routes.
pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/p/{token}", get(page))
        .route("/p/{token}/", get(page))
        .route("/p/{token}/api/share", get(about))
        .route("/p/{token}/api/state", get(state))
        .route("/p/{token}/api/summary", get(summary))
        .route("/p/{token}/api/events/history", get(history))
        .route("/p/{token}/api/events/stream", get(stream))
        .route("/p/{token}/api/notes", get(notes).post(add_note))
        .route("/p/{token}/compare", get(super::compare::page))
        .route("/p/{token}/api/compare", get(super::compare::read))
        .route(
            "/p/{token}/api/{*rest}",
            axum::routing::any(|| async { AppError::NotFound("no such API route".into()) }),
        )
}

/// The share `token` opens and its [`Scope`].
async fn scope(state: &AppState, token: &str) -> Result<(Share, Scope), AppError> {
    let share = resolve(state.store(), token, crate::clock::now()).await?;
    scope_of(state, share).await
}

/// A session's link's [`Scope`]: a comparison link reaches no session's reads (`404`).
async fn scope_of(state: &AppState, share: Share) -> Result<(Share, Scope), AppError> {
    if share.is_comparison() {
        return Err(AppError::NotFound(
            "a comparison link has no such read: its one is api/compare".into(),
        ));
    }
    let hub = state
        .store()
        .hub(&share.session)
        .await?
        .ok_or_else(|| AppError::NotFound("no such share link".into()))?;
    let scope = Scope {
        id: share.session.clone(),
        hub,
        upto: share.snapshot_seq,
        share: Some((share.title.clone(), share.created_at)),
        redacted: share.redact.then(|| state.redactions().of(&share)),
    };
    Ok((share, scope))
}

/// The page, or a short page saying why the link does not open. A path under `/p/` that
/// names a built file (the page's assets, asked for relative to it) is that file.
async fn page(State(state): State<AppState>, Path(token): Path<String>, req: Request) -> Response {
    let path = req.uri().path().to_owned();
    if let Some(res) = crate::web::built_file(&state, req).await {
        return res;
    }
    match resolve(state.store(), &token, crate::clock::now()).await {
        Err(e) => return super::dead_page(e),
        Ok(share) if share.is_comparison() => return super::compare::redirect(&path, &token),
        Ok(_) => {}
    }
    match crate::web::built_index(&state).await {
        Some(html) => crate::web::serve_index(html),
        None => Html(
            "<!doctype html><meta charset=utf-8><title>hiveterm</title>\
             <p>The page is not built. This link's events: <a href=\"api/events/history\">history</a>.</p>",
        )
        .into_response(),
    }
}

async fn about(
    State(state): State<AppState>,
    Path(token): Path<String>,
) -> Result<Response, AppError> {
    let share = resolve(state.store(), &token, crate::clock::now()).await?;
    if share.is_comparison() {
        return Ok(Json(super::compare::info(&share)).into_response());
    }
    let (share, scope) = scope_of(&state, share).await?;
    let info = scope.info();
    Ok(Json(ShareInfo {
        title: Some(info.title.clone()),
        created_at: Some(share.created_at),
        expires_at: share.expires_at,
        live: share.live(),
        snapshot_seq: share.snapshot_seq,
        redact: share.redact,
        comments: share.comments,
        compare: false,
    })
    .into_response())
}

async fn state(
    State(state): State<AppState>,
    Path(token): Path<String>,
) -> Result<Response, AppError> {
    state_of(&state, &scope(&state, &token).await?.1).await
}

async fn summary(
    State(state): State<AppState>,
    Path(token): Path<String>,
) -> Result<Response, AppError> {
    summary_of(&state, &scope(&state, &token).await?.1).await
}

async fn history(
    State(state): State<AppState>,
    Path(token): Path<String>,
    Params(params): Params<HistoryParams>,
) -> Result<Response, AppError> {
    history_of(&state, &scope(&state, &token).await?.1, &params).await
}

async fn notes(
    State(state): State<AppState>,
    Path(token): Path<String>,
    Params(params): Params<crate::notes::api::NotesParams>,
) -> Result<Response, AppError> {
    let (share, scope) = scope(&state, &token).await?;
    let view = crate::notes::api::view_of(&share, &scope);
    crate::notes::api::page_of(&state, &scope, view, &params).await
}

async fn add_note(
    State(state): State<AppState>,
    Path(token): Path<String>,
    body: axum::body::Body,
) -> Result<Response, AppError> {
    let (share, scope) = scope(&state, &token).await?;
    crate::notes::api::comment(&state, &share, &scope, body).await
}

/// The live tail of a live share (a snapshot has none: `404`), ended when the share expires
/// or is revoked.
async fn stream(
    State(state): State<AppState>,
    Path(token): Path<String>,
    Params(params): Params<StreamParams>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let after = crate::sse::after_of(&headers, &params)?;
    let (share, scope) = scope(&state, &token).await?;
    if !share.live() {
        return Err(AppError::NotFound(
            "a snapshot share has no live stream: its history is all of it".into(),
        ));
    }
    let until = alive(state.store().clone(), share.id);
    let view = crate::notes::api::view_of(&share, &scope);
    Ok(match scope.redacted.clone() {
        Some(redacted) => super::live::stream(state, scope, redacted, after, until, view),
        None => crate::sse::stream_of(state, scope.id, scope.hub, after, until, view),
    })
}

/// Resolves once share `id` is no longer active (checked every [`RECHECK`], and at its
/// expiry).
async fn alive(store: Store, id: u64) {
    loop {
        let share = match store.share(id).await {
            Ok(Some(share)) if status(&share, crate::clock::now()) == Status::Active => share,
            _ => return,
        };
        let left = share.expires_at.map_or(RECHECK, |t| {
            Duration::from_secs_f64((t - crate::clock::now()).max(0.0))
        });
        tokio::time::sleep(left.min(RECHECK)).await;
    }
}
