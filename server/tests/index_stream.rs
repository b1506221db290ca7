//! The index's live feed (issue 22, "it updates live"): `GET /api/index/stream` on a real
//! port sends a session's entry, exactly as `GET /api/sessions` lists it, when it is made,
//! appended to and ended; a session appended to without pause is sent at most about four
//! times a second; a client that never reads holds no writer back (one that falls behind is
//! told to read the index again: `reset`, tested in `index/stream.rs`); and only the server's token opens it (no token, a wrong one or a share link's token is
//! `401`). Runs on SQLite, and on PostgreSQL with `HIVETERM_TEST_DB=postgres`; the replicas'
//! test (two servers on one database) always runs on PostgreSQL.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use common::{DbSpec, SseClient, SseEvent, TestDb, send, spawn, spawn_server};
use hiveterm::Config;
use http_body_util::BodyExt;
use serde_json::{Value, json};

const TOKEN: &str = "index-stream-token-0123456789";
const STREAM: &str = "/api/index/stream";

fn with_token(path: &str) -> String {
    let sep = if path.contains('?') { '&' } else { '?' };
    format!("{path}{sep}token={TOKEN}")
}

async fn call(addr: SocketAddr, method: &str, path: &str, body: Vec<u8>) -> (StatusCode, Value) {
    let (status, _, body) = send(addr, method, &with_token(path), &[], body).await;
    let bytes = body.collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

async fn post(addr: SocketAddr, id: &str, body: &[Value]) {
    let mut bytes = Vec::new();
    for line in body {
        bytes.extend(line.to_string().into_bytes());
        bytes.push(b'\n');
    }
    let (status, v) = call(
        addr,
        "POST",
        &format!("/api/sessions/{id}/events?title=Index%20stream"),
        bytes,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "POST {id}: {v}");
}

fn init(cwd: &str) -> Value {
    json!({"type": "system", "subtype": "init", "model": "m1", "cwd": cwd, "session_id": "x"})
}

fn result(cost: f64) -> Value {
    json!({"type": "result", "subtype": "success", "is_error": false, "total_cost_usd": cost,
        "usage": {"input_tokens": 10, "output_tokens": 20}})
}

fn note(i: usize) -> Value {
    json!({"kind": "note", "text": format!("note {i}")})
}

fn token_server() -> TestDb {
    TestDb::with(
        Config {
            token: Some(TOKEN.into()),
            ..Config::default()
        },
        4,
    )
}

/// The next `session` (or `reset`) event within `wait`.
async fn next_event(c: &mut SseClient, wait: Duration) -> SseEvent {
    tokio::time::timeout(wait, c.next())
        .await
        .expect("an index event in time")
        .expect("the stream open")
}

/// Reads `session` events until one of `id` satisfies `want`, within `wait` of now;
/// answers its entry.
async fn until_entry(
    c: &mut SseClient,
    id: &str,
    wait: Duration,
    want: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + wait;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let ev = next_event(c, left).await;
        assert_eq!(ev.event.as_deref(), Some("session"), "{ev:?}");
        assert_eq!(ev.id, None, "no id: nothing to resume");
        let entry: Value = serde_json::from_str(&ev.data).unwrap();
        if entry["id"] == id && want(&entry) {
            return entry;
        }
    }
}

#[tokio::test]
async fn a_session_made_appended_to_and_ended_shows_on_the_stream_as_listed() {
    let db = token_server();
    let addr = spawn_server(db.state.clone()).await;
    let mut c = SseClient::connect(addr, &with_token(STREAM), None).await;
    let second = Duration::from_secs(1);

    post(addr, "fresh", &[init("/work/app")]).await;
    let made = until_entry(&mut c, "fresh", second, |e| e["last_seq"] == 1).await;
    assert_eq!(made["project"], "/work/app");
    assert_eq!(made["status"], "in flight");
    assert_eq!(made["live"], true);

    // Past the coalescing window, so the next change goes at once.
    tokio::time::sleep(Duration::from_millis(300)).await;
    post(addr, "fresh", &[result(0.25)]).await;
    let appended = until_entry(&mut c, "fresh", second, |e| e["last_seq"] == 2).await;
    assert_eq!(appended["cost"], 0.25);
    assert_eq!(appended["turns"], 1);
    assert_eq!(appended["status"], "ok");
    assert_eq!(appended["tokens"]["output"], 20);
    let (status, listed) = call(addr, "GET", "/api/sessions", Vec::new()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        listed["sessions"][0], appended,
        "the stream's entry is the list's"
    );

    tokio::time::sleep(Duration::from_millis(300)).await;
    let (status, _) = call(addr, "POST", "/api/sessions/fresh/end", b"{}".to_vec()).await;
    assert_eq!(status, StatusCode::OK);
    let ended = until_entry(&mut c, "fresh", second, |e| e["live"] == false).await;
    assert!(ended["ended"].is_f64(), "{ended}");
    let (_, one) = call(addr, "GET", "/api/sessions/fresh", Vec::new()).await;
    assert_eq!(one, ended);
}

#[tokio::test]
async fn a_session_appended_to_without_pause_is_sent_a_few_times_a_second() {
    let db = token_server();
    let addr = spawn_server(db.state.clone()).await;
    let mut c = SseClient::connect(addr, &with_token(STREAM), None).await;
    // Another session, quiet, and a busy one: 150 appends of one line, one after another.
    post(addr, "quiet", &[note(0)]).await;
    let started = Instant::now();
    let writer = tokio::spawn(async move {
        for i in 0..150 {
            post(addr, "busy", &[note(i)]).await;
        }
    });
    let mut busy = Vec::new();
    let mut quiet = 0;
    loop {
        let ev = next_event(&mut c, Duration::from_secs(5)).await;
        assert_eq!(ev.event.as_deref(), Some("session"), "{ev:?}");
        let entry: Value = serde_json::from_str(&ev.data).unwrap();
        match entry["id"].as_str() {
            Some("busy") => {
                let seq = entry["last_seq"].as_u64().unwrap();
                busy.push((Instant::now(), seq));
                if seq == 150 {
                    break;
                }
            }
            Some("quiet") => quiet += 1,
            other => panic!("{other:?}"),
        }
    }
    writer.await.unwrap();
    let took = started.elapsed().as_secs_f64();
    assert_eq!(quiet, 1, "a session that changed once is sent once");
    // The first at once, then at most one per 250 ms (a little slack for timers).
    let most = 2 + (took / 0.25).ceil() as usize;
    assert!(
        busy.len() <= most,
        "{} frames in {took:.2} s for 150 appends",
        busy.len()
    );
    assert!(busy.len() < 150, "coalesced: {} frames", busy.len());
    for pair in busy.windows(2) {
        assert!(pair[0].1 < pair[1].1, "newer each time: {busy:?}");
        let gap = pair[1].0 - pair[0].0;
        assert!(gap >= Duration::from_millis(200), "{gap:?} between frames");
    }
    // Nothing more once it is quiet: the last state went.
    let more = tokio::time::timeout(Duration::from_millis(600), c.next()).await;
    assert!(more.is_err(), "{more:?}");
}

#[tokio::test]
async fn only_the_servers_token_opens_the_stream() {
    let db = token_server();
    let addr = spawn_server(db.state.clone()).await;
    post(addr, "mine", &[note(1)]).await;
    let (status, v) = call(
        addr,
        "POST",
        "/api/sessions/mine/shares",
        b"{\"live\": true}".to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let share = v["url"].as_str().unwrap()["/p/".len()..].to_owned();
    let share_bearer = format!("Bearer {share}");
    let with_share = format!("{STREAM}?token={share}");
    let cases: [(&str, Vec<(&str, &str)>); 5] = [
        (STREAM, vec![]),
        (STREAM, vec![("authorization", "Bearer wrong")]),
        (&with_share, vec![]),
        (STREAM, vec![("authorization", &share_bearer)]),
        (
            &format!("/p/{share}/api/index/stream"),
            vec![("accept", "text/event-stream")],
        ),
    ];
    for (i, (path, headers)) in cases.iter().enumerate() {
        let (status, _, _) = send(addr, "GET", path, headers, Vec::new()).await;
        let want = if i == 4 {
            StatusCode::NOT_FOUND
        } else {
            StatusCode::UNAUTHORIZED
        };
        assert_eq!(status, want, "{path} {headers:?}");
    }
    // The server's token, in the header too.
    let bearer = format!("Bearer {TOKEN}");
    let (status, h, _) = send(
        addr,
        "GET",
        STREAM,
        &[("authorization", &bearer)],
        Vec::new(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(h["content-type"], "text/event-stream");
}

#[tokio::test]
async fn keep_alive_comments_and_a_client_that_never_reads_does_not_hold_writers() {
    let db = TestDb::with(
        Config {
            keep_alive: Duration::from_millis(50),
            ..Config::default()
        },
        4,
    );
    let addr = spawn_server(db.state.clone()).await;
    let mut c = SseClient::connect(addr, STREAM, None).await;
    // A client that never reads a byte.
    let (_, _, _stuck) = send(addr, "GET", STREAM, &[], Vec::new()).await;
    // Many sessions changing, each sent once: more than the stuck client's buffers hold.
    let started = Instant::now();
    for i in 0..300 {
        post(addr, &format!("s{i:03}"), &[note(i)]).await;
    }
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "writers were held: {:?}",
        started.elapsed()
    );
    let mut seen = std::collections::HashSet::new();
    while seen.len() < 300 {
        let ev = next_event(&mut c, Duration::from_secs(5)).await;
        match ev.event.as_deref() {
            Some("session") => {
                let entry: Value = serde_json::from_str(&ev.data).unwrap();
                seen.insert(entry["id"].as_str().unwrap().to_owned());
            }
            other => panic!("{other:?}"),
        }
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let _ = tokio::time::timeout(Duration::from_millis(100), c.next()).await;
    assert!(c.comments > 0, "keep-alive comments");
    db.state.begin_shutdown();
    let end = tokio::time::timeout(Duration::from_secs(5), async {
        while c.next().await.is_some() {}
    })
    .await;
    assert!(end.is_ok(), "shutdown ends the stream");
}

/// Two servers on one PostgreSQL database: a session made and appended to through one shows
/// on the other's index stream (a session the other never loaded: read from the database).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_each_see_the_others_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh_postgres(dir.path());
    let args = ["serve", "--addr", "127.0.0.1:0", "--db", &db.spec];
    let (a, a_addr) = spawn(&args, &[]);
    let (b, b_addr) = spawn(&args, &[]);
    let mut on_b = SseClient::connect(b_addr, STREAM, None).await;
    let mut on_a = SseClient::connect(a_addr, STREAM, None).await;
    let body = format!("{}\n{}\n", init("/srv/x"), result(1.5));
    let (status, _) = common::call_json(
        a_addr,
        "POST",
        "/api/sessions/across/events",
        body.into_bytes(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let second = Duration::from_secs(1);
    let seen_b = until_entry(&mut on_b, "across", second, |e| e["last_seq"] == 2).await;
    let seen_a = until_entry(&mut on_a, "across", second, |e| e["last_seq"] == 2).await;
    assert_eq!(seen_b, seen_a);
    assert_eq!(seen_b["cost"], 1.5);
    assert_eq!(seen_b["project"], "/srv/x");
    // Ended through B: A sees it too.
    let (status, _) =
        common::call_json(b_addr, "POST", "/api/sessions/across/end", b"{}".to_vec()).await;
    assert_eq!(status, StatusCode::OK);
    until_entry(&mut on_a, "across", second * 2, |e| e["live"] == false).await;
    for mut child in [a, b] {
        let _ = child.kill();
        let _ = child.wait();
    }
}
