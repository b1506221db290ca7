//! Sessions as MCP resources: `hiveterm://session/<id>`, listed a page at a time
//! (`resources/list`: the index newest first, as `GET /api/sessions` lists it, [`PAGE`]
//! sessions a page, the index's cursor as `nextCursor`), read as the session's summary
//! (`resources/read`: the `session_summary` tool's answer, JSON), and the one template
//! (`resources/templates/list`) an agent fills with an id it found by `search`.

use rmcp::ErrorData;
use rmcp::model::{
    ListResourceTemplatesResult, ListResourcesResult, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate,
};
use serde_json::Value;

use super::answer::{Reader, sessions, summary_of};
use crate::error::valid_session_id;
use crate::query::SessionsParams;

/// What a session's URI starts with; the id follows (ids need no escaping: `A-Z a-z 0-9 . _ -`).
pub(crate) const PREFIX: &str = "hiveterm://session/";
/// Sessions a page of `resources/list` (about 300 bytes each).
pub(crate) const PAGE: u64 = 50;
const JSON: &str = "application/json";

/// The session with id `id`, as a URI.
pub(crate) fn uri(id: &str) -> String {
    format!("{PREFIX}{id}")
}

/// The template of a session's URI.
pub(crate) fn templates() -> ListResourceTemplatesResult {
    let session = ResourceTemplate::new(format!("{PREFIX}{{id}}"), "session")
        .with_title("A stored agent session")
        .with_description(
            "How one session went (its summary, as the session_summary tool gives it): turns, \
             errors and the first one, tool calls, duration, tokens, cost, models, files \
             changed. {id} is a session id, as search or list_sessions give it.",
        )
        .with_mime_type(JSON);
    ListResourceTemplatesResult::with_all_items(vec![session])
}

/// A page of sessions, newest first, from `cursor` (a `nextCursor` given before).
pub(crate) async fn list(
    r: &Reader,
    cursor: Option<String>,
) -> Result<ListResourcesResult, ErrorData> {
    let params = SessionsParams {
        limit: Some(PAGE),
        before: None,
        cursor,
        sort: None,
        agent: None,
        project: None,
        status: None,
        q: None,
    };
    let page = sessions(r, params)
        .await
        .map_err(|e| ErrorData::invalid_params(e, None))?;
    let resources = page["sessions"]
        .as_array()
        .map(|all| all.iter().filter_map(resource).collect())
        .unwrap_or_default();
    let mut result = ListResourcesResult::with_all_items(resources);
    result.next_cursor = page["next"].as_str().map(str::to_owned);
    Ok(result)
}

/// An index entry (`GET /api/sessions`'s) as a resource: its id, title and a line of figures.
fn resource(entry: &Value) -> Option<Resource> {
    let id = entry["id"].as_str()?;
    let text = |key: &str| entry[key].as_str().unwrap_or("unknown").to_owned();
    let mut description = format!(
        "{} session, {}: {} turns, {} errors",
        text("agent"),
        text("status"),
        entry["turns"],
        entry["errors"],
    );
    if let Some(project) = entry["project"].as_str() {
        description = format!("{description}; project {project}");
    }
    let mut resource = Resource::new(uri(id), id)
        .with_description(description)
        .with_mime_type(JSON);
    if let Some(title) = entry["title"].as_str().filter(|t| !t.is_empty()) {
        resource = resource.with_title(title);
    }
    Some(resource)
}

/// The session's summary; a URI that names no stored session is `-32002`, resource not found.
pub(crate) async fn read(r: &Reader, uri: &str) -> Result<ReadResourceResult, ErrorData> {
    let not_found = || ErrorData::resource_not_found(format!("no resource {uri}"), None);
    let id = uri
        .strip_prefix(PREFIX)
        .filter(|id| valid_session_id(id))
        .ok_or_else(not_found)?;
    let info = r
        .store
        .session_info(id)
        .await
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?
        .ok_or_else(not_found)?;
    let summary = summary_of(r, &info)
        .await
        .map_err(|e| ErrorData::internal_error(e, None))?;
    let contents = ResourceContents::text(summary.to_string(), uri).with_mime_type(JSON);
    Ok(ReadResourceResult::new(vec![contents]))
}
