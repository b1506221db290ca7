//! Load benchmark of `hiveterm serve`, on loopback:
//! `cargo bench -p hiveterm --bench server_load` (release build of the real binary).
//!
//! N SSE clients (default 200) follow one session while events are POSTed at R events/s
//! (default 1,000, in batches every 10 ms) for S seconds (default 60). Each event is a real
//! Claude Code stream-json line (fixtures, cycled) wrapped as a hyperhive `stream` event whose
//! `ts` is the moment it was sent, so a client's receive time minus the envelope's `ts` is the
//! ingest-to-client latency. At the end every client's sequence of seqs must equal the
//! session's history (zero lost, zero duplicated, in order); then 500-envelope history pages
//! are timed; the server's RSS is sampled throughout.
//!
//! It runs twice in one invocation, side by side: one server on a SQLite file, then
//! `BENCH_REPLICAS` (default 3) replicas on one PostgreSQL database (127.0.0.1:5432, database
//! `test`, a fresh schema), with the clients spread over the replicas and the POSTs sent to them
//! round-robin (issue 13): every client must still get every envelope once, in order.
//!
//! Environment: `BENCH_CLIENTS`, `BENCH_RATE`, `BENCH_SECS`, `BENCH_REPLICAS`,
//! `BENCH_BACKENDS` (`sqlite,postgres`), `BENCH_SERVER_LOG` (the servers' `HIVETERM_LOG`,
//! `warn` by default; `debug` logs each PostgreSQL write transaction's timings to stderr).
//! Exits non-zero when a target is missed (a POST refused, lost/duplicated > 0, p99 latency
//! over 100 ms for SQLite and 250 ms for the replicas, history p99 > 20 ms, RSS growth of any
//! server > 25% between the end of warm-up and the end).

#[path = "../tests/common/mod.rs"]
mod common;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::{call, call_json};
use http_body_util::BodyExt;

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn now() -> f64 {
    hiveterm::now()
}

/// An SSE client that does as little as possible (the server's work is what is measured):
/// splits frames, reads `id:` and the envelope's `ts`, records latency.
async fn lean_client(addr: SocketAddr, stop: Arc<AtomicBool>) -> ClientResult {
    let (status, _, mut body) = common::send(
        addr,
        "GET",
        "/api/sessions/bench/events/stream?after=1",
        &[("accept", "text/event-stream")],
        Vec::new(),
    )
    .await;
    assert!(status.is_success());
    let mut r = ClientResult {
        seqs: Vec::new(),
        hist: vec![0; BUCKETS],
    };
    let mut buf: Vec<u8> = Vec::new();
    loop {
        match tokio::time::timeout(Duration::from_millis(500), body.frame()).await {
            Ok(Some(Ok(frame))) => {
                if let Ok(data) = frame.into_data() {
                    buf.extend_from_slice(&data);
                }
            }
            Ok(_) => break,
            Err(_) if stop.load(Ordering::Relaxed) => break,
            Err(_) => continue,
        }
        let received = now();
        let mut start = 0;
        while let Some(end) = buf[start..].windows(2).position(|w| w == b"\n\n") {
            let frame = &buf[start..start + end];
            if let Some(rest) = frame.strip_prefix(b"id: ") {
                let text = std::str::from_utf8(rest).unwrap_or("");
                let (seq, ts) = seq_ts(text);
                let ms = (received - ts) * 1000.0;
                let bucket = ((ms.max(0.0) / BUCKET_MS) as usize).min(BUCKETS - 1);
                r.hist[bucket] += 1;
                r.seqs.push(seq);
            }
            start += end + 2;
        }
        buf.drain(..start);
    }
    r
}

/// Reads `"seq":N` and `"ts":X` from an envelope without a full parse (the server writes
/// `{"ts":…,"seq":…,"msgs":…}`).
fn seq_ts(data: &str) -> (u64, f64) {
    let num = |key: &str| -> &str {
        let at = data.find(key).map(|i| i + key.len()).unwrap_or(data.len());
        let rest = &data[at..];
        let end = rest
            .find(|c: char| c != '.' && c != '-' && c != 'e' && !c.is_ascii_digit())
            .unwrap_or(rest.len());
        &rest[..end]
    };
    (
        num("\"seq\":").parse().unwrap_or(0),
        num("\"ts\":").parse().unwrap_or(0.0),
    )
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

/// CPU time (user + system, seconds) the process has used so far, from `/proc/PID/stat`
/// (fields 14 and 15, in clock ticks of 1/100 s on Linux).
fn cpu_secs(pid: u32) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            let after_name = &s[s.rfind(')')? + 2..];
            let fields: Vec<&str> = after_name.split_whitespace().collect();
            let ticks = |i: usize| fields.get(i).and_then(|v| v.parse::<f64>().ok());
            // after_name starts at field 3 (state): utime is field 14, stime field 15.
            Some((ticks(11)? + ticks(12)?) / 100.0)
        })
        .unwrap_or(0.0)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

struct ClientResult {
    seqs: Vec<u64>,
    /// Latency histogram in 0.25 ms buckets up to 2 s; the last bucket is "more".
    hist: Vec<u32>,
}

const BUCKET_MS: f64 = 0.25;
const BUCKETS: usize = 8001;

fn main() {
    let clients = env_or("BENCH_CLIENTS", 200) as usize;
    let rate = env_or("BENCH_RATE", 1000);
    let secs = env_or("BENCH_SECS", 60);
    let replicas = env_or("BENCH_REPLICAS", 3).max(1) as usize;
    let backends = std::env::var("BENCH_BACKENDS").unwrap_or_else(|_| "sqlite,postgres".into());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let mut ok = true;
    for backend in backends.split(',') {
        let dir = tempfile::tempdir().unwrap();
        let (db, n, target) = match backend.trim() {
            "sqlite" => (common::DbSpec::fresh(dir.path()), 1, 100.0),
            "postgres" => (common::DbSpec::fresh_postgres(dir.path()), replicas, 250.0),
            other => panic!("BENCH_BACKENDS: unknown {other}"),
        };
        println!("\n=== {backend}: {n} server(s) ===");
        ok &= rt.block_on(bench(&db, n, target, clients, rate, secs));
    }
    std::process::exit(if ok { 0 } else { 1 });
}

/// The servers of a run, killed when dropped: a run that fails half-way (a panic) must not
/// leave replicas running (and holding their PostgreSQL connections).
struct Servers(Vec<std::process::Child>);

impl Drop for Servers {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Starts a server on `db`; answers it, its pid and address.
fn start(db: &common::DbSpec) -> (std::process::Child, u32, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", &db.spec])
        .env(
            "HIVETERM_LOG",
            std::env::var("BENCH_SERVER_LOG").unwrap_or_else(|_| "warn".into()),
        )
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn hiveterm");
    let pid = child.id();
    let stdout = child.stdout.take().unwrap();
    let addr: SocketAddr = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .find_map(|l| {
            l.strip_prefix("listening on http://")
                .map(|r| r.trim_end_matches('/').parse().unwrap())
        })
        .expect("URL");
    (child, pid, addr)
}

async fn bench(
    db: &common::DbSpec,
    servers: usize,
    target_p99: f64,
    clients: usize,
    rate: u64,
    secs: u64,
) -> bool {
    let started: Vec<_> = (0..servers).map(|_| start(db)).collect();
    let pids: Vec<u32> = started.iter().map(|s| s.1).collect();
    let addrs: Vec<SocketAddr> = started.iter().map(|s| s.2).collect();
    let started = Servers(started.into_iter().map(|s| s.0).collect());
    let addr = addrs[0];
    println!(
        "hiveterm pids {pids:?} on {addrs:?}; {clients} clients, {rate} events/s for {secs} s"
    );

    let fixture = common::fixture("claude-code-2.1.332/file_tools.stream.jsonl");
    let lines: Vec<String> = String::from_utf8(fixture)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    let (status, _) = call(
        addr,
        "POST",
        "/api/sessions/bench/events",
        b"{\"kind\":\"note\",\"text\":\"bench start\"}\n".to_vec(),
    )
    .await;
    assert!(status.is_success());

    // Clients, live from seq 1.
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for c in 0..clients {
        let stop = stop.clone();
        tasks.push(tokio::spawn(lean_client(addrs[c % addrs.len()], stop)));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;

    // Memory sampler.
    let samples = Arc::new(std::sync::Mutex::new(Vec::<(f64, Vec<u64>)>::new()));
    let sampler = {
        let (samples, stop, pids) = (samples.clone(), stop.clone(), pids.clone());
        tokio::spawn(async move {
            let start = Instant::now();
            while !stop.load(Ordering::Relaxed) {
                let rss = pids.iter().map(|&p| rss_kib(p)).collect();
                samples
                    .lock()
                    .unwrap()
                    .push((start.elapsed().as_secs_f64(), rss));
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        })
    };

    // Producer: a batch every 10 ms on an absolute schedule, each POST on its own task (as
    // several agent hosts would), so a slow answer does not delay the next batch.
    let per_batch = (rate / 100).max(1) as usize;
    let batches = secs * 100;
    let start = Instant::now();
    let servers_cpu = || pids.iter().map(|&p| cpu_secs(p)).sum::<f64>();
    let (server_cpu0, bench_cpu0) = (servers_cpu(), cpu_secs(std::process::id()));
    let mut posts = tokio::task::JoinSet::new();
    let mut i = 0usize;
    for b in 0..batches {
        let due = start + Duration::from_millis(b * 10);
        tokio::time::sleep_until(due.into()).await;
        let ts = now();
        let mut body = String::new();
        for _ in 0..per_batch {
            body.push_str(&format!(
                "{{\"kind\":\"stream\",\"ts\":{ts},\"value\":{}}}\n",
                lines[i % lines.len()]
            ));
            i += 1;
        }
        let addr = addrs[b as usize % addrs.len()];
        posts.spawn(async move {
            let t = Instant::now();
            let (status, v) = call_json(
                addr,
                "POST",
                "/api/sessions/bench/events",
                body.into_bytes(),
            )
            .await;
            // A refusal (`503` when the server is overloaded) is counted, and fails the run.
            let stored = if status.is_success() {
                Some(v["seqs"].as_array().unwrap().len() as u64)
            } else {
                None
            };
            (t.elapsed().as_secs_f64() * 1000.0, stored)
        });
    }
    let (mut sent, mut refused) = (0u64, 0u64);
    let mut post_ms = Vec::new();
    while let Some(done) = posts.join_next().await {
        let (ms, stored) = done.unwrap();
        post_ms.push(ms);
        match stored {
            Some(n) => sent += n,
            None => refused += 1,
        }
    }
    let produced_for = start.elapsed().as_secs_f64();
    let server_cpu = (servers_cpu() - server_cpu0) / produced_for;
    let bench_cpu = (cpu_secs(std::process::id()) - bench_cpu0) / produced_for;
    tokio::time::sleep(Duration::from_secs(2)).await;
    stop.store(true, Ordering::Relaxed);
    let _ = sampler.await;
    let mut results = Vec::new();
    for t in tasks {
        results.push(t.await.unwrap());
    }

    // Exactly once, in order: every client saw the history's seqs after 1.
    let history: Vec<u64> = common::all_history(addr, "bench", 1000)
        .await
        .iter()
        .map(|e| e["seq"].as_u64().unwrap())
        .filter(|&s| s > 1)
        .collect();
    let (mut lost, mut dup, mut disorder) = (0usize, 0usize, 0usize);
    let mut hist = vec![0u64; BUCKETS];
    for r in &results {
        let mut uniq = r.seqs.clone();
        uniq.dedup();
        dup += r.seqs.len() - uniq.len();
        disorder += r.seqs.windows(2).filter(|w| w[0] > w[1]).count();
        let got: std::collections::HashSet<u64> = r.seqs.iter().copied().collect();
        lost += history.iter().filter(|s| !got.contains(s)).count();
        for (h, c) in hist.iter_mut().zip(&r.hist) {
            *h += u64::from(*c);
        }
    }
    let total: u64 = hist.iter().sum();
    let pct = |p: f64| -> f64 {
        let target = (total as f64 * p).ceil() as u64;
        let mut acc = 0;
        for (i, c) in hist.iter().enumerate() {
            acc += c;
            if acc >= target {
                return (i + 1) as f64 * BUCKET_MS;
            }
        }
        f64::INFINITY
    };
    let (p50, p99, p999) = (pct(0.50), pct(0.99), pct(0.999));
    post_ms.sort_by(f64::total_cmp);

    // History pages of 500 envelopes: the newest (a page load), a scrollback chain, and
    // random depths. Timed to the last byte received; parsed afterwards.
    let mut hist_ms = Vec::new();
    let page_of = |path: String| async move {
        let t = Instant::now();
        let (status, bytes) = call(addr, "GET", &path, vec![]).await;
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        assert!(status.is_success());
        let page: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        let n = page["envelopes"].as_array().unwrap().len();
        assert!(n == 500 || page["next_before"].is_null(), "{n}");
        (ms, page, bytes.len())
    };
    let (ms, first, page_bytes) =
        page_of("/api/sessions/bench/events/history?limit=500".into()).await;
    hist_ms.push(ms);
    let head = first["head"].as_u64().unwrap();
    let mut before = first["next_before"].as_u64();
    for _ in 0..20 {
        let Some(b) = before else { break };
        let (ms, page, _) = page_of(format!(
            "/api/sessions/bench/events/history?limit=500&before={b}"
        ))
        .await;
        hist_ms.push(ms);
        before = page["next_before"].as_u64();
    }
    for k in 0..40u64 {
        let b = 2 + (head * (k % 20 + 1)) / 20;
        let (ms, _, _) = page_of(format!(
            "/api/sessions/bench/events/history?limit=500&before={b}"
        ))
        .await;
        hist_ms.push(ms);
    }
    hist_ms.sort_by(f64::total_cmp);

    // Memory of each server: after warm-up, at the end, the largest; growth is the worst.
    let samples = samples.lock().unwrap().clone();
    let warm_at = samples
        .iter()
        .find(|(t, _)| *t >= (secs as f64 / 4.0).min(15.0))
        .or(samples.first());
    let warm: Vec<u64> = warm_at.map_or_else(Vec::new, |s| s.1.clone());
    let end: Vec<u64> = samples.last().map_or_else(Vec::new, |s| s.1.clone());
    let max: Vec<u64> = (0..pids.len())
        .map(|i| samples.iter().map(|s| s.1[i]).max().unwrap_or(0))
        .collect();
    let growth = warm
        .iter()
        .zip(&end)
        .filter(|(w, _)| **w > 0)
        .map(|(w, e)| (*e as f64 - *w as f64) / *w as f64)
        .fold(0.0f64, f64::max);
    drop(started);

    println!(
        "events ingested: {sent} in {produced_for:.1} s ({:.0}/s)",
        sent as f64 / produced_for
    );
    println!(
        "envelopes expected per client: {} (events with rows); delivered in total: {total}",
        history.len()
    );
    println!("POSTs refused: {refused}");
    println!("lost: {lost}  duplicated: {dup}  out of order: {disorder}");
    println!("ingest-to-client latency: p50 {p50:.2} ms  p99 {p99:.2} ms  p99.9 {p999:.2} ms");
    println!(
        "POST of {per_batch} lines: p50 {:.2} ms  p99 {:.2} ms",
        percentile(&post_ms, 0.5),
        percentile(&post_ms, 0.99)
    );
    println!(
        "history page of 500 envelopes ({} KiB, {} pages): p50 {:.2} ms  p99 {:.2} ms  max {:.2} ms",
        page_bytes / 1024,
        hist_ms.len(),
        percentile(&hist_ms, 0.5),
        percentile(&hist_ms, 0.99),
        hist_ms.last().copied().unwrap_or(0.0)
    );
    println!(
        "CPU while producing: server(s) {:.0}% of a core, bench (producer + clients) {:.0}%",
        server_cpu * 100.0,
        bench_cpu * 100.0
    );
    let mib = |v: &[u64]| {
        v.iter()
            .map(|k| (k / 1024).to_string())
            .collect::<Vec<_>>()
            .join("/")
    };
    println!(
        "server RSS (MiB, each server): after warm-up {}, end {}, max {} (worst growth {:+.1}%)",
        mib(&warm),
        mib(&end),
        mib(&max),
        growth * 100.0
    );
    let ok = refused == 0
        && lost == 0
        && dup == 0
        && disorder == 0
        && p99 <= target_p99
        && percentile(&hist_ms, 0.99) <= 20.0
        && growth <= 0.25;
    println!("{}", if ok { "PASS" } else { "FAIL" });
    ok
}
