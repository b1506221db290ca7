//! Issue 25's smaller holes, against the real router over a real database (SQLite, or
//! PostgreSQL with `HIVETERM_TEST_DB=postgres`): a NUL in a title, an unbounded session
//! title, an `Idempotency-Key` reused with another body, an oversized request head.

mod common;

use std::net::SocketAddr;

use common::{TestDb, call_json, send, spawn_server};
use http_body_util::BodyExt;
use serde_json::{Value, json};

/// The longest session title stored (`docs/API.md`).
const MAX_TITLE_BYTES: usize = 1024;

fn note(text: &str) -> String {
    json!({ "kind": "note", "text": text }).to_string() + "\n"
}

/// A POST with `headers`; the status and the JSON answer.
async fn post(
    addr: SocketAddr,
    path: &str,
    headers: &[(&str, &str)],
    body: String,
) -> (u16, Value) {
    let (status, _, body) = send(addr, "POST", path, headers, body.into_bytes()).await;
    let bytes = body.collect().await.unwrap().to_bytes();
    (
        status.as_u16(),
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nul_in_a_title_is_refused_and_fails_no_other_post() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    // Other clients post to the same session at the same moment as the bad one.
    let mut good = Vec::new();
    for i in 0..20 {
        good.push(tokio::spawn(post(
            addr,
            "/api/sessions/nul/events?title=fine",
            &[],
            note(&format!("good {i}")),
        )));
    }
    let (status, v) = post(
        addr,
        "/api/sessions/nul/events?title=a%00b",
        &[],
        note("bad"),
    )
    .await;
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("NUL"), "{v}");
    for task in good {
        let (status, v) = task.await.unwrap();
        assert_eq!(status, 200, "another client's POST: {v}");
    }
    let texts: Vec<String> = db
        .raw_events("nul")
        .iter()
        .map(|e| String::from_utf8_lossy(&e.raw).into_owned())
        .collect();
    assert_eq!(
        texts.len(),
        20,
        "every good line, the bad one not: {texts:?}"
    );
    assert!(texts.iter().all(|t| !t.contains("bad")));
    // A NUL in a new session's title creates nothing.
    let (status, _) = post(addr, "/api/sessions/nul2/events?title=%00", &[], note("x")).await;
    assert_eq!(status, 400);
    let (status, _) = call_json(addr, "GET", "/api/sessions/nul2", vec![]).await;
    assert_eq!(status, 404, "nothing created");
    // A line holding NUL bytes is a line like any other (stored raw, its rows sanitised).
    let (status, v) = post(
        addr,
        "/api/sessions/nul/events",
        &[],
        "{\"kind\":\"note\",\"text\":\"a\\u0000b\"}\nnot json \0 here\n".into(),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["count"], 2);
    let history = common::all_history(addr, "nul", 100).await;
    assert_eq!(history.len(), 22);
}

#[tokio::test]
async fn a_nul_in_a_share_title_is_refused() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    let (status, _) = post(addr, "/api/sessions/s/events", &[], note("x")).await;
    assert_eq!(status, 200);
    let (status, v) = post(
        addr,
        "/api/sessions/s/shares",
        &[("content-type", "application/json")],
        json!({ "title": "a\u{0}b" }).to_string(),
    )
    .await;
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("NUL"), "{v}");
    let (status, v) = call_json(addr, "GET", "/api/shares", vec![]).await;
    assert_eq!(status, 200);
    assert_eq!(v["shares"], json!([]), "no share made");
    // The server is fine afterwards.
    let (status, v) = post(
        addr,
        "/api/sessions/s/shares",
        &[("content-type", "application/json")],
        json!({ "title": "ok" }).to_string(),
    )
    .await;
    assert_eq!(status, 201, "{v}");
}

#[tokio::test]
async fn a_long_session_title_is_stored_cut_on_a_char_boundary() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    // 3,000 two-byte characters: 6,000 bytes, cut inside none of them.
    let long = "é".repeat(3000);
    let escaped = "%C3%A9".repeat(3000);
    let (status, v) = post(
        addr,
        &format!("/api/sessions/long/events?title=x{escaped}"),
        &[],
        note("x"),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let (_, s) = call_json(addr, "GET", "/api/sessions/long", vec![]).await;
    let title = s["title"].as_str().unwrap();
    assert!(title.len() <= MAX_TITLE_BYTES, "{} bytes", title.len());
    assert!(title.len() > MAX_TITLE_BYTES - 2, "{} bytes", title.len());
    assert!(format!("x{long}").starts_with(title));
    // A title within the cap is kept whole.
    let (status, _) = post(addr, "/api/sessions/short/events?title=abc", &[], note("x")).await;
    assert_eq!(status, 200);
    let (_, s) = call_json(addr, "GET", "/api/sessions/short", vec![]).await;
    assert_eq!(s["title"], "abc");
}

#[tokio::test]
async fn an_idempotency_key_reused_with_another_body_is_refused() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    let key = [("idempotency-key", "k-1")];
    let first = note("a") + &note("b") + &note("c");
    let (status, v) = post(addr, "/api/sessions/ik/events", &key, first.clone()).await;
    assert_eq!(status, 200, "{v}");
    // Another body with the same key: refused, nothing of it stored, no false ack.
    for other in [
        note("d") + &note("e"),
        note("a"),
        first.clone() + &note("d"),
    ] {
        let (status, v) = post(addr, "/api/sessions/ik/events", &key, other).await;
        assert_eq!(status, 409, "{v}");
        assert!(
            v["error"].as_str().unwrap().contains("Idempotency-Key"),
            "{v}"
        );
    }
    let texts: Vec<String> = db
        .raw_events("ik")
        .iter()
        .map(|e| String::from_utf8_lossy(&e.raw).into_owned())
        .collect();
    assert_eq!(texts.concat() + "\n", first.replace("}\n{", "}{"));
    // The same body again is still a retry: the whole range, nothing stored twice.
    let (status, v) = post(addr, "/api/sessions/ik/events", &key, first.clone()).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (&v["first_seq"], &v["last_seq"], &v["count"]),
        (&json!(1), &json!(3), &json!(3))
    );
    // The key is per session: another session takes another body under it.
    let (status, v) = post(addr, "/api/sessions/ik2/events", &key, note("z")).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(db.raw_events("ik").len(), 3);
}

#[tokio::test]
async fn a_key_stored_before_bodies_were_hashed_still_takes_its_retry() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    let key = [("idempotency-key", "old")];
    let body = note("a") + &note("b");
    let (status, _) = post(addr, "/api/sessions/old/events", &key, body.clone()).await;
    assert_eq!(status, 200);
    // A key stored by a server from before the body's hash was kept with it.
    db.sql("UPDATE idempotency SET body_sha256 = NULL");
    let (status, v) = post(addr, "/api/sessions/old/events", &key, body).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!((&v["first_seq"], &v["count"]), (&json!(1), &json!(2)));
    assert_eq!(db.raw_events("old").len(), 2);
}

#[tokio::test]
async fn a_database_from_before_body_hashes_is_migrated_and_keeps_its_keys() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    let key = [("idempotency-key", "kept")];
    let body = note("a") + &note("b");
    let (status, _) = post(addr, "/api/sessions/mig/events", &key, body.clone()).await;
    assert_eq!(status, 200);
    db.state.store().close().await;
    // The database as the server before this column left it (PostgreSQL's schema version 4,
    // SQLite's 5): no notes either (issue 23's migration comes after), nor the sessions'
    // index, nor the search index (issue 22's), nor comparison links (issue 48's).
    let index_columns = [
        "given_title",
        "agent",
        "agent_version",
        "project",
        "model",
        "started_at",
        "ended_at",
        "outcome",
        "turns",
        "errors",
        "input_tokens",
        "output_tokens",
        "cache_read_tokens",
        "cache_creation_tokens",
        "cost",
        "first_error",
        // Issue 50's, after these.
        "cost_estimated",
        "tokens_by_model",
        "unpriced_models",
    ];
    let mut before_notes = "DROP INDEX sessions_newest; DROP INDEX sessions_cost; \
         DROP INDEX sessions_errors; DROP INDEX sessions_agent; DROP INDEX sessions_project; \
         DROP TABLE notes; ALTER TABLE shares DROP COLUMN comments; \
         ALTER TABLE shares DROP COLUMN compare_with; ALTER TABLE shares DROP COLUMN compare_seq; \
         ALTER TABLE events DROP COLUMN source;"
        .to_owned();
    for c in index_columns {
        before_notes.push_str(&format!(" ALTER TABLE sessions DROP COLUMN {c};"));
    }
    if db.db.is_postgres() {
        db.sql(&format!(
            "{before_notes} DROP TABLE search_rows; ALTER TABLE idempotency DROP COLUMN body_sha256;
             ALTER TABLE follows DROP COLUMN within; ALTER TABLE follows DROP COLUMN mark;
             UPDATE schema_version SET version = 4"
        ));
    } else {
        db.sql(&format!(
            "{before_notes} DROP TABLE search_fts; DROP TABLE search_rows;
             ALTER TABLE sessions DROP COLUMN newest_row;
             ALTER TABLE follows DROP COLUMN within; ALTER TABLE follows DROP COLUMN mark;
             ALTER TABLE idempotency DROP COLUMN body_sha256; PRAGMA user_version = 5"
        ));
    }
    let state = hiveterm::AppState::new(db.reopen(4), hiveterm::Config::default());
    let addr = spawn_server(state).await;
    // Migrated: the old key still takes its retry; a new key keeps its body's hash.
    let (status, v) = post(addr, "/api/sessions/mig/events", &key, body.clone()).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!((&v["first_seq"], &v["count"]), (&json!(1), &json!(2)));
    let new = [("idempotency-key", "new")];
    let (status, _) = post(addr, "/api/sessions/mig/events", &new, note("c")).await;
    assert_eq!(status, 200);
    let (status, v) = post(addr, "/api/sessions/mig/events", &new, note("d")).await;
    assert_eq!(status, 409, "{v}");
    assert_eq!(db.raw_events("mig").len(), 3);
}

/// Issue 51: SQLite keeps a stored envelope and a checkpoint's columns DEFLATEd when that
/// makes them smaller (a BLOB), and reads the plain TEXT a database from before holds as it
/// is: history, the SSE backlog and a restart (its checkpoints) give the same envelopes.
#[tokio::test]
async fn issue_51_packed_and_plain_envelopes_read_alike() {
    let db = TestDb::with(hiveterm::Config::default(), 4);
    let addr = spawn_server(db.state.clone()).await;
    let mut body = String::new();
    for i in 0..10 {
        body.push_str(&note(&format!(
            "note {i}: {}",
            "a long repeated text ".repeat(40)
        )));
        body.push_str(&note(&format!("short {i}")));
    }
    let (status, _) = post(addr, "/api/sessions/packed/events", &[], body).await;
    assert_eq!(status, 200);
    let before = common::all_history(addr, "packed", 7).await;
    assert_eq!(before.len(), 20);
    if !db.db.is_postgres() {
        let packed = db
            .db
            .query_one("SELECT CAST(COUNT(*) AS TEXT) FROM rendered WHERE typeof(json) = 'blob'");
        assert_eq!(
            packed, "10",
            "the long envelopes are packed, the short ones plain"
        );
        let packed = db.db.query_one(
            "SELECT CAST(COUNT(*) AS TEXT) || ' of ' || CAST((SELECT COUNT(*) FROM checkpoints) AS TEXT)
             FROM checkpoints WHERE typeof(summary) = 'blob'",
        );
        assert_eq!(packed, "5 of 5", "checkpoints' summaries are packed");
        // An envelope as a database from before holds it: plain TEXT.
        let third = before.iter().find(|e| e["seq"] == 3).unwrap().to_string();
        db.sql(&format!(
            "UPDATE rendered SET json = '{}' WHERE session = 'packed' AND seq = 3",
            third.replace('\'', "''")
        ));
    }
    assert_eq!(common::all_history(addr, "packed", 5).await, before);
    db.state.store().close().await;
    // After a restart: the session's fold resumed from a packed checkpoint goes on as it was.
    let state = hiveterm::AppState::new(db.reopen(4), hiveterm::Config::default());
    let addr = spawn_server(state).await;
    assert_eq!(common::all_history(addr, "packed", 20).await, before);
    let (status, v) = post(addr, "/api/sessions/packed/events", &[], note("after")).await;
    assert_eq!((status, &v["first_seq"]), (200, &json!(21)));
}
