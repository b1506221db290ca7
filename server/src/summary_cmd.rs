//! `hiveterm summary [PATH|-] [--json]`: what a postmortem starts with — how the turns ended,
//! what went wrong first, what the run cost — for one log.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::PathBuf;

use classifier::{LogClassifier, MAX_LINE_BYTES, Summary, duration};

use crate::classify_cmd::{Failure, open, pump_session};

/// Changed files the text report names before "and N more".
const FILES_LISTED: usize = 10;

/// Arguments of `hiveterm summary`.
#[derive(clap::Args)]
pub struct Args {
    /// The log to read; `-` or nothing reads standard input.
    path: Option<PathBuf>,
    /// Print one JSON object (keys in docs/CLI.md) instead of a report for a human.
    #[arg(long)]
    json: bool,
    /// Longest line classified, in bytes (as `hiveterm classify`).
    #[arg(long, default_value_t = MAX_LINE_BYTES, value_name = "BYTES")]
    max_line_bytes: usize,
}

pub fn run(args: &Args) -> Result<(), String> {
    let (mut input, name) = open(args.path.as_ref())?;
    let mut log = LogClassifier::with_limit(args.max_line_bytes.max(1)).with_summary();
    pump_session(
        args.path.as_ref(),
        (&mut input, &name),
        &mut log,
        |_| Ok(()),
    )
    .map_err(|(failure, name)| match failure {
        Failure::Read(e) => format!("cannot read {name}: {e}"),
        Failure::Write(e) => format!("cannot write: {e}"),
    })?;
    let summary = log.summary().unwrap_or_default();
    let text = if args.json {
        let mut json = serde_json::to_string(&summary).map_err(|e| e.to_string())?;
        json.push('\n');
        json
    } else {
        report(&summary)
    };
    match io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(format!("cannot write: {e}")),
        _ => Ok(()),
    }
}

/// The short report for a human: a few lines, only what the log has.
fn report(s: &Summary) -> String {
    let mut out = String::new();
    if let Some(agent) = &s.agent {
        let _ = write!(out, "agent      {agent}");
        if let Some(v) = &s.agent_version {
            let _ = write!(out, " {v}");
        }
        out.push('\n');
    }
    let mut turns = format!("turns      {} started", s.turns);
    for (n, what) in [
        (s.turns_ok, "ok"),
        (s.turns_failed, "failed"),
        (s.turns_interrupted, "interrupted"),
    ] {
        if n > 0 {
            let _ = write!(turns, ", {n} {what}");
        }
    }
    let _ = writeln!(out, "{turns}");
    if let Some(d) = s.duration_s {
        let _ = writeln!(out, "duration   {}", duration(d));
    }
    let _ = write!(out, "errors     {}", s.errors);
    if let Some(seq) = s.first_error_seq {
        let _ = write!(out, " (first at #{seq})");
    }
    let _ = write!(out, ", {} warnings", s.warnings);
    if s.lines_not_understood > 0 {
        let _ = write!(out, ", {} lines not understood", s.lines_not_understood);
    }
    out.push('\n');
    let calls: u64 = s.tool_calls.values().sum();
    let _ = write!(out, "tool calls {calls}");
    if s.tool_errors > 0 {
        let _ = write!(out, " ({} failed)", s.tool_errors);
    }
    if !s.tool_calls.is_empty() {
        let mut by: Vec<(&String, &u64)> = s.tool_calls.iter().collect();
        by.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let list: Vec<String> = by.iter().map(|(t, n)| format!("{t} {n}")).collect();
        let _ = write!(out, ": {}", list.join(", "));
    }
    out.push('\n');
    if s.subagents > 0 {
        let _ = writeln!(out, "subagents  {}", s.subagents);
    }
    for a in &s.by_subagent {
        let what = [a.agent_type.as_deref(), a.description.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" · ");
        let _ = write!(out, "  #{} {what}: {} tool calls", a.parent, a.tool_calls);
        if a.tool_errors > 0 {
            let _ = write!(out, " ({} failed)", a.tool_errors);
        }
        if a.errors > 0 {
            let _ = write!(out, ", {} errors", a.errors);
        }
        if let Some(d) = a.duration_s {
            let _ = write!(out, ", {}", duration(d));
        }
        out.push('\n');
    }
    let _ = write!(
        out,
        "tokens     {} in, {} out",
        s.input_tokens, s.output_tokens
    );
    if s.cache_read_tokens + s.cache_creation_tokens > 0 {
        let _ = write!(
            out,
            ", {} cache read, {} cache write",
            s.cache_read_tokens, s.cache_creation_tokens
        );
    }
    out.push('\n');
    // No line of the log says what it cost (Codex and Gemini never do): unknown, not $0.
    match s.cost_usd {
        Some(c) => {
            let _ = writeln!(out, "cost       ${c:.4}");
        }
        None => out.push_str("cost       unknown\n"),
    }
    if !s.models.is_empty() {
        let _ = writeln!(out, "models     {}", s.models.join(", "));
    }
    let total = s.files_changed_total();
    if total > 0 {
        // The first few; every one is in `--json` (a log can change tens of thousands).
        let shown = &s.files_changed[..s.files_changed.len().min(FILES_LISTED)];
        let _ = write!(out, "files      {total} changed: {}", shown.join(", "));
        let more = total - shown.len() as u64;
        if more > 0 {
            let _ = write!(out, " and {more} more (--json lists them all)");
        }
        out.push('\n');
    }
    out
}
