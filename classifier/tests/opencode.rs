//! The real OpenCode 1.18.33 fixtures (`fixtures/opencode-1.18.33/`: `run --format json`
//! stdout and `export` documents) held to the contract checked from outside: one envelope per
//! non-blank line and no `!` row; every tool part a call row of its own, in order, naming what it
//! acted on (its command, path or pattern), its failed calls error rows; every prompt of an
//! export a turn start with the prompt as its body; the summary's agent, version, tokens, cost.

use classifier::{Level, LogClassifier, RowKind, row_kind, tool_of};
use serde_json::Value;

/// The files of `fixtures/opencode-1.18.33/`, by name.
fn fixtures() -> Vec<(String, Vec<u8>)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/opencode-1.18.33");
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("fixtures")
        .map(|e| {
            let p = e.expect("entry").path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).expect("read"))
        })
        .collect();
    files.sort();
    assert!(files.len() >= 20, "{}", files.len());
    files
}

/// The tool parts of a file (a stream's lines, or an export's messages), in order.
fn tool_parts(name: &str, bytes: &[u8]) -> Vec<Value> {
    let parts: Vec<Value> = if name.ends_with(".export.json") {
        let doc: Value = serde_json::from_slice(bytes).unwrap();
        doc["messages"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|m| m["parts"].as_array().unwrap().clone())
            .collect()
    } else {
        bytes
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice::<Value>(l).unwrap()["part"].clone())
            .collect()
    };
    parts.into_iter().filter(|p| p["type"] == "tool").collect()
}

/// Every real file: one envelope per non-blank line, no `!` row; each tool part one call row
/// in order naming its command, path or pattern, its failed calls error rows; an export's
/// prompts each a turn start with the prompt as its body; the summary names OpenCode.
#[test]
fn real_files_keep_the_contract() {
    for (name, bytes) in fixtures() {
        let mut log = LogClassifier::new().with_summary();
        let mut envs = Vec::new();
        log.feed(&bytes, |e| envs.push(e));
        log.finish(|e| envs.push(e));
        let lines = bytes
            .split(|&b| b == b'\n')
            .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
            .count();
        assert_eq!(envs.len(), lines, "{name}");
        let rows: Vec<_> = envs.iter().flat_map(|e| e.msgs.iter()).collect();
        assert!(
            rows.iter().all(|m| m.icon.as_deref() != Some("!")),
            "{name}"
        );
        let calls: Vec<_> = rows
            .iter()
            .enumerate()
            .filter(|(_, m)| row_kind(m) == RowKind::ToolCall)
            .collect();
        let parts = tool_parts(&name, &bytes);
        assert_eq!(calls.len(), parts.len(), "{name}");
        for ((at, row), part) in calls.iter().zip(&parts) {
            let input = &part["state"]["input"];
            let names = ["command", "filePath", "pattern", "tool"];
            let what = match input["todos"].as_array() {
                Some(todos) => format!("({} items)", todos.len()),
                None => {
                    let what = names.iter().find_map(|k| input[k].as_str()).unwrap();
                    what.lines().next().unwrap().to_owned()
                }
            };
            assert!(
                row.summary.contains(&what),
                "{name}: {} ∌ {what}",
                row.summary
            );
            assert!(tool_of(row).is_some(), "{name}: {}", row.summary);
            let exit = part["state"]["metadata"]["exit"].as_i64();
            let failed = part["state"]["status"] == "error"
                || part["tool"] == "invalid"
                || exit.is_some_and(|c| c != 0);
            let result = rows[at + 1];
            assert_eq!(
                result.level == Level::Error,
                failed,
                "{name}: {}",
                result.summary
            );
        }
        if name.ends_with(".export.json") {
            let doc: Value = serde_json::from_slice(&bytes).unwrap();
            let prompts: Vec<&str> = doc["messages"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["info"]["role"] == "user")
                .map(|m| m["parts"][0]["text"].as_str().unwrap())
                .collect();
            let starts: Vec<&str> = rows
                .iter()
                .filter(|m| row_kind(m) == RowKind::TurnStart)
                .map(|m| m.body.as_deref().unwrap_or(""))
                .collect();
            assert_eq!(starts, prompts, "{name}");
        }
        let summary = log.summary().unwrap();
        assert_eq!(summary.agent.as_deref(), Some("opencode"), "{name}");
        assert_eq!(summary.lines_not_understood, 0, "{name}");
    }
}

/// The summary of an export: the version, model, tokens and stated cost of its steps, its
/// time; of a stream: the same tokens and cost as its export's.
#[test]
fn summaries_state_tokens_cost_and_version() {
    let files = fixtures();
    let summary = |name: &str| {
        let bytes = &files.iter().find(|(n, _)| n == name).unwrap().1;
        let mut log = LogClassifier::new().with_summary();
        log.feed(bytes, |_| {});
        log.finish(|_| {});
        log.summary().unwrap()
    };
    let export = summary("opencode.file_edit.export.json");
    assert_eq!(export.agent_version.as_deref(), Some("1.18.33"));
    assert_eq!(export.models, ["mock-coder"]);
    assert_eq!(export.cost_usd, Some(0.0));
    assert_eq!(
        (
            export.input_tokens,
            export.output_tokens,
            export.cache_read_tokens
        ),
        (12829, 226, 12416)
    );
    assert_eq!(export.turns_ok, 1);
    assert_eq!(export.duration_s, Some(2.724));
    assert_eq!(export.files_changed.len(), 3);
    let stream = summary("opencode.file_edit.stream.jsonl");
    assert_eq!(
        (stream.input_tokens, stream.output_tokens, stream.cost_usd),
        (12829, 226, Some(0.0))
    );
    let failed = summary("opencode.failing_command.stream.jsonl");
    assert_eq!(failed.tool_errors, 4);
    let fatal = summary("opencode.api_fatal_401.stream.jsonl");
    assert_eq!((fatal.turns, fatal.turns_failed), (1, 1));
}
