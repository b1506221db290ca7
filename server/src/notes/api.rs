//! The notes' HTTP handlers (see `docs/API.md`), behind the perimeter's write checks like
//! every write:
//!
//! | method and path                            | answer                                  |
//! |--------------------------------------------|-----------------------------------------|
//! | `GET    /api/sessions/{id}/notes`          | `{"notes": [note…], "next"}` a page ordered by `from` (`?after=` the previous page's `next`) |
//! | `POST   /api/sessions/{id}/notes`          | `201` the note (`{"from", "to", "text", "author"}` in) |
//! | `PATCH  /api/sessions/{id}/notes/{note}`   | the note with its new text (`{"text"}` in) |
//! | `DELETE /api/sessions/{id}/notes/{note}`   | the note as it was                      |
//! | `GET    /p/<token>/api/notes`              | a page of the notes the link shows (to its last seq; redacted when it is) |
//! | `POST   /p/<token>/api/notes`              | a comment link only (else `403`): `201` the note; `author` required, rate-limited |

use axum::Json;
use axum::Router;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, patch};
use contract::NotesPage;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::live::NotesView;
use super::{COMMENTS_PER_SHARE, NoteInput};
use crate::api::Scope;
use crate::error::{AppError, check_id};
use crate::query::Params;
use crate::state::AppState;
use crate::store::{Note, NoteKey, Share, Store};

/// Largest body of a note's request: its text may be escaped in JSON.
const MAX_BODY_BYTES: usize = 1024 * 1024;

/// The owner's note routes (nested under `/api` by `crate::app`, behind the token check).
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/sessions/{id}/notes", get(list).post(create))
        .route("/sessions/{id}/notes/{note}", patch(update).delete(delete))
}

/// A request's JSON body: `400` saying what is wrong with it.
async fn json_body<T: DeserializeOwned>(body: Body, what: &str) -> Result<T, AppError> {
    let bytes = axum::body::to_bytes(body, MAX_BODY_BYTES).await.map_err(|_| {
        AppError::BadRequest(format!(
            "{what}: the body is over {MAX_BODY_BYTES} bytes (a note's text is at most {} bytes)",
            super::MAX_TEXT_BYTES
        ))
    })?;
    serde_json::from_slice(&bytes).map_err(|e| AppError::BadRequest(format!("{what}: {e}")))
}

fn note_id(id: &str) -> Result<u64, AppError> {
    id.parse()
        .map_err(|_| AppError::BadRequest("a note id is a whole number".into()))
}

/// The query of `GET …/notes`: where the page starts.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct NotesParams {
    /// The `next` of the page before (`from.to.id`); absent: the first page.
    after: Option<String>,
}

/// A page's `next` as `?after=` takes it: `from.to.id`.
fn cursor((from, to, id): NoteKey) -> String {
    format!("{from}.{to}.{id}")
}

fn parse_cursor(after: &str) -> Result<NoteKey, AppError> {
    let bad = || AppError::BadRequest("after is a page's next (from.to.id)".into());
    let mut parts = after
        .split('.')
        .map(|p| p.parse::<u64>().map_err(|_| bad()));
    let key = (
        parts.next().ok_or_else(bad)??,
        parts.next().ok_or_else(bad)??,
        parts.next().ok_or_else(bad)??,
    );
    if parts.next().is_some() {
        return Err(bad());
    }
    Ok(key)
}

async fn list(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Params(params): Params<NotesParams>,
) -> Result<Response, AppError> {
    let scope = Scope::session(&state, &id).await?;
    page_of(&state, &scope, NotesView::OWNER, &params).await
}

/// A page of the notes `scope` shows (those whose range ends by its head), as `view` shows
/// them: `{"notes": […], "next": "from.to.id" | null}`.
pub(crate) async fn page_of(
    state: &AppState,
    scope: &Scope,
    view: NotesView,
    params: &NotesParams,
) -> Result<Response, AppError> {
    let after = params.after.as_deref();
    let page = notes_page(state.store(), &scope.id, scope.head(), view, after).await?;
    Ok(Json(page).into_response())
}

/// A page of session `id`'s notes whose range ends by `head`, as `view` shows them (the
/// answer of `GET …/notes`; `hiveterm mcp`'s `notes` too).
pub(crate) async fn notes_page(
    store: &Store,
    id: &str,
    head: u64,
    view: NotesView,
    after: Option<&str>,
) -> Result<NotesPage, AppError> {
    let after = after.map(parse_cursor).transpose()?;
    let page = store.notes_page(id, after, head).await?;
    let notes: Vec<Note> = page.notes.into_iter().map(|n| view.show(n)).collect();
    Ok(NotesPage {
        notes,
        next: page.next.map(cursor),
    })
}

async fn create(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Body,
) -> Result<Response, AppError> {
    let scope = Scope::session(&state, &id).await?;
    let input: NoteInput = json_body(body, "a note").await?;
    let now = crate::clock::now();
    let note = super::create(state.store(), &scope.id, scope.head(), input, None, now).await?;
    Ok((StatusCode::CREATED, Json(note)).into_response())
}

/// The body of `PATCH …/notes/{note}`: the contract's.
type Edit = contract::note::NoteEdit;

async fn update(
    State(state): State<AppState>,
    Path((id, note)): Path<(String, String)>,
    body: Body,
) -> Result<Response, AppError> {
    check_id(&id)?;
    let note = note_id(&note)?;
    let edit: Edit = json_body(body, "a note's edit").await?;
    let now = crate::clock::now();
    let note = super::update(state.store(), &id, note, edit.text, now).await?;
    Ok(Json(note).into_response())
}

async fn delete(
    State(state): State<AppState>,
    Path((id, note)): Path<(String, String)>,
) -> Result<Response, AppError> {
    check_id(&id)?;
    let note = super::delete(state.store(), &id, note_id(&note)?).await?;
    Ok(Json(note).into_response())
}

/// How the readers of `share` (read through `scope`) are shown notes.
pub(crate) fn view_of(share: &Share, scope: &Scope) -> NotesView {
    NotesView {
        redact: scope.redacted.is_some(),
        share: Some(share.id),
    }
}

/// `POST /p/<token>/api/notes`: a reader's note through comment link `share`.
pub(crate) async fn comment(
    state: &AppState,
    share: &Share,
    scope: &Scope,
    body: Body,
) -> Result<Response, AppError> {
    if !share.comments {
        return Err(AppError::Forbidden(
            "this link is read-only: its readers cannot add notes".into(),
        ));
    }
    let input: NoteInput = json_body(body, "a note").await?;
    let author = super::clean_author(input.author.as_deref().unwrap_or(""))?;
    if author.is_empty() {
        return Err(AppError::BadRequest(
            "a reader's note needs an author".into(),
        ));
    }
    if state.store().notes_of_share(share.id).await? >= COMMENTS_PER_SHARE {
        return Err(AppError::Forbidden(format!(
            "this link has taken its {COMMENTS_PER_SHARE} notes"
        )));
    }
    // Checked (and the limit taken) only once the note would be stored.
    let to = input.to.unwrap_or(input.from);
    super::check_range(input.from, to, scope.head())?;
    super::check_note_text(&input.text)?;
    if let Err(wait) = state
        .note_limits()
        .take(share.id, std::time::Instant::now())
    {
        return Err(AppError::TooMany(format!(
            "too many notes through this link; try again in {:.1} s",
            wait.as_secs_f64()
        )));
    }
    let input = NoteInput {
        author: Some(author),
        ..input
    };
    let now = crate::clock::now();
    let note = super::create(
        state.store(),
        &scope.id,
        scope.head(),
        input,
        Some(share.id),
        now,
    )
    .await?;
    let note = view_of(share, scope).show(note);
    Ok((StatusCode::CREATED, Json(note)).into_response())
}
