use super::*;
use crate::LogClassifier;

fn step(seq: u64, s: &str) -> Step {
    // `Tool:target!` (a failed call), `Tool:target`, `answer`, `error:why`, `end`, `end!`.
    let (body, failed) = s.strip_suffix('!').map_or((s, false), |b| (b, true));
    let (kind, target) = match body.split_once(':') {
        Some(("error", why)) => (StepKind::Error, why),
        Some((tool, target)) => (StepKind::Tool(tool.to_owned()), target),
        None if body == "answer" => (StepKind::Answer, ""),
        None => (StepKind::End, ""),
    };
    Step {
        seq,
        kind,
        target: target.to_owned(),
        outcome: if failed { Outcome::Failed } else { Outcome::Ok },
    }
}

/// One turn per `|`-separated group of space-separated steps, seqs 1, 2, … across the run.
fn run(text: &str) -> Run {
    let mut seq = 0;
    Run {
        turns: text
            .split('|')
            .map(|t| Turn {
                seq: None,
                prompt: String::new(),
                steps: t
                    .split_whitespace()
                    .map(|s| {
                        seq += 1;
                        step(seq, s)
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// The first divergence of two runs: `(a seq, b seq, why)`.
fn check(a: &str, b: &str, expect: Option<(Option<u64>, Option<u64>, Why)>) {
    let (ra, rb) = (run(a), run(b));
    let got = align(&ra, &rb)
        .first_divergence(&ra, &rb)
        .map(|d| (d.a, d.b, d.why));
    assert_eq!(got, expect, "{a} ~ {b}");
}

#[test]
fn first_divergences_of_hand_made_pairs() {
    // Identical.
    check(
        "answer Bash:ls answer end",
        "answer Bash:ls answer end",
        None,
    );
    check("", "", None);
    // One step changed: another command, or the same one failing.
    check(
        "Bash:ls Bash:cargo-test end",
        "Bash:ls Bash:cargo-build end",
        Some((Some(2), Some(2), Why::Target)),
    );
    check(
        "Bash:ls Bash:cargo-test end",
        "Bash:ls Bash:cargo-test! end!",
        Some((Some(2), Some(2), Why::Outcome)),
    );
    // A step inserted: it faces a gap, whose seq is where the step would go.
    check(
        "Read:a.rs Edit:a.rs end",
        "Read:a.rs Read:b.rs Edit:a.rs end",
        Some((Some(2), Some(2), Why::OnlyB)),
    );
    check(
        "Read:a.rs Read:b.rs Edit:a.rs end",
        "Read:a.rs Edit:a.rs end",
        Some((Some(2), Some(2), Why::OnlyA)),
    );
    // A turn added: its steps face a gap; A's side has no such turn.
    check(
        "answer end",
        "answer end | answer end",
        Some((None, Some(3), Why::OnlyB)),
    );
    // A file only one touched.
    check(
        "Edit:a.rs Edit:b.rs end",
        "Edit:a.rs end",
        Some((Some(2), Some(2), Why::OnlyA)),
    );
    // An API error only one met.
    check(
        "error:API-Error-400 end!",
        "answer end",
        Some((Some(1), Some(1), Why::OnlyA)),
    );
}

/// Every alignment of `a` and `b` (each step once, order kept): the most it scores.
fn brute(a: &[Step], b: &[Step]) -> u32 {
    match (a.split_first(), b.split_first()) {
        (None, _) | (_, None) => 0,
        (Some((x, ra)), Some((y, rb))) => {
            let skip = brute(ra, b).max(brute(a, rb));
            score(x, y).map_or(skip, |s| skip.max(s + brute(ra, rb)))
        }
    }
}

/// Sweeps every pair of turns of up to 3 steps over 4 kinds of step: the alignment keeps each
/// step once in order, faces only steps that can face, and scores what a brute force finds.
#[test]
fn alignment_scores_the_brute_force_best_on_every_small_pair() {
    let alphabet = ["Bash:x", "Bash:y", "Read:x", "answer"];
    let mut seqs: Vec<Vec<Step>> = vec![Vec::new()];
    for len in 1..=3u32 {
        for code in 0..4usize.pow(len) {
            let mut c = code;
            seqs.push(
                (0..len)
                    .map(|i| {
                        let s = step(u64::from(i) + 1, alphabet[c % 4]);
                        c /= 4;
                        s
                    })
                    .collect(),
            );
        }
    }
    for a in &seqs {
        for b in &seqs {
            let pairs = align_steps(a, b);
            let got_a: Vec<usize> = pairs.iter().filter_map(|p| p.a).collect();
            let got_b: Vec<usize> = pairs.iter().filter_map(|p| p.b).collect();
            assert_eq!(got_a, (0..a.len()).collect::<Vec<_>>());
            assert_eq!(got_b, (0..b.len()).collect::<Vec<_>>());
            let mut total = 0;
            for p in &pairs {
                if let (Some(x), Some(y)) = (p.a, p.b) {
                    total += score(&a[x], &b[y]).expect("only steps that can face");
                }
            }
            assert_eq!(total, brute(a, b), "{a:?} ~ {b:?}");
        }
    }
}

/// Past [`MAX_CELLS`], steps face each other in order: still every step once.
#[test]
fn huge_turns_align_in_order() {
    let a: Vec<Step> = (0..2500).map(|i| step(i, "Bash:x")).collect();
    let b: Vec<Step> = (0..2000).map(|i| step(i, "Read:x")).collect();
    let pairs = align_steps(&a, &b);
    assert_eq!(pairs.len(), 2500);
    assert_eq!(
        pairs[1999],
        Pair {
            a: Some(1999),
            b: Some(1999)
        }
    );
    assert_eq!(
        pairs[2000],
        Pair {
            a: Some(2000),
            b: None
        }
    );
}

fn fixture_run(bytes: &[u8]) -> Run {
    let mut fold = RunFold::new();
    let mut log = LogClassifier::new();
    log.feed(bytes, |e| fold.add(&e));
    log.finish(|e| fold.add(&e));
    fold.finish()
}

/// Two agents doing the same scenario (the corpus's shell command) take the same steps: a
/// growing Gemini answer is one step, its rows coalesced.
#[test]
fn codex_and_gemini_running_the_same_command_do_not_diverge() {
    let codex = fixture_run(include_bytes!(
        "../../../fixtures/codex-0.171.0/codex_shell_command.stream.jsonl"
    ));
    let gemini = fixture_run(include_bytes!(
        "../../../fixtures/gemini-0.61.0/gemini.shell_command.stream.jsonl"
    ));
    let kinds = |r: &Run| -> Vec<String> {
        r.steps()
            .map(|s| format!("{:?} {} {}", s.kind, s.target, s.outcome.name()))
            .collect()
    };
    assert_eq!(
        kinds(&codex),
        [
            "Answer  ok",
            "Tool(\"Bash\") $ ls -la src && wc -l src/*.rs ok",
            "Answer  ok",
            "End  ok"
        ]
    );
    assert_eq!(kinds(&gemini), kinds(&codex));
    assert_eq!(
        align(&codex, &gemini).first_divergence(&codex, &gemini),
        None
    );
}

/// A failing command against a passing one: the first divergence is the failed call.
#[test]
fn a_failing_command_diverges_at_its_call() {
    let failing = fixture_run(include_bytes!(
        "../../../fixtures/gemini-0.61.0/gemini.failing_command.stream.jsonl"
    ));
    let passing = fixture_run(include_bytes!(
        "../../../fixtures/gemini-0.61.0/gemini.shell_command.stream.jsonl"
    ));
    let d = align(&failing, &passing)
        .first_divergence(&failing, &passing)
        .expect("they differ");
    let call = failing.steps().find(|s| s.seq == d.a.unwrap()).unwrap();
    assert!(matches!(call.kind, StepKind::Tool(_)), "{call:?}");
}
