//! `hiveterm diff` (issue 48): two runs side by side, from log paths and from a database.

mod common;

use std::process::Command;

use common::{DbSpec, call_json, spawn_server};
use hiveterm::{AppState, Config};
use serde_json::Value;

const FAILING: &str = "gemini-0.61.0/gemini.failing_command.stream.jsonl";
const PASSING: &str = "gemini-0.61.0/gemini.shell_command.stream.jsonl";
const CODEX: &str = "codex-0.171.0/codex_shell_command.stream.jsonl";

fn path(rel: &str) -> String {
    common::repo()
        .join("fixtures")
        .join(rel)
        .display()
        .to_string()
}

/// `hiveterm diff ARGS…`: exit code, stdout, stderr.
fn diff(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .arg("diff")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn diff_json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let (code, out, err) = diff(&all);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn the_same_steps_have_no_divergence_whatever_the_agent() {
    for (a, b) in [(PASSING, PASSING), (CODEX, PASSING), (FAILING, FAILING)] {
        let v = diff_json(&[&path(a), &path(b)]);
        assert_eq!(v["first_divergence"], Value::Null, "{a} ~ {b}");
        assert_eq!(v["divergences"], 0);
        assert_eq!(
            v["summary"]["a"]["agent"],
            if a == CODEX { "codex" } else { "gemini" }
        );
    }
    let (code, out, _) = diff(&[&path(CODEX), &path(PASSING)]);
    assert_eq!(code, 0);
    assert!(out.contains("no divergence"), "{out}");
}

#[test]
fn a_failing_run_diverges_where_it_left_the_passing_path() {
    let v = diff_json(&[&path(FAILING), &path(PASSING)]);
    let first = &v["first_divergence"];
    assert_eq!(first["turn"], 1);
    // The passing run's answer before its command faces a gap: the failing one went on at
    // its line 3 with another command.
    assert_eq!(
        (first["a"].as_u64(), first["b"].as_u64()),
        (Some(3), Some(3)),
        "{first}"
    );
    assert!(v["divergences"].as_u64().unwrap() >= 5, "{v}");
    assert_eq!(v["summary"]["a"]["tool_errors"], 4);
    assert_eq!(v["differences"]["tool_calls"]["b"], 1);
    let steps = v["steps"].as_array().unwrap();
    assert!(
        steps
            .iter()
            .any(|s| s["a"]["outcome"] == "failed" && s["why"] == "only_a"),
        "{steps:?}"
    );
    let (code, text, _) = diff(&[&path(FAILING), &path(PASSING)]);
    assert_eq!(code, 0);
    assert!(
        text.contains("first divergence: turn 1, A #3 / B #3"),
        "{text}"
    );
    assert!(text.contains("tool errors"), "{text}");
}

#[test]
fn a_bad_input_is_a_clear_error_and_exit_2() {
    let (code, out, err) = diff(&["/no/such/log.jsonl", &path(PASSING)]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("cannot read /no/such/log.jsonl"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh_sqlite(dir.path());
    let (code, _, err) = diff(&["nope", "nada", "--db", &db.spec]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no session nope"), "{err}");
}

/// With `--db`, A and B are stored sessions: the same answer as their logs', numbered by the
/// sessions' seqs, on both backends.
#[test]
fn stored_sessions_diff_as_their_logs_on_both_backends() {
    let dir = tempfile::tempdir().unwrap();
    for db in [
        DbSpec::fresh_sqlite(dir.path()),
        DbSpec::fresh_postgres(dir.path()),
    ] {
        let rt = tokio::runtime::Runtime::new().unwrap();
        rt.block_on(async {
            let store = hiveterm::Store::open_db(&db.spec, 4).unwrap();
            let addr = spawn_server(AppState::new(store, Config::default())).await;
            for (id, rel) in [("failing", FAILING), ("passing", PASSING)] {
                let (status, v) = call_json(
                    addr,
                    "POST",
                    &format!("/api/sessions/{id}/events"),
                    common::fixture(rel),
                )
                .await;
                assert!(status.is_success(), "{v}");
            }
        });
        let stored = diff_json(&["failing", "passing", "--db", &db.spec]);
        let logs = diff_json(&[&path(FAILING), &path(PASSING)]);
        for key in ["first_divergence", "divergences", "steps", "differences"] {
            assert_eq!(stored[key], logs[key], "{key} on {}", db.spec);
        }
        assert_eq!(stored["a"], "failing");
    }
}
