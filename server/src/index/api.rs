//! The index's HTTP handlers: `GET /api/sessions` (filtered, sorted, keyset-paged) and
//! `GET /api/usage` (routed by `crate::api`, behind its token check).

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use contract::SessionsPage;

use super::{By, Cursor, Sort, Status};
use crate::error::AppError;
use crate::query::{Params, SessionsParams, UsageParams};
use crate::state::AppState;
use crate::store::Store;

/// Default and largest page of `GET /sessions`.
pub const SESSIONS_DEFAULT: usize = 500;
/// Largest page of `GET /sessions`.
pub const SESSIONS_MAX: usize = 1000;

/// `GET /sessions?limit&before&cursor&sort&agent&project&status&q`: the sessions' index
/// (`crate::index`), newest first unless sorted by cost or errors, filtered, a page at a
/// time (keyset: each page starts after the last one's sort key, `started` and id); `next`
/// asks for the next page (and, sorted newest first, `next_before`, the same cursor, as
/// before the index had sorts).
pub(crate) async fn list_sessions(
    State(state): State<AppState>,
    Params(params): Params<SessionsParams>,
) -> Result<Response, AppError> {
    Ok(Json(sessions_page(state.store(), params).await?).into_response())
}

/// A page of the index as `GET /sessions` answers it (`hiveterm mcp`'s `list_sessions` too).
pub(crate) async fn sessions_page(
    store: &Store,
    params: SessionsParams,
) -> Result<SessionsPage, AppError> {
    let limit = params
        .limit
        .map_or(SESSIONS_DEFAULT, |l| {
            usize::try_from(l).unwrap_or(SESSIONS_MAX)
        })
        .clamp(1, SESSIONS_MAX);
    let sort = match params.sort.as_deref() {
        None => Sort::Newest,
        Some(s) => Sort::parse(s)
            .ok_or_else(|| AppError::BadRequest("sort must be newest, cost or errors".into()))?,
    };
    if let Some(status) = &params.status
        && Status::parse(status).is_none()
    {
        return Err(AppError::BadRequest(
            "status must be live, in flight, ok, failed or interrupted".into(),
        ));
    }
    let after = match (&params.cursor, params.before) {
        (Some(text), _) => Some(
            Cursor::parse(sort, text)
                .ok_or_else(|| AppError::BadRequest("cursor must be a next".into()))?,
        ),
        (None, Some((started, id))) if sort == Sort::Newest => Some(Cursor {
            key: None,
            started,
            id,
        }),
        (None, Some(_)) => {
            return Err(AppError::BadRequest(
                "before pages the newest first only: use cursor".into(),
            ));
        }
        (None, None) => None,
    };
    let nonempty = |v: Option<String>| v.filter(|s| !s.is_empty());
    let query = crate::index::Query {
        id: None,
        agent: nonempty(params.agent),
        project: nonempty(params.project),
        status: params.status,
        q: nonempty(params.q),
        sort,
        after,
        limit: limit + 1,
    };
    let mut sessions = store.index_page(query).await?;
    let next = (sessions.len() > limit).then(|| {
        sessions.truncate(limit);
        sessions.last().map(|e| Cursor::after(sort, e).to_text())
    });
    let next = next.flatten();
    let next_before = next.clone().filter(|_| sort == Sort::Newest);
    // `next` is left out on the last page: the answer of a page without one is what it was
    // before the index had sorts (`{"sessions", "next_before": null}`).
    Ok(SessionsPage {
        sessions: sessions.iter().map(crate::index::Entry::to_entry).collect(),
        next_before,
        next,
    })
}

/// `GET /usage?by&since`: tokens and cost per day, agent, model or project, the sums of the
/// sessions' index columns (`crate::index`), and their total.
pub(crate) async fn usage(
    State(state): State<AppState>,
    Params(params): Params<UsageParams>,
) -> Result<Response, AppError> {
    let by = match params.by.as_deref() {
        None => By::Day,
        Some(b) => By::parse(b).ok_or_else(|| {
            AppError::BadRequest("by must be day, agent, model or project".into())
        })?,
    };
    let since = match params.since.as_deref() {
        None | Some("") => None,
        Some(s) => Some(crate::index::parse_since(s).ok_or_else(|| {
            AppError::BadRequest("since must be a day (YYYY-MM-DD), a time or unix seconds".into())
        })?),
    };
    let groups = state.store().usage(by, since).await?;
    Ok(Json(crate::index::usage_json(by, since, &groups)).into_response())
}
