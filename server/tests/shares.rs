//! Share links (issue 11): tokens, storage, expiry, revocation, snapshots and live shares,
//! redaction, headers, and a share token tried everywhere it must not open. Runs on SQLite,
//! and on PostgreSQL with `HIVETERM_TEST_DB=postgres`.

mod common;
mod seen;

use std::net::SocketAddr;

use axum::http::StatusCode;
use common::{DbSpec, SseClient, TestDb, call_json, send, spawn_server};
use hiveterm::share::{self, ShareOptions, TOKEN_CHARS};
use hiveterm::{AppState, Config};
use http_body_util::BodyExt;
use seen::{block, exported_envelopes, fake_page};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// Fake secrets from the redactor's corpus (`classifier/tests/redact.rs`).
const ANTHROPIC: &str = "sk-ant-api03-Zx9fK2mQ7vLp4RtY8wNc3HbJ6dGs1aUe5oIk0lPq-7TyVbNm2XcRf_AA";
const AWS_ID: &str = "AKIAIOSFODNN7EXAMPLE";
const GITHUB: &str = "ghp_R4nd0mL00k1ngT0k3nV4lu3Xy2Zq8Wm5Np7K";
const SECRETS: [&str; 3] = [ANTHROPIC, AWS_ID, GITHUB];

/// An assistant text line (one row).
fn text_line(text: &str) -> Vec<u8> {
    let mut line = json!({"type": "assistant", "message": {"role": "assistant",
        "content": [{"type": "text", "text": text}]}})
    .to_string()
    .into_bytes();
    line.push(b'\n');
    line
}

/// Events `from..=to`: each a tool call (one row, counted by the summary).
fn lines(from: usize, to: usize) -> Vec<u8> {
    common::tool_calls(from, to)
}

async fn post_events(addr: SocketAddr, id: &str, body: Vec<u8>) {
    let (status, v) = call_json(addr, "POST", &format!("/api/sessions/{id}/events"), body).await;
    assert_eq!(status, StatusCode::OK, "{v}");
}

/// `POST /api/sessions/{id}/shares` with a JSON body: status and answer.
async fn make_share(addr: SocketAddr, id: &str, body: Value) -> (StatusCode, Value) {
    let (status, _, body) = send(
        addr,
        "POST",
        &format!("/api/sessions/{id}/shares"),
        &[("content-type", "application/json")],
        body.to_string().into_bytes(),
    )
    .await;
    let bytes = body.collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// A share's URL path, checked to be `/p/<43 URL-safe characters>`.
fn url_of(v: &Value) -> String {
    let url = v["url"].as_str().unwrap_or_else(|| panic!("no url: {v}"));
    let token = url.strip_prefix("/p/").expect("/p/<token>");
    assert!(share::is_token_shaped(token), "{url}");
    url.to_owned()
}

/// A GET: status, headers, body text.
async fn get(addr: SocketAddr, path: &str) -> (StatusCode, axum::http::HeaderMap, String) {
    let (status, headers, body) = send(addr, "GET", path, &[], Vec::new()).await;
    let bytes = body.collect().await.unwrap().to_bytes();
    (
        status,
        headers,
        String::from_utf8_lossy(&bytes).into_owned(),
    )
}

async fn get_json(addr: SocketAddr, path: &str) -> (StatusCode, Value) {
    let (status, _, text) = get(addr, path).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// The seqs of a history page's envelopes.
fn seqs(page: &Value) -> Vec<u64> {
    page["envelopes"]
        .as_array()
        .unwrap_or_else(|| panic!("no envelopes: {page}"))
        .iter()
        .map(|e| e["seq"].as_u64().unwrap())
        .collect()
}

async fn server() -> (TestDb, SocketAddr) {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    (db, addr)
}

#[tokio::test]
async fn a_token_is_256_random_bits_stored_only_as_its_hash() {
    let (db, addr) = server().await;
    post_events(addr, "s1", lines(1, 3)).await;
    let mut tokens = Vec::new();
    for _ in 0..4 {
        let (status, v) = make_share(addr, "s1", json!({})).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        tokens.push(url_of(&v)["/p/".len()..].to_owned());
    }
    let distinct: std::collections::HashSet<_> = tokens.iter().collect();
    assert_eq!(distinct.len(), 4, "{tokens:?}");
    for t in &tokens {
        assert_eq!(t.len(), TOKEN_CHARS);
    }
    db.state.store().close().await;
    // The database holds the SHA-256 of each token, never the token.
    let hashes = if db.db.is_postgres() {
        db.db
            .query_one("SELECT string_agg(encode(token_hash, 'hex'), ',' ORDER BY id) FROM shares")
    } else {
        db.db.query_one(
            "SELECT group_concat(lower(hex(token_hash)), ',') FROM (SELECT token_hash FROM shares ORDER BY id)",
        )
    };
    let want: Vec<String> = tokens
        .iter()
        .map(|t| format!("{:x}", Sha256::digest(t.as_bytes())))
        .collect();
    assert_eq!(hashes, want.join(","));
    if !db.db.is_postgres() {
        // Nor does any file of it (the WAL was checkpointed on close).
        let path = db.db_path();
        for file in [path.clone(), path.with_extension("db-wal")] {
            let Ok(bytes) = std::fs::read(&file) else {
                continue;
            };
            for t in &tokens {
                assert!(
                    !bytes.windows(t.len()).any(|w| w == t.as_bytes()),
                    "token in {}",
                    file.display()
                );
            }
        }
    }
}

#[tokio::test]
async fn unknown_expired_and_revoked_links_say_so_without_the_session() {
    let (db, addr) = server().await;
    post_events(addr, "secret-session-name", lines(1, 2)).await;
    let store = db.state.store();
    // Made eight days ago with the default seven: expired.
    let old = share::create(
        store,
        "secret-session-name",
        &ShareOptions::default(),
        hiveterm::now() - 8.0 * 86400.0,
    )
    .await
    .unwrap();
    let (status, v) = make_share(addr, "secret-session-name", json!({"expires": "2s"})).await;
    assert_eq!(status, StatusCode::CREATED);
    let short = url_of(&v);
    let (_, v) = make_share(addr, "secret-session-name", json!({"expires": "never"})).await;
    let revoked = url_of(&v);
    assert_eq!(v["expires_at"], Value::Null);
    let (status, r) = call_json(
        addr,
        "DELETE",
        &format!("/api/shares/{}", v["id"]),
        Vec::new(),
    )
    .await;
    assert_eq!((status, &r["status"]), (StatusCode::OK, &json!("revoked")));
    let (status, _) = call_json(addr, "DELETE", "/api/shares/999999", Vec::new()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let (status, _) = get_json(addr, &format!("{short}/api/state")).await;
    assert_eq!(status, StatusCode::OK, "fresh");
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    let unknown = format!("/p/{}", share::new_token().unwrap());
    let check = async |base: &str, expect: StatusCode| {
        for path in [
            base.to_owned(),
            format!("{base}/api/state"),
            format!("{base}/api/summary"),
            format!("{base}/api/share"),
            format!("{base}/api/events/history"),
        ] {
            let (status, _, body) = get(addr, &path).await;
            assert_eq!(status, expect, "{path}: {body}");
            assert!(!body.contains("secret-session-name"), "{path}: {body}");
        }
    };
    check(&old.url(), StatusCode::GONE).await;
    check(&short, StatusCode::GONE).await;
    check(&revoked, StatusCode::GONE).await;
    check(&unknown, StatusCode::NOT_FOUND).await;
    check("/p/not-a-token", StatusCode::NOT_FOUND).await;
    // The list says which is which.
    let (_, list) = get_json(addr, "/api/shares").await;
    let status: Vec<&str> = list["shares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["status"].as_str().unwrap())
        .collect();
    assert_eq!(status, ["revoked", "expired", "expired"], "{list}");
}

#[tokio::test]
async fn a_snapshot_does_not_grow_and_a_live_share_does() {
    let (_db, addr) = server().await;
    post_events(addr, "s", lines(1, 5)).await;
    let (_, v) = make_share(addr, "s", json!({"title": "The incident"})).await;
    assert_eq!(
        (&v["snapshot_seq"], &v["live"]),
        (&json!(5), &json!(false)),
        "{v}"
    );
    let snap = url_of(&v);
    let (_, v) = make_share(addr, "s", json!({"live": true})).await;
    assert_eq!(
        (&v["snapshot_seq"], &v["live"]),
        (&Value::Null, &json!(true)),
        "{v}"
    );
    let live = url_of(&v);
    let mut tail = SseClient::connect(addr, &format!("{live}/api/events/stream"), Some(5)).await;
    post_events(addr, "s", lines(6, 9)).await;

    let (_, page) = get_json(addr, &format!("{snap}/api/events/history")).await;
    assert_eq!(
        (seqs(&page), &page["head"]),
        (vec![5, 4, 3, 2, 1], &json!(5))
    );
    let (_, page) = get_json(addr, &format!("{snap}/api/events/history?before=3&limit=1")).await;
    assert_eq!((seqs(&page), &page["next_before"]), (vec![2], &json!(2)));
    let (_, state) = get_json(addr, &format!("{snap}/api/state")).await;
    assert_eq!(
        (&state["last_seq"], &state["live"], &state["title"]),
        (&json!(5), &json!(false), &json!("The incident"))
    );
    let (_, about) = get_json(addr, &format!("{snap}/api/share")).await;
    assert_eq!(
        (&about["snapshot_seq"], &about["title"]),
        (&json!(5), &json!("The incident"))
    );
    let (status, _) = get_json(addr, &format!("{snap}/api/events/stream")).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "a snapshot has no stream");
    // Its summary is the session's as of event 5: equal to a fresh session of those 5.
    post_events(addr, "first-five", lines(1, 5)).await;
    let (_, snap_summary) = get_json(addr, &format!("{snap}/api/summary")).await;
    let (_, five) = get_json(addr, "/api/sessions/first-five/summary").await;
    let (_, nine) = get_json(addr, "/api/sessions/s/summary").await;
    assert_eq!(snap_summary, five);
    assert_ne!(snap_summary, nine);

    let (_, page) = get_json(addr, &format!("{live}/api/events/history")).await;
    assert_eq!(seqs(&page), [9, 8, 7, 6, 5, 4, 3, 2, 1]);
    let (_, state) = get_json(addr, &format!("{live}/api/state")).await;
    assert_eq!(
        (&state["last_seq"], &state["live"]),
        (&json!(9), &json!(true))
    );
    let (_, live_summary) = get_json(addr, &format!("{live}/api/summary")).await;
    assert_eq!(live_summary, nine);
    let mut ids = Vec::new();
    while ids.len() < 4 {
        let ev = tail.next().await.expect("stream");
        if let Some(id) = ev.id {
            ids.push(id);
        }
    }
    assert_eq!(ids, ["6", "7", "8", "9"]);
}

#[tokio::test]
async fn a_share_token_opens_nothing_else() {
    let config = Config {
        token: Some("server-token".into()),
        ..Config::default()
    };
    let db = TestDb::with(config, 4);
    let addr = spawn_server(db.state.clone()).await;
    let auth = [("authorization", "Bearer server-token")];
    for id in ["mine", "other"] {
        let (status, _, _) = send(
            addr,
            "POST",
            &format!("/api/sessions/{id}/events"),
            &auth,
            lines(1, 2),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
    // Making a share needs the server's token.
    let (status, _) = make_share(addr, "mine", json!({})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _, body) = send(
        addr,
        "POST",
        "/api/sessions/mine/shares",
        &[auth[0], ("content-type", "application/json")],
        b"{}".to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let v: Value = serde_json::from_slice(&body.collect().await.unwrap().to_bytes()).unwrap();
    let url = url_of(&v);
    let token = url["/p/".len()..].to_owned();
    let (status, _, _) = get(addr, &format!("{url}/api/state")).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "it opens its own reads without the server token"
    );

    let bearer = format!("Bearer {token}");
    let cookie = format!("token={token}");
    let paths = [
        ("GET", "/api/sessions".to_owned()),
        ("GET", "/api/index/stream".to_owned()),
        ("GET", "/api/sessions/mine".to_owned()),
        ("GET", "/api/sessions/mine/state".to_owned()),
        ("GET", "/api/sessions/mine/summary".to_owned()),
        ("GET", "/api/sessions/mine/events/history".to_owned()),
        ("GET", "/api/sessions/mine/events/stream".to_owned()),
        ("GET", "/api/sessions/mine/events/raw".to_owned()),
        ("GET", "/api/sessions/other/events/history".to_owned()),
        ("GET", "/api/shares".to_owned()),
        ("POST", "/api/sessions/mine/events".to_owned()),
        ("POST", "/api/sessions/mine/end".to_owned()),
        ("POST", "/api/sessions/mine/shares".to_owned()),
        ("DELETE", format!("/api/shares/{}", v["id"])),
    ];
    for (method, path) in &paths {
        let query = format!("{path}?token={token}");
        for (p, headers) in [
            (path.as_str(), vec![("authorization", bearer.as_str())]),
            (path.as_str(), vec![("cookie", cookie.as_str())]),
            (query.as_str(), vec![]),
        ] {
            let (status, _, _) = send(addr, method, p, &headers, lines(3, 3)).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{method} {p} {headers:?}");
        }
    }
    // Under /p/<token> only the share's own reads exist: no other session, no write.
    for (method, path) in [
        ("GET", "/api/sessions"),
        ("GET", "/api/sessions/other/state"),
        ("GET", "/api/sessions/other/events/history"),
        ("GET", "/api/sessions/mine/events/raw"),
        ("GET", "/api/events/raw"),
        ("GET", "/api/shares"),
        ("POST", "/api/events"),
        ("POST", "/api/sessions/mine/events"),
        ("POST", "/api/state"),
        ("DELETE", "/api/share"),
    ] {
        let p = format!("{url}{path}");
        let (status, _, _) = send(addr, method, &p, &[], lines(3, 3)).await;
        assert!(
            status == StatusCode::NOT_FOUND || status == StatusCode::METHOD_NOT_ALLOWED,
            "{method} {p}: {status}"
        );
    }
    // Nothing was written: each session still has its two events.
    for id in ["mine", "other"] {
        assert_eq!(db.raw_events(id).len(), 2);
    }
    // A share of one session shows only that one.
    let (_, page) = get_json(addr, &format!("{url}/api/events/history")).await;
    assert_eq!(seqs(&page), [2, 1]);
    let (_, state) = get_json(addr, &format!("{url}/api/state")).await;
    assert_eq!(state["id"], "mine");
}

#[tokio::test]
async fn shares_obey_the_write_guard() {
    let (_db, addr) = server().await;
    post_events(addr, "s", lines(1, 1)).await;
    // No JSON type nor X-Hiveterm: a form could send it.
    let (status, _, _) = send(
        addr,
        "POST",
        "/api/sessions/s/shares",
        &[("content-type", "text/plain")],
        b"{}".to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    for (header, value) in [
        ("origin", "http://evil.example"),
        ("sec-fetch-site", "cross-site"),
    ] {
        let (status, _, _) = send(
            addr,
            "POST",
            "/api/sessions/s/shares",
            &[("content-type", "application/json"), (header, value)],
            b"{}".to_vec(),
        )
        .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{header}");
    }
    let (status, _, _) = send(
        addr,
        "DELETE",
        "/api/shares/1",
        &[("content-type", "text/plain")],
        Vec::new(),
    )
    .await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // A cross-site page cannot read under a share either.
    let (_, v) = make_share(addr, "s", json!({})).await;
    let url = url_of(&v);
    let (status, _, _) = send(
        addr,
        "GET",
        &format!("{url}/api/events/history"),
        &[("sec-fetch-site", "cross-site"), ("sec-fetch-mode", "cors")],
        Vec::new(),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Bad options.
    for body in [
        json!({"expires": "soon"}),
        json!({"colour": "red"}),
        json!({"live": "yes"}),
    ] {
        let (status, v) = make_share(addr, "s", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
    }
    let (status, _) = make_share(addr, "no-such-session", json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn every_answer_under_a_share_carries_its_headers() {
    let db = TestDb::new();
    let dist = db.dir.path().join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(
        dist.join("index.html"),
        "<!doctype html><title>page</title><script>boot()</script>",
    )
    .unwrap();
    std::fs::write(dist.join("app-0123456789abcdef.js"), "app()").unwrap();
    let addr = spawn_server(db.state.clone()).await;
    post_events(addr, "s", lines(1, 2)).await;
    let (_, v) = make_share(addr, "s", json!({"live": true})).await;
    let url = url_of(&v);
    let dead = format!("/p/{}", share::new_token().unwrap());
    for (path, status) in [
        (url.clone(), StatusCode::OK),
        (format!("{url}/"), StatusCode::OK),
        ("/p/app-0123456789abcdef.js".to_owned(), StatusCode::OK),
        (format!("{url}/api/state"), StatusCode::OK),
        (format!("{url}/api/summary"), StatusCode::OK),
        (format!("{url}/api/share"), StatusCode::OK),
        (format!("{url}/api/events/history"), StatusCode::OK),
        (dead.clone(), StatusCode::NOT_FOUND),
        (format!("{dead}/api/state"), StatusCode::NOT_FOUND),
    ] {
        let (got, h, body) = get(addr, &path).await;
        assert_eq!(got, status, "{path}: {body}");
        assert_eq!(h["referrer-policy"], "no-referrer", "{path}");
        assert_eq!(h["x-robots-tag"], "noindex", "{path}");
        assert_eq!(h["cache-control"], "no-store", "{path}");
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(csp.starts_with(hiveterm::CSP), "{path}: {csp}");
        let img = csp
            .split(';')
            .find(|d| d.trim().starts_with("img-src"))
            .unwrap();
        assert_eq!(img.trim(), "img-src 'self' data:", "no remote images");
    }
    let (_, _, page) = get(addr, &url).await;
    assert!(page.contains("boot()"), "the page: {page}");
    let (_, h, _) = send(
        addr,
        "GET",
        &format!("{url}/api/events/stream"),
        &[],
        Vec::new(),
    )
    .await;
    assert_eq!(h["x-robots-tag"], "noindex");
    assert_eq!(h["content-type"], "text/event-stream");
}

#[tokio::test]
async fn a_redacted_share_serves_no_secret() {
    let (_db, addr) = server().await;
    let mut body = text_line(&format!("export ANTHROPIC_API_KEY={ANTHROPIC} then go"));
    body.extend(text_line(&format!(
        "aws id {AWS_ID}, and a GitHub token {GITHUB}"
    )));
    body.extend(text_line("nothing secret here"));
    let (status, _) = call_json(
        addr,
        "POST",
        &format!("/api/sessions/leaky/events?title=deploy%20with%20{GITHUB}"),
        body,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, v) = make_share(addr, "leaky", json!({"redact": true})).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["redactions"]["count"], 3, "{v}");
    assert_eq!(v["redactions"]["events"], 2, "{v}");
    let report = v["redactions"].to_string();
    for secret in SECRETS {
        assert!(!report.contains(secret), "{report}");
    }
    let snap = url_of(&v);
    let (_, v) = make_share(addr, "leaky", json!({"redact": true, "live": true})).await;
    let live = url_of(&v);
    let mut tail = SseClient::connect(addr, &format!("{live}/api/events/stream"), None).await;
    post_events(addr, "leaky", text_line(&format!("late: {GITHUB}"))).await;

    // The plain session does show them (the test's secrets are really there).
    let (_, _, plain) = get(addr, "/api/sessions/leaky/events/history").await;
    assert!(SECRETS.iter().all(|s| plain.contains(s)), "{plain}");
    let (_, _, plain) = get(addr, "/api/sessions/leaky/state").await;
    assert!(
        plain.contains(GITHUB),
        "the session's title holds one too: {plain}"
    );
    for base in [&snap, &live] {
        let mut all = String::new();
        for path in [
            "/api/events/history",
            "/api/state",
            "/api/summary",
            "/api/share",
        ] {
            let (status, _, body) = get(addr, &format!("{base}{path}")).await;
            assert_eq!(status, StatusCode::OK, "{base}{path}");
            all.push_str(&body);
        }
        for secret in SECRETS {
            assert!(!all.contains(secret), "{base}: {all}");
        }
        assert!(all.contains("[REDACTED:"), "{all}");
        assert!(all.contains("nothing secret here"), "{all}");
    }
    let (_, page) = get_json(addr, &format!("{snap}/api/events/history")).await;
    assert_eq!(seqs(&page), [3, 2, 1]);
    let (_, page) = get_json(addr, &format!("{live}/api/events/history")).await;
    assert_eq!(seqs(&page), [4, 3, 2, 1]);
    // The live stream: the backlog and the late event, redacted.
    let mut seen = String::new();
    let mut ids = Vec::new();
    while ids.len() < 4 {
        let ev = tail.next().await.expect("stream");
        seen.push_str(&ev.data);
        if let Some(id) = ev.id {
            ids.push(id);
        }
    }
    assert_eq!(ids, ["1", "2", "3", "4"]);
    for secret in SECRETS {
        assert!(!seen.contains(secret), "{seen}");
    }
}

#[tokio::test]
async fn a_live_stream_ends_when_its_share_is_revoked() {
    let (_db, addr) = server().await;
    post_events(addr, "s", lines(1, 1)).await;
    let (_, v) = make_share(addr, "s", json!({"live": true})).await;
    let url = url_of(&v);
    let mut tail = SseClient::connect(addr, &format!("{url}/api/events/stream"), Some(1)).await;
    let (status, _) = call_json(
        addr,
        "DELETE",
        &format!("/api/shares/{}", v["id"]),
        Vec::new(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // The stream ends (within the recheck interval), rather than running on.
    let ended = tokio::time::timeout(std::time::Duration::from_secs(20), async {
        while tail.next().await.is_some() {}
    })
    .await;
    assert!(ended.is_ok(), "the stream of a revoked share still runs");
}

/// `hiveterm share`: make, list, revoke, against the database of a running server (which
/// opens the links the command made, and refuses them once revoked).
#[test]
fn the_share_command_makes_lists_and_revokes_beside_a_server() {
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh(dir.path());
    let rt = tokio::runtime::Runtime::new().unwrap();
    let store = rt.block_on(async { hiveterm::Store::open_db(&db.spec, 4).unwrap() });
    let addr = rt.block_on(async {
        let addr = spawn_server(AppState::new(store.clone(), Config::default())).await;
        post_events(addr, "cli-session", lines(1, 3)).await;
        post_events(
            addr,
            "cli-session",
            text_line(&format!("key {ANTHROPIC} here")),
        )
        .await;
        addr
    });
    let run = |args: &[&str]| common::cli("share", &db.spec, args);
    let status_of = |path: String| rt.block_on(async { get(addr, &path).await.0 });
    let (ok, out, err) = run(&["cli-session", "--expires", "24h", "--title", "Postmortem"]);
    assert!(ok, "{err}");
    let url = out.lines().last().unwrap().to_owned();
    assert!(
        share::is_token_shaped(url.strip_prefix("/p/").unwrap()),
        "{out}"
    );
    assert!(err.contains("a snapshot up to event 4"), "{err}");
    assert_eq!(status_of(format!("{url}/api/state")), StatusCode::OK);
    let (ok, out, err) = run(&["cli-session", "--live", "--redact", "--expires", "never"]);
    assert!(ok, "{err}");
    assert!(out.trim_end().starts_with("/p/"), "{out}");
    assert!(err.contains("live, redacted, never expires"), "{err}");
    assert!(
        err.contains("event 4: anthropic_key sk-a"),
        "the review: {err}"
    );
    assert!(err.contains("1 redaction on 1 events"), "{err}");
    assert!(
        !err.contains(ANTHROPIC) && !out.contains(ANTHROPIC),
        "{err}"
    );
    let redacted_url = out.trim_end().to_owned();
    let (_, _, page) = rt.block_on(get(addr, &format!("{redacted_url}/api/events/history")));
    assert!(
        page.contains("[REDACTED:anthropic_key]") && !page.contains(ANTHROPIC),
        "{page}"
    );
    let (ok, out, err) = run(&["no-such", "--expires", "7d"]);
    assert!(!ok && out.is_empty(), "{out}");
    assert!(err.contains("no session no-such"), "{err}");
    let (ok, _, err) = run(&["cli-session", "--expires", "soon"]);
    assert!(!ok && err.contains("expiry"), "{err}");

    let (ok, out, _) = run(&["--list"]);
    assert!(ok);
    let listed: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(listed.len(), 2, "{out}");
    assert_eq!(
        (
            &listed[1]["title"],
            &listed[1]["snapshot_seq"],
            &listed[1]["status"]
        ),
        (&json!("Postmortem"), &json!(4), &json!("active"))
    );
    assert_eq!(
        (&listed[0]["live"], &listed[0]["redact"]),
        (&json!(true), &json!(true))
    );
    assert!(
        !out.contains(&url["/p/".len()..]),
        "a token is never listed"
    );
    let id = listed[1]["id"].to_string();
    let (ok, _, err) = run(&["--revoke", &id]);
    assert!(ok, "{err}");
    assert_eq!(
        status_of(format!("{url}/api/state")),
        StatusCode::GONE,
        "the server sees it"
    );
    assert_eq!(status_of(url.clone()), StatusCode::GONE);
    let (ok, _, err) = run(&["--revoke", "424242"]);
    assert!(!ok && err.contains("no share 424242"), "{err}");
    let (_, out, _) = run(&["--list"]);
    let listed: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(listed[1]["status"], "revoked");
    rt.block_on(store.close());
}

/// Issue 45.9: `hiveterm share` printed `/p/<token>` without a host; with the server's
/// address known (`--base-url`, `HIVETERM_BASE_URL`) it prints the whole link a reader opens,
/// and a bad address is refused before any link is made.
#[test]
fn issue_45_9_share_prints_the_whole_link_with_base_url() {
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh(dir.path());
    let rt = tokio::runtime::Runtime::new().unwrap();
    let store = rt.block_on(async { hiveterm::Store::open_db(&db.spec, 4).unwrap() });
    let addr = rt.block_on(async {
        let addr = spawn_server(AppState::new(store.clone(), Config::default())).await;
        post_events(addr, "cli-session", lines(1, 3)).await;
        addr
    });
    let run = |args: &[&str]| common::cli("share", &db.spec, args);
    let base = format!("http://{addr}/");
    let (ok, out, err) = run(&["cli-session", "--base-url", &base]);
    assert!(ok, "{err}");
    let whole = out.trim_end();
    let path = whole.strip_prefix(&format!("http://{addr}")).unwrap();
    assert!(
        share::is_token_shaped(path.strip_prefix("/p/").unwrap()),
        "{out}"
    );
    let (status, _, _) = rt.block_on(get(addr, &format!("{path}/api/state")));
    assert_eq!(status, StatusCode::OK);
    for bad in ["127.0.0.1:7171", "ftp://h", "http://", "http://h/?x"] {
        let (ok, out, err) = run(&["cli-session", "--base-url", bad]);
        assert!(
            !ok && out.is_empty() && err.contains("base URL"),
            "{bad}: {err}"
        );
    }
    rt.block_on(store.close());
}

/// The log a share shows, for its one-file export: the session's raw lines up to the
/// snapshot, redacted when asked.
#[tokio::test]
async fn a_shares_log_is_its_raw_lines_up_to_the_snapshot() {
    let (db, addr) = server().await;
    let mut body = lines(1, 2);
    body.extend(text_line(&format!("token {GITHUB}")));
    post_events(addr, "s", body.clone()).await;
    let store = db.state.store();
    let mut plain = Vec::new();
    hiveterm::redacted::write_log(store, "s", None, false, &mut plain)
        .await
        .unwrap();
    assert_eq!(plain, body);
    let mut two = Vec::new();
    hiveterm::redacted::write_log(store, "s", Some(2), false, &mut two)
        .await
        .unwrap();
    assert_eq!(two, lines(1, 2));
    let mut redacted = Vec::new();
    hiveterm::redacted::write_log(store, "s", None, true, &mut redacted)
        .await
        .unwrap();
    let text = String::from_utf8(redacted).unwrap();
    assert!(
        !text.contains(GITHUB) && text.contains("[REDACTED:"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 3);
    assert!(
        hiveterm::redacted::write_log(store, "nope", None, false, &mut Vec::new())
            .await
            .is_err()
    );
}

/// `hiveterm share SESSION --export FILE.html`: no link, but the one-file export of what a
/// snapshot share shows — the same file `hiveterm export` makes of the session's log, the
/// session's title, redacted with `--redact`.
#[test]
fn the_share_command_exports_a_session_as_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh(dir.path());
    let dist = fake_page(dir.path());
    let rt = tokio::runtime::Runtime::new().unwrap();
    let store = rt.block_on(async { hiveterm::Store::open_db(&db.spec, 4).unwrap() });
    let mut body = lines(1, 3);
    body.extend(text_line(&format!("key {ANTHROPIC} here")));
    rt.block_on(async {
        let addr = spawn_server(AppState::new(store.clone(), Config::default())).await;
        let (status, v) = call_json(
            addr,
            "POST",
            "/api/sessions/exp/events?title=deploy%20%3Cincident%3E",
            body.clone(),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
    });
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_hiveterm"))
            .args(args)
            .output()
            .unwrap();
        (out.status.success(), String::from_utf8(out.stderr).unwrap())
    };
    let dist = dist.to_str().unwrap();
    let shared = dir.path().join("shared.html");
    let (ok, err) = run(&[
        "share",
        "exp",
        "--export",
        shared.to_str().unwrap(),
        "--redact",
        "--static",
        dist,
        "--db",
        &db.spec,
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("4 rows of 4 lines, 1 redaction;"), "{err}");
    let html = std::fs::read_to_string(&shared).unwrap();
    assert!(!html.contains(ANTHROPIC), "the secret is not in the file");
    assert!(
        html.contains("<title>deploy &lt;incident&gt;</title>"),
        "the session's title"
    );
    // The same file `hiveterm export --redact` makes of the session's log.
    let log = dir.path().join("exp.jsonl");
    std::fs::write(&log, &body).unwrap();
    let exported = dir.path().join("exported.html");
    let (ok, err) = run(&[
        "export",
        log.to_str().unwrap(),
        "-o",
        exported.to_str().unwrap(),
        "--redact",
        "--static",
        dist,
    ]);
    assert!(ok, "{err}");
    let other = std::fs::read_to_string(&exported).unwrap();
    assert_eq!(onefile::html::data(&html), onefile::html::data(&other));
    let meta = |h: &str| serde_json::from_str::<Value>(block(h, "hiveterm-export")).unwrap();
    let (a, b) = (meta(&html), meta(&other));
    assert_eq!(
        (&a["summary"], &a["redactions"]),
        (&b["summary"], &json!(1))
    );
    assert_eq!(a["lines"], 4);
    let envs = exported_envelopes(&html);
    let seqs: Vec<u64> = envs.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
    assert_eq!(seqs, [1, 2, 3, 4], "rows keep the session's seqs");
    assert!(envs[3].to_string().contains("[REDACTED:anthropic_key]"));

    // Without --redact the secret stays; a missing session, or --live, is refused.
    let plain = dir.path().join("plain.html");
    let (ok, err) = run(&[
        "share",
        "exp",
        "--export",
        plain.to_str().unwrap(),
        "--title",
        "Postmortem",
        "--static",
        dist,
        "--db",
        &db.spec,
    ]);
    assert!(ok, "{err}");
    let html = std::fs::read_to_string(&plain).unwrap();
    assert!(html.contains("<title>Postmortem</title>"));
    assert!(exported_envelopes(&html)[3].to_string().contains(ANTHROPIC));
    let (ok, err) = run(&[
        "share",
        "nope",
        "--export",
        plain.to_str().unwrap(),
        "--static",
        dist,
        "--db",
        &db.spec,
    ]);
    assert!(!ok && err.contains("no session nope"), "{err}");
    let (ok, _) = run(&[
        "share",
        "exp",
        "--export",
        plain.to_str().unwrap(),
        "--live",
        "--db",
        &db.spec,
    ]);
    assert!(!ok, "--live has no meaning for a file");
    let (ok, _) = run(&["share", "--list", "--db", &db.spec]);
    assert!(ok);
    assert!(
        rt.block_on(store.shares()).unwrap().is_empty(),
        "--export makes no link"
    );
    rt.block_on(store.close());
}

/// Issue 25: every log of the redaction corpus (`classifier/tests/redact-seen.json`) posted to
/// a session one event a POST (as `hiveterm run` sends each line), read through a redacted
/// live share's stream (opened before the log came) and history, and a redacted snapshot's
/// history, state and summary: no piece of a secret shows in any of them.
#[tokio::test]
async fn a_redacted_share_hides_every_shape_of_the_corpus() {
    let (_db, addr) = server().await;
    let mut failures = Vec::new();
    for (i, case) in seen::corpus().iter().enumerate() {
        let id = format!("seen-{i}");
        let lines: Vec<&str> = case.log.lines().collect();
        post_events(addr, &id, format!("{}\n", lines[0]).into_bytes()).await;
        let (status, v) = make_share(addr, &id, json!({"redact": true, "live": true})).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        let live = url_of(&v);
        let mut tail = SseClient::connect(addr, &format!("{live}/api/events/stream"), None).await;
        for line in &lines[1..] {
            post_events(addr, &id, format!("{line}\n").into_bytes()).await;
        }
        // The stream, up to the session's newest envelope with rows.
        let (_, plain) = get_json(addr, &format!("/api/sessions/{id}/events/history")).await;
        let last = seqs(&plain)[0].to_string();
        let mut frames = Vec::new();
        loop {
            let ev = tokio::time::timeout(std::time::Duration::from_secs(10), tail.next())
                .await
                .unwrap_or_else(|_| panic!("{}: the stream stalled", case.name))
                .expect("stream");
            frames.push(serde_json::from_str(&ev.data).unwrap_or(Value::String(ev.data)));
            if ev.id.as_deref() == Some(last.as_str()) {
                break;
            }
        }
        failures.extend(seen::judge(case, "stream", &frames, None));
        let (_, v) = make_share(addr, &id, json!({"redact": true})).await;
        let snap = url_of(&v);
        for base in [&live, &snap] {
            let path = "/api/events/history?limit=1000";
            let (status, v) = get_json(addr, &format!("{base}{path}")).await;
            assert_eq!(status, StatusCode::OK, "{base}{path}");
            failures.extend(seen::judge(case, path, &[v], None));
        }
        for path in ["/api/state", "/api/summary"] {
            let (status, v) = get_json(addr, &format!("{snap}{path}")).await;
            assert_eq!(status, StatusCode::OK, "{snap}{path}");
            failures.extend(seen::leaks(case, path, &seen::seen(&[v], None)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Issue 25: a session id can be a token (`ghp_…` is a valid one); a redacted share never
/// answers it — not in its state, summary, history, description or stream — and
/// `hiveterm share ID --export --redact` does not name the file after it.
#[tokio::test]
async fn a_redacted_share_hides_the_session_id() {
    const ID: &str = "ghp_4Xq9LmZt2Rk8VbN3wYc7Hd1Fs6Jp0Ta5Ue2G";
    let (_db, addr) = server().await;
    post_events(addr, ID, lines(1, 2)).await;
    let (_, _, plain) = get(addr, &format!("/api/sessions/{ID}/state")).await;
    assert!(plain.contains(ID), "the session answers its id: {plain}");
    let (_, v) = make_share(addr, ID, json!({"redact": true, "live": true})).await;
    let live = url_of(&v);
    let (_, v) = make_share(addr, ID, json!({"redact": true})).await;
    let snap = url_of(&v);
    let mut tail = SseClient::connect(addr, &format!("{live}/api/events/stream"), None).await;
    post_events(addr, ID, lines(3, 3)).await;
    // Until the event posted after connecting and a state frame (the stream sends its backlog,
    // then the state: before or after "echo 3", as the post and the connection race).
    let (mut seen, mut state) = (String::new(), false);
    while !(seen.contains("echo 3") && state) {
        let ev = tokio::time::timeout(std::time::Duration::from_secs(10), tail.next())
            .await
            .expect("the stream answers")
            .expect("stream");
        state |= ev.event.as_deref() == Some("state");
        seen.push_str(&ev.data);
    }
    assert!(
        seen.contains("[REDACTED:github_token]"),
        "a state frame: {seen}"
    );
    for base in [&live, &snap] {
        for path in [
            "/api/state",
            "/api/summary",
            "/api/share",
            "/api/events/history",
        ] {
            let (status, _, body) = get(addr, &format!("{base}{path}")).await;
            assert_eq!(status, StatusCode::OK, "{base}{path}");
            seen.push_str(&body);
        }
    }
    assert!(!seen.contains(&ID[4..16]), "{seen}");
}

/// Issue 45 item 7 = issue 46 item 10: `(DB_PASSWORD=hunter2-…)` in prose, and its
/// neighbours, in a redacted share — snapshot and live: history, state, summary, the live
/// stream and the share's log for its one-file export show the brackets with
/// `[REDACTED:<kind>]` between them, never the value.
#[tokio::test]
async fn issue_45_7_a_redacted_share_hides_db_password_in_parentheses() {
    const VALUE: &str = "hunter2-9fQ2xLm7Rk4t";
    let (db, addr) = server().await;
    let mut body = text_line(&format!(
        "I put it in .env (DB_PASSWORD={VALUE}) and restarted"
    ));
    body.extend(text_line(&format!(
        "then [API_KEY={VALUE}], **TOKEN={VALUE}**"
    )));
    post_events(addr, "paren", body).await;
    let (status, v) = make_share(addr, "paren", json!({"redact": true})).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["redactions"]["count"], 3, "{v}");
    let snap = url_of(&v);
    let (_, v) = make_share(addr, "paren", json!({"redact": true, "live": true})).await;
    let live = url_of(&v);
    let mut tail = SseClient::connect(addr, &format!("{live}/api/events/stream"), None).await;
    post_events(
        addr,
        "paren",
        text_line(&format!("late (PASSWD='{VALUE}')")),
    )
    .await;

    let (_, _, plain) = get(addr, "/api/sessions/paren/events/history").await;
    assert!(plain.contains(VALUE), "the test's secret is really there");
    for base in [&snap, &live] {
        let mut all = String::new();
        for path in ["/api/events/history", "/api/state", "/api/summary"] {
            let (status, _, body) = get(addr, &format!("{base}{path}")).await;
            assert_eq!(status, StatusCode::OK, "{base}{path}");
            all.push_str(&body);
        }
        assert!(!all.contains(VALUE), "{base}: {all}");
        assert!(
            all.contains("(DB_PASSWORD=[REDACTED:password]) and restarted"),
            "{all}"
        );
        assert!(
            all.contains("[API_KEY=[REDACTED:secret]], **TOKEN=[REDACTED:secret]**"),
            "{all}"
        );
    }
    let mut seen = String::new();
    while !seen.contains("late (") {
        seen.push_str(&tail.next().await.expect("stream").data);
    }
    assert!(!seen.contains(VALUE), "{seen}");
    assert!(
        seen.contains("late (PASSWD='[REDACTED:password]')"),
        "{seen}"
    );
    let mut log = Vec::new();
    hiveterm::redacted::write_log(db.state.store(), "paren", None, true, &mut log)
        .await
        .unwrap();
    let log = String::from_utf8(log).unwrap();
    assert!(!log.contains(VALUE), "{log}");
    assert!(log.contains("(DB_PASSWORD=[REDACTED:password])"), "{log}");
}
