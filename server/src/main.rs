//! The `hiveterm` command line: see `hiveterm --help` and `docs/CLI.md`. Parses arguments and
//! calls into the library (`hiveterm::serve`, `hiveterm::mcp`), `classify_cmd`, `export_cmd`,
//! `note_cmd`, `diff_cmd`, `redact_cmd`, `search_cmd`, `share_cmd`, `summary_cmd` or `usage_cmd`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use hiveterm::serve::{RunArgs, ServeArgs};

/// Every string of every line a log's classifier reads is allocated and freed: mimalloc does it
/// in far fewer instructions than glibc's malloc (issues 20 and 24: `hiveterm classify` within
/// its floor on every shape of log; docs/BENCHMARKS.md). It is built without transparent huge
/// pages (`no_thp`): a batch command that allocates and frees a line at a time takes fresh
/// 64 KiB pages as it goes, and a huge page has the kernel clear 2 MiB for each of them (3–7 %
/// of `hiveterm classify`'s CPU time, measured interleaved on the six benchmark logs).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod classify_cmd;
mod diff_cmd;
mod export_cmd;
mod note_cmd;
mod redact_cmd;
mod search_cmd;
mod share_cmd;
mod summary_cmd;
mod usage_cmd;

/// Shows what an AI coding agent is doing and did, one terminal-like row per event.
#[derive(Parser)]
#[command(name = "hiveterm", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Classify a log (hyperhive events, Claude Code stream-json or transcript) into rows:
    /// one JSON envelope per non-blank input line.
    Classify(classify_cmd::Args),
    /// Print a log with its secrets (API keys, tokens, passwords, private keys…) replaced by
    /// `[REDACTED:<kind>]`: the same lines in the same order, JSON kept valid. Best effort.
    Redact(redact_cmd::Args),
    /// Write a log as one HTML file (the page, its rows, its summary) that opens from disk or
    /// any static host with no server and no network request.
    Export(export_cmd::Args),
    /// Summarise a log for a postmortem: turns and how they ended, errors (and the first),
    /// tool calls, duration, tokens, cost, models, files changed; --json for one object.
    Summary(summary_cmd::Args),
    /// Two runs side by side: their summaries with each difference, then their steps aligned
    /// (tool calls with their targets and outcomes, answers, errors, turn ends) around each
    /// divergence. A and B are log paths, or with --db session ids. Exit 0 whether or not
    /// they diverge; 2 on a bad input.
    Diff(diff_cmd::Args),
    /// Make a read-only share link of a session (`/p/<token>`, printed last): a snapshot, or
    /// --live; --redact serves it redacted. --list and --revoke ID manage the links.
    Share(share_cmd::Args),
    /// Add a note to a session's rows (`A-B`, as a `#seq=A-B` link), list them (--list) or
    /// delete one (--delete ID), in a server's database (running or not).
    Note(note_cmd::Args),
    /// Tokens and cost of the sessions in a server's database, per day, agent, model or
    /// project (cost only where the logs say it; "unknown" otherwise).
    Usage(usage_cmd::Args),
    /// Search every session's rows in a server's database (running or not): the rows whose
    /// summary or body holds QUERY (3+ characters, case-insensitive), newest first.
    Search(search_cmd::Args),
    /// Serve the sessions in a server's database (running or not) to an AI coding agent: a
    /// Model Context Protocol server on stdin/stdout, read-only, redacted unless --no-redact.
    /// Tools: search, list_sessions, session_summary, session_rows, notes.
    Mcp(hiveterm::mcp::Args),
    /// Serve the agent pages: sessions in a SQLite file, fed by --follow, --stdin, --demo or
    /// POST /api/sessions/{id}/events; prints the URL.
    Serve(ServeArgs),
    /// Run an agent command (e.g. `claude -p … --output-format stream-json --verbose`) as a
    /// session and serve its page while it runs (and after, until Ctrl-C).
    Run(RunArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Classify(args) => classify_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Redact(args) => redact_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Export(args) => export_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Summary(args) => summary_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Diff(args) => Ok(diff_cmd::main(&args)),
        Command::Share(args) => share_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Note(args) => note_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Usage(args) => usage_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Search(args) => search_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Mcp(args) => hiveterm::mcp::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Serve(args) => own_prices(args.options.prices.as_deref())
            .and_then(|()| runtime())
            .and_then(|rt| {
                init_logs();
                rt.block_on(hiveterm::serve::serve(args))
                    .map(|()| ExitCode::SUCCESS)
            }),
        Command::Run(args) => own_prices(args.options.prices.as_deref())
            .and_then(|()| runtime())
            .and_then(|rt| {
                init_logs();
                rt.block_on(hiveterm::serve::run(args))
                    .map(|code| ExitCode::from(u8::try_from(code).unwrap_or(1)))
            }),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("hiveterm: {err}");
            ExitCode::FAILURE
        }
    }
}

/// `--prices FILE`: the server's summaries and index settled with them (issue 50).
fn own_prices(path: Option<&std::path::Path>) -> Result<(), String> {
    hiveterm::prices::load(path).map(hiveterm::prices::use_everywhere)
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))
}

/// Logs to stderr; `HIVETERM_LOG` (`error`, `warn`, `info`, `debug`, `trace`) sets the level.
fn init_logs() {
    let level = std::env::var("HIVETERM_LOG")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(tracing::Level::INFO);
    tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(std::io::stderr)
        .init();
}
