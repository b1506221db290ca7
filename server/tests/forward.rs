//! `hiveterm serve --follow LOG --to URL` and `hiveterm run --to URL`: an agent host's log or
//! command posted to a remote hiveterm, with the receiving server restarted in the middle:
//! nothing lost, nothing doubled.

mod common;

use std::io::Write;
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{DbSpec, call_json, spawn};

fn note(i: usize) -> String {
    format!("{{\"kind\":\"note\",\"text\":\"line {i}\"}}\n")
}

fn append(path: &std::path::Path, from: usize, to: usize) {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    let text: String = (from..to).map(note).collect();
    f.write_all(text.as_bytes()).unwrap();
}

/// Waits until the remote session has `n` events.
async fn wait_for(addr: SocketAddr, id: &str, n: u64) {
    let start = Instant::now();
    loop {
        let got = common::try_send(addr, "GET", &format!("/api/sessions/{id}"), &[], vec![])
            .await
            .ok()
            .filter(|(status, _, _)| *status == 200);
        if got.is_some() {
            let (_, v) = call_json(addr, "GET", &format!("/api/sessions/{id}"), vec![]).await;
            if v["last_seq"].as_u64() == Some(n) {
                return;
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{id} never reached {n}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The receiving server on `db`, on `port` (0: any free one; the port of the one it replaces
/// when it comes back).
fn start_receiver(db: &DbSpec, port: u16) -> (Child, SocketAddr) {
    let addr = format!("127.0.0.1:{port}");
    spawn(&["serve", "--addr", &addr, "--db", &db.spec], &[])
}

fn forwarder(log: &std::path::Path, addr: SocketAddr) -> Child {
    Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .args(["serve", "--follow"])
        .arg(log)
        .args(["--to", &format!("http://{addr}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn kill(mut child: Child) {
    let _ = child.kill();
    let _ = child.wait();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_receiver_restarted_mid_stream_loses_and_doubles_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh(dir.path());
    let log = dir.path().join("agent.jsonl");
    let id = hiveterm::ingest::follow_session_id(&log);
    append(&log, 0, 100);
    let (receiver, addr) = start_receiver(&db, 0);
    let mut fwd = forwarder(&log, addr);
    wait_for(addr, &id, 100).await;

    // The receiver dies; the agent goes on writing; the receiver comes back on its port.
    kill(receiver);
    append(&log, 100, 250);
    tokio::time::sleep(Duration::from_millis(800)).await;
    let (receiver, addr) = start_receiver(&db, addr.port());
    append(&log, 250, 300);
    wait_for(addr, &id, 300).await;

    // The forwarder itself restarted: it resumes after what the receiver has.
    kill(fwd);
    append(&log, 300, 320);
    fwd = forwarder(&log, addr);
    wait_for(addr, &id, 320).await;
    tokio::time::sleep(Duration::from_millis(600)).await;

    let stored: Vec<String> = db
        .raw_events(&id)
        .into_iter()
        .map(|e| String::from_utf8(e.raw).unwrap())
        .collect();
    let want: Vec<String> = (0..320).map(|i| note(i).trim_end().to_owned()).collect();
    assert_eq!(stored, want, "every line once, in order");
    kill(fwd);
    kill(receiver);
}

/// Waits for `path` to exist (the shell's loop in [`the_agent`]).
fn go(dir: &std::path::Path, name: &str) {
    std::fs::write(dir.join(name), b"").unwrap();
}

/// An agent that prints notes 0..100, waits for `go1`, prints 100..250, waits for `go2`,
/// prints 250..300 and exits 0.
fn the_agent(dir: &std::path::Path) -> String {
    let d = dir.display();
    format!(
        "i=0; while [ $i -lt 300 ]; do \
           [ $i -eq 100 ] && while [ ! -e '{d}/go1' ]; do sleep 0.05; done; \
           [ $i -eq 250 ] && while [ ! -e '{d}/go2' ]; do sleep 0.05; done; \
           echo \"{{\\\"kind\\\":\\\"note\\\",\\\"text\\\":\\\"line $i\\\"}}\"; i=$((i+1)); \
         done"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_to_with_the_receiver_restarted_mid_run_loses_and_doubles_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh(dir.path());
    let (receiver, addr) = start_receiver(&db, 0);
    let mut run = Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .args([
            "run",
            "--to",
            &format!("http://{addr}"),
            "--title",
            "remote",
        ])
        .args(["--", "sh", "-c", &the_agent(dir.path())])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(run.stdout.take().unwrap()),
        &mut first,
    )
    .unwrap();
    let id = first
        .trim_end()
        .rsplit_once(" as session ")
        .map(|(_, id)| id.to_owned())
        .unwrap_or_else(|| panic!("{first}"));
    // The turn_start and 100 lines.
    wait_for(addr, &id, 101).await;

    // The receiver dies; the agent goes on writing; the receiver comes back on its port.
    kill(receiver);
    go(dir.path(), "go1");
    tokio::time::sleep(Duration::from_millis(800)).await;
    let (receiver, addr) = start_receiver(&db, addr.port());
    go(dir.path(), "go2");
    // `run --to` exits with the agent's code once every line is stored and the session ended.
    let status = tokio::task::spawn_blocking(move || run.wait().unwrap())
        .await
        .unwrap();
    assert_eq!(status.code(), Some(0));

    let stored: Vec<String> = db
        .raw_events(&id)
        .into_iter()
        .map(|e| String::from_utf8(e.raw).unwrap())
        .collect();
    let want: Vec<String> = (0..300).map(|i| note(i).trim_end().to_owned()).collect();
    assert_eq!(stored.len(), 302, "turn_start, 300 lines, turn_end");
    assert!(stored[0].contains("\"turn_start\""), "{}", stored[0]);
    assert_eq!(stored[1..301], want[..], "every line once, in order");
    assert!(stored[301].contains("\"turn_end\""), "{}", stored[301]);
    let (_, s) = call_json(addr, "GET", &format!("/api/sessions/{id}"), vec![]).await;
    assert_eq!(s["title"], "remote");
    assert_eq!(s["live"], false, "{s}");
    kill(receiver);
}
