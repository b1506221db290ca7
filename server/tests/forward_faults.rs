//! The forwarder (`serve --follow … --to URL`) against a receiver that fails in every way a
//! network and a proxy can: a POST stored but answered 502, stored and the connection cut,
//! stored and answered too late, answered slowly, cut before it reached the server; its
//! resume question failing too; and the forwarder itself killed and restarted mid-POST. The
//! receiver (the real router, behind a fault-injecting proxy) must end with the file's lines,
//! byte for byte, each once, in order, and every POST must carry an `Idempotency-Key`.

mod common;

use std::io::Write;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use common::{TestDb, call_json, spawn_server};
use http_body_util::{BodyExt, Full};
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;

/// What the proxy does with one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    /// Passes it on and answers what the server answered.
    Pass,
    /// Passes it on (stored), answers `502`.
    StoredThen502,
    /// Passes it on (stored), then closes the connection without an answer.
    StoredThenCut,
    /// Passes it on (stored), answers long after the forwarder gave up waiting.
    StoredThenLate,
    /// Waits a while (within the forwarder's timeout), then passes it on.
    Slow,
    /// Closes the connection without passing it on.
    CutBefore,
    /// Answers `503` without passing it on.
    Busy,
}

/// The proxy's script and what it saw.
#[derive(Default)]
struct Script {
    /// Faults for the next POSTs of events, in order (then [`Fault::Pass`]).
    posts: Vec<Fault>,
    /// Faults for the next other requests (the resume question), in order.
    others: Vec<Fault>,
    /// POSTs of events without an `Idempotency-Key`.
    unkeyed: usize,
    /// POSTs of events seen.
    seen: usize,
}

/// A fault-injecting proxy on 127.0.0.1:0 in front of `server`.
async fn proxy(server: SocketAddr, script: Arc<Mutex<Script>>) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let script = script.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req| {
                    let script = script.clone();
                    async move { handle(server, &script, req).await }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    addr
}

async fn handle(
    server: SocketAddr,
    script: &Mutex<Script>,
    req: Request<hyper::body::Incoming>,
) -> Result<Response<Full<Bytes>>, String> {
    let (parts, body) = req.into_parts();
    let body = body.collect().await.map_err(|e| e.to_string())?.to_bytes();
    let is_post = parts.method == "POST" && parts.uri.path().ends_with("/events");
    let fault = {
        let mut s = script.lock().unwrap();
        let list = if is_post {
            s.seen += 1;
            if !parts.headers.contains_key("idempotency-key") {
                s.unkeyed += 1;
            }
            &mut s.posts
        } else {
            &mut s.others
        };
        if list.is_empty() {
            Fault::Pass
        } else {
            list.remove(0)
        }
    };
    match fault {
        Fault::CutBefore => return Err("cut before".into()),
        Fault::Busy => return Ok(answer(503, b"{\"error\":\"busy\"}".to_vec())),
        Fault::Slow => tokio::time::sleep(Duration::from_millis(400)).await,
        _ => {}
    }
    let headers: Vec<(String, String)> = parts
        .headers
        .iter()
        .filter(|(k, _)| {
            !matches!(
                k.as_str(),
                "host" | "content-length" | "transfer-encoding" | "connection"
            )
        })
        .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or("").to_owned()))
        .collect();
    let headers: Vec<(&str, &str)> = headers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let (status, _, res) =
        common::try_send(server, parts.method.as_str(), path, &headers, body.to_vec()).await?;
    let res = res.collect().await.map_err(|e| e.to_string())?.to_bytes();
    match fault {
        Fault::StoredThen502 => Ok(answer(502, b"bad gateway".to_vec())),
        Fault::StoredThenCut => Err("cut after".into()),
        Fault::StoredThenLate => {
            tokio::time::sleep(TIMEOUT * 3).await;
            Ok(answer(status.as_u16(), res.to_vec()))
        }
        _ => Ok(answer(status.as_u16(), res.to_vec())),
    }
}

fn answer(status: u16, body: Vec<u8>) -> Response<Full<Bytes>> {
    Response::builder()
        .status(status)
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body)))
        .unwrap()
}

/// The forwarder's timeout in these tests.
const TIMEOUT: Duration = Duration::from_millis(800);

/// Line `i` of the followed file: of varied lengths, some with a `\r\n` end (stored
/// without the `\r`), never blank.
fn line(i: usize) -> String {
    let pad = "x".repeat((i * 37) % 300);
    format!("{{\"kind\":\"note\",\"text\":\"line {i} {pad}\"}}")
}

fn append(path: &std::path::Path, lines: std::ops::Range<usize>) {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    let mut text = String::new();
    for i in lines {
        text.push_str(&line(i));
        text.push_str(if i % 7 == 3 { "\r\n" } else { "\n" });
        if i % 11 == 5 {
            text.push_str("   \n"); // a blank line: not an event
        }
    }
    f.write_all(text.as_bytes()).unwrap();
}

/// Starts a forwarder of `log` to `to`, in this process.
fn forwarder(to: SocketAddr, id: &str, log: &std::path::Path) -> tokio::task::JoinHandle<()> {
    let remote = hiveterm::forward::Remote::parse(&format!("http://{to}"), None)
        .unwrap()
        .with_timeout(TIMEOUT);
    let (id, log) = (id.to_owned(), log.to_owned());
    tokio::spawn(async move {
        let r = hiveterm::forward::forward_follow(remote, id, log, 64 * 1024 * 1024).await;
        panic!("the forwarder stopped: {r:?}");
    })
}

/// Waits until session `id` has `n` events (at most 60 s).
async fn wait_for(addr: SocketAddr, id: &str, n: u64) -> u64 {
    let start = Instant::now();
    loop {
        let (status, v) = call_json(addr, "GET", &format!("/api/sessions/{id}"), vec![]).await;
        let got = if status == 200 {
            v["last_seq"].as_u64().unwrap_or(0)
        } else {
            0
        };
        if got >= n || start.elapsed() > Duration::from_secs(60) {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// One case: `bursts` of lines appended, the proxy failing POSTs with `posts` and other
/// requests with `others`; with `restart`, the forwarder is killed and started again after
/// each burst (mid-POST, when one is out). Every line must arrive once, in order.
async fn check(name: &str, bursts: &[usize], posts: &[Fault], others: &[Fault], restart: bool) {
    let db = TestDb::new();
    let server = spawn_server(db.state.clone()).await;
    let script = Arc::new(Mutex::new(Script {
        posts: posts.to_vec(),
        others: others.to_vec(),
        ..Script::default()
    }));
    let to = proxy(server, script.clone()).await;
    let log = db.dir.path().join("agent.jsonl");
    let id = "f-agent";
    let mut fwd = forwarder(to, id, &log);
    let mut total = 0;
    for (b, &n) in bursts.iter().enumerate() {
        append(&log, total..total + n);
        total += n;
        if restart {
            // Killed at once, or while its POST is out (stored or not), then started again.
            tokio::time::sleep(Duration::from_millis(150 * (b as u64 % 4))).await;
            fwd.abort();
            let _ = fwd.await;
            fwd = forwarder(to, id, &log);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let got = wait_for(server, id, total as u64).await;
    // Anything more that was going to arrive (a doubled batch) has arrived.
    tokio::time::sleep(TIMEOUT * 4).await;
    fwd.abort();
    let stored: Vec<String> = db
        .raw_events(id)
        .into_iter()
        .map(|e| String::from_utf8(e.raw).unwrap())
        .collect();
    let want: Vec<String> = (0..total).map(line).collect();
    assert_eq!(got, total as u64, "{name}: events stored");
    assert!(stored == want, "{name}: every line once, in order");
    let s = script.lock().unwrap();
    assert!(s.seen > 0, "{name}: no POST went through the proxy");
    assert_eq!(s.unkeyed, 0, "{name}: POSTs without an Idempotency-Key");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_forwarder_never_doubles_nor_loses_whatever_the_receiver_does() {
    use Fault::*;
    let many = [40, 3, 120, 1, 60];
    /// (name, bursts of lines, faults of POSTs, faults of other requests, restarts)
    type Case<'a> = (&'a str, &'a [usize], &'a [Fault], &'a [Fault], bool);
    let cases: &[Case] = &[
        (
            "stored, answered 502",
            &many,
            &[StoredThen502; 4],
            &[],
            false,
        ),
        (
            "stored, 502, and the resume question failing",
            &many,
            &[StoredThen502, StoredThen502],
            &[Busy, CutBefore, Busy],
            true,
        ),
        (
            "stored, connection cut",
            &many,
            &[StoredThenCut; 3],
            &[],
            false,
        ),
        (
            "stored, answered too late",
            &many,
            &[StoredThenLate; 2],
            &[],
            false,
        ),
        ("slow answers", &many, &[Slow; 5], &[Slow; 2], true),
        (
            "cut before the server",
            &many,
            &[CutBefore, Busy, CutBefore],
            &[],
            false,
        ),
        (
            "the forwarder restarted between faults",
            &[30, 30, 30, 30, 30, 30],
            &[
                Pass,
                StoredThenLate,
                StoredThen502,
                Pass,
                StoredThenCut,
                Slow,
                StoredThen502,
            ],
            &[StoredThenCut],
            true,
        ),
    ];
    for (name, bursts, posts, others, restart) in cases {
        check(name, bursts, posts, others, *restart).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_last_answers_the_newest_key_and_what_it_stored() {
    let db = TestDb::new();
    let addr = spawn_server(db.state.clone()).await;
    let path = "/api/sessions/k1/keys/last";
    let (status, _) = call_json(addr, "GET", path, vec![]).await;
    assert_eq!(status, 404, "an unknown session");
    let post = async |key: Option<&str>, body: &str| {
        let headers: Vec<(&str, &str)> = key.map(|k| ("idempotency-key", k)).into_iter().collect();
        let (status, _, _) = common::send(
            addr,
            "POST",
            "/api/sessions/k1/events",
            &headers,
            body.as_bytes().to_vec(),
        )
        .await;
        assert_eq!(status, 200);
    };
    post(None, "{\"kind\":\"note\",\"text\":\"a\"}\n").await;
    let (status, v) = call_json(addr, "GET", path, vec![]).await;
    assert_eq!(
        (status.as_u16(), v),
        (200, serde_json::json!({"key": null}))
    );
    let second = "{\"kind\":\"note\",\"text\":\"c\"}\n{\"kind\":\"note\",\"text\":\"d\"}\n";
    post(Some("k-one"), "{\"kind\":\"note\",\"text\":\"b\"}\n").await;
    post(Some("k-two"), second).await;
    post(Some("k-one"), "{\"kind\":\"note\",\"text\":\"b\"}\n").await; // a retry
    let (_, v) = call_json(addr, "GET", path, vec![]).await;
    let sha: String = {
        use sha2::Digest;
        sha2::Sha256::digest(second.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    assert_eq!(
        v,
        serde_json::json!({"key": "k-two", "first_seq": 3, "last_seq": 4, "lines": 2,
                           "body_sha256": sha})
    );
}

/// What the store promises a keyed append on both backends (on PostgreSQL under the
/// session's row lock, across replicas, which do not share the per-session turns of one
/// server): it stores its lines only if its key holds the lines its request expects (a
/// copy of the same retry taken by another replica is refused, nothing stored) and, for
/// its first lines, only after the key it names.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_keyed_append_stores_only_what_its_request_expects() {
    use hiveterm::store::{Append, IdempotencyKey, RawLine, StoreError};
    let db = TestDb::new();
    let store = db.state.store();
    // (key, lines its request takes to be stored under it, the key it must follow, answer)
    let cases: &[(&str, u64, Option<&str>, &str)] = &[
        ("k1", 0, Some(""), "ok"),
        ("k1", 0, Some(""), "raced"), // the same first try, on another replica
        ("k1", 1, None, "ok"),        // its second turn
        ("k1", 3, None, "raced"),     // a turn that thinks more is there
        ("k2", 0, Some("k0"), "not after"),
        ("k2", 0, Some(""), "not after"),
        ("k2", 0, Some("k1"), "ok"),
        ("k3", 0, None, "ok"), // no After-Key: not checked
    ];
    let mut stored = 0;
    for (i, (key, before, after, want)) in cases.iter().enumerate() {
        let append = Append {
            session: "s".into(),
            lines: vec![RawLine::now(format!("{{\"n\":{i}}}").into_bytes())],
            create: Some(("s".into(), "post".into())),
            follow: None,
            source: None,
            key: Some(IdempotencyKey {
                key: (*key).into(),
                body_sha256: [0; 32],
                stored: *before,
                after: after.map(str::to_owned),
            }),
        };
        let got = match store.append(append).await {
            Ok(_) => {
                stored += 1;
                "ok"
            }
            Err(StoreError::Raced(_)) => "raced",
            Err(StoreError::NotAfter(_)) => "not after",
            Err(e) => panic!("case {i}: {e}"),
        };
        assert_eq!(got, *want, "case {i}: {key} {before} {after:?}");
    }
    assert_eq!(
        db.raw_events("s").len(),
        stored,
        "nothing stored by a refused one"
    );
}

/// A followed file truncated, or replaced by another (rotation), while forwarded, and the
/// forwarder restarted after: the new lines follow those sent, none twice, none lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_truncated_or_rotated_file_goes_on_after_the_lines_sent() {
    for rotate in [false, true] {
        let db = TestDb::new();
        let server = spawn_server(db.state.clone()).await;
        let to = proxy(server, Arc::new(Mutex::new(Script::default()))).await;
        let log = db.dir.path().join("agent.jsonl");
        let id = "f-agent";
        append(&log, 0..50);
        let mut fwd = forwarder(to, id, &log);
        assert_eq!(wait_for(server, id, 50).await, 50);
        if rotate {
            std::fs::rename(&log, db.dir.path().join("agent.jsonl.1")).unwrap();
        } else {
            std::fs::File::create(&log).unwrap(); // truncated
        }
        append(&log, 50..60);
        assert_eq!(wait_for(server, id, 60).await, 60, "rotate {rotate}");
        // Restarted: it resumes after the new file's lines, not the old one's.
        fwd.abort();
        let _ = fwd.await;
        append(&log, 60..75);
        fwd = forwarder(to, id, &log);
        assert_eq!(wait_for(server, id, 75).await, 75, "rotate {rotate}");
        tokio::time::sleep(Duration::from_millis(600)).await;
        fwd.abort();
        let stored: Vec<String> = db
            .raw_events(id)
            .into_iter()
            .map(|e| String::from_utf8(e.raw).unwrap())
            .collect();
        let want: Vec<String> = (0..75).map(line).collect();
        assert!(stored == want, "rotate {rotate}: every line once, in order");
    }
}
