//! A `LogClassifier` resumed at a point an earlier one passed (`line_start`, `lines_seen`,
//! `ctx`) gives exactly the envelopes the whole log gives from there — what the page's
//! worker relies on to re-read one row's body from the file instead of keeping it. Checked
//! on every fixture and hostile log, at every point a chunked read stops, with a small line
//! limit too (over-long lines, and points inside one).

#![cfg(not(target_arch = "wasm32"))]

mod logs;

use classifier::{LogClassifier, TermEnvelope};

fn check(input: &[u8], limit: usize, chunk: usize, what: &str) {
    let mut whole = Vec::new();
    let mut log = LogClassifier::with_limit(limit);
    let mut points = vec![(0, 0, log.ctx().clone())];
    for piece in input.chunks(chunk) {
        log.feed(piece, |e| whole.push(e));
        points.push((log.line_start(), log.lines_seen(), log.ctx().clone()));
    }
    log.finish(|e| whole.push(e));
    for (start, lines, ctx) in points {
        let mut again = LogClassifier::resume(limit, lines, ctx);
        let mut out: Vec<TermEnvelope> = Vec::new();
        let start = usize::try_from(start).unwrap();
        again.feed(&input[start..], |e| out.push(e));
        again.finish(|e| out.push(e));
        let from = whole.partition_point(|e| e.seq.unwrap_or(0) <= lines);
        assert_eq!(
            out,
            whole[from..],
            "{what}: resumed at byte {start}, line {lines}"
        );
    }
}

#[test]
fn a_resumed_log_gives_the_rest_of_the_whole_one() {
    for path in logs::every_log() {
        let input = std::fs::read(&path).unwrap();
        let what = path.display().to_string();
        for chunk in [1 + input.len() / 7, 4096] {
            check(&input, classifier::MAX_LINE_BYTES, chunk, &what);
        }
        check(&input, 300, 1 + input.len() / 13, &what);
    }
}

#[test]
fn line_start_counts_a_line_split_across_chunks() {
    let mut log = LogClassifier::new();
    log.feed(b"{\"kind\":\"note\",\"text\":\"a\"}\n\n{\"ki", |_| {});
    assert_eq!((log.line_start(), log.lines_seen()), (28, 2));
    log.feed(b"nd\":\"note\",\"text\":\"b\"}\r\n", |_| {});
    assert_eq!((log.line_start(), log.lines_seen()), (56, 3));
}
