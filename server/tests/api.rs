//! Router tests: the real `app()` over a real SQLite file, every endpoint, good and bad input.

mod common;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use classifier::{ClassifyCtx, LogClassifier, TermMsg};
use common::{TestDb, fixture};
use hiveterm::Config;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

async fn req(
    app: &Router,
    method: &str,
    uri: &str,
    body: Vec<u8>,
) -> (StatusCode, HeaderMap, Vec<u8>) {
    req_with(app, method, uri, &[], body).await
}

async fn req_with(
    app: &Router,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
) -> (StatusCode, HeaderMap, Vec<u8>) {
    let mut r = Request::builder().method(method).uri(uri);
    // A program posting JSON lines says so (the server refuses typeless posts: CSRF).
    if method != "GET"
        && !headers
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("content-type"))
    {
        r = r.header("content-type", "application/x-ndjson");
    }
    for (k, v) in headers {
        r = r.header(*k, *v);
    }
    let res = app
        .clone()
        .oneshot(r.body(Body::from(body)).unwrap())
        .await
        .unwrap();
    let (parts, body) = res.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes().to_vec();
    (parts.status, parts.headers, bytes)
}

async fn json_of(app: &Router, method: &str, uri: &str, body: Vec<u8>) -> (StatusCode, Value) {
    let (status, headers, bytes) = req(app, method, uri, body).await;
    if uri.starts_with("/api/") {
        assert_eq!(headers["content-type"], "application/json", "{uri}");
    }
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// Every envelope of a session through history pages of `limit`, oldest first.
async fn history_all(app: &Router, id: &str, limit: usize) -> Vec<Value> {
    let mut out = Vec::new();
    let mut before = String::new();
    loop {
        let (status, page) = json_of(
            app,
            "GET",
            &format!("/api/sessions/{id}/events/history?limit={limit}{before}"),
            vec![],
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let envs = page["envelopes"].as_array().unwrap();
        assert!(envs.len() <= limit);
        let seqs: Vec<u64> = envs.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
        assert!(
            seqs.windows(2).all(|w| w[0] > w[1]),
            "newest first: {seqs:?}"
        );
        out.extend(envs.iter().cloned());
        match page["next_before"].as_u64() {
            Some(b) => before = format!("&before={b}"),
            None => break,
        }
    }
    out.reverse();
    out
}

/// What `hiveterm classify` gives: one context over the whole file; the k-th non-blank
/// line is the server's seq k.
fn classify_file(bytes: &[u8]) -> Vec<Vec<TermMsg>> {
    let mut log = LogClassifier::new();
    let mut out = Vec::new();
    log.feed(bytes, |env| out.push(env.msgs));
    log.finish(|env| out.push(env.msgs));
    out
}

fn msgs(env: &Value) -> Vec<TermMsg> {
    serde_json::from_value(env["msgs"].clone()).unwrap()
}

async fn post(app: &Router, id: &str, body: &[u8]) -> Value {
    let (status, v) = json_of(
        app,
        "POST",
        &format!("/api/sessions/{id}/events"),
        body.to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

#[tokio::test]
async fn sessions_list_starts_empty_and_lists_newest_first() {
    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    assert_eq!(
        json_of(&app, "GET", "/api/sessions", vec![]).await,
        (StatusCode::OK, json!({"sessions": [], "next_before": null}))
    );
    post(&app, "first", b"{\"kind\":\"note\",\"text\":\"a\"}\n").await;
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    post(&app, "second", b"").await;
    let (_, list) = json_of(&app, "GET", "/api/sessions", vec![]).await;
    let ids: Vec<&str> = list["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["second", "first"]);
    let first = &list["sessions"][1];
    assert_eq!(first["title"], "first");
    assert_eq!(first["source"], "post");
    assert_eq!(first["live"], true);
    assert_eq!(first["ended"], Value::Null);
    assert_eq!(first["last_seq"], 1);
    assert!(first["started"].as_f64().unwrap() > 1.7e9);
    let (status, one) = json_of(&app, "GET", "/api/sessions/first", vec![]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(one, *first);
}

#[tokio::test]
async fn post_answers_seqs_and_title_sticks() {
    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    let (status, v) = json_of(
        &app,
        "POST",
        "/api/sessions/agent-bob/events?title=Bob%20the%20agent",
        b"{\"kind\":\"note\",\"text\":\"a\"}\n\n  \n{\"kind\":\"note\",\"text\":\"b\"}".to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        v,
        json!({"session": "agent-bob", "created": true, "first_seq": 1, "last_seq": 2,
               "count": 2, "seqs": [1, 2]})
    );
    let v = post(&app, "agent-bob", b"{\"kind\":\"note\",\"text\":\"c\"}\n").await;
    assert_eq!(
        v,
        json!({"session": "agent-bob", "created": false, "first_seq": 3, "last_seq": 3,
               "count": 1, "seqs": [3]})
    );
    let (_, s) = json_of(&app, "GET", "/api/sessions/agent-bob", vec![]).await;
    assert_eq!(s["title"], "Bob the agent");
    assert_eq!(s["last_seq"], 3);
}

#[tokio::test]
async fn history_pages_equal_classifying_the_whole_file() {
    for file in [
        "claude-code-2.1.332/file_tools.stream.jsonl",
        "claude-code-2.1.332/mcp_tools.transcript.jsonl",
        "hyperhive/mcp_tools.events.jsonl",
        "claude-code-2.1.332/partial_messages.stream.jsonl",
    ] {
        let db = TestDb::new();
        let app = hiveterm::app(db.state.clone());
        let bytes = fixture(file);
        let v = post(&app, "s", &bytes).await;
        let expect = classify_file(&bytes);
        assert_eq!(v["seqs"].as_array().unwrap().len(), expect.len(), "{file}");
        for limit in [1, 3, 7, 1000] {
            let got = history_all(&app, "s", limit).await;
            let want: Vec<(u64, Vec<TermMsg>)> = expect
                .iter()
                .enumerate()
                .filter(|(_, m)| !m.is_empty())
                .map(|(i, m)| (i as u64 + 1, m.clone()))
                .collect();
            let got: Vec<(u64, Vec<TermMsg>)> = got
                .iter()
                .map(|e| (e["seq"].as_u64().unwrap(), msgs(e)))
                .collect();
            assert_eq!(got, want, "{file} limit {limit}");
        }
    }
}

/// Issue 21: a subagent's envelopes carry the same `parent` in the server's history as in
/// `hiveterm classify` (`LogClassifier`) of the same file: the seq of the `Agent` call's
/// envelope; the main agent's carry none.
#[tokio::test]
async fn history_keeps_each_subagent_envelopes_parent() {
    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    let bytes = fixture("claude-code-2.1.332/subagent.stream.jsonl");
    post(&app, "s", &bytes).await;
    let mut log = classifier::LogClassifier::new();
    let mut want = Vec::new();
    log.feed(&bytes, |e| want.push(e));
    log.finish(|e| want.push(e));
    let want: Vec<(u64, Option<u64>)> = want
        .iter()
        .filter(|e| !e.msgs.is_empty())
        .map(|e| (e.seq.unwrap(), e.parent))
        .collect();
    assert!(want.iter().any(|(_, p)| *p == Some(3)), "{want:?}");
    for limit in [2, 1000] {
        let got: Vec<(u64, Option<u64>)> = history_all(&app, "s", limit)
            .await
            .iter()
            .map(|e| (e["seq"].as_u64().unwrap(), e["parent"].as_u64()))
            .collect();
        assert_eq!(got, want, "limit {limit}");
    }
}

#[tokio::test]
async fn history_defaults_limits_and_bad_parameters() {
    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    let lines: String = (0..250)
        .map(|i| format!("{{\"kind\":\"note\",\"ts\":{i},\"text\":\"n{i}\"}}\n"))
        .collect();
    post(&app, "s", lines.as_bytes()).await;
    let (_, page) = json_of(&app, "GET", "/api/sessions/s/events/history", vec![]).await;
    assert_eq!(page["envelopes"].as_array().unwrap().len(), 200);
    assert_eq!(page["envelopes"][0]["seq"], 250);
    assert_eq!(page["envelopes"][0]["ts"], 249.0);
    assert_eq!(page["head"], 250);
    assert_eq!(page["next_before"], 51);
    let (_, page) = json_of(
        &app,
        "GET",
        "/api/sessions/s/events/history?before=51",
        vec![],
    )
    .await;
    assert_eq!(page["envelopes"].as_array().unwrap().len(), 50);
    assert_eq!(page["next_before"], Value::Null);
    let (_, page) = json_of(
        &app,
        "GET",
        "/api/sessions/s/events/history?before=1",
        vec![],
    )
    .await;
    assert_eq!(
        page,
        json!({"envelopes": [], "next_before": null, "head": 250, "cut_by_bytes": false})
    );
    let (_, page) = json_of(
        &app,
        "GET",
        "/api/sessions/s/events/history?before=100000&limit=1",
        vec![],
    )
    .await;
    assert_eq!(page["envelopes"][0]["seq"], 250);
    let (_, page) = json_of(
        &app,
        "GET",
        "/api/sessions/s/events/history?limit=0",
        vec![],
    )
    .await;
    assert_eq!(page["envelopes"].as_array().unwrap().len(), 1);
    for bad in ["before=x", "limit=-1", "before=1.5"] {
        let (status, v) = json_of(
            &app,
            "GET",
            &format!("/api/sessions/s/events/history?{bad}"),
            vec![],
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
        assert!(v["error"].is_string());
    }
}

/// A `recv` result whose call is on an older page (and before several checkpoints) is shown
/// as a recv result on every path — the degradation hyperhive's design notes accepted.
#[tokio::test]
async fn recv_result_on_a_later_page_keeps_its_correlation() {
    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    let call = json!({"type":"assistant","message":{"role":"assistant","content":[
        {"type":"tool_use","id":"toolu_recv1","name":"mcp__hyperhive__recv","input":{}}]}});
    let result = json!({"type":"user","message":{"role":"user","content":[
        {"type":"tool_result","tool_use_id":"toolu_recv1","content":"**hello** from alice"}]}});
    let mut body = format!("{call}\n");
    for i in 0..20 {
        body.push_str(&format!("{{\"kind\":\"note\",\"text\":\"filler {i}\"}}\n"));
    }
    body.push_str(&format!("{result}\n"));
    post(&app, "s", body.as_bytes()).await;
    let (_, page) = json_of(
        &app,
        "GET",
        "/api/sessions/s/events/history?limit=1",
        vec![],
    )
    .await;
    let env = &page["envelopes"][0];
    assert_eq!(env["seq"], 22);
    let with_ctx = msgs(env);
    let expect = classify_file(body.as_bytes());
    assert_eq!(with_ctx, expect[21]);
    let mut empty = ClassifyCtx::new();
    let alone =
        classifier::classify_line(&classifier::Line::whole(22, result.to_string()), &mut empty)
            .msgs;
    assert_ne!(with_ctx, alone, "the recv correlation must change the row");
    assert!(with_ctx[0].summary.starts_with("recv"), "{with_ctx:?}");
}

#[tokio::test]
async fn invalid_lines_are_stored_exactly_and_shown_as_rows() {
    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    let lines: Vec<&[u8]> = vec![
        b"not json at all",
        b"{\"foo\": 1}",
        b"\xff\xfe broken utf-8 {",
        b"{\"kind\":\"bogus\"}",
        b"[1,2,3]",
        b"{\"kind\":\"note\",\"text\":\"fine\"}",
    ];
    let mut body = Vec::new();
    for l in &lines {
        body.extend_from_slice(l);
        body.push(b'\n');
    }
    let v = post(&app, "bad", &body).await;
    assert_eq!(v["seqs"], json!([1, 2, 3, 4, 5, 6]));
    let envs = history_all(&app, "bad", 100).await;
    assert_eq!(envs.len(), 6);
    let level = |i: usize| envs[i]["msgs"][0]["level"].as_str().unwrap().to_owned();
    assert_eq!(level(0), "error");
    assert_eq!(level(1), "warn");
    assert_eq!(level(2), "error");
    assert_eq!(level(3), "warn");
    assert_eq!(level(5), "debug");
    // Stored byte for byte.
    let raws: Vec<Vec<u8>> = db.raw_events("bad").into_iter().map(|e| e.raw).collect();
    assert_eq!(raws, lines.iter().map(|l| l.to_vec()).collect::<Vec<_>>());
    let (_, state) = json_of(&app, "GET", "/api/sessions/bad/state", vec![]).await;
    assert_eq!(state["errors"], 2);
    assert_eq!(state["warnings"], 3);
}

#[tokio::test]
async fn oversized_body_is_413_and_stores_nothing() {
    let config = Config {
        max_request_bytes: 1000,
        ..Config::default()
    };
    let db = TestDb::with(config, 4);
    let app = hiveterm::app(db.state.clone());
    let body = format!("{{\"kind\":\"note\",\"text\":\"{}\"}}\n", "x".repeat(2000));
    let (status, v) = json_of(&app, "POST", "/api/sessions/big/events", body.into_bytes()).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(v["error"].as_str().unwrap().contains("1000"));
    let (status, _) = json_of(&app, "GET", "/api/sessions/big", vec![]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn oversized_line_is_cut_and_shown_as_an_error_row() {
    let config = Config {
        max_line_bytes: 100,
        ..Config::default()
    };
    let db = TestDb::with(config, 4);
    let app = hiveterm::app(db.state.clone());
    let long = format!("{{\"kind\":\"note\",\"text\":\"{}\"}}", "y".repeat(500));
    let body = format!(
        "{{\"kind\":\"note\",\"text\":\"before\"}}\n{long}\n{{\"kind\":\"note\",\"text\":\"after\"}}\n"
    );
    let v = post(&app, "cut", body.as_bytes()).await;
    assert_eq!(v["seqs"], json!([1, 2, 3]));
    let envs = history_all(&app, "cut", 10).await;
    assert_eq!(envs[1]["msgs"][0]["level"], "error");
    let summary = envs[1]["msgs"][0]["summary"].as_str().unwrap();
    assert!(summary.contains(&long.len().to_string()), "{summary}");
    assert_eq!(envs[2]["msgs"][0]["summary"], "after");
    let cut = &db.raw_events("cut")[1];
    assert!(cut.raw.len() < long.len());
    assert_eq!(cut.cut_len, Some(long.len() as i64));
}

#[tokio::test]
async fn bad_ids_unknown_sessions_and_routes() {
    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    for id in [".hidden", "a%20b", "semi;colon", &"x".repeat(101)] {
        let (status, v) = json_of(
            &app,
            "POST",
            &format!("/api/sessions/{id}/events"),
            b"{}".to_vec(),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{id}: {v}");
        assert!(v["error"].is_string());
    }
    for path in [
        "/api/sessions/nope",
        "/api/sessions/nope/state",
        "/api/sessions/nope/events/history",
        "/api/sessions/nope/events/stream",
        "/api/whatever",
    ] {
        let (status, v) = json_of(&app, "GET", path, vec![]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(v["error"].is_string(), "{path}");
    }
    let (status, _) = json_of(&app, "POST", "/api/sessions/nope/end", vec![]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn ended_session_refuses_events() {
    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    post(&app, "e", b"{\"kind\":\"note\",\"text\":\"a\"}\n").await;
    let (status, v) = json_of(&app, "POST", "/api/sessions/e/end", vec![]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["live"], false);
    assert!(v["ended"].as_f64().is_some());
    let (status, again) = json_of(&app, "POST", "/api/sessions/e/end", vec![]).await;
    assert_eq!((status, &again["ended"]), (StatusCode::OK, &v["ended"]));
    let (status, v) = json_of(&app, "POST", "/api/sessions/e/events", b"{}\n".to_vec()).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    let (_, s) = json_of(&app, "GET", "/api/sessions/e/state", vec![]).await;
    assert_eq!(s["last_seq"], 1);
    assert_eq!(s["live"], false);
}

/// Regression: `/state` summed `total_cost_usd`, which Claude Code reports cumulative within
/// a session; the real subagent stream has two `result` lines of 0.012368 each and showed
/// twice its cost. The badge is the largest.
#[tokio::test]
async fn state_cost_badge_is_the_largest_total_cost_not_the_sum() {
    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    post(
        &app,
        "c",
        &fixture("claude-code-2.1.332/subagent.stream.jsonl"),
    )
    .await;
    let (_, s) = json_of(&app, "GET", "/api/sessions/c/state", vec![]).await;
    assert_eq!(s["results"], 2);
    assert_eq!(s["cost_usd"], 0.012368);
    post(
        &app,
        "c",
        br#"{"type":"result","subtype":"success","is_error":false,"total_cost_usd":0.02}"#,
    )
    .await;
    let (_, s) = json_of(&app, "GET", "/api/sessions/c/state", vec![]).await;
    assert_eq!(
        (s["results"].clone(), s["cost_usd"].clone()),
        (json!(3), json!(0.02))
    );
}

#[tokio::test]
async fn state_badges_from_a_hyperhive_log() {
    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    let bytes = fixture("hyperhive/file_tools.events.jsonl");
    post(&app, "h", &bytes).await;
    let (status, s) = json_of(&app, "GET", "/api/sessions/h/state", vec![]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(s["id"], "h");
    assert_eq!(s["model"], "claude-opus-5-5");
    assert_eq!(s["turn"]["count"], 1);
    assert_eq!(s["turn"]["from"], "operator");
    assert_eq!(s["turn"]["in_flight"], false);
    assert_eq!(s["results"], 1);
    assert!(s["cost_usd"].as_f64().unwrap() > 0.0);
    assert!(s["duration_ms"].as_f64().unwrap() > 0.0);
    assert!(s["usage"].is_object());
    assert!(s["status"].is_string());
    // Counts agree with the rows served.
    let envs = history_all(&app, "h", 1000).await;
    let count = |lvl: &str| {
        envs.iter()
            .flat_map(|e| e["msgs"].as_array().unwrap())
            .filter(|m| m["level"] == lvl)
            .count()
    };
    assert_eq!(s["errors"], count("error"));
    assert_eq!(s["warnings"], count("warn"));
    assert_eq!(
        s["last_seq"].as_u64().unwrap(),
        classify_file(&bytes).len() as u64
    );
}

/// The badges survive a restart (checkpoint + replay) unchanged.
#[tokio::test]
async fn state_is_the_same_after_reopening_the_database() {
    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    post(&app, "h", &fixture("hyperhive/mcp_tools.events.jsonl")).await;
    let (_, before) = json_of(&app, "GET", "/api/sessions/h/state", vec![]).await;
    let page_before = json_of(
        &app,
        "GET",
        "/api/sessions/h/events/history?limit=5",
        vec![],
    )
    .await;
    db.state.store().close().await;
    let app = hiveterm::app(hiveterm::AppState::new(db.reopen(4), Config::default()));
    let (_, after) = json_of(&app, "GET", "/api/sessions/h/state", vec![]).await;
    assert_eq!(before, after);
    assert_eq!(
        json_of(
            &app,
            "GET",
            "/api/sessions/h/events/history?limit=5",
            vec![]
        )
        .await,
        page_before
    );
}

/// The raw events of a session are its stored lines, byte for byte, one a line, in seq
/// order (blank lines were never stored), over several store reads; the same token guards
/// them.
#[tokio::test]
async fn raw_events_are_the_stored_lines_in_order() {
    let config = Config {
        token: Some("s3cret".into()),
        ..Config::default()
    };
    let db = TestDb::with(config, 4);
    let app = hiveterm::app(db.state.clone());
    let mut log = fixture("claude-code-2.1.332/file_tools.stream.jsonl");
    // Past one piece of the answer (512 events), with a line that is not JSON kept as is.
    for i in 0..600 {
        log.extend(format!("{{\"kind\":\"note\",\"text\":\"n{i} é\"}}\n\n").as_bytes());
    }
    log.extend(b"not json \xff\n");
    let (status, _, _) = req_with(
        &app,
        "POST",
        "/api/sessions/r/events?token=s3cret",
        &[],
        log.clone(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let want: Vec<u8> = log
        .split(|&b| b == b'\n')
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
        .flat_map(|l| [l, b"\n"].concat())
        .collect();
    let (status, headers, body) = req(
        &app,
        "GET",
        "/api/sessions/r/events/raw?token=s3cret",
        vec![],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "application/x-ndjson");
    assert_eq!(body.len(), want.len());
    assert!(body == want);
    let (status, _, _) = req(&app, "GET", "/api/sessions/r/events/raw", vec![]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _, _) = req(
        &app,
        "GET",
        "/api/sessions/none/events/raw?token=s3cret",
        vec![],
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn token_guards_the_api() {
    let config = Config {
        token: Some("s3cret".into()),
        ..Config::default()
    };
    let db = TestDb::with(config, 4);
    let app = hiveterm::app(db.state.clone());
    let (status, v) = json_of(&app, "GET", "/api/sessions", vec![]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{v}");
    let (status, _, _) = req_with(
        &app,
        "GET",
        "/api/sessions",
        &[("authorization", "Bearer wrong")],
        vec![],
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _, _) = req_with(
        &app,
        "GET",
        "/api/sessions",
        &[("authorization", "Bearer s3cret")],
        vec![],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = json_of(&app, "GET", "/api/sessions?token=s3cret", vec![]).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = json_of(
        &app,
        "POST",
        "/api/sessions/x/events?token=s3cre",
        b"{}".to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // The page shell itself is public but lists nothing without the token.
    let (status, _, body) = req(&app, "GET", "/", vec![]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!String::from_utf8(body).unwrap().contains("<li>"));
}

#[tokio::test]
async fn page_without_a_build_lists_sessions_with_csp() {
    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    post(&app, "a-b", b"{\"kind\":\"note\",\"text\":\"a\"}\n").await;
    let (status, headers, body) = req(&app, "GET", "/", vec![]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-security-policy"], hiveterm::CSP);
    let body = String::from_utf8(body).unwrap();
    assert!(body.contains("href=\"/s/a-b\""), "{body}");
    let (status, headers, _) = req(&app, "GET", "/s/a-b", vec![]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(headers.contains_key("content-security-policy"));
}

/// `path` answers the built `index.html` as HTML, with the CSP and its script hashes.
async fn assert_is_the_page(app: &Router, path: &str, index: &str) {
    let (status, headers, got) = req(app, "GET", path, vec![]).await;
    assert_eq!(status, StatusCode::OK, "{path}");
    assert_eq!(String::from_utf8(got).unwrap(), index, "{path}");
    assert!(
        headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html"),
        "{path}"
    );
    let csp = headers["content-security-policy"].to_str().unwrap();
    assert!(
        csp.starts_with(hiveterm::CSP) && csp.contains("'sha256-"),
        "{path}: {csp}"
    );
}

#[tokio::test]
async fn page_build_is_served_with_spa_fallback_and_script_hashes() {
    let db = TestDb::new();
    let dist = db.dir.path().join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    let index = "<!doctype html><html><head><script type=\"module\">import init from '/app.js';init();</script></head><body></body></html>";
    std::fs::write(dist.join("index.html"), index).unwrap();
    std::fs::write(dist.join("app.js"), "export default function init() {}").unwrap();
    let app = hiveterm::app(db.state.clone());
    for path in ["/", "/s/anything", "/some/deep/route", "/index.html"] {
        assert_is_the_page(&app, path, index).await;
    }
    let (status, headers, body) = req(&app, "GET", "/app.js", vec![]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        headers["content-type"]
            .to_str()
            .unwrap()
            .contains("javascript")
    );
    assert_eq!(body, b"export default function init() {}");
    let (status, v) = json_of(&app, "GET", "/api/not-a-route", vec![]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(v["error"].is_string());
}

/// The built page asks for its assets relative to itself, so a page at `/s/{id}` (or under
/// any prefix) asks for `/s/app-….js`: the last segments that name a built file get that
/// file, with its type; the page's own paths still get `index.html` with its script hashes.
#[tokio::test]
async fn assets_asked_for_below_a_page_are_the_built_files() {
    let db = TestDb::new();
    let dist = db.dir.path().join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(dist.join("index.html"), ASSETS_INDEX).unwrap();
    for (name, body, _) in ASSETS {
        std::fs::write(dist.join(name), body).unwrap();
    }
    std::fs::write(db.dir.path().join("secret.txt"), "not served").unwrap();
    check_assets(&db).await;
}

/// The same rule holds for the page the binary carries (served from memory: `Config::page`,
/// what `hiveterm serve` uses without `--static`), and the directory is then not read.
#[tokio::test]
async fn the_carried_page_is_served_by_the_same_rule() {
    let mut files = vec![("index.html".to_owned(), ASSETS_INDEX.as_bytes().to_vec())];
    files.extend(ASSETS.iter().map(|(n, b, _)| ((*n).to_owned(), b.to_vec())));
    let config = hiveterm::Config {
        page: Some(std::sync::Arc::new(hiveterm::page::Bundle::new(files))),
        ..hiveterm::Config::default()
    };
    let db = TestDb::with(config, 4);
    // A different page on disk is ignored.
    let dist = db.dir.path().join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(dist.join("index.html"), "<p>the disk's page</p>").unwrap();
    std::fs::write(dist.join("other.js"), "disk").unwrap();
    check_assets(&db).await;
    let app = hiveterm::app(db.state.clone());
    assert_is_the_page(&app, "/other.js", ASSETS_INDEX).await;
    let (_, headers, _) = req(&app, "GET", "/s/x/app-0123456789abcdef.js", vec![]).await;
    assert_eq!(
        headers["cache-control"],
        "public, max-age=31536000, immutable"
    );
    let (_, headers, _) = req(&app, "GET", "/s/x/worker_loader.js", vec![]).await;
    assert_eq!(headers["cache-control"], "no-cache");
}

const ASSETS_INDEX: &str = "<!doctype html><html><head><script type=\"module\">import init from './app-1f.js';init();</script></head><body></body></html>";

const ASSETS: [(&str, &[u8], &str); 5] = [
    (
        "app-1f.js",
        b"export default function init() {}",
        "text/javascript",
    ),
    ("app-1f_bg.wasm", b"\0asm\x01\0\0\0", "application/wasm"),
    ("terminal-2e.css", b".row{}", "text/css"),
    (
        "worker_loader.js",
        b"import init from './worker.js';",
        "text/javascript",
    ),
    ("app-0123456789abcdef.js", b"hashed", "text/javascript"),
];

async fn check_assets(db: &TestDb) {
    let index = ASSETS_INDEX;
    let files = ASSETS;
    let app = hiveterm::app(db.state.clone());
    post(&app, "run-1", b"{\"kind\":\"note\",\"text\":\"a\"}\n").await;

    for (name, body, ctype) in files {
        for prefix in ["", "/s", "/s/run-1", "/tools/hiveterm", "/a/b/c/d"] {
            let path = format!("{prefix}/{name}");
            let (status, headers, got) = req(&app, "GET", &path, vec![]).await;
            assert_eq!(status, StatusCode::OK, "{path}");
            let got_type = headers["content-type"].to_str().unwrap();
            assert!(got_type.starts_with(ctype), "{path}: {got_type}");
            assert_eq!(got, body, "{path}");
        }
    }
    // The page's own paths, index.html anywhere, and names of no built file: the page.
    for path in [
        "/s/run-1",
        "/s/run-1/",
        "/s/index.html",
        "/s/run-1/index.html",
        "/s/app-00.js",
        "/tools/hiveterm/",
        "/s/..%2Fsecret.txt",
        "/s/%2e%2e/secret.txt",
    ] {
        assert_is_the_page(&app, path, index).await;
    }
    // HEAD gets the file's headers; /api is the API's, even for a built file's name.
    let (status, headers, _) = req(&app, "HEAD", "/s/run-1/app-1f_bg.wasm", vec![]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "application/wasm");
    for path in ["/api/app-1f.js", "/api/sessions/run-1/app-1f.js"] {
        let (status, v) = json_of(&app, "GET", path, vec![]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(v["error"].is_string(), "{path}");
    }
}

#[tokio::test]
async fn a_body_of_several_megabytes_within_the_limit_is_accepted() {
    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    let line = format!(
        "{{\"kind\":\"note\",\"text\":\"{}\"}}\n",
        "m".repeat(100_000)
    );
    let body = line.repeat(30);
    assert!(body.len() > 3_000_000);
    let v = post(&app, "mb", body.as_bytes()).await;
    assert_eq!(v["seqs"].as_array().unwrap().len(), 30);
}

/// The envelopes with rows of a session, oldest first, classified afresh from its raw events
/// as stored in the database (one context over the whole session): the reference the stored
/// envelopes are held to.
fn replay_from_db(db: &TestDb, id: &str) -> Vec<Value> {
    let mut ctx = ClassifyCtx::new();
    db.raw_events(id)
        .into_iter()
        .map(|ev| {
            let mut env = classifier::classify_log_event_at(
                &classifier::parse_line(&ev.raw),
                &mut ctx,
                ev.seq,
            );
            env.ts = Some(ev.ts);
            env
        })
        .filter(|env| !env.msgs.is_empty())
        .map(|env| serde_json::to_value(env).unwrap())
        .collect()
}

/// The stored envelopes serve the same pages as classifying the raw events afresh, also
/// after they were dropped and derived again (as when the classifier changes).
#[tokio::test]
async fn stored_envelopes_equal_a_fresh_replay_and_survive_a_rebuild() {
    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    post(&app, "r", &fixture("hyperhive/file_tools.events.jsonl")).await;
    post(
        &app,
        "r",
        &fixture("claude-code-2.1.332/tool_errors.stream.jsonl"),
    )
    .await;
    let all = replay_from_db(&db, "r");
    let (_, info) = json_of(&app, "GET", "/api/sessions/r", vec![]).await;
    let head = info["last_seq"].as_u64().unwrap();
    assert!(all.len() > 40, "{}", all.len());
    let pages = |app: Router| {
        let all = all.clone();
        async move {
            let mut out = Vec::new();
            for (before, limit) in [(None, 7), (Some(40), 5), (Some(head), 1000), (Some(3), 2)] {
                let query = before.map_or(String::new(), |b| format!("&before={b}"));
                let uri = format!("/api/sessions/r/events/history?limit={limit}{query}");
                let (status, page) = json_of(&app, "GET", &uri, vec![]).await;
                assert_eq!(status, StatusCode::OK, "{page}");
                let want: Vec<Value> = all
                    .iter()
                    .rev()
                    .filter(|e| before.is_none_or(|b| e["seq"].as_u64().unwrap() < b))
                    .take(limit)
                    .cloned()
                    .collect();
                assert_eq!(page["envelopes"], Value::from(want), "{uri}");
                assert_eq!(page["head"], head);
                out.push(page);
            }
            out
        }
    };
    let before = pages(app).await;
    db.state.store().close().await;
    db.sql(
        "UPDATE meta SET value = 'another classifier' WHERE key = 'derived';
         DELETE FROM rendered WHERE seq % 2 = 0;",
    );
    let app = hiveterm::app(hiveterm::AppState::new(db.reopen(4), Config::default()));
    assert_eq!(pages(app).await, before);
}

/// `hiveterm summary --json PATH`.
fn summary_cli(path: &std::path::Path) -> Value {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .args(["summary", "--json"])
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `GET …/summary` is `hiveterm summary --json` of the same events: posted in pieces (the
/// fold is incremental), and again after a restart (a checkpoint every 4 events plus the
/// events after it).
#[tokio::test]
async fn summary_equals_hiveterm_summary_of_the_same_events() {
    for rel in [
        "claude-code-2.1.332/file_tools.stream.jsonl",
        "claude-code-2.1.332/tool_errors.stream.jsonl",
        "claude-code-2.1.332/subagent.stream.jsonl",
        "claude-code-2.1.332/basic_markdown.transcript.jsonl",
        "hyperhive/api_fatal_400.events.jsonl",
        "hyperhive/mcp_tools.events.jsonl",
    ] {
        let path = common::repo().join("fixtures").join(rel);
        let want = summary_cli(&path);
        let db = TestDb::new();
        let app = hiveterm::app(db.state.clone());
        let bytes = fixture(rel);
        let lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
        for piece in lines.chunks(lines.len() / 3 + 1) {
            post(&app, "s", &piece.concat()).await;
        }
        let (status, got) = json_of(&app, "GET", "/api/sessions/s/summary", vec![]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(got, want, "{rel}");
        db.state.store().close().await;
        let app = hiveterm::app(hiveterm::AppState::new(db.reopen(4), Config::default()));
        let (_, again) = json_of(&app, "GET", "/api/sessions/s/summary", vec![]).await;
        assert_eq!(again, want, "{rel} after a restart");
    }
    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    let (status, _) = json_of(&app, "GET", "/api/sessions/nope/summary", vec![]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// The seq of the first envelope holding an error row.
fn first_error(envs: &[Value]) -> Option<u64> {
    envs.iter()
        .find(|e| msgs(e).iter().any(|m| m.level == classifier::Level::Error))
        .map(|e| e["seq"].as_u64().unwrap())
}

/// Regression (session 4): with blank lines in a log, the server's `first_error_seq` and the
/// CLI's are in two numberings — the server's gapless seqs (blank lines are not stored) and
/// the CLI's physical line numbers (SPEC §4) — and each must name the first error row in its
/// own numbering, and both the same line of the log.
#[tokio::test]
async fn first_error_seq_with_blank_lines_names_one_line_in_both_numberings() {
    let bytes = fixture("claude-code-2.1.332/tool_errors.stream.jsonl");
    let mut with_blanks = Vec::new();
    let mut nonblank_at = Vec::new(); // physical line number of the k-th non-blank line
    let mut physical = 0u64;
    for (i, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        if i % 3 == 1 {
            with_blanks.extend_from_slice(b"\n  \r\n");
            physical += 2;
        }
        with_blanks.extend_from_slice(line);
        physical += 1;
        nonblank_at.push(physical);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("blanks.jsonl");
    std::fs::write(&path, &with_blanks).unwrap();

    let cli = summary_cli(&path)["first_error_seq"].as_u64();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .arg("classify")
        .arg(&path)
        .output()
        .unwrap();
    let cli_envs: Vec<Value> = out
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert!(cli.is_some(), "the fixture has an error row");
    assert_eq!(cli, first_error(&cli_envs), "the CLI's numbering");

    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    post(&app, "s", &with_blanks).await;
    let (_, summary) = json_of(&app, "GET", "/api/sessions/s/summary", vec![]).await;
    let server = summary["first_error_seq"].as_u64();
    assert_eq!(
        server,
        first_error(&history_all(&app, "s", 1000).await),
        "the server's"
    );
    assert!(
        server < cli,
        "blank lines precede the error: the numberings differ here"
    );
    assert_eq!(
        nonblank_at[server.unwrap() as usize - 1],
        cli.unwrap(),
        "both name the same line"
    );
}

#[tokio::test]
async fn query_strings_are_typed_with_the_documented_errors_and_the_last_of_a_key_wins() {
    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    let notes: String = (0..5)
        .map(|i| format!("{{\"kind\":\"note\",\"text\":\"n{i}\"}}\n"))
        .collect();
    post(&app, "q", notes.as_bytes()).await;
    for (uri, message) in [
        (
            "/api/sessions/q/events/history?limit=x",
            "limit must be a whole number",
        ),
        (
            "/api/sessions/q/events/history?before=-1",
            "before must be a whole number",
        ),
        ("/api/sessions?limit=", "limit must be a whole number"),
        (
            "/api/sessions?before=nonsense",
            "before must be a next_before",
        ),
        (
            "/api/sessions/q/events/stream?after=x",
            "Last-Event-ID and after must be whole numbers",
        ),
    ] {
        let (status, v) = json_of(&app, "GET", uri, vec![]).await;
        assert_eq!(
            (status, v),
            (StatusCode::BAD_REQUEST, json!({ "error": message })),
            "{uri}"
        );
    }
    // A repeated key: its last value.
    let (status, v) = json_of(
        &app,
        "GET",
        "/api/sessions/q/events/history?limit=x&limit=2",
        vec![],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["envelopes"].as_array().unwrap().len(), 2, "{v}");
    // Unknown keys are ignored; a title is read from ?title=.
    let (status, v) = json_of(
        &app,
        "POST",
        "/api/sessions/q2/events?x=1&title=first&title=Last",
        vec![],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (_, s) = json_of(&app, "GET", "/api/sessions/q2", vec![]).await;
    assert_eq!(s["title"], "Last");
}
