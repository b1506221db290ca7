//! Issue 48: the answers made from two runs are one pure code (`contract::compare::make`),
//! which the page's compare worker runs in the browser on two dropped logs: a log read a chunk
//! at a time with its `LogReader` gives what `hiveterm diff A B --json` prints, and its
//! `comparison` (the compare page's answer) opens with the same head.

use std::process::Command;

use classifier::compare::align;
use contract::compare::make::{LogReader, Shown, Side, comparison, report};
use serde_json::Value;

mod common;

/// Pairs of the repo's fixtures: one agent twice, a run against another, two agents doing
/// the same scenario of the corpus, a stream against its own transcript.
const PAIRS: [(&str, &str); 8] = [
    (
        "gemini-0.61.0/gemini.failing_command.stream.jsonl",
        "gemini-0.61.0/gemini.shell_command.stream.jsonl",
    ),
    (
        "codex-0.171.0/codex_shell_command.stream.jsonl",
        "gemini-0.61.0/gemini.shell_command.stream.jsonl",
    ),
    (
        "codex-0.171.0/codex_failing_command.session.jsonl",
        "codex-0.171.0/codex_shell_command.session.jsonl",
    ),
    (
        "claude-code-2.1.332/tool_errors.stream.jsonl",
        "claude-code-2.1.332/file_tools.stream.jsonl",
    ),
    (
        "claude-code-2.1.332/file_tools.stream.jsonl",
        "claude-code-2.1.332/file_tools.transcript.jsonl",
    ),
    (
        "hyperhive/file_tools.events.jsonl",
        "claude-code-2.1.332/file_tools.stream.jsonl",
    ),
    (
        "copilot-1.0.102/copilot.failing_command.stream.jsonl",
        "gemini-0.61.0/gemini.failing_command.stream.jsonl",
    ),
    (
        "claude-code-2.1.332/resume_1_first.stream.jsonl",
        "claude-code-2.1.332/resume_1_first.stream.jsonl",
    ),
];

fn path(rel: &str) -> String {
    common::repo()
        .join("fixtures")
        .join(rel)
        .display()
        .to_string()
}

/// A log read as the compare worker reads it: its bytes in pieces (of an odd size here, so
/// lines are cut across them).
fn read(path: &str) -> Side {
    let bytes = std::fs::read(path).unwrap();
    let mut log = LogReader::new();
    for piece in bytes.chunks(4093) {
        log.feed(piece);
    }
    log.finish(path.to_owned())
}

fn diff_json(a: &str, b: &str) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .args(["diff", a, b, "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn issue_48_two_logs_read_in_pieces_give_what_diff_json_prints() {
    let mut diverged = 0;
    for (a, b) in PAIRS {
        let (a, b) = (path(a), path(b));
        let want = diff_json(&a, &b);
        let (sa, sb) = (read(&a), read(&b));
        let how = Shown {
            most: 20,
            context: 2,
        };
        let got = serde_json::to_value(report(&sa, &sb, &align(&sa.run, &sb.run), how)).unwrap();
        assert_eq!(got, want, "{a} ~ {b}");
        // The compare page's answer opens with the same head.
        let page = serde_json::to_value(comparison(&sa, &sb)).unwrap();
        for key in ["first_divergence", "divergences", "summary", "differences"] {
            assert_eq!(page[key], want[key], "{key} of {a} ~ {b}");
        }
        assert_eq!(
            page["divergence_list"].as_array().unwrap().len(),
            want["divergences"].as_u64().unwrap() as usize
        );
        diverged += usize::from(!want["first_divergence"].is_null());
    }
    assert!(diverged >= 4, "the pairs diverge: {diverged}");
}
