//! Each tool's answer, as JSON text, through the functions that back the HTTP API: the same
//! rules, the same reads, the same shapes (a cut answer's `next` aside).

use rmcp::model::JsonObject;
use serde_json::{Value, json};

use super::bound::{Arguments, cut_bodies, cut_to_bytes, fitting, redact_strings, shorten};
use crate::error::check_id;
use crate::hub::SessionInfo;
use crate::notes::api::notes_page;
use crate::notes::live::NotesView;
use crate::query::SessionsParams;
use crate::redacted;
use crate::search::{self, SearchParams};
use crate::store::Store;

/// What the tools read: the store, whether to redact, the redacted folds of the sessions read.
pub(crate) struct Reader {
    pub(crate) store: Store,
    pub(crate) redact: bool,
    pub(crate) redactions: redacted::Cache,
}

/// Sessions listed when `limit` is not given (the API's 500 is more than an agent reads).
const SESSIONS_DEFAULT: u64 = 50;
/// Events of `session_rows` when `limit` is not given, and at most.
const ROWS_DEFAULT: u64 = 100;
const ROWS_MAX: u64 = 1000;
/// Bytes of a body `session_rows` keeps when `max_body` is not given.
const BODY_DEFAULT: u64 = 2000;
/// Room in an answer for what is not an item (keys, `next`).
const OVERHEAD: usize = 256;

/// The answer of tool `name` to `args`, or what is wrong (a tool error the agent reads).
pub(crate) async fn call(s: &Reader, name: &str, args: &JsonObject) -> Result<String, String> {
    let a = Arguments(args);
    let value = match name {
        "search" => search(s, &a).await?,
        "list_sessions" => list_sessions(s, &a).await?,
        "session_summary" => summary(s, &a).await?,
        "session_rows" => rows(s, &a).await?,
        _ => notes(s, &a).await?,
    };
    Ok(value.to_string())
}

async fn search(s: &Reader, a: &Arguments<'_>) -> Result<Value, String> {
    a.only(&[
        "query",
        "session",
        "agent",
        "project",
        "tool",
        "since",
        "level",
        "limit",
        "cursor",
        "max_bytes",
    ])?;
    let max = a.max_bytes()?;
    let q = search::parse(SearchParams {
        q: Some(a.required("query")?),
        session: a.text("session")?,
        level: a.text("level")?,
        agent: a.text("agent")?,
        project: a.text("project")?,
        tool: a.text("tool")?,
        since: a.text("since")?,
        limit: a.number("limit")?.map(|n| n.to_string()),
        cursor: a.text("cursor")?,
    })?;
    let page = s.store.search(q).await.map_err(|e| e.to_string())?;
    let mut value = serde_json::to_value(search::page_json(&page)).map_err(|e| e.to_string())?;
    if s.redact {
        redact_strings(&mut value);
    }
    shorten(&mut value, "hits", &["summary", "snippet"], max);
    cut_to_bytes(&mut value, "hits", OVERHEAD, max, |last, _| {
        json!(page.hits[last].at.encode())
    });
    Ok(value)
}

async fn list_sessions(s: &Reader, a: &Arguments<'_>) -> Result<Value, String> {
    a.only(&[
        "agent",
        "project",
        "status",
        "q",
        "sort",
        "limit",
        "cursor",
        "max_bytes",
    ])?;
    let max = a.max_bytes()?;
    let params = |limit: u64| -> Result<SessionsParams, String> {
        Ok(SessionsParams {
            limit: Some(limit),
            before: None,
            cursor: a.text("cursor")?,
            sort: a.text("sort")?,
            agent: a.text("agent")?,
            project: a.text("project")?,
            status: a.text("status")?,
            q: a.text("q")?,
        })
    };
    let limit = a.number("limit")?.unwrap_or(SESSIONS_DEFAULT);
    let mut value = sessions(s, params(limit)?).await?;
    if value.to_string().len() > max {
        // Fewer sessions asked again, so `next` is the index's own cursor after the last one.
        let keep = value["sessions"]
            .as_array()
            .map_or(1, |all| fitting(all, OVERHEAD, max));
        value = sessions(s, params(keep as u64)?).await?;
    }
    Ok(value)
}

/// A page of the index, `GET /api/sessions`'s answer, its strings redacted unless
/// `--no-redact`.
pub(crate) async fn sessions(s: &Reader, params: SessionsParams) -> Result<Value, String> {
    let page = crate::index::api::sessions_page(&s.store, params)
        .await
        .map_err(|e| e.to_string())?;
    let mut value = serde_json::to_value(page).map_err(|e| e.to_string())?;
    if s.redact {
        redact_strings(&mut value);
    }
    Ok(value)
}

/// The session's stored row (`400` an invalid id, `404` an unknown one).
async fn session(s: &Reader, id: &str) -> Result<SessionInfo, String> {
    check_id(id).map_err(|e| e.to_string())?;
    s.store
        .session_info(id)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("no session {id}"))
}

async fn summary(s: &Reader, a: &Arguments<'_>) -> Result<Value, String> {
    a.only(&["session"])?;
    let id = a.required("session")?;
    let info = session(s, &id).await?;
    summary_of(s, &info).await
}

/// A session's summary, `GET /api/sessions/{id}/summary`'s answer (redacted unless
/// `--no-redact`): the `session_summary` tool's and a session resource's.
pub(crate) async fn summary_of(s: &Reader, info: &SessionInfo) -> Result<Value, String> {
    let id = info.id.as_str();
    let ended = info.ended.is_some();
    let summary = if s.redact {
        let redacted = s.redactions.of_session(id);
        let view = redacted.upto(&s.store, info.last_seq).await;
        view.map_err(|e| e.to_string())?.summary(ended).await
    } else {
        let fold = s.store.fold_at(id, info.last_seq).await;
        fold.map(|f| f.summary_ended(ended))
    };
    let summary = summary.map_err(|e| e.to_string())?;
    serde_json::to_value(summary).map_err(|e| e.to_string())
}

/// The envelopes of events `from..=to` of a session, oldest first: history pages read
/// newest first up to a head no more than `limit` events past `from` (so one page holds the
/// whole stretch; a page the store cut by bytes has its stretch halved), bodies cut, the
/// answer cut to `max_bytes`; `next` is the `from` of the rest.
async fn rows(s: &Reader, a: &Arguments<'_>) -> Result<Value, String> {
    a.only(&["session", "from", "to", "limit", "max_body", "max_bytes"])?;
    let id = a.required("session")?;
    let max = a.max_bytes()?;
    let info = session(s, &id).await?;
    let from = a.number("from")?.unwrap_or(1).max(1);
    let to = a
        .number("to")?
        .map_or(info.last_seq, |t| t.min(info.last_seq));
    let limit = a
        .number("limit")?
        .unwrap_or(ROWS_DEFAULT)
        .clamp(1, ROWS_MAX);
    let max_body = a.number("max_body")?.unwrap_or(BODY_DEFAULT);
    let answer = |envelopes: Vec<Value>, next: Option<u64>| json!({"session": id, "envelopes": envelopes, "next": next, "last_seq": info.last_seq});
    if from > to {
        return Ok(answer(Vec::new(), None));
    }
    let mut head = to.min(from.saturating_add(limit - 1));
    let mut envelopes = loop {
        let page = history(s, &id, head, limit).await?;
        if page["cut_by_bytes"] == json!(true) && head > from {
            head = from + (head - from) / 2;
            continue;
        }
        let mut envs: Vec<Value> = page["envelopes"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .filter(|e| e["seq"].as_u64().is_some_and(|seq| seq >= from))
            .collect();
        envs.reverse();
        break envs;
    };
    cut_bodies(
        &mut envelopes,
        usize::try_from(max_body).unwrap_or(usize::MAX),
    );
    let mut next = (head < to).then_some(head + 1);
    let keep = fitting(&envelopes, OVERHEAD + id.len(), max);
    if keep < envelopes.len() {
        next = envelopes[keep]["seq"].as_u64();
        envelopes.truncate(keep);
    }
    Ok(answer(envelopes, next))
}

/// A history page (`GET …/events/history?before=head+1&limit`), redacted or not, as JSON.
async fn history(s: &Reader, id: &str, head: u64, limit: u64) -> Result<Value, String> {
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let bytes = if s.redact {
        let redacted = s.redactions.of_session(id);
        let view = redacted.upto(&s.store, head).await;
        view.map_err(|e| e.to_string())?.page(None, limit).await
    } else {
        s.store.history_page(id, head, None, limit).await
    };
    let bytes = bytes.map_err(|e| e.to_string())?;
    serde_json::from_slice(&bytes).map_err(|e| e.to_string())
}

async fn notes(s: &Reader, a: &Arguments<'_>) -> Result<Value, String> {
    a.only(&["session", "cursor", "max_bytes"])?;
    let id = a.required("session")?;
    let max = a.max_bytes()?;
    let info = session(s, &id).await?;
    let view = NotesView {
        redact: s.redact,
        share: None,
    };
    let cursor = a.text("cursor")?;
    let page = notes_page(&s.store, &id, info.last_seq, view, cursor.as_deref())
        .await
        .map_err(|e| e.to_string())?;
    let mut value = serde_json::to_value(page).map_err(|e| e.to_string())?;
    cut_to_bytes(&mut value, "notes", OVERHEAD, max, |_, last| {
        json!(format!("{}.{}.{}", last["from"], last["to"], last["id"]))
    });
    Ok(value)
}
