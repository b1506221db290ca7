//! Reading the sessions' index (`crate::index`): a page of `GET /api/sessions`, usage; and
//! an index argument as the driver takes it (the writers' updates use it too).

use deadpool_postgres::GenericClient;

use super::handle::pg;
use super::reader::session_row;
use crate::index::{self, Arg, By, Entry, Index, Query, Tokens, UsageGroup};
use crate::store::error::StoreError;

/// A page of the index (`crate::index`).
pub(super) async fn index_page(
    client: &impl GenericClient,
    query: &Query,
) -> Result<Vec<Entry>, StoreError> {
    let (sql, args) = index::page_sql(query, "strpos", |n| format!("${n}"));
    let stmt = client.prepare_cached(&sql).await.map_err(pg)?;
    let params: Vec<_> = args.iter().map(pg_value).collect();
    let rows = client.query(&stmt, &params).await.map_err(pg)?;
    Ok(rows
        .iter()
        .map(|r| {
            let n = |i: usize| r.get::<_, i64>(i).max(0) as u64;
            Entry {
                info: session_row(r),
                index: Index {
                    agent: r.get(7),
                    agent_version: r.get(8),
                    project: r.get(9),
                    model: r.get(10),
                    started_at: r.get(11),
                    ended_at: r.get(12),
                    outcome: r.get(13),
                    turns: n(14),
                    errors: n(15),
                    input_tokens: n(16),
                    output_tokens: n(17),
                    cache_read_tokens: n(18),
                    cache_creation_tokens: n(19),
                    cost: r.get(20),
                    first_error: r.get::<_, Option<i64>>(21).map(|s| s.max(0) as u64),
                    cost_estimated: r.get::<_, i64>(22) != 0,
                    tokens_by_model: index::list_of(r.get::<_, Option<String>>(23).as_deref()),
                    unpriced_models: index::list_of(r.get::<_, Option<String>>(24).as_deref()),
                },
            }
        })
        .collect())
}

/// Usage by `by` since `since` (`crate::index`), one group a key.
pub(super) async fn usage(
    client: &impl GenericClient,
    by: By,
    since: Option<f64>,
) -> Result<Vec<UsageGroup>, StoreError> {
    let day = "to_char(to_timestamp({t}) AT TIME ZONE 'UTC', 'YYYY-MM-DD')";
    let (sql, args) = index::usage_sql(by, since, day, "$1");
    let params: Vec<_> = args.iter().map(pg_value).collect();
    let rows = client.query(&sql, &params).await.map_err(pg)?;
    let mut groups = rows
        .iter()
        .map(|r| {
            let n = |i: usize| r.get::<_, Option<i64>>(i).unwrap_or(0).max(0) as u64;
            let sessions = n(1);
            UsageGroup {
                key: r.get(0),
                sessions,
                tokens: Tokens {
                    input: n(2),
                    output: n(3),
                    cache_read: n(4),
                    cache_creation: n(5),
                },
                cost: r.get(6),
                cost_unknown: sessions - n(7),
                cost_stated: r.get(8),
                cost_estimated: r.get(9),
                unpriced_models: Vec::new(),
            }
        })
        .collect::<Vec<_>>();
    let (sql, args) = index::unpriced_sql(by, since, day, "$1");
    let params: Vec<_> = args.iter().map(pg_value).collect();
    for r in client.query(&sql, &params).await.map_err(pg)? {
        let key: Option<String> = r.get(0);
        let unpriced: Option<String> = r.get(1);
        index::add_unpriced(&mut groups, key.as_deref(), unpriced.as_deref());
    }
    Ok(groups)
}

/// An argument as PostgreSQL takes it.
pub(super) fn pg_value(arg: &Arg) -> &(dyn tokio_postgres::types::ToSql + Sync) {
    match arg {
        Arg::Text(v) => v,
        Arg::Real(v) => v,
        Arg::Int(v) => v,
    }
}
