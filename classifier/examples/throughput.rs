//! Throughput of `classify` against the floor of just parsing the JSON (issue 2, "How fast").
//!
//! `cargo run --release --example throughput -p classifier -- MODE FILE`, MODE being:
//! - `floor`: read FILE in 256 KiB chunks, split lines with [`LineReader`], parse every line
//!   into a `serde_json::Value`, nothing else;
//! - `classify`: the same reading through a [`LogClassifier`] (as `hiveterm classify` does);
//!   each envelope lives only until the next line, as in a streaming consumer;
//! - `summary`: `classify` with the summary fold on (`LogClassifier::with_summary`, as the
//!   page's worker and `hiveterm summary` run it).
//!
//! Prints wall time, CPU time, lines, MB/s and peak RSS, then one `RESULT key=value ...` line
//! for scripts (scripts/bench-classify.sh). CPU time (`/proc/self/schedstat`) is what to compare
//! on a busy machine, where the wall time also counts the time spent waiting for a core; peak
//! RSS is `VmHWM` from `/proc/self/status` (both Linux only, "unknown" elsewhere). Both modes
//! stream: memory stays flat whatever the file's size.

use std::fs::File;
use std::io::{ErrorKind, Read};
use std::process::ExitCode;
use std::time::Instant;

use classifier::{LineReader, LogClassifier, TermEnvelope};

/// How much of the file is read at a time (as `hiveterm classify` does).
const CHUNK: usize = 256 * 1024;

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Floor,
    Classify,
    Summary,
}

/// What each mode sums, so that no work can be optimised away.
#[derive(Default)]
struct Tally {
    lines: u64,
    /// floor: lines that parsed as JSON; classify: rows produced.
    items: u64,
    /// floor: top-level keys of parsed objects; classify: bytes of row summaries and bodies.
    weight: u64,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mode, path) = match args.as_slice() {
        [m, p] if m == "floor" => (Mode::Floor, p),
        [m, p] if m == "classify" => (Mode::Classify, p),
        [m, p] if m == "summary" => (Mode::Summary, p),
        _ => {
            eprintln!("usage: throughput floor|classify|summary FILE");
            return ExitCode::from(2);
        }
    };
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("cannot open {path}: {e}");
            return ExitCode::FAILURE;
        }
    };

    let start = Instant::now();
    let cpu_start = cpu_ns();
    let mut tally = Tally::default();
    let mut bytes = 0u64;
    let mut reader = LineReader::new();
    let mut log = if mode == Mode::Summary {
        LogClassifier::new().with_summary()
    } else {
        LogClassifier::new()
    };
    let mut buf = vec![0u8; CHUNK];
    let mut floor = |line: classifier::Line| {
        tally.lines += 1;
        if let Ok(value) = serde_json::from_slice::<serde_json::Value>(&line.bytes) {
            tally.items += 1;
            tally.weight += value.as_object().map_or(0, |o| o.len() as u64);
        }
    };
    let mut rows = 0u64;
    let mut weight = 0u64;
    let mut envelopes = 0u64;
    let mut classified = |env: TermEnvelope| {
        envelopes += 1;
        rows += env.msgs.len() as u64;
        weight += env
            .msgs
            .iter()
            .map(|m| (m.summary.len() + m.body.as_ref().map_or(0, |b| b.len())) as u64)
            .sum::<u64>();
    };
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => {
                eprintln!("cannot read {path}: {e}");
                return ExitCode::FAILURE;
            }
        };
        bytes += n as u64;
        match mode {
            Mode::Floor => reader.push(&buf[..n], &mut floor),
            Mode::Classify | Mode::Summary => log.feed(&buf[..n], &mut classified),
        }
    }
    match mode {
        Mode::Floor => reader.finish(&mut floor),
        Mode::Classify | Mode::Summary => {
            log.finish(&mut classified);
            tally = Tally {
                lines: envelopes,
                items: rows,
                weight,
            };
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let cpu = cpu_start
        .zip(cpu_ns())
        .map(|(a, b)| b.saturating_sub(a) as f64 / 1e9);
    let cpu_text = cpu.map_or("unknown".to_owned(), |c| format!("{c:.4}"));

    let mb = bytes as f64 / 1e6;
    let rss_kb = peak_rss_kb();
    let name = match mode {
        Mode::Floor => "floor",
        Mode::Classify => "classify",
        Mode::Summary => "summary",
    };
    let what = match mode {
        Mode::Floor => "parsed",
        Mode::Classify | Mode::Summary => "rows",
    };
    if let Some(s) = log.summary() {
        println!(
            "summary: {} turns, {} tool calls, {} errors",
            s.turns,
            s.tool_calls.values().sum::<u64>(),
            s.errors
        );
    }
    println!(
        "{name}: {secs:.3} s wall, {cpu_text} s CPU, {} lines, {mb:.1} MB, {:.1} MB/s, peak RSS {}; {what} {}, check {}",
        tally.lines,
        mb / secs,
        rss_kb.map_or("unknown".to_owned(), |k| format!(
            "{:.1} MB",
            k as f64 / 1024.0
        )),
        tally.items,
        tally.weight,
    );
    println!(
        "RESULT mode={name} secs={secs:.4} cpu_secs={cpu_text} lines={} bytes={bytes} mb_per_s={:.1} peak_rss_kb={}",
        tally.lines,
        mb / secs,
        rss_kb.map_or("unknown".to_owned(), |k| k.to_string()),
    );
    ExitCode::SUCCESS
}

/// The process's peak resident set size in KiB (`VmHWM`), where /proc has it.
fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// CPU time this (single-threaded) process has run so far, in nanoseconds.
fn cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}
