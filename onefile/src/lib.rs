//! One-file export: a log → one HTML file holding the page, the log's rows and its summary,
//! that opens from disk (`file://`), a mail attachment or any static host with no server and
//! no network request. `hiveterm export` (server/src/export_cmd.rs) and the page's "save as
//! one file" (in its classifier worker, app/src/worker/export.rs) make it with this crate, so
//! the same log, options and page give the same file, byte for byte.
//!
//! Pure, like the classifier: no I/O, no clock, no thread. Bytes come in by
//! [`Exporter::push`]; the file goes out through `impl Write` ([`html::write`]). Reading the
//! log and the page's files, and where the compression runs, is the caller's.
//!
//! What is inside: not the raw log (158 MB benchmark transcript: 31.9 MB gzipped, over the
//! 13.4 MB target) but its **envelopes** — the rows `hiveterm classify` prints, as JSON
//! lines, only those with rows — compressed with raw DEFLATE ([`Deflater`], `miniz_oxide`),
//! which the browser inflates natively (`DecompressionStream("deflate-raw")`, no decoder in
//! the bundle). The file opens without classifying anything: the page only parses rows. The
//! summary (`hiveterm summary --json`) is computed here and embedded too ([`Meta`]), and so
//! are the notes on the log's rows given in [`Options::notes`] ([`Note`]: read-only in the
//! file, redacted with the rows).
//!
//! Contents:
//! - [`Exporter`]: lines framed with the one line limit, redacted first with
//!   [`Options::redact`] (one [`classifier::redact::Redactor`] over the log: the secret is gone from the
//!   rows, bodies and summary alike; each redaction listed in a [`Report`] for review),
//!   classified with the context of every line before them (so a range's rows are the same
//!   rows as in the whole log), kept when in [`Options::range`], folded into the summary when
//!   kept; out come JSON lines to compress, and the [`Meta`].
//! - [`Deflater`]: raw DEFLATE in pieces; the bytes do not depend on how they are cut.
//! - [`html`]: the file's layout given the page's files ([`html::Assets`], the wasm
//!   deflated), its CSP and boot script.
//! - [`text7`]: the deflated bytes as text a `<script>` holds, 7 bits a character.
//! - [`build`]: all of it in one call, on one thread (the page's worker, tests).
//! - [`compare`]: two runs aligned (the compare API's answer) as one file, the same layout
//!   without the workers (`hiveterm diff A B -o FILE.html`).

mod base64;
pub mod compare;
mod deflate;
mod export;
pub mod html;
mod meta;
pub mod text7;

pub use crate::base64::{base64, base64_url};
pub use crate::deflate::Deflater;
pub use crate::export::Exporter;
pub use crate::meta::{Meta, Note, Options, REPORT_ITEMS, Reader, Redaction, Report, parse_range};

/// Bytes of JSON lines worth handing to the compressor at a time ([`Exporter::take`]).
pub const PIECE: usize = 1024 * 1024;
/// DEFLATE level: zlib's default balance of size and time (to be tuned with
/// `scripts/bench-export.sh`).
pub const LEVEL: u8 = 6;
/// What [`build`] wrote.
#[derive(Debug, Clone)]
pub struct Written {
    /// The file's facts.
    pub meta: Meta,
    /// The redactions made (empty without [`Options::redact`]).
    pub report: Report,
    /// Bytes of compressed data.
    pub compressed: usize,
    /// Bytes of the whole HTML file.
    pub html_bytes: usize,
}

/// The whole export on one thread: the log's `chunks` (cut anywhere), named `name`, with the
/// page's `assets`, written to `out`. The same bytes as an export that compresses on another
/// thread ([`Exporter::take`] pieces to a [`Deflater`] there).
pub fn build<C: AsRef<[u8]>>(
    chunks: impl IntoIterator<Item = C>,
    name: &str,
    assets: &html::Assets,
    opts: &Options,
    out: &mut impl std::io::Write,
) -> std::io::Result<Written> {
    let mut ex = Exporter::new(opts.clone());
    let mut z = Deflater::new(LEVEL);
    for chunk in chunks {
        let more = ex.push(chunk.as_ref());
        if let Some(piece) = ex.take(PIECE) {
            z.write(&piece);
        }
        if !more {
            break;
        }
    }
    let (meta, rest, report) = ex.finish(name);
    z.write(&rest);
    let data = z.finish();
    let html_bytes = html::write(out, assets, &meta, &data)?;
    Ok(Written {
        meta,
        report,
        compressed: data.len(),
        html_bytes,
    })
}

#[cfg(test)]
mod tests;
