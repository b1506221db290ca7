//! The search index in the store: every row (`TermMsg`) of every stored envelope, its
//! summary and body, in a table of its own (`search_rows`) beside `rendered`, with each
//! backend's substring index over it (SQLite: an FTS5 `trigram` table; PostgreSQL: GIN
//! `pg_trgm` indexes). It is derived like `rendered`: written in the transaction that stores
//! the envelope, dropped and rebuilt with the other derived tables.
//!
//! A query is answered here, the same for both backends: the backend gives candidate rows
//! in the hits' order ([`Candidate`], newest event first), a superset of the hits (its index
//! folds case at least as widely as ASCII); each is checked again with [`find`], so a hit is
//! exactly a row whose summary or body holds the query, ASCII case folded.

use classifier::{Level, TermEnvelope, TermMsg};

/// One row of an envelope as the index stores it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct IndexRow<'a> {
    /// The row's place in its envelope's `msgs`.
    pub row: u32,
    pub level: &'static str,
    pub icon: Option<&'a str>,
    pub summary: &'a str,
    /// `""` when the row has no body.
    pub body: &'a str,
}

/// The rows of `env` to index, and the time they are ordered by (the envelope's `ts`).
pub(crate) fn index_rows(env: &TermEnvelope) -> (f64, Vec<IndexRow<'_>>) {
    let rows = env
        .msgs
        .iter()
        .zip(0u32..)
        .map(|(m, row)| IndexRow {
            row,
            level: level_name(m.level),
            icon: m.icon.as_deref(),
            summary: &m.summary,
            body: m.body.as_deref().unwrap_or_default(),
        })
        .collect();
    (env.ts.unwrap_or_default(), rows)
}

/// A level as the API and the index spell it.
pub(crate) fn level_name(level: Level) -> &'static str {
    match level {
        Level::Debug => "debug",
        Level::Info => "info",
        Level::Warn => "warn",
        Level::Error => "error",
    }
}

/// Where a hit is in the hits' order: newest event first (`ts` descending), then session id,
/// seq and row, each descending. A page after a cursor starts just past it.
#[derive(Debug, Clone, PartialEq)]
pub struct Cursor {
    pub ts: f64,
    pub session: String,
    pub seq: u64,
    pub row: u32,
}

impl Cursor {
    /// The opaque text the API answers as `next`.
    pub fn encode(&self) -> String {
        format!(
            "{:x}.{}.{}.{}",
            self.ts.to_bits(),
            self.seq,
            self.row,
            self.session
        )
    }

    /// A cursor [`Cursor::encode`] made; `None` for anything else.
    pub fn decode(text: &str) -> Option<Cursor> {
        let mut parts = text.splitn(4, '.');
        let ts = f64::from_bits(u64::from_str_radix(parts.next()?, 16).ok()?);
        let seq = parts.next()?.parse().ok()?;
        let row = parts.next()?.parse().ok()?;
        let session = parts.next()?.to_owned();
        (!ts.is_nan() && !session.is_empty()).then_some(Cursor {
            ts,
            session,
            seq,
            row,
        })
    }
}

/// A search, checked (see `crate::search` for the rules of `text`).
#[derive(Debug, Clone)]
pub struct SearchQuery {
    /// The substring looked for.
    pub text: String,
    /// Only this session's rows.
    pub session: Option<String>,
    /// Only rows of this level (`debug`, `info`, `warn`, `error`).
    pub level: Option<&'static str>,
    /// Only rows of sessions of this agent (the index's `agent`: `claude-code`, `codex`, …).
    pub agent: Option<String>,
    /// Only rows of sessions of this project (the index's `project`, exactly).
    pub project: Option<String>,
    /// Only calls of this tool (what [`classifier::tool_of`] reads from a row: `Bash`, `Read`,
    /// `github:create_issue`).
    pub tool: Option<String>,
    /// Only rows of events at or after this time (unix seconds).
    pub since: Option<f64>,
    /// At most this many hits.
    pub limit: usize,
    /// The hits after this one.
    pub after: Option<Cursor>,
}

/// A row the backend's index found, maybe without the query (checked again by [`find`]).
#[derive(Debug, Clone)]
pub(crate) struct Candidate {
    pub at: Cursor,
    pub level: String,
    pub icon: Option<String>,
    pub summary: String,
    pub body: String,
}

/// One hit: where it is, the row, and where in it the query is.
#[derive(Debug, Clone)]
pub struct Hit {
    pub at: Cursor,
    pub level: String,
    pub icon: Option<String>,
    pub summary: String,
    /// The matching text: the summary when it holds the query, else the body.
    pub text: String,
    /// Whether `text` is the body.
    pub in_body: bool,
    /// The query's first place in `text` (bytes) and its length.
    pub start: usize,
    pub len: usize,
}

/// A page of hits, and where the next starts (`None`: this is the last).
#[derive(Debug, Clone)]
pub struct SearchPage {
    pub hits: Vec<Hit>,
    pub next: Option<Cursor>,
}

/// Where `needle` first is in `hay`, ASCII case folded (a byte offset into `hay`).
pub(crate) fn find(hay: &str, needle: &str) -> Option<usize> {
    if needle.len() > hay.len() {
        return None;
    }
    let hay = hay.to_ascii_lowercase();
    hay.find(&needle.to_ascii_lowercase())
}

/// A level as the index spells it, read back.
fn level_of(name: &str) -> Option<Level> {
    match name {
        "debug" => Some(Level::Debug),
        "info" => Some(Level::Info),
        "warn" => Some(Level::Warn),
        "error" => Some(Level::Error),
        _ => None,
    }
}

/// Whether candidate `c` is a call of `tool` (the classifier's reading of its row, as the
/// page's tool filter reads it; the backends only narrow by the summary's start).
fn calls(c: &Candidate, tool: &str) -> bool {
    let Some(level) = level_of(&c.level) else {
        return false;
    };
    let msg = TermMsg {
        icon: c.icon.clone().map(Into::into),
        level,
        summary: c.summary.clone(),
        ..TermMsg::default()
    };
    classifier::tool_of(&msg) == Some(tool)
}

/// The hit a candidate is, if it holds `text`.
fn hit(c: Candidate, text: &str) -> Option<Hit> {
    let (field, in_body, start) = if let Some(start) = find(&c.summary, text) {
        (c.summary.clone(), false, start)
    } else {
        let start = find(&c.body, text)?;
        (c.body, true, start)
    };
    Some(Hit {
        at: c.at,
        level: c.level,
        icon: c.icon,
        summary: c.summary,
        text: field,
        in_body,
        start,
        len: text.len(),
    })
}

/// A query SQLite's index finds fewer times than this is rare: its matches are read from the
/// index and sorted; a commoner one is looked for in the rows in the hits' order (newest
/// first), where its first page is near (its matches are at least this dense).
pub(crate) const RARE: usize = 5000;

/// Candidates asked of the backend at a time (more than a page: some may not hold the query).
const CANDIDATES: usize = 64;

/// A page of hits being gathered: the backend asks it where its next candidates start and
/// how many ([`Pager::ask`]), gives them ([`Pager::take`]), until it asks no more.
pub(crate) struct Pager {
    q: SearchQuery,
    hits: Vec<Hit>,
    after: Option<Cursor>,
    done: bool,
}

impl Pager {
    pub(crate) fn new(q: SearchQuery) -> Pager {
        let after = q.after.clone();
        Pager {
            q,
            hits: Vec::new(),
            after,
            done: false,
        }
    }

    /// The query.
    pub(crate) fn query(&self) -> &SearchQuery {
        &self.q
    }

    /// Where the next candidates start (after this one) and how many to read; `None` when
    /// the page is gathered.
    pub(crate) fn ask(&self) -> Option<(Option<Cursor>, usize)> {
        (!self.done).then(|| (self.after.clone(), CANDIDATES.max(self.q.limit + 1)))
    }

    /// The next candidates, as many as [`Pager::ask`] said or fewer when there are no more.
    pub(crate) fn take(&mut self, batch: Vec<Candidate>) {
        let full = batch.len() >= CANDIDATES.max(self.q.limit + 1);
        if let Some(last) = batch.last() {
            self.after = Some(last.at.clone());
        }
        let (text, tool) = (&self.q.text, self.q.tool.as_deref());
        self.hits.extend(
            batch
                .into_iter()
                .filter(|c| tool.is_none_or(|t| calls(c, t)))
                .filter_map(|c| hit(c, text)),
        );
        self.done = !full || self.hits.len() > self.q.limit;
    }

    /// The page.
    pub(crate) fn finish(mut self) -> SearchPage {
        let limit = self.q.limit;
        let next = (self.hits.len() > limit).then(|| {
            self.hits.truncate(limit);
            self.hits[limit - 1].at.clone()
        });
        SearchPage {
            hits: self.hits,
            next,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_round_trips() {
        let c = Cursor {
            ts: 1_700_000_000.125,
            session: "a.b-c_d".into(),
            seq: 12,
            row: 3,
        };
        assert_eq!(Cursor::decode(&c.encode()), Some(c));
        assert_eq!(Cursor::decode("zz.1.2.x"), None);
        assert_eq!(Cursor::decode("0.1.2"), None);
        assert_eq!(Cursor::decode("0.1.2."), None);
    }

    #[test]
    fn a_tool_filter_reads_the_row_as_the_classifier_does() {
        let c = |icon: Option<&str>, level: &str, summary: &str| Candidate {
            at: Cursor {
                ts: 0.0,
                session: "s".into(),
                seq: 1,
                row: 0,
            },
            level: level.into(),
            icon: icon.map(str::to_owned),
            summary: summary.into(),
            body: String::new(),
        };
        assert!(calls(&c(Some("🖥\u{fe0f}"), "info", "Bash $ ls"), "Bash"));
        assert!(calls(
            &c(Some("🔧"), "info", "github:create_issue() x"),
            "github:create_issue"
        ));
        assert!(!calls(
            &c(Some("🖥\u{fe0f}"), "info", "Bashful $ ls"),
            "Bash"
        ));
        assert!(!calls(&c(Some("←"), "info", "Bash output"), "Bash"));
        assert!(!calls(&c(None, "info", "Bash $ ls"), "Bash"));
        assert!(!calls(&c(Some("🖥\u{fe0f}"), "error", "Bash $ ls"), "Bash"));
    }

    #[test]
    fn find_folds_ascii_only() {
        assert_eq!(find("Hello ENOENT there", "enoent"), Some(6));
        assert_eq!(find("aÄb", "ä"), None);
        assert_eq!(find("ab", "abc"), None);
        assert_eq!(find("50% _x_ *", "% _X_ *"), Some(2));
    }
}
