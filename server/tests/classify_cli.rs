//! `hiveterm classify` as a user runs it: the real binary, a real file, its stdout.

use std::path::{Path, PathBuf};
use std::process::Command;

use classifier::TermEnvelope;

/// The line limit the over-long-line log is read with: low, so the test is fast. The same
/// number is in `app/tests/over_long_line.rs`.
const LIMIT: usize = 1024;

fn over_long_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../classifier/tests/over_long")
}

fn classify(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .arg("classify")
        .args(args)
        .output()
        .expect("run hiveterm classify");
    assert!(
        out.status.success(),
        "hiveterm classify failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Issue 8's bug: a line over the limit gave a JSON-syntax error row in the page but
/// "over the limit" in `hiveterm classify`. The CLI's envelopes for a log with three lines
/// over the limit are the ones committed in `expected.jsonl`, which the worker's test
/// (`app/tests/over_long_line.rs`, natively and in wasm) holds the page's worker to.
#[test]
fn over_long_line_gives_the_same_envelopes_in_the_cli_as_in_the_worker() {
    let dir = over_long_dir();
    let log = dir.join("log.jsonl");
    let got = classify(&[
        "--max-line-bytes",
        &LIMIT.to_string(),
        log.to_str().unwrap(),
    ]);
    let expected_path = dir.join("expected.jsonl");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&expected_path, &got).unwrap();
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap();
    assert_eq!(got, expected);
    // What the file pins: the over-long lines say so, in the one wording.
    let envs: Vec<TermEnvelope> = got
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let over: Vec<(u64, &str)> = envs
        .iter()
        .filter(|e| e.msgs[0].summary.contains("line limit"))
        .map(|e| (e.seq.unwrap(), e.msgs[0].summary.as_str()))
        .collect();
    assert_eq!(
        over,
        [
            (
                3,
                "unreadable line · 4224 bytes, over the 1024-byte line limit"
            ),
            (
                6,
                "unreadable line · 1556 bytes, over the 1024-byte line limit"
            ),
            (
                9,
                "unreadable line · 1200 bytes, over the 1024-byte line limit"
            ),
        ]
    );
}

#[test]
fn the_default_limit_reads_those_lines_whole() {
    let log = over_long_dir().join("log.jsonl");
    let got = classify(&[log.to_str().unwrap()]);
    assert!(!got.contains("line limit"), "{got}");
    assert_eq!(got.lines().count(), 8, "one envelope per non-blank line");
}

fn hiveterm(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .args(args)
        .output()
        .expect("run hiveterm");
    assert!(
        out.status.success(),
        "hiveterm {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn fixture(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(rel)
        .display()
        .to_string()
}

/// `hiveterm summary --json`: one object, the keys docs/CLI.md lists (issue 10).
#[test]
fn summary_json_of_a_real_log() {
    let out = hiveterm(&[
        "summary",
        "--json",
        &fixture("claude-code-2.1.332/tool_errors.stream.jsonl"),
    ]);
    assert_eq!(out.lines().count(), 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["turns"], 1);
    assert_eq!(v["turns_ok"], 1);
    assert_eq!(v["turns_failed"], 0);
    assert_eq!(v["turns_interrupted"], 0);
    assert_eq!(v["tool_calls"]["Read"], 4);
    assert_eq!(v["errors"], 9);
    assert_eq!(v["first_error_seq"], 4);
    assert_eq!(v["cost_usd"], 0.021136);
    assert_eq!(v["input_tokens"], 2374);
    assert_eq!(v["output_tokens"], 582);
    assert_eq!(v["models"], serde_json::json!(["claude-opus-5-5"]));
    assert_eq!(v["files_changed"].as_array().unwrap().len(), 2);
    assert_eq!(v["duration_s"], 0.908);
}

/// Without `--json`: a short report; standard input with `-`; an unreadable file is exit 1.
#[test]
fn summary_report_and_errors() {
    let out = hiveterm(&[
        "summary",
        &fixture("claude-code-2.1.332/api_fatal_400.stream.jsonl"),
    ]);
    assert!(
        out.starts_with("agent      claude-code 2.1.332\nturns      1 started, 1 failed\n"),
        "{out}"
    );
    assert!(out.contains("errors     2 (first at #2)"), "{out}");
    assert!(out.lines().count() <= 10, "{out}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .args(["summary", "--json", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(b"{\"kind\":\"turn_start\",\"ts\":1,\"from\":\"op\",\"body\":\"x\"}\n")
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["turns"].as_u64(), v["first_error_seq"].is_null()),
        (Some(1), true)
    );
    let missing = Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .args(["summary", "/nonexistent/log.jsonl"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read"));
}

/// Issue 21: `hiveterm classify --subagents` of a session transcript reads its `subagents/`
/// folder too (without the flag, SPEC §4: one envelope per line of the one file): every seq unique, the subagent's envelopes numbered on after the main file's lines,
/// each with the seq of its `Agent` call's envelope as `parent` and its own `ts`; the call's
/// result line ("Async agent launched…") is the main agent's. `summary --json` counts the
/// subagent's tool calls in the total and under it. The same for a Gemini chat recording and
/// its `<session id>/` folder; stream-json's forwarded lines carry `parent` too.
#[test]
fn a_session_transcript_is_read_with_its_subagents() {
    let cases = [
        // (main log, lines in it, lines of the subagent's file, the call's seq, its result's)
        (
            "claude-code-2.1.332/subagent.transcript.jsonl",
            40,
            26,
            23,
            Some(24),
        ),
        (
            "gemini-0.61.0/gemini.subagent.session.jsonl",
            11,
            17,
            7,
            None,
        ),
    ];
    for (log, main_lines, sub_lines, call, result) in cases {
        let alone = classify(&[&fixture(log)]);
        assert_eq!(
            alone.lines().count() as u64,
            main_lines,
            "{log}: alone, its own lines"
        );
        assert!(
            !alone.contains("\"parent\""),
            "{log}: alone, no subagent's envelope"
        );
        let out = classify(&["--subagents", &fixture(log)]);
        let envs: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let seqs: Vec<u64> = envs.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
        let want: Vec<u64> = (1..=main_lines + sub_lines).collect();
        assert_eq!(seqs, want, "{log}: every line once, numbered on");
        for e in &envs {
            let seq = e["seq"].as_u64().unwrap();
            let parent = e.get("parent").and_then(serde_json::Value::as_u64);
            if seq > main_lines {
                assert_eq!(parent, Some(call), "{log} #{seq}");
            } else {
                assert_eq!(parent, None, "{log} #{seq}: the main agent's");
            }
        }
        let call_env = &envs[(call - 1) as usize];
        assert!(
            call_env["msgs"].to_string().contains("🤖")
                || call_env["msgs"].to_string().contains("invoke_agent"),
            "{log}: #{call} holds the call: {call_env}"
        );
        if let Some(r) = result {
            assert!(
                envs[(r - 1) as usize]["msgs"]
                    .to_string()
                    .contains("Async agent launched")
            );
        }
        // The subagent's own times, not the main file's.
        let first_sub = &envs[main_lines as usize];
        let sub_ts: Vec<f64> = envs[main_lines as usize..]
            .iter()
            .filter_map(|e| e["ts"].as_f64())
            .collect();
        assert!(!sub_ts.is_empty(), "{log}: {first_sub}");
        assert!(
            sub_ts.windows(2).all(|w| w[0] <= w[1] + 1.0),
            "{log}: the subagent's ts"
        );
    }
    // Claude Code's summary: 1 Agent call in the main file, Read and Bash in the subagent's.
    let v: serde_json::Value = serde_json::from_str(&hiveterm(&[
        "summary",
        "--json",
        &fixture("claude-code-2.1.332/subagent.transcript.jsonl"),
    ]))
    .unwrap();
    assert_eq!(
        v["tool_calls"],
        serde_json::json!({"Agent": 1, "Read": 1, "Bash": 1})
    );
    assert_eq!(v["subagents"], 1);
    assert_eq!(v["turns"], 1, "a subagent's own turn is not the session's");
    let sub = &v["by_subagent"][0];
    assert_eq!(sub["parent"], 23);
    assert_eq!(sub["agent_type"], "general-purpose");
    assert_eq!(sub["description"], "Survey the repo");
    assert_eq!(sub["tool_calls"], 2);
    // Its end, from the main transcript's `<task-notification>` (issue 21: a block said
    // "… running" after its subagent had finished).
    assert_eq!(sub["ended"], "ok");
    assert_eq!(v["by_subagent"].as_array().unwrap().len(), 1);
    // Stream-json: the forwarded lines name the call's envelope; the result line does not.
    let out = classify(&[&fixture("claude-code-2.1.332/subagent.stream.jsonl")]);
    let parents: Vec<(u64, Option<u64>)> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|e| (e["seq"].as_u64().unwrap(), e["parent"].as_u64()))
        .filter(|(_, p)| p.is_some())
        .collect();
    let nested: Vec<u64> = parents.iter().map(|(s, _)| *s).collect();
    assert_eq!(nested, [8, 9, 10, 12, 13, 15, 16]);
    assert!(parents.iter().all(|(_, p)| *p == Some(3)));
}

/// Issue 24: a log that changed 25 files. The report names the first 10 and says how many
/// more (one line, not every path); `--json` lists all 25 and no `files_changed_more`.
#[test]
fn summary_report_lists_the_first_files_and_json_all() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many-files.jsonl");
    let mut log = String::new();
    for i in 0..25 {
        log.push_str(&format!(
            r#"{{"type":"assistant","message":{{"id":"m{i}","role":"assistant","content":[{{"type":"tool_use","id":"t{i}","name":"Write","input":{{"file_path":"/w/f{i}.rs","content":"x"}}}}]}}}}"#
        ));
        log.push('\n');
    }
    std::fs::write(&path, log).unwrap();
    let path = path.display().to_string();
    let out = hiveterm(&["summary", &path]);
    let files = out.lines().find(|l| l.starts_with("files ")).expect(&out);
    let names: Vec<String> = (0..10).map(|i| format!("/w/f{i}.rs")).collect();
    assert_eq!(
        files,
        format!(
            "files      25 changed: {} and 15 more (--json lists them all)",
            names.join(", ")
        )
    );
    let v: serde_json::Value =
        serde_json::from_str(&hiveterm(&["summary", "--json", &path])).unwrap();
    assert_eq!(v["files_changed"].as_array().unwrap().len(), 25);
    assert!(v.get("files_changed_more").is_none(), "{v}");
}

/// Issue 45.8: `hiveterm summary` printed 410 KB of text for a log that changed 66,038 files.
/// The text names the first files, tools, models and subagents and how many more, each name
/// cut, at most 20,000 bytes whatever the log; `--json` keeps the whole list of files.
#[test]
fn issue_45_8_summary_text_is_bounded_and_json_is_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.transcript.jsonl");
    let long = "y".repeat(500);
    let mut log = String::new();
    for i in 0..66_038 {
        let file = format!(
            "/home/dev/work/big/src/module_{}/file_{i:06}-{long}.rs",
            i / 100
        );
        let mut content = vec![
            serde_json::json!({"type": "tool_use", "id": format!("t{i}"),
            "name": "Write", "input": {"file_path": file, "content": "x"}}),
        ];
        if i % 20 == 0 {
            content.push(
                serde_json::json!({"type": "tool_use", "id": format!("a{i}"),
                "name": "Agent", "input": {"subagent_type": long, "description": long}}),
            );
            content.push(
                serde_json::json!({"type": "tool_use", "id": format!("m{i}"),
                "name": format!("mcp__s{i}__{long}"), "input": {}}),
            );
        }
        let mut line = serde_json::json!({"type": "assistant", "message": {"id": format!("msg{i}"),
            "role": "assistant", "content": content}});
        if i % 20 == 0 {
            line["message"]["model"] = format!("model-{}-{long}", (i / 20) % 100).into();
        }
        log.push_str(&line.to_string());
        log.push('\n');
    }
    std::fs::write(&path, log).unwrap();
    let path = path.display().to_string();
    let text = hiveterm(&["summary", &path]);
    assert!(text.len() <= 20_000, "{} bytes", text.len());
    assert!(text.contains("files      66038 changed: "), "{text}");
    assert!(
        text.contains(" and 66028 more (--json lists them all)"),
        "{text}"
    );
    assert!(text.contains("subagents  3302\n"), "{text}");
    assert!(
        text.contains("  and 3282 more (--json lists them all)"),
        "{text}"
    );
    assert!(text.contains(" and 3284 more tools"), "{text}");
    assert!(text.contains(" and 95 more\n"), "{text}");
    let v: serde_json::Value =
        serde_json::from_str(&hiveterm(&["summary", "--json", &path])).unwrap();
    assert_eq!(v["files_changed"].as_array().unwrap().len(), 66_038);
    assert!(v.get("files_changed_more").is_none());
}
