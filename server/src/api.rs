//! `/api/…`: sessions, ingest, history and state. The JSON shapes are in `docs/API.md`.
//!
//! | method and path                              | answer                                  |
//! |----------------------------------------------|-----------------------------------------|
//! | `GET  /sessions?limit&cursor&sort&agent&project&status&q` | `{"sessions": [index entry…], "next", "next_before"}` (`crate::index`) |
//! | `GET  /usage?by&since`                       | tokens and cost per group (`crate::index`) |
//! | `GET  /index/stream`                         | SSE of changed index entries (`crate::index::stream`) |
//! | `GET  /sessions/{id}`                        | the session's index entry, as listed    |
//! | `GET  /sessions/{id}/state`                  | `SessionInfo` + badges                  |
//! | `GET  /sessions/{id}/summary`                | the postmortem `classifier::Summary`    |
//! | `GET  /sessions/{id}/events/history?before&limit` | `{"envelopes", "next_before", "head"}` |
//! | `GET  /sessions/{id}/events/stream?after`    | SSE, see [`crate::sse`]                 |
//! | `GET  /sessions/{id}/events/raw`             | the stored raw events as JSONL, in seq order (the page's "save as one file") |
//! | `POST /sessions/{id}/events?title`           | JSONL in; `{"session", "created", "first_seq", "last_seq", "count", "seqs"}` |
//! | `POST /sessions/{id}/end`                    | `SessionInfo`                           |
//! | `GET  /sessions/{id}/keys/last`              | the newest `Idempotency-Key` and its seqs (`crate::post`) |
//!
//! | `POST /sessions/{id}/shares`, `GET /shares`, `DELETE /shares/{id}` | share links (`share/api.rs`, merged in by `crate::app`) |
//! | `GET /search?q&session&level&limit&cursor` | rows holding `q`, every session (`crate::search`, merged in by `crate::app`) |
//! | `GET`/`POST /sessions/{id}/notes`, `PATCH`/`DELETE /sessions/{id}/notes/{note}` | notes (`notes/api.rs`, merged in by `crate::app`) |
//!
//! With a token configured every route needs `Authorization: Bearer T` or `?token=T`.
//!
//! The reads (state, summary, history, stream) answer for a [`Scope`]: a whole session here,
//! or what a share link shows of one under `/p/<token>/api` (`share/view.rs`), through
//! the same functions.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use crate::error::{AppError, check_id};
use crate::hub::{Hub, SessionInfo};
use crate::query::{HistoryParams, Params, PostParams, TokenParams};
use crate::redacted::Redacted;
use crate::secret::same_bytes;
use crate::state::AppState;

/// What a read answers for: a session's events up to a seq, read plain or redacted.
pub(crate) struct Scope {
    /// The session.
    pub id: String,
    /// Its hub.
    pub hub: Arc<Hub>,
    /// The newest seq it shows (a snapshot share's); `None`: the session's newest.
    pub upto: Option<u64>,
    /// A share's presentation: its title and when it was made (a snapshot's end).
    pub share: Option<(Option<String>, f64)>,
    /// A redacted share's rows (folded from redacted raw events), else `None`.
    pub redacted: Option<Arc<Redacted>>,
}

impl Scope {
    /// A whole session: `400` for an invalid id, `404` for an unknown one.
    pub(crate) async fn session(state: &AppState, id: &str) -> Result<Scope, AppError> {
        Ok(Scope {
            id: id.to_owned(),
            hub: state.session(id).await?,
            upto: None,
            share: None,
            redacted: None,
        })
    }

    /// The newest seq it shows now.
    pub(crate) fn head(&self) -> u64 {
        let head = self.hub.head();
        self.upto.map_or(head, |u| u.min(head))
    }

    /// The session row as it shows it: a snapshot is over (not live) with its last seq, a
    /// share's title replaces the session's, and a redacted share's id, title and source are
    /// redacted (an id can be a token: `ghp_…` is a valid one).
    pub(crate) fn info(&self) -> SessionInfo {
        let mut info = self.hub.info();
        if let Some((title, created)) = &self.share {
            if let Some(title) = title {
                info.title.clone_from(title);
            }
            if let Some(upto) = self.upto {
                info.last_seq = info.last_seq.min(upto);
                info.live = false;
                info.ended = Some(info.ended.map_or(*created, |e| e.min(*created)));
            }
        }
        if self.redacted.is_some() {
            for field in [&mut info.id, &mut info.title, &mut info.source] {
                *field = classifier::redact::redact_text(field).0.into_owned();
            }
        }
        info
    }
}

/// Default and largest history page.
pub const HISTORY_DEFAULT: usize = 200;
/// Largest history page.
pub const HISTORY_MAX: usize = 1000;

/// The `/api` routes and `extra` ones (the share routes, which `crate::app` passes in),
/// behind the token check.
pub fn router(state: AppState, extra: Router<AppState>) -> Router<AppState> {
    Router::new()
        .route("/sessions", get(crate::index::api::list_sessions))
        .route("/usage", get(crate::index::api::usage))
        .route("/index/stream", get(crate::index::stream::stream))
        .route("/sessions/{id}", get(get_session))
        .route("/sessions/{id}/state", get(get_state))
        .route("/sessions/{id}/summary", get(get_summary))
        .route("/sessions/{id}/events", post(post_events))
        .route("/sessions/{id}/end", post(end_session))
        .route("/sessions/{id}/keys/last", get(crate::post::last_key))
        .route("/sessions/{id}/events/history", get(history))
        .route("/sessions/{id}/events/stream", get(crate::sse::stream))
        .route("/sessions/{id}/events/raw", get(raw_events))
        .route("/compare/{a}/{b}", get(crate::compare::api::compare))
        .merge(extra)
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
    let query = Params::<TokenParams>::from_uri(req.uri())
        .ok()
        .and_then(|Params(p)| p.token);
    let ok = bearer.is_some_and(|b| same_bytes(b.as_bytes(), token.as_bytes()))
        || query
            .as_deref()
            .is_some_and(|q| same_bytes(q.as_bytes(), token.as_bytes()));
    if ok {
        next.run(req).await
    } else {
        AppError::Unauthorized.into_response()
    }
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

async fn get_session(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let hub = state.session(&id).await?;
    // The session as the index lists it; its hub's row if the index has none (yet).
    let query = crate::index::Query {
        id: Some(id),
        limit: 1,
        ..Default::default()
    };
    match state.store().index_page(query).await?.first() {
        Some(entry) => Ok(Json(entry.to_entry()).into_response()),
        None => Ok(Json(hub.info()).into_response()),
    }
}

async fn get_state(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    state_of(&state, &Scope::session(&state, &id).await?).await
}

/// `…/state` of a scope: the session row and its badges as of the scope's newest seq.
pub(crate) async fn state_of(state: &AppState, scope: &Scope) -> Result<Response, AppError> {
    if let Some(redacted) = &scope.redacted {
        let badges = redacted
            .upto(state.store(), scope.head())
            .await?
            .badges()
            .await?;
        return Ok(json_text(crate::hub::state_json(&scope.info(), &badges)));
    }
    match scope.upto {
        None if scope.share.is_none() => Ok(json_text(scope.hub.state_json())),
        None => {
            let badges = scope.hub.lock().fold.badges.clone();
            Ok(json_text(crate::hub::state_json(&scope.info(), &badges)))
        }
        Some(upto) => {
            let fold = state
                .store()
                .fold_at(&scope.id, scope.head().min(upto))
                .await?;
            Ok(json_text(crate::hub::state_json(
                &scope.info(),
                &fold.badges,
            )))
        }
    }
}

/// The summary of the session's events so far: the classifier's summary fold, kept up to
/// date by the session's fold as events are stored (never a pass over the log).
/// Events read from the store per piece of a raw answer.
const RAW_CHUNK: u64 = 512;

/// `GET …/events/raw`: the session's stored events up to its newest now, byte for byte as
/// ingested, one a line (JSONL), in seq order — the log `hiveterm share SESSION --export`
/// exports, for the page's "save as one file" to export the same way. Streamed in pieces
/// of [`RAW_CHUNK`] events; a store failure after the first piece ends the answer early.
async fn raw_events(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let head = Scope::session(&state, &id).await?.head();
    let store = state.store().clone();
    let first = store.events(&id, 0, head.min(RAW_CHUNK)).await?;
    let lines = |events: Vec<crate::fold::StoredEvent>| {
        let mut out = Vec::new();
        for ev in events {
            out.extend_from_slice(&ev.line.bytes);
            out.push(b'\n');
        }
        axum::body::Bytes::from(out)
    };
    let first = lines(first);
    let rest = futures_util::stream::unfold(head.min(RAW_CHUNK), move |pos| {
        let (store, id) = (store.clone(), id.clone());
        async move {
            if pos >= head {
                return None;
            }
            let to = head.min(pos + RAW_CHUNK);
            match store.events(&id, pos, to).await {
                Ok(events) => Some((Ok(lines(events)), to)),
                Err(e) => Some((Err(std::io::Error::other(e.to_string())), head)),
            }
        }
    });
    let body = futures_util::StreamExt::chain(
        futures_util::stream::once(async move { Ok::<_, std::io::Error>(first) }),
        rest,
    );
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/x-ndjson"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        Body::from_stream(body),
    )
        .into_response())
}

async fn get_summary(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    summary_of(&state, &Scope::session(&state, &id).await?).await
}

/// `…/summary` of a scope: the summary as of its newest seq (a snapshot's from the fold at
/// it: a checkpoint and the events after it).
pub(crate) async fn summary_of(state: &AppState, scope: &Scope) -> Result<Response, AppError> {
    let summary = if let Some(redacted) = &scope.redacted {
        redacted
            .upto(state.store(), scope.head())
            .await?
            .summary(scope.info().ended.is_some())
            .await?
    } else if let Some(upto) = scope.upto {
        let fold = state
            .store()
            .fold_at(&scope.id, scope.head().min(upto))
            .await?;
        fold.summary_ended(scope.info().ended.is_some())
    } else {
        scope.hub.summary()
    };
    Ok(Json(summary).into_response())
}

async fn end_session(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    check_id(&id)?;
    let info = state.store().end_session(&id).await?;
    Ok(Json(info.session()).into_response())
}

async fn history(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Params(params): Params<HistoryParams>,
) -> Result<Response, AppError> {
    history_of(&state, &Scope::session(&state, &id).await?, &params).await
}

/// `…/events/history?before&limit` of a scope: stored envelopes up to its newest seq.
pub(crate) async fn history_of(
    state: &AppState,
    scope: &Scope,
    params: &HistoryParams,
) -> Result<Response, AppError> {
    let before = params.before;
    let limit = params
        .limit
        .map_or(HISTORY_DEFAULT, |l| {
            usize::try_from(l).unwrap_or(HISTORY_MAX)
        })
        .clamp(1, HISTORY_MAX);
    let head = scope.head();
    let page = match &scope.redacted {
        Some(redacted) => {
            redacted
                .upto(state.store(), head)
                .await?
                .page(before, limit)
                .await?
        }
        None => {
            state
                .store()
                .history_page(&scope.id, head, before, limit)
                .await?
        }
    };
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
    Params(params): Params<PostParams>,
    headers: axum::http::HeaderMap,
    body: Body,
) -> Result<Response, AppError> {
    check_id(&id)?;
    if let Some(title) = &params.title {
        crate::error::check_text("a session's title", title)?;
    }
    let keys = crate::post::Keys::from_headers(&headers)?;
    let limit = state.config().max_request_bytes;
    let too_large = || AppError::TooLarge(format!("the request body is over {limit} bytes"));
    let bytes = axum::body::to_bytes(body, limit)
        .await
        .map_err(|_| too_large())?;
    let title = params.title.unwrap_or_else(|| id.clone());
    let posted = crate::post::post_lines(&state, &id, &title, bytes, keys).await?;
    Ok(Json(posted).into_response())
}
