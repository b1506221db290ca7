//! `hiveterm redact [PATH|-] [--report]`: a log in, the same log with its secrets replaced out
//! (`classifier::redact`, one `Redactor` over the whole log), line for line.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::PathBuf;

use classifier::redact::Redactor;

/// Arguments of `hiveterm redact`.
#[derive(clap::Args)]
pub struct Args {
    /// The log to read; `-` or nothing reads standard input.
    path: Option<PathBuf>,
    /// List each redaction (line, kind, masked preview) on standard error.
    #[arg(long)]
    report: bool,
}

/// How much of the input is read at a time.
const CHUNK: usize = 256 * 1024;

pub fn run(args: &Args) -> Result<(), String> {
    let (input, name): (Box<dyn Read>, String) = match &args.path {
        Some(p) if p.as_os_str() != "-" => {
            let file = File::open(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            (Box::new(file), p.display().to_string())
        }
        _ => (Box::new(io::stdin().lock()), "standard input".to_owned()),
    };
    let mut input = BufReader::with_capacity(CHUNK, input);
    let mut out = BufWriter::with_capacity(CHUNK, io::stdout().lock());
    let mut report = args.report.then(|| BufWriter::new(io::stderr().lock()));
    let mut line = Vec::new();
    // One redaction for the whole log: a secret over several lines goes whole.
    let mut redactor = Redactor::new();
    let (mut number, mut found, mut lines_with) = (0u64, 0usize, 0u64);
    let result = loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => break Ok(()),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("cannot read {name}: {e}")),
        }
        number += 1;
        // The terminator (`\n` or `\r\n`) is kept as it was; only the content is redacted.
        let content_len = line
            .strip_suffix(b"\n")
            .map_or(line.len(), |l| l.strip_suffix(b"\r").unwrap_or(l).len());
        let redacted = redactor.redact_line(&line[..content_len]);
        if !redacted.findings.is_empty() {
            lines_with += 1;
            found += redacted.findings.len();
            if let Some(report) = &mut report {
                for f in &redacted.findings {
                    // A report that cannot be written must not stop the redacted output.
                    let _ = writeln!(report, "line {number}: {} {}", f.kind.as_str(), f.preview);
                }
            }
        }
        let written = out
            .write_all(&redacted.line)
            .and_then(|()| out.write_all(&line[content_len..]));
        if let Err(e) = written {
            break Err(e);
        }
    };
    let result = result.and_then(|()| out.flush());
    if let Some(report) = &mut report {
        let _ = writeln!(
            report,
            "{found} redaction{} on {lines_with} of {number} lines",
            if found == 1 { "" } else { "s" }
        );
        let _ = report.flush();
    }
    match result {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("cannot write: {e}")),
    }
}
