//! `GET /api/sessions`' page ([`Query`]: filters, [`Sort`], keyset [`Cursor`]) as SQL for
//! both backends, and the update of a session's index columns.

use super::row::*;

/// How `GET /api/sessions` sorts: the contract's ([`contract::Sort`]); its SQL here.
pub use contract::Sort;

/// The sort key before the start ([`STARTED_SQL`]) and id, as SQL (`None`: newest). Newest
/// is by when the session started — the log's own first time ([`Index::started_at`]), else
/// when the server made it ([`STARTED_SQL`]): a watched log of last month sorts by last
/// month, not by when it was imported.
pub fn key_sql(sort: Sort) -> Option<&'static str> {
    match sort {
        Sort::Newest => None,
        Sort::Cost => Some("COALESCE(cost, -1.0)"),
        Sort::Errors => Some("errors"),
    }
}

/// A row's sort key (what [`key_sql`] gives).
pub fn key_of(sort: Sort, e: &Entry) -> Option<f64> {
    match sort {
        Sort::Newest => None,
        Sort::Cost => Some(e.index.cost.unwrap_or(-1.0)),
        Sort::Errors => Some(e.index.errors as f64),
    }
}

/// When a session started, as SQL: the log's own first time, else when the server made it
/// (every sort's tie-breaker, and the sort of [`Sort::Newest`]; the indexes are on it).
pub const STARTED_SQL: &str = "COALESCE(started_at, started)";

/// When entry `e` started, as [`STARTED_SQL`] reads it.
pub fn started_of(e: &Entry) -> f64 {
    e.index.started_at.unwrap_or(e.info.started)
}

/// Where a page of the index starts: after the row with this key, start ([`STARTED_SQL`])
/// and id.
#[derive(Debug, Clone, PartialEq)]
pub struct Cursor {
    pub key: Option<f64>,
    pub started: f64,
    pub id: String,
}

impl Cursor {
    /// The cursor after `e`, for `sort`.
    pub fn after(sort: Sort, e: &Entry) -> Cursor {
        Cursor {
            key: key_of(sort, e),
            started: started_of(e),
            id: e.info.id.clone(),
        }
    }

    /// As text: `started~id`, with `key~` before it for the sorts that have a key.
    pub fn to_text(&self) -> String {
        match self.key {
            None => format!("{}~{}", self.started, self.id),
            Some(k) => format!("{k}~{}~{}", self.started, self.id),
        }
    }

    /// Read back for `sort`; `None` when it is not one.
    pub fn parse(sort: Sort, text: &str) -> Option<Cursor> {
        let num = |t: &str| t.parse::<f64>().ok().filter(|x| x.is_finite());
        let (key, rest) = match sort {
            Sort::Newest => (None, text),
            _ => {
                let (k, rest) = text.split_once('~')?;
                (Some(num(k)?), rest)
            }
        };
        let (started, id) = rest.split_once('~')?;
        Some(Cursor {
            key,
            started: num(started)?,
            id: id.to_owned(),
        })
    }
}

/// What `GET /api/sessions` asks of the index.
#[derive(Debug, Clone, Default)]
pub struct Query {
    /// One session only (`GET /api/sessions/{id}`).
    pub id: Option<String>,
    pub agent: Option<String>,
    pub project: Option<String>,
    pub status: Option<String>,
    /// A substring of the title, case-insensitively (ASCII); `%` and `_` are plain.
    pub q: Option<String>,
    pub sort: Sort,
    pub after: Option<Cursor>,
    pub limit: usize,
}

/// A value bound to a statement, whichever backend.
#[derive(Debug, Clone)]
pub enum Arg {
    Text(Option<String>),
    Real(Option<f64>),
    Int(Option<i64>),
}

/// `n` as a database integer (saturating).
pub fn int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The statement that sets a session's title and index columns: `ph(n)` writes placeholder
/// `n`; its arguments are [`update_args`].
pub fn update_sql(ph: impl Fn(usize) -> String) -> String {
    let sets: Vec<String> = std::iter::once("title")
        .chain(INDEX_COLUMNS.split(", "))
        .enumerate()
        .map(|(i, c)| format!("{c} = {}", ph(i + 2)))
        .collect();
    format!(
        "UPDATE sessions SET {} WHERE id = {}",
        sets.join(", "),
        ph(1)
    )
}

/// The arguments of [`update_sql`].
pub fn update_args(id: &str, title: &str, x: &Index) -> Vec<Arg> {
    let text = |s: &Option<String>| Arg::Text(s.clone());
    vec![
        Arg::Text(Some(id.to_owned())),
        Arg::Text(Some(title.to_owned())),
        text(&x.agent),
        text(&x.agent_version),
        text(&x.project),
        text(&x.model),
        Arg::Real(x.started_at),
        Arg::Real(x.ended_at),
        text(&x.outcome),
        Arg::Int(Some(int(x.turns))),
        Arg::Int(Some(int(x.errors))),
        Arg::Int(Some(int(x.input_tokens))),
        Arg::Int(Some(int(x.output_tokens))),
        Arg::Int(Some(int(x.cache_read_tokens))),
        Arg::Int(Some(int(x.cache_creation_tokens))),
        Arg::Real(x.cost),
        Arg::Int(x.first_error.map(int)),
        Arg::Int(Some(i64::from(x.cost_estimated))),
        Arg::Text(list_text(&x.tokens_by_model)),
        Arg::Text(list_text(&x.unpriced_models)),
    ]
}

/// A list column's text: its JSON, `NULL` when empty.
pub fn list_text<T: serde::Serialize>(list: &[T]) -> Option<String> {
    (!list.is_empty()).then(|| serde_json::to_string(list).unwrap_or_default())
}

/// A list column read back ([`list_text`]); empty when `NULL` or not such a list.
pub fn list_of<T: serde::de::DeserializeOwned>(text: Option<&str>) -> Vec<T> {
    text.and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or_default()
}

/// The columns of a session row (`SessionInfo`, in the backends' `session_row` order): the
/// last is the title its client gave.
pub const SESSION_COLUMNS: &str =
    "id, title, source, started, ended, last_seq, COALESCE(given_title, title)";

/// The columns of an index row, in [`Index`]'s order after [`SESSION_COLUMNS`].
pub const INDEX_COLUMNS: &str = "agent, agent_version, project, model, started_at, ended_at, \
     outcome, turns, errors, input_tokens, output_tokens, cache_read_tokens, \
     cache_creation_tokens, cost, first_error, cost_estimated, tokens_by_model, unpriced_models";

/// The SQL of a page of the index and its arguments; `ph(n)` writes placeholder `n` (from 1),
/// `instr` is the backend's substring position function (`instr`, `strpos`).
pub fn page_sql(query: &Query, instr: &str, ph: impl Fn(usize) -> String) -> (String, Vec<Arg>) {
    let mut args: Vec<Arg> = Vec::new();
    let mut bind = |a: Arg| {
        args.push(a);
        ph(args.len())
    };
    let mut wheres: Vec<String> = Vec::new();
    if let Some(id) = &query.id {
        wheres.push(format!("id = {}", bind(Arg::Text(Some(id.clone())))));
    }
    if let Some(agent) = &query.agent {
        wheres.push(format!("agent = {}", bind(Arg::Text(Some(agent.clone())))));
    }
    if let Some(project) = &query.project {
        wheres.push(format!(
            "project = {}",
            bind(Arg::Text(Some(project.clone())))
        ));
    }
    if let Some(status) = &query.status {
        wheres.push(format!(
            "{STATUS_SQL} = {}",
            bind(Arg::Text(Some(status.clone())))
        ));
    }
    if let Some(q) = &query.q {
        // `instr`/`strpos` are plain substring searches: no pattern characters.
        // The same `LOWER` on both sides (SQLite's folds ASCII only, PostgreSQL's more).
        let q = bind(Arg::Text(Some(q.clone())));
        wheres.push(format!("{instr}(LOWER(title), LOWER({q})) > 0"));
    }
    let key = key_sql(query.sort);
    let cols = format!("{SESSION_COLUMNS}, {INDEX_COLUMNS}");
    let filter = |more: &[String]| {
        let all: Vec<&String> = wheres.iter().chain(more).collect();
        if all.is_empty() {
            String::new()
        } else {
            format!(
                "WHERE {}",
                all.iter()
                    .map(|w| w.as_str())
                    .collect::<Vec<_>>()
                    .join(" AND ")
            )
        }
    };
    let after = query.after.as_ref().map(|c| {
        let s = bind(Arg::Real(Some(c.started)));
        let id = bind(Arg::Text(Some(c.id.clone())));
        let k = match (key, c.key) {
            (Some(_), Some(k)) => Some(bind(match query.sort {
                Sort::Errors => Arg::Int(Some(k as i64)),
                _ => Arg::Real(Some(k)),
            })),
            _ => None,
        };
        (
            format!(
                "{STARTED_SQL} <= {s} AND ({STARTED_SQL} < {s} OR ({STARTED_SQL} = {s} AND id > {id}))"
            ),
            k,
        )
    });
    let limit = bind(Arg::Int(Some(int(query.limit as u64))));
    let order = format!("{STARTED_SQL} DESC, id");
    let sql = match (key, after) {
        (None, None) => format!(
            "SELECT {cols} FROM sessions {} ORDER BY {order} LIMIT {limit}",
            filter(&[])
        ),
        (None, Some((tail, _))) | (Some(_), Some((tail, None))) => format!(
            "SELECT {cols} FROM sessions {} ORDER BY {order} LIMIT {limit}",
            filter(&[tail])
        ),
        (Some(key), None) => format!(
            "SELECT {cols} FROM sessions {} ORDER BY {key} DESC, {order} LIMIT {limit}",
            filter(&[])
        ),
        // After a cursor, the rest of its key's run and the keys below it, each read from
        // the sort's index from where it starts (one condition with an OR would scan the
        // whole run before the cursor: most sessions have 0 errors), then merged.
        (Some(key), Some((tail, Some(k)))) => format!(
            "SELECT * FROM (SELECT {cols}, {key} AS sort_key, {STARTED_SQL} AS sort_start \
             FROM sessions {} ORDER BY {order} LIMIT {limit}) AS same_key \
             UNION ALL \
             SELECT * FROM (SELECT {cols}, {key} AS sort_key, {STARTED_SQL} AS sort_start \
             FROM sessions {} ORDER BY {key} DESC, {order} LIMIT {limit}) AS lower_keys \
             ORDER BY sort_key DESC, sort_start DESC, id LIMIT {limit}",
            filter(&[format!("{key} = {k}"), tail]),
            filter(&[format!("{key} < {k}")]),
        ),
    };
    (sql, args)
}
