//! Notes under hostile readers (issue 46): a comment link's reader's note says which link it
//! came through and that a reader wrote it, whatever author it gives (46.4); notes are read a
//! page at a time, bounded in bytes, and a session's and a link's notes are capped (46.5).
//! Runs on SQLite, and on PostgreSQL with `HIVETERM_TEST_DB=postgres`.

mod common;

use std::net::SocketAddr;

use axum::http::StatusCode;
use common::{TestDb, send, spawn_server};
use hiveterm::store::{
    MAX_SESSION_NOTE_BYTES, MAX_SHARE_NOTE_BYTES, NewNote, PAGE_BYTES, PAGE_NOTES,
};
use http_body_util::BodyExt;
use serde_json::{Value, json};

async fn req(addr: SocketAddr, method: &str, path: &str, body: &Value) -> (StatusCode, Value) {
    let body = if body.is_null() {
        Vec::new()
    } else {
        body.to_string().into_bytes()
    };
    let headers = [("content-type", "application/json")];
    let (status, _, body) = send(addr, method, path, &headers, body).await;
    let bytes = body.collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// A server with session `s` of `n` events.
async fn server(n: usize) -> (TestDb, SocketAddr) {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    let body: String = (1..=n)
        .map(|i| json!({"kind": "note", "text": format!("line {i}")}).to_string() + "\n")
        .collect();
    let (status, _, _) = send(addr, "POST", "/api/sessions/s/events", &[], body.into()).await;
    assert_eq!(status, StatusCode::OK);
    (db, addr)
}

/// A comment link (with `title`) on `s`: its id and path.
async fn comment_link(addr: SocketAddr, title: &str) -> (u64, String) {
    let (status, v) = req(
        addr,
        "POST",
        "/api/sessions/s/shares",
        &json!({"comments": true, "live": true, "title": title}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    (
        v["id"].as_u64().unwrap(),
        v["url"].as_str().unwrap().to_owned(),
    )
}

/// Every note `path` lists, page after page: the pages' sizes in notes and bytes too.
async fn all_pages(addr: SocketAddr, path: &str) -> (Vec<Value>, Vec<(usize, usize)>) {
    let (mut notes, mut pages) = (Vec::new(), Vec::new());
    let mut after: Option<String> = None;
    loop {
        let url = match &after {
            Some(a) => format!("{path}?after={a}"),
            None => path.to_owned(),
        };
        let (status, page) = req(addr, "GET", &url, &Value::Null).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let list = page["notes"].as_array().unwrap();
        let bytes = list
            .iter()
            .map(|n| n["text"].as_str().unwrap().len() + n["author"].as_str().unwrap().len())
            .sum();
        pages.push((list.len(), bytes));
        notes.extend(list.iter().cloned());
        match page["next"].as_str() {
            Some(next) => after = Some(next.to_owned()),
            None => return (notes, pages),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_46_4_a_readers_note_says_its_link_and_never_passes_for_the_owners() {
    let (_db, addr) = server(3).await;
    let (link, url) = comment_link(addr, "review by Bo").await;
    let (other, other_url) = comment_link(addr, "for the client").await;
    let (status, owner) = req(
        addr,
        "POST",
        "/api/sessions/s/notes",
        &json!({"from": 1, "text": "mine", "author": "Ann"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{owner}");
    assert_eq!(owner["reader"], Value::Null, "the owner's note: {owner}");
    // A reader signs as the owner: the note still says a reader wrote it, through which link.
    let (status, forged) = req(
        addr,
        "POST",
        &format!("{url}/api/notes"),
        &json!({"from": 2, "text": "approved", "author": "Ann"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{forged}");
    let want = json!({"link": link, "title": "review by Bo"});
    assert_eq!(forged["reader"], want, "{forged}");
    // Everywhere it is read: the owner's list, its own link, another link (which is told the
    // link's id, not its title), the live frame.
    let check = async |path: String, title: Value| {
        let (notes, _) = all_pages(addr, &path).await;
        let by_text = |t: &str| notes.iter().find(|n| n["text"] == t).unwrap().clone();
        assert_eq!(by_text("mine")["reader"], Value::Null, "{path}");
        assert_eq!(
            by_text("approved")["reader"],
            json!({"link": link, "title": title}),
            "{path}"
        );
    };
    check("/api/sessions/s/notes".into(), json!("review by Bo")).await;
    check(format!("{url}/api/notes"), json!("review by Bo")).await;
    check(format!("{other_url}/api/notes"), Value::Null).await;
    assert_ne!(link, other);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_46_5_notes_are_read_a_bounded_page_at_a_time() {
    let (db, addr) = server(300).await;
    let store = db.state.store();
    // Small notes: pages of at most PAGE_NOTES.
    for i in 0..(PAGE_NOTES + 50) {
        let from = (i % 300) as u64 + 1;
        store
            .create_note(NewNote {
                session: "s".into(),
                from,
                to: from,
                text: format!("n{i}"),
                author: String::new(),
                created_at: 1.0,
                share: None,
            })
            .await
            .unwrap();
    }
    let (notes, pages) = all_pages(addr, "/api/sessions/s/notes").await;
    assert_eq!(notes.len(), PAGE_NOTES + 50);
    assert_eq!(
        pages.iter().map(|p| p.0).collect::<Vec<_>>(),
        [PAGE_NOTES, 50]
    );
    let keys: Vec<(u64, u64, u64)> = notes
        .iter()
        .map(|n| {
            (
                n["from"].as_u64().unwrap(),
                n["to"].as_u64().unwrap(),
                n["id"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "in order, once each");
    // Big notes: pages of at most PAGE_BYTES (past the first note).
    let big = "b".repeat(60_000);
    for _ in 0..10 {
        let (status, v) = req(
            addr,
            "POST",
            "/api/sessions/s/notes",
            &json!({"from": 7, "text": big}),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
    }
    let (notes, pages) = all_pages(addr, "/api/sessions/s/notes").await;
    assert_eq!(notes.len(), PAGE_NOTES + 60);
    assert!(
        pages.iter().all(|(_, bytes)| *bytes <= PAGE_BYTES),
        "{pages:?}"
    );
    let (status, v) = req(addr, "GET", "/api/sessions/s/notes?after=x", &Value::Null).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_46_5_a_sessions_and_a_links_notes_are_capped() {
    let (db, addr) = server(3).await;
    let store = db.state.store();
    let (link, url) = comment_link(addr, "").await;
    // A link's readers: up to MAX_SHARE_NOTE_BYTES (written through the store: the link's
    // rate limit would make this slow; the cap is the store's).
    let text = "r".repeat(64 * 1024);
    let fit = (MAX_SHARE_NOTE_BYTES as usize) / (text.len() + 2);
    for _ in 0..fit {
        let new = NewNote {
            session: "s".into(),
            from: 1,
            to: 1,
            text: text.clone(),
            author: "Bo".into(),
            created_at: 1.0,
            share: Some(link),
        };
        store.create_note(new).await.unwrap();
    }
    let (status, v) = req(
        addr,
        "POST",
        &format!("{url}/api/notes"),
        &json!({"from": 1, "text": text, "author": "Bo"}),
    )
    .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("this link's readers' notes would be over"),
        "{v}"
    );
    // The session: up to MAX_SESSION_NOTE_BYTES, then every write past it is refused, a
    // change that grows a note too; shrinking one makes room.
    let mut ids = Vec::new();
    let refused = loop {
        let (status, v) = req(
            addr,
            "POST",
            "/api/sessions/s/notes",
            &json!({"from": 2, "text": text}),
        )
        .await;
        if status != StatusCode::CREATED {
            break (status, v);
        }
        ids.push(v["id"].as_u64().unwrap());
    };
    assert_eq!(refused.0, StatusCode::PAYLOAD_TOO_LARGE, "{}", refused.1);
    let error = refused.1["error"].as_str().unwrap();
    assert!(
        error.contains(&format!(
            "this session's notes would be over {MAX_SESSION_NOTE_BYTES} bytes"
        )),
        "{error}"
    );
    let (notes, _) = all_pages(addr, "/api/sessions/s/notes").await;
    let total: usize = notes
        .iter()
        .map(|n| n["text"].as_str().unwrap().len() + n["author"].as_str().unwrap().len())
        .sum();
    assert!(
        total as u64 <= MAX_SESSION_NOTE_BYTES && total as u64 > MAX_SESSION_NOTE_BYTES - 70_000,
        "{total}"
    );
    // A small note still fits; growing it past the cap does not (the room left is under a
    // whole note, as the refusal above says).
    let (status, tiny) = req(
        addr,
        "POST",
        "/api/sessions/s/notes",
        &json!({"from": 2, "text": "tiny"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{tiny}");
    let grow = format!("/api/sessions/s/notes/{}", tiny["id"]);
    let (status, v) = req(addr, "PATCH", &grow, &json!({"text": "x".repeat(65_536)})).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    // Shrinking one makes room.
    let path = format!("/api/sessions/s/notes/{}", ids[0]);
    let (status, _) = req(addr, "PATCH", &path, &json!({"text": "short"})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, v) = req(addr, "PATCH", &grow, &json!({"text": "x".repeat(65_536)})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
}
