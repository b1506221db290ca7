//! Where an offline log's time goes, natively: the worker's and the page's steps of
//! `app::worker` / `app::offline::reader` / `app::model::state`, each timed on its own over the same chunks
//! (issue 12). The browser adds what native code cannot show (`FileReaderSync`, the
//! structured clone, rendering): `e2e/tests/big.test.mjs` prints those phases.
//!
//! `cargo run --release -p app --example phases -- FILE [CHUNK_BYTES]`

use std::time::{Duration, Instant};

use app::model::state::{ViewState, apply_lazy};
use app::worker::classify::Classifier;
use app::worker::protocol::row_batch::strip;
use classifier::LogClassifier;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().expect("usage: phases FILE [CHUNK_BYTES]");
    let chunk: usize = args
        .get(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(app::worker::read_ahead::CHUNK);
    let bytes = std::fs::read(path).expect("read FILE");
    let mut times = [Duration::ZERO; 8];
    let names = [
        "frame lines only (LineReader)",
        "classify (LogClassifier, no summary)",
        "classify + summary fold + checkpoints (worker Classifier)",
        "strip bodies",
        "rows encoded (worker, row_batch::encode)",
        "summary to JSON (worker, per chunk)",
        "rows decoded (page, row_batch::decode)",
        "apply_lazy (page reducer)",
    ];
    // Framing alone.
    let start = Instant::now();
    let mut reader = classifier::LineReader::new();
    let mut framed = 0u64;
    for piece in bytes.chunks(chunk) {
        reader.push(piece, |l| framed += l.bytes.len() as u64);
    }
    reader.finish(|l| framed += l.bytes.len() as u64);
    assert!(framed > 0);
    times[0] = start.elapsed();
    // Classify alone.
    let start = Instant::now();
    let mut log = LogClassifier::new();
    let mut rows = 0usize;
    for piece in bytes.chunks(chunk) {
        log.feed(piece, |e| rows += e.msgs.len());
    }
    log.finish(|e| rows += e.msgs.len());
    times[1] = start.elapsed();
    // The worker's and the page's steps, chunk by chunk.
    let mut worker = Classifier::new();
    let mut state = ViewState::default();
    let mut batch_bytes = 0usize;
    let pieces: Vec<&[u8]> = bytes.chunks(chunk).collect();
    for (i, piece) in pieces.iter().enumerate() {
        let start = Instant::now();
        let mut envs = worker.push(piece);
        if i + 1 == pieces.len() {
            envs.extend(worker.finish());
        }
        times[2] += start.elapsed();
        let start = Instant::now();
        let lazy = strip(&mut envs);
        times[3] += start.elapsed();
        let start = Instant::now();
        let batch = app::worker::protocol::row_batch::encode(&envs, &lazy);
        times[4] += start.elapsed();
        batch_bytes += batch.len();
        let start = Instant::now();
        let _summary = serde_json::to_string(&worker.summary(20)).unwrap();
        times[5] += start.elapsed();
        let start = Instant::now();
        let (envs, lazy) = app::worker::protocol::row_batch::decode(&batch);
        times[6] += start.elapsed();
        let start = Instant::now();
        for env in envs {
            apply_lazy(&mut state, env, &lazy);
        }
        times[7] += start.elapsed();
    }
    let total: Duration = times[2..].iter().sum();
    println!(
        "{path}: {} MB, {} chunks of {} KiB, {rows} rows, {} rows held, {:.1} MB of row batches",
        bytes.len() / 1_000_000,
        pieces.len(),
        chunk / 1024,
        state.len(),
        batch_bytes as f64 / 1e6
    );
    for (i, name) in names.iter().enumerate() {
        let share = if i >= 2 {
            format!(
                "{:5.1} %",
                100.0 * times[i].as_secs_f64() / total.as_secs_f64()
            )
        } else {
            "   (alone)".to_owned()
        };
        println!("  {:>8.1} ms {share}  {name}", times[i].as_secs_f64() * 1e3);
    }
    println!(
        "  {:>8.1} ms 100.0 %  worker + page steps",
        total.as_secs_f64() * 1e3
    );
    converge(&bytes, chunk);
}

/// Two classifiers, one from the start and one from the middle with an empty context (a
/// second worker classifying ahead): after how many bytes their contexts are equal, from
/// where the second one's rows are exactly the first one's.
fn converge(bytes: &[u8], chunk: usize) {
    let half = bytes.len() / 2;
    let from = half
        + bytes[half..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
    let lines = bytes[..from].iter().filter(|&&b| b == b'\n').count() as u64;
    let mut whole = LogClassifier::new();
    whole.feed(&bytes[..from], |_| {});
    let mut ahead = LogClassifier::resume(classifier::MAX_LINE_BYTES, lines, Default::default());
    let mut at = from;
    while at < bytes.len() {
        let end = (at + chunk).min(bytes.len());
        let mut rows_whole = Vec::new();
        let mut rows_ahead = Vec::new();
        whole.feed(&bytes[at..end], |e| rows_whole.push(e));
        ahead.feed(&bytes[at..end], |e| rows_ahead.push(e));
        at = end;
        let same = serde_json::to_string(whole.ctx()).unwrap()
            == serde_json::to_string(ahead.ctx()).unwrap();
        if same {
            println!(
                "  a classifier started at the middle ({from} B) with an empty context agrees from {} B on ({:.1} % of the file later); rows of that chunk equal: {}",
                at,
                100.0 * (at - from) as f64 / bytes.len() as f64,
                rows_whole == rows_ahead
            );
            return;
        }
    }
    println!("  a classifier started at the middle never agrees");
}
