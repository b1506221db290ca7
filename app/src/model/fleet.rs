//! The start page's fleet index, pure: the sessions' index (`GET /api/sessions`) and the
//! search across every session (`GET /api/search`) as typed rows, the query strings the
//! filters make, and how each figure is written (cost, duration, tokens, project). The
//! components in `view::session_table`, `view::session_filters` and `view::fleet_search`
//! draw these; nothing here touches the DOM.

pub use contract::{AGENTS, Hit, Sort};
use contract::{HitsPage, SessionEntry, SessionsPage, Status};

use crate::model::summary::{dollars, grouped};

/// How many sessions a page of the table asks for.
pub const TABLE_PAGE: u32 = 50;
/// How many hits a page of search results asks for.
pub const SEARCH_PAGE: u32 = 50;
/// The shortest query the search sends (the server refuses shorter ones).
pub const SEARCH_MIN: usize = 3;
/// The session statuses the index knows, in the filter's order (the contract's).
pub const STATUSES: [Status; 5] = Status::ALL;

/// What the reader filters and sorts the table by; empty strings filter nothing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Filters {
    /// `agent` (one of [`AGENTS`]) or empty.
    pub agent: String,
    /// `status` (one of [`STATUSES`]) or empty.
    pub status: String,
    /// `project`: the whole path (the API's filter is equality).
    pub project: String,
    /// `q`: text in the title.
    pub q: String,
    /// `sort`.
    pub sort: Sort,
}

/// `s` encoded for a URL's query (RFC 3986 unreserved characters kept, every other byte
/// `%XX`).
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The index's URL (relative to the start page) for `f`, from `cursor` (the first page when
/// `None`): `api/sessions?limit=50&sort=errors&agent=codex…`.
pub fn index_url(f: &Filters, cursor: Option<&str>) -> String {
    index_url_of(f, cursor, TABLE_PAGE)
}

/// [`index_url`] for a page of `limit` sessions (the server takes at most 1000).
pub fn index_url_of(f: &Filters, cursor: Option<&str>, limit: u32) -> String {
    let mut url = format!("api/sessions?limit={limit}&sort={}", f.sort.as_str());
    for (k, v) in [
        ("agent", f.agent.trim()),
        ("status", f.status.trim()),
        ("project", f.project.trim()),
        ("q", f.q.trim()),
    ] {
        if !v.is_empty() {
            url.push_str(&format!("&{k}={}", encode(v)));
        }
    }
    if let Some(c) = cursor {
        url.push_str(&format!("&cursor={}", encode(c)));
    }
    url
}

/// The search's URL for `q` from `cursor`: `api/search?q=…&limit=50[&cursor=…]`.
pub fn search_url(q: &str, cursor: Option<&str>) -> String {
    let mut url = format!("api/search?q={}&limit={SEARCH_PAGE}", encode(q));
    if let Some(c) = cursor {
        url.push_str(&format!("&cursor={}", encode(c)));
    }
    url
}

/// One session of the index, as the table shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexRow {
    /// Its id (the page is `s/{id}`).
    pub id: String,
    /// Its title, or the id when it has none.
    pub title: String,
    /// The agent (`claude-code`, `codex`, …), if known.
    pub agent: Option<String>,
    /// The project's path, if the log gives one.
    pub project: Option<String>,
    /// `live`, `in flight`, `ok`, `failed` or `interrupted` (empty if the server said none).
    pub status: String,
    /// Whether its producer is still running (its last turn may have ended all the same).
    pub live: bool,
    /// When it started: the log's own first time, else when the server made it (what the
    /// index's sorts order by after their key).
    pub started: Option<f64>,
    /// Seconds between the log's first and last times.
    pub duration: Option<f64>,
    /// Turns started.
    pub turns: u64,
    /// Error rows.
    pub errors: u64,
    /// The seq of its first error row.
    pub first_error: Option<u64>,
    /// Tokens in all: input, output and the prompt cache's.
    pub tokens: u64,
    /// US dollars, where the log says or the price table estimates.
    pub cost: Option<f64>,
    /// `cost` is an estimate (the entry's `cost_source`, issue 50).
    pub cost_estimated: bool,
}

/// A page of the index: its rows, in the server's order, and the cursor of the next page.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IndexPage {
    /// The sessions.
    pub rows: Vec<IndexRow>,
    /// `next`, if there is a next page.
    pub next: Option<String>,
}

/// The rows of an answer of `GET /api/sessions` (an entry without an id is left out).
pub fn parse_index(page: SessionsPage) -> IndexPage {
    IndexPage {
        rows: page.sessions.iter().filter_map(index_row).collect(),
        next: page.next.filter(|n| !n.is_empty()),
    }
}

/// One entry of the index (`GET /api/sessions`' `sessions[i]`, or the index stream's
/// `session` event) as the table shows it; `None` without an id.
pub fn index_row(s: &SessionEntry) -> Option<IndexRow> {
    let some = |v: &Option<String>| v.clone().filter(|s| !s.is_empty());
    let finite = |v: Option<f64>| v.filter(|n| n.is_finite());
    (!s.id.is_empty()).then(|| IndexRow {
        id: s.id.clone(),
        title: Some(s.title.clone())
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| s.id.clone()),
        agent: some(&s.agent),
        project: some(&s.project),
        status: s.status.as_str().to_owned(),
        live: s.live,
        started: finite(s.started_at).or(finite(Some(s.started))),
        duration: finite(s.duration),
        turns: s.turns,
        errors: s.errors,
        first_error: s.first_error,
        tokens: s.tokens.total(),
        cost: finite(s.cost),
        cost_estimated: s.cost_source == contract::CostSource::Estimated,
    })
}

/// Rows `more` after `first`, leaving out those `first` holds (a refresh of the first page
/// may have moved a session into it).
pub fn joined(first: &[IndexRow], more: &[IndexRow]) -> Vec<IndexRow> {
    let mut out = first.to_vec();
    out.extend(
        more.iter()
            .filter(|m| !first.iter().any(|f| f.id == m.id))
            .cloned(),
    );
    out
}

/// A cost as the table writes it: `$0.0123`, `$12.50`, an estimate `≈ $0.0123 est.`, or
/// `unknown`.
pub fn cost_text(cost: Option<f64>, estimated: bool) -> String {
    match cost {
        None => "unknown".to_owned(),
        Some(c) if estimated => format!("≈ {} est.", dollars(c)),
        Some(c) => dollars(c),
    }
}

/// A duration as the table writes it (`4.2s`, `3m 05s`…), or `—` when unknown.
pub fn duration_text(secs: Option<f64>) -> String {
    secs.map(classifier::duration)
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "—".to_owned())
}

/// A token count, short: `812`, `12.3k`, `4.1M`; `—` for none.
pub fn tokens_text(n: u64) -> String {
    match n {
        0 => "—".to_owned(),
        n if n < 10_000 => grouped(n),
        n if n < 1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        n => format!("{:.1}M", n as f64 / 1e6),
    }
}

/// A project as the table writes it: its last path component (`/home/dev/app` → `app`).
pub fn short_project(p: &str) -> &str {
    p.trim_end_matches(['/', '\\'])
        .rsplit(['/', '\\'])
        .next()
        .filter(|s| !s.is_empty())
        .unwrap_or(p)
}

/// The status badge's class: `status-in-flight` for `in flight`.
pub fn status_class(status: &str) -> String {
    format!("status status-{}", status.replace(' ', "-"))
}

/// A page of hits and the cursor of the next.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HitPage {
    /// The hits, newest first.
    pub hits: Vec<Hit>,
    /// `next`, if there are more.
    pub next: Option<String>,
}

/// The hits of an answer of `GET /api/search` (one without a session left out).
pub fn parse_hits(page: HitsPage) -> HitPage {
    HitPage {
        hits: page
            .hits
            .into_iter()
            .filter(|h| !h.session.is_empty())
            .collect(),
        next: page.next.filter(|n| !n.is_empty()),
    }
}

/// Hits grouped by session, the groups in the order of their first hit, each group's hits
/// in their order.
pub fn group_hits(hits: &[Hit]) -> Vec<(String, Vec<Hit>)> {
    let mut groups: Vec<(String, Vec<Hit>)> = Vec::new();
    for h in hits {
        match groups.iter_mut().find(|(s, _)| *s == h.session) {
            Some((_, g)) => g.push(h.clone()),
            None => groups.push((h.session.clone(), vec![h.clone()])),
        }
    }
    groups
}

/// What a refused query says: the `error` of a JSON answer, else the answer as it is.
pub fn refusal(body: &str) -> String {
    serde_json::from_str::<contract::ErrorBody>(body)
        .ok()
        .map(|e| e.error)
        .filter(|e| !e.is_empty())
        .unwrap_or_else(|| body.trim().to_owned())
}

/// `N hits` (`1 hit`).
pub fn hits_text(n: usize) -> String {
    match n {
        1 => "1 hit".to_owned(),
        n => format!("{} hits", grouped(n as u64)),
    }
}

#[cfg(test)]
#[path = "fleet_tests.rs"]
mod tests;
