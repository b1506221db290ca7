//! The real `hiveterm` binary: durability under SIGKILL, and `hiveterm run` with a fake agent
//! (on the backend the suite runs against: a SQLite file, or with `HIVETERM_TEST_DB=postgres`
//! a fresh PostgreSQL schema).

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use classifier::{LogClassifier, TermMsg};
use common::{DbSpec, call, call_json, spawn};
use serde_json::Value;

fn note(text: &str) -> String {
    format!("{{\"kind\":\"note\",\"text\":\"{text}\"}}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_during_ingest_loses_no_acknowledged_event() {
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh(dir.path());
    let db_s = db.spec.as_str();
    let (mut child, addr) = spawn(&["serve", "--db", db_s, "--addr", "127.0.0.1:0"], &[]);
    let acked: Arc<Mutex<Vec<(String, u64)>>> = Arc::default();
    let mut posters = Vec::new();
    for p in 0..4 {
        let acked = acked.clone();
        posters.push(tokio::spawn(async move {
            for b in 0.. {
                let lines: Vec<String> = (0..5).map(|i| note(&format!("p{p} b{b} i{i}"))).collect();
                let body = lines.join("\n").into_bytes();
                let Ok(Ok((status, bytes))) = tokio::time::timeout(
                    Duration::from_secs(5),
                    tokio::spawn(async move {
                        call(addr, "POST", "/api/sessions/dur/events", body).await
                    }),
                )
                .await
                else {
                    return;
                };
                if !status.is_success() {
                    return;
                }
                let v: Value = serde_json::from_slice(&bytes).unwrap();
                let seqs = v["seqs"].as_array().unwrap();
                let mut acked = acked.lock().unwrap();
                for (line, seq) in lines.into_iter().zip(seqs) {
                    acked.push((line, seq.as_u64().unwrap()));
                }
            }
        }));
    }
    let start = Instant::now();
    while acked.lock().unwrap().len() < 2000 && start.elapsed() < Duration::from_secs(20) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    for p in posters {
        let _ = p.await;
    }
    let acked = acked.lock().unwrap().clone();
    assert!(acked.len() >= 100, "only {} acknowledged", acked.len());

    // Restarted on the same database: everything acknowledged is there, once, at its seq.
    let (mut child, addr) = spawn(&["serve", "--db", db_s, "--addr", "127.0.0.1:0"], &[]);
    if !db.is_postgres() {
        assert_eq!(db.query_one("PRAGMA integrity_check"), "ok");
    }
    let stored = db.raw_events("dur");
    let seqs: Vec<u64> = stored.iter().map(|e| e.seq).collect();
    let max = stored.len() as u64;
    assert_eq!(seqs, (1..=max).collect::<Vec<_>>(), "seqs have no gaps");
    let mut at: std::collections::HashMap<&[u8], Vec<u64>> = std::collections::HashMap::new();
    for e in &stored {
        at.entry(e.raw.as_slice()).or_default().push(e.seq);
    }
    for (line, seq) in &acked {
        assert_eq!(
            at.get(line.as_bytes()).map(Vec::as_slice),
            Some(&[*seq][..]),
            "{line}"
        );
    }
    assert_eq!(
        db.query_one("SELECT CAST(last_seq AS TEXT) FROM sessions WHERE id = 'dur'"),
        max.to_string()
    );
    // And it goes on from there.
    let (_, s) = call_json(addr, "GET", "/api/sessions/dur", vec![]).await;
    let last = s["last_seq"].as_u64().unwrap();
    let (_, v) = call_json(
        addr,
        "POST",
        "/api/sessions/dur/events",
        note("after restart").into_bytes(),
    )
    .await;
    assert_eq!(v["seqs"][0].as_u64(), Some(last + 1));
    child.kill().unwrap();
    child.wait().unwrap();
}

/// The agent's stream as `hiveterm classify` gives it inside `run`'s own turn: after a
/// harness `turn_start`, whose turn rows are then the only ones (the stream's `init` and
/// `result` add none, issue 10).
fn classify_in_a_turn(bytes: &[u8]) -> Vec<Vec<TermMsg>> {
    let mut log = LogClassifier::new();
    let mut out = Vec::new();
    log.feed(
        b"{\"kind\":\"turn_start\",\"from\":\"operator\",\"body\":\"run\"}\n",
        |_| {},
    );
    log.feed(bytes, |env| out.push(env.msgs));
    log.finish(|env| out.push(env.msgs));
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_a_fake_agent_serves_it_and_records_everything() {
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh(dir.path());
    let fixture_rel = "claude-code-2.1.332/file_tools.stream.jsonl";
    let fixture_path = common::repo().join("fixtures").join(fixture_rel);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake-agent.sh");
    let (mut child, addr) = spawn(
        &[
            "run",
            "--once",
            "--title",
            "fake agent",
            "--db",
            &db.spec,
            "--addr",
            "127.0.0.1:0",
            "--",
            "sh",
            script.to_str().unwrap(),
            fixture_path.to_str().unwrap(),
        ],
        &[("FAKE_AGENT_PAUSE", "1")],
    );
    // Served while it runs.
    let (status, list) = call_json(addr, "GET", "/api/sessions", vec![]).await;
    assert_eq!(status, 200);
    let session = &list["sessions"][0];
    assert_eq!(session["title"], "fake agent");
    assert_eq!(session["source"], "run");
    assert_eq!(session["live"], true);
    let id = session["id"].as_str().unwrap().to_owned();
    let (status, _) = call(addr, "GET", &format!("/s/{id}"), vec![]).await;
    assert_eq!(status, 200);
    let code = tokio::task::spawn_blocking(move || child.wait().unwrap())
        .await
        .unwrap();
    assert_eq!(
        code.code(),
        Some(3),
        "hiveterm run --once exits with the command's code"
    );

    // What it stored, read back through the library.
    let store = hiveterm::Store::open_db(&db.spec, hiveterm::store::CHECKPOINT_EVERY).unwrap();
    let state = hiveterm::AppState::new(store, hiveterm::Config::default());
    let addr = common::spawn_server(state).await;
    let envs = common::all_history(addr, &id, 1000).await;
    let summaries: Vec<String> = envs
        .iter()
        .flat_map(|e| e["msgs"].as_array().unwrap())
        .map(|m| {
            format!(
                "{} {}",
                m["level"].as_str().unwrap(),
                m["summary"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(summaries[0], "info TURN ← operator");
    assert_eq!(
        envs[0]["msgs"][0]["body"]
            .as_str()
            .unwrap()
            .split_whitespace()
            .next(),
        Some("$")
    );
    assert!(
        summaries.contains(&"warn stderr: warning: something on stderr".to_owned()),
        "{summaries:#?}"
    );
    assert!(summaries.contains(&"warn stderr: fatal: giving up".to_owned()));
    assert!(summaries.contains(&"debug stdout: plain text on stdout".to_owned()));
    assert_eq!(
        summaries.last().unwrap(),
        "error turn fail — sh exited with status 3"
    );
    let (_, s) = call_json(addr, "GET", &format!("/api/sessions/{id}/state"), vec![]).await;
    assert_eq!(s["live"], false);
    assert_eq!(s["turn"]["last_ok"], false);
    assert_eq!(s["turn"]["in_flight"], false);
    assert_eq!(s["model"], "claude-opus-5-5");
    assert!(s["cost_usd"].as_f64().unwrap() > 0.0);
    // Issue 45.6: the agent is the one whose lines the run printed (Claude Code), in the
    // summary the page's header shows and in the index; `run`'s own lines name none.
    let (_, summary) = call_json(addr, "GET", &format!("/api/sessions/{id}/summary"), vec![]).await;
    assert_eq!(summary["agent"], "claude-code", "{summary}");
    let (_, list) = call_json(addr, "GET", "/api/sessions", vec![]).await;
    assert_eq!(list["sessions"][0]["agent"], "claude-code", "{list}");

    // Every stdout line stored byte for byte, classified as `hiveterm classify` does.
    let fixture = common::fixture(fixture_rel);
    let raws: Vec<(u64, Vec<u8>)> = db
        .raw_events(&id)
        .into_iter()
        .filter(|e| !e.raw.starts_with(b"{\"kind\""))
        .map(|e| (e.seq, e.raw))
        .collect();
    let lines: Vec<&[u8]> = fixture
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(raws.len(), lines.len());
    assert!(
        raws.iter()
            .zip(&lines)
            .all(|((_, r), l)| r.as_slice() == *l),
        "stdout lines stored byte for byte"
    );
    let expect = classify_in_a_turn(&fixture);
    for ((seq, _), want) in raws.iter().zip(expect) {
        let got: Vec<TermMsg> = envs
            .iter()
            .find(|e| e["seq"].as_u64() == Some(*seq))
            .map(|e| serde_json::from_value(e["msgs"].clone()).unwrap())
            .unwrap_or_default();
        assert_eq!(got, want, "seq {seq}");
    }
}

#[test]
fn serve_refuses_a_public_address_without_a_token() {
    let out = Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .args([
            "serve",
            "--addr",
            "0.0.0.0:0",
            "--db",
            "/nonexistent/never.db",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--token"), "{err}");
}

#[test]
fn run_of_a_command_that_cannot_start_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh(dir.path());
    let out = Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .args(["run", "--once", "--addr", "127.0.0.1:0", "--db", &db.spec])
        .args(["--", "/nonexistent/agent", "-p", "hi"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot start /nonexistent/agent: No such file"),
        "{err}"
    );
}

#[test]
fn follow_of_a_path_not_there_yet_says_it_waits() {
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh(dir.path());
    let (there, missing) = (
        dir.path().join("there.jsonl"),
        dir.path().join("typo.jsonl"),
    );
    std::fs::write(&there, note("hello") + "\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", &db.spec])
        .arg("--follow")
        .arg(&there)
        .arg("--follow")
        .arg(&missing)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut following = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        if line.starts_with("listening on") {
            break;
        }
        following.push(line);
    }
    let _ = child.kill();
    let _ = child.wait();
    let (t, m) = (there.display(), missing.display());
    assert_eq!(following.len(), 2, "{following:?}");
    assert!(
        following[0].starts_with(&format!("following {t} as http://")),
        "{following:?}"
    );
    assert!(
        following[1].starts_with(&format!(
            "following {m} (not there yet: waiting for it) as http://"
        )),
        "{following:?}"
    );
}

/// CPU seconds (user and system) process `pid` has used, from `/proc/<pid>/stat`.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The fields after the command's name (which is in parentheses and may hold spaces).
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks: f64 = f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap();
    // The kernel's USER_HZ, 100 on every Linux this runs on.
    ticks / 100.0
}

/// Regression: a watch's own opens of its folders and logs came back to it as notifications
/// that it took as changes, so an idle `--watch` of a few hundred logs kept a core busy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_watch_uses_no_cpu() {
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh(dir.path());
    let root = dir.path().join("projects");
    let mut lines = 0;
    for p in 0..10 {
        let project = root.join(format!("-work-p{p}"));
        std::fs::create_dir_all(&project).unwrap();
        for s in 0..10 {
            let body: String = (0..5)
                .map(|i| note(&format!("p{p} s{s} {i}")) + "\n")
                .collect();
            std::fs::write(project.join(format!("s{s}.jsonl")), body).unwrap();
            lines += 5;
        }
    }
    let root_s = root.to_str().unwrap();
    let args = [
        "serve",
        "--db",
        &db.spec,
        "--addr",
        "127.0.0.1:0",
        "--watch",
        root_s,
    ];
    let (mut child, addr) = spawn(&args, &[]);
    let start = Instant::now();
    loop {
        let (_, v) = call_json(addr, "GET", "/api/sessions?limit=1000", vec![]).await;
        let stored: u64 = v["sessions"].as_array().map_or(0, |s| {
            s.iter().map(|s| s["last_seq"].as_u64().unwrap()).sum()
        });
        if stored == lines {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "imported {stored} of {lines}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Its first rescan (the notifications it missed) falls in these seconds too.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let before = cpu_seconds(child.id());
    tokio::time::sleep(Duration::from_secs(4)).await;
    let used = cpu_seconds(child.id()) - before;
    child.kill().unwrap();
    child.wait().unwrap();
    // Looking at 100 files' sizes every 250 ms is a few milliseconds a second; the loop was
    // a whole core (4 s).
    assert!(used < 0.8, "an idle watch used {used:.2} s of CPU in 4 s");
}
