//! One line limit on every path: a log gives the same rows through `hiveterm classify`, a
//! POST, `--follow`, history pages and the SSE stream of the real binary, whatever its line
//! sizes up to the limit.

mod common;

use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{SseClient, all_history, call_json, spawn};
use serde_json::Value;

/// A Claude Code stream: real lines, then a `cat` whose result is `big` bytes of text, then
/// more real lines.
fn log_with_a_big_tool_result(big: usize) -> Vec<u8> {
    let mut log = common::fixture("claude-code-2.1.332/file_tools.stream.jsonl");
    let line = "0123456789abcdef ".repeat(4) + "\n";
    let text: String = line.repeat(big / line.len() + 1);
    let call = serde_json::json!({"type": "assistant", "message": {"model": "claude-x",
        "role": "assistant", "content": [{"type": "tool_use", "id": "toolu_big",
        "name": "Bash", "input": {"command": "cat big.txt"}}]}});
    let result = serde_json::json!({"type": "user", "message": {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_big", "content": text}]}});
    for v in [call, result] {
        log.extend_from_slice(v.to_string().as_bytes());
        log.push(b'\n');
    }
    log.extend_from_slice(&common::fixture(
        "claude-code-2.1.332/tool_errors.stream.jsonl",
    ));
    log
}

/// `hiveterm classify [ARGS] PATH`: the `msgs` of each envelope, the k-th being the
/// server's seq k (the logs here have no blank lines).
fn classify(path: &std::path::Path, args: &[&str]) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .arg("classify")
        .args(args)
        .arg(path)
        .stderr(Stdio::inherit())
        .output()
        .unwrap();
    assert!(out.status.success());
    out.stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice::<Value>(l).unwrap()["msgs"].clone())
        .collect()
}

/// `(seq, msgs)` of the envelopes that have rows.
fn with_rows(msgs: &[Value]) -> Vec<(u64, Value)> {
    (1..)
        .zip(msgs)
        .filter(|(_, m)| !m.as_array().unwrap().is_empty())
        .map(|(seq, m)| (seq, m.clone()))
        .collect()
}

fn seq_msgs(envs: &[Value]) -> Vec<(u64, Value)> {
    envs.iter()
        .map(|e| (e["seq"].as_u64().unwrap(), e["msgs"].clone()))
        .collect()
}

/// Asserts `got == want`, showing the first difference cut short (a row is 5 MB).
fn same(got: &[(u64, Value)], want: &[(u64, Value)], what: &str) {
    let cut = |v: &(u64, Value)| {
        let s = format!("{} {}", v.0, v.1);
        s.chars().take(300).collect::<String>()
    };
    if let Some((g, w)) = got.iter().zip(want).find(|(g, w)| g != w) {
        panic!("{what}: got {}\nwant {}", cut(g), cut(w));
    }
    assert_eq!(got.len(), want.len(), "{what}: how many envelopes");
}

/// Waits until session `id` has `n` events.
async fn wait_for(addr: SocketAddr, id: &str, n: u64) {
    let start = Instant::now();
    loop {
        let (_, s) = call_json(addr, "GET", &format!("/api/sessions/{id}"), vec![]).await;
        if s["last_seq"].as_u64() == Some(n) {
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "{id}: {s}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Every envelope of `id` through the SSE stream from the start, until `n` have come.
async fn stream(addr: SocketAddr, id: &str, n: usize) -> Vec<Value> {
    let path = format!("/api/sessions/{id}/events/stream");
    let mut sse = SseClient::connect(addr, &path, None).await;
    let mut out = Vec::new();
    while out.len() < n {
        let ev = tokio::time::timeout(Duration::from_secs(30), sse.next())
            .await
            .expect("SSE in time")
            .expect("SSE open");
        if ev.event.is_none() {
            out.push(serde_json::from_str(&ev.data).unwrap());
        }
    }
    out
}

/// Serves `--follow` of `log` (with `args`), POSTs the same bytes to another session, and
/// holds both sessions' history pages (limit 7) and SSE streams to `hiveterm classify`'s
/// envelopes of the file (with the same `args`).
async fn same_rows_on_every_path(dir: &std::path::Path, log: &std::path::Path, args: &[&str]) {
    let bytes = std::fs::read(log).unwrap();
    let want = with_rows(&classify(log, args));
    let db = common::DbSpec::fresh(dir);
    let mut serve = vec!["serve", "--addr", "127.0.0.1:0", "--db", &db.spec];
    serve.extend_from_slice(&["--follow", log.to_str().unwrap()]);
    serve.extend_from_slice(args);
    let (mut child, addr) = spawn(&serve, &[]);
    let (status, v) = call_json(addr, "POST", "/api/sessions/posted/events", bytes).await;
    assert_eq!(status, 200, "{v}");
    let followed = hiveterm::ingest::follow_session_id(log);
    wait_for(addr, &followed, v["last_seq"].as_u64().unwrap()).await;
    for id in ["posted", followed.as_str()] {
        let history = seq_msgs(&all_history(addr, id, 7).await);
        same(&history, &want, &format!("{id} history"));
        let live = seq_msgs(&stream(addr, id, want.len()).await);
        same(&live, &want, &format!("{id} stream"));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

/// Regression: the server stored lines up to 4 MiB by default while `hiveterm classify` and
/// the page take 64 MiB, so a 5 MB tool result (a `cat` of a big file) was a real row
/// offline but an "unreadable line" error row live and in history.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_5_mb_line_gives_the_same_rows_through_post_follow_history_and_sse_as_classify() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("big.jsonl");
    std::fs::write(&log, log_with_a_big_tool_result(5_000_000)).unwrap();
    let want = classify(&log, &[]);
    let big = want.iter().find(|m| m.to_string().len() > 5_000_000);
    assert!(big.is_some(), "the 5 MB result is a row of its own text");
    same_rows_on_every_path(dir.path(), &log, &[]).await;
}

/// Regression (issue 8 §1): the server's replay had a wording of its own for a line over the
/// limit ("line is N bytes, over …"); lines over a lowered limit now read as `hiveterm
/// classify` says them, through POST, `--follow`, history and the stream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lines_over_a_lowered_limit_give_the_same_rows_on_every_path_as_classify() {
    let dir = tempfile::tempdir().unwrap();
    // The classifier's over-long-line log; its last line gets its newline (`--follow` waits
    // for a line's end).
    let mut bytes =
        std::fs::read(common::repo().join("classifier/tests/over_long/log.jsonl")).unwrap();
    if bytes.last() != Some(&b'\n') {
        bytes.push(b'\n');
    }
    let log = dir.path().join("over_long.jsonl");
    std::fs::write(&log, bytes).unwrap();
    let over = classify(&log, &["--max-line-bytes", "1024"])
        .iter()
        .filter(|m| m.to_string().contains("over the 1024-byte line limit"))
        .count();
    assert_eq!(over, 3, "the log has three lines over the limit");
    same_rows_on_every_path(dir.path(), &log, &["--max-line-bytes", "1024"]).await;
}

/// A request limit at or below the line limit would refuse lines the server stores whole.
#[test]
fn serve_refuses_a_request_limit_not_above_the_line_limit() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(dir.path().join("x.db"))
        .args(["--max-line-bytes", "1000", "--max-request-bytes", "1000"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--max-request-bytes 1000 is not above --max-line-bytes 1000"),
        "{err}"
    );
}
