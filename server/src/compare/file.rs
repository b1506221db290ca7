//! A comparison as one HTML file (`hiveterm diff A B -o FILE.html`, issue 48): the compare
//! API's answer for two runs ([`super::api::answer_json`]), its strings redacted when asked,
//! written with the page a `hiveterm export` carries by [`onefile::compare::build`]; it opens
//! from `file://` with no request.

use std::io::Write;

use onefile::html::Assets;

use super::Side;
use super::api::answer_json;
use crate::export::files;
use crate::page::Bundle;

/// What [`write`] wrote.
#[derive(Debug, Clone, Copy)]
pub struct Written {
    /// Bytes of the whole HTML file.
    pub html_bytes: usize,
    /// Bytes of the answer before and after compression.
    pub answer_bytes: usize,
    /// Bytes of compressed answer.
    pub compressed: usize,
    /// Redactions made (when redacting).
    pub redactions: Option<u64>,
}

/// The title of two runs' comparison: `A ↔ B`, a log by its file's name.
pub fn title(a: &Side, b: &Side) -> String {
    let short = |name: &str| {
        std::path::Path::new(name)
            .file_name()
            .map_or_else(|| name.to_owned(), |n| n.to_string_lossy().into_owned())
    };
    format!("{} ↔ {}", short(&a.name), short(&b.name))
}

/// Writes the comparison of `a` and `b` with `page` to `out`: titled `title` (default
/// [`title`]), its every string redacted with `redact`.
pub fn write(
    (a, b): (&Side, &Side),
    title: Option<&str>,
    redact: bool,
    page: &Bundle,
    out: &mut dyn Write,
) -> Result<Written, String> {
    let files = files(page);
    let assets = Assets::of(&files)?;
    let title = title.map_or_else(|| self::title(a, b), str::to_owned);
    let mut answer = answer_json(a, b);
    let mut redactions = None;
    let title = if redact {
        let (json, n) = super::redact::redact_json(&answer);
        answer = json;
        let (t, findings) = classifier::redact::redact_text(&title);
        redactions = Some(n + findings.len() as u64);
        t.into_owned()
    } else {
        title
    };
    let w = onefile::compare::build(answer.as_bytes(), &title, &assets, &mut WriteRef(out))
        .map_err(|e| format!("cannot write the file: {e}"))?;
    Ok(Written {
        html_bytes: w.html_bytes,
        answer_bytes: answer.len(),
        compressed: w.compressed,
        redactions,
    })
}

/// A `&mut dyn Write` as a sized `Write`.
struct WriteRef<'a>(&'a mut dyn Write);

impl Write for WriteRef<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}
