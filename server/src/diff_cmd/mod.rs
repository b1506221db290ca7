//! `hiveterm diff A B [--json] [--db DB]`: two runs side by side — their summaries with each
//! difference, then their steps aligned around each divergence ([`classifier::compare`]).
//! A and B are log paths (a session's subagents' files read with it, as `summary` reads
//! them), or with `--db` session ids of a database (as `share` takes them).
//!
//! Contents: this file reads the two runs; `report` makes `--json`'s object (and what the
//! text shows), `text` the report for a human.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use classifier::compare::{Run, RunFold, align};
use classifier::{LogClassifier, MAX_LINE_BYTES, Summary};

use self::report::report;
use self::text::text;
use crate::classify_cmd::{Failure, open, pump, pump_session};

mod report;
mod text;

/// Arguments of `hiveterm diff`.
#[derive(clap::Args)]
pub struct Args {
    /// The first run: a log's path, or with --db a session's id.
    a: String,
    /// The second run, the same way.
    b: String,
    /// Print one JSON object (keys in docs/CLI.md) instead of a report for a human.
    #[arg(long)]
    json: bool,
    /// Read A and B as session ids of this database: a SQLite file or a `postgres://` URL.
    #[arg(long)]
    db: Option<String>,
    /// Aligned steps shown before and after each divergence.
    #[arg(long, default_value_t = 2, value_name = "STEPS")]
    pub(super) context: usize,
    /// Divergences shown with their steps (all are counted).
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub(super) most: usize,
    /// Longest line classified, in bytes (as `hiveterm classify`).
    #[arg(long, default_value_t = MAX_LINE_BYTES, value_name = "BYTES")]
    max_line_bytes: usize,
}

/// One run read: its name, summary and steps; for a stored session, the session's seq of each
/// line of the log it was read as.
pub(super) struct Side {
    pub(super) name: String,
    pub(super) summary: Summary,
    pub(super) run: Run,
    seqs: Option<Vec<u64>>,
}

impl Side {
    /// The seq a user finds the step at: the log's line, or the session's seq.
    pub(super) fn seq(&self, line: u64) -> u64 {
        self.seqs
            .as_ref()
            .and_then(|s| s.get((line as usize).wrapping_sub(1)).copied())
            .unwrap_or(line)
    }
}

/// Runs the command: exit 0 whether or not the runs diverge, 2 on a bad input (said on
/// stderr), 1 when the output cannot be written.
pub fn main(args: &Args) -> ExitCode {
    let sides = match &args.db {
        Some(db) => from_db(db, &args.a, &args.b),
        None => read_path(&args.a, args.max_line_bytes)
            .and_then(|a| Ok((a, read_path(&args.b, args.max_line_bytes)?))),
    };
    let (a, b) = match sides {
        Ok(sides) => sides,
        Err(e) => {
            eprintln!("hiveterm: {e}");
            return ExitCode::from(2);
        }
    };
    let aligned = align(&a.run, &b.run);
    let out = if args.json {
        let mut s = serde_json::to_string(&report(&a, &b, &aligned, args)).unwrap_or_default();
        s.push('\n');
        s
    } else {
        text(&a, &b, &aligned, args)
    };
    match io::stdout().lock().write_all(out.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hiveterm: cannot write: {e}");
            ExitCode::FAILURE
        }
    }
}

fn read_path(path: &str, limit: usize) -> Result<Side, String> {
    let path = PathBuf::from(path);
    let (mut input, name) = open(Some(&path))?;
    let mut log = LogClassifier::with_limit(limit.max(1)).with_whole_summary();
    let mut fold = RunFold::new();
    pump_session(Some(&path), (&mut input, &name), &mut log, |env| {
        fold.add(&env);
        Ok(())
    })
    .map_err(|(failure, name)| match failure {
        Failure::Read(e) => format!("cannot read {name}: {e}"),
        Failure::Write(e) => format!("cannot write: {e}"),
    })?;
    Ok(Side {
        name,
        summary: log.summary().unwrap_or_default(),
        run: fold.finish(),
        seqs: None,
    })
}

fn from_db(db: &str, a: &str, b: &str) -> Result<(Side, Side), String> {
    crate::share_cmd::on_store(db, async |store| {
        Ok((read_session(store, a).await?, read_session(store, b).await?))
    })
}

/// A stored session, read as its log (its subagents' files after it, as `share --export`
/// reads it), its steps numbered by the session's seqs.
async fn read_session(store: &hiveterm::Store, id: &str) -> Result<Side, String> {
    if store
        .session_info(id)
        .await
        .map_err(|e| e.to_string())?
        .is_none()
    {
        return Err(format!("no session {id}"));
    }
    let mut main = Vec::new();
    let other = hiveterm::redacted::write_log(store, id, None, false, &mut main).await?;
    let mut seqs = vec![0; other.lines.len()];
    for (i, &line) in other.lines.iter().enumerate() {
        if let Some(s) = seqs.get_mut((line as usize).wrapping_sub(1)) {
            *s = i as u64 + 1;
        }
    }
    let mut log = LogClassifier::new().with_whole_summary();
    let mut fold = RunFold::new();
    let mut add = |env: classifier::TermEnvelope| {
        fold.add(&env);
        Ok(())
    };
    let failed = |_| format!("cannot read session {id}");
    pump(&mut main.as_slice(), &mut log, &mut add).map_err(failed)?;
    for (agent, bytes) in &other.files {
        log = log.next_file(Some(agent));
        pump(&mut bytes.as_slice(), &mut log, &mut add).map_err(failed)?;
    }
    Ok(Side {
        name: id.to_owned(),
        summary: log.summary().unwrap_or_default(),
        run: fold.finish(),
        seqs: Some(seqs),
    })
}
