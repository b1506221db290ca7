//! Reading the sessions' index (`crate::index`): a page of `GET /api/sessions`, usage; and
//! an index argument as the driver takes it (the writers' updates use it too).

use rusqlite::Connection;

use super::reader::session_row;
use crate::index::{self, Arg, By, Entry, Index, Query, Tokens, UsageGroup};
use crate::store::error::StoreError;

/// A page of the index (`crate::index`).
pub(super) fn index_page(conn: &Connection, query: &Query) -> Result<Vec<Entry>, StoreError> {
    let (sql, args) = index::page_sql(query, "instr", |n| format!("?{n}"));
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(
        rusqlite::params_from_iter(args.iter().map(sql_value)),
        |r| {
            let n = |i: usize| -> rusqlite::Result<u64> { Ok(r.get::<_, i64>(i)?.max(0) as u64) };
            Ok(Entry {
                info: session_row(r)?,
                index: Index {
                    agent: r.get(7)?,
                    agent_version: r.get(8)?,
                    project: r.get(9)?,
                    model: r.get(10)?,
                    started_at: r.get(11)?,
                    ended_at: r.get(12)?,
                    outcome: r.get(13)?,
                    turns: n(14)?,
                    errors: n(15)?,
                    input_tokens: n(16)?,
                    output_tokens: n(17)?,
                    cache_read_tokens: n(18)?,
                    cache_creation_tokens: n(19)?,
                    cost: r.get(20)?,
                    first_error: r.get::<_, Option<i64>>(21)?.map(|s| s.max(0) as u64),
                    cost_estimated: r.get::<_, i64>(22)? != 0,
                    tokens_by_model: index::list_of(r.get::<_, Option<String>>(23)?.as_deref()),
                    unpriced_models: index::list_of(r.get::<_, Option<String>>(24)?.as_deref()),
                },
            })
        },
    )?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Usage by `by` since `since` (`crate::index`), one group a key.
pub(super) fn usage(
    conn: &Connection,
    by: By,
    since: Option<f64>,
) -> Result<Vec<UsageGroup>, StoreError> {
    let day = "strftime('%Y-%m-%d', {t}, 'unixepoch')";
    let (sql, args) = index::usage_sql(by, since, day, "?1");
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map(
        rusqlite::params_from_iter(args.iter().map(sql_value)),
        |r| {
            let n = |i: usize| -> rusqlite::Result<u64> {
                Ok(r.get::<_, Option<i64>>(i)?.unwrap_or(0).max(0) as u64)
            };
            let sessions = n(1)?;
            Ok(UsageGroup {
                key: r.get(0)?,
                sessions,
                tokens: Tokens {
                    input: n(2)?,
                    output: n(3)?,
                    cache_read: n(4)?,
                    cache_creation: n(5)?,
                },
                cost: r.get(6)?,
                cost_unknown: sessions - n(7)?,
                cost_stated: r.get(8)?,
                cost_estimated: r.get(9)?,
                unpriced_models: Vec::new(),
            })
        },
    )?;
    let mut groups: Vec<UsageGroup> = rows.collect::<Result<_, _>>()?;
    let (sql, args) = index::unpriced_sql(by, since, day, "?1");
    let mut stmt = conn.prepare(&sql)?;
    let mut rows = stmt.query(rusqlite::params_from_iter(args.iter().map(sql_value)))?;
    while let Some(r) = rows.next()? {
        let key: Option<String> = r.get(0)?;
        let unpriced: Option<String> = r.get(1)?;
        index::add_unpriced(&mut groups, key.as_deref(), unpriced.as_deref());
    }
    Ok(groups)
}

/// An argument as SQLite takes it.
pub(super) fn sql_value(arg: &Arg) -> rusqlite::types::Value {
    use rusqlite::types::Value;
    match arg {
        Arg::Text(Some(s)) => Value::Text(s.clone()),
        Arg::Real(Some(x)) => Value::Real(*x),
        Arg::Int(Some(n)) => Value::Integer(*n),
        Arg::Text(None) | Arg::Real(None) | Arg::Int(None) => Value::Null,
    }
}
