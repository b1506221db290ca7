//! Search across every session (`GET /api/search`, `hiveterm search`): the rows whose
//! summary or body holds a query, as a substring, ASCII case folded — code search, not words:
//! `rm -rf`, `ENOENT`, a path, a hash. Every character of the query is plain (`%`, `_`, `*`,
//! quotes, `OR`).
//!
//! - the rules of a query ([`SearchParams`] → [`SearchQuery`], [`parse`]): `q` 3 to
//!   [`MAX_QUERY_BYTES`] bytes, at least [`MIN_QUERY_CHARS`] characters (what a trigram index
//!   can look up; a shorter one is refused with `400`, not scanned), no control character but
//!   tab and newline; filters `session`, `level`, `agent`, `project`, `tool`, `since`;
//!   `limit`, `cursor`;
//! - a page as JSON ([`page_json`]): `{"hits": [hit…], "next"}`, each hit's `snippet` a
//!   short plain-text excerpt around the first match;
//! - the route, behind the API's token (a share link reaches none of it).
//!
//! The index and the hits' order are the store's (`crate::store::Store::search`): newest
//! event first (its `ts` descending), then session id, seq and row descending.

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::routing::get;
use contract::HitsPage;
use contract::search::Place;
use serde::Deserialize;

use crate::error::{AppError, valid_session_id};
use crate::query::Params;
use crate::state::AppState;
use crate::store::{Cursor, Hit, SearchPage, SearchQuery};

/// The shortest query, in characters.
pub const MIN_QUERY_CHARS: usize = 3;
/// The longest query, in bytes.
pub const MAX_QUERY_BYTES: usize = 256;
/// Hits in a page when `limit` is not given.
pub const DEFAULT_LIMIT: usize = 50;
/// The most hits in a page.
pub const MAX_LIMIT: usize = 500;
/// Bytes of a snippet before the match, and after it.
const BEFORE: usize = 40;
const AFTER: usize = 80;

/// `GET /api/search?q&session&level&agent&project&tool&since&limit&cursor`, and `hiveterm
/// search`'s options.
#[derive(Debug, Default, Deserialize)]
pub struct SearchParams {
    pub q: Option<String>,
    pub session: Option<String>,
    pub level: Option<String>,
    pub agent: Option<String>,
    pub project: Option<String>,
    pub tool: Option<String>,
    pub since: Option<String>,
    pub limit: Option<String>,
    pub cursor: Option<String>,
}

/// A search's parameters checked; the message says what is wrong.
pub fn parse(p: SearchParams) -> Result<SearchQuery, String> {
    let text = p.q.unwrap_or_default();
    if text.chars().count() < MIN_QUERY_CHARS {
        return Err(format!(
            "q must be at least {MIN_QUERY_CHARS} characters (a substring of a row's summary or body)"
        ));
    }
    if text.len() > MAX_QUERY_BYTES {
        return Err(format!("q must be at most {MAX_QUERY_BYTES} bytes"));
    }
    if text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return Err("q must hold no control character but tab and newline".into());
    }
    if let Some(id) = &p.session
        && !valid_session_id(id)
    {
        return Err(
            "a session id is 1-100 characters of A-Z a-z 0-9 . _ - not starting with '.'".into(),
        );
    }
    let level = match p.level.as_deref() {
        None => None,
        Some("debug") => Some("debug"),
        Some("info") => Some("info"),
        Some("warn") => Some("warn"),
        Some("error") => Some("error"),
        Some(_) => return Err("level must be debug, info, warn or error".into()),
    };
    let limit = match p.limit {
        None => DEFAULT_LIMIT,
        Some(l) => l
            .parse::<usize>()
            .map_err(|_| "limit must be a whole number".to_owned())?
            .clamp(1, MAX_LIMIT),
    };
    let after = match p.cursor {
        None => None,
        Some(c) => Some(Cursor::decode(&c).ok_or("cursor is not one a search answered")?),
    };
    let since = match p.since.as_deref() {
        None | Some("") => None,
        Some(s) => Some(
            crate::index::parse_since(s)
                .ok_or("since must be a day (YYYY-MM-DD), an RFC 3339 time or unix seconds")?,
        ),
    };
    let nonempty = |v: Option<String>| v.filter(|s| !s.is_empty());
    let tool = nonempty(p.tool);
    if tool
        .as_ref()
        .is_some_and(|t| t.chars().any(char::is_whitespace))
    {
        return Err("tool is one word, as a tool call's row names it (Bash, Read, …)".into());
    }
    Ok(SearchQuery {
        text,
        session: p.session,
        level,
        agent: nonempty(p.agent),
        project: nonempty(p.project),
        tool,
        since,
        limit,
        after,
    })
}

/// A page as the API answers it: the contract's [`HitsPage`].
pub fn page_json(page: &SearchPage) -> HitsPage {
    HitsPage {
        hits: page.hits.iter().map(hit_json).collect(),
        next: page.next.as_ref().map(Cursor::encode),
    }
}

fn hit_json(hit: &Hit) -> contract::Hit {
    contract::Hit {
        session: hit.at.session.clone(),
        seq: hit.at.seq,
        row: u64::from(hit.at.row),
        ts: hit.at.ts,
        icon: hit.icon.clone(),
        level: hit.level.clone(),
        summary: hit.summary.clone(),
        place: if hit.in_body {
            Place::Body
        } else {
            Place::Summary
        },
        snippet: snippet(&hit.text, hit.start, hit.len),
    }
}

/// Up to [`BEFORE`] bytes before the match at `start` (`len` bytes) and [`AFTER`] after it, on
/// character boundaries, tabs and newlines as spaces, `…` where the text goes on.
pub fn snippet(text: &str, start: usize, len: usize) -> String {
    let mut from = start.saturating_sub(BEFORE);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let mut to = (start + len + AFTER).min(text.len());
    while !text.is_char_boundary(to) {
        to += 1;
    }
    let mut out = String::with_capacity(to - from + 8);
    if from > 0 {
        out.push('…');
    }
    out.extend(
        text[from..to]
            .chars()
            .map(|c| if c == '\n' || c == '\t' { ' ' } else { c }),
    );
    if to < text.len() {
        out.push('…');
    }
    out
}

/// The search route (nested under `/api` by `crate::app`, behind the token check).
pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/search", get(search))
}

async fn search(
    State(state): State<AppState>,
    Params(params): Params<SearchParams>,
) -> Result<Json<HitsPage>, AppError> {
    let q = parse(params).map_err(AppError::BadRequest)?;
    let page = state.store().search(q).await?;
    Ok(Json(page_json(&page)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(text: &str) -> SearchParams {
        SearchParams {
            q: Some(text.into()),
            ..SearchParams::default()
        }
    }

    #[test]
    fn short_long_and_odd_queries_are_refused() {
        assert!(parse(q("ab")).is_err());
        assert!(parse(SearchParams::default()).is_err());
        assert!(parse(q("äöü")).is_ok());
        assert!(parse(q(&"x".repeat(MAX_QUERY_BYTES))).is_ok());
        assert!(parse(q(&"x".repeat(MAX_QUERY_BYTES + 1))).is_err());
        assert!(parse(q("a\0bc")).is_err());
        let bad_level = SearchParams {
            level: Some("loud".into()),
            ..q("abc")
        };
        assert!(parse(bad_level).is_err());
        let bad_since = SearchParams {
            since: Some("yesterday".into()),
            ..q("abc")
        };
        assert!(parse(bad_since).is_err());
        let two_words = SearchParams {
            tool: Some("Bash Read".into()),
            ..q("abc")
        };
        assert!(parse(two_words).is_err());
        let day = SearchParams {
            since: Some("2026-12-03".into()),
            agent: Some(String::new()),
            ..q("abc")
        };
        let day = parse(day).unwrap();
        assert_eq!((day.since, day.agent), (Some(1_796_256_000.0), None));
    }

    #[test]
    fn a_snippet_is_around_the_match() {
        assert_eq!(snippet("one\ntwo three", 4, 3), "one two three");
        let long = format!("{}NEEDLE{}", "a".repeat(100), "é".repeat(100));
        let s = snippet(&long, 100, 6);
        assert!(
            s.starts_with('…') && s.ends_with('…') && s.contains("NEEDLE"),
            "{s}"
        );
    }
}
