//! `hiveterm search`: the hits of `GET /api/search` (see `hiveterm::search`) from a server's
//! database, beside the server or without it, as `hiveterm note` does: one line a hit
//! (`session seq level icon summary`), or `--json` the API's answer.

use hiveterm::search::{self, SearchParams};

/// Arguments of `hiveterm search`.
#[derive(clap::Args)]
pub struct Args {
    /// The text looked for: a substring of a row's summary or body, 3 characters at least,
    /// ASCII case folded; every character plain (`%`, `_`, `*`, quotes, `OR`).
    query: String,
    /// Only this session's rows.
    #[arg(long)]
    session: Option<String>,
    /// Only rows of this level: debug, info, warn or error.
    #[arg(long)]
    level: Option<String>,
    /// Only rows of sessions of this agent: claude-code, codex, gemini or hyperhive.
    #[arg(long)]
    agent: Option<String>,
    /// Only rows of sessions of this project (the cwd the log gives, exactly).
    #[arg(long)]
    project: Option<String>,
    /// Only calls of this tool, as the row names it (Bash, Read, Edit, github:create_issue…).
    #[arg(long)]
    tool: Option<String>,
    /// Only rows from this time on: a day (YYYY-MM-DD), an RFC 3339 time or unix seconds.
    #[arg(long)]
    since: Option<String>,
    /// At most this many hits (1-500).
    #[arg(long, default_value_t = search::DEFAULT_LIMIT)]
    limit: usize,
    /// The hits after this cursor (a `next` of an earlier answer).
    #[arg(long)]
    cursor: Option<String>,
    /// Print the API's JSON (`{"hits", "next"}`) instead of one line a hit.
    #[arg(long)]
    json: bool,
    /// The database: a SQLite file or a `postgres://` URL (as `hiveterm serve --db`).
    #[arg(long, env = "HIVETERM_DB", default_value = "hiveterm.db")]
    db: String,
}

pub fn run(args: &Args) -> Result<(), String> {
    let q = search::parse(SearchParams {
        q: Some(args.query.clone()),
        session: args.session.clone(),
        level: args.level.clone(),
        agent: args.agent.clone(),
        project: args.project.clone(),
        tool: args.tool.clone(),
        since: args.since.clone(),
        limit: Some(args.limit.to_string()),
        cursor: args.cursor.clone(),
    })?;
    let page = crate::share_cmd::on_store(&args.db, async |store| {
        store.search(q).await.map_err(|e| e.to_string())
    })?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&search::page_json(&page)).unwrap_or_default()
        );
        return Ok(());
    }
    for hit in &page.hits {
        println!(
            "{} {} {} {} {}",
            hit.at.session,
            hit.at.seq,
            hit.level,
            hit.icon.as_deref().unwrap_or("-"),
            hit.summary.replace(['\n', '\t'], " ")
        );
    }
    if let Some(next) = &page.next {
        eprintln!("more: --cursor {}", next.encode());
    }
    Ok(())
}
