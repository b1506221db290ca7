//! Usage: tokens and cost per day, agent, model or project ([`By`], [`UsageGroup`]), as SQL for
//! both backends and as `GET /api/usage`'s JSON.

use super::query::*;

/// How `GET /api/usage` groups sessions, one group and the answer: the contract's.
pub use contract::usage::{By, Usage, UsageGroup};

/// Adds models of no price to a group's (kept sorted, each once).
pub fn add_models(to: &mut Vec<String>, models: &[String]) {
    for m in models {
        if let Err(i) = to.binary_search(m) {
            to.insert(i, m.clone());
        }
    }
}

/// Adds a session's models of no price (`unpriced`, the column's text) to its group's
/// (`key`, as [`unpriced_sql`] answers it).
pub fn add_unpriced(groups: &mut [UsageGroup], key: Option<&str>, unpriced: Option<&str>) {
    if let Some(g) = groups.iter_mut().find(|g| g.key.as_deref() == key) {
        add_models(&mut g.unpriced_models, &list_of::<String>(unpriced));
    }
}

/// The JSON of `GET /api/usage` and `hiveterm usage --json`: `{"by", "since", "groups",
/// "total"}`.
pub fn usage_json(by: By, since: Option<f64>, groups: &[UsageGroup]) -> Usage {
    Usage::of(by, since, groups.to_vec())
}

/// The SQL of usage by `by` since `since` (unix seconds): `day` is the SQL of a UTC day
/// (`YYYY-MM-DD`) of a unix time `{t}` (the backend's), `ph` the one placeholder. Columns: key, sessions, the four token
/// sums, the cost sum, sessions with a cost, the stated and the estimated costs' sums.
pub fn usage_sql(by: By, since: Option<f64>, day: &str, ph: &str) -> (String, Vec<Arg>) {
    let (key, filter, args) = key_and_filter(by, since, day, ph, None);
    (
        format!(
            "SELECT {key} AS k, CAST(COUNT(*) AS BIGINT), CAST(SUM(input_tokens) AS BIGINT), \
             CAST(SUM(output_tokens) AS BIGINT), CAST(SUM(cache_read_tokens) AS BIGINT), \
             CAST(SUM(cache_creation_tokens) AS BIGINT), SUM(cost), CAST(COUNT(cost) AS BIGINT), \
             SUM(CASE WHEN cost_estimated = 0 THEN cost END), \
             SUM(CASE WHEN cost_estimated <> 0 THEN cost END) \
             FROM sessions {filter} GROUP BY k"
        ),
        args,
    )
}

/// The SQL of the sessions of unknown cost that name models of no price, as [`usage_sql`]
/// groups them: columns key, `unpriced_models` (for [`add_unpriced`]).
pub fn unpriced_sql(by: By, since: Option<f64>, day: &str, ph: &str) -> (String, Vec<Arg>) {
    let (key, filter, args) = key_and_filter(
        by,
        since,
        day,
        ph,
        Some("cost IS NULL AND unpriced_models IS NOT NULL"),
    );
    (
        format!("SELECT {key} AS k, unpriced_models FROM sessions {filter}"),
        args,
    )
}

/// A group's key as SQL, the `WHERE` of `since` (and `and`), and its argument.
fn key_and_filter(
    by: By,
    since: Option<f64>,
    day: &str,
    ph: &str,
    and: Option<&str>,
) -> (String, String, Vec<Arg>) {
    let when = "COALESCE(started_at, started)";
    let key = match by {
        By::Day => day.replace("{t}", when),
        By::Agent => "agent".to_owned(),
        By::Model => "model".to_owned(),
        By::Project => "project".to_owned(),
    };
    let mut args = Vec::new();
    let mut wheres: Vec<String> = and.into_iter().map(str::to_owned).collect();
    if let Some(t) = since {
        args.push(Arg::Real(Some(t)));
        wheres.push(format!("{when} >= {ph}"));
    }
    let filter = if wheres.is_empty() {
        String::new()
    } else {
        format!("WHERE {}", wheres.join(" AND "))
    };
    (key, filter, args)
}

/// Reads `--since`/`?since=`: a day (`YYYY-MM-DD`, UTC midnight), an RFC 3339 time, or unix
/// seconds.
pub fn parse_since(s: &str) -> Option<f64> {
    let s = s.trim();
    if let Ok(t) = s.parse::<f64>() {
        return t.is_finite().then_some(t);
    }
    if s.len() == 10 {
        return parse_day(s);
    }
    // An RFC 3339 time: the classifier's reading of a log's timestamps.
    let line = format!(
        "{{\"type\":\"user\",\"timestamp\":{}}}",
        serde_json::Value::from(s)
    );
    classifier::parse_line(line.as_bytes())
        .ts
        .filter(|t| t.is_finite())
}

fn parse_day(s: &str) -> Option<f64> {
    let mut parts = s.split('-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: u32 = parts.next()?.parse().ok()?;
    let d: u32 = parts.next()?.parse().ok()?;
    if parts.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(((era * 146_097 + doe - 719_468) * 86_400) as f64)
}
