//! `hiveterm mcp` (issue 49), driven over stdio by a real MCP client (the official SDK's,
//! `rmcp`, spawning the binary) on SQLite and on PostgreSQL (127.0.0.1:5432, database `test`,
//! a fresh schema each; a missing server fails), beside a server serving the same database:
//! `initialize` and `tools/list`; each tool's answer equal to the HTTP API's on the same
//! database (`--no-redact`; the corpus has no secret, so redacted answers are equal too);
//! answers cut to `max_bytes` going on through their cursor to the same items; a secret
//! redacted by default and returned by `--no-redact`.

mod common;

use std::net::SocketAddr;

use axum::http::StatusCode;
use common::{DbSpec, all_history, call_json, send, spawn_server};
use hiveterm::{AppState, Config, Store};
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ErrorCode, Implementation,
    PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams, ResourceContents,
};
use rmcp::service::ServiceError;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ServiceExt, model::CallToolResult};
use serde_json::{Value, json};

/// A token of a shape the redactor knows (GitHub's), stored in one session.
const SECRET: &str = "ghp_Zx8Kq2Lm4Np6Rs8Tv0Wy2Ab4Cd6Ef8Gh0Jk2";

type Client = RunningService<RoleClient, ClientConfig>;

/// `hiveterm mcp --db DB` (and `extra`), connected, past `initialize` with the protocol
/// revision current clients speak.
async fn connect(db: &str, extra: &[&str]) -> Client {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_hiveterm"));
    cmd.args(["mcp", "--db", db]).args(extra);
    let transport = TokioChildProcess::new(cmd).expect("spawn hiveterm mcp");
    let config = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("hiveterm-test", "1"),
    )
    .with_protocol_version(ProtocolVersion::V_2025_11_25);
    config.serve(transport).await.expect("initialize")
}

async fn call_raw(client: &Client, name: &str, args: Value) -> CallToolResult {
    let args = args.as_object().expect("arguments").clone();
    client
        .call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(args))
        .await
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A tool's answer, parsed (it must not be an error).
async fn tool(client: &Client, name: &str, args: Value) -> Value {
    let result = call_raw(client, name, args.clone()).await;
    let text = &result.content[0].as_text().expect("text").text;
    assert_ne!(result.is_error, Some(true), "{name} {args}: {text}");
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}: {text}"))
}

async fn get(addr: SocketAddr, path: &str) -> Value {
    let (status, value) = call_json(addr, "GET", path, Vec::new()).await;
    assert_eq!(status, StatusCode::OK, "{path}: {value}");
    value
}

/// Query-string encoding: every byte but letters and digits as `%XX`.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// A few of the repository's logs, each a session, and one holding a secret; notes on two.
async fn ingest(addr: SocketAddr) -> Vec<String> {
    let logs = [
        "claude-code-2.1.332/tool_errors.transcript.jsonl",
        "claude-code-2.1.332/file_tools.stream.jsonl",
        "codex-0.171.0/codex_failing_command.session.jsonl",
        "gemini-0.61.0/gemini.failing_command.stream.jsonl",
    ];
    let mut ids = Vec::new();
    for (i, rel) in logs.iter().enumerate() {
        let path = common::repo().join("fixtures").join(rel);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let id = format!("s{i}");
        post(addr, &id, bytes).await;
        ids.push(id);
    }
    let secret = format!(
        "{}\n",
        json!({"type": "user", "message": {"role": "user",
            "content": format!("deploy with token {SECRET} please")}})
    );
    post(addr, "secret", secret.into_bytes()).await;
    ids.push("secret".into());
    for (id, text) in [
        ("s0", "the first try; see row 2"),
        ("secret", "leaked here"),
    ] {
        let body = json!({"from": 1, "to": 1, "text": text, "author": "me"});
        let (status, _, _) = send(
            addr,
            "POST",
            &format!("/api/sessions/{id}/notes"),
            &[("content-type", "application/json")],
            body.to_string().into_bytes(),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "note on {id}");
    }
    ids
}

async fn post(addr: SocketAddr, id: &str, bytes: Vec<u8>) {
    let path = format!("/api/sessions/{id}/events");
    let (status, _, _) = send(addr, "POST", &path, &[], bytes).await;
    assert_eq!(status, StatusCode::OK, "{id}");
}

/// The rows of a search's first page: what queries to try.
const QUERIES: [&str; 5] = ["Read", "error", "the", "src/", "ghp_"];

async fn check_backend(postgres: bool) {
    let dir = tempfile::tempdir().unwrap();
    let db = if postgres {
        DbSpec::fresh_postgres(dir.path())
    } else {
        DbSpec::fresh_sqlite(dir.path())
    };
    let store = Store::open_db(&db.spec, 4).expect("open");
    let state = AppState::new(store, Config::default());
    let addr = spawn_server(state.clone()).await;
    let ids = ingest(addr).await;

    let plain = connect(&db.spec, &["--no-redact"]).await;
    let info = plain.peer_info().expect("initialized");
    assert_eq!(info.protocol_version, ProtocolVersion::V_2025_11_25);
    let tools: Vec<String> = plain
        .list_all_tools()
        .await
        .expect("tools/list")
        .into_iter()
        .map(|t| t.name.into_owned())
        .collect();
    assert_eq!(
        tools,
        [
            "search",
            "list_sessions",
            "session_summary",
            "session_rows",
            "notes"
        ]
    );

    // search: the API's page, with and without filters, and through its cursor.
    let mut many = 0;
    for q in QUERIES {
        let http = get(addr, &format!("/api/search?q={}", encode(q))).await;
        assert_eq!(
            tool(&plain, "search", json!({"query": q})).await,
            http,
            "{q}"
        );
        let http = get(
            addr,
            &format!("/api/search?q={}&session=s0&limit=3", encode(q)),
        )
        .await;
        let mcp = tool(
            &plain,
            "search",
            json!({"query": q, "session": "s0", "limit": 3}),
        )
        .await;
        assert_eq!(mcp, http, "{q} in s0");
        let http = get(
            addr,
            &format!(
                "/api/search?q={}&agent=claude-code&since=2000-01-01",
                encode(q)
            ),
        )
        .await;
        let mcp = tool(
            &plain,
            "search",
            json!({"query": q, "agent": "claude-code", "since": "2000-01-01"}),
        )
        .await;
        assert_eq!(mcp, http, "{q} by agent");
        // Cut to a few KiB, the pages go on to the same hits (a page's last hits dropped, or
        // all kept with their strings shortened).
        let all = get(addr, &format!("/api/search?q={}&limit=500", encode(q))).await;
        let mut hits = Vec::new();
        let mut cursor = Value::Null;
        let mut pages = 0;
        loop {
            pages += 1;
            let page = tool(
                &plain,
                "search",
                json!({"query": q, "limit": 500, "max_bytes": 4096, "cursor": cursor}),
            )
            .await;
            assert!(page.to_string().len() <= 4096 || page["hits"].as_array().unwrap().len() == 1);
            hits.extend(page["hits"].as_array().unwrap().iter().cloned());
            cursor = page["next"].clone();
            if cursor.is_null() {
                break;
            }
        }
        assert_eq!(
            hit_keys(&Value::Array(hits)),
            hit_keys(&all["hits"]),
            "{q} paged by bytes"
        );
        if pages > 1 {
            many += 1;
        }
    }

    assert!(many >= 2, "{many} queries cut by bytes");
    issue_49_hits_shortened_not_dropped(&plain, addr).await;
    let errors = get(addr, "/api/search?q=error").await;
    assert!(errors["hits"].as_array().unwrap().len() > 3, "{errors}");

    // list_sessions: the index as the API lists it, sorted and filtered.
    for query in ["", "sort=cost", "sort=errors", "agent=codex", "q=s"] {
        let http = get(addr, &format!("/api/sessions?limit=500&{query}")).await;
        let mut args = json!({"limit": 500});
        if let Some((k, v)) = query.split_once('=') {
            args[k] = json!(v);
        }
        assert_eq!(tool(&plain, "list_sessions", args).await, http, "{query}");
    }
    let mut listed = Vec::new();
    let mut cursor = Value::Null;
    loop {
        let page = tool(
            &plain,
            "list_sessions",
            json!({"limit": 2, "cursor": cursor}),
        )
        .await;
        listed.extend(page["sessions"].as_array().unwrap().iter().cloned());
        cursor = page.get("next").cloned().unwrap_or(Value::Null);
        if cursor.is_null() {
            break;
        }
    }
    let http = get(addr, "/api/sessions?limit=500").await;
    assert_eq!(Value::Array(listed), http["sessions"]);

    for id in &ids {
        // session_summary: what `GET …/summary` (and `hiveterm summary --json`) says.
        let http = get(addr, &format!("/api/sessions/{id}/summary")).await;
        let mcp = tool(&plain, "session_summary", json!({"session": id})).await;
        assert_eq!(mcp, http, "summary of {id}");

        // session_rows: every envelope, oldest first, in pages of 3 events.
        let history = all_history(addr, id, 1000).await;
        let mut envelopes = Vec::new();
        let mut from = json!(1);
        loop {
            let page = tool(
                &plain,
                "session_rows",
                json!({"session": id, "from": from, "limit": 3, "max_body": 1_000_000}),
            )
            .await;
            envelopes.extend(page["envelopes"].as_array().unwrap().iter().cloned());
            from = page["next"].clone();
            if from.is_null() {
                break;
            }
        }
        assert!(!history.is_empty(), "{id}");
        assert_eq!(envelopes, history, "rows of {id}");

        // notes: `GET …/notes`.
        let http = get(addr, &format!("/api/sessions/{id}/notes")).await;
        let mcp = tool(&plain, "notes", json!({"session": id})).await;
        assert_eq!(mcp, http, "notes of {id}");
    }

    // Notes and rows cut by bytes go on through `next` to the same items.
    for i in 0..6 {
        let body = json!({"from": i + 1, "to": i + 2, "text": format!("{i} {}", "n".repeat(1500))});
        let (status, _, _) = send(
            addr,
            "POST",
            "/api/sessions/s1/notes",
            &[("content-type", "application/json")],
            body.to_string().into_bytes(),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let http = get(addr, "/api/sessions/s1/notes").await;
    let (mut notes, mut cursor, mut pages) = (Vec::new(), Value::Null, 0);
    loop {
        pages += 1;
        let args = json!({"session": "s1", "max_bytes": 4096, "cursor": cursor});
        let page = tool(&plain, "notes", args).await;
        assert!(page.to_string().len() <= 4096, "{page}");
        notes.extend(page["notes"].as_array().unwrap().iter().cloned());
        cursor = page["next"].clone();
        if cursor.is_null() {
            break;
        }
    }
    assert!(pages > 2, "{pages} pages of notes");
    assert_eq!(Value::Array(notes), http["notes"]);
    let history = all_history(addr, "s1", 1000).await;
    let (mut envelopes, mut from, mut pages) = (Vec::new(), json!(1), 0);
    loop {
        pages += 1;
        let args = json!({"session": "s1", "from": from, "max_body": 100_000, "max_bytes": 4096});
        let page = tool(&plain, "session_rows", args).await;
        assert!(
            page.to_string().len() <= 4096 || page["envelopes"].as_array().unwrap().len() == 1,
            "{page}"
        );
        envelopes.extend(page["envelopes"].as_array().unwrap().iter().cloned());
        from = page["next"].clone();
        if from.is_null() {
            break;
        }
    }
    assert!(pages > 2, "{pages} pages of rows");
    assert_eq!(envelopes, history, "rows of s1 cut by bytes");

    // Bodies cut to what the caller gives; a range's rows only.
    let page = tool(
        &plain,
        "session_rows",
        json!({"session": "s0", "from": 2, "to": 4, "max_body": 10}),
    )
    .await;
    for env in page["envelopes"].as_array().unwrap() {
        let seq = env["seq"].as_u64().unwrap();
        assert!((2..=4).contains(&seq), "{seq}");
        for row in env["msgs"].as_array().unwrap() {
            if let Some(body) = row["body"].as_str() {
                assert!(body.len() <= 10 + '…'.len_utf8(), "{body:?}");
            }
        }
    }

    // Errors are tool errors the agent reads, not protocol failures.
    let bad = call_raw(&plain, "search", json!({"query": "ab"})).await;
    assert_eq!(bad.is_error, Some(true));
    let bad = call_raw(&plain, "session_summary", json!({"session": "nope"})).await;
    assert_eq!(bad.is_error, Some(true));
    let bad = call_raw(&plain, "search", json!({"query": "abc", "agnet": "x"})).await;
    assert_eq!(bad.is_error, Some(true));

    // The secret: returned by --no-redact, and by default in no answer of any tool.
    let found = tool(&plain, "search", json!({"query": "ghp_Zx8K"})).await;
    assert!(found.to_string().contains(SECRET), "{found}");
    let redacting = connect(&db.spec, &[]).await;
    let calls = [
        ("search", json!({"query": "deploy with token"})),
        ("list_sessions", json!({})),
        ("session_summary", json!({"session": "secret"})),
        ("session_rows", json!({"session": "secret"})),
        ("notes", json!({"session": "secret"})),
    ];
    for (name, args) in calls {
        let answer = tool(&redacting, name, args).await.to_string();
        assert!(!answer.contains("ghp_Zx8K"), "{name}: {answer}");
    }
    // The contract checked from outside: a search's text holds every session id that
    // `hiveterm search Q --json` lists on its first page.
    for q in QUERIES {
        let (ok, out, err) = common::cli("search", &db.spec, &[q, "--json"]);
        assert!(ok, "{err}");
        let cli: Value = serde_json::from_str(&out).unwrap();
        let result = call_raw(&redacting, "search", json!({"query": q})).await;
        let text = &result.content[0].as_text().unwrap().text;
        for hit in cli["hits"].as_array().unwrap() {
            let id = hit["session"].as_str().unwrap();
            assert!(text.contains(id), "{q}: {id} not in {text}");
        }
    }
    let found = tool(&redacting, "search", json!({"query": "deploy with token"})).await;
    assert_eq!(found["hits"][0]["session"], "secret", "{found}");
    // Without a secret, a redacted answer is the plain one.
    for id in &ids[..ids.len() - 1] {
        let args = json!({"session": id});
        let plain_rows = tool(&plain, "session_rows", args.clone()).await;
        assert_eq!(
            tool(&redacting, "session_rows", args).await,
            plain_rows,
            "{id}"
        );
    }

    issue_49_session_resources(&plain, &redacting, addr, &ids).await;

    // A database that is not there is refused, not made.
    let missing = dir.path().join("missing.db");
    let (ok, _, err) = common::cli("mcp", missing.to_str().unwrap(), &[]);
    assert!(!ok && err.contains("no such database"), "{err}");
    assert!(!missing.exists());

    plain.cancel().await.unwrap();
    redacting.cancel().await.unwrap();
    state.store().close().await;
}

/// Where each hit is: `[session, seq, row]`.
fn hit_keys(hits: &Value) -> Vec<Value> {
    let hits = hits.as_array().unwrap().iter();
    hits.map(|h| json!([h["session"], h["seq"], h["row"]]))
        .collect()
}

/// Issue 49, the contract checked from outside: a search page too long for `max_bytes` keeps
/// every hit (so every session the CLI's page names), their summaries and snippets cut, when
/// that makes it fit; `next` is the API's.
async fn issue_49_hits_shortened_not_dropped(plain: &Client, addr: SocketAddr) {
    let (mut shortened, mut dropped) = (0, 0);
    for q in QUERIES {
        let http = get(addr, &format!("/api/search?q={}&limit=25", encode(q))).await;
        // A little less than the page's whole size: its strings need cutting, a little.
        let max = http.to_string().len().saturating_sub(300).max(4096);
        let args = json!({"query": q, "limit": 25, "max_bytes": max});
        let mcp = tool(plain, "search", args).await;
        let size = mcp.to_string().len();
        assert!(size <= max, "{q}: {size}");
        if http.to_string().len() <= max {
            assert_eq!(mcp, http, "{q}");
            continue;
        }
        if hit_keys(&mcp["hits"]).len() < hit_keys(&http["hits"]).len() {
            dropped += 1; // Even cut to the shortest, they do not fit: hits dropped.
            continue;
        }
        shortened += 1;
        assert_eq!(hit_keys(&mcp["hits"]), hit_keys(&http["hits"]), "{q}");
        assert_eq!(mcp["next"], http["next"], "{q}");
        let cut = mcp["hits"].as_array().unwrap().iter();
        assert!(
            cut.clone()
                .any(|h| h["snippet"].as_str().unwrap().ends_with('…'))
        );
        for (h, whole) in cut.zip(http["hits"].as_array().unwrap()) {
            let (a, b) = (
                h["summary"].as_str().unwrap(),
                whole["summary"].as_str().unwrap(),
            );
            assert!(b.starts_with(a.trim_end_matches('…')), "{q}: {a:?} {b:?}");
        }
    }
    assert!(shortened >= 2, "{shortened} pages shortened, {dropped} cut");
}

/// A resource's text (it must be one text of JSON).
async fn read(client: &Client, uri: &str) -> Result<Value, ServiceError> {
    let result = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await?;
    assert_eq!(result.contents.len(), 1, "{uri}");
    let ResourceContents::TextResourceContents {
        uri: got,
        mime_type,
        text,
        ..
    } = &result.contents[0]
    else {
        panic!("{uri}: not text");
    };
    assert_eq!(
        (got.as_str(), mime_type.as_deref()),
        (uri, Some("application/json"))
    );
    Ok(serde_json::from_str(text).unwrap_or_else(|e| panic!("{uri}: {e}: {text}")))
}

/// Issue 49: each session a resource, `hiveterm://session/<id>`, listed newest first a page of
/// 50 at a time as `GET /api/sessions` lists them (55 more sessions make two pages), read as
/// `GET …/summary` says (redacted by default: the `session_summary` tool's answer), one
/// template; a URI of no session is "resource not found" (-32002).
async fn issue_49_session_resources(
    plain: &Client,
    redacting: &Client,
    addr: SocketAddr,
    ids: &[String],
) {
    let caps = plain.peer_info().unwrap().capabilities.clone();
    assert!(caps.resources.is_some() && caps.tools.is_some(), "{caps:?}");
    for i in 0..55 {
        let line = json!({"kind": "note", "text": format!("session {i}")});
        post(addr, &format!("p{i:02}"), format!("{line}\n").into_bytes()).await;
    }
    let http = get(addr, "/api/sessions?limit=500").await;
    let http_ids: Vec<String> = http["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(http_ids.len(), 60);
    let first = plain.list_resources(None).await.expect("resources/list");
    assert_eq!(first.resources.len(), 50);
    let cursor = first.next_cursor.clone().expect("a second page");
    let second = plain
        .list_resources(Some(
            PaginatedRequestParams::default().with_cursor(Some(cursor)),
        ))
        .await
        .expect("resources/list, page 2");
    assert_eq!(second.resources.len(), 10);
    assert_eq!(second.next_cursor, None);
    let all = [first.resources, second.resources].concat();
    let uris: Vec<&str> = all.iter().map(|r| r.uri.as_str()).collect();
    // Redacted by default: the secret session's title (its first prompt) holds the token.
    let redacted = redacting.list_all_resources().await.expect("list all");
    let redacted_uris: Vec<&str> = redacted.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(redacted_uris, uris);
    let titles = |list: &[rmcp::model::Resource]| {
        format!("{:?}", list.iter().map(|r| &r.title).collect::<Vec<_>>())
    };
    assert!(titles(&all).contains(SECRET));
    assert!(
        !titles(&redacted).contains("ghp_Zx8K"),
        "{}",
        titles(&redacted)
    );
    let expect: Vec<String> = http_ids
        .iter()
        .map(|id| format!("hiveterm://session/{id}"))
        .collect();
    assert_eq!(uris, expect);
    for (r, entry) in all.iter().zip(http["sessions"].as_array().unwrap()) {
        assert_eq!(r.name, entry["id"].as_str().unwrap());
        assert_eq!(r.mime_type.as_deref(), Some("application/json"));
        let title = entry["title"].as_str().filter(|t| !t.is_empty());
        assert_eq!(r.title.as_deref(), title, "{}", r.name);
    }

    let templates = plain
        .list_all_resource_templates()
        .await
        .expect("templates");
    assert_eq!(templates.len(), 1);
    assert_eq!(templates[0].uri_template, "hiveterm://session/{id}");

    for id in ids {
        let uri = format!("hiveterm://session/{id}");
        let http = get(addr, &format!("/api/sessions/{id}/summary")).await;
        assert_eq!(read(plain, &uri).await.unwrap(), http, "{uri}");
        let tool_answer = tool(redacting, "session_summary", json!({"session": id})).await;
        let redacted = read(redacting, &uri).await.unwrap();
        assert_eq!(redacted, tool_answer, "{uri} redacted");
        assert!(!redacted.to_string().contains("ghp_Zx8K"), "{redacted}");
    }
    for uri in [
        "hiveterm://session/nope",
        "hiveterm://session/..",
        "hiveterm://session/",
        "file:///etc/passwd",
    ] {
        match read(plain, uri).await {
            Err(ServiceError::McpError(e)) => {
                assert_eq!(e.code, ErrorCode::RESOURCE_NOT_FOUND, "{uri}: {e:?}");
            }
            other => panic!("{uri}: {other:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_answers_equal_the_http_api_on_sqlite() {
    check_backend(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_answers_equal_the_http_api_on_postgres() {
    check_backend(true).await;
}
