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
use crate::store::StoreError;
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

/// A row's text holds `$1` (lowercase ASCII), ASCII case folded (`translate` folds exactly
/// A-Z, as the hits do): what a scan in the hits' order looks at, with no index.
const SCAN_TEST: &str = "(strpos(translate(summary, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', \
    'abcdefghijklmnopqrstuvwxyz'), $1) > 0 OR strpos(translate(body, \
    'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), $1) > 0)";

/// Whether the trigram indexes find `pattern` fewer than [`RARE`] times: then its matches
/// are read from them and sorted; a commoner one (and one session's rows, which are few) is
/// looked for in the rows in the hits' order (`search_rows_newest`), where its first page is
/// near.
async fn rare(client: &impl GenericClient, pattern: &str) -> Result<bool, StoreError> {
    let stmt = client
        .prepare_cached(
            "SELECT count(*) FROM (SELECT 1 FROM search_rows
             WHERE summary ILIKE $1 OR body ILIKE $1 LIMIT $2) AS found",
        )
        .await
        .map_err(pg)?;
    let found: i64 = client
        .query_one(&stmt, &[&pattern, &(RARE as i64)])
        .await
        .map_err(pg)?
        .get(0);
    Ok((found as usize) < RARE)
}

/// The next `n` candidates of `q` after `after`, in the hits' order (session ids compared
/// bytewise, `COLLATE "C"`, as SQLite does).
pub(super) async fn candidates(
    client: &impl GenericClient,
    q: &SearchQuery,
    after: Option<&Cursor>,
    n: usize,
) -> Result<Vec<Candidate>, StoreError> {
    let pattern = pattern(&q.text);
    let folded = q.text.to_ascii_lowercase();
    let n = n as i64;
    let scan = q.session.is_some() || !rare(client, &pattern).await?;
    let (first, test): (&(dyn ToSql + Sync), &str) = if scan {
        (&folded, SCAN_TEST)
    } else {
        (&pattern, "(summary ILIKE $1 OR body ILIKE $1)")
    };
    let mut args: Vec<&(dyn ToSql + Sync)> = vec![first, &n];
    let mut sql = format!(
        "SELECT ts, session, seq, rowno, level, icon, summary, body FROM search_rows WHERE {test}"
    );
    if let Some(session) = &q.session {
        args.push(session);
        sql.push_str(&format!(" AND session = ${}", args.len()));
    }
    if let Some(level) = &q.level {
        args.push(level);
        sql.push_str(&format!(" AND level = ${}", args.len()));
    }
    if let Some(agent) = &q.agent {
        args.push(agent);
        sql.push_str(&format!(
            " AND session IN (SELECT id FROM sessions WHERE agent = ${})",
            args.len()
        ));
    }
    if let Some(project) = &q.project {
        args.push(project);
        sql.push_str(&format!(
            " AND session IN (SELECT id FROM sessions WHERE project = ${})",
            args.len()
        ));
    }
    if let Some(tool) = &q.tool {
        // A call of the tool is an info row with an icon whose summary starts with its name
        // (the classifier's reading decides, in `Pager::take`).
        args.push(tool);
        sql.push_str(&format!(
            " AND level = 'info' AND icon IS NOT NULL AND left(summary, char_length(${0})) = ${0}",
            args.len()
        ));
    }
    if let Some(since) = &q.since {
        args.push(since);
        sql.push_str(&format!(" AND ts >= ${}", args.len()));
    }
    let cursor;
    if let Some(c) = after {
        cursor = (c.seq as i64, i32::try_from(c.row).unwrap_or(i32::MAX));
        let i = args.len();
        args.extend([
            &c.ts as &(dyn ToSql + Sync),
            &c.session,
            &cursor.0,
            &cursor.1,
        ]);
        sql.push_str(&format!(
            " AND (ts, session COLLATE \"C\", seq, rowno) < (${}, ${} COLLATE \"C\", ${}, ${})",
            i + 1,
            i + 2,
            i + 3,
            i + 4
        ));
    }
    sql.push_str(" ORDER BY ts DESC, session COLLATE \"C\" DESC, seq DESC, rowno DESC LIMIT $2");
    let rows = client.query(&sql, &args).await.map_err(pg)?;
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

#[cfg(test)]
mod tests {
    #[test]
    fn pattern_escapes_the_wildcards() {
        assert_eq!(super::pattern(r"a%b_c\d*"), r"%a\%b\_c\\d*%");
    }
}
