//! One-file export: a log → one HTML file holding the page, the log's rows and its summary,
//! that opens from disk (`file://`), a mail attachment or any static host with no server and
//! no network request. `hiveterm export` (server/src/export_cmd.rs) and the page's "save as
//! one file" (in its classifier worker, app/src/worker_export.rs) make it with this crate, so
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
//! summary (`hiveterm summary --json`) is computed here and embedded too ([`Meta`]).
//!
//! Contents:
//! - [`Exporter`]: lines framed with the one line limit, redacted first with
//!   [`Options::redact`] ([`classifier::redact::redact_line`]: the secret is gone from the
//!   rows, bodies and summary alike; each redaction listed in a [`Report`] for review),
//!   classified with the context of every line before them (so a range's rows are the same
//!   rows as in the whole log), kept when in [`Options::range`], folded into the summary when
//!   kept; out come JSON lines to compress, and the [`Meta`].
//! - [`Deflater`]: raw DEFLATE in pieces; the bytes do not depend on how they are cut.
//! - [`html`]: the file's layout given the page's files ([`html::Assets`], the wasm
//!   deflated), its CSP and boot script.
//! - [`text7`]: the deflated bytes as text a `<script>` holds, 7 bits a character.
//! - [`build`]: all of it in one call, on one thread (the page's worker, tests).

pub mod html;
pub mod text7;

use classifier::event::line_event;
use classifier::redact::{Finding, redact_line};
use classifier::{ClassifyCtx, Line, LineReader, Summary, SummaryFold, classify_log_event};
use miniz_oxide::deflate::core::{CompressorOxide, create_comp_flags_from_zip_params};
use miniz_oxide::deflate::stream::deflate;
use miniz_oxide::{MZFlush, MZStatus};
use serde::Serialize;

/// What to export.
#[derive(Debug, Clone)]
pub struct Options {
    /// Redact secrets from every line first.
    pub redact: bool,
    /// Keep only the rows of these lines (1-based, inclusive).
    pub range: Option<(u64, u64)>,
    /// The title shown by the page; default: the log's name.
    pub title: Option<String>,
    /// The longest line classified whole (as `hiveterm classify`).
    pub max_line_bytes: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            redact: false,
            range: None,
            title: None,
            max_line_bytes: classifier::MAX_LINE_BYTES,
        }
    }
}

/// What was exported: the facts the page reads first (`meta` in the file).
#[derive(Debug, Clone, Serialize)]
pub struct Meta {
    /// Version of this layout.
    pub format: u32,
    /// The page's title.
    pub title: String,
    /// The log's name (its file name).
    pub name: String,
    /// Physical lines read (with a range: up to its end).
    pub lines: u64,
    /// Envelopes embedded (those with rows).
    pub envelopes: u64,
    /// Bytes of the embedded envelopes (JSON lines) before compression.
    pub bytes: u64,
    /// The range kept, if any.
    pub range: Option<(u64, u64)>,
    /// Redactions made, when redacting.
    pub redactions: Option<u64>,
    /// The kept lines' summary.
    pub summary: Summary,
}

/// Redactions listed one by one in a [`Report`] (all are counted).
pub const REPORT_ITEMS: usize = 1000;

/// One redaction, for review.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Redaction {
    /// The line it is in (1-based).
    pub seq: u64,
    /// What it was (`anthropic_key`, …: [`classifier::redact::Kind::as_str`]).
    pub kind: &'static str,
    /// A masked preview (`sk-a… (108 chars)`).
    pub preview: String,
}

/// The redactions made, for a human to review before the file leaves or a redacted share's
/// link is sent: the shape of a redacted share's report (docs/API.md, server/src/redacted.rs
/// serialises this one), `{"count", "events", "items", "truncated"}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Redactions in all.
    pub count: u64,
    /// Lines with at least one.
    pub events: u64,
    /// The first [`REPORT_ITEMS`] redactions.
    pub items: Vec<Redaction>,
    /// Whether `items` stopped before `count`.
    pub truncated: bool,
}

impl Report {
    /// The redactions made in line `seq` (none: nothing to count), listed while fewer than
    /// [`REPORT_ITEMS`] are. The one bookkeeping of the export's report and of a redacted
    /// share's (server/src/redacted.rs).
    pub fn add(&mut self, seq: u64, findings: &[Finding]) {
        if findings.is_empty() {
            return;
        }
        self.count += findings.len() as u64;
        self.events += 1;
        for f in findings {
            if self.items.len() < REPORT_ITEMS {
                self.items.push(Redaction {
                    seq,
                    kind: f.kind.as_str(),
                    preview: f.preview.clone(),
                });
            }
        }
        self.truncated = self.count > self.items.len() as u64;
    }
}

/// Parses `A-B` (1-based lines, inclusive, `A` ≤ `B`).
pub fn parse_range(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("bad range {s:?}: expected A-B, line numbers with A <= B");
    let (a, b) = s.split_once('-').ok_or_else(bad)?;
    let a: u64 = a.trim().parse().map_err(|_| bad())?;
    let b: u64 = b.trim().parse().map_err(|_| bad())?;
    if a == 0 || a > b {
        return Err(bad());
    }
    Ok((a, b))
}

/// Bytes of JSON lines worth handing to the compressor at a time ([`Exporter::take`]).
pub const PIECE: usize = 1024 * 1024;
/// DEFLATE level: zlib's default balance of size and time (to be tuned with
/// `scripts/bench-export.sh`).
pub const LEVEL: u8 = 6;

/// A log's lines → the kept envelopes as JSON lines, the summary, the redactions. Feed it
/// bytes cut anywhere ([`push`](Self::push)), take the JSON lines as they come
/// ([`take`](Self::take)), then [`finish`](Self::finish).
#[derive(Debug)]
pub struct Exporter {
    reader: LineReader,
    lines: Lines,
}

/// What the lines make, apart from the reader that frames them (so a line handed out by the
/// reader can be stepped while it is borrowed).
#[derive(Debug)]
struct Lines {
    opts: Options,
    ctx: ClassifyCtx,
    fold: SummaryFold,
    envelopes: u64,
    bytes: u64,
    report: Report,
    out: Vec<u8>,
}

impl Exporter {
    /// An export with `opts`.
    pub fn new(opts: Options) -> Exporter {
        Exporter {
            reader: LineReader::with_limit(opts.max_line_bytes.max(1)),
            lines: Lines {
                opts,
                ctx: ClassifyCtx::new(),
                fold: SummaryFold::new(),
                envelopes: 0,
                bytes: 0,
                report: Report::default(),
                out: Vec::new(),
            },
        }
    }

    /// The next bytes of the log; whether more are wanted (not once a range is complete).
    pub fn push(&mut self, chunk: &[u8]) -> bool {
        let Exporter { reader, lines } = self;
        reader.push(chunk, |line| lines.step(line));
        self.wants_more()
    }

    fn wants_more(&self) -> bool {
        self.lines
            .opts
            .range
            .is_none_or(|(_, b)| self.reader.lines_seen() < b)
    }

    /// The JSON lines made so far, if at least `min` bytes.
    pub fn take(&mut self, min: usize) -> Option<Vec<u8>> {
        let out = &mut self.lines.out;
        (!out.is_empty() && out.len() >= min).then(|| std::mem::take(out))
    }

    /// The redactions so far.
    pub fn report(&self) -> &Report {
        &self.lines.report
    }

    /// Ends the log (a last line without a newline counts when wanted): the file's facts,
    /// the JSON lines not taken yet, and the redactions.
    pub fn finish(mut self, name: &str) -> (Meta, Vec<u8>, Report) {
        if self.wants_more() {
            let Exporter { reader, lines } = &mut self;
            reader.finish(|line| lines.step(line));
        }
        let Exporter { reader, lines: l } = self;
        let lines = match l.opts.range {
            Some((_, b)) => reader.lines_seen().min(b),
            None => reader.lines_seen(),
        };
        let meta = Meta {
            format: 1,
            title: l.opts.title.clone().unwrap_or_else(|| name.to_owned()),
            name: name.to_owned(),
            lines,
            envelopes: l.envelopes,
            bytes: l.bytes,
            range: l.opts.range,
            redactions: l.opts.redact.then_some(l.report.count),
            summary: l.fold.summary(),
        };
        (meta, l.out, l.report)
    }
}

/// One line: redacted, classified, kept or not. Lines past the range are not looked at
/// (so what is counted does not depend on how the input was cut).
impl Lines {
    fn step(&mut self, line: Line) {
        let Lines {
            opts,
            ctx,
            fold,
            envelopes,
            bytes,
            report,
            out,
        } = self;
        if opts.range.is_some_and(|(_, b)| line.number > b) {
            return;
        }
        let line = if opts.redact {
            let r = redact_line(&line.bytes);
            if r.findings.is_empty() {
                line
            } else {
                report.add(line.number, &r.findings);
                Line {
                    bytes: r.line.into_owned(),
                    ..line
                }
            }
        } else {
            line
        };
        let event = line_event(&line);
        let mut env = classify_log_event(&event, ctx);
        env.seq = Some(line.number);
        if opts.range.is_some_and(|(a, _)| line.number < a) {
            return;
        }
        fold.add(&event.event, &env);
        if env.msgs.is_empty() {
            return;
        }
        let at = out.len();
        // Serialising an envelope cannot fail (no maps with non-string keys, no I/O).
        let _ = serde_json::to_writer(&mut *out, &env);
        out.push(b'\n');
        *bytes += (out.len() - at) as u64;
        *envelopes += 1;
    }
}

/// Raw DEFLATE (RFC 1951, no header: what `DecompressionStream("deflate-raw")` reads),
/// written in pieces.
pub struct Deflater {
    z: Box<CompressorOxide>,
    out: Vec<u8>,
    buf: Vec<u8>,
}

impl Deflater {
    /// At `level` (0–10).
    pub fn new(level: u8) -> Deflater {
        let flags = create_comp_flags_from_zip_params(i32::from(level), -15, 0);
        Deflater {
            z: Box::new(CompressorOxide::new(flags)),
            out: Vec::new(),
            buf: vec![0; 256 * 1024],
        }
    }

    /// Compresses the next bytes.
    pub fn write(&mut self, mut input: &[u8]) {
        while !input.is_empty() {
            let r = deflate(&mut self.z, input, &mut self.buf, MZFlush::None);
            self.out.extend_from_slice(&self.buf[..r.bytes_written]);
            input = &input[r.bytes_consumed..];
            if r.status.is_err() || (r.bytes_consumed == 0 && r.bytes_written == 0) {
                break;
            }
        }
    }

    /// Ends the stream; the compressed bytes.
    pub fn finish(mut self) -> Vec<u8> {
        loop {
            let r = deflate(&mut self.z, &[], &mut self.buf, MZFlush::Finish);
            self.out.extend_from_slice(&self.buf[..r.bytes_written]);
            if !matches!(r.status, Ok(MZStatus::Ok)) {
                break;
            }
        }
        self.out
    }
}

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

/// Standard base64 with padding (RFC 4648 §4).
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
