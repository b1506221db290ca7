//! The search index on SQLite (see `crate::store::search`): `search_rows` (one row per
//! stored envelope's row: where it is, its level, icon, summary and body) and `search_fts`, an
//! FTS5 table with the `trigram` tokenizer over its summary and body (external content: the
//! text is held once, in `search_rows`). Kept by hand, in the writer's transaction: the rows
//! of each stored event added to `search_rows` ([`index`]), and their FTS entries once, at the
//! end of the transaction ([`sync`]); emptied with the derived tables ([`clear`]).
//!
//! The index has no positions (`detail=none`): a query is each of its trigrams, quoted (`"`
//! doubled) and ANDed ([`trigrams`]), which finds every row holding the query as a substring
//! (case folded) and a few that only hold its trigrams apart; every row found is checked again
//! (`crate::store::search::Pager`). Every character is plain (`%`, `_`, `*`, `OR`).

use classifier::TermEnvelope;
use rusqlite::types::Value;
use rusqlite::{Connection, params, params_from_iter};

use crate::store::error::StoreError;
use crate::store::search::{Candidate, Cursor, RARE, SearchQuery, index_rows};

/// Adds the rows of event `seq`'s envelope to `search_rows` (an event is indexed once: a
/// second time is an error). Their FTS entries are added by [`sync`], once for many events.
pub(super) fn index(
    conn: &Connection,
    session: &str,
    seq: u64,
    env: &TermEnvelope,
) -> Result<(), StoreError> {
    let (ts, rows) = index_rows(env);
    let mut insert = conn.prepare_cached(
        "INSERT INTO search_rows(session, seq, rowno, ts, level, icon, summary, body)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    for r in rows {
        insert.execute(params![
            session, seq as i64, r.row, ts, r.level, r.icon, r.summary, r.body
        ])?;
    }
    Ok(())
}

/// The last `search_rows` id: rows added after it get greater ones (what [`sync`] is given).
pub(super) fn last_id(conn: &Connection) -> Result<i64, StoreError> {
    Ok(conn
        .prepare_cached("SELECT COALESCE(MAX(id), 0) FROM search_rows")?
        .query_row([], |r| r.get(0))?)
}

/// Adds the FTS entries of the rows added after `after` ([`last_id`]). Done once a
/// transaction, outside the writer's savepoints: FTS5 writes its pending entries to disk at
/// every savepoint that touched it, so one a command would make a segment of each append
/// (and merging them was most of an import's time).
/// Also moves each session's `newest_row` on to its newest row added.
pub(super) fn sync(conn: &Connection, after: i64) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO search_fts(rowid, summary, body)
         SELECT id, summary, body FROM search_rows WHERE id > ?1",
    )?
    .execute(params![after])?;
    conn.prepare_cached(
        "UPDATE sessions SET newest_row = max(COALESCE(newest_row, n.ts), n.ts)
         FROM (SELECT session, MAX(ts) AS ts FROM search_rows WHERE id > ?1 GROUP BY session) AS n
         WHERE sessions.id = n.session",
    )?
    .execute(params![after])?;
    Ok(())
}

/// Empties the index (with the other derived tables, before a rebuild).
pub(super) fn clear(conn: &Connection) -> Result<(), StoreError> {
    conn.execute_batch(
        "INSERT INTO search_fts(search_fts) VALUES ('delete-all');
         DELETE FROM search_rows;
         UPDATE sessions SET newest_row = NULL;",
    )?;
    Ok(())
}

/// Fewest events of an agent's (project's) sessions for a scan of them in the hits' order,
/// not session by session.
const FEW_EVENTS: i64 = 50_000;

/// The events of the sessions whose `column` (`agent` or `project`, never the user's) is
/// `value`.
fn events_of(conn: &Connection, column: &str, value: &str) -> Result<i64, StoreError> {
    let sql = format!("SELECT COALESCE(SUM(last_seq), 0) FROM sessions WHERE {column} = ?1");
    Ok(conn
        .prepare_cached(&sql)?
        .query_row(params![value], |r| r.get(0))?)
}

/// How a search's candidates are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Plan {
    /// From the FTS5 index: every match, sorted (a rare query).
    Index,
    /// From `search_rows`, each row's text looked at: in the hits' order
    /// (`search_rows_newest`) until enough, for a common query, whose first page is among
    /// the newest rows; or one session's rows (`search_rows_of_event`), which are few.
    Scan,
}

/// The plan for `q`: [`Plan::Index`] when the index finds fewer than [`RARE`] matches, else
/// (and for one session's rows) [`Plan::Scan`].
fn plan(conn: &Connection, q: &SearchQuery) -> Result<Plan, StoreError> {
    if q.session.is_some() {
        return Ok(Plan::Scan);
    }
    let found: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM (SELECT rowid FROM search_fts WHERE search_fts MATCH ?1 LIMIT ?2)",
        )?
        .query_row(params![trigrams(&q.text), RARE as i64], |r| r.get(0))?;
    Ok(if (found as usize) < RARE {
        Plan::Index
    } else {
        Plan::Scan
    })
}

/// The FTS5 query of the rows that hold each trigram (three characters) of `text`: a
/// superset of those that hold `text` (at least three characters, `crate::search`).
fn trigrams(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut terms: Vec<String> = chars
        .windows(3)
        .map(|w| w.iter().collect::<String>().replace('"', "\"\""))
        .collect();
    terms.sort_unstable();
    terms.dedup();
    terms
        .iter()
        .map(|t| format!("\"{t}\""))
        .collect::<Vec<_>>()
        .join(" AND ")
}

/// The next `n` candidates of `q` after `after`, in the hits' order, by the plan
/// [`plan`] picks for it.
pub(super) fn candidates(
    conn: &Connection,
    q: &SearchQuery,
    after: Option<&Cursor>,
    n: usize,
) -> Result<Vec<Candidate>, StoreError> {
    let plan = plan(conn, q)?;
    // The cheap conditions first: a scan looks at a row's text only if they hold.
    let mut conds: Vec<String> = Vec::new();
    let mut args: Vec<Value> = Vec::new();
    if plan == Plan::Index {
        conds.push("search_fts MATCH ?".to_owned());
        args.push(Value::Text(trigrams(&q.text)));
    }
    if let Some(session) = &q.session {
        conds.push("r.session = ?".to_owned());
        args.push(Value::Text(session.clone()));
    }
    if let Some(level) = q.level {
        conds.push("r.level = ?".to_owned());
        args.push(Value::Text(level.to_owned()));
    }
    if let Some(since) = q.since {
        conds.push("r.ts >= ?".to_owned());
        args.push(Value::Real(since));
    }
    if let Some(c) = after {
        conds.push("(r.ts, r.session, r.seq, r.rowno) < (?, ?, ?, ?)".to_owned());
        args.extend([
            Value::Real(c.ts),
            Value::Text(c.session.clone()),
            Value::Integer(c.seq as i64),
            Value::Integer(i64::from(c.row)),
        ]);
    }
    if let Some(tool) = &q.tool {
        // A call of the tool is an info row with an icon whose summary starts with its name
        // (the classifier's reading decides, in `Pager::take`).
        conds.push(
            "r.level = 'info' AND r.icon IS NOT NULL AND substr(r.summary, 1, length(?)) = ?"
                .to_owned(),
        );
        args.extend([Value::Text(tool.clone()), Value::Text(tool.clone())]);
    }
    // An agent's (project's) sessions: a scan starts at the newest of their `newest_row`
    // (their rows may all be old). Read session by session and sorted when they hold few
    // events, else in the hits' order (`+` keeps SQLite from the sessions' index, which it
    // takes for the smaller read, and then sorts a hundred thousand rows).
    for (column, value) in [("agent", &q.agent), ("project", &q.project)] {
        let Some(value) = value else { continue };
        let few = plan == Plan::Index || events_of(conn, column, value)? < FEW_EVENTS;
        let session = if few { "r.session" } else { "+r.session" };
        conds.push(format!(
            "{session} IN (SELECT id FROM sessions WHERE {column} = ?)"
        ));
        conds.push(format!(
            "r.ts <= (SELECT MAX(newest_row) FROM sessions WHERE {column} = ?)"
        ));
        args.extend([Value::Text(value.clone()), Value::Text(value.clone())]);
    }
    if plan == Plan::Scan {
        // `lower` folds ASCII only, as the hits do (`find` checks each again).
        conds.push("(instr(lower(r.summary), ?) > 0 OR instr(lower(r.body), ?) > 0)".to_owned());
        let folded = q.text.to_ascii_lowercase();
        args.extend([Value::Text(folded.clone()), Value::Text(folded)]);
    }
    args.push(Value::Integer(n as i64));
    let from = match plan {
        Plan::Index => "search_fts JOIN search_rows r ON r.id = search_fts.rowid",
        Plan::Scan => "search_rows r",
    };
    const ORDER: &str = "ORDER BY r.ts DESC, r.session DESC, r.seq DESC, r.rowno DESC";
    // The rows sorted first by their places only (the texts are read for the page alone).
    let sql = format!(
        "SELECT r.ts, r.session, r.seq, r.rowno, r.level, r.icon, r.summary, r.body
         FROM search_rows r WHERE r.id IN (SELECT r.id FROM {from} WHERE {} {ORDER} LIMIT ?)
         {ORDER}",
        conds.join(" AND ")
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(params_from_iter(args), |r| {
        Ok(Candidate {
            at: Cursor {
                ts: r.get(0)?,
                session: r.get(1)?,
                seq: r.get::<_, i64>(2)? as u64,
                row: r.get(3)?,
            },
            level: r.get(4)?,
            icon: r.get(5)?,
            summary: r.get(6)?,
            body: r.get(7)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

#[cfg(test)]
mod tests {
    use super::trigrams;

    #[test]
    fn a_query_is_its_trigrams_each_once_quoted() {
        let check = |q: &str, want: &str| assert_eq!(trigrams(q), want, "{q}");
        check("abc", r#""abc""#);
        check("abcd", r#""abc" AND "bcd""#);
        check("aaaaa", r#""aaa""#);
        check("rm -rf", r#"" -r" AND "-rf" AND "m -" AND "rm ""#);
        check(r#"a"bc"#, r#""""bc" AND "a""b""#);
        check("x OR y", r#"" OR" AND "OR " AND "R y" AND "x O""#);
        check("äöüß", r#""äöü" AND "öüß""#);
    }
}
