//! Share links cost what a page costs (issue 25 §2): checkpoints are placed by bytes as well
//! as by count (so a snapshot's state or summary replays at most 8 MiB of events), the same
//! on the writer's path, after a restart and in a rebuild; and a redacted share's reads,
//! folded again from copies of one per-session fold instead of every envelope kept per share,
//! answer the rows a whole fold gives. Runs on SQLite, and on PostgreSQL with
//! `HIVETERM_TEST_DB=postgres`.

mod common;

use std::net::SocketAddr;

use axum::http::StatusCode;
use common::{SseClient, TestDb, call_json, send, spawn_server};
use hiveterm::Config;
use http_body_util::BodyExt;
use serde_json::{Value, json};

const MIB: usize = 1024 * 1024;

/// A note line of exactly `len` bytes (at least 40).
fn note_of(len: usize, i: usize) -> Vec<u8> {
    let head = format!("{{\"kind\":\"note\",\"text\":\"{i} ");
    let mut line = head.into_bytes();
    line.resize(len - 2, b'x');
    line.extend_from_slice(b"\"}");
    line
}

async fn post(addr: SocketAddr, id: &str, lines: &[Vec<u8>]) {
    // In bodies under the request limit (64 MiB + 1 MiB).
    let mut body = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        body.extend_from_slice(line);
        body.push(b'\n');
        if body.len() > 32 * MIB || i + 1 == lines.len() {
            let (status, v) = call_json(
                addr,
                "POST",
                &format!("/api/sessions/{id}/events"),
                std::mem::take(&mut body),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{v}");
        }
    }
}

/// The seqs of session `id`'s checkpoints.
fn checkpoints(db: &TestDb, id: &str) -> Vec<u64> {
    let sql = if db.db.is_postgres() {
        format!(
            "SELECT COALESCE(string_agg(seq::text, ',' ORDER BY seq), '') FROM checkpoints \
             WHERE session = '{id}'"
        )
    } else {
        format!(
            "SELECT COALESCE(group_concat(seq, ','), '') FROM \
             (SELECT seq FROM checkpoints WHERE session = '{id}' ORDER BY seq)"
        )
    };
    db.db
        .query_one(&sql)
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect()
}

/// Lines of the given sizes, `n` of each.
fn sized(parts: &[(usize, usize)]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for &(n, len) in parts {
        for _ in 0..n {
            out.push(note_of(len, out.len()));
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn checkpoints_are_placed_by_count_and_by_bytes() {
    // (name, events as (count, bytes each), checkpoint seqs with the default interval, 256)
    type Case<'a> = (&'a str, &'a [(usize, usize)], &'a [u64]);
    let cases: &[Case] = &[
        ("3 MiB events: one every 3", &[(9, 3 * MIB)], &[3, 6, 9]),
        ("9 MiB events: each", &[(2, 9 * MIB)], &[1, 2]),
        ("small events: every 256", &[(600, 200)], &[256, 512]),
        (
            "a big one, then small ones up to the count",
            &[(1, 5 * MIB), (300, 1024)],
            &[256],
        ),
        (
            "bytes and count mixed",
            &[(2, 3 * MIB), (100, 1024), (1, 3 * MIB), (300, 100)],
            &[103, 256],
        ),
    ];
    for (name, parts, want) in cases {
        let db = TestDb::with(Config::default(), 256);
        let addr = spawn_server(db.state.clone()).await;
        post(addr, "s", &sized(parts)).await;
        assert_eq!(checkpoints(&db, "s"), *want, "{name}");
    }

    // A restarted server goes on counting from its newest checkpoint: the placement is the
    // one a single run gives, and a rebuild of the derived tables gives it too.
    let lines = sized(&[(6, 3 * MIB), (10, 1024)]);
    let db = TestDb::with(Config::default(), 256);
    let addr = spawn_server(db.state.clone()).await;
    post(addr, "r", &lines[..4]).await; // checkpoint at 3; event 4 (3 MiB) after it
    db.state.store().close().await;
    let store = db.reopen(256);
    let state = hiveterm::AppState::new(store, Config::default());
    let addr = spawn_server(state.clone()).await;
    // Event 5: 6 MiB since the checkpoint at 3 (counting event 4, before the restart); 6: 9.
    post(addr, "r", &lines[4..]).await;
    assert_eq!(checkpoints(&db, "r"), [3, 6], "after a restart");
    state.store().close().await;
    db.sql("UPDATE meta SET value = 'stale' WHERE key = 'derived'");
    let store = db.reopen(256);
    assert_eq!(checkpoints(&db, "r"), [3, 6], "rebuilt");
    store.close().await;
}

/// A GET's status and JSON.
async fn get_json(addr: SocketAddr, path: &str) -> (StatusCode, Value) {
    let (status, _, body) = send(addr, "GET", path, &[], Vec::new()).await;
    let bytes = body.collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// Every envelope under `base` (`/api/sessions/{id}` or `/p/<token>/api`), oldest first, in
/// pages of `limit`.
async fn all_pages(addr: SocketAddr, base: &str, limit: usize) -> Vec<Value> {
    let mut out = Vec::new();
    let mut before: Option<u64> = None;
    loop {
        let path = match before {
            Some(b) => format!("{base}/events/history?limit={limit}&before={b}"),
            None => format!("{base}/events/history?limit={limit}"),
        };
        let (status, page) = get_json(addr, &path).await;
        assert_eq!(status, StatusCode::OK, "{path}: {page}");
        let envs = page["envelopes"].as_array().expect("envelopes");
        out.splice(0..0, envs.iter().rev().cloned());
        match page["next_before"].as_u64() {
            Some(b) => before = Some(b),
            None => return out,
        }
    }
}

/// A share of session `id` made with `body`: its base path for reads.
async fn share(addr: SocketAddr, id: &str, body: Value) -> String {
    let (status, _, res) = send(
        addr,
        "POST",
        &format!("/api/sessions/{id}/shares"),
        &[("content-type", "application/json")],
        body.to_string().into_bytes(),
    )
    .await;
    let v: Value = serde_json::from_slice(&res.collect().await.unwrap().to_bytes()).unwrap();
    assert_eq!(status, StatusCode::CREATED, "{v}");
    format!("{}/api", v["url"].as_str().unwrap())
}

/// Event `i`: a tool call and its result (rows and context), about 700 bytes, the result of
/// event 11 holding a GitHub token.
fn event(i: usize) -> Vec<u8> {
    let text = if i == 11 {
        "token ghp_R4nd0mL00k1ngT0k3nV4lu3Xy2Zq8Wm5Np7K".to_owned()
    } else {
        format!("output {i} {}", "y".repeat(500))
    };
    let line = if i.is_multiple_of(2) {
        json!({"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": format!("t{i}"), "name": "Bash",
             "input": {"command": format!("echo {i}")}}]}})
    } else {
        json!({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": format!("t{}", i - 1), "content": text}]}})
    };
    line.to_string().into_bytes()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redacted_shares_read_from_one_bounded_fold_the_rows_of_a_whole_one() {
    let db = TestDb::with(Config::default(), 256);
    let addr = spawn_server(db.state.clone()).await;
    // Over 2 MiB of envelopes: past the newest-envelope window (1 MiB) and two checkpoints.
    let n = 3200;
    let events: Vec<Vec<u8>> = (1..=n).map(event).collect();
    post(addr, "big", &events[..2000]).await;
    let snap = share(addr, "big", json!({"redact": true})).await; // at 2000
    let plain_snap = share(addr, "big", json!({})).await;
    post(addr, "big", &events[2000..]).await;
    let live = share(addr, "big", json!({"redact": true, "live": true})).await;
    let live2 = share(addr, "big", json!({"redact": true, "live": true})).await;

    let session = all_pages(addr, "/api/sessions/big", 1000).await;
    let secret = |e: &Value| e.to_string().contains("ghp_R4nd0m");
    assert!(session.iter().any(secret), "the token is there unredacted");
    // The redacted rows: the session's, but for the event with the token.
    let same = |a: &[Value], b: &[Value], what: &str| {
        assert_eq!(a.len(), b.len(), "{what}: envelopes");
        for (x, y) in a.iter().zip(b) {
            if x["seq"] == 11 {
                assert!(
                    !secret(y) && y.to_string().contains("[REDACTED:"),
                    "{what}: {y}"
                );
            } else {
                assert_eq!(x, y, "{what}");
            }
        }
    };
    for (base, upto, limit) in [
        (&live, n, 1000),
        (&live2, n, 37),
        (&snap, 2000, 200),
        (&snap, 2000, 1),
    ] {
        let got = all_pages(addr, base, limit).await;
        let want: Vec<Value> = session
            .iter()
            .filter(|e| e["seq"].as_u64().unwrap() <= upto as u64)
            .cloned()
            .collect();
        same(&want, &got, &format!("{base} in pages of {limit}"));
    }
    // A page from the middle, folded again from a copy.
    let (_, page) = get_json(addr, &format!("{live}/events/history?before=1500&limit=3")).await;
    let seqs: Vec<u64> = page["envelopes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(
        (seqs, &page["next_before"]),
        (vec![1499, 1498, 1497], &json!(1497))
    );

    // A snapshot behind the fold's tip: its badges and summary are the plain snapshot's.
    for what in ["state", "summary"] {
        let (_, mut redacted) = get_json(addr, &format!("{snap}/{what}")).await;
        let (_, mut plain) = get_json(addr, &format!("{plain_snap}/{what}")).await;
        // A snapshot ends when its share was made: a moment apart.
        for v in [&mut redacted, &mut plain] {
            if let Some(o) = v.as_object_mut() {
                o.remove("ended");
            }
        }
        assert_eq!(redacted, plain, "{what}");
    }
    let (_, state) = get_json(addr, &format!("{live}/state")).await;
    assert_eq!(state["last_seq"], n, "{state}");

    // A live stream from the start: the whole backlog, in bounded pieces, then a new event.
    let mut tail = SseClient::connect(addr, &format!("{live}/events/stream"), Some(0)).await;
    let mut got = Vec::new();
    while got.len() < session.len() {
        let ev = tail.next().await.expect("stream");
        if ev.event.as_deref().unwrap_or("message") == "message" && ev.id.is_some() {
            got.push(serde_json::from_str::<Value>(&ev.data).unwrap());
        }
    }
    same(&session, &got, "the stream's backlog");
    post(addr, "big", &[event(n + 1)]).await;
    loop {
        let ev = tail.next().await.expect("stream");
        if ev.id.as_deref() == Some(&(n + 1).to_string()) {
            break;
        }
    }
}
