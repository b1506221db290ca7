//! Notes on a postmortem (issue 23): the HTTP contract (every status), notes beside the
//! session across a restart, live pages told of notes, share links carrying them (snapshot,
//! redacted, revoked), comment links, and `hiveterm note` beside a running server. Runs on
//! SQLite, and on PostgreSQL with `HIVETERM_TEST_DB=postgres` (replicas: `replicas.rs`).

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use axum::http::StatusCode;
use common::{DbSpec, SseClient, TestDb, send, spawn_server};
use hiveterm::{AppState, Config};
use http_body_util::BodyExt;
use serde_json::{Value, json};

/// A fake secret from the redactor's corpus (`classifier/tests/redact.rs`).
const GITHUB: &str = "ghp_R4nd0mL00k1ngT0k3nV4lu3Xy2Zq8Wm5Np7K";

/// Events `1..=n`: each a tool call (one row).
fn lines(n: usize) -> Vec<u8> {
    common::tool_calls(1, n)
}

/// A request with headers: status and JSON answer (`Null` when not JSON).
async fn req(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
) -> (StatusCode, Value) {
    let (status, _, body) = send(addr, method, path, headers, body).await;
    let bytes = body.collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

const JSON: (&str, &str) = ("content-type", "application/json");

async fn json_req(addr: SocketAddr, method: &str, path: &str, body: &Value) -> (StatusCode, Value) {
    let body = if body.is_null() {
        Vec::new()
    } else {
        body.to_string().into_bytes()
    };
    req(addr, method, path, &[JSON], body).await
}

async fn get(addr: SocketAddr, path: &str) -> (StatusCode, Value) {
    req(addr, "GET", path, &[], Vec::new()).await
}

async fn server() -> (TestDb, SocketAddr) {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    let (status, v) = req(addr, "POST", "/api/sessions/s/events", &[], lines(5)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    (db, addr)
}

/// The `from` of each note of a `{"notes"}` answer.
fn froms(list: &Value) -> Vec<u64> {
    list["notes"]
        .as_array()
        .unwrap_or_else(|| panic!("no notes: {list}"))
        .iter()
        .map(|n| n["from"].as_u64().unwrap())
        .collect()
}

#[tokio::test]
async fn the_http_contract_every_status() {
    let (_db, addr) = server().await;
    // Made: exactly 201 with the note.
    let (status, note) = json_req(
        addr,
        "POST",
        "/api/sessions/s/notes",
        &json!({"from": 2, "to": 4, "text": "here it *misread* the test output", "author": "Ann"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{note}");
    for key in ["id", "from", "to", "text", "author", "created_at"] {
        assert!(note.get(key).is_some(), "{key} in {note}");
    }
    assert_eq!(
        (&note["from"], &note["to"], &note["author"]),
        (&json!(2), &json!(4), &json!("Ann"))
    );
    let id = note["id"].as_u64().unwrap();
    // One row (no `to`), the last row, a range of the whole session, a note of exactly 64 KiB.
    for body in [
        json!({"from": 5, "text": "the last row"}),
        json!({"from": 1, "to": 5, "text": "the whole session", "author": ""}),
        json!({"from": 3, "to": 3, "text": "x".repeat(65_536)}),
    ] {
        let (status, v) = json_req(addr, "POST", "/api/sessions/s/notes", &body).await;
        assert_eq!(status, StatusCode::CREATED, "{body}: {v}");
        assert_eq!(v["to"], body.get("to").unwrap_or(&body["from"]).clone());
    }
    // Every refusal: status and the words of its `{"error"}`.
    let refusals: &[(&str, &str, Value, StatusCode, &str)] = &[
        (
            "POST",
            "/api/sessions/s/notes",
            json!({"from": 4, "to": 2, "text": "x"}),
            StatusCode::BAD_REQUEST,
            "from 4 is after to 2",
        ),
        (
            "POST",
            "/api/sessions/s/notes",
            json!({"from": 5, "to": 6, "text": "x"}),
            StatusCode::BAD_REQUEST,
            "past the session's last (5)",
        ),
        (
            "POST",
            "/api/sessions/s/notes",
            json!({"from": 9, "text": "x"}),
            StatusCode::BAD_REQUEST,
            "past the session's last",
        ),
        (
            "POST",
            "/api/sessions/s/notes",
            json!({"from": 0, "to": 1, "text": "x"}),
            StatusCode::BAD_REQUEST,
            "seq 1 or later",
        ),
        (
            "POST",
            "/api/sessions/s/notes",
            json!({"from": 1, "text": ""}),
            StatusCode::BAD_REQUEST,
            "text is empty",
        ),
        (
            "POST",
            "/api/sessions/s/notes",
            json!({"from": 1, "text": " \n "}),
            StatusCode::BAD_REQUEST,
            "text is empty",
        ),
        (
            "POST",
            "/api/sessions/s/notes",
            json!({"from": 1, "text": "x".repeat(65_537)}),
            StatusCode::BAD_REQUEST,
            "over 65536 bytes",
        ),
        (
            "POST",
            "/api/sessions/s/notes",
            json!({"from": 1, "text": "a\u{0}b"}),
            StatusCode::BAD_REQUEST,
            "NUL",
        ),
        (
            "POST",
            "/api/sessions/s/notes",
            json!({"from": 1, "text": "x", "author": "a".repeat(101)}),
            StatusCode::BAD_REQUEST,
            "author is at most 100",
        ),
        (
            "POST",
            "/api/sessions/s/notes",
            json!({"from": -1, "text": "x"}),
            StatusCode::BAD_REQUEST,
            "a note:",
        ),
        (
            "POST",
            "/api/sessions/s/notes",
            json!({"to": 1, "text": "x"}),
            StatusCode::BAD_REQUEST,
            "missing field `from`",
        ),
        (
            "POST",
            "/api/sessions/s/notes",
            json!({"from": 1, "text": "x", "colour": "red"}),
            StatusCode::BAD_REQUEST,
            "unknown field",
        ),
        (
            "POST",
            "/api/sessions/s/notes",
            json!("not an object"),
            StatusCode::BAD_REQUEST,
            "a note:",
        ),
        (
            "POST",
            "/api/sessions/nope/notes",
            json!({"from": 1, "text": "x"}),
            StatusCode::NOT_FOUND,
            "no session nope",
        ),
        (
            "POST",
            "/api/sessions/.bad/notes",
            json!({"from": 1, "text": "x"}),
            StatusCode::BAD_REQUEST,
            "a session id",
        ),
        (
            "GET",
            "/api/sessions/nope/notes",
            Value::Null,
            StatusCode::NOT_FOUND,
            "no session nope",
        ),
        (
            "PATCH",
            "/api/sessions/s/notes/999999",
            json!({"text": "y"}),
            StatusCode::NOT_FOUND,
            "no note 999999",
        ),
        (
            "PATCH",
            "/api/sessions/s/notes/abc",
            json!({"text": "y"}),
            StatusCode::BAD_REQUEST,
            "a note id",
        ),
        (
            "PATCH",
            &format!("/api/sessions/s/notes/{id}"),
            json!({"text": ""}),
            StatusCode::BAD_REQUEST,
            "text is empty",
        ),
        (
            "PATCH",
            &format!("/api/sessions/s/notes/{id}"),
            json!({"text": "x".repeat(65_537)}),
            StatusCode::BAD_REQUEST,
            "over 65536 bytes",
        ),
        (
            "PATCH",
            &format!("/api/sessions/s/notes/{id}"),
            json!({"from": 1}),
            StatusCode::BAD_REQUEST,
            "a note's edit",
        ),
        (
            "PATCH",
            &format!("/api/sessions/other/notes/{id}"),
            json!({"text": "y"}),
            StatusCode::NOT_FOUND,
            "no note",
        ),
        (
            "DELETE",
            "/api/sessions/s/notes/999999",
            Value::Null,
            StatusCode::NOT_FOUND,
            "no note 999999",
        ),
        (
            "PUT",
            "/api/sessions/s/notes",
            json!({"from": 1, "text": "x"}),
            StatusCode::METHOD_NOT_ALLOWED,
            "",
        ),
    ];
    for (method, path, body, want, words) in refusals {
        let (status, v) = json_req(addr, method, path, body).await;
        assert_eq!(status, *want, "{method} {path} {body}: {v}");
        if !words.is_empty() {
            let error = v["error"]
                .as_str()
                .unwrap_or_else(|| panic!("{method} {path}: {v}"));
            assert!(error.contains(words), "{method} {path} {body}: {error}");
        }
    }
    // Nothing refused was stored; the list is ordered by `from`.
    let (status, list) = get(addr, "/api/sessions/s/notes").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(froms(&list), [1, 2, 3, 5], "{list}");
    // Changed, then deleted.
    let (status, v) = json_req(
        addr,
        "PATCH",
        &format!("/api/sessions/s/notes/{id}"),
        &json!({"text": "the budget went here"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (&v["id"], &v["text"], &v["from"]),
        (&json!(id), &json!("the budget went here"), &json!(2))
    );
    assert!(v["updated_at"].is_f64(), "{v}");
    let (status, v) = json_req(
        addr,
        "DELETE",
        &format!("/api/sessions/s/notes/{id}"),
        &Value::Null,
    )
    .await;
    assert_eq!((status, &v["id"]), (StatusCode::OK, &json!(id)), "{v}");
    let (status, _) = json_req(
        addr,
        "DELETE",
        &format!("/api/sessions/s/notes/{id}"),
        &Value::Null,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "deleted once");
    let (_, list) = get(addr, "/api/sessions/s/notes").await;
    assert_eq!(froms(&list), [1, 3, 5]);
}

#[tokio::test]
async fn note_writes_obey_the_write_guard_and_the_token() {
    let (_db, addr) = server().await;
    let note = br#"{"from": 1, "text": "x"}"#.to_vec();
    // No JSON type nor X-Hiveterm: a form could send it.
    for (method, path) in [
        ("POST", "/api/sessions/s/notes"),
        ("PATCH", "/api/sessions/s/notes/1"),
        ("DELETE", "/api/sessions/s/notes/1"),
    ] {
        let (status, _) = req(
            addr,
            method,
            path,
            &[("content-type", "text/plain")],
            note.clone(),
        )
        .await;
        assert_eq!(
            status,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{method} {path}"
        );
        for (header, value) in [
            ("origin", "http://evil.example"),
            ("sec-fetch-site", "cross-site"),
        ] {
            let (status, _) = req(addr, method, path, &[JSON, (header, value)], note.clone()).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{method} {path} {header}");
        }
    }
    // The page's own way: X-Hiveterm with a JSON body.
    let (status, v) = req(
        addr,
        "POST",
        "/api/sessions/s/notes",
        &[
            JSON,
            ("x-hiveterm", "1"),
            ("origin", &format!("http://{addr}")),
        ],
        note.clone(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (_, list) = get(addr, "/api/sessions/s/notes").await;
    assert_eq!(froms(&list), [1], "only the page's note was stored");

    let config = Config {
        token: Some("server-token".into()),
        ..Config::default()
    };
    let db = TestDb::with(config, 4);
    let addr = spawn_server(db.state.clone()).await;
    let auth = ("authorization", "Bearer server-token");
    let (status, _) = req(addr, "POST", "/api/sessions/s/events", &[auth], lines(2)).await;
    assert_eq!(status, StatusCode::OK);
    for (method, path) in [
        ("POST", "/api/sessions/s/notes"),
        ("GET", "/api/sessions/s/notes"),
        ("DELETE", "/api/sessions/s/notes/1"),
    ] {
        let (status, _) = req(addr, method, path, &[JSON], note.clone()).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{method} {path}");
    }
    let (status, _) = req(addr, "POST", "/api/sessions/s/notes", &[JSON, auth], note).await;
    assert_eq!(status, StatusCode::CREATED);
}

#[tokio::test]
async fn notes_survive_a_restart() {
    let (db, addr) = server().await;
    for (from, to) in [(4, 5), (1, 1), (2, 3)] {
        let (status, _) = json_req(
            addr,
            "POST",
            "/api/sessions/s/notes",
            &json!({"from": from, "to": to, "text": format!("on {from}")}),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let (_, before) = get(addr, "/api/sessions/s/notes").await;
    db.state.store().close().await;
    let store = db.reopen(4);
    let addr = spawn_server(AppState::new(store.clone(), Config::default())).await;
    let (_, after) = get(addr, "/api/sessions/s/notes").await;
    assert_eq!(after, before);
    assert_eq!(froms(&after), [1, 2, 4]);
    store.close().await;
}

/// The next event of `sse` that is not an envelope or the badges, within 10 s.
async fn next_other(sse: &mut SseClient) -> common::SseEvent {
    loop {
        let ev = tokio::time::timeout(Duration::from_secs(10), sse.next())
            .await
            .expect("an event within 10 s")
            .expect("the stream is open");
        if ev.id.is_none() && ev.event.as_deref() != Some("state") {
            return ev;
        }
    }
}

#[tokio::test]
async fn live_streams_are_told_of_every_note_write() {
    let (_db, addr) = server().await;
    let (_, share) = json_req(
        addr,
        "POST",
        "/api/sessions/s/shares",
        &json!({"live": true}),
    )
    .await;
    let (_, redacted) = json_req(
        addr,
        "POST",
        "/api/sessions/s/shares",
        &json!({"live": true, "redact": true}),
    )
    .await;
    let mut streams = vec![
        SseClient::connect(addr, "/api/sessions/s/events/stream", None).await,
        SseClient::connect(
            addr,
            &format!("{}/api/events/stream", share["url"].as_str().unwrap()),
            None,
        )
        .await,
        SseClient::connect(
            addr,
            &format!("{}/api/events/stream", redacted["url"].as_str().unwrap()),
            None,
        )
        .await,
    ];
    let (_, note) = json_req(
        addr,
        "POST",
        "/api/sessions/s/notes",
        &json!({"from": 1, "text": "first"}),
    )
    .await;
    let path = format!("/api/sessions/s/notes/{}", note["id"]);
    // Issue 46.5: each frame carries the change itself (the note, or the deleted one's id),
    // so a page applies it instead of reading every note again.
    let writes: [(&str, Value, Value); 3] = [
        ("NONE", Value::Null, json!({"note": note})),
        ("PATCH", json!({"text": "second"}), json!("second")),
        ("DELETE", Value::Null, json!({"deleted": note["id"]})),
    ];
    for (method, body, want) in writes {
        if method != "NONE" {
            let (status, v) = json_req(addr, method, &path, &body).await;
            assert_eq!(status, StatusCode::OK, "{v}");
        }
        for sse in &mut streams {
            let ev = next_other(sse).await;
            assert_eq!(ev.event.as_deref(), Some("notes"), "after {method}");
            let data: Value = serde_json::from_str(&ev.data).unwrap();
            match method {
                "PATCH" => assert_eq!(data["note"]["text"], want, "{data}"),
                _ => assert_eq!(data, want, "after {method}"),
            }
        }
    }
    // A refused write tells nobody: the next event is the next real one.
    let (status, _) = json_req(addr, "PATCH", &path, &json!({"text": "gone"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    json_req(
        addr,
        "POST",
        "/api/sessions/s/notes",
        &json!({"from": 2, "text": "third"}),
    )
    .await;
    for sse in &mut streams {
        let ev = next_other(sse).await;
        assert_eq!(ev.event.as_deref(), Some("notes"));
        let data: Value = serde_json::from_str(&ev.data).unwrap();
        assert_eq!(data["note"]["text"], "third", "{data}");
    }
}

#[tokio::test]
async fn share_links_carry_notes_redacted_and_revoked() {
    let (_db, addr) = server().await;
    let make = async |body: Value| {
        let (status, v) = json_req(addr, "POST", "/api/sessions/s/shares", &body).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        v["url"].as_str().unwrap().to_owned()
    };
    json_req(
        addr,
        "POST",
        "/api/sessions/s/notes",
        &json!({"from": 1, "to": 2, "text": "before the snapshot", "author": "Ann"}),
    )
    .await;
    let snapshot = make(json!({})).await;
    let redacted = make(json!({"redact": true, "live": true})).await;
    let revoked = make(json!({"live": true})).await;
    // Written after the snapshot: still shown (commentary on it)…
    json_req(addr, "POST", "/api/sessions/s/notes", &json!({"from": 5, "text": format!("the token {GITHUB} leaked"), "author": format!("bot {GITHUB}")})).await;
    // …but a note on rows past the snapshot is not.
    req(addr, "POST", "/api/sessions/s/events", &[], lines(2)).await;
    json_req(
        addr,
        "POST",
        "/api/sessions/s/notes",
        &json!({"from": 6, "to": 7, "text": "later rows"}),
    )
    .await;

    let (status, list) = get(addr, &format!("{snapshot}/api/notes")).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert_eq!(froms(&list), [1, 5], "{list}");
    assert!(
        list.to_string().contains(GITHUB),
        "a plain share shows the note as written"
    );
    let (_, list) = get(addr, &format!("{redacted}/api/notes")).await;
    assert_eq!(froms(&list), [1, 5, 6], "{list}");
    let text = list.to_string();
    assert!(
        !text.contains(GITHUB) && text.contains("[REDACTED:"),
        "{text}"
    );
    let (_, about) = get(addr, &format!("{redacted}/api/share")).await;
    assert_eq!(about["comments"], json!(false));

    let (_, shares) = get(addr, "/api/shares").await;
    let id = shares["shares"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["live"] == json!(true) && s["redact"] == json!(false))
        .unwrap()["id"]
        .clone();
    let (status, _) = json_req(addr, "DELETE", &format!("/api/shares/{id}"), &Value::Null).await;
    assert_eq!(status, StatusCode::OK);
    let (status, v) = get(addr, &format!("{revoked}/api/notes")).await;
    assert_eq!(
        status,
        StatusCode::GONE,
        "a revoked link shows no notes: {v}"
    );
    assert!(v.get("notes").is_none());

    // Without comments a reader cannot write, nor change or delete.
    for (method, path) in [
        ("POST", format!("{snapshot}/api/notes")),
        ("PATCH", format!("{snapshot}/api/notes/1")),
        ("DELETE", format!("{snapshot}/api/notes/1")),
        ("DELETE", format!("{snapshot}/api/notes")),
    ] {
        let (status, v) = json_req(
            addr,
            method,
            &path,
            &json!({"from": 1, "text": "x", "author": "Eve"}),
        )
        .await;
        assert!(
            [
                StatusCode::FORBIDDEN,
                StatusCode::NOT_FOUND,
                StatusCode::METHOD_NOT_ALLOWED
            ]
            .contains(&status),
            "{method} {path}: {status} {v}"
        );
    }
    let (_, list) = get(addr, "/api/sessions/s/notes").await;
    assert_eq!(froms(&list), [1, 5, 6], "no reader's note stored");
}

#[tokio::test]
async fn comment_links_take_readers_notes_within_limits() {
    let (_db, addr) = server().await;
    let (status, v) = json_req(
        addr,
        "POST",
        "/api/sessions/s/shares",
        &json!({"comments": true}),
    )
    .await;
    assert_eq!(
        (status, &v["comments"]),
        (StatusCode::CREATED, &json!(true)),
        "{v}"
    );
    let url = v["url"].as_str().unwrap().to_owned();
    let (_, about) = get(addr, &format!("{url}/api/share")).await;
    assert_eq!(about["comments"], json!(true));
    let post = async |body: Value| json_req(addr, "POST", &format!("{url}/api/notes"), &body).await;
    // Refusals: no author, a bad range (past the snapshot too), empty or oversized text.
    for (body, words) in [
        (json!({"from": 1, "text": "x"}), "needs an author"),
        (
            json!({"from": 1, "text": "x", "author": "  "}),
            "needs an author",
        ),
        (
            json!({"from": 3, "to": 2, "text": "x", "author": "Bo"}),
            "after to",
        ),
        (
            json!({"from": 6, "text": "x", "author": "Bo"}),
            "past the session's last (5)",
        ),
        (
            json!({"from": 1, "text": "", "author": "Bo"}),
            "text is empty",
        ),
        (
            json!({"from": 1, "text": "x".repeat(65_537), "author": "Bo"}),
            "over 65536 bytes",
        ),
    ] {
        let (status, v) = post(body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(words), "{v}");
    }
    // One reader posts two notes 1.5 s apart.
    let (status, first) =
        post(json!({"from": 2, "to": 3, "text": "is this the retry?", "author": "Bo"})).await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    assert_eq!(
        (&first["author"], &first["from"], &first["to"]),
        (&json!("Bo"), &json!(2), &json!(3))
    );
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (status, v) = post(json!({"from": 4, "text": "and here", "author": "Bo"})).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    // A flood is cut off.
    let mut statuses = Vec::new();
    for i in 0..8 {
        statuses.push(
            post(json!({"from": 1, "text": format!("spam {i}"), "author": "Eve"}))
                .await
                .0,
        );
    }
    assert!(
        statuses.contains(&StatusCode::TOO_MANY_REQUESTS),
        "{statuses:?}"
    );
    let taken = statuses
        .iter()
        .filter(|s| **s == StatusCode::CREATED)
        .count();
    assert!(taken <= 5, "{statuses:?}");
    // The link shows them; the owner deletes one.
    let (_, list) = get(addr, &format!("{url}/api/notes")).await;
    assert_eq!(list["notes"].as_array().unwrap().len(), 2 + taken, "{list}");
    let (status, _) = json_req(
        addr,
        "DELETE",
        &format!("/api/sessions/s/notes/{}", first["id"]),
        &Value::Null,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, list) = get(addr, &format!("{url}/api/notes")).await;
    assert_eq!(list["notes"].as_array().unwrap().len(), 1 + taken);
    // A reader cannot delete or change one.
    for method in ["DELETE", "PATCH"] {
        let (status, _) = json_req(
            addr,
            method,
            &format!("{url}/api/notes/{}", v["id"]),
            &json!({"text": "x"}),
        )
        .await;
        assert!(
            [StatusCode::NOT_FOUND, StatusCode::METHOD_NOT_ALLOWED].contains(&status),
            "{method}: {status}"
        );
    }
}

/// `hiveterm note`: make, list, delete, on the database of a running server (which serves
/// the notes the command made).
#[test]
fn the_note_command_writes_beside_a_server() {
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh(dir.path());
    let rt = tokio::runtime::Runtime::new().unwrap();
    let store = rt.block_on(async { hiveterm::Store::open_db(&db.spec, 4).unwrap() });
    let addr = rt.block_on(async {
        let addr = spawn_server(AppState::new(store.clone(), Config::default())).await;
        req(addr, "POST", "/api/sessions/cli/events", &[], lines(6)).await;
        addr
    });
    let run = |args: &[&str]| common::cli("note", &db.spec, args);
    let mut sse = rt.block_on(SseClient::connect(
        addr,
        "/api/sessions/cli/events/stream",
        None,
    ));
    let (ok, out, err) = run(&["cli", "3-5", "the budget went **here**", "--author", "Ann"]);
    // The running server's live pages are told (PostgreSQL: NOTIFY; SQLite: its watch).
    let ev = rt.block_on(next_other(&mut sse));
    assert_eq!(ev.event.as_deref(), Some("notes"));
    assert!(ok, "{err}");
    let note: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (&note["from"], &note["to"], &note["author"]),
        (&json!(3), &json!(5), &json!("Ann"))
    );
    assert!(
        err.contains(&format!("note {} on rows 3-5 of session cli", note["id"])),
        "{err}"
    );
    let (ok, _, err) = run(&["cli", "2", "one row"]);
    assert!(ok, "{err}");
    let (_, list) = rt.block_on(get(addr, "/api/sessions/cli/notes"));
    assert_eq!(froms(&list), [2, 3], "the server serves them");
    for (args, words) in [
        (vec!["cli", "5-3", "x"], "from 5 is after to 3"),
        (vec!["cli", "1-7", "x"], "past the session's last (6)"),
        (vec!["cli", "1-2", ""], "text is empty"),
        (vec!["cli", "one-two", "x"], "a range is A-B"),
        (vec!["nope", "1", "x"], "no session nope"),
        (vec!["cli", "--delete", "999999"], "no note 999999"),
    ] {
        let (ok, out, err) = run(&args);
        assert!(!ok && out.is_empty(), "{args:?}: {out}");
        assert!(err.contains(words), "{args:?}: {err}");
    }
    let (ok, out, _) = run(&["cli", "--list"]);
    assert!(ok);
    let listed: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        listed
            .iter()
            .map(|n| n["from"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [2, 3]
    );
    let (ok, _, err) = run(&["cli", "--delete", &note["id"].to_string()]);
    assert!(ok, "{err}");
    let (_, list) = rt.block_on(get(addr, "/api/sessions/cli/notes"));
    assert_eq!(froms(&list), [2]);
    let (ok, out, err) = run(&["cli", "--list"]);
    assert!(ok && out.lines().count() == 1, "{out} {err}");
    rt.block_on(store.close());
}

/// Issue 45 item 7 = issue 46 item 10: a note holding `(DB_PASSWORD=hunter2-…)` and its
/// neighbours, read under a redacted link: the value goes, the brackets and the words stay;
/// the plain link shows the note as written.
#[tokio::test]
async fn issue_45_7_notes_under_a_redacted_link_hide_db_password_in_parentheses() {
    const VALUE: &str = "hunter2-9fQ2xLm7Rk4t";
    let (_db, addr) = server().await;
    let (status, v) = json_req(
        addr,
        "POST",
        "/api/sessions/s/notes",
        &json!({"from": 2, "text": format!("root cause (DB_PASSWORD={VALUE}) in the log; rotate [API_KEY={VALUE}]"), "author": format!("ops (token={VALUE})")}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let mut urls = Vec::new();
    for body in [
        json!({"redact": true}),
        json!({"redact": true, "live": true}),
        json!({}),
    ] {
        let (status, v) = json_req(addr, "POST", "/api/sessions/s/shares", &body).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        urls.push(v["url"].as_str().unwrap().to_owned());
    }
    for url in &urls[..2] {
        let (status, list) = get(addr, &format!("{url}/api/notes")).await;
        assert_eq!(status, StatusCode::OK, "{list}");
        let note = &list["notes"][0];
        assert_eq!(
            note["text"],
            "root cause (DB_PASSWORD=[REDACTED:password]) in the log; rotate [API_KEY=[REDACTED:secret]]",
            "{list}"
        );
        assert_eq!(note["author"], "ops (token=[REDACTED:secret])", "{list}");
        assert!(!list.to_string().contains(VALUE), "{list}");
    }
    let (_, list) = get(addr, &format!("{}/api/notes", urls[2])).await;
    assert!(
        list.to_string().contains(VALUE),
        "a plain link shows the note as written"
    );
}
