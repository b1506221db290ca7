//! Issue 9's floods and poisons, against the real router over a real database (SQLite, or
//! PostgreSQL with `HIVETERM_TEST_DB=postgres`): a POST of millions of lines while another
//! session posts, history pages of huge events, a `1e308` that made a checkpoint unreadable, a
//! checkpoint that does not parse, one failing write among others, badge values of any size.
//!
//! No timing asserts (they flaked on a loaded machine): "does not wait for" is asserted as an
//! order of events — requests answered while the big one is still in flight.

mod common;

use std::time::Duration;

use common::{TestDb, call_json, spawn_server};
use hiveterm::{AppState, Config};
use serde_json::Value;
use sha2::Digest;

fn note(text: &str) -> String {
    serde_json::json!({ "kind": "note", "text": text }).to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_of_8_million_lines_is_refused_before_anything_is_stored() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    let body = b"x\n".repeat(8 * 1024 * 1024);
    let (status, v) = call_json(addr, "POST", "/api/sessions/flood/events", body).await;
    assert_eq!(status, 413, "{v}");
    assert!(v["error"].as_str().unwrap().contains("lines"), "{v}");
    let (status, _) = call_json(addr, "GET", "/api/sessions/flood", vec![]).await;
    assert_eq!(status, 404, "nothing stored");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_many_line_post_takes_turns_with_another_sessions_posts() {
    let db = TestDb::with(Config::default(), 256);
    let addr = spawn_server(db.state.clone()).await;
    let lines = 200_000;
    let body = (note("x") + "\n").repeat(lines).into_bytes();
    let big = tokio::spawn(call_json(addr, "POST", "/api/sessions/big/events", body));
    // Another session posts while the big one is stored: its posts are answered while the
    // big one is still in flight (were they queued behind it, at most the one posted just
    // before the big one's end could be).
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (mut during, mut posted) = (0, 0);
    while !big.is_finished() {
        let (status, v) = call_json(
            addr,
            "POST",
            "/api/sessions/other/events",
            (note(&format!("small {posted}")) + "\n").into_bytes(),
        )
        .await;
        assert_eq!(status, 200, "{v}");
        posted += 1;
        if !big.is_finished() {
            during += 1;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (status, v) = big.await.unwrap();
    assert_eq!(status, 200, "{v}");
    eprintln!("{during} of {posted} small posts answered while the big one was stored");
    assert!(
        during >= 3,
        "{during} small posts answered during the big one"
    );
    let (_, s) = call_json(addr, "GET", "/api/sessions/other", vec![]).await;
    assert_eq!(s["last_seq"], posted);
    // One range, consecutive seqs, not a list of 200,000.
    assert_eq!(v["count"], lines);
    assert_eq!(v["first_seq"], 1);
    assert_eq!(v["last_seq"], lines);
    assert!(v.get("seqs").is_none(), "seqs listed");
    let (_, s) = call_json(addr, "GET", "/api/sessions/big", vec![]).await;
    assert_eq!(s["last_seq"], lines);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_pages_of_huge_events_are_capped_by_bytes() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    let big = "y".repeat(4 * 1024 * 1024);
    let body = (0..6).map(|_| note(&big) + "\n").collect::<String>();
    let (status, v) = call_json(addr, "POST", "/api/sessions/huge/events", body.into_bytes()).await;
    assert_eq!(status, 200, "{v}");
    let mut before = String::new();
    let mut seen = Vec::new();
    let mut cut = false;
    loop {
        let (status, page) = call_json(
            addr,
            "GET",
            &format!("/api/sessions/huge/events/history?limit=100{before}"),
            vec![],
        )
        .await;
        assert_eq!(status, 200);
        let bytes = page.to_string().len();
        assert!(bytes <= 17 * 1024 * 1024, "a page of {bytes} bytes");
        let envs = page["envelopes"].as_array().unwrap();
        assert!(!envs.is_empty());
        seen.extend(envs.iter().map(|e| e["seq"].as_u64().unwrap()));
        cut |= page["cut_by_bytes"] == true;
        match page["next_before"].as_u64() {
            Some(b) => before = format!("&before={b}"),
            None => break,
        }
    }
    assert!(cut, "no page said it was cut by bytes");
    assert_eq!(
        seen,
        [6, 5, 4, 3, 2, 1],
        "every envelope once, newest first"
    );
}

/// Reopens the database as a restarted server would.
async fn restart(db: &TestDb) -> AppState {
    db.state.store().close().await;
    AppState::new(db.reopen(4), Config::default())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_1e308_cost_or_duration_poisons_nothing_even_after_a_restart() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    let result = r#"{"type":"result","subtype":"success","is_error":false,"duration_ms":1e308,"total_cost_usd":1e308,"result":"ok"}"#;
    let nan = r#"{"type":"result","subtype":"success","is_error":false,"duration_ms":-1e308,"total_cost_usd":-5,"result":"ok"}"#;
    let body = [result, result, nan, result, result, result, result, result].join("\n");
    let (status, v) = call_json(addr, "POST", "/api/sessions/p/events", body.into_bytes()).await;
    assert_eq!(status, 200, "{v}");
    let (status, s) = call_json(addr, "GET", "/api/sessions/p/state", vec![]).await;
    assert_eq!(status, 200);
    assert!(s["duration_ms"].as_f64().unwrap().is_finite(), "{s}");
    // After a restart the checkpoints written above are read back.
    let state = restart(&db).await;
    let addr = spawn_server(state).await;
    let (status, s) = call_json(addr, "GET", "/api/sessions/p/state", vec![]).await;
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["results"], 8);
    let (status, v) = call_json(
        addr,
        "POST",
        "/api/sessions/p/events",
        (note("after") + "\n").into_bytes(),
    )
    .await;
    assert_eq!(status, 200, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreadable_checkpoint_falls_back_to_an_earlier_one() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    let body = (1..=10)
        .map(|i| note(&format!("n{i}")) + "\n")
        .collect::<String>();
    call_json(addr, "POST", "/api/sessions/c/events", body.into_bytes()).await;
    let (_, before) = call_json(addr, "GET", "/api/sessions/c/state", vec![]).await;
    db.sql("UPDATE checkpoints SET badges = '{\"cost_usd\": null' WHERE session = 'c' AND seq = 8");
    let state = restart(&db).await;
    let addr = spawn_server(state).await;
    let (status, after) = call_json(addr, "GET", "/api/sessions/c/state", vec![]).await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["warnings"], before["warnings"]);
    assert_eq!(after["last_seq"], 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_command_never_rolls_back_another_sessions_events() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    for id in ["good", "poison"] {
        call_json(
            addr,
            "POST",
            &format!("/api/sessions/{id}/events"),
            (note("start") + "\n").into_bytes(),
        )
        .await;
    }
    // From now on every event of `poison` fails inside the database.
    if db.db.is_postgres() {
        db.sql(
            "CREATE FUNCTION poison() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN
                 IF NEW.session = 'poison' THEN RAISE EXCEPTION 'poisoned'; END IF;
                 RETURN NEW;
             END $$;
             CREATE TRIGGER poison BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION poison();",
        );
    } else {
        db.sql(
            "CREATE TRIGGER poison BEFORE INSERT ON events WHEN NEW.session = 'poison'
             BEGIN SELECT RAISE(ABORT, 'poisoned'); END;",
        );
    }
    let mut tasks = Vec::new();
    for i in 0..200 {
        let id = if i % 2 == 0 { "good" } else { "poison" };
        tasks.push(tokio::spawn(async move {
            let (status, _) = call_json(
                addr,
                "POST",
                &format!("/api/sessions/{id}/events"),
                (note(&format!("{i}")) + "\n").into_bytes(),
            )
            .await;
            (id, status)
        }));
    }
    let mut good_ok = 0;
    for t in tasks {
        let (id, status) = t.await.unwrap();
        match id {
            "good" => {
                assert_eq!(status, 200, "a good post failed");
                good_ok += 1;
            }
            _ => assert_eq!(status, 500),
        }
    }
    assert_eq!(good_ok, 100);
    let (_, s) = call_json(addr, "GET", "/api/sessions/good", vec![]).await;
    assert_eq!(s["last_seq"], 101);
    let (_, s) = call_json(addr, "GET", "/api/sessions/poison", vec![]).await;
    assert_eq!(s["last_seq"], 1);
    let all = common::all_history(addr, "good", 1000).await;
    assert_eq!(all.len(), 101);
}

#[tokio::test]
async fn badge_values_of_any_size_are_capped() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    let huge = "m".repeat(1_000_000);
    let lines = [
        serde_json::json!({"kind": "model_changed", "model": huge}).to_string(),
        serde_json::json!({"kind": "status_changed", "status": {"big": huge}}).to_string(),
        serde_json::json!({"kind": "turn_start", "from": huge}).to_string(),
    ];
    let (status, v) = call_json(
        addr,
        "POST",
        "/api/sessions/b/events",
        (lines.join("\n") + "\n").into_bytes(),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let (_, s) = call_json(addr, "GET", "/api/sessions/b/state", vec![]).await;
    let len = |v: &Value| v.to_string().len();
    assert!(len(&s["model"]) < 1000, "{}", len(&s["model"]));
    assert!(len(&s["status"]) < 1000, "{}", len(&s["status"]));
    assert!(len(&s["turn"]) < 1000, "{}", len(&s["turn"]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_load_of_a_big_session_does_not_stop_other_requests() {
    // No checkpoints: loading the session after a restart replays every event.
    let db = TestDb::with(Config::default(), 1_000_000_000);
    let addr = spawn_server(db.state.clone()).await;
    let body = (note("x") + "\n").repeat(100_000).into_bytes();
    let (status, _) = call_json(addr, "POST", "/api/sessions/big/events", body).await;
    assert_eq!(status, 200);
    let (status, _) = call_json(
        addr,
        "POST",
        "/api/sessions/small/events",
        (note("hi") + "\n").into_bytes(),
    )
    .await;
    assert_eq!(status, 200);
    db.state.store().close().await;
    let store = db.reopen(1_000_000_000);
    let addr = spawn_server(AppState::new(store, Config::default())).await;
    let big = tokio::spawn(call_json(addr, "GET", "/api/sessions/big/state", vec![]));
    // Another session's state, asked for again and again while the big one loads: answered
    // while the big load is still in flight (were it waiting for it, at most one could be).
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (mut during, mut asked) = (0, 0);
    while !big.is_finished() {
        let (status, _) = call_json(addr, "GET", "/api/sessions/small/state", vec![]).await;
        assert_eq!(status, 200);
        asked += 1;
        if !big.is_finished() {
            during += 1;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (big_status, big_state) = big.await.unwrap();
    assert_eq!(big_status, 200);
    assert_eq!(big_state["last_seq"], 100_000);
    eprintln!("{during} of {asked} other requests answered while the big session loaded");
    assert!(during >= 3, "{during} answered during the big load");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_sessions_state_is_dropped_from_memory() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    let n = hiveterm::MAX_HUBS + 200;
    for i in 0..n {
        let (status, _) = call_json(
            addr,
            "POST",
            &format!("/api/sessions/s{i}/events"),
            (note("hi") + "\n").into_bytes(),
        )
        .await;
        assert_eq!(status, 200);
    }
    let loaded = db.state.store().loaded_hubs();
    assert!(
        loaded <= hiveterm::MAX_HUBS,
        "{loaded} hubs kept for {n} sessions"
    );
    // A dropped one comes back from the database as it was.
    let (status, s) = call_json(addr, "GET", "/api/sessions/s0/state", vec![]).await;
    assert_eq!(status, 200);
    assert_eq!(s["last_seq"], 1);
    let (status, _) = call_json(
        addr,
        "POST",
        "/api/sessions/s0/events",
        (note("again") + "\n").into_bytes(),
    )
    .await;
    assert_eq!(status, 200);
    let all = common::all_history(addr, "s0", 10).await;
    assert_eq!(all.len(), 2);
}

#[tokio::test]
async fn the_session_list_comes_in_pages() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    for i in 0..7 {
        call_json(
            addr,
            "POST",
            &format!("/api/sessions/p{i}/events"),
            (note("hi") + "\n").into_bytes(),
        )
        .await;
    }
    let (_, all) = call_json(addr, "GET", "/api/sessions", vec![]).await;
    assert_eq!(all["sessions"].as_array().unwrap().len(), 7);
    assert_eq!(all["next_before"], Value::Null);
    let mut ids = Vec::new();
    let mut before = String::new();
    let mut pages = 0;
    loop {
        let (status, page) = call_json(
            addr,
            "GET",
            &format!("/api/sessions?limit=3{before}"),
            vec![],
        )
        .await;
        assert_eq!(status, 200, "{page}");
        pages += 1;
        ids.extend(
            page["sessions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["id"].as_str().unwrap().to_owned()),
        );
        match page["next_before"].as_str() {
            Some(c) => before = format!("&before={}", c.replace('+', "%2B")),
            None => break,
        }
    }
    let want: Vec<String> = all["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids, want, "the same sessions, in the same order");
    assert_eq!(pages, 3);
    let (status, _) = call_json(addr, "GET", "/api/sessions?before=nonsense", vec![]).await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn a_retried_post_with_an_idempotency_key_is_stored_once() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    let post = |key: &'static str, body: String| async move {
        let (status, _, body) = common::send(
            addr,
            "POST",
            "/api/sessions/k/events",
            &[("idempotency-key", key)],
            body.into_bytes(),
        )
        .await;
        let bytes = http_body_util::BodyExt::collect(body)
            .await
            .unwrap()
            .to_bytes();
        (status, serde_json::from_slice::<Value>(&bytes).unwrap())
    };
    let lines: Vec<String> = (0..6).map(|i| note(&format!("n{i}")) + "\n").collect();
    let (status, first) = post("batch-1", lines.concat()).await;
    assert_eq!(status, 200, "{first}");
    // The answer was lost; the producer sends the same body again.
    let (status, again) = post("batch-1", lines.concat()).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["first_seq"], first["first_seq"]);
    assert_eq!(again["last_seq"], 6);
    assert_eq!(again["count"], 6);
    assert_eq!(again["seqs"], serde_json::json!([1, 2, 3, 4, 5, 6]));
    // A request cut off after its first part (its first turn stored with the whole body's
    // hash): the retry of the body stores only the rest.
    let (status, _) = post("batch-2", lines[..2].concat()).await;
    assert_eq!(status, 200);
    let hash: String = sha2::Sha256::digest(lines.concat().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let literal = if db.db.is_postgres() {
        format!("'\\x{hash}'::bytea")
    } else {
        format!("X'{hash}'")
    };
    db.sql(&format!(
        "UPDATE idempotency SET body_sha256 = {literal} WHERE key = 'batch-2'"
    ));
    let (status, rest) = post("batch-2", lines.concat()).await;
    assert_eq!(status, 200, "{rest}");
    assert_eq!(
        (rest["first_seq"].as_u64(), rest["last_seq"].as_u64()),
        (Some(7), Some(12))
    );
    // Without a key (or with another) it is stored again, as before.
    let (status, other) = post("batch-3", lines[..1].concat()).await;
    assert_eq!(status, 200);
    assert_eq!(other["first_seq"], 13);
    let (_, s) = call_json(addr, "GET", "/api/sessions/k", vec![]).await;
    assert_eq!(s["last_seq"], 13);
    let texts: Vec<String> = db
        .raw_events("k")
        .iter()
        .map(|e| String::from_utf8_lossy(&e.raw).into_owned())
        .collect();
    assert_eq!(texts.len(), 13);
    assert_eq!(texts[6..12].concat(), lines.concat().replace('\n', ""));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_append_posts_share_their_turn_but_a_multi_append_post_stays_consecutive() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    let lines = 3 * hiveterm::post::APPEND_LINES + 7;
    let body = (note("big") + "\n").repeat(lines).into_bytes();
    let mut small = Vec::new();
    for i in 0..60 {
        small.push(tokio::spawn(call_json(
            addr,
            "POST",
            "/api/sessions/mixed/events",
            (note(&format!("small {i}")) + "\n").into_bytes(),
        )));
        if i == 20 {
            small.push(tokio::spawn(call_json(
                addr,
                "POST",
                "/api/sessions/mixed/events",
                body.clone(),
            )));
        }
    }
    let mut big = None;
    for task in small {
        let (status, v) = task.await.unwrap();
        assert_eq!(status, 200, "{v}");
        if v["count"] == lines {
            big = Some(v);
        }
    }
    let big = big.expect("the big post's answer");
    let (first, last) = (
        big["first_seq"].as_u64().unwrap(),
        big["last_seq"].as_u64().unwrap(),
    );
    assert_eq!(last - first + 1, lines as u64, "{big}");
    let raws = db.raw_events("mixed");
    assert_eq!(raws.len(), lines + 60);
    let bigs: Vec<u64> = raws
        .iter()
        .filter(|e| e.raw.windows(5).any(|w| w == b"\"big\""))
        .map(|e| e.seq)
        .collect();
    assert_eq!(
        bigs,
        (first..=last).collect::<Vec<_>>(),
        "no small post inside"
    );
}

/// Issue 46.13: exactly 1,000,000 newline-terminated lines are taken (the docs allow them),
/// 1,000,001 are refused; an unterminated last line counts. Blank lines, so nothing is stored
/// and the test is cheap.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_46_13_exactly_a_million_lines_are_taken_one_more_refused() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    let check = |body: Vec<u8>, status: u16| async move {
        let lines = body.iter().filter(|&&b| b == b'\n').count();
        let (got, v) = call_json(addr, "POST", "/api/sessions/edge/events", body).await;
        assert_eq!(got, status, "{lines} newlines: {v}");
        if status == 413 {
            assert!(v["error"].as_str().unwrap().contains("lines"), "{v}");
        }
    };
    check(b"\n".repeat(1_000_000), 200).await;
    check(b"\n".repeat(1_000_001), 413).await;
    let mut unterminated = b"\n".repeat(999_999);
    unterminated.push(b' ');
    check(unterminated.clone(), 200).await;
    let mut over = b"\n".repeat(1_000_000);
    over.push(b' ');
    check(over, 413).await;
}
