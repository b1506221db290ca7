use super::*;
use crate::worker::protocol::row_batch::strip;
use classifier::line_count;

fn run_split(input: &[u8], split: usize) -> Vec<TermEnvelope> {
    let mut c = Classifier::new();
    let mut out = Vec::new();
    for chunk in input.chunks(split.max(1)) {
        out.extend(c.push(chunk));
    }
    out.extend(c.finish());
    out
}

#[test]
fn chunking_does_not_change_rows() {
    let input = b"{\"kind\":\"turn_start\",\"ts\":1.0,\"from\":\"operator\",\"body\":\"go\"}\n\n\
{\"kind\":\"note\",\"ts\":2.0,\"text\":\"stderr: boom\"}\nnot json\n{\"kind\":\"turn_end\",\"ts\":3.0,\"ok\":true}";
    let whole = run_split(input, input.len());
    assert_eq!(whole.len(), 4);
    assert_eq!(
        whole.iter().map(|e| e.seq).collect::<Vec<_>>(),
        vec![Some(1), Some(3), Some(4), Some(5)]
    );
    for split in 1..input.len() {
        assert_eq!(run_split(input, split), whole, "split {split}");
    }
}
#[test]
fn classifying_the_reads_ahead_gives_the_whole_files_rows() {
    let input = every_fixture();
    let whole = run_split(&input, input.len());
    let mut c = Classifier::new();
    let mut out = Vec::new();
    for (a, b) in crate::worker::read_ahead::tests::tiles(input.len() as f64) {
        out.extend(c.push(&input[a as usize..b as usize]));
    }
    out.extend(c.finish());
    assert_eq!(out, whole);
}

#[test]
fn rowless_lines_send_no_envelope() {
    let input = b"{\"kind\":\"status_changed\",\"ts\":1.0,\"status\":\"busy\"}\n";
    assert!(run_split(input, 7).is_empty());
}

#[test]
fn the_summary_grows_with_the_file() {
    let input = b"{\"kind\":\"turn_start\",\"ts\":1.0,\"from\":\"operator\",\"body\":\"go\"}\nnot json\n{\"kind\":\"turn_end\",\"ts\":3.0,\"ok\":true}";
    let mut c = Classifier::new();
    let first = input.iter().position(|&b| b == b'\n').unwrap() + 1;
    c.push(&input[..first]);
    assert_eq!(
        (c.summary(usize::MAX).turns, c.summary(usize::MAX).errors),
        (1, 0)
    );
    c.push(&input[first..]);
    c.finish();
    let s = c.summary(usize::MAX);
    assert_eq!(
        (
            s.turns,
            s.turns_ok,
            s.errors,
            s.first_error_seq,
            s.duration_s
        ),
        (1, 1, 1, Some(2), Some(2.0))
    );
}

fn fixture(name: &str) -> Vec<u8> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut found = Vec::new();
    let mut dirs = vec![root];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "jsonl") {
                found.push(p);
            }
        }
    }
    found.sort();
    let mut all = Vec::new();
    for p in found
        .iter()
        .filter(|p| p.display().to_string().contains(name))
    {
        all.extend(std::fs::read(p).unwrap());
        if all.last() != Some(&b'\n') {
            all.push(b'\n');
        }
    }
    all
}

/// Every fixture, one after another: a log with every kind of body.
pub(crate) fn every_fixture() -> Vec<u8> {
    fixture("")
}

#[test]
fn line_counts_are_those_of_str_lines() {
    let pieces = [
        "", "a", "\n", "\r\n", "\n\n", "é", "\u{a}x", "\x0b", "\u{8a}",
    ];
    for a in pieces {
        for b in pieces {
            for at in 0..18 {
                let text = format!("{}{a}{}{b}", "x".repeat(at), "\n".repeat(at % 4));
                assert_eq!(line_count(&text), text.lines().count(), "{text:?}");
            }
        }
    }
}

#[test]
fn stripped_bodies_are_read_again_exactly() {
    let input = every_fixture();
    assert!(input.len() > 10_000);
    for (chunk, every) in [(997, 1), (4096, 5000), (input.len(), 1)] {
        let mut c = Classifier::new();
        let mut whole = Vec::new();
        for piece in input.chunks(chunk) {
            whole.extend(c.push_every(piece, every));
        }
        whole.extend(c.finish());
        let mut meta = whole.clone();
        let lazy = strip(&mut meta);
        assert!(lazy.len() > 50, "{}", lazy.len());
        assert!(meta.iter().all(|e| e.msgs.iter().all(|m| m.body.is_none())));
        // Asked one by one and all at once, every body comes back as classified.
        let want: Vec<(u64, u32)> = lazy.iter().map(|&(s, i, _)| (s, i)).collect();
        let body = |seq: u64, idx: u32| {
            let env = whole.iter().find(|e| e.seq == Some(seq)).unwrap();
            env.msgs[idx as usize].body.clone().unwrap()
        };
        let read = |want: &[(u64, u32)]| {
            let mut got = Vec::new();
            for (from, end, rows) in c.plan(want) {
                let cp = &c.checkpoints()[from];
                let end = usize::try_from(end.min(input.len() as u64)).unwrap();
                got.extend(bodies_in(
                    cp,
                    c.limit(),
                    &input[cp.offset as usize..end],
                    &rows,
                ));
            }
            got
        };
        let mut all = read(&want);
        all.sort_by_key(|&(s, i, _)| (s, i));
        assert_eq!(all.len(), want.len());
        for (s, i, b) in all {
            assert_eq!(b, body(s, i), "line {s} row {i}");
        }
        for &(s, i, lines) in lazy.iter().step_by(7) {
            let got = read(&[(s, i)]);
            assert_eq!(got, vec![(s, i, body(s, i))]);
            assert_eq!(lines as usize, body(s, i).lines().count());
        }
    }
}

#[test]
fn a_body_of_a_log_still_being_read_is_found() {
    let input = every_fixture();
    let half = input.len() / 2;
    let mut c = Classifier::new();
    let mut envs = c.push_every(&input[..half], 1000);
    let lazy = strip(&mut envs);
    let &(s, i, _) = lazy.last().unwrap();
    let (from, end) = c.span_of(s).unwrap();
    assert!(end <= half as u64);
    let cp = &c.checkpoints()[from];
    let got = bodies_in(
        cp,
        c.limit(),
        &input[cp.offset as usize..end as usize],
        &[(s, i)],
    );
    assert_eq!(got.len(), 1);
    assert!(c.span_of(c.lines() + 1).is_none());
}

/// A session's files, the bytes of each, and `hiveterm classify`'s envelopes of the session
/// (the main file, then each subagent's through `LogClassifier::next_file`).
fn session(files: &[(&str, Option<&str>)]) -> (Vec<Vec<u8>>, Vec<TermEnvelope>) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let bytes: Vec<Vec<u8>> = files
        .iter()
        .map(|(p, _)| std::fs::read(root.join(p)).unwrap())
        .collect();
    let mut log = classifier::LogClassifier::new();
    let mut want = Vec::new();
    for (i, (b, (_, agent))) in bytes.iter().zip(files).enumerate() {
        if i > 0 {
            log = log.next_file(*agent);
        }
        log.feed(b, |e| keep(&mut want, e));
        log.finish(|e| keep(&mut want, e));
    }
    (bytes, want)
}

/// `hiveterm classify`'s envelopes as the worker sends them: those with rows.
fn keep(out: &mut Vec<TermEnvelope>, env: TermEnvelope) {
    if !env.msgs.is_empty() {
        out.push(env);
    }
}

/// Classifies `files` as one stream, split every `split` bytes and at each file's start.
fn run_files(
    files: &[Vec<u8>],
    agents: &[Option<&str>],
    split: usize,
    every: u64,
) -> (Classifier, Vec<TermEnvelope>) {
    let mut c = Classifier::new();
    let mut out = Vec::new();
    for (i, f) in files.iter().enumerate() {
        if i > 0 {
            out.extend(c.next_file(agents[i]));
        }
        for piece in f.chunks(split.max(1)) {
            out.extend(c.push_every(piece, every));
        }
    }
    out.extend(c.finish());
    (c, out)
}

const GEMINI: &[(&str, Option<&str>)] = &[
    ("gemini-0.61.0/gemini.subagent.session.jsonl", None),
    (
        "gemini-0.61.0/6a32b09a-db98-4639-82e6-0e4802f905b6/3379175b-11ed-4f13-84e8-b95f2ccef876.jsonl",
        Some("3379175b-11ed-4f13-84e8-b95f2ccef876"),
    ),
];
const CLAUDE: &[(&str, Option<&str>)] = &[
    ("claude-code-2.1.332/subagent.transcript.jsonl", None),
    (
        "claude-code-2.1.332/subagent.transcript/subagents/agent-ae89bd37fdd96fc64.jsonl",
        Some("ae89bd37fdd96fc64"),
    ),
];

/// Issue 21: several files dropped together are one session, the same rows as `hiveterm
/// classify` gives it (a Gemini CLI subagent's rows nested under its call), however read.
#[test]
fn a_sessions_files_read_one_after_another_give_the_sessions_rows() {
    for files in [GEMINI, CLAUDE] {
        let (bytes, want) = session(files);
        let agents: Vec<Option<&str>> = files.iter().map(|(_, a)| *a).collect();
        assert!(
            want.iter().any(|e| e.parent.is_some()),
            "{files:?}: nested rows"
        );
        for split in [1, 7, 64, 997, usize::MAX] {
            let (c, got) = run_files(&bytes, &agents, split, CHECKPOINT_BYTES);
            assert_eq!(got, want, "{files:?} split {split}");
            let lines: usize = bytes
                .iter()
                .map(|b| line_count(std::str::from_utf8(b).unwrap()))
                .sum();
            assert_eq!(c.lines() as usize, lines);
        }
    }
}

/// A body of any file of the session is read again exactly, from a checkpoint of its own
/// file (one is taken at each file's start).
#[test]
fn bodies_of_a_sessions_files_are_read_again_exactly() {
    for files in [GEMINI, CLAUDE] {
        let (bytes, _) = session(files);
        let agents: Vec<Option<&str>> = files.iter().map(|(_, a)| *a).collect();
        let all: Vec<u8> = bytes.concat();
        for every in [1, 3000, CHECKPOINT_BYTES] {
            let (c, whole) = run_files(&bytes, &agents, 501, every);
            let starts: Vec<u64> = bytes
                .iter()
                .scan(0u64, |at, b| {
                    let s = *at;
                    *at += b.len() as u64;
                    Some(s)
                })
                .collect();
            for s in &starts {
                assert!(
                    c.checkpoints().iter().any(|cp| cp.offset == *s),
                    "a checkpoint at {s}"
                );
            }
            let mut meta = whole.clone();
            let lazy = strip(&mut meta);
            assert!(!lazy.is_empty());
            for &(seq, idx, _) in &lazy {
                let want = whole.iter().find(|e| e.seq == Some(seq)).unwrap().msgs[idx as usize]
                    .body
                    .clone()
                    .unwrap();
                let mut got = Vec::new();
                for (from, end, rows) in c.plan(&[(seq, idx)]) {
                    let cp = &c.checkpoints()[from];
                    let end = usize::try_from(end.min(all.len() as u64)).unwrap();
                    got.extend(bodies_in(
                        cp,
                        c.limit(),
                        &all[cp.offset as usize..end],
                        &rows,
                    ));
                }
                assert_eq!(
                    got,
                    vec![(seq, idx, want)],
                    "{files:?} every {every} line {seq}"
                );
            }
        }
    }
}

/// Issue 45 (Gemini recordings end their last turn with the log): a line whose envelope is
/// held for the log's end (a recording's answer) was lost when its body was read again from
/// a checkpoint up to that line's end only.
#[test]
fn issue_45_a_held_answer_is_read_again_up_to_its_own_line() {
    let input = fixture("gemini.basic_markdown.session");
    let mut c = Classifier::new();
    let mut whole = c.push_every(&input, 1);
    whole.extend(c.finish());
    let lazy = strip(&mut whole);
    assert!(!lazy.is_empty());
    for &(s, i, _) in &lazy {
        let cp = c.checkpoints().iter().rfind(|cp| cp.lines < s).unwrap();
        let end = input
            .iter()
            .enumerate()
            .filter(|&(_, &b)| b == b'\n')
            .nth(usize::try_from(s).unwrap() - 1)
            .map_or(input.len(), |(at, _)| at + 1);
        let got = bodies_in(cp, c.limit(), &input[cp.offset as usize..end], &[(s, i)]);
        assert_eq!(got.len(), 1, "line {s} row {i}");
    }
}
