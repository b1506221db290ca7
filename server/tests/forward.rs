//! `hiveterm serve --follow LOG --to URL`: an agent host's log posted to a remote hiveterm,
//! with the receiving server restarted in the middle: nothing lost, nothing doubled.

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
    let (receiver, addr) = spawn(&["serve", "--addr", "127.0.0.1:0", "--db", &db.spec], &[]);
    let mut fwd = forwarder(&log, addr);
    wait_for(addr, &id, 100).await;

    // The receiver dies; the agent goes on writing; the receiver comes back on its port.
    kill(receiver);
    append(&log, 100, 250);
    tokio::time::sleep(Duration::from_millis(800)).await;
    let port = addr.port().to_string();
    let (receiver, addr) = spawn(
        &[
            "serve",
            "--addr",
            &format!("127.0.0.1:{port}"),
            "--db",
            &db.spec,
        ],
        &[],
    );
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
