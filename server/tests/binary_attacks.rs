//! Issue 9's attacks that need the real `hiveterm` binary: slow clients at a lowered
//! open-file limit, two servers on one database, `--follow` of a device or a FIFO, the
//! token's hygiene, the database's mode, and `hiveterm run` whose viewer side fails. Each on
//! the backend the suite runs against (a SQLite file, or a fresh PostgreSQL schema).

mod common;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::os::unix::fs::PermissionsExt as _;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{DbSpec, call_json, send};
use tokio::io::AsyncWriteExt;

/// Starts `cmd` (a `hiveterm serve`/`run`); answers it and the address it printed.
fn spawn(mut cmd: Command) -> (Child, SocketAddr) {
    cmd.stdout(Stdio::piped()).stderr(Stdio::null());
    let mut child = cmd.spawn().expect("spawn hiveterm");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut tx = Some(tx);
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if let Some(rest) = line.strip_prefix("listening on http://")
                && let Some(tx) = tx.take()
            {
                let rest = rest.split('?').next().unwrap();
                let addr: SocketAddr = rest.trim_end_matches('/').parse().unwrap();
                let _ = tx.send(addr);
            }
        }
    });
    let addr = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("hiveterm printed its URL");
    (child, addr)
}

/// The binary under attack: this build's, or `HIVETERM_TEST_BIN` (to show that an older
/// build fails these tests).
fn bin() -> std::ffi::OsString {
    std::env::var_os("HIVETERM_TEST_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_hiveterm").into())
}

fn hiveterm() -> Command {
    let mut cmd = Command::new(bin());
    cmd.env_remove("HIVETERM_TOKEN");
    cmd
}

fn serve(db: &DbSpec) -> Command {
    let mut cmd = hiveterm();
    cmd.args(["serve", "--addr", "127.0.0.1:0", "--db", &db.spec]);
    cmd
}

/// Kills the child when dropped (a failed assert must not leave a server running).
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs `cmd` to its end (at most 20 s); answers whether it succeeded and its stderr.
fn refused(mut cmd: Command) -> (bool, String) {
    cmd.stdout(Stdio::null()).stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running after 20 s: it should have refused to start");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const NOTE: &[u8] = b"{\"kind\":\"note\",\"text\":\"hello\"}\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_clients_at_a_lowered_fd_limit_do_not_lock_out_an_ordinary_request() {
    // The attacker (this test) needs more descriptors than the server has.
    rlimit::increase_nofile_limit(8192).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh(dir.path());
    // Soft and hard limit 1,024 for the server: it cannot raise them.
    let mut cmd = Command::new("sh");
    cmd.args(["-c", "ulimit -n 1024 && exec \"$0\" \"$@\""])
        .arg(bin())
        .args(["serve", "--addr", "127.0.0.1:0", "--db", &db.spec])
        .env_remove("HIVETERM_TOKEN");
    let (child, addr) = spawn(cmd);
    let _server = Killed(child);
    // 1,100 connections that start a request and never finish its head.
    let start = Instant::now();
    let mut held = Vec::new();
    for _ in 0..22 {
        let connects = (0..50).map(|_| async move {
            let mut s = tokio::time::timeout(
                Duration::from_secs(10),
                tokio::net::TcpStream::connect(addr),
            )
            .await
            .ok()?
            .ok()?;
            let _ = s
                .write_all(b"GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                .await;
            Some(s)
        });
        for s in futures_util::future::join_all(connects).await {
            held.extend(s);
        }
    }
    assert!(held.len() >= 1050, "only {} connections opened", held.len());
    let ordinary = tokio::time::timeout(
        Duration::from_secs(30).saturating_sub(start.elapsed()),
        call_json(addr, "GET", "/api/sessions", vec![]),
    )
    .await
    .expect("an ordinary request answered within 30 s of the attack");
    assert_eq!(ordinary.0, 200);
    eprintln!(
        "ordinary request answered {:.1} s after the attack started ({} slow connections)",
        start.elapsed().as_secs_f64(),
        held.len()
    );
    drop(held);
}

/// Posts one note to `addr`; answers the status.
fn post_note(addr: SocketAddr) -> u16 {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let (s, _, _) = send(addr, "POST", "/api/sessions/x/events", &[], NOTE.to_vec()).await;
        s.as_u16()
    })
}

#[test]
fn two_servers_on_one_database_the_second_refuses_to_start_on_sqlite_and_is_a_replica_on_postgres()
{
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh(dir.path());
    let (first, addr) = spawn(serve(&db));
    let _first = Killed(first);
    if db.is_postgres() {
        // One database, any number of servers (issue 13): both take events, seqs go on.
        let (second, addr2) = spawn(serve(&db));
        let _second = Killed(second);
        assert_eq!(post_note(addr), 200);
        assert_eq!(post_note(addr2), 200);
        assert_eq!(db.raw_events("x").len(), 2);
    } else {
        // One file, one server (its lock).
        let (ok, err) = refused(serve(&db));
        assert!(!ok, "the second server started");
        assert!(err.contains("in use by another hiveterm"), "{err}");
    }
    // The first one still takes events.
    assert_eq!(post_note(addr), 200);
}

#[test]
fn the_database_is_readable_by_its_owner_only() {
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh(dir.path());
    if db.is_postgres() {
        // Files and their modes are the PostgreSQL server's (docs/DEPLOY.md); nothing here.
        return;
    }
    let (child, addr) = spawn(serve(&db));
    let _server = Killed(child);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (status, _, _) = rt.block_on(send(
        addr,
        "POST",
        "/api/sessions/x/events",
        &[],
        NOTE.to_vec(),
    ));
    assert_eq!(status, 200);
    for suffix in ["", "-wal", "-shm"] {
        let path = format!("{}{suffix}", db.spec);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{path}");
    }
}

#[test]
fn follow_of_a_device_refuses_to_start() {
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh(dir.path());
    for path in ["/dev/zero", "/dev/urandom", "/proc/self/status", "/tmp"] {
        let mut cmd = serve(&db);
        cmd.args(["--follow", path]);
        let (ok, err) = refused(cmd);
        assert!(!ok, "{path} followed");
        assert!(err.contains(&format!("cannot follow {path}")), "{err}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_of_a_fifo_stores_what_each_writer_writes() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("agent.fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let db = DbSpec::fresh(dir.path());
    let mut cmd = serve(&db);
    cmd.arg("--follow").arg(&fifo);
    let (child, addr) = spawn(cmd);
    let _server = Killed(child);
    // Two writers one after the other: the first closing is not the end.
    for _ in 0..2 {
        let path = fifo.clone();
        tokio::task::spawn_blocking(move || {
            std::fs::write(&path, [NOTE, NOTE].concat()).unwrap();
        })
        .await
        .unwrap();
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (_, list) = call_json(addr, "GET", "/api/sessions", vec![]).await;
        if list["sessions"][0]["last_seq"] == 4 {
            assert_eq!(list["sessions"][0]["source"], "follow");
            break;
        }
        assert!(Instant::now() < deadline, "{list}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_token_must_be_long_and_can_stay_out_of_ps() {
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh(dir.path());
    for token in ["", "short", "fifteen-chars-x", "has spaces in the token"] {
        let mut cmd = serve(&db);
        cmd.args(["--token", token]);
        let (ok, err) = refused(cmd);
        assert!(!ok, "{token:?} accepted");
        assert!(err.contains("too short"), "{err}");
    }
    // Long enough, but of too few different characters.
    for token in ["aaaaaaaaaaaaaaaa", "abababababababababab"] {
        let mut cmd = serve(&db);
        cmd.args(["--token", token]);
        let (ok, err) = refused(cmd);
        assert!(!ok, "{token:?} accepted");
        assert!(err.contains("too few different characters"), "{err}");
    }
    let mut cmd = serve(&db);
    cmd.env("HIVETERM_TOKEN", "short");
    assert!(!refused(cmd).0, "a short HIVETERM_TOKEN accepted");

    let token = "0123456789abcdef0123";
    let file = dir.path().join("token");
    std::fs::write(&file, format!("{token}\n")).unwrap();
    let (env_dir, file_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (env_db, file_db) = (
        DbSpec::fresh(env_dir.path()),
        DbSpec::fresh(file_dir.path()),
    );
    let mut from_env = serve(&env_db);
    from_env.env("HIVETERM_TOKEN", token);
    let mut from_file = serve(&file_db);
    from_file.arg("--token-file").arg(&file);
    for cmd in [from_env, from_file] {
        let (child, addr) = spawn(cmd);
        let _server = Killed(child);
        let (status, _) = call_json(addr, "GET", "/api/sessions", vec![]).await;
        assert_eq!(status, 401);
        let bearer = format!("Bearer {token}");
        let (status, _, _) = send(
            addr,
            "GET",
            "/api/sessions",
            &[("authorization", &bearer)],
            vec![],
        )
        .await;
        assert_eq!(status, 200);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_keeps_its_agent_when_the_viewer_side_fails() {
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh(dir.path());
    let mark = dir.path().join("agent-finished");
    let script = format!(
        "echo '{{\"kind\":\"note\",\"text\":\"one\"}}'; sleep 3; \
         echo '{{\"kind\":\"note\",\"text\":\"two\"}}'; echo err >&2; \
         [ -z \"$HIVETERM_TOKEN\" ] || exit 9; touch '{}'; exit 3",
        mark.display()
    );
    let mut cmd = hiveterm();
    cmd.args(["run", "--once", "--addr", "127.0.0.1:0", "--db", &db.spec])
        .env("HIVETERM_TOKEN", "0123456789abcdef0123")
        .args(["--", "sh", "-c", &script]);
    let (child, addr) = spawn(cmd);
    let mut child = Killed(child);
    // The session is ended through the API while the agent runs: the store refuses the
    // agent's next lines.
    let bearer = "Bearer 0123456789abcdef0123";
    let (_, _, body) = send(
        addr,
        "GET",
        "/api/sessions",
        &[("authorization", bearer)],
        vec![],
    )
    .await;
    let list: serde_json::Value = serde_json::from_slice(
        &http_body_util::BodyExt::collect(body)
            .await
            .unwrap()
            .to_bytes(),
    )
    .unwrap();
    let id = list["sessions"][0]["id"].as_str().unwrap().to_owned();
    let (status, _, _) = send(
        addr,
        "POST",
        &format!("/api/sessions/{id}/end"),
        &[
            ("authorization", bearer),
            ("content-type", "application/json"),
        ],
        vec![],
    )
    .await;
    assert_eq!(status, 200);
    let code = tokio::task::spawn_blocking(move || child.0.wait().unwrap())
        .await
        .unwrap();
    assert!(mark.exists(), "the agent was killed before it finished");
    assert_eq!(code.code(), Some(3), "the agent's own exit code");
}

/// Reads what the server answers on `s` within 5 s (up to its closing the connection).
async fn answer_of(s: &mut tokio::net::TcpStream) -> String {
    use tokio::io::AsyncReadExt;
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    let read = async {
        loop {
            match s.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
            if out.windows(4).any(|w| w == b"\r\n\r\n") {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(5), read).await;
    String::from_utf8_lossy(&out).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_head_over_the_bound_is_431_before_it_is_all_sent() {
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh(dir.path());
    let (child, addr) = spawn(serve(&db));
    let _server = Killed(child);
    // 100 KiB of a head that is not finished: the server answers without waiting for the
    // rest (it used to buffer up to ~400 KiB per connection before any check).
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(b"GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .unwrap();
    for i in 0..100 {
        let line = format!("x-filler-{i}: {}\r\n", "a".repeat(1000));
        if s.write_all(line.as_bytes()).await.is_err() {
            break; // closed by the server: fine, its answer is read below
        }
    }
    let answer = answer_of(&mut s).await;
    assert!(answer.starts_with("HTTP/1.1 431"), "{answer:?}");
    // A head within the bound (8 KiB of headers) is served as ever.
    let filler = "b".repeat(8 * 1024);
    let (status, _, _) = send(
        addr,
        "GET",
        "/api/sessions",
        &[("x-filler", &filler)],
        vec![],
    )
    .await;
    assert_eq!(status, 200);
    // The bound is on heads, not bodies: 4 MiB of lines in one POST are stored.
    let body = NOTE.repeat(4 * 1024 * 1024 / NOTE.len());
    let lines = body.len() / NOTE.len();
    let (status, v) = call_json(addr, "POST", "/api/sessions/big/events", body).await;
    assert_eq!(
        (status.as_u16(), v["count"].as_u64()),
        (200, Some(lines as u64)),
        "{v}"
    );
}
