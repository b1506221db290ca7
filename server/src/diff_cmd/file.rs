//! `hiveterm diff A B -o FILE.html`: the comparison as one HTML file
//! ([`hiveterm::compare::file`]), written beside its name and renamed over it at the end.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use hiveterm::compare::Side;
use hiveterm::compare::file::write;

use crate::export_cmd::page_of;

/// How the file is made: `-o`'s companions.
pub(super) struct Made<'a> {
    pub title: Option<&'a str>,
    pub redact: bool,
    pub static_dir: Option<&'a PathBuf>,
}

pub(super) fn write_file(a: &Side, b: &Side, how: &Made, output: &Path) -> Result<(), String> {
    let started = Instant::now();
    let page = page_of(how.static_dir)?;
    let tmp = output.with_extension("html.part");
    let file = File::create(&tmp).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    let mut out = BufWriter::new(file);
    let written = write((a, b), how.title, how.redact, &page, &mut out).and_then(|w| {
        out.flush()
            .map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
        Ok(w)
    });
    let w = match written {
        Ok(w) => w,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
    };
    std::fs::rename(&tmp, output).map_err(|e| format!("cannot write {}: {e}", output.display()))?;
    let redacted = w
        .redactions
        .map(|n| format!(", {n} redaction{}", if n == 1 { "" } else { "s" }))
        .unwrap_or_default();
    eprintln!(
        "{}: comparison of {} and {}{redacted}; {:.1} MB ({:.1} MB of comparison compressed to {:.1} MB) in {:.2} s",
        output.display(),
        a.name,
        b.name,
        w.html_bytes as f64 / 1e6,
        w.answer_bytes as f64 / 1e6,
        w.compressed as f64 / 1e6,
        started.elapsed().as_secs_f64(),
    );
    Ok(())
}
