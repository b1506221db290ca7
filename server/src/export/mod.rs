//! One-file export: a log → one HTML file holding the page, the log's rows and its summary,
//! that opens from disk (`file://`), a mail attachment or any static host with no server and
//! no network request (`hiveterm export`, docs/CLI.md).
//!
//! What is inside: not the raw log (158 MB benchmark transcript: 31.9 MB gzipped, over the
//! 13.4 MB target) but its **envelopes** — the rows `hiveterm classify` prints, as JSON lines, only those with
//! rows — compressed with raw DEFLATE (`miniz_oxide`), which the browser inflates natively
//! (`DecompressionStream("deflate-raw")`, no decoder in the bundle). The file opens without
//! classifying anything: the page only parses rows. (Their size on the benchmark transcript:
//! `scripts/bench-export.sh`, not yet run.) The summary (`hiveterm summary --json`)
//! is computed here and embedded too. The file's layout is in [`html`].
//!
//! Steps: lines are framed with the one line limit, redacted first with `--redact`
//! ([`classifier::redact::redact_line`]: the secret is gone from the rows, bodies and summary
//! alike), classified with the context of every line before them (so a range's rows are the
//! same rows as in the whole log), kept when in `--range`, and folded into the summary when
//! kept. Compression runs on a second thread while classification goes on.

pub mod html;

use std::io::{self, Read, Write};
use std::sync::mpsc;

use classifier::event::line_event;
use classifier::redact::redact_line;
use classifier::{ClassifyCtx, Line, LineReader, Summary, SummaryFold, classify_log_event};
use miniz_oxide::deflate::core::{CompressorOxide, create_comp_flags_from_zip_params};
use miniz_oxide::deflate::stream::deflate;
use miniz_oxide::{MZFlush, MZStatus};
use serde::Serialize;

use crate::page::Bundle;

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
    /// Physical lines read.
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

/// What [`export`] reports.
#[derive(Debug, Clone)]
pub struct Written {
    /// The file's facts.
    pub meta: Meta,
    /// Bytes of compressed data.
    pub compressed: usize,
    /// Bytes of the whole HTML file.
    pub html_bytes: usize,
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

/// How much of the input is read at a time, and the size of the pieces handed to the
/// compressing thread.
const CHUNK: usize = 256 * 1024;
const PIECE: usize = 1024 * 1024;
/// DEFLATE level: zlib's default balance of size and time (to be tuned with
/// `scripts/bench-export.sh`).
pub const LEVEL: u8 = 6;

/// Exports the log read from `input` (named `name`) with `page` to `out`.
pub fn export(
    input: &mut dyn Read,
    name: &str,
    page: &Bundle,
    opts: &Options,
    out: &mut dyn Write,
) -> Result<Written, String> {
    let assets = html::Assets::of(page)?;
    let (tx, rx) = mpsc::sync_channel::<Vec<u8>>(4);
    let compressor = std::thread::spawn(move || {
        let mut z = Deflater::new(LEVEL);
        for piece in rx {
            z.write(&piece);
        }
        z.finish()
    });
    let classified = classify(input, name, opts, |piece| tx.send(piece).is_ok());
    drop(tx);
    let data = compressor
        .join()
        .map_err(|_| "the compressing thread failed".to_owned())?;
    let meta = classified?;
    let html_bytes = html::write(out, &assets, &meta, &data)
        .map_err(|e| format!("cannot write the file: {e}"))?;
    Ok(Written {
        meta,
        compressed: data.len(),
        html_bytes,
    })
}

/// Classifies `input`, handing the kept envelopes as JSON lines to `send` in pieces; the
/// file's facts at the end.
fn classify(
    input: &mut dyn Read,
    name: &str,
    opts: &Options,
    mut send: impl FnMut(Vec<u8>) -> bool,
) -> Result<Meta, String> {
    let mut reader = LineReader::with_limit(opts.max_line_bytes.max(1));
    let mut ctx = ClassifyCtx::new();
    let mut fold = SummaryFold::new();
    let (mut envelopes, mut bytes, mut redactions) = (0u64, 0u64, 0u64);
    let mut piece = Vec::with_capacity(PIECE + CHUNK);
    let mut sent_ok = true;
    let keep = |n: u64| opts.range.is_none_or(|(a, b)| (a..=b).contains(&n));
    let mut step = |line: Line, piece: &mut Vec<u8>| {
        let line = if opts.redact {
            let r = redact_line(&line.bytes);
            if r.findings.is_empty() {
                line
            } else {
                redactions += r.findings.len() as u64;
                Line {
                    bytes: r.line.into_owned(),
                    ..line
                }
            }
        } else {
            line
        };
        let event = line_event(&line);
        let mut env = classify_log_event(&event, &mut ctx);
        env.seq = Some(line.number);
        if !keep(line.number) {
            return;
        }
        fold.add(&event.event, &env);
        if env.msgs.is_empty() {
            return;
        }
        let at = piece.len();
        // Serialising an envelope cannot fail (no maps with non-string keys, no I/O).
        let _ = serde_json::to_writer(&mut *piece, &env);
        piece.push(b'\n');
        bytes += (piece.len() - at) as u64;
        envelopes += 1;
    };
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("cannot read {name}: {e}")),
        };
        reader.push(&buf[..n], |line| step(line, &mut piece));
        if piece.len() >= PIECE {
            sent_ok &= send(std::mem::replace(
                &mut piece,
                Vec::with_capacity(PIECE + CHUNK),
            ));
        }
        if opts.range.is_some_and(|(_, b)| reader.lines_seen() > b) {
            break;
        }
    }
    reader.finish(|line| step(line, &mut piece));
    if !piece.is_empty() {
        sent_ok &= send(piece);
    }
    if !sent_ok {
        return Err("the compressing thread stopped".to_owned());
    }
    let lines = reader.lines_seen();
    Ok(Meta {
        format: 1,
        title: opts.title.clone().unwrap_or_else(|| name.to_owned()),
        name: name.to_owned(),
        lines,
        envelopes,
        bytes,
        range: opts.range,
        redactions: opts.redact.then_some(redactions),
        summary: fold.summary(),
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse_and_bad_ones_say_why() {
        assert_eq!(parse_range("3-7"), Ok((3, 7)));
        assert_eq!(parse_range("5-5"), Ok((5, 5)));
        for bad in ["", "7", "0-3", "7-3", "a-b", "3-", "-3"] {
            assert!(parse_range(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn deflate_round_trips_in_pieces() {
        let text: Vec<u8> = (0..200_000u32)
            .flat_map(|i| format!("{{\"seq\":{i},\"msgs\":[]}}\n").into_bytes())
            .collect();
        let mut z = Deflater::new(LEVEL);
        for piece in text.chunks(70_001) {
            z.write(piece);
        }
        let packed = z.finish();
        assert!(
            packed.len() < text.len() / 5,
            "{} of {}",
            packed.len(),
            text.len()
        );
        let back = miniz_oxide::inflate::decompress_to_vec(&packed).expect("inflates");
        assert_eq!(back, text);
    }

    fn classify_all(input: &[u8], opts: &Options) -> (Meta, Vec<serde_json::Value>) {
        let mut out = Vec::new();
        let meta = classify(&mut &input[..], "t", opts, |p| {
            out.extend(p);
            true
        })
        .unwrap();
        let envs = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (meta, envs)
    }

    const LOG: &[u8] = b"{\"kind\":\"turn_start\",\"ts\":1.0,\"from\":\"operator\",\"body\":\"go\"}\n\n\
{\"kind\":\"status_changed\",\"ts\":1.5,\"status\":\"busy\"}\n\
{\"kind\":\"note\",\"ts\":2.0,\"text\":\"stderr: key sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}\n\
not json\n{\"kind\":\"turn_end\",\"ts\":3.0,\"ok\":true}";

    /// The embedded envelopes are `hiveterm classify`'s, without the rowless ones.
    #[test]
    fn envelopes_are_the_classifiers_with_rows() {
        let (meta, envs) = classify_all(LOG, &Options::default());
        let mut want = Vec::new();
        let mut log = classifier::LogClassifier::new();
        log.feed(LOG, |e| want.push(e));
        log.finish(|e| want.push(e));
        let want: Vec<_> = want
            .into_iter()
            .filter(|e| !e.msgs.is_empty())
            .map(|e| serde_json::to_value(e).unwrap())
            .collect();
        assert_eq!(envs, want);
        assert_eq!((meta.lines, meta.envelopes, meta.redactions), (6, 4, None));
        assert_eq!(meta.summary.turns_ok, 1);
        assert!(String::from_utf8_lossy(&serde_json::to_vec(&envs).unwrap()).contains("sk-ant-"));
    }

    #[test]
    fn redact_removes_the_secret_and_range_keeps_seqs() {
        let opts = Options {
            redact: true,
            range: Some((4, 5)),
            ..Options::default()
        };
        let (meta, envs) = classify_all(LOG, &opts);
        let seqs: Vec<_> = envs.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
        assert_eq!(seqs, vec![4, 5]);
        let text = serde_json::to_string(&envs).unwrap();
        assert!(!text.contains("sk-ant-"), "{text}");
        assert!(text.contains("[REDACTED:"), "{text}");
        assert_eq!(meta.redactions, Some(1));
        assert_eq!(meta.range, Some((4, 5)));
        // The summary is of the range: no turn started in it.
        assert_eq!((meta.summary.turns, meta.summary.errors), (0, 1));
    }
}
