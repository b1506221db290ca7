//! The sessions' index and usage (issue 22): `GET /api/sessions` with what each session's log
//! says of it (agent, project, title, status, turns, errors, tokens, cost — checked against
//! `hiveterm summary --json` of the same file), its filters, sorts and keyset paging, the
//! index rebuilt with the derived tables, `GET /api/usage` and `hiveterm usage` equal to the
//! sums of the sessions, and the token guarding all of it (a share token reaches none).
//! Every test runs on SQLite and on PostgreSQL (127.0.0.1:5432, database `test`; a missing
//! server fails them).

mod common;

use std::collections::{BTreeMap, HashSet};
use std::net::SocketAddr;

use axum::http::StatusCode;
use common::{DbSpec, repo, send, spawn_server};
use hiveterm::{AppState, Config, Store};
use http_body_util::BodyExt;
use serde_json::{Value, json};

const TOKEN: &str = "index-test-token-0123456789";

/// A server on a fresh database of each backend, with a token.
struct Server {
    addr: SocketAddr,
    db: DbSpec,
    _dir: tempfile::TempDir,
}

async fn server(postgres: bool) -> Server {
    server_every(postgres, 4).await
}

/// [`server`], its checkpoints every `every` events.
async fn server_every(postgres: bool, every: u64) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let db = if postgres {
        DbSpec::fresh_postgres(dir.path())
    } else {
        DbSpec::fresh_sqlite(dir.path())
    };
    let store = Store::open_db(&db.spec, every).expect("open");
    let config = Config {
        token: Some(TOKEN.into()),
        static_dir: dir.path().join("dist"),
        ..Config::default()
    };
    let addr = spawn_server(AppState::new(store, config)).await;
    Server {
        addr,
        db,
        _dir: dir,
    }
}

async fn call(addr: SocketAddr, method: &str, path: &str, body: Vec<u8>) -> (StatusCode, Value) {
    let auth = format!("Bearer {TOKEN}");
    let (status, _, body) = send(addr, method, path, &[("authorization", &auth)], body).await;
    let bytes = body.collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

async fn get(addr: SocketAddr, path: &str) -> Value {
    let (status, v) = call(addr, "GET", path, Vec::new()).await;
    assert_eq!(status, StatusCode::OK, "GET {path}: {v}");
    v
}

async fn post(addr: SocketAddr, id: &str, query: &str, body: Vec<u8>) {
    let (status, v) = call(
        addr,
        "POST",
        &format!("/api/sessions/{id}/events{query}"),
        body,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "POST {id}: {v}");
}

/// The real logs posted, as `(session id, fixture path, status, project, title)`: the title
/// the index must show (the session's id when the log has no prompt to take one from).
const LOGS: &[(&str, &str, &str, Option<&str>, &str)] = &[
    (
        "cc-transcript",
        "claude-code-2.1.332/tool_errors.transcript.jsonl",
        "ok",
        Some("/home/dev/work/tool_errors"),
        "Exercise tool errors.",
    ),
    (
        "cc-basic",
        "claude-code-2.1.332/basic_markdown.transcript.jsonl",
        "ok",
        Some("/home/dev/work/basic_markdown"),
        "Summarise this project in markdown, with a table and code samples.",
    ),
    (
        "cc-stream",
        "claude-code-2.1.332/api_fatal_400.stream.jsonl",
        "failed",
        Some("/home/dev/work/api_fatal"),
        "cc-stream",
    ),
    (
        "cc-stream-ok",
        "claude-code-2.1.332/tool_errors.stream.jsonl",
        "ok",
        Some("/home/dev/work/tool_errors"),
        "cc-stream-ok",
    ),
    (
        "cx-rollout",
        "codex-0.171.0/codex_basic_markdown.session.jsonl",
        "ok",
        Some("/home/dev/work/basic_markdown"),
        "Summarise this project in markdown, with a table and code samples.",
    ),
    (
        "cx-exec",
        "codex-0.171.0/codex_failing_command.stream.jsonl",
        "ok",
        None,
        "cx-exec",
    ),
    (
        "cx-interrupted",
        "codex-0.171.0/codex_interrupted_stream.session.jsonl",
        "interrupted",
        Some("/home/dev/work/interrupted"),
        "Write a long essay.",
    ),
    (
        "gm-session",
        "gemini-0.61.0/gemini.basic_markdown.session.jsonl",
        "in flight",
        None,
        "Summarise this project in markdown, with a table and code samples.",
    ),
    (
        "gm-stream",
        "gemini-0.61.0/gemini.api_fatal_400.stream.jsonl",
        "failed",
        None,
        "",
    ),
    (
        "hh",
        "hyperhive/api_fatal_400.events.jsonl",
        "failed",
        Some("/home/dev/work/api_fatal"),
        "New work from operator: see the task thread.",
    ),
];

fn fixture_path(rel: &str) -> std::path::PathBuf {
    repo().join("fixtures").join(rel)
}

/// What `hiveterm summary --json` says of a file.
fn summary_of(rel: &str) -> Value {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .args(["summary", "--json"])
        .arg(fixture_path(rel))
        .output()
        .expect("hiveterm summary");
    assert!(out.status.success(), "summary {rel}");
    serde_json::from_slice(&out.stdout).expect("summary JSON")
}

/// Every session of the index, a page of `limit` at a time with `query`, following `next`.
async fn all_pages(addr: SocketAddr, query: &str, limit: usize) -> Vec<Value> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..1000 {
        let mut path = format!("/api/sessions?limit={limit}{query}");
        if let Some(c) = &cursor {
            path.push_str(&format!("&cursor={}", urlencode(c)));
        }
        let page = get(addr, &path).await;
        let sessions = page["sessions"].as_array().unwrap();
        assert!(sessions.len() <= limit);
        out.extend(sessions.iter().cloned());
        match page["next"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => return out,
        }
    }
    panic!("paging never ended");
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

async fn post_logs(addr: SocketAddr) {
    for (id, rel, ..) in LOGS {
        let bytes = std::fs::read(fixture_path(rel)).unwrap();
        post(addr, id, "", bytes).await;
    }
}

fn by_id(sessions: &[Value]) -> BTreeMap<String, Value> {
    sessions
        .iter()
        .map(|s| (s["id"].as_str().unwrap().to_owned(), s.clone()))
        .collect()
}

async fn index_matches_summary(postgres: bool) {
    let s = server(postgres).await;
    post_logs(s.addr).await;
    let listed = by_id(&all_pages(s.addr, "", 1000).await);
    assert_eq!(listed.len(), LOGS.len());
    for (id, rel, status, project, title) in LOGS {
        let got = &listed[*id];
        let want = summary_of(rel);
        let ctx = format!("{id} ({rel}): {got}");
        assert_eq!(got["agent"], want["agent"], "{ctx}");
        assert_eq!(got["agent_version"], want["agent_version"], "{ctx}");
        assert_eq!(got["turns"], want["turns"], "{ctx}");
        assert_eq!(got["errors"], want["errors"], "{ctx}");
        assert_eq!(got["first_error"], want["first_error_seq"], "{ctx}");
        assert_eq!(got["cost"], want["cost_usd"], "{ctx}");
        let unpriced = want.get("unpriced_models").cloned().unwrap_or(json!([]));
        assert_eq!(models(got), unpriced, "{ctx}");
        assert_eq!(got["tokens"]["input"], want["input_tokens"], "{ctx}");
        assert_eq!(got["tokens"]["output"], want["output_tokens"], "{ctx}");
        assert_eq!(
            got["tokens"]["cache_read"], want["cache_read_tokens"],
            "{ctx}"
        );
        assert_eq!(
            got["tokens"]["cache_creation"], want["cache_creation_tokens"],
            "{ctx}"
        );
        assert_eq!(got["started_at"], want["started_at"], "{ctx}");
        assert_eq!(got["duration"], want["duration_s"], "{ctx}");
        if let Some(model) = want["models"].get(0) {
            assert_eq!(&got["model"], model, "{ctx}");
        }
        assert!(got["last_seq"].as_u64().unwrap() > 0, "{ctx}");
        // How the session stands agrees with how the summary says its turns ended.
        let st = got["status"].as_str().unwrap();
        if !status.is_empty() {
            assert_eq!(st, *status, "{ctx}");
        }
        let n = |k: &str| want[k].as_u64().unwrap();
        match st {
            "ok" => assert!(n("turns_ok") > 0 || n("turns") == 0, "{ctx}"),
            "failed" => assert!(n("turns_failed") > 0 || n("errors") > 0, "{ctx}"),
            "interrupted" => assert!(n("turns_interrupted") > 0, "{ctx}"),
            // A Gemini recording's last turn ends with the file: `hiveterm summary` reads it
            // whole; a live session's file may go on (issue 45).
            "in flight" => assert!(
                n("turns") > n("turns_ok") + n("turns_failed") + n("turns_interrupted")
                    || got["agent"] == "gemini",
                "{ctx}"
            ),
            "live" => {}
            other => panic!("status {other}: {ctx}"),
        }
        if project.is_some() || got["agent"] != "codex" {
            assert_eq!(got["project"].as_str(), *project, "{ctx}");
        }
        let t = got["title"].as_str().unwrap();
        if !title.is_empty() {
            assert_eq!(t, *title, "{ctx}");
        }
        assert!(!t.starts_with('<'), "{ctx}");
        assert!(!t.contains("environment_context"), "{ctx}");
        assert!(!t.contains('\n') && t.chars().count() <= 101, "{ctx}");
    }
    // The summary's view of the session (`GET …/summary`) agrees too.
    let (_, summary) = call(s.addr, "GET", "/api/sessions/cc-transcript/summary", vec![]).await;
    assert_eq!(listed["cc-transcript"]["errors"], summary["errors"]);
    // An ended session that was in flight was interrupted, but for a Gemini recording whose
    // last turn the end of the log ends (it was answered: issue 45); one whose turns ended
    // keeps it.
    call(s.addr, "POST", "/api/sessions/gm-session/end", vec![]).await;
    call(s.addr, "POST", "/api/sessions/cx-rollout/end", vec![]).await;
    let listed = by_id(&all_pages(s.addr, "", 1000).await);
    assert_eq!(listed["gm-session"]["status"], "ok");
    assert_eq!(listed["cx-rollout"]["status"], "ok");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_index_says_what_hiveterm_summary_says_on_sqlite() {
    index_matches_summary(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_index_says_what_hiveterm_summary_says_on_postgres() {
    index_matches_summary(true).await;
}

/// A Claude Code transcript line.
fn line(v: Value) -> Vec<u8> {
    let mut l = v.to_string().into_bytes();
    l.push(b'\n');
    l
}

fn prompt(text: &str) -> Vec<u8> {
    line(
        json!({"type": "user", "message": {"role": "user", "content": text},
        "uuid": "u1", "timestamp": "2026-11-30T02:15:18.985Z", "sessionId": "s", "cwd": "/w/p"}),
    )
}

async fn titles(postgres: bool) {
    let s = server(postgres).await;
    let a = s.addr;
    // A path (what `--follow` titles a session with) gives way to the first prompt; an
    // injected block is not one.
    let mut body = prompt("<environment_context>\n  <cwd>/w/p</cwd>\n</environment_context>");
    body.extend(prompt(&format!(
        "  \n Fix the   login bug\nsecond line {}",
        "x".repeat(300)
    )));
    post(
        a,
        "t-path",
        "?title=%2Fhome%2Fu%2F.claude%2Fprojects%2Fp%2Fa.jsonl",
        body,
    )
    .await;
    // A title the client gave is kept while the log has no title record…
    post(a, "t-given", "?title=My%20build", prompt("Do the thing")).await;
    // …and a long prompt is cut to one line.
    post(a, "t-long", "", prompt(&"word ".repeat(60))).await;
    let listed = by_id(&all_pages(a, "", 100).await);
    assert_eq!(listed["t-path"]["title"], "Fix the login bug");
    assert_eq!(listed["t-given"]["title"], "My build");
    let long = listed["t-long"]["title"].as_str().unwrap();
    assert_eq!(long.chars().count(), 101, "{long}");
    assert!(long.ends_with('…'));
    assert_eq!(listed["t-given"]["project"], "/w/p");
    // The agent's own title record wins, the user's (`custom-title`) over the AI's.
    post(
        a,
        "t-given",
        "",
        line(json!({"type": "ai-title", "aiTitle": "AI named it"})),
    )
    .await;
    post(
        a,
        "t-path",
        "",
        line(json!({"type": "custom-title", "customTitle": "Login fix"})),
    )
    .await;
    post(
        a,
        "t-path",
        "",
        line(json!({"type": "ai-title", "aiTitle": "Not this"})),
    )
    .await;
    let listed = by_id(&all_pages(a, "", 100).await);
    assert_eq!(listed["t-given"]["title"], "AI named it");
    assert_eq!(listed["t-path"]["title"], "Login fix");
    // `GET /api/sessions/{id}` (the hub's row) says the same.
    let one = get(a, "/api/sessions/t-path").await;
    assert_eq!(one["title"], "Login fix");
    // The derived-table rebuild (another classifier) sets the columns again from the raw
    // events: here after they were wiped.
    let before = all_pages(a, "", 100).await;
    s.db.sql(
        "UPDATE sessions SET title = 'x', agent = NULL, project = NULL, turns = 0, \
         errors = 0, input_tokens = 0, cost = NULL, outcome = NULL; \
         UPDATE meta SET value = 'stale' WHERE key = 'derived'",
    );
    let store = Store::open_db(&s.db.spec, 4).expect("reopen");
    let addr = spawn_server(AppState::new(
        store,
        Config {
            token: Some(TOKEN.into()),
            ..Config::default()
        },
    ))
    .await;
    let after = all_pages(addr, "", 100).await;
    let strip = |v: &[Value]| -> Vec<Value> {
        v.iter()
            .map(|s| {
                let mut s = s.clone();
                for k in ["live", "ended"] {
                    s.as_object_mut().unwrap().remove(k);
                }
                s
            })
            .collect()
    };
    assert_eq!(strip(&after), strip(&before));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn titles_from_the_log_on_sqlite() {
    titles(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn titles_from_the_log_on_postgres() {
    titles(true).await;
}

/// Synthetic sessions: each with `errors` unreadable lines (an error row each) and a
/// `result` line with its cost (`None`: none).
async fn synthetic(addr: SocketAddr, n: usize) {
    for i in 0..n {
        let errors = (i * 7) % 4;
        let cost = (i % 3 != 0).then(|| ((i * 37) % 11) as f64 / 4.0);
        let mut body = Vec::new();
        body.extend(line(
            json!({"type": "system", "subtype": "init", "model": format!("m{}", i % 2),
            "cwd": format!("/proj/{}", i % 3), "session_id": "x"}),
        ));
        for _ in 0..errors {
            body.extend(b"not json\n");
        }
        let mut result = json!({"type": "result", "subtype": "success", "is_error": false,
            "usage": {"input_tokens": i, "output_tokens": 2 * i}});
        if let Some(c) = cost {
            result["total_cost_usd"] = json!(c);
        }
        body.extend(line(result));
        let title = match i {
            3 => "100%25%20done_ok",
            4 => "1000%20dollars",
            5 => "A_B",
            _ => "run",
        };
        post(addr, &format!("s{i:02}"), &format!("?title={title}"), body).await;
    }
}

async fn filters_sorts_paging(postgres: bool) {
    let s = server(postgres).await;
    let a = s.addr;
    post_logs(a).await;
    synthetic(a, 23).await;
    // A session with no turn yet is `live`.
    post(a, "no-turn", "", b"not json\n".to_vec()).await;
    let all = all_pages(a, "", 1000).await;
    let total = all.len();
    assert_eq!(total, LOGS.len() + 24);
    // Keyset pages: each session once, in the order of the whole list, whatever the page.
    for sort in ["newest", "cost", "errors"] {
        let whole = all_pages(a, &format!("&sort={sort}"), 1000).await;
        let ids = |v: &[Value]| -> Vec<String> {
            v.iter()
                .map(|s| s["id"].as_str().unwrap().to_owned())
                .collect()
        };
        let mut want = whole.clone();
        // When the session started: the log's own first time, else when it was made.
        let start = |s: &Value| s["started_at"].as_f64().or(s["started"].as_f64()).unwrap();
        let key = |s: &Value| match sort {
            "cost" => s["cost"].as_f64().unwrap_or(-1.0),
            "errors" => s["errors"].as_f64().unwrap(),
            _ => 0.0,
        };
        want.sort_by(|x, y| {
            key(y)
                .total_cmp(&key(x))
                .then(start(y).total_cmp(&start(x)))
                .then(x["id"].as_str().cmp(&y["id"].as_str()))
        });
        assert_eq!(ids(&whole), ids(&want), "{sort}");
        if sort == "newest" {
            // Regression (issue 22): a log of days ago stored now (a watched folder's old
            // logs) sorts by its own time, after the sessions made now with no time of theirs.
            let pos = |id: &str| whole.iter().position(|s| s["id"] == id).unwrap();
            assert!(pos("cc-basic") > pos("s00") && pos("cx-rollout") > pos("s00"));
        }
        for limit in [1, 3, 7] {
            let paged = all_pages(a, &format!("&sort={sort}"), limit).await;
            assert_eq!(ids(&paged), ids(&whole), "{sort} by {limit}");
            let distinct: HashSet<_> = ids(&paged).into_iter().collect();
            assert_eq!(distinct.len(), total);
        }
    }
    // The paging the index had before its sorts: `before=next_before`.
    let first = get(a, "/api/sessions?limit=5").await;
    let nb = first["next_before"].as_str().unwrap();
    assert_eq!(first["next"].as_str(), Some(nb));
    let second = get(
        a,
        &format!("/api/sessions?limit=5&before={}", urlencode(nb)),
    )
    .await;
    assert_eq!(second["sessions"][0]["id"], all[5]["id"]);
    let (status, _) = call(a, "GET", "/api/sessions?sort=cost&before=1~x", vec![]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    for bad in [
        "sort=size",
        "status=done",
        "cursor=nonsense",
        "sort=cost&cursor=1~x",
    ] {
        let (status, v) = call(a, "GET", &format!("/api/sessions?{bad}"), vec![]).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
    // Filters: each gives exactly the sessions of the whole list that match, paged too.
    let check = async |query: &str, pred: &dyn Fn(&Value) -> bool| {
        let got: Vec<Value> = all_pages(a, query, 4).await;
        let want: Vec<&Value> = all.iter().filter(|s| pred(s)).collect();
        assert!(!want.is_empty() || query.contains("q=zz"), "{query}");
        assert_eq!(
            got.iter().map(|s| &s["id"]).collect::<Vec<_>>(),
            want.iter().map(|s| &s["id"]).collect::<Vec<_>>(),
            "{query}"
        );
    };
    check("&agent=codex", &|s| s["agent"] == "codex").await;
    check("&agent=claude-code", &|s| s["agent"] == "claude-code").await;
    check("&project=%2Fproj%2F1", &|s| s["project"] == "/proj/1").await;
    for st in ["ok", "failed", "in%20flight", "interrupted", "live"] {
        let want = st.replace("%20", " ");
        check(&format!("&status={st}"), &|s| s["status"] == want.as_str()).await;
    }
    check("&q=SUMMARISE", &|s| {
        s["title"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("summarise")
    })
    .await;
    // `%` and `_` are plain characters.
    check("&q=%25", &|s| s["title"].as_str().unwrap().contains('%')).await;
    check("&q=_", &|s| s["title"].as_str().unwrap().contains('_')).await;
    check("&q=0%25%20d", &|s| s["title"] == "100% done_ok").await;
    check("&q=zz-none", &|_| false).await;
    check("&agent=claude-code&status=failed&sort=errors", &|s| {
        s["agent"] == "claude-code" && s["status"] == "failed"
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn filters_sorts_and_keyset_pages_on_sqlite() {
    filters_sorts_paging(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn filters_sorts_and_keyset_pages_on_postgres() {
    filters_sorts_paging(true).await;
}

fn day(t: f64) -> String {
    let days = (t / 86_400.0).floor() as i64;
    let (y, m, d) = hiveterm_civil(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
fn hiveterm_civil(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// A group's sessions, tokens, cost, sessions of unknown cost, stated and estimated costs,
/// the models of no price of its sessions of unknown cost.
type Want = (
    u64,
    [u64; 4],
    Option<f64>,
    u64,
    [Option<f64>; 2],
    std::collections::BTreeSet<String>,
);

async fn usage(postgres: bool) {
    let s = server(postgres).await;
    let a = s.addr;
    post_logs(a).await;
    synthetic(a, 9).await;
    let all = all_pages(a, "", 1000).await;
    for by in ["day", "agent", "model", "project"] {
        let got = get(a, &format!("/api/usage?by={by}")).await;
        assert_eq!(got["by"], by);
        let key_of = |s: &Value| -> Value {
            match by {
                "day" => json!(day(s["started_at"]
                    .as_f64()
                    .unwrap_or(s["started"].as_f64().unwrap()))),
                _ => s[by].clone(),
            }
        };
        let mut want: BTreeMap<String, Want> = BTreeMap::new();
        for s in &all {
            let e = want.entry(key_of(s).to_string()).or_default();
            e.0 += 1;
            for (i, k) in ["input", "output", "cache_read", "cache_creation"]
                .iter()
                .enumerate()
            {
                e.1[i] += s["tokens"][k].as_u64().unwrap();
            }
            match s["cost"].as_f64() {
                Some(c) => {
                    e.2 = Some(e.2.unwrap_or(0.0) + c);
                    // Issue 50: stated and estimated apart.
                    let part = usize::from(s["cost_source"] == "estimated");
                    assert_eq!(s["cost_source"], ["stated", "estimated"][part], "{s}");
                    e.4[part] = Some(e.4[part].unwrap_or(0.0) + c);
                }
                None => {
                    assert_eq!(s["cost_source"], "unknown", "{s}");
                    e.3 += 1;
                    for m in models(s).as_array().unwrap() {
                        e.5.insert(m.as_str().unwrap().to_owned());
                    }
                }
            }
        }
        let groups = got["groups"].as_array().unwrap();
        assert_eq!(groups.len(), want.len(), "{by}: {got}");
        for g in groups {
            let w = &want[&g["key"].to_string()];
            assert_eq!(g["sessions"], w.0, "{by} {g}");
            assert_eq!(g["tokens"]["input"], w.1[0], "{by} {g}");
            assert_eq!(g["tokens"]["output"], w.1[1], "{by} {g}");
            assert_eq!(g["tokens"]["cache_read"], w.1[2], "{by} {g}");
            assert_eq!(g["tokens"]["cache_creation"], w.1[3], "{by} {g}");
            match w.2 {
                None => assert!(g["cost"].is_null(), "{by} {g}"),
                Some(c) => assert!((g["cost"].as_f64().unwrap() - c).abs() < 1e-9, "{by} {g}"),
            }
            assert_eq!(g["cost_unknown"], w.3, "{by} {g}");
            assert_eq!(models(g), json!(w.5), "{by} {g}");
            for (k, part) in ["cost_stated", "cost_estimated"].iter().zip(w.4) {
                match part {
                    None => assert!(g[k].is_null(), "{by} {k} {g}"),
                    Some(c) => assert!((g[k].as_f64().unwrap() - c).abs() < 1e-9, "{by} {k} {g}"),
                }
            }
        }
        assert_eq!(got["total"]["sessions"], all.len());
        // `hiveterm usage --json` prints the same.
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_hiveterm"))
            .args(["usage", "--by", by, "--json", "--db", &s.db.spec])
            .output()
            .expect("hiveterm usage");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(cli, got, "{by}");
    }
    // The text report marks an estimate (issue 50: Codex logs state no cost; their gpt-5.5
    // is in the price table), and says "unknown" for a group whose cost nothing says.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .args(["usage", "--by", "agent", "--db", &s.db.spec])
        .output()
        .expect("hiveterm usage");
    let text = String::from_utf8_lossy(&out.stdout);
    let codex = text.lines().find(|l| l.starts_with("codex")).unwrap();
    assert!(codex.contains("≈ $"), "{text}");
    assert!(
        text.lines().next().unwrap().contains("stated  estimated"),
        "{text}"
    );
    let estimated = all
        .iter()
        .filter(|s| s["cost_source"] == "estimated")
        .count();
    let stated = all.iter().filter(|s| s["cost_source"] == "stated").count();
    assert!(estimated > 0 && stated > 0, "{all:?}");
    assert!(text.lines().last().unwrap().starts_with("total"), "{text}");
    // Issue 50: `--prices FILE` prices again the sessions whose logs state none; what the
    // logs state stays.
    let prices = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(prices.path(), r#"{"gpt-5.5": {"input": 0, "output": 0}}"#).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .args([
            "usage", "--by", "agent", "--json", "--db", &s.db.spec, "--prices",
        ])
        .arg(prices.path())
        .output()
        .expect("hiveterm usage --prices");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let priced: Value = serde_json::from_slice(&out.stdout).unwrap();
    let plain = get(a, "/api/usage?by=agent").await;
    for (was, now) in plain["groups"]
        .as_array()
        .unwrap()
        .iter()
        .zip(priced["groups"].as_array().unwrap())
    {
        assert_eq!(was["key"], now["key"]);
        assert_eq!(was["sessions"], now["sessions"]);
        assert_eq!(was["tokens"], now["tokens"]);
        assert_eq!(was["cost_stated"], now["cost_stated"], "{was} {now}");
        if was["key"] == "codex" {
            assert!(was["cost_estimated"].as_f64().unwrap() > 0.0, "{was}");
            assert_eq!(now["cost_estimated"], 0.0, "{now}");
        }
    }
    // `since`: only the sessions started at or after it.
    let later = get(a, "/api/usage?by=agent&since=2100-01-01").await;
    assert_eq!(later["groups"], json!([]));
    assert_eq!(later["since"], json!(4_102_444_800.0));
    let (status, _) = call(a, "GET", "/api/usage?by=week", vec![]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = call(a, "GET", "/api/usage?since=soon", vec![]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn usage_is_the_sum_of_the_sessions_on_sqlite() {
    usage(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn usage_is_the_sum_of_the_sessions_on_postgres() {
    usage(true).await;
}

async fn auth(postgres: bool) {
    let s = server(postgres).await;
    let a = s.addr;
    post(a, "cc", "", prompt("hello")).await;
    let (status, share) = call(a, "POST", "/api/sessions/cc/shares", b"{}".to_vec()).await;
    assert_eq!(status, StatusCode::CREATED, "{share}");
    let share_token = share["url"].as_str().unwrap()["/p/".len()..].to_owned();
    for path in [
        "/api/sessions",
        "/api/sessions?sort=cost",
        "/api/usage",
        "/api/usage?by=agent",
        "/api/index/stream",
    ] {
        let (status, _, _) = send(a, "GET", path, &[], vec![]).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
        let with_share = format!(
            "{path}{}token={share_token}",
            if path.contains('?') { "&" } else { "?" }
        );
        let (status, _, _) = send(a, "GET", &with_share, &[], vec![]).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{with_share}");
        let bearer = format!("Bearer {share_token}");
        let (status, _, _) = send(a, "GET", path, &[("authorization", &bearer)], vec![]).await;
        assert_eq!(
            status,
            StatusCode::UNAUTHORIZED,
            "{path} with a share token"
        );
    }
    for path in ["sessions", "usage", "usage?by=agent", "index/stream"] {
        let (status, _, _) = send(
            a,
            "GET",
            &format!("/p/{share_token}/api/{path}"),
            &[],
            vec![],
        )
        .await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path} under the share");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_token_guards_the_index_and_usage_on_sqlite() {
    auth(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_token_guards_the_index_and_usage_on_postgres() {
    auth(true).await;
}

/// Issue 46.6: the free text a log gives the index (model, project, title record; the
/// agent's version is at most 64 bytes from the summary) is cut when stored and in the answer: a 60,000-character model name on every
/// session made a list of 1,000 sessions 62 MB.
async fn long_names_are_cut(postgres: bool) {
    let s = server(postgres).await;
    let long = "m".repeat(60_000);
    let mut body = line(json!({"type": "system", "subtype": "init", "model": long,
        "claude_code_version": long, "cwd": format!("/{long}"), "session_id": "x"}));
    body.extend(line(json!({"type": "custom-title", "customTitle": long})));
    post(s.addr, "long", "", body).await;
    let list = get(s.addr, "/api/sessions").await;
    let entry = &list["sessions"][0];
    let check = |field: &str, max: usize| {
        let v = entry[field]
            .as_str()
            .unwrap_or_else(|| panic!("{field}: {entry}"));
        assert!(v.chars().count() <= max + 1, "{field}: {} chars", v.len());
        assert!(v.ends_with('…'), "{field} is cut: {v}");
    };
    check("model", hiveterm::index::MAX_NAME_CHARS);
    check("project", hiveterm::index::MAX_TEXT_CHARS);
    check("title", hiveterm::index::MAX_TEXT_CHARS);
    assert!(
        list.to_string().len() < 8_000,
        "{} bytes",
        list.to_string().len()
    );
    // Stored cut too (what a list, the usage groups and the index stream read).
    let stored =
        s.db.query_one("SELECT CAST(length(model) AS TEXT) FROM sessions WHERE id = 'long'");
    assert_eq!(stored, (hiveterm::index::MAX_NAME_CHARS + 1).to_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_46_6_long_model_names_are_cut_on_sqlite() {
    long_names_are_cut(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_46_6_long_model_names_are_cut_on_postgres() {
    long_names_are_cut(true).await;
}

/// Issue 45.3: Claude Code 2.1.332 transcripts state their cost only in `cost-state` lines;
/// every Claude session in the index, `usage`, `/state` and the summary said "unknown". The
/// stated cost is in all of them, and a stream and a transcript of the same run posted to one
/// session count it once.
async fn transcript_cost(postgres: bool) {
    let s = server(postgres).await;
    let a = s.addr;
    let read = |rel: &str| std::fs::read(fixture_path(rel)).unwrap();
    post(
        a,
        "t",
        "",
        read("claude-code-2.1.332/tool_errors.transcript.jsonl"),
    )
    .await;
    let mut both = read("claude-code-2.1.332/tool_errors.stream.jsonl");
    both.extend(read("claude-code-2.1.332/tool_errors.transcript.jsonl"));
    post(a, "both", "", both).await;
    let listed = by_id(&all_pages(a, "", 100).await);
    for id in ["t", "both"] {
        assert_eq!(listed[id]["cost"], 0.021136, "{id}: {}", listed[id]);
        let summary = get(a, &format!("/api/sessions/{id}/summary")).await;
        assert_eq!(summary["cost_usd"], 0.021136, "{id}");
        let state = get(a, &format!("/api/sessions/{id}/state")).await;
        assert_eq!(state["cost_usd"], 0.021136, "{id}");
    }
    let usage = get(a, "/api/usage?by=agent").await;
    let claude = &usage["groups"][0];
    assert_eq!(claude["key"], "claude-code", "{usage}");
    assert!(
        (claude["cost"].as_f64().unwrap() - 0.042272).abs() < 1e-9,
        "{usage}"
    );
    assert_eq!(claude["cost_unknown"], 0, "{usage}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .args(["usage", "--by", "agent", "--db", &s.db.spec])
        .output()
        .expect("hiveterm usage");
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().find(|l| l.starts_with("claude-code")).unwrap();
    assert!(!line.ends_with("unknown"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_45_a_transcripts_stated_cost_is_in_the_index_usage_and_state_on_sqlite() {
    transcript_cost(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_45_a_transcripts_stated_cost_is_in_the_index_usage_and_state_on_postgres() {
    transcript_cost(true).await;
}

/// Issue 46.2: the summary fold had no bound and every checkpoint stored all of it (a log of
/// 66,038 `Write` calls made 526 MB of checkpoints). Each checkpoint's summary column now
/// holds the first 256 paths and fingerprints of at most 4,096: under 200 KB, where 20,000
/// paths took 1.2 MB; the summary says how many it does not list.
async fn checkpoints_stay_small(postgres: bool) {
    // Checkpoints as a server places them (every 256 events).
    let s = server_every(postgres, 256).await;
    let mut body = Vec::new();
    for i in 0..20_000 {
        let path = format!("/home/dev/work/big/src/module_{}/file_{i:06}.rs", i / 100);
        body.extend(line(
            json!({"type": "assistant", "message": {"id": format!("m{i}"),
            "role": "assistant", "content": [{"type": "tool_use", "id": format!("t{i}"),
            "name": "Write", "input": {"file_path": path, "content": "x"}}]}}),
        ));
    }
    post(s.addr, "writes", "", body).await;
    let biggest = s.db.query_one(
        "SELECT CAST(MAX(LENGTH(summary)) AS TEXT) FROM checkpoints WHERE session = 'writes'",
    );
    let biggest: usize = biggest.parse().unwrap();
    assert!(biggest < 200_000, "{biggest} bytes");
    let summary = get(s.addr, "/api/sessions/writes/summary").await;
    assert_eq!(summary["files_changed"].as_array().unwrap().len(), 256);
    assert_eq!(summary["files_changed_more"], 20_000 - 256);
    assert_eq!(summary["tool_calls"]["Write"], 20_000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_46_2_checkpoints_stay_small_on_sqlite() {
    checkpoints_stay_small(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_46_2_checkpoints_stay_small_on_postgres() {
    checkpoints_stay_small(true).await;
}

/// Issue 50: a server started with other prices than those the stored estimates were made
/// with prices again each session whose log states no cost, from its stored tokens: cheaper,
/// of no price (unknown, the model named), and back; what the logs state stays.
async fn repriced_at_start(postgres: bool) {
    use hiveterm::prices::{fingerprint, parse};
    let dir = tempfile::tempdir().unwrap();
    let db = if postgres {
        DbSpec::fresh_postgres(dir.path())
    } else {
        DbSpec::fresh_sqlite(dir.path())
    };
    let builtin = classifier::prices::Prices::builtin();
    let cheap = parse(r#"{"gpt-4.1": {"input": 1, "output": 1, "cache_read": 0}}"#).unwrap();
    let unpriced = classifier::prices::Prices::builtin().with("gpt-4.1", vec![]);
    let rollout = repo().join("classifier/tests/prices/codex-gpt-4.1.rollout.jsonl");
    let mut before: Option<BTreeMap<String, Value>> = None;
    for (step, prices) in [&builtin, &cheap, &unpriced, &builtin, &builtin]
        .into_iter()
        .enumerate()
    {
        let store = Store::open_priced(&db.spec, 4, prices).expect("open");
        let config = Config {
            token: Some(TOKEN.into()),
            static_dir: dir.path().join("dist"),
            ..Config::default()
        };
        let a = spawn_server(AppState::new(store.clone(), config)).await;
        if step == 0 {
            post_logs(a).await;
            post(a, "g41", "", std::fs::read(&rollout).unwrap()).await;
        }
        let now = by_id(&all_pages(a, "", 1000).await);
        let g41 = &now["g41"];
        match step {
            1 => {
                assert!((g41["cost"].as_f64().unwrap() - 0.65).abs() < 1e-9, "{g41}");
                assert_eq!(g41["cost_source"], "estimated", "{g41}");
            }
            2 => {
                assert!(g41["cost"].is_null(), "{g41}");
                assert_eq!(g41["cost_source"], "unknown", "{g41}");
                assert_eq!(models(g41), json!(["gpt-4.1"]), "{g41}");
                let usage = get(a, "/api/usage?by=model").await;
                let group = usage["groups"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|g| g["key"] == "gpt-4.1")
                    .unwrap();
                assert_eq!(group["cost_unknown"], 1, "{usage}");
                assert_eq!(models(group), json!(["gpt-4.1"]), "{usage}");
                assert!(
                    models(&usage["total"])
                        .as_array()
                        .unwrap()
                        .contains(&json!("gpt-4.1")),
                    "{usage}"
                );
            }
            _ => {
                assert!((g41["cost"].as_f64().unwrap() - 1.80).abs() < 1e-9, "{g41}");
                assert_eq!(g41["cost_source"], "estimated", "{g41}");
                assert_eq!(models(g41), json!([]), "{g41}");
            }
        }
        // Every other session is as it was: stated costs are never touched, and no other
        // model's price changed.
        let first = before.get_or_insert_with(|| now.clone());
        for (id, s) in &now {
            if id != "g41" {
                assert_eq!(s, &first[id], "step {step}");
            }
        }
        assert_eq!(
            db.query_one("SELECT value FROM meta WHERE key = 'prices'"),
            fingerprint(prices),
            "step {step}"
        );
        store.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_50_stored_estimates_are_priced_again_at_start_on_sqlite() {
    repriced_at_start(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_50_stored_estimates_are_priced_again_at_start_on_postgres() {
    repriced_at_start(true).await;
}

/// An entry's or a group's `unpriced_models` (left out when empty).
fn models(v: &Value) -> Value {
    v.get("unpriced_models").cloned().unwrap_or(json!([]))
}
