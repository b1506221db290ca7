//! Search across every session (issue 22): `GET /api/search` and `hiveterm search`, on SQLite
//! and on PostgreSQL (127.0.0.1:5432, database `test`, a fresh schema each; a missing server
//! fails). The hits of many queries — substrings cut from the corpus's rows in random case,
//! and strings of `%`, `_`, `*`, quotes and ` OR ` — are exactly a brute-force scan of the
//! stored envelopes, in order, each once through the cursor's pages; the same after the
//! derived tables are rebuilt; the token guards it and a share link reaches none of it.

mod common;

use std::net::SocketAddr;

use axum::http::StatusCode;
use common::{DbSpec, all_history, call_json, cli, send, spawn_server};
use hiveterm::{AppState, Config, Store};
use http_body_util::BodyExt;
use serde_json::{Value, json};

/// One stored row, as the history API serves it.
#[derive(Debug, Clone)]
struct StoredRow {
    ts: f64,
    session: String,
    seq: u64,
    row: u64,
    level: String,
    icon: Value,
    summary: String,
    body: String,
    /// Its session's agent and project, as the index lists them.
    agent: Option<String>,
    project: Option<String>,
    /// The tool it calls, as the classifier reads the row.
    tool: Option<String>,
}

/// Where a hit is: session, seq, row.
type At = (String, u64, u64);

/// A database on one backend, served.
struct Served {
    db: DbSpec,
    _dir: tempfile::TempDir,
    state: AppState,
    addr: SocketAddr,
}

impl Served {
    async fn new(postgres: bool, config: Config) -> Served {
        let dir = tempfile::tempdir().unwrap();
        let db = if postgres {
            DbSpec::fresh_postgres(dir.path())
        } else {
            DbSpec::fresh_sqlite(dir.path())
        };
        let store = Store::open_db(&db.spec, 4).expect("open");
        let state = AppState::new(store, config);
        let addr = spawn_server(state.clone()).await;
        Served {
            db,
            _dir: dir,
            state,
            addr,
        }
    }

    /// Closed, the derived tables marked stale and the index emptied, opened again (which
    /// rebuilds them), served again.
    async fn rebuilt(mut self) -> Served {
        self.state.store().close().await;
        if self.db.is_postgres() {
            self.db.sql(
                "UPDATE meta SET value = 'stale' WHERE key = 'derived'; DELETE FROM search_rows;",
            );
        } else {
            self.db.sql(
                "UPDATE meta SET value = 'stale' WHERE key = 'derived';
                 INSERT INTO search_fts(search_fts) VALUES ('delete-all');
                 DELETE FROM search_rows;",
            );
        }
        let store = Store::open_db(&self.db.spec, 4).expect("reopen");
        self.state = AppState::new(store, Config::default());
        self.addr = spawn_server(self.state.clone()).await;
        self
    }
}

/// Every byte but letters and digits as `%XX`.
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

/// The repository's small logs, each a session.
fn corpus_files() -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let root = common::repo().join("fixtures");
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "jsonl")
                && std::fs::metadata(&path).unwrap().len() < 100_000
            {
                files.push(path);
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .enumerate()
        .map(|(i, path)| {
            let stem: String = path
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .take(60)
                .collect();
            (format!("f{i:02}-{stem}"), std::fs::read(&path).unwrap())
        })
        .collect()
}

/// Posts the corpus; answers every stored row.
async fn ingest(addr: SocketAddr, auth: &[(&str, &str)]) -> Vec<StoredRow> {
    let files = corpus_files();
    assert!(files.len() > 30, "{} logs", files.len());
    for (id, bytes) in &files {
        let (status, _, _) = send(
            addr,
            "POST",
            &format!("/api/sessions/{id}/events"),
            auth,
            bytes.clone(),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{id}");
    }
    if !auth.is_empty() {
        return Vec::new();
    }
    let ids: Vec<String> = files.into_iter().map(|(id, _)| id).collect();
    stored_rows(addr, &ids).await
}

/// Every stored row of sessions `ids`.
async fn stored_rows(addr: SocketAddr, ids: &[String]) -> Vec<StoredRow> {
    let mut rows = Vec::new();
    for id in ids {
        let (_, listed) = call_json(addr, "GET", &format!("/api/sessions/{id}"), Vec::new()).await;
        let text = |k: &str| listed[k].as_str().map(str::to_owned);
        let (agent, project) = (text("agent"), text("project"));
        for env in all_history(addr, id, 1000).await {
            for (i, m) in env["msgs"].as_array().unwrap().iter().enumerate() {
                let msg: classifier::TermMsg = serde_json::from_value(m.clone()).unwrap();
                rows.push(StoredRow {
                    agent: agent.clone(),
                    project: project.clone(),
                    tool: classifier::tool_of(&msg).map(str::to_owned),
                    ts: env["ts"].as_f64().unwrap_or(0.0),
                    session: id.clone(),
                    seq: env["seq"].as_u64().unwrap(),
                    row: i as u64,
                    level: m["level"].as_str().unwrap().to_owned(),
                    icon: m.get("icon").cloned().unwrap_or(Value::Null),
                    summary: m["summary"].as_str().unwrap().to_owned(),
                    body: m["body"].as_str().unwrap_or_default().to_owned(),
                });
            }
        }
    }
    rows
}

/// Whether `hay` holds `needle`, ASCII case folded.
fn holds(hay: &str, needle: &str) -> bool {
    hay.to_ascii_lowercase()
        .contains(&needle.to_ascii_lowercase())
}

/// The brute-force answer: every row holding `q` (and passing the filter `keep`), newest
/// event first, then session, seq and row descending.
fn brute(rows: &[StoredRow], q: &str, keep: impl Fn(&StoredRow) -> bool) -> Vec<At> {
    let mut hits: Vec<&StoredRow> = rows
        .iter()
        .filter(|r| holds(&r.summary, q) || holds(&r.body, q))
        .filter(|r| keep(r))
        .collect();
    hits.sort_by(|a, b| {
        b.ts.total_cmp(&a.ts)
            .then_with(|| b.session.as_bytes().cmp(a.session.as_bytes()))
            .then(b.seq.cmp(&a.seq))
            .then(b.row.cmp(&a.row))
    });
    hits.into_iter()
        .map(|r| (r.session.clone(), r.seq, r.row))
        .collect()
}

/// Every hit of `query` (the query string after `q=…`), page after page of `limit`.
async fn search_all(addr: SocketAddr, q: &str, extra: &str, limit: usize) -> Vec<Value> {
    let mut hits = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut uri = format!("/api/search?q={}&limit={limit}{extra}", encode(q));
        if let Some(c) = &cursor {
            uri.push_str(&format!("&cursor={}", encode(c)));
        }
        let (status, page) = call_json(addr, "GET", &uri, Vec::new()).await;
        assert_eq!(status, StatusCode::OK, "{uri}: {page}");
        let got = page["hits"].as_array().unwrap();
        assert!(got.len() <= limit, "{uri}");
        hits.extend(got.iter().cloned());
        match page["next"].as_str() {
            Some(next) => {
                assert_eq!(got.len(), limit, "a page before the last is full: {uri}");
                cursor = Some(next.to_owned());
            }
            None => break,
        }
    }
    hits
}

fn at(hit: &Value) -> At {
    (
        hit["session"].as_str().unwrap().to_owned(),
        hit["seq"].as_u64().unwrap(),
        hit["row"].as_u64().unwrap(),
    )
}

/// A small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Queries: substrings of the rows' texts (3-16 characters, ASCII letters in random case),
/// and strings of the characters a query language would read.
fn queries(rows: &[StoredRow], n: usize) -> Vec<String> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out: Vec<String> = [
        "%%%",
        "___",
        "***",
        "a_b",
        "50%",
        "%_%",
        "*.rs",
        "\"type\"",
        "\"\"\"",
        " OR ",
        "a OR b",
        "\\n\\",
        "'; --",
        "NEAR(",
        "ERROR",
        "error",
        "ENOENT",
        "rm -rf",
        "src/",
        "zzzqqqxxx",
        "tool",
        "Bash",
        ".md",
        "(no output)",
        "\"",
        "{\"",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .filter(|s| s.chars().count() >= 3)
    .collect();
    let texts: Vec<&str> = rows
        .iter()
        .flat_map(|r| [r.summary.as_str(), r.body.as_str()])
        .filter(|t| t.chars().count() >= 3)
        .collect();
    while out.len() < n {
        let text: Vec<char> = texts[rng.below(texts.len())].chars().collect();
        let len = 3 + rng.below(14).min(text.len() - 3);
        let start = rng.below(text.len() - len + 1);
        let q: String = text[start..start + len]
            .iter()
            .map(|&c| {
                if rng.below(2) == 0 {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect();
        if q.len() <= 256 && !q.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
            out.push(q);
        }
    }
    out
}

/// The hits of `q` are the brute-force scan's, in its order, each once, each hit's row and
/// snippet right.
async fn check_exact(addr: SocketAddr, rows: &[StoredRow], q: &str, limit: usize, what: &str) {
    let hits = search_all(addr, q, "", limit).await;
    let got: Vec<At> = hits.iter().map(at).collect();
    let want = brute(rows, q, |_| true);
    assert_eq!(got, want, "{what}: hits of {q:?}");
    for hit in &hits {
        let row = rows
            .iter()
            .find(|r| (r.session.clone(), r.seq, r.row) == at(hit))
            .unwrap();
        assert_eq!(hit["summary"], row.summary.as_str(), "{what}: {q:?}");
        assert_eq!(hit["level"], row.level.as_str());
        assert_eq!(hit["icon"], row.icon);
        let flat = q.replace(['\n', '\t'], " ");
        assert!(
            holds(hit["snippet"].as_str().unwrap(), &flat),
            "{what}: snippet {} of {q:?}",
            hit["snippet"]
        );
    }
}

async fn exactness_on(postgres: bool) {
    let what = if postgres { "postgres" } else { "sqlite" };
    let s = Served::new(postgres, Config::default()).await;
    let rows = ingest(s.addr, &[]).await;
    assert!(rows.len() > 500, "{} rows", rows.len());
    let queries = queries(&rows, 160);
    let mut some_hits = 0;
    for (i, q) in queries.iter().enumerate() {
        let limit = if i % 5 == 0 { 3 } else { 500 };
        check_exact(s.addr, &rows, q, limit, what).await;
        some_hits += usize::from(!brute(&rows, q, |_| true).is_empty());
    }
    assert!(some_hits > 120, "{some_hits} queries with hits");
    // The filters, each alone and two together.
    let session = rows[rows.len() / 2].session.clone();
    let agent = |a: &str| rows.iter().any(|r| r.agent.as_deref() == Some(a));
    assert!(agent("codex") && agent("gemini") && agent("claude-code"));
    let project = rows
        .iter()
        .find_map(|r| r.project.clone())
        .expect("a session with a project");
    let mut tools: Vec<String> = rows.iter().filter_map(|r| r.tool.clone()).collect();
    tools.sort();
    tools.dedup();
    assert!(tools.len() > 5, "{tools:?}");
    let mut times: Vec<f64> = rows.iter().map(|r| r.ts).collect();
    times.sort_by(f64::total_cmp);
    let since = times[times.len() / 2];
    type Keep<'a> = Box<dyn Fn(&StoredRow) -> bool + 'a>;
    for (n, q) in queries[..40].iter().enumerate() {
        let tool = tools[n % tools.len()].clone();
        let filters: Vec<(String, Keep)> = vec![
            (
                format!("&session={session}"),
                Box::new(|r| r.session == session),
            ),
            ("&level=error".into(), Box::new(|r| r.level == "error")),
            ("&level=debug".into(), Box::new(|r| r.level == "debug")),
            (
                "&agent=codex".into(),
                Box::new(|r| r.agent.as_deref() == Some("codex")),
            ),
            (
                "&agent=gemini&level=info".into(),
                Box::new(|r| r.agent.as_deref() == Some("gemini") && r.level == "info"),
            ),
            (
                format!("&project={}", encode(&project)),
                Box::new(|r| r.project.as_ref() == Some(&project)),
            ),
            (
                format!("&tool={}", encode(&tool)),
                Box::new(|r| r.tool.as_ref() == Some(&tool)),
            ),
            (format!("&since={since}"), Box::new(|r| r.ts >= since)),
        ];
        for (extra, keep) in filters {
            let want = brute(&rows, q, keep);
            let got: Vec<At> = search_all(s.addr, q, &extra, 50)
                .await
                .iter()
                .map(at)
                .collect();
            assert_eq!(got, want, "{what}: {q:?}{extra}");
        }
    }
    // A tool's calls, whatever their text: a query every call of it holds (its name).
    for tool in &tools {
        if tool.chars().count() < 3 {
            continue;
        }
        let got: Vec<At> = search_all(s.addr, tool, &format!("&tool={}", encode(tool)), 500)
            .await
            .iter()
            .map(at)
            .collect();
        let want = brute(&rows, tool, |r| r.tool.as_ref() == Some(tool));
        assert!(!want.is_empty(), "{what}: calls of {tool}");
        assert_eq!(got, want, "{what}: calls of {tool}");
    }

    // The derived tables rebuilt: the same answers.
    let sample = &queries[..30];
    let mut before = Vec::new();
    for q in sample {
        before.push(search_all(s.addr, q, "", 7).await);
    }
    let s = s.rebuilt().await;
    for (q, before) in sample.iter().zip(before) {
        assert_eq!(
            search_all(s.addr, q, "", 7).await,
            before,
            "{what}: {q:?} rebuilt"
        );
    }

    // `hiveterm search --json` answers what the API does.
    for q in ["tool", "ERROR", "%_%", "\" OR \""] {
        for (args, query) in [
            (vec![q, "--json"], format!("q={}", encode(q))),
            (
                vec![q, "--json", "--limit", "2", "--level", "info"],
                format!("q={}&limit=2&level=info", encode(q)),
            ),
            (
                vec![q, "--json", "--agent", "codex", "--since", "2020-01-01"],
                format!("q={}&agent=codex&since=2020-01-01", encode(q)),
            ),
            (
                vec![q, "--json", "--tool", "Bash"],
                format!("q={}&tool=Bash", encode(q)),
            ),
        ] {
            let (ok, out, err) = cli("search", &s.db.spec, &args);
            assert!(ok, "{err}");
            let cli: Value = serde_json::from_str(out.trim()).unwrap();
            let (status, api) =
                call_json(s.addr, "GET", &format!("/api/search?{query}"), Vec::new()).await;
            assert_eq!(status, StatusCode::OK);
            assert_eq!(cli, api, "{what}: hiveterm search {args:?}");
        }
    }
    let (ok, out, _) = cli("search", &s.db.spec, &["tool", "--limit", "3"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    let (_, api) = call_json(s.addr, "GET", "/api/search?q=tool&limit=3", Vec::new()).await;
    let want: Vec<String> = api["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            format!(
                "{} {} {} {} {}",
                h["session"].as_str().unwrap(),
                h["seq"],
                h["level"].as_str().unwrap(),
                h["icon"].as_str().unwrap_or("-"),
                h["summary"].as_str().unwrap().replace(['\n', '\t'], " ")
            )
        })
        .collect();
    assert_eq!(lines, want, "{what}: hiveterm search text");
}

#[tokio::test]
async fn hits_are_exactly_the_rows_holding_the_query_on_sqlite() {
    exactness_on(false).await;
}

#[tokio::test]
async fn hits_are_exactly_the_rows_holding_the_query_on_postgres() {
    exactness_on(true).await;
}

/// A common query (more matches than SQLite's rare limit, 5,000) is read another way — the
/// rows in the hits' order, each looked at — and a rare one among old rows from the index:
/// the hits are exactly the brute-force scan's either way, page after page, filtered or not,
/// non-ASCII letters as written.
async fn common_queries_on(postgres: bool) {
    let what = if postgres { "postgres" } else { "sqlite" };
    let s = Served::new(postgres, Config::default()).await;
    let mut ids = Vec::new();
    for part in 0..11 {
        let mut body = String::new();
        for i in 0..2200 {
            let case = ["Common", "COMMON", "common"][i % 3];
            let letter = if i % 2 == 0 { "É" } else { "é" };
            if i % 5 == 0 {
                body.push_str(&format!("{{\"type\":\"assistant\",\"message\":{{\"role\":\"assistant\",\"content\":[{{\"type\":\"tool_use\",\"id\":\"t{part}-{i}\",\"name\":\"Bash\",\"input\":{{\"command\":\"echo {case} {letter}{i}\"}}}}]}}}}\n"));
            } else {
                body.push_str(&format!("not json {case} {letter} row {part}-{i}\n"));
            }
        }
        let id = format!("common-{part}");
        let (status, _, _) = send(
            s.addr,
            "POST",
            &format!("/api/sessions/{id}/events"),
            &[],
            body.into_bytes(),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        ids.push(id);
    }
    let rows = stored_rows(s.addr, &ids).await;
    assert!(rows.len() >= 24_000, "{} rows", rows.len());
    for (q, extra) in [
        ("common", ""),
        ("row 0-21", ""),
        ("row 0-", "&level=error"),
        ("É row 1-", ""),
        ("MON É", ""),
        ("mon é", ""),
        ("row 1-2", ""),
        ("common", "&session=common-1"),
        ("common", "&tool=Bash"),
        ("common", "&level=error"),
    ] {
        let got: Vec<At> = search_all(s.addr, q, extra, 500)
            .await
            .iter()
            .map(at)
            .collect();
        let want = brute(&rows, q, |r| match extra {
            "&session=common-1" => r.session == "common-1",
            "&tool=Bash" => r.tool.as_deref() == Some("Bash"),
            "&level=error" => r.level == "error",
            _ => true,
        });
        assert!(!want.is_empty(), "{what}: {q:?}{extra}");
        assert_eq!(got, want, "{what}: {q:?}{extra}");
    }
    // The first page of a common query, as the start page asks it.
    let first = search_all(s.addr, "common", "", 50).await;
    assert_eq!(first.len(), brute(&rows, "common", |_| true).len());
}

#[tokio::test]
async fn common_queries_are_exact_on_sqlite() {
    common_queries_on(false).await;
}

#[tokio::test]
async fn common_queries_are_exact_on_postgres() {
    common_queries_on(true).await;
}

/// A new event's rows are found as soon as it is stored.
#[tokio::test]
async fn new_rows_are_found_once_stored() {
    for postgres in [false, true] {
        let s = Served::new(postgres, Config::default()).await;
        let line = json!({"kind": "note", "text": "stderr: Needle-In-The-Haystack 42%_*"});
        let (status, _, _) = send(
            s.addr,
            "POST",
            "/api/sessions/one/events",
            &[],
            format!("{line}\n").into_bytes(),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        let hits = search_all(s.addr, "needle-in-the-HAYSTACK 42%_*", "", 10).await;
        assert_eq!(hits.len(), 1, "{hits:?}");
        assert_eq!(hits[0]["session"], "one");
        assert_eq!(hits[0]["seq"], 1);
        assert!(
            search_all(s.addr, "haystack 42%_x", "", 10)
                .await
                .is_empty()
        );
        // ASCII case folding only: `Ä` and `ä` differ (the indexes fold more; the hits don't).
        let line = json!({"kind": "note", "text": "stderr: Größe ÄRGER"});
        let (status, _, _) = send(
            s.addr,
            "POST",
            "/api/sessions/one/events",
            &[],
            format!("{line}\n").into_bytes(),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        assert!(search_all(s.addr, "äRGER", "", 10).await.is_empty());
        assert_eq!(search_all(s.addr, "ÄrgeR", "", 10).await.len(), 1);
        assert_eq!(search_all(s.addr, "GRÖ", "", 10).await.len(), 0);
        assert_eq!(search_all(s.addr, "gRö", "", 10).await.len(), 1);
    }
}

/// `q` too short, too long, odd parameters: `400` with a message.
#[tokio::test]
async fn bad_queries_are_refused() {
    let s = Served::new(false, Config::default()).await;
    for query in [
        "",
        "q=",
        "q=ab",
        "q=%C3%A4b",
        &format!("q={}", "x".repeat(257)),
        "q=abc&level=loud",
        "q=abc&limit=many",
        "q=abc&cursor=nonsense",
        "q=abc&session=..",
        "q=abc&since=later",
        "q=abc&tool=a%20b",
        "q=a%00bc",
    ] {
        let (status, v) = call_json(s.addr, "GET", &format!("/api/search?{query}"), vec![]).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {v}");
        assert!(v["error"].is_string(), "{query}: {v}");
    }
    let (status, v) = call_json(s.addr, "GET", "/api/search?q=abc", vec![]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v, json!({"hits": [], "next": null}));
}

/// Without the server's token `401`; a share link's token opens none of it.
#[tokio::test]
async fn the_token_guards_search_and_a_share_reaches_none_of_it() {
    for postgres in [false, true] {
        let config = Config {
            token: Some("server-token".into()),
            ..Config::default()
        };
        let s = Served::new(postgres, config).await;
        let auth = [("authorization", "Bearer server-token")];
        ingest(s.addr, &auth).await;
        let id = corpus_files()[0].0.clone();
        let (status, _) = call_json(s.addr, "GET", "/api/search?q=tool", vec![]).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let (status, _, body) = send(s.addr, "GET", "/api/search?q=tool", &auth, vec![]).await;
        assert_eq!(status, StatusCode::OK);
        let v: Value = serde_json::from_slice(&body.collect().await.unwrap().to_bytes()).unwrap();
        assert!(!v["hits"].as_array().unwrap().is_empty());
        let (status, _) = call_json(
            s.addr,
            "GET",
            "/api/search?q=tool&token=server-token",
            vec![],
        )
        .await;
        assert_eq!(status, StatusCode::OK);

        let (status, _, body) = send(
            s.addr,
            "POST",
            &format!("/api/sessions/{id}/shares"),
            &[auth[0], ("content-type", "application/json")],
            b"{}".to_vec(),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED);
        let v: Value = serde_json::from_slice(&body.collect().await.unwrap().to_bytes()).unwrap();
        let url = v["url"].as_str().unwrap().to_owned();
        let token = url["/p/".len()..].to_owned();
        let (status, _) = call_json(s.addr, "GET", &format!("{url}/api/state"), vec![]).await;
        assert_eq!(status, StatusCode::OK, "the share opens its own reads");
        let bearer = format!("Bearer {token}");
        for (path, headers) in [
            (format!("{url}/api/search?q=tool"), vec![]),
            (format!("{url}/search?q=tool"), vec![]),
            (
                format!("{url}/api/sessions/{id}/../../search?q=tool"),
                vec![],
            ),
            (format!("/api/search?q=tool&token={token}"), vec![]),
            (
                "/api/search?q=tool".to_owned(),
                vec![("authorization", bearer.as_str())],
            ),
        ] {
            let (status, _, body) = send(s.addr, "GET", &path, &headers, vec![]).await;
            let body = body.collect().await.unwrap().to_bytes();
            assert!(
                status == StatusCode::UNAUTHORIZED || status == StatusCode::NOT_FOUND,
                "{path}: {status}"
            );
            assert!(
                !String::from_utf8_lossy(&body).contains("\"hits\""),
                "{path} answered hits"
            );
        }
    }
}
