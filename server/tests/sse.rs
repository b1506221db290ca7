//! The SSE live tail on a real port: backlog, live frames, Last-Event-ID, keep-alives,
//! reconnects at random points while events flow, a client that falls behind, and the
//! transient `preview` frames of partial messages.

mod common;

use std::time::Duration;

use common::{SseClient, TestDb, all_history, call_json, spawn_server};
use hiveterm::Config;
use serde_json::Value;

fn note(text: &str) -> String {
    format!("{{\"kind\":\"note\",\"text\":\"{text}\"}}\n")
}

async fn post(addr: std::net::SocketAddr, id: &str, body: String) -> Vec<u64> {
    let (status, v) = call_json(
        addr,
        "POST",
        &format!("/api/sessions/{id}/events"),
        body.into_bytes(),
    )
    .await;
    assert!(status.is_success(), "{v}");
    v["seqs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap())
        .collect()
}

async fn next_envelope(c: &mut SseClient) -> (u64, Value) {
    loop {
        let ev = tokio::time::timeout(Duration::from_secs(10), c.next())
            .await
            .expect("a frame within 10 s")
            .expect("stream open");
        if matches!(ev.event.as_deref(), Some("state" | "preview")) {
            continue;
        }
        let env: Value = serde_json::from_str(&ev.data).unwrap();
        let id: u64 = ev.id.unwrap().parse().unwrap();
        assert_eq!(env["seq"].as_u64(), Some(id));
        return (id, env);
    }
}

#[tokio::test]
async fn backlog_then_state_then_live_frames() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    post(
        addr,
        "s",
        format!(
            "{}{{\"kind\":\"status_changed\",\"status\":\"busy\"}}\n{}",
            note("one"),
            note("three")
        ),
    )
    .await;
    let mut c = SseClient::connect(addr, "/api/sessions/s/events/stream", None).await;
    let a = c.next().await.unwrap();
    assert_eq!(a.id.as_deref(), Some("1"));
    let env: Value = serde_json::from_str(&a.data).unwrap();
    assert_eq!(env["msgs"][0]["summary"], "one");
    assert!(env["ts"].as_f64().is_some());
    // seq 2 has no rows: no frame.
    assert_eq!(c.next().await.unwrap().id.as_deref(), Some("3"));
    let state = c.next().await.unwrap();
    assert_eq!(state.event.as_deref(), Some("state"));
    assert_eq!(state.id, None);
    let state: Value = serde_json::from_str(&state.data).unwrap();
    assert_eq!(state["status"], "busy");
    assert_eq!(state["last_seq"], 3);
    post(addr, "s", note("four")).await;
    assert_eq!(next_envelope(&mut c).await.0, 4);
    // A state change is pushed.
    post(
        addr,
        "s",
        "{\"kind\":\"status_changed\",\"status\":\"idle\"}\n".into(),
    )
    .await;
    let ev = tokio::time::timeout(Duration::from_secs(5), c.next())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(ev.event.as_deref(), Some("state"));
    assert_eq!(
        serde_json::from_str::<Value>(&ev.data).unwrap()["status"],
        "idle"
    );
    // Ending the session is pushed too.
    call_json(addr, "POST", "/api/sessions/s/end", vec![]).await;
    let ev = tokio::time::timeout(Duration::from_secs(5), c.next())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&ev.data).unwrap()["live"],
        false
    );
}

#[tokio::test]
async fn last_event_id_and_after_choose_the_start() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    post(addr, "s", (1..=6).map(|i| note(&format!("n{i}"))).collect()).await;
    for (path, last, first) in [
        ("/api/sessions/s/events/stream?after=2", None, 3),
        ("/api/sessions/s/events/stream", Some(4), 5),
        // The header (a browser's reconnect) wins over the URL's `after`.
        ("/api/sessions/s/events/stream?after=1", Some(5), 6),
    ] {
        let mut c = SseClient::connect(addr, path, last).await;
        assert_eq!(next_envelope(&mut c).await.0, first, "{path} {last:?}");
    }
    // Past the end: waits, then gets what comes.
    let mut c = SseClient::connect(addr, "/api/sessions/s/events/stream?after=6", None).await;
    post(addr, "s", note("n7")).await;
    assert_eq!(next_envelope(&mut c).await.0, 7);
    let (status, _) =
        common::call(addr, "GET", "/api/sessions/s/events/stream?after=x", vec![]).await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn keep_alive_comments_and_shutdown_ends_streams() {
    let config = Config {
        keep_alive: Duration::from_millis(50),
        ..Config::default()
    };
    let db = TestDb::with(config, 4);
    let addr = spawn_server(db.state.clone()).await;
    post(addr, "s", note("a")).await;
    let mut c = SseClient::connect(addr, "/api/sessions/s/events/stream", None).await;
    next_envelope(&mut c).await;
    let state = c.next().await.unwrap();
    assert_eq!(state.event.as_deref(), Some("state"));
    let waited = tokio::time::timeout(Duration::from_millis(300), c.next()).await;
    assert!(waited.is_err(), "no frame expected, got {waited:?}");
    // The comments arrived and were skipped by the reader.
    db.state.begin_shutdown();
    let end = tokio::time::timeout(Duration::from_secs(5), c.next())
        .await
        .unwrap();
    assert_eq!(end, None);
    assert!(c.comments >= 2, "{} keep-alive comments", c.comments);
}

/// Tiny deterministic PRNG (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnecting_at_random_points_receives_every_envelope_once_in_order() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    let fixture = common::fixture("claude-code-2.1.332/mcp_tools.stream.jsonl");
    let fixture: Vec<String> = String::from_utf8(fixture)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    post(addr, "s", note("start")).await;
    let producer = tokio::spawn(async move {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for round in 0..120 {
            let mut body = String::new();
            for i in 0..=rng.next(6) {
                match rng.next(4) {
                    0 => body.push_str(&note(&format!("r{round} i{i}"))),
                    1 => body.push_str("{\"kind\":\"status_changed\",\"status\":\"busy\"}\n"),
                    _ => {
                        body.push_str(&fixture[rng.next(fixture.len() as u64) as usize]);
                        body.push('\n');
                    }
                }
            }
            post(addr, "s", body).await;
            tokio::time::sleep(Duration::from_millis(rng.next(8))).await;
        }
        post(addr, "s", note("the end")).await;
    });
    let mut rng = Rng(42);
    let mut got: Vec<(u64, Value)> = Vec::new();
    let mut reconnects = 0;
    'outer: loop {
        let last = got.last().map(|(s, _)| *s);
        let mut c = SseClient::connect(addr, "/api/sessions/s/events/stream", last).await;
        reconnects += 1;
        let take = 1 + rng.next(25);
        for _ in 0..take {
            let (seq, env) = next_envelope(&mut c).await;
            let done = env["msgs"][0]["summary"] == "the end";
            got.push((seq, env));
            if done {
                break 'outer;
            }
        }
        drop(c);
    }
    producer.await.unwrap();
    let want = all_history(addr, "s", 1000).await;
    let seqs: Vec<u64> = got.iter().map(|(s, _)| *s).collect();
    let want_seqs: Vec<u64> = want.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
    assert_eq!(seqs, want_seqs, "after {reconnects} reconnects");
    for ((_, env), w) in got.iter().zip(&want) {
        assert_eq!(env, w, "live and history envelopes agree");
    }
    assert!(reconnects > 10, "{reconnects}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_falls_behind_still_gets_everything() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    post(addr, "s", note("first")).await;
    let mut c = SseClient::connect(addr, "/api/sessions/s/events/stream", None).await;
    assert_eq!(next_envelope(&mut c).await.0, 1);
    // Far more batches than the broadcast holds, with big frames, while the client reads nothing.
    let big = "z".repeat(3000);
    for i in 0..1300 {
        post(addr, "s", note(&format!("{i} {big}"))).await;
    }
    for want in 2..=1301 {
        assert_eq!(next_envelope(&mut c).await.0, want);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_commit_bigger_than_a_batch_reaches_the_client_whole() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    post(addr, "s", note("first")).await;
    let mut c = SseClient::connect(addr, "/api/sessions/s/events/stream", None).await;
    assert_eq!(next_envelope(&mut c).await.0, 1);
    let big = "w".repeat(4000);
    let body: String = (0..100).map(|i| note(&format!("{i} {big}"))).collect();
    assert!(body.len() > hiveterm::MAX_INLINE_BATCH);
    post(addr, "s", body).await;
    post(addr, "s", note("after")).await;
    for want in 2..=102 {
        assert_eq!(next_envelope(&mut c).await.0, want);
    }
}

/// Frames until (and with) the envelope of `seq`.
async fn frames_through(c: &mut SseClient, seq: u64) -> Vec<common::SseEvent> {
    let mut out = Vec::new();
    loop {
        let ev = tokio::time::timeout(Duration::from_secs(10), c.next())
            .await
            .expect("a frame within 10 s")
            .expect("stream open");
        let done = ev.event.is_none() && ev.id.as_deref() == Some(seq.to_string().as_str());
        out.push(ev);
        if done {
            return out;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn partial_messages_send_growing_preview_frames_and_leave_envelopes_alone() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    let fixture = String::from_utf8(common::fixture(
        "claude-code-2.1.332/partial_messages.stream.jsonl",
    ))
    .unwrap();
    let lines: Vec<&str> = fixture.lines().collect();
    let chunks: Vec<String> = lines
        .chunks(5)
        .map(|c| c.iter().map(|l| format!("{l}\n")).collect())
        .collect();
    // Lines 1–5 end inside a thinking block: the first client gets that preview after its
    // backlog.
    post(addr, "p", chunks[0].clone()).await;
    let mut c = SseClient::connect(addr, "/api/sessions/p/events/stream", None).await;
    for chunk in &chunks[1..4] {
        post(addr, "p", chunk.clone()).await;
    }
    // Lines 1–20 end inside the first text block (its first delta, "Reading "): a client
    // connecting now gets its backlog, the state, then the preview as of the head.
    let mut late = SseClient::connect(addr, "/api/sessions/p/events/stream", None).await;
    let mut backlog = Vec::new();
    let preview = loop {
        let ev = tokio::time::timeout(Duration::from_secs(10), late.next())
            .await
            .unwrap()
            .unwrap();
        if ev.event.as_deref() == Some("preview") {
            break ev;
        }
        backlog.push(ev);
    };
    assert_eq!(preview.id, None);
    assert_eq!(
        backlog.last().and_then(|e| e.event.as_deref()),
        Some("state")
    );
    let v: Value = serde_json::from_str(&preview.data).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"seq": 20, "kind": "text", "tool": null, "text": "Reading "})
    );
    for chunk in &chunks[4..] {
        post(addr, "p", chunk.clone()).await;
    }
    let end = post(addr, "p", note("the end")).await[0];
    let frames = frames_through(&mut c, end).await;

    // Envelopes: exactly history's, ids their seqs.
    let envs: Vec<(u64, Value)> = frames
        .iter()
        .filter(|f| f.event.is_none())
        .map(|f| {
            let env: Value = serde_json::from_str(&f.data).unwrap();
            (f.id.as_ref().unwrap().parse().unwrap(), env)
        })
        .collect();
    let want = all_history(addr, "p", 1000).await;
    assert_eq!(envs.len(), want.len());
    for ((id, env), w) in envs.iter().zip(&want) {
        assert_eq!(Some(*id), w["seq"].as_u64());
        assert_eq!(env, w);
    }

    // Previews: no id; within a kind the text only grows; each block's text is seen
    // growing; the last one is cleared.
    let previews: Vec<Value> = frames
        .iter()
        .filter(|f| f.event.as_deref() == Some("preview"))
        .map(|f| {
            assert_eq!(f.id, None, "a preview frame has no id");
            serde_json::from_str(&f.data).unwrap()
        })
        .collect();
    let texts = |kind: &str| -> Vec<String> {
        previews
            .iter()
            .filter(|p| p["kind"] == kind)
            .map(|p| p["text"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        texts("thinking"),
        [
            "",
            "Thinking streamed in sma",
            "Thinking streamed in small chunks."
        ]
    );
    // One frame per batch of five lines: the second text block starts empty and grows.
    assert_eq!(
        texts("text"),
        ["Reading ", "", "`lib.rs` defines **add** and *"]
    );
    let tool: Vec<&Value> = previews
        .iter()
        .filter(|p| p["kind"] == "tool_input")
        .collect();
    assert!(tool.len() >= 2, "{previews:?}");
    assert!(tool.iter().all(|p| p["tool"] == "Read"));
    for pair in previews.windows(2) {
        assert!(
            pair[0]["seq"].as_u64() < pair[1]["seq"].as_u64(),
            "{pair:?}"
        );
        if pair[0]["kind"] == pair[1]["kind"] && !pair[1]["kind"].is_null() {
            let (a, b) = (pair[0]["text"].as_str(), pair[1]["text"].as_str());
            assert!(b.unwrap().starts_with(a.unwrap()), "{pair:?}");
        }
    }
    assert!(previews.iter().any(|p| p["kind"].is_null()));
    assert!(previews.last().unwrap()["kind"].is_null(), "{previews:?}");
}
