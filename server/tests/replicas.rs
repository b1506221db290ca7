//! Several `hiveterm serve` replicas on one PostgreSQL database (issue 13): writes to any
//! replica, SSE clients on every replica get every envelope exactly once and in order, a
//! killed replica's clients resume on another, replicas starting together make one schema.
//! These always run on PostgreSQL (127.0.0.1:5432, database `test`, a fresh schema each).

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{DbSpec, SseClient, all_history, call_json, spawn};
use serde_json::Value;

/// A replica on `db`.
fn replica(db: &DbSpec) -> (std::process::Child, SocketAddr) {
    spawn(&["serve", "--addr", "127.0.0.1:0", "--db", &db.spec], &[])
}

fn postgres(dir: &std::path::Path) -> DbSpec {
    DbSpec::fresh_postgres(dir)
}

fn note(text: &str) -> String {
    format!("{{\"kind\":\"note\",\"text\":\"{text}\"}}\n")
}

/// Reads `n` envelopes from an SSE client: their seqs, in the order received.
async fn read_seqs(sse: &mut SseClient, n: usize) -> Vec<u64> {
    let mut seqs = Vec::new();
    while seqs.len() < n {
        let ev = tokio::time::timeout(Duration::from_secs(30), sse.next())
            .await
            .unwrap_or_else(|_| panic!("SSE stalled after {} of {n}", seqs.len()))
            .expect("SSE open");
        if ev.event.is_none() {
            let env: Value = serde_json::from_str(&ev.data).unwrap();
            assert_eq!(ev.id, Some(env["seq"].to_string()));
            seqs.push(env["seq"].as_u64().unwrap());
        }
    }
    seqs
}

/// The envelopes `hiveterm classify` gives for a session's stored events, in seq order:
/// (seq, msgs) of those with rows.
fn classified(db: &DbSpec, id: &str) -> Vec<(u64, Value)> {
    let raws = db.raw_events(id);
    let mut log = Vec::new();
    for ev in &raws {
        log.extend_from_slice(&ev.raw);
        log.push(b'\n');
    }
    let mut envs = Vec::new();
    let mut c = classifier::LogClassifier::new();
    c.feed(&log, |env| envs.push(env));
    c.finish(|env| envs.push(env));
    envs.into_iter()
        .zip(&raws)
        .filter(|(env, _)| !env.msgs.is_empty())
        .map(|(env, ev)| (ev.seq, serde_json::to_value(&env.msgs).unwrap()))
        .collect()
}

fn kill(mut child: std::process::Child) {
    let _ = child.kill();
    let _ = child.wait();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_replicas_every_envelope_once_in_order_on_every_client() {
    let dir = tempfile::tempdir().unwrap();
    let db = postgres(dir.path());
    let replicas: Vec<_> = (0..3).map(|_| replica(&db)).collect();
    let addrs: Vec<SocketAddr> = replicas.iter().map(|r| r.1).collect();
    let (status, v) = call_json(
        addrs[0],
        "POST",
        "/api/sessions/s/events",
        note("first").into_bytes(),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    // Two SSE clients on each replica, from the start.
    let mut clients = Vec::new();
    for addr in &addrs {
        for _ in 0..2 {
            clients.push(SseClient::connect(*addr, "/api/sessions/s/events/stream", None).await);
        }
    }
    // Three posters at once, one per replica, each posting 20 bodies of 5 lines.
    let posters: Vec<_> = addrs
        .iter()
        .enumerate()
        .map(|(r, addr)| {
            let addr = *addr;
            tokio::spawn(async move {
                for i in 0..20 {
                    let body: String = (0..5).map(|j| note(&format!("r{r} p{i} l{j}"))).collect();
                    let (status, v) =
                        call_json(addr, "POST", "/api/sessions/s/events", body.into_bytes()).await;
                    assert_eq!(status, 200, "{v}");
                }
            })
        })
        .collect();
    for p in posters {
        p.await.unwrap();
    }
    let total = 1 + 3 * 20 * 5;
    let want: Vec<u64> = (1..=total).collect();
    for (i, client) in clients.iter_mut().enumerate() {
        let got = read_seqs(client, total as usize).await;
        assert_eq!(got, want, "client {i} (replica {})", i / 2);
    }
    // History from any replica equals `hiveterm classify` of the stored events.
    let reference = classified(&db, "s");
    assert_eq!(reference.len(), total as usize);
    for addr in &addrs {
        let history: Vec<(u64, Value)> = all_history(*addr, "s", 37)
            .await
            .iter()
            .map(|e| (e["seq"].as_u64().unwrap(), e["msgs"].clone()))
            .collect();
        assert_eq!(history, reference, "history of {addr}");
        let (_, state) = call_json(*addr, "GET", "/api/sessions/s/state", vec![]).await;
        assert_eq!(state["last_seq"], total, "{addr}");
    }
    for r in replicas {
        kill(r.0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_replicas_clients_resume_on_another_and_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = postgres(dir.path());
    let (a, a_addr) = replica(&db);
    let (b, b_addr) = replica(&db);
    let (status, _) = call_json(
        a_addr,
        "POST",
        "/api/sessions/k/events",
        note("0").into_bytes(),
    )
    .await;
    assert_eq!(status, 200);
    let mut sse = SseClient::connect(a_addr, "/api/sessions/k/events/stream", None).await;
    // Posting to A until it is killed; every answered POST is acknowledged.
    let poster = tokio::spawn(async move {
        let mut acked = 1u64;
        for i in 1.. {
            let body = note(&format!("{i}")).into_bytes();
            let sent = common::try_send(a_addr, "POST", "/api/sessions/k/events", &[], body);
            match tokio::time::timeout(Duration::from_secs(5), sent).await {
                Ok(Ok((status, _, _))) if status == 200 => acked += 1,
                _ => break,
            }
        }
        acked
    });
    // Read some of it live on A, then kill A mid-ingest.
    let mut seen = read_seqs(&mut sse, 20).await;
    let pid = a.id();
    std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    kill(a);
    let acked = poster.await.unwrap();
    // The 20th envelope may be on the stream before its POST's answer reached the poster.
    assert!(acked >= 10, "only {acked} acknowledged");
    // Drain what A sent before dying; then resume on B from the last id received.
    while let Ok(Some(ev)) = tokio::time::timeout(Duration::from_millis(500), sse.next()).await {
        if ev.event.is_none() {
            seen.push(ev.id.unwrap().parse().unwrap());
        }
    }
    let last = *seen.last().unwrap();
    let stored = db.raw_events("k");
    let head = stored.len() as u64;
    assert!(head >= acked, "{head} stored, {acked} acknowledged");
    assert_eq!(
        stored.iter().map(|e| e.seq).collect::<Vec<_>>(),
        (1..=head).collect::<Vec<_>>(),
        "every acknowledged event once, gapless"
    );
    let mut resumed = SseClient::connect(b_addr, "/api/sessions/k/events/stream", Some(last)).await;
    seen.extend(read_seqs(&mut resumed, (head - last) as usize).await);
    assert_eq!(
        seen,
        (1..=head).collect::<Vec<_>>(),
        "none lost, none twice"
    );
    kill(b);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_started_together_on_an_empty_database_make_one_schema() {
    let dir = tempfile::tempdir().unwrap();
    let db = postgres(dir.path());
    let (spec1, spec2) = (db.spec.clone(), db.spec.clone());
    let one =
        std::thread::spawn(move || spawn(&["serve", "--addr", "127.0.0.1:0", "--db", &spec1], &[]));
    let two =
        std::thread::spawn(move || spawn(&["serve", "--addr", "127.0.0.1:0", "--db", &spec2], &[]));
    let (one, two) = (one.join().unwrap(), two.join().unwrap());
    for (_, addr) in [&one, &two] {
        let (status, v) = call_json(*addr, "GET", "/api/sessions", vec![]).await;
        assert_eq!(status, 200, "{v}");
    }
    let (status, _) = call_json(
        one.1,
        "POST",
        "/api/sessions/x/events",
        note("hi").into_bytes(),
    )
    .await;
    assert_eq!(status, 200);
    let (status, v) = call_json(two.1, "GET", "/api/sessions/x", vec![]).await;
    assert_eq!(
        (status.as_u16(), v["last_seq"].clone()),
        (200, Value::from(1))
    );
    assert_eq!(
        db.query_one("SELECT count(*)::text FROM schema_version"),
        "1"
    );
    kill(one.0);
    kill(two.0);
}

/// A note made on one replica shows on the others, live (issue 23): their streams get a
/// `notes` frame and their lists have it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_note_made_on_one_replica_shows_on_the_others_live() {
    let dir = tempfile::tempdir().unwrap();
    let db = postgres(dir.path());
    let replicas: Vec<_> = (0..2).map(|_| replica(&db)).collect();
    let addrs: Vec<SocketAddr> = replicas.iter().map(|r| r.1).collect();
    let (status, _) = call_json(
        addrs[0],
        "POST",
        "/api/sessions/s/events",
        format!("{}{}", note("one"), note("two")).into_bytes(),
    )
    .await;
    assert_eq!(status, 200);
    let mut streams = Vec::new();
    for addr in &addrs {
        streams.push(SseClient::connect(*addr, "/api/sessions/s/events/stream", None).await);
    }
    for (i, writer) in [0, 1].into_iter().enumerate() {
        let (status, v) = call_json(
            addrs[writer],
            "POST",
            "/api/sessions/s/notes",
            format!(r#"{{"from": 1, "to": 2, "text": "note {i}"}}"#).into_bytes(),
        )
        .await;
        assert_eq!(status, 201, "{v}");
        for sse in &mut streams {
            loop {
                let ev = tokio::time::timeout(Duration::from_secs(10), sse.next())
                    .await
                    .expect("a notes frame within 10 s")
                    .expect("SSE open");
                if ev.event.as_deref() == Some("notes") {
                    break;
                }
            }
        }
        for addr in &addrs {
            let (_, list) = call_json(*addr, "GET", "/api/sessions/s/notes", Vec::new()).await;
            assert_eq!(list["notes"].as_array().unwrap().len(), i + 1, "{list}");
        }
    }
    for r in replicas {
        kill(r.0);
    }
}
