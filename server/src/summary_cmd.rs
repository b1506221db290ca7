//! `hiveterm summary [PATH|-] [--json]`: what a postmortem starts with — how the turns ended,
//! what went wrong first, what the run cost — for one log.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::PathBuf;

use classifier::{CostSource, LogClassifier, MAX_LINE_BYTES, Summary, duration};

use crate::classify_cmd::{Failure, open, pump_session};

/// Changed files the text report names before "and N more".
const FILES_LISTED: usize = 10;
/// Tools, models and subagents the text report names before "and N more".
const TOOLS_LISTED: usize = 20;
const MODELS_LISTED: usize = 5;
const SUBAGENTS_LISTED: usize = 20;
/// Longest name (a path, a tool, a model, a subagent's description) the text report writes,
/// in characters; a longer one is cut with `…`.
const NAME_CHARS: usize = 160;
/// Most bytes of the text report, whatever the log (issue 45.8: a log that changed 66,038
/// files and started thousands of subagents printed 410 KB). The limits above keep it far
/// under; this cut is the last word.
const MAX_REPORT_BYTES: usize = 20_000;

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
    /// Your own prices, over the built-in table (a JSON file; docs/CLI.md#prices): used when
    /// the log states no cost.
    #[arg(long, value_name = "FILE")]
    prices: Option<PathBuf>,
}

pub fn run(args: &Args) -> Result<(), String> {
    let prices = hiveterm::prices::load(args.prices.as_deref())?;
    let (mut input, name) = open(args.path.as_ref())?;
    // One pass, nothing checkpointed: the fold keeps every file (`--json` lists them all).
    let mut log = LogClassifier::with_limit(args.max_line_bytes.max(1)).with_whole_summary();
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
    let mut summary = log.summary().unwrap_or_default();
    if prices.own_models() > 0 {
        summary.settle_cost(&prices);
    }
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

/// The cost line: what the log states; else `≈ $X (estimate …)`, priced by the table; else
/// `unknown`, naming the models of no price (not $0).
fn cost(out: &mut String, s: &Summary) {
    match (s.cost_usd, s.cost_source) {
        (Some(c), Some(CostSource::Estimated)) => {
            let _ = writeln!(
                out,
                "cost       ≈ ${c:.4} (estimate: tokens × prices of {})",
                classifier::prices::DATE
            );
        }
        (Some(c), _) => {
            let _ = writeln!(out, "cost       ${c:.4}");
        }
        (None, _) if s.unpriced_models.is_empty() => out.push_str("cost       unknown\n"),
        (None, _) => {
            let names: Vec<String> = s
                .unpriced_models
                .iter()
                .take(MODELS_LISTED)
                .map(|m| name(m))
                .collect();
            let _ = writeln!(
                out,
                "cost       unknown (no price for {})",
                names.join(", ")
            );
        }
    }
}

/// `s` cut to [`NAME_CHARS`] characters.
fn name(s: &str) -> String {
    match s.char_indices().nth(NAME_CHARS) {
        Some((end, _)) => format!("{}…", &s[..end]),
        None => s.to_owned(),
    }
}

/// The short report for a human: a few lines, only what the log has, at most
/// [`MAX_REPORT_BYTES`] whatever the log: the first files, tools, models and subagents, and
/// how many more (`--json` has them all).
fn report(s: &Summary) -> String {
    let mut out = String::new();
    if let Some(agent) = &s.agent {
        let _ = write!(out, "agent      {}", name(agent));
        if let Some(v) = &s.agent_version {
            let _ = write!(out, " {}", name(v));
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
    tools(&mut out, s);
    subagents(&mut out, s);
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
    cost(&mut out, s);
    if !s.models.is_empty() {
        let shown: Vec<String> = s
            .models
            .iter()
            .take(MODELS_LISTED)
            .map(|m| name(m))
            .collect();
        let _ = write!(out, "models     {}", shown.join(", "));
        let more = (s.models.len() - shown.len()) as u64 + s.models_more;
        if more > 0 {
            let _ = write!(out, " and {more} more");
        }
        out.push('\n');
    }
    let total = s.files_changed_total();
    if total > 0 {
        // The first few; every one is in `--json` (a log can change tens of thousands).
        let shown: Vec<String> = s
            .files_changed
            .iter()
            .take(FILES_LISTED)
            .map(|f| name(f))
            .collect();
        let at_most = if s.files_changed_at_most {
            "at most "
        } else {
            ""
        };
        let _ = write!(
            out,
            "files      {at_most}{total} changed: {}",
            shown.join(", ")
        );
        let more = total - shown.len() as u64;
        if more > 0 {
            let _ = write!(out, " and {at_most}{more} more (--json lists them all)");
        }
        out.push('\n');
    }
    if out.len() > MAX_REPORT_BYTES {
        let mut end = MAX_REPORT_BYTES - "…\n".len();
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        out.truncate(end);
        out.push_str("…\n");
    }
    out
}

/// The tool calls line: the total, then the most called tools first, [`TOOLS_LISTED`] of them.
fn tools(out: &mut String, s: &Summary) {
    let _ = write!(out, "tool calls {}", s.tool_calls_total());
    if s.tool_errors > 0 {
        let _ = write!(out, " ({} failed)", s.tool_errors);
    }
    if !s.tool_calls.is_empty() {
        let mut by: Vec<(&String, &u64)> = s.tool_calls.iter().collect();
        by.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let list: Vec<String> = by
            .iter()
            .take(TOOLS_LISTED)
            .map(|(t, n)| format!("{} {n}", name(t)))
            .collect();
        let _ = write!(out, ": {}", list.join(", "));
        let more = (by.len() - list.len()) as u64 + s.tools_more;
        if more > 0 {
            let _ = write!(out, " and {more} more tools");
        }
    }
    out.push('\n');
}

/// The subagents: how many, then the first [`SUBAGENTS_LISTED`], a line each.
fn subagents(out: &mut String, s: &Summary) {
    if s.subagents > 0 {
        let _ = writeln!(out, "subagents  {}", s.subagents);
    }
    for a in s.by_subagent.iter().take(SUBAGENTS_LISTED) {
        let what = [a.agent_type.as_deref(), a.description.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" · ");
        let _ = write!(
            out,
            "  #{} {}: {} tool calls",
            a.parent,
            name(&what),
            a.tool_calls
        );
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
    if s.by_subagent.len() > SUBAGENTS_LISTED {
        let _ = writeln!(
            out,
            "  and {} more (--json lists them all)",
            s.by_subagent.len() - SUBAGENTS_LISTED
        );
    }
}
