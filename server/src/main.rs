//! The `hiveterm` command line: see `hiveterm --help` and SPEC.md §4.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod classify_cmd;

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Classify(args) => classify_cmd::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("hiveterm: {err}");
            ExitCode::FAILURE
        }
    }
}
