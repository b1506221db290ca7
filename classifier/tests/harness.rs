//! Codex and Gemini logs under a harness (a `hiveterm run` session, a hyperhive log): the
//! harness's `turn_start`/`turn_end` are the only turn rows, as for Claude Code; the agent's
//! prompt is a `prompt ← user` row, its other rows are those of the log alone.

use std::path::Path;

use classifier::{LogClassifier, RowKind, TermEnvelope, row_kind};

/// The envelopes of `log`, with its summary.
fn classify(log: &[u8]) -> (Vec<TermEnvelope>, classifier::Summary) {
    let mut c = LogClassifier::new().with_summary();
    let mut out = Vec::new();
    c.feed(log, |e| out.push(e));
    c.finish(|e| out.push(e));
    let summary = c.summary().expect("with_summary");
    (out, summary)
}

/// `lines` wrapped as `hiveterm run` stores a command's stdout: a `turn_start`, the lines, a
/// `turn_end`.
fn wrapped(lines: &str) -> String {
    format!(
        "{{\"kind\":\"turn_start\",\"from\":\"operator\",\"body\":\"$ agent\"}}\n{lines}{{\"kind\":\"turn_end\",\"ok\":true}}\n"
    )
}

fn turn_rows(envs: &[TermEnvelope]) -> Vec<(u64, RowKind)> {
    envs.iter()
        .flat_map(|e| {
            e.msgs
                .iter()
                .map(move |m| (e.seq.unwrap_or(0), row_kind(m)))
        })
        .filter(|(_, k)| matches!(k, RowKind::TurnStart | RowKind::TurnOk | RowKind::TurnFail))
        .collect()
}

#[test]
fn codex_and_gemini_under_a_harness_have_its_turn_rows_only() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    for file in [
        "codex-0.171.0/codex_shell_command.stream.jsonl",
        "codex-0.171.0/codex_api_fatal_400.stream.jsonl",
        "codex-0.171.0/codex_shell_command.session.jsonl",
        "gemini-0.61.0/gemini.shell_command.stream.jsonl",
        "gemini-0.61.0/gemini.api_fatal_400.stream.jsonl",
    ] {
        let lines = std::fs::read_to_string(fixtures.join(file)).unwrap();
        let (alone, _) = classify(lines.as_bytes());
        assert!(
            turn_rows(&alone).len() >= 2,
            "{file}: its own turn rows alone"
        );
        let (envs, summary) = classify(wrapped(&lines).as_bytes());
        let last = envs.last().and_then(|e| e.seq).unwrap();
        assert_eq!(
            turn_rows(&envs),
            [(1, RowKind::TurnStart), (last, RowKind::TurnOk)],
            "{file}: the harness's turn rows only"
        );
        assert_eq!((summary.turns, summary.turns_ok), (1, 1), "{file}");
        // Every other row is the log's own, at its line (one later: the turn_start before it).
        for (a, e) in alone.iter().zip(&envs[1..]) {
            let own: Vec<_> = a
                .msgs
                .iter()
                .filter(|m| {
                    !matches!(
                        row_kind(m),
                        RowKind::TurnStart | RowKind::TurnOk | RowKind::TurnFail
                    )
                })
                .collect();
            let under: Vec<_> = e
                .msgs
                .iter()
                .filter(|m| !m.summary.starts_with("prompt ←"))
                .collect();
            assert_eq!(own, under, "{file} line {:?}", a.seq);
        }
    }
}

#[test]
fn a_gemini_prompt_under_a_harness_is_a_prompt_row() {
    let lines = concat!(
        r#"{"type":"init","timestamp":"2026-12-02T14:11:05.409Z","session_id":"s","model":"auto"}"#,
        "\n",
        r#"{"type":"message","timestamp":"2026-12-02T14:11:05.410Z","role":"user","content":"How many files?"}"#,
        "\n",
    );
    let (envs, _) = classify(wrapped(lines).as_bytes());
    let prompt = envs[2].msgs.iter().find(|m| m.summary == "prompt ← user");
    assert_eq!(
        prompt.and_then(|m| m.body.as_deref()),
        Some("How many files?"),
        "{envs:?}"
    );
    assert!(prompt.is_some_and(|m| m.icon.is_none()));
}
