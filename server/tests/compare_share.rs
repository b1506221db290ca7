//! Comparison links (issue 48, `hiveterm share --compare A B`): the same capability rules,
//! expiry, revocation and redaction as a session's link; the link opens the two sessions'
//! comparison and nothing else. Through the real router and the real binary, on the backend
//! `HIVETERM_TEST_DB` picks; a database of the schema before comparison links migrated.

mod common;

use std::net::SocketAddr;

use axum::http::StatusCode;
use common::{TestDb, call, call_json, send, spawn_server};
use http_body_util::BodyExt;
use serde_json::{Value, json};

const FAILING: &str = "gemini-0.61.0/gemini.failing_command.stream.jsonl";
const PASSING: &str = "gemini-0.61.0/gemini.shell_command.stream.jsonl";
/// A fake GitHub token (the redactor's corpus), planted in a step's command.
const GITHUB: &str = "ghp_R4nd0mL00k1ngT0k3nV4lu3Xy2Zq8Wm5Np7K";

/// A Claude Code tool call whose command holds [`GITHUB`]: a step with it as its target.
fn secret_call() -> Vec<u8> {
    let mut line = json!({"type": "assistant", "message": {"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_secret", "name": "Bash",
         "input": {"command": format!("curl -H 'Authorization: token {GITHUB}' https://api.github.com")}}]}})
    .to_string()
    .into_bytes();
    line.push(b'\n');
    line
}

async fn post_events(addr: SocketAddr, id: &str, body: Vec<u8>) {
    let (status, v) = call_json(addr, "POST", &format!("/api/sessions/{id}/events"), body).await;
    assert!(status.is_success(), "{v}");
}

/// Two sessions, `failing` and `passing`; `passing` with the planted secret.
async fn stored(db: &TestDb) -> SocketAddr {
    let addr = spawn_server(db.state.clone()).await;
    post_events(addr, "failing", common::fixture(FAILING)).await;
    post_events(addr, "passing", common::fixture(PASSING)).await;
    post_events(addr, "passing", secret_call()).await;
    addr
}

async fn make(addr: SocketAddr, a: &str, b: &str, body: Value) -> (StatusCode, Value) {
    let (status, _, answer) = send(
        addr,
        "POST",
        &format!("/api/compare/{a}/{b}/shares"),
        &[("content-type", "application/json")],
        body.to_string().into_bytes(),
    )
    .await;
    let bytes = answer.collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// A session's link (`POST /api/sessions/{id}/shares`): its path.
async fn session_share(addr: SocketAddr, id: &str) -> String {
    let (status, _, body) = send(
        addr,
        "POST",
        &format!("/api/sessions/{id}/shares"),
        &[("content-type", "application/json")],
        b"{}".to_vec(),
    )
    .await;
    assert_eq!(status, 201);
    url_of(&serde_json::from_slice(&body.collect().await.unwrap().to_bytes()).unwrap())
}

fn url_of(v: &Value) -> String {
    let url = v["url"].as_str().unwrap_or_else(|| panic!("no url: {v}"));
    assert!(hiveterm::share::is_token_shaped(
        url.strip_prefix("/p/").unwrap()
    ));
    url.to_owned()
}

async fn get(addr: SocketAddr, path: &str) -> (StatusCode, Value) {
    call_json(addr, "GET", path, Vec::new()).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_48_a_comparison_link_opens_the_comparison_and_nothing_else() {
    let db = TestDb::new();
    let addr = stored(&db).await;
    let (status, made) = make(addr, "failing", "passing", json!({"title": "why it broke"})).await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["session"], "failing");
    assert_eq!(made["compare_with"], "passing");
    assert!(made["snapshot_seq"].as_u64().unwrap() > 0);
    assert!(made["compare_seq"].as_u64().unwrap() > 0);
    assert_eq!(made["status"], "active");
    let url = url_of(&made);
    let token = url.strip_prefix("/p/").unwrap();

    // The comparison: the server's own, as of the link's snapshots.
    let (status, shown) = get(addr, &format!("{url}/api/compare")).await;
    assert_eq!(status, 200, "{shown}");
    let (_, direct) = get(addr, "/api/compare/failing/passing").await;
    assert_eq!(shown, direct);
    assert!(
        shown.to_string().contains(GITHUB),
        "the plant is a step's target"
    );
    let (status, info) = get(addr, &format!("{url}/api/share")).await;
    assert_eq!(status, 200);
    assert_eq!(info["compare"], true);
    assert_eq!(info["title"], "why it broke");

    // Its page: `/p/<token>` sends the reader to `/p/<token>/compare`.
    let (status, headers, _) = send(addr, "GET", &url, &[], Vec::new()).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(headers["location"], format!("{token}/compare"));
    let (status, headers, _) = send(addr, "GET", &format!("{url}/"), &[], Vec::new()).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(headers["location"], "compare");
    let (status, _) = call(addr, "GET", &format!("{url}/compare"), Vec::new()).await;
    assert_eq!(status, 200);

    // Nothing else: no session's read, no note, no stream; the token opens no `/api` route.
    for read in [
        "api/state",
        "api/summary",
        "api/events/history",
        "api/events/stream",
        "api/notes",
        "api/events/raw",
    ] {
        let (status, v) = get(addr, &format!("{url}/{read}")).await;
        assert_eq!(status, 404, "{read}: {v}");
        assert!(!v.to_string().contains("failing"), "{read}: {v}");
    }
    let (status, _, _) = send(
        addr,
        "POST",
        &format!("{url}/api/notes"),
        &[("content-type", "application/json")],
        br#"{"from":1,"to":1,"text":"x","author":"r"}"#.to_vec(),
    )
    .await;
    assert_eq!(status, 404);

    // A snapshot: events after it are not in the link's comparison; the server's has them.
    post_events(addr, "failing", secret_call()).await;
    let (_, later) = get(addr, &format!("{url}/api/compare")).await;
    assert_eq!(later, shown);
    let (_, now) = get(addr, "/api/compare/failing/passing").await;
    assert_ne!(now, shown);
    // A live one compares the sessions as they are.
    let (_, live) = make(addr, "failing", "passing", json!({"live": true})).await;
    assert_eq!(live["snapshot_seq"], Value::Null);
    assert_eq!(live["live"], true);
    let (_, seen) = get(addr, &format!("{}/api/compare", url_of(&live))).await;
    assert_eq!(seen, now);

    // A session's link has no comparison, nor a comparison's page.
    let one_url = session_share(addr, "failing").await;
    let (status, _) = get(addr, &format!("{one_url}/api/compare")).await;
    assert_eq!(status, 404);
    let (status, _) = call(addr, "GET", &format!("{one_url}/compare"), Vec::new()).await;
    assert_eq!(status, 404);

    // Listed with the others, revoked as they are: `410` everywhere, naming nothing.
    let (_, list) = get(addr, "/api/shares").await;
    let listed = list["shares"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == made["id"])
        .unwrap()
        .clone();
    assert_eq!(listed["compare_with"], "passing");
    let (status, _) = call_json(
        addr,
        "DELETE",
        &format!("/api/shares/{}", made["id"]),
        Vec::new(),
    )
    .await;
    assert_eq!(status, 200);
    for path in [
        format!("{url}/api/compare"),
        format!("{url}/api/share"),
        format!("{url}/compare"),
        url.clone(),
    ] {
        let (status, body) = call(addr, "GET", &path, Vec::new()).await;
        assert_eq!(status, 410, "{path}");
        let body = String::from_utf8_lossy(&body);
        assert!(body.contains("revoked"), "{path}: {body}");
        assert!(
            !body.contains("failing") && !body.contains("passing"),
            "{body}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_48_a_comparison_link_expires_refuses_comments_and_unknown_sessions() {
    let db = TestDb::new();
    let addr = stored(&db).await;
    let (status, v) = make(addr, "failing", "passing", json!({"comments": true})).await;
    assert_eq!(status, 400, "{v}");
    let (status, v) = make(addr, "failing", "nobody", json!({})).await;
    assert_eq!(status, 404, "{v}");
    let (status, v) = make(addr, "failing", "passing", json!({"expires": "soon"})).await;
    assert_eq!(status, 400, "{v}");
    let (status, made) = make(addr, "failing", "passing", json!({"expires": "1s"})).await;
    assert_eq!(status, 201, "{made}");
    let url = url_of(&made);
    let (status, _) = get(addr, &format!("{url}/api/compare")).await;
    assert_eq!(status, 200);
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let (status, body) = call(addr, "GET", &format!("{url}/compare"), Vec::new()).await;
    assert_eq!(status, 410);
    assert!(String::from_utf8_lossy(&body).contains("expired"));
    let (status, _) = get(addr, &format!("{url}/api/compare")).await;
    assert_eq!(status, 410);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_48_a_redacted_comparison_link_shows_no_secret() {
    let db = TestDb::new();
    let addr = stored(&db).await;
    // A session whose very id is a token: the link names it redacted.
    post_events(addr, GITHUB, common::fixture(PASSING)).await;
    let (status, made) = make(addr, "failing", GITHUB, json!({"redact": true})).await;
    assert_eq!(status, 201, "{made}");
    let url = url_of(&made);
    let (status, info) = get(addr, &format!("{url}/api/share")).await;
    assert_eq!(status, 200);
    assert!(!info.to_string().contains(GITHUB), "{info}");
    let (status, made) = make(addr, "failing", "passing", json!({"redact": true})).await;
    assert_eq!(status, 201, "{made}");
    assert!(made["redactions"]["count"].as_u64().unwrap() >= 1, "{made}");
    let items = made["redactions"]["items"].as_array().unwrap();
    assert!(items.iter().any(|i| i["kind"] == "github_token"), "{made}");
    let (status, shown) = get(addr, &format!("{}/api/compare", url_of(&made))).await;
    assert_eq!(status, 200);
    let text = shown.to_string();
    assert!(!text.contains(GITHUB), "{text}");
    assert!(text.contains("[REDACTED:github_token]"), "{text}");
    // The same figures as the unredacted comparison.
    let (_, plain) = get(addr, "/api/compare/failing/passing").await;
    for key in [
        "divergences",
        "differences",
        "first_divergence",
        "pairs_total",
    ] {
        assert_eq!(shown[key], plain[key], "{key}");
    }
}

#[test]
fn issue_48_share_compare_on_the_command_line() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    // PostgreSQL's store is opened in the runtime.
    let db = rt.block_on(async { TestDb::new() });
    rt.block_on(async {
        stored(&db).await;
        db.state.store().close().await;
    });
    let run = |args: &[&str]| common::cli("share", &db.db.spec, args);
    let (ok, out, err) = run(&[
        "--compare",
        "failing",
        "passing",
        "--redact",
        "--expires",
        "24h",
        "--base-url",
        "http://127.0.0.1:7171/",
    ]);
    assert!(ok, "{err}");
    let link = out.trim();
    let token = link.strip_prefix("http://127.0.0.1:7171/p/").expect(link);
    assert!(hiveterm::share::is_token_shaped(token), "{link}");
    assert!(
        err.contains("comparing sessions failing and passing"),
        "{err}"
    );
    assert!(err.contains(", redacted, expires at "), "{err}");
    assert!(
        err.contains("B event ") && err.contains("github_token"),
        "{err}"
    );
    let (ok, out, err) = run(&["--list"]);
    assert!(ok, "{err}");
    let first: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(first["compare_with"], "passing");
    assert_eq!(first["redact"], true);
    assert!(!out.contains(token));
    // What a session's link refuses, a comparison's does too; and what it takes no more.
    for bad in [
        &["--compare", "failing", "nobody"][..],
        &["--compare", "failing", "passing", "--expires", "0d"],
        &["--compare", "failing", "passing", "--comments"],
        &["--compare", "failing"],
        &["failing", "--compare", "failing", "passing"],
    ] {
        let (ok, _, err) = run(bad);
        assert!(!ok, "{bad:?}");
        assert!(!err.is_empty(), "{bad:?}");
    }
    let id = first["id"].to_string();
    let (ok, _, err) = run(&["--revoke", &id]);
    assert!(ok, "{err}");
    let (_, out, _) = run(&["--list"]);
    let first: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(first["status"], "revoked");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_48_a_database_from_before_comparison_links_is_migrated() {
    let db = TestDb::new();
    let addr = stored(&db).await;
    let old_url = session_share(addr, "failing").await;
    db.state.store().close().await;
    // The shares table as the schema before this one left it.
    if db.db.is_postgres() {
        db.sql(
            "ALTER TABLE shares DROP COLUMN compare_with, DROP COLUMN compare_seq;
             UPDATE schema_version SET version = version - 1",
        );
    } else {
        let version: i64 = db
            .db
            .query_one("SELECT CAST(user_version AS TEXT) FROM pragma_user_version")
            .parse()
            .unwrap();
        db.sql(&format!(
            "ALTER TABLE shares DROP COLUMN compare_with; ALTER TABLE shares DROP COLUMN compare_seq;
             PRAGMA user_version = {}",
            version - 1
        ));
    }
    let state = hiveterm::AppState::new(db.reopen(4), hiveterm::Config::default());
    let addr = spawn_server(state).await;
    let (status, v) = get(addr, &format!("{old_url}/api/share")).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        v.get("compare"),
        None,
        "a session's link says nothing of comparisons"
    );
    let (status, made) = make(addr, "failing", "passing", json!({})).await;
    assert_eq!(status, 201, "{made}");
    let (status, _) = get(addr, &format!("{}/api/compare", url_of(&made))).await;
    assert_eq!(status, 200);
}
