//! Issue 8's bug, the worker's side: a line over the line limit gave a JSON-syntax error row
//! in the page (the worker classified the kept head of the line as if it were the line) but
//! "over the limit" in `hiveterm classify`. The page's worker ([`app::worker::classify::Classifier`])
//! must give exactly the envelopes `hiveterm classify` gives for the same log, which
//! `server/tests/classify_cli.rs` pins in `classifier/tests/over_long/expected.jsonl`.
//!
//! Runs natively (`cargo test -p app --test over_long_line`) and compiled to wasm in headless
//! Chromium (`scripts/wasm-test.sh -p app --test over_long_line`), with the limit lowered so
//! the over-long lines are a few KB.

use app::worker::classify::Classifier;
use classifier::TermEnvelope;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// The same limit as `hiveterm classify --max-line-bytes` in the CLI's test.
const LIMIT: usize = 1024;

const LOG: &[u8] = include_bytes!("../../classifier/tests/over_long/log.jsonl");
const EXPECTED: &str = include_str!("../../classifier/tests/over_long/expected.jsonl");

/// The CLI's envelopes that have rows (the worker sends no row-less envelope).
fn expected() -> Vec<TermEnvelope> {
    EXPECTED
        .lines()
        .map(|l| serde_json::from_str::<TermEnvelope>(l).expect("an envelope"))
        .filter(|e| !e.msgs.is_empty())
        .collect()
}

/// The worker's envelopes for the log fed in `chunk`-byte slices.
fn worker(chunk: usize) -> Vec<TermEnvelope> {
    let mut c = Classifier::with_limit(LIMIT);
    let mut out = Vec::new();
    for piece in LOG.chunks(chunk) {
        out.extend(c.push(piece));
    }
    out.extend(c.finish());
    out
}

#[wasm_bindgen_test(unsupported = test)]
fn over_long_line_gives_the_same_envelopes_in_the_worker_as_in_the_cli() {
    let want = expected();
    assert_eq!(
        want.iter()
            .filter(|e| e.msgs[0].summary.contains("-byte line limit"))
            .count(),
        3,
        "the expected file holds the three over-long lines"
    );
    for chunk in [LOG.len(), 4096, 1000, 333, 7] {
        assert_eq!(worker(chunk), want, "chunks of {chunk} bytes");
    }
}
