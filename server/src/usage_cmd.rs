//! `hiveterm usage [--by day|agent|model|project] [--since DATE] [--db DB] [--json]`: the
//! tokens and cost of the sessions in a server's database, per day, agent, model or project —
//! the sums of the sessions' index columns (`hiveterm::index`), what `GET /api/usage` answers.
//! Beside a running server or without it, as `hiveterm note` does.

use std::fmt::Write as _;
use std::io::{self, Write};

use hiveterm::Store;
use hiveterm::index::{By, UsageGroup, parse_since, usage_json};

/// Arguments of `hiveterm usage`.
#[derive(clap::Args)]
pub struct Args {
    /// Group by `day` (UTC, the day the session's log starts), `agent`, `model` or `project`.
    #[arg(long, default_value = "day", value_parser = ["day", "agent", "model", "project"])]
    by: String,
    /// Only sessions that started at or after this: a day (`YYYY-MM-DD`, UTC), an RFC 3339
    /// time or unix seconds.
    #[arg(long, value_name = "DATE")]
    since: Option<String>,
    /// Print one JSON object (`GET /api/usage`'s) instead of a table.
    #[arg(long)]
    json: bool,
    /// Your own prices over the built-in table (a JSON file, docs/CLI.md#prices): the sessions
    /// whose logs state no cost are priced again with them.
    #[arg(long, value_name = "FILE")]
    prices: Option<std::path::PathBuf>,
    /// The database: a SQLite file or a `postgres://` URL (as `hiveterm serve --db`).
    #[arg(long, env = "HIVETERM_DB", default_value = "hiveterm.db")]
    db: String,
}

pub fn run(args: &Args) -> Result<(), String> {
    let by = By::parse(&args.by).ok_or_else(|| format!("--by {} is not a grouping", args.by))?;
    let since = match &args.since {
        None => None,
        Some(s) => Some(parse_since(s).ok_or_else(|| {
            format!("--since {s:?} is not a day (YYYY-MM-DD), a time or unix seconds")
        })?),
    };
    let prices = match &args.prices {
        Some(path) => Some(hiveterm::prices::load(Some(path))?),
        None => None,
    };
    let groups = crate::share_cmd::on_store(&args.db, async |store: &Store| {
        match &prices {
            Some(p) => store.usage_priced(by, since, p).await,
            None => store.usage(by, since).await,
        }
        .map_err(|e| e.to_string())
    })?;
    let text = if args.json {
        let mut json = serde_json::to_string(&usage_json(by, since, &groups)).unwrap_or_default();
        json.push('\n');
        json
    } else {
        table(by, &groups)
    };
    match io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(format!("cannot write: {e}")),
        _ => Ok(()),
    }
}

/// A group's cost as a human reads it: the sum of the costs known (stated and estimated),
/// `unknown` when none is, and how many sessions' cost is not known.
fn cost(g: &UsageGroup) -> String {
    match (g.cost, g.cost_unknown) {
        (None, _) => "unknown".to_owned(),
        (Some(c), 0) if g.cost_estimated.is_some() => format!("≈ ${c:.4}"),
        (Some(c), 0) => format!("${c:.4}"),
        (Some(c), n) if g.cost_estimated.is_some() => format!("≈ ${c:.4} (+{n} unknown)"),
        (Some(c), n) => format!("${c:.4} (+{n} unknown)"),
    }
}

/// The stated or the estimated part of a group's cost (`-` when none).
fn part(usd: Option<f64>, mark: &str) -> String {
    usd.map_or("-".to_owned(), |c| format!("{mark}${c:.4}"))
}

/// The table for a human: a row a group, then the total.
fn table(by: By, groups: &[UsageGroup]) -> String {
    let mut total = UsageGroup::default();
    let mut rows = vec![[
        by.name().to_owned(),
        "sessions".to_owned(),
        "input".to_owned(),
        "output".to_owned(),
        "cache read".to_owned(),
        "cache write".to_owned(),
        "stated".to_owned(),
        "estimated".to_owned(),
        "cost".to_owned(),
    ]];
    let row = |key: &str, g: &UsageGroup| {
        [
            key.to_owned(),
            g.sessions.to_string(),
            g.tokens.input.to_string(),
            g.tokens.output.to_string(),
            g.tokens.cache_read.to_string(),
            g.tokens.cache_creation.to_string(),
            part(g.cost_stated, ""),
            part(g.cost_estimated, "≈ "),
            cost(g),
        ]
    };
    for g in groups {
        total.add(g);
        rows.push(row(g.key.as_deref().unwrap_or("(unknown)"), g));
    }
    rows.push(row("total", &total));
    let mut widths = [0; 9];
    for r in &rows {
        for (w, cell) in widths.iter_mut().zip(r) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for r in &rows {
        let mut line = String::new();
        for (i, (cell, w)) in r.iter().zip(widths).enumerate() {
            match i {
                0 | 8 => {
                    let _ = write!(line, "{cell:<w$}  ");
                }
                _ => {
                    let _ = write!(line, "{cell:>w$}  ");
                }
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
