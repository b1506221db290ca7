//! `hiveterm export [PATH|-] -o FILE.html [--redact] [--title T] [--range A-B]`: a log as one
//! HTML file that opens anywhere with no server (`hiveterm::export`).

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use classifier::MAX_LINE_BYTES;
use hiveterm::export::{self, Options, Subagent, parse_range};
use hiveterm::page::{self, Bundle};

use crate::classify_cmd::open;

/// Arguments of `hiveterm export`.
#[derive(clap::Args)]
pub struct Args {
    /// The log to read; `-` or nothing reads standard input.
    path: Option<PathBuf>,
    /// The HTML file to write.
    #[arg(short = 'o', long = "output", value_name = "FILE.html")]
    output: PathBuf,
    /// Redact secrets (as `hiveterm redact`) from every line before anything is classified.
    #[arg(long)]
    redact: bool,
    /// The title the page shows (default: the log's file name).
    #[arg(long)]
    title: Option<String>,
    /// Keep only the rows of lines A to B (1-based, inclusive; rows keep their line numbers).
    #[arg(long, value_name = "A-B", value_parser = parse_range)]
    range: Option<(u64, u64)>,
    /// Take the page from this built directory (`dist/`) instead of the one this binary
    /// carries.
    #[arg(long = "static", value_name = "DIR")]
    static_dir: Option<PathBuf>,
    /// Longest line classified, in bytes (as `hiveterm classify`).
    #[arg(long, default_value_t = MAX_LINE_BYTES, value_name = "BYTES")]
    max_line_bytes: usize,
}

pub fn run(args: &Args) -> Result<(), String> {
    let started = Instant::now();
    let page = page_of(args.static_dir.as_ref())?;
    let (mut input, name) = open(args.path.as_ref())?;
    let name = args
        .path
        .as_ref()
        .filter(|p| p.as_os_str() != "-")
        .and_then(|p| p.file_name())
        .map_or(name, |n| n.to_string_lossy().into_owned());
    let opts = Options {
        redact: args.redact,
        range: args.range,
        title: args.title.clone(),
        max_line_bytes: args.max_line_bytes,
        // A log file carries no notes (a server session's do: `share … --export`).
        notes: Vec::new(),
    };
    // A session's subagents' files beside it go in too (as `hiveterm classify` reads them).
    let mut subagents = Vec::new();
    for file in hiveterm::session_files::subagent_files(args.path.as_ref()) {
        let (input, name) = open(Some(&file.path))?;
        subagents.push(Subagent {
            input,
            name,
            agent: file.agent,
        });
    }
    write_file(
        &mut input,
        subagents,
        &name,
        &page,
        &opts,
        &args.output,
        started,
    )
}

/// The page an export carries: the one built in `dir`, else the one this binary carries.
pub(crate) fn page_of(dir: Option<&PathBuf>) -> Result<Arc<Bundle>, String> {
    match dir {
        Some(dir) => Ok(Arc::new(Bundle::from_dir(dir)?)),
        None => page::embedded().ok_or_else(|| page::NOT_EMBEDDED.to_owned()),
    }
}

/// Exports the log read from `input` to `output` (as `hiveterm export` does, and
/// `hiveterm share … --export`), then says on standard error what was written, in how long
/// since `started`.
pub(crate) fn write_file(
    input: &mut dyn Read,
    subagents: Vec<Subagent>,
    name: &str,
    page: &Bundle,
    opts: &Options,
    output: &Path,
    started: Instant,
) -> Result<(), String> {
    // Written next to the target and renamed over it at the end: a failed export leaves no
    // half file behind.
    let tmp = output.with_extension("html.part");
    let file = File::create(&tmp).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let result = export::export(input, subagents, name, page, opts, &mut out).and_then(|w| {
        out.flush()
            .map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
        Ok(w)
    });
    let written = match result {
        Ok(w) => w,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
    };
    std::fs::rename(&tmp, output).map_err(|e| format!("cannot write {}: {e}", output.display()))?;
    let m = &written.meta;
    let redacted = m
        .redactions
        .map(|n| format!(", {n} redaction{}", if n == 1 { "" } else { "s" }))
        .unwrap_or_default();
    eprintln!(
        "{}: {} rows of {} lines{redacted}; {:.1} MB ({:.1} MB of rows compressed to {:.1} MB) in {:.2} s",
        output.display(),
        m.envelopes,
        m.lines,
        written.html_bytes as f64 / 1e6,
        m.bytes as f64 / 1e6,
        written.compressed as f64 / 1e6,
        started.elapsed().as_secs_f64(),
    );
    Ok(())
}
