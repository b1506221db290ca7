use super::*;
use crate::worker::classify::tests::every_fixture;
use crate::worker::trigrams::Trigrams;

/// Every envelope of one pass over the whole file (the hits of a full pass are read from it).
fn full_pass(input: &[u8]) -> Vec<TermEnvelope> {
    let mut log = LogClassifier::new();
    let mut envs = Vec::new();
    log.feed(input, |env| envs.push(env));
    log.finish(|env| envs.push(env));
    envs
}

/// The hits of a full pass: what a search must find.
fn hits_in(envs: &[TermEnvelope], query: &str) -> Vec<(u64, u32)> {
    let mut hits = Vec::new();
    for env in envs {
        search_env(env, query, &mut hits);
    }
    hits
}

/// `input` classified by the worker's `Classifier` up to byte `upto` (all of it when
/// `upto` is its length), a checkpoint every `every` bytes.
fn classified(input: &[u8], upto: usize, every: u64) -> Classifier {
    let mut c = Classifier::new();
    for piece in input[..upto].chunks(1500) {
        c.push_every(piece, every);
    }
    if upto == input.len() {
        c.finish();
    }
    c
}

/// The search driven as the worker drives it: its hits and the bytes it read.
fn search(input: &[u8], c: &Classifier, query: &str) -> (Vec<(u64, u32)>, u64) {
    let mut s = Search::new(query, classifier::MAX_LINE_BYTES);
    let total = input.len() as u64;
    let mut hits = Vec::new();
    while let Some((from, to)) = s.next_read(c, total) {
        assert!(from < to, "{from}..{to}");
        hits.extend(s.push(&input[from as usize..to as usize], to, c, total));
    }
    assert!(s.is_done());
    (hits, s.work().0)
}

/// Queries: pieces of real bodies at many places and lengths (some across lines of a body,
/// some with their case changed), short ones, and ones found nowhere.
fn queries(envs: &[TermEnvelope]) -> Vec<String> {
    let bodies: Vec<&String> = envs
        .iter()
        .flat_map(|e| &e.msgs)
        .filter_map(|m| m.body.as_ref())
        .collect();
    let mut qs: Vec<String> = [
        "",
        "a",
        "fn",
        "FN",
        "the",
        "error",
        "Error:",
        "\n",
        "\"",
        "\\",
        "\\n",
        "\\u",
        "{\"",
        "→",
        "é",
        "⏺",
        "$ ",
        "exit",
        "zzzqqq",
        "not in any body at all",
        "```",
        "│",
        "+ ",
        "- ",
        "<tool_use_error>",
        "\t",
        "  ",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    for (i, b) in bodies.iter().enumerate().step_by(4) {
        for len in [3, 4, 7, 12, 30] {
            let starts = [0, b.len() / 3, b.len() / 2, b.len().saturating_sub(len)];
            let start = starts[i % starts.len()];
            let Some(q) = b.get(start..(start + len).min(b.len())) else {
                continue;
            };
            qs.push(if i % 2 == 0 {
                q.to_owned()
            } else {
                q.to_uppercase()
            });
        }
    }
    qs.sort();
    qs.dedup();
    qs
}

#[test]
fn a_search_finds_exactly_what_a_full_pass_finds() {
    let input = every_fixture();
    let envs = full_pass(&input);
    let qs = queries(&envs);
    assert!(qs.len() > 150, "{}", qs.len());
    let mut passed_over = 0;
    // Checkpoints every 4,000 bytes (many spans, so that many are passed over), at every
    // chunk (for a few queries: each span is resumed from its own), and a log classified
    // halfway (the rest is read as it comes).
    for (upto, every, step) in [
        (input.len(), 4000, 1),
        (input.len(), 1, 9),
        (input.len() / 2, 4000, 3),
    ] {
        let c = classified(&input, upto, every);
        for q in qs.iter().step_by(step) {
            let (got, read) = search(&input, &c, q);
            assert_eq!(got, hits_in(&envs, q), "query {q:?}, classified to {upto}");
            if read < input.len() as u64 {
                passed_over += 1;
            }
        }
    }
    // The index did its work: most of these queries read only part of the file.
    assert!(passed_over > qs.len() / 2, "{passed_over} of {}", qs.len());
}

#[test]
fn a_query_no_body_holds_reads_little() {
    let input = every_fixture();
    let c = classified(&input, input.len(), 4000);
    let (hits, read) = search(&input, &c, "zq9x#qzq");
    assert!(hits.is_empty());
    assert!(read < input.len() as u64 / 10, "{read} of {}", input.len());
    // Under three bytes nothing can be passed over: the whole file is read.
    let (_, read) = search(&input, &c, "zq");
    assert_eq!(read, input.len() as u64);
}

#[test]
fn trigrams_hold_what_was_added_whatever_its_case() {
    let mut t = Trigrams::default();
    t.add("Hello, World");
    for q in ["hello", "HELLO", "o, w", "world", "lo, WoRlD", "he", ""] {
        assert!(t.may_contain(q), "{q}");
    }
    assert!(!t.may_contain("worlds"));
    assert!(t.fill() > 0.0 && t.fill() < 0.001);
}
