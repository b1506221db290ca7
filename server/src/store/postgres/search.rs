//! The search index on PostgreSQL (see `crate::store::search`): `search_rows` (one row per
//! stored envelope's row: where it is, its level, icon, summary and body) with a GIN
//! `pg_trgm` index on `summary` and one on `body`. The writer adds an append's rows in its
//! one statement (`super::writer`, the columns in `super::rows`); the rebuild through [`index`].
//!
//! A query is `summary ILIKE p OR body ILIKE p`, `p` the query with `\`, `%` and `_` escaped
//! between two `%`: a substring, case folded, every character plain; the trigram indexes
//! find the candidates.

use classifier::TermEnvelope;
use deadpool_postgres::GenericClient;
use tokio_postgres::types::ToSql;

use super::handle::pg;
use crate::store::error::StoreError;
use crate::store::search::{Candidate, Cursor, RARE, SearchQuery};

/// Indexes the rows of event `seq`'s envelope (replacing what was indexed for it).
pub(super) async fn index(
    client: &impl GenericClient,
    session: &str,
    seq: u64,
    env: &TermEnvelope,
) -> Result<(), StoreError> {
    let mut cols = super::rows::SearchCols::default();
    cols.push(seq, env);
    let seq = seq as i64;
    let stmt = client
        .prepare_cached("DELETE FROM search_rows WHERE session = $1 AND seq = $2")
        .await
        .map_err(pg)?;
    client.execute(&stmt, &[&session, &seq]).await.map_err(pg)?;
    let stmt = client
        .prepare_cached(
            "INSERT INTO search_rows(session, seq, rowno, ts, level, icon, summary, body)
             SELECT $1, * FROM UNNEST($2::BIGINT[], $3::INT[], $4::FLOAT8[], $5::TEXT[],
                                      $6::TEXT[], $7::TEXT[], $8::TEXT[])",
        )
        .await
        .map_err(pg)?;
    client
        .execute(
            &stmt,
            &[
                &session,
                &cols.seq,
                &cols.row,
                &cols.ts,
                &cols.level,
                &cols.icon,
                &cols.summary,
                &cols.body,
            ],
        )
        .await
        .map_err(pg)?;
    Ok(())
}

/// `text` as an `ILIKE` pattern that matches it as a substring (`\` is the escape).
fn pattern(text: &str) -> String {
    let mut p = String::with_capacity(text.len() + 8);
    p.push('%');
    for c in text.chars() {
        if matches!(c, '\\' | '%' | '_') {
            p.push('\\');
        }
        p.push(c);
    }
    p.push('%');
    p
}

/// The hits' order, and the columns of a candidate.
const ORDER: &str = "ORDER BY ts DESC, session COLLATE \"C\" DESC, seq DESC, rowno DESC";
const COLUMNS: &str = "ts, session, seq, rowno, level, icon, summary, body";

/// A place in the hits' order as the statements bind it.
type Key = (f64, String, i64, i32);

fn key(c: &Cursor) -> Key {
    (
        c.ts,
        c.session.clone(),
        c.seq as i64,
        i32::try_from(c.row).unwrap_or(i32::MAX),
    )
}

/// `q`'s filters, and a place the rows must come after, as ` AND …` conditions whose
/// placeholders start at `$first`, and their arguments.
fn conds<'a>(
    q: &'a SearchQuery,
    after: Option<&'a Key>,
    first: usize,
) -> (String, Vec<&'a (dyn ToSql + Sync)>) {
    let mut sql = String::new();
    let mut args: Vec<&'a (dyn ToSql + Sync)> = Vec::new();
    let next = |arg: &'a (dyn ToSql + Sync), args: &mut Vec<&'a (dyn ToSql + Sync)>| {
        args.push(arg);
        first + args.len() - 1
    };
    if let Some(session) = &q.session {
        let i = next(session, &mut args);
        sql.push_str(&format!(" AND session = ${i}"));
    }
    if let Some(level) = &q.level {
        let i = next(level, &mut args);
        sql.push_str(&format!(" AND level = ${i}"));
    }
    if let Some(since) = &q.since {
        let i = next(since, &mut args);
        sql.push_str(&format!(" AND ts >= ${i}"));
    }
    if let Some((ts, session, seq, row)) = after {
        let at = [
            next(ts, &mut args),
            next(session, &mut args),
            next(seq, &mut args),
            next(row, &mut args),
        ];
        sql.push_str(&format!(
            " AND (ts, session COLLATE \"C\", seq, rowno) < (${}, ${} COLLATE \"C\", ${}, ${})",
            at[0], at[1], at[2], at[3]
        ));
    }
    if let Some(tool) = &q.tool {
        // A call of the tool is an info row with an icon whose summary starts with its name
        // (the classifier's reading decides, in `Pager::take`).
        let i = next(tool, &mut args);
        sql.push_str(&format!(
            " AND level = 'info' AND icon IS NOT NULL AND left(summary, char_length(${i})) = ${i}"
        ));
    }
    if let Some(agent) = &q.agent {
        let i = next(agent, &mut args);
        sql.push_str(&format!(
            " AND session IN (SELECT id FROM sessions WHERE agent = ${i})"
        ));
    }
    if let Some(project) = &q.project {
        let i = next(project, &mut args);
        sql.push_str(&format!(
            " AND session IN (SELECT id FROM sessions WHERE project = ${i})"
        ));
    }
    (sql, args)
}

/// The rows of `sql` (whose `$1` is `text` and `$2` the limit `n`, then `more`) as candidates.
/// Never a prepared statement: each is planned for its pattern (a generic plan, which cannot
/// know it, scans the whole table).
async fn fetch(
    client: &impl GenericClient,
    sql: &str,
    text: &str,
    n: i64,
    more: Vec<&(dyn ToSql + Sync)>,
) -> Result<Vec<Candidate>, StoreError> {
    let mut args: Vec<&(dyn ToSql + Sync)> = vec![&text, &n];
    args.extend(more);
    let rows = client.query(sql, &args).await.map_err(pg)?;
    Ok(rows
        .iter()
        .map(|r| Candidate {
            at: Cursor {
                ts: r.get(0),
                session: r.get(1),
                seq: r.get::<_, i64>(2) as u64,
                row: r.get::<_, i32>(3) as u32,
            },
            level: r.get(4),
            icon: r.get(5),
            summary: r.get(6),
            body: r.get(7),
        })
        .collect())
}

/// The next `n` candidates of `q` after `after`, in the hits' order (session ids compared
/// bytewise, `COLLATE "C"`, as SQLite does), each statement planned for its pattern, so
/// PostgreSQL picks from its statistics of the texts (a target of 1,000, set by the migration).
///
/// With no filter but the text, in up to three steps, as PostgreSQL's estimates alone chose
/// badly where the matches are neither few nor many (`cargo test` in the fleet benchmark:
/// 2,600 rows, all old; the newest rows looked at one by one, 100 ms):
/// 1. the newest [`BUDGET`] rows, their texts looked at: a common query's page is there;
/// 2. else, if PostgreSQL expects at most [`RARE`] matches, every match from the trigram
///    indexes, sorted;
/// 3. else the statement as PostgreSQL plans it.
pub(super) async fn candidates(
    client: &impl GenericClient,
    q: &SearchQuery,
    after: Option<&Cursor>,
    n: usize,
) -> Result<Vec<Candidate>, StoreError> {
    let after = after.map(key);
    let (filters, args) = conds(q, after.as_ref(), 3);
    let text = pattern(&q.text);
    let only_text = q.session.is_none()
        && q.level.is_none()
        && q.since.is_none()
        && q.tool.is_none()
        && q.agent.is_none()
        && q.project.is_none();
    if only_text {
        let newest = format!(
            "SELECT {COLUMNS} FROM (SELECT {COLUMNS} FROM search_rows WHERE TRUE{filters} \
             {ORDER} LIMIT {BUDGET}) AS s WHERE (summary ILIKE $1 OR body ILIKE $1) {ORDER} LIMIT $2"
        );
        let found = fetch(client, &newest, &text, n as i64, args.clone()).await?;
        if found.len() >= n {
            return Ok(found);
        }
        if estimate(client, &text, &filters, &args).await? <= RARE as f64 {
            let every = format!(
                "WITH m AS MATERIALIZED (SELECT {COLUMNS} FROM search_rows \
                 WHERE (summary ILIKE $1 OR body ILIKE $1){filters}) \
                 SELECT {COLUMNS} FROM m {ORDER} LIMIT $2"
            );
            return fetch(client, &every, &text, n as i64, args).await;
        }
    }
    let sql = format!(
        "SELECT {COLUMNS} FROM search_rows WHERE (summary ILIKE $1 OR body ILIKE $1){filters} \
         {ORDER} LIMIT $2"
    );
    fetch(client, &sql, &text, n as i64, args).await
}

/// Rows (newest first) whose texts step 1 of [`candidates`] looks at.
const BUDGET: usize = 5000;

/// How many rows PostgreSQL expects to match (its plan's estimate).
async fn estimate(
    client: &impl GenericClient,
    text: &str,
    filters: &str,
    args: &[&(dyn ToSql + Sync)],
) -> Result<f64, StoreError> {
    // `filters` number their placeholders from $3 (after the text and the limit): $2 is
    // bound to a dummy so the numbering holds.
    let sql = format!(
        "EXPLAIN SELECT 1 FROM search_rows \
         WHERE (summary ILIKE $1 OR body ILIKE $1){filters} AND $2::BIGINT > 0"
    );
    let mut all: Vec<&(dyn ToSql + Sync)> = vec![&text, &1i64];
    all.extend(args.iter().copied());
    let rows = client.query(&sql, &all).await.map_err(pg)?;
    // The plan's top line: `<node>  (cost=a..b rows=N width=w)`.
    let top: Option<String> = rows.first().map(|r| r.get(0));
    Ok(top
        .as_deref()
        .and_then(|t| t.split(" rows=").nth(1))
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(f64::MAX))
}

#[cfg(test)]
mod tests {
    #[test]
    fn pattern_escapes_the_wildcards() {
        assert_eq!(super::pattern(r"a%b_c\d*"), r"%a\%b\_c\\d*%");
    }
}
