//! `hiveterm share`: makes, lists and revokes share links in a server's database (see
//! `hiveterm::share`), beside the server or without it. With `--export FILE.html` it makes no
//! link but the one-file export of what a snapshot share would show: the session's events
//! up to its newest (`hiveterm::redacted::write_log`) and its notes, through `hiveterm
//! export`'s writer.

use std::path::PathBuf;
use std::time::Instant;

use hiveterm::Store;
use hiveterm::share::{self, ShareOptions};

/// Arguments of `hiveterm share`.
#[derive(clap::Args)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "each flag is one of the command's options, read by clap"
)]
pub struct Args {
    /// The session to share.
    #[arg(required_unless_present_any = ["list", "revoke", "compare"])]
    session: Option<String>,
    /// Share two sessions' comparison instead (issue 48): the link shows the compare page of
    /// A and B (as `hiveterm diff --db` compares them) and nothing else.
    #[arg(
        long,
        num_args = 2,
        value_names = ["A", "B"],
        conflicts_with_all = ["session", "list", "revoke", "export", "comments"]
    )]
    compare: Option<Vec<String>>,
    /// How long the link works: `7d` (the default), `24h`, `30m`, … or `never`.
    #[arg(long, default_value = "7d")]
    expires: String,
    /// Follow the session as it grows (default: a snapshot up to its newest event now).
    #[arg(long)]
    live: bool,
    /// Serve the session redacted: secrets in its events replaced by `[REDACTED:<kind>]`
    /// (as `hiveterm redact`; best effort).
    #[arg(long)]
    redact: bool,
    /// Let the link's readers add notes too (an author name required; rate- and
    /// size-limited; the owner may delete them).
    #[arg(long)]
    comments: bool,
    /// A title for the link's readers (default: the session's).
    #[arg(long)]
    title: Option<String>,
    /// List the shares (their ids, sessions, status; never their tokens).
    #[arg(long, conflicts_with_all = ["session", "revoke"])]
    list: bool,
    /// Revoke the share with this id (from `--list`).
    #[arg(long, value_name = "ID", conflicts_with = "session")]
    revoke: Option<u64>,
    /// Make no link: write the session, up to its newest event now, as one HTML file that
    /// opens anywhere with no server (as `hiveterm export`; with `--redact`, redacted first).
    #[arg(long, value_name = "FILE.html", conflicts_with_all = ["list", "revoke", "live"])]
    export: Option<PathBuf>,
    /// With `--export`: take the page from this built directory (`dist/`) instead of the one
    /// this binary carries.
    #[arg(long = "static", value_name = "DIR", requires = "export")]
    static_dir: Option<PathBuf>,
    /// The server's address as the link's readers reach it (`http://127.0.0.1:7171`,
    /// `https://hive.example.com`): the link is printed whole, `<URL>/p/<token>` (without it,
    /// only its path).
    #[arg(long, env = "HIVETERM_BASE_URL", value_name = "URL", value_parser = base_url)]
    base_url: Option<String>,
    /// The database: a SQLite file or a `postgres://` URL (as `hiveterm serve --db`).
    #[arg(long, env = "HIVETERM_DB", default_value = "hiveterm.db")]
    db: String,
}

/// A `--base-url`: `http://` or `https://` and a host, without a query or fragment; a trailing
/// `/` dropped (the link's path is put after it).
fn base_url(url: &str) -> Result<String, String> {
    let url = url.trim().trim_end_matches('/');
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .ok_or("a base URL starts with http:// or https://")?;
    let host = rest.split('/').next().unwrap_or_default();
    if host.is_empty() || url.contains(['?', '#']) || url.contains(char::is_whitespace) {
        return Err(
            "a base URL is http(s)://host[:port][/path], without a query or fragment".into(),
        );
    }
    Ok(url.to_owned())
}

pub fn run(args: &Args) -> Result<(), String> {
    on_store(&args.db, async |store| command(store, args).await)
}

/// Runs `f` on database `db` (a running server's too: `Store::open_admin`), closed after:
/// the commands that work on a server's database (`share`, `note`).
pub(crate) fn on_store<T>(
    db: &str,
    f: impl AsyncFnOnce(&Store) -> Result<T, String>,
) -> Result<T, String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    rt.block_on(async {
        let store = Store::open_admin(db).map_err(|e| format!("{db}: {e}"))?;
        let result = f(&store).await;
        store.close().await;
        result
    })
}

async fn command(store: &Store, args: &Args) -> Result<(), String> {
    let now = hiveterm::now();
    if args.list {
        let shares = store.shares().await.map_err(|e| e.to_string())?;
        for s in &shares {
            println!(
                "{}",
                serde_json::to_string(&share::listed(s, now)).map_err(|e| e.to_string())?
            );
        }
        if shares.is_empty() {
            eprintln!("no shares");
        }
        return Ok(());
    }
    if let Some(id) = args.revoke {
        return match store.revoke_share(id, now).await {
            Ok(Some(s)) => {
                eprintln!("share {id} (session {}) is revoked", s.session);
                Ok(())
            }
            Ok(None) => Err(format!("no share {id}")),
            Err(e) => Err(e.to_string()),
        };
    }
    let options = ShareOptions {
        expires_in: share::parse_expires(&args.expires)?,
        live: args.live,
        redact: args.redact,
        title: args.title.clone(),
        comments: args.comments,
    };
    if let Some([a, b]) = args.compare.as_deref() {
        return compare(store, (a, b), &options, args, now).await;
    }
    let session = args.session.as_deref().unwrap_or_default();
    if let Some(output) = &args.export {
        return export(store, session, output, args).await;
    }
    let created = share::create(store, session, &options, now)
        .await
        .map_err(|e| e.to_string())?;
    let s = &created.share;
    let reach = match s.snapshot_seq {
        Some(seq) => format!("a snapshot up to event {seq}"),
        None => "live".to_owned(),
    };
    let until = match s.expires_at {
        Some(t) => format!("expires at {}", iso(t)),
        None => "never expires".to_owned(),
    };
    let redacted = if s.redact { ", redacted" } else { "" };
    let comments = if s.comments {
        ", readers may add notes"
    } else {
        ""
    };
    eprintln!(
        "share {} of session {}: {reach}{redacted}{comments}, {until}",
        s.id, s.session
    );
    if s.redact {
        let report = hiveterm::redacted::report_of(store, s)
            .await
            .map_err(|e| e.to_string())?;
        print_report(&report, "event");
    }
    print_link(args, &created);
    Ok(())
}

/// The link on standard output: whole with `--base-url`, else its path (said on standard
/// error).
fn print_link(args: &Args, created: &share::Created) {
    match &args.base_url {
        Some(base) => println!("{base}{}", created.url()),
        None => {
            eprintln!(
                "the link's path, after the server's address (e.g. http://127.0.0.1:7171); --base-url URL prints it whole"
            );
            println!("{}", created.url());
        }
    }
}

/// `--compare A B`: a comparison link, told as a session's is (each session's redactions
/// listed for review, `A event <seq>: …`).
async fn compare(
    store: &Store,
    (a, b): (&str, &str),
    options: &ShareOptions,
    args: &Args,
    now: f64,
) -> Result<(), String> {
    let created = share::compare::create(store, (a, b), options, now)
        .await
        .map_err(|e| e.to_string())?;
    let s = &created.share;
    let reach = match (s.snapshot_seq, s.compare_seq) {
        (Some(upto_a), Some(upto_b)) => format!("snapshots up to events {upto_a} and {upto_b}"),
        _ => "live".to_owned(),
    };
    let until = match s.expires_at {
        Some(t) => format!("expires at {}", iso(t)),
        None => "never expires".to_owned(),
    };
    let redacted = if s.redact { ", redacted" } else { "" };
    eprintln!(
        "share {} comparing sessions {a} and {b}: {reach}{redacted}, {until}",
        s.id
    );
    if s.redact {
        let [ra, rb] = share::compare::reports(store, s)
            .await
            .map_err(|e| e.to_string())?;
        print_report(&ra, "A event");
        print_report(&rb, "B event");
    }
    print_link(args, &created);
    Ok(())
}

/// `--export`: the session's log as a snapshot share shows it, exported to `output`.
async fn export(
    store: &Store,
    session: &str,
    output: &std::path::Path,
    args: &Args,
) -> Result<(), String> {
    let started = Instant::now();
    let page = crate::export_cmd::page_of(args.static_dir.as_ref())?;
    let info = store
        .session_info(session)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("no session {session}"))?;
    // Raw here: the export redacts (and counts what it redacts) before classifying.
    let mut log = Vec::new();
    let other =
        hiveterm::redacted::write_log(store, session, Some(info.last_seq), false, &mut log).await?;
    // A session's other files (its subagents' files) are read after it, as
    // `hiveterm export` reads them beside a log; its notes' rows are where their lines go.
    let line_of = |seq: u64| -> u64 {
        let i = (seq as usize).wrapping_sub(1);
        other.lines.get(i).copied().unwrap_or(seq)
    };
    let subagents = other
        .files
        .into_iter()
        .map(|(agent, bytes)| hiveterm::export::Subagent {
            input: Box::new(std::io::Cursor::new(bytes)),
            name: agent.clone(),
            agent: Some(agent),
        })
        .collect();
    // The session's id (the file's name) and title, redacted as a redacted share's are; a
    // title given is the reader's.
    let (name, own) = if args.redact {
        let redact = |s: &str| classifier::redact::redact_text(s).0.into_owned();
        (redact(session), redact(&info.title))
    } else {
        (session.to_owned(), info.title)
    };
    let title = args.title.clone().or(Some(own).filter(|t| !t.is_empty()));
    // Its notes, read-only in the file (redacted with the rows when it is).
    let notes = store
        .notes(session)
        .await
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|mut n| {
            let (a, b) = (line_of(n.from), line_of(n.to));
            (n.from, n.to) = (a.min(b), a.max(b));
            n
        })
        .collect();
    let opts = hiveterm::export::Options {
        redact: args.redact,
        title,
        notes,
        ..hiveterm::export::Options::default()
    };
    crate::export_cmd::write_file(
        &mut &log[..],
        subagents,
        &name,
        &page,
        &opts,
        output,
        started,
    )
}

/// The redactions of a redacted share on standard error, one a line, for review (as
/// `hiveterm redact --report`).
fn print_report(review: &contract::share::Review, event: &str) {
    let report = &review.report;
    for item in &report.items {
        eprintln!("{event} {}: {} {}", item.seq, item.kind, item.preview);
    }
    let count = report.count;
    let more = if report.truncated {
        format!(" (the first {} listed)", hiveterm::redacted::REPORT_ITEMS)
    } else {
        String::new()
    };
    eprintln!(
        "{count} redaction{} on {} events{more}; pattern redaction is best effort: review the rows before sending the link",
        if count == 1 { "" } else { "s" },
        report.events
    );
}

/// Unix seconds as an ISO 8601 UTC time (`2026-12-01T18:30:00Z`).
fn iso(t: f64) -> String {
    let secs = t.floor() as i64;
    let (days, rem) = (secs.div_euclid(86400), secs.rem_euclid(86400));
    let (year, month, day) = classifier::civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn iso_times() {
        let check = |t: f64, expect: &str| assert_eq!(super::iso(t), expect);
        check(0.0, "1970-01-01T00:00:00Z");
        check(951_782_400.0, "2000-02-29T00:00:00Z");
        check(1_796_149_800.5, "2026-12-01T18:30:00Z");
    }
}
