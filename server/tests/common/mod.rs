//! Shared by the server's tests and its load benchmark: a store in a temp dir, the router,
//! a server on port 0, and a minimal HTTP/1.1 + SSE client over hyper.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::Path;

use axum::body::Bytes;
use axum::http::{HeaderMap, Request, StatusCode};
use hiveterm::{AppState, Config, Store};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use serde_json::Value;

/// A file's non-blank lines.
pub fn lines_of(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect()
}

/// The repository's root.
pub fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
}

/// A fixture's bytes.
pub fn fixture(rel: &str) -> Vec<u8> {
    std::fs::read(repo().join("fixtures").join(rel)).expect("fixture")
}

/// The PostgreSQL server tests use when `HIVETERM_TEST_DB=postgres`.
pub const TEST_POSTGRES: &str = "postgres://root@127.0.0.1:5432/test";

/// Whether the suite runs against PostgreSQL: `HIVETERM_TEST_DB=postgres` (CI runs the
/// server's suite once per backend; a PostgreSQL server that is not there fails the tests).
pub fn on_postgres() -> bool {
    std::env::var("HIVETERM_TEST_DB").is_ok_and(|v| v == "postgres")
}

/// Runs `f` with a fresh connection to `url` on a thread of its own (callable from sync
/// code and from inside a runtime alike).
pub fn with_postgres<T: Send>(
    url: &str,
    f: impl AsyncFnOnce(&tokio_postgres::Client) -> T + Send,
) -> T {
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("runtime");
                rt.block_on(async {
                    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
                        .await
                        .unwrap_or_else(|e| panic!("PostgreSQL at {url}: {e}"));
                    let driver = tokio::spawn(conn);
                    let out = f(&client).await;
                    drop(client);
                    let _ = driver.await;
                    out
                })
            })
            .join()
            .expect("PostgreSQL helper thread")
    })
}

/// A new empty schema in the test database, and the URL of the database with it first on
/// the search path: each test gets its own tables.
pub fn fresh_postgres_schema() -> (String, String) {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let schema = format!(
        "t_{}_{}_{nanos}",
        std::process::id(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    static TRGM: std::sync::Once = std::sync::Once::new();
    TRGM.call_once(|| {
        // The migrations create pg_trgm where it is not yet: in the first test schema of all,
        // whose drop (with its test) then dropped every other schema's trigram indexes under
        // a running test (a deadlock, or a search without its index). It lives in `public`.
        with_postgres(TEST_POSTGRES, async |c| {
            // Each alone: one failing (it is there already) must not undo the other.
            let _ = c
                .batch_execute("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
                .await;
            let _ = c
                .batch_execute("ALTER EXTENSION pg_trgm SET SCHEMA public")
                .await;
        });
    });
    with_postgres(TEST_POSTGRES, async |c| {
        c.batch_execute(&format!("CREATE SCHEMA {schema}"))
            .await
            .expect("create schema")
    });
    let url = format!("{TEST_POSTGRES}?options=-c%20search_path%3D{schema}");
    (schema, url)
}

/// A fresh database: `spec` (what `--db` and `Store::open_db` take) is a file in a directory,
/// or with `HIVETERM_TEST_DB=postgres` the URL of a fresh schema (dropped with it).
pub struct DbSpec {
    pub spec: String,
    schema: Option<String>,
}

impl DbSpec {
    /// On the backend the suite runs against.
    pub fn fresh(dir: &Path) -> DbSpec {
        if on_postgres() {
            DbSpec::fresh_postgres(dir)
        } else {
            DbSpec {
                spec: dir.join("test.db").display().to_string(),
                schema: None,
            }
        }
    }

    /// On SQLite (a file in `dir`), whatever the suite runs against.
    pub fn fresh_sqlite(dir: &Path) -> DbSpec {
        DbSpec {
            spec: dir.join("test.db").display().to_string(),
            schema: None,
        }
    }

    /// On PostgreSQL, whatever the suite runs against.
    pub fn fresh_postgres(_dir: &Path) -> DbSpec {
        let (schema, spec) = fresh_postgres_schema();
        DbSpec {
            spec,
            schema: Some(schema),
        }
    }

    pub fn is_postgres(&self) -> bool {
        self.schema.is_some()
    }

    /// Runs SQL statements on the database, beside the server.
    pub fn sql(&self, sql: &str) {
        if self.is_postgres() {
            with_postgres(&self.spec, async |c| c.batch_execute(sql).await.expect(sql));
        } else {
            let conn = rusqlite::Connection::open(&self.spec).unwrap();
            conn.execute_batch(sql).expect(sql);
        }
    }

    /// The first column of the first row of a query, as text.
    pub fn query_one(&self, sql: &str) -> String {
        if self.is_postgres() {
            with_postgres(&self.spec, async |c| {
                c.query_one(sql, &[]).await.expect(sql).get::<_, String>(0)
            })
        } else {
            let conn = rusqlite::Connection::open(&self.spec).unwrap();
            conn.query_row(sql, [], |r| r.get::<_, String>(0))
                .expect(sql)
        }
    }

    /// A session's events as stored, oldest first.
    pub fn raw_events(&self, session: &str) -> Vec<RawEvent> {
        let sql = "SELECT seq, ts, raw, cut_len FROM events WHERE session = $1 ORDER BY seq";
        if self.is_postgres() {
            with_postgres(&self.spec, async |c| {
                let rows = c.query(sql, &[&session]).await.expect(sql);
                rows.iter()
                    .map(|r| RawEvent {
                        seq: r.get::<_, i64>(0) as u64,
                        ts: r.get(1),
                        raw: r.get(2),
                        cut_len: r.get(3),
                    })
                    .collect()
            })
        } else {
            let conn = rusqlite::Connection::open(&self.spec).unwrap();
            let mut stmt = conn.prepare(&sql.replace("$1", "?1")).unwrap();
            stmt.query_map([session], |r| {
                Ok(RawEvent {
                    seq: r.get::<_, i64>(0)? as u64,
                    ts: r.get(1)?,
                    raw: r.get(2)?,
                    cut_len: r.get(3)?,
                })
            })
            .unwrap()
            .map(Result::unwrap)
            .collect()
        }
    }
}

impl Drop for DbSpec {
    fn drop(&mut self) {
        if let Some(schema) = &self.schema {
            with_postgres(TEST_POSTGRES, async |c| {
                // A connection left in a transaction must not hang the test.
                let _ = c
                    .batch_execute(&format!(
                        "SET lock_timeout = '5s'; DROP SCHEMA {schema} CASCADE"
                    ))
                    .await;
            });
        }
    }
}

/// One stored event as the database holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawEvent {
    pub seq: u64,
    pub ts: f64,
    pub raw: Vec<u8>,
    pub cut_len: Option<i64>,
}

/// A fresh database (see [`DbSpec`]) opened as a store, with a small checkpoint interval so
/// tests cross many.
pub struct TestDb {
    pub state: AppState,
    pub db: DbSpec,
    pub dir: tempfile::TempDir,
}

impl TestDb {
    pub fn new() -> TestDb {
        TestDb::with(Config::default(), 4)
    }

    pub fn with(mut config: Config, checkpoint_every: u64) -> TestDb {
        let dir = tempfile::tempdir().expect("tempdir");
        let db = DbSpec::fresh(dir.path());
        let store = Store::open_db(&db.spec, checkpoint_every).expect("open");
        config.static_dir = dir.path().join("dist");
        TestDb {
            state: AppState::new(store, config),
            db,
            dir,
        }
    }

    /// The SQLite file (for the tests that only run on SQLite).
    pub fn db_path(&self) -> std::path::PathBuf {
        assert!(
            !self.db.is_postgres(),
            "a SQLite-only test run on PostgreSQL"
        );
        std::path::PathBuf::from(&self.db.spec)
    }

    /// The same database opened again (after `store().close()`).
    pub fn reopen(&self, checkpoint_every: u64) -> Store {
        Store::open_db(&self.db.spec, checkpoint_every).expect("reopen")
    }

    /// Runs SQL statements on the database, beside the server.
    pub fn sql(&self, sql: &str) {
        self.db.sql(sql);
    }

    /// A session's events as stored, oldest first.
    pub fn raw_events(&self, session: &str) -> Vec<RawEvent> {
        self.db.raw_events(session)
    }

    /// The source each of a session's events was stored with (`None`: its main file), oldest
    /// first.
    pub fn sources(&self, session: &str) -> Vec<Option<String>> {
        let sql = "SELECT source FROM events WHERE session = $1 ORDER BY seq";
        if self.db.is_postgres() {
            with_postgres(&self.db.spec, async |c| {
                let rows = c.query(sql, &[&session]).await.expect(sql);
                rows.iter().map(|r| r.get(0)).collect()
            })
        } else {
            let conn = rusqlite::Connection::open(&self.db.spec).unwrap();
            let mut stmt = conn.prepare(&sql.replace("$1", "?1")).unwrap();
            stmt.query_map([session], |r| r.get(0))
                .unwrap()
                .map(Result::unwrap)
                .collect()
        }
    }

    /// A session's events as stored, oldest first, as text.
    pub fn raw_lines(&self, session: &str) -> Vec<String> {
        self.raw_events(session)
            .into_iter()
            .map(|e| String::from_utf8(e.raw).expect("UTF-8 event"))
            .collect()
    }
}

/// Starts the binary with `args`; answers it and the address it printed.
pub fn spawn(args: &[&str], env: &[(&str, &str)]) -> (std::process::Child, SocketAddr) {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_hiveterm"));
    cmd.args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    spawn_command(cmd)
}

/// Starts `cmd` (the binary, its arguments and environment set); answers it and the address
/// it printed.
pub fn spawn_command(mut cmd: std::process::Command) -> (std::process::Child, SocketAddr) {
    cmd.stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    let mut child = cmd.spawn().expect("spawn hiveterm");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut tx = Some(tx);
        for line in std::io::BufRead::lines(std::io::BufReader::new(stdout)) {
            let Ok(line) = line else { break };
            if let Some(rest) = line.strip_prefix("listening on http://")
                && let Some(tx) = tx.take()
            {
                let addr: SocketAddr = rest.trim_end_matches('/').parse().unwrap();
                let _ = tx.send(addr);
            }
        }
    });
    let addr = rx
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("hiveterm printed its URL");
    (child, addr)
}

/// Serves `state` on 127.0.0.1:0; answers the address.
pub async fn spawn_server(state: AppState) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let app = hiveterm::app(state);
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

/// Sends one request on a new connection; answers status, headers and the body stream.
pub async fn send(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
) -> (StatusCode, HeaderMap, Incoming) {
    try_send(addr, method, path, headers, body)
        .await
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"))
}

/// [`send`] that answers a failed connection or request as an error.
pub async fn try_send(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
) -> Result<(StatusCode, HeaderMap, Incoming), String> {
    let stream = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    stream.set_nodelay(true).expect("nodelay");
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| format!("handshake: {e}"))?;
    tokio::spawn(conn);
    let mut req = Request::builder()
        .method(method)
        .uri(path)
        .header("host", addr.to_string());
    // A program posting JSON lines says so (the server refuses typeless posts: CSRF).
    if method != "GET"
        && !headers
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("content-type"))
    {
        req = req.header("content-type", "application/x-ndjson");
    }
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let res = sender
        .send_request(req.body(Full::new(Bytes::from(body))).expect("request"))
        .await
        .map_err(|e| format!("response: {e}"))?;
    let (parts, body) = res.into_parts();
    Ok((parts.status, parts.headers, body))
}

/// A whole request: status and body bytes.
pub async fn call(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Vec<u8>,
) -> (StatusCode, Vec<u8>) {
    let (status, _, body) = send(addr, method, path, &[], body).await;
    let bytes = body.collect().await.expect("body").to_bytes().to_vec();
    (status, bytes)
}

/// A request whose answer is JSON.
pub async fn call_json(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Vec<u8>,
) -> (StatusCode, Value) {
    let (status, bytes) = call(addr, method, path, body).await;
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// One server-sent event.
#[derive(Debug, Clone, PartialEq)]
pub struct SseEvent {
    pub id: Option<String>,
    pub event: Option<String>,
    pub data: String,
}

/// Reads server-sent events from a response body.
pub struct SseClient {
    body: Incoming,
    buf: Vec<u8>,
    pub comments: usize,
}

impl SseClient {
    /// Opens `path` with an optional `Last-Event-ID`.
    pub async fn connect(addr: SocketAddr, path: &str, last_event_id: Option<u64>) -> SseClient {
        let id = last_event_id.map(|i| i.to_string());
        let mut headers = vec![("accept", "text/event-stream")];
        if let Some(id) = &id {
            headers.push(("last-event-id", id.as_str()));
        }
        let (status, h, body) = send(addr, "GET", path, &headers, Vec::new()).await;
        assert_eq!(status, StatusCode::OK, "SSE {path}");
        assert_eq!(h["content-type"], "text/event-stream");
        SseClient {
            body,
            buf: Vec::new(),
            comments: 0,
        }
    }

    /// The next event (not a comment); `None` when the stream ends.
    pub async fn next(&mut self) -> Option<SseEvent> {
        loop {
            if let Some(end) = self.buf.windows(2).position(|w| w == b"\n\n") {
                let block: Vec<u8> = self.buf.drain(..end + 2).collect();
                let text = String::from_utf8(block).expect("SSE is UTF-8");
                let mut ev = SseEvent {
                    id: None,
                    event: None,
                    data: String::new(),
                };
                let mut any = false;
                for line in text.lines() {
                    if line.is_empty() {
                        continue;
                    }
                    if line.starts_with(':') {
                        self.comments += 1;
                        continue;
                    }
                    let (field, value) = line.split_once(": ").unwrap_or((line, ""));
                    any = true;
                    match field {
                        "id" => ev.id = Some(value.to_owned()),
                        "event" => ev.event = Some(value.to_owned()),
                        "data" => {
                            if !ev.data.is_empty() {
                                ev.data.push('\n');
                            }
                            ev.data.push_str(value);
                        }
                        _ => {}
                    }
                }
                if any {
                    return Some(ev);
                }
                continue;
            }
            let frame = self.body.frame().await?.ok()?;
            if let Ok(data) = frame.into_data() {
                self.buf.extend_from_slice(&data);
            }
        }
    }
}

/// All envelopes of a session, oldest first, through the history API in pages of `limit`.
pub async fn all_history(addr: SocketAddr, id: &str, limit: usize) -> Vec<Value> {
    let mut out = Vec::new();
    let mut before: Option<u64> = None;
    loop {
        let path = match before {
            Some(b) => format!("/api/sessions/{id}/events/history?limit={limit}&before={b}"),
            None => format!("/api/sessions/{id}/events/history?limit={limit}"),
        };
        let (status, page) = call_json(addr, "GET", &path, Vec::new()).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        out.extend(
            page["envelopes"]
                .as_array()
                .expect("envelopes")
                .iter()
                .cloned(),
        );
        match page["next_before"].as_u64() {
            Some(b) => before = Some(b),
            None => break,
        }
    }
    out.reverse();
    out
}

/// `hiveterm COMMAND ARGS… --db DB` (the commands that work on a server's database: `share`,
/// `note`): whether it succeeded, its stdout and its stderr.
pub fn cli(command: &str, db: &str, args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .arg(command)
        .args(args)
        .args(["--db", db])
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Appends `text` to the file at `path` (made if missing), as an agent writing its log does.
pub fn append_to(path: &Path, text: &str) {
    use std::io::Write as _;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .expect("open for appending");
    f.write_all(text.as_bytes()).expect("append");
}

/// Claude Code stream-json lines `from..=to`, each one `Bash` tool call `echo <i>` (id
/// `t<i>`): one row each, counted by the summary.
pub fn tool_calls(from: usize, to: usize) -> Vec<u8> {
    (from..=to)
        .flat_map(|i| {
            let mut line = serde_json::json!({"type": "assistant", "message": {"role": "assistant",
                "content": [{"type": "tool_use", "id": format!("t{i}"), "name": "Bash",
                    "input": {"command": format!("echo {i}")}}]}})
            .to_string()
            .into_bytes();
            line.push(b'\n');
            line
        })
        .collect()
}
