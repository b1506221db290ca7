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
