//! Issue 50 from outside: `hiveterm summary` of hand-made logs of known figures (the issue's
//! contract), the estimate marked as one, and `--prices FILE`.

use std::path::Path;
use std::process::Command;

fn log(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../classifier/tests/prices")
        .join(name)
        .display()
        .to_string()
}

fn hiveterm(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .args(args)
        .output()
        .expect("runs hiveterm");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn summary_json(args: &[&str]) -> serde_json::Value {
    let (ok, out, err) = hiveterm(args);
    assert!(ok, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn issue_50_summary_json_estimates_the_contracts_logs() {
    for (name, want) in [
        ("claude-sonnet-4-5.transcript.jsonl", 8.55),
        ("codex-gpt-4.1.rollout.jsonl", 1.80),
    ] {
        let v = summary_json(&["summary", &log(name), "--json"]);
        let got = v["cost_usd"].as_f64().unwrap();
        assert!((got - want).abs() < want * 0.0001, "{name}: {got}");
        assert_eq!(v["cost_source"], "estimated", "{name}");
    }
}

#[test]
fn issue_50_the_text_report_says_estimate() {
    let (ok, out, err) = hiveterm(&["summary", &log("claude-sonnet-4-5.transcript.jsonl")]);
    assert!(ok, "{err}");
    assert!(out.contains("cost       ≈ $8.5500 (estimate"), "{out}");
}

#[test]
fn issue_50_prices_file_overrides() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("prices.json");
    std::fs::write(
        &file,
        r#"{"gpt-4.1": {"input": 1, "output": 1, "cache_read": 0}}"#,
    )
    .unwrap();
    let file = file.display().to_string();
    let v = summary_json(&[
        "summary",
        "--json",
        "--prices",
        &file,
        &log("codex-gpt-4.1.rollout.jsonl"),
    ]);
    assert!((v["cost_usd"].as_f64().unwrap() - 0.65).abs() < 1e-9, "{v}");
    std::fs::write(dir.path().join("bad.json"), "[1]").unwrap();
    let bad = dir.path().join("bad.json").display().to_string();
    let (ok, _, err) = hiveterm(&[
        "summary",
        "--prices",
        &bad,
        &log("codex-gpt-4.1.rollout.jsonl"),
    ]);
    assert!(!ok);
    assert!(err.contains("--prices"), "{err}");
}

/// `serve`, `run` and `usage` read `--prices FILE` before anything else: a bad one stops them.
#[test]
fn issue_50_every_prices_option_reads_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, r#"{"m": {"input": 1}}"#).unwrap();
    let bad = bad.display().to_string();
    let db = dir.path().join("h.db").display().to_string();
    for args in [
        vec!["serve", "--db", &db, "--prices", &bad],
        vec!["run", "--db", &db, "--prices", &bad, "--once", "--", "true"],
        vec!["usage", "--db", &db, "--prices", &bad],
    ] {
        let (ok, _, err) = hiveterm(&args);
        assert!(!ok, "{args:?}");
        assert!(err.contains("m: needs"), "{args:?}: {err}");
    }
}

/// `hiveterm diff` marks an estimate too, and its JSON says where each cost comes from.
#[test]
fn issue_50_diff_marks_an_estimate() {
    let (a, b) = (
        log("claude-sonnet-4-5.transcript.jsonl"),
        log("codex-gpt-4.1.rollout.jsonl"),
    );
    let (_, out, err) = hiveterm(&["diff", &a, &b]);
    assert!(out.contains("≈ $8.5500 est."), "{out}{err}");
    assert!(out.contains("≈ $1.8000 est."), "{out}{err}");
    let (_, out, _) = hiveterm(&["diff", &a, &b, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["differences"]["cost_source"]["a"], "estimated", "{v}");
}
