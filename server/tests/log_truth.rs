//! What the index says of a log is the log's own (issue 45): every real Gemini CLI 0.61.0
//! chat recording (`fixtures/gemini-0.61.0`), imported by `--watch` from a home where it was
//! last written a month ago, is listed with the status its run really ended with (the paired
//! stream-json's `result`: `ok` for an answer, `failed` for a fatal API error, `interrupted`
//! for the run cut by a signal) as soon as it is read, and every event of it is stored at a
//! time the log states (within its own first and last times), never the server's.
//! Runs on SQLite, and on PostgreSQL with `HIVETERM_TEST_DB=postgres`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

mod common;

use common::TestDb;
use hiveterm::Config;
use hiveterm::ingest::{watch, watch_session_id};

/// Each recording (its fixture's name) and the status its run ended with.
const RECORDINGS: &[(&str, &str)] = &[
    ("api_fatal_400", "failed"),
    // Its run's stderr says `_ApiError: {"error":{"code":400,…}}` (no stream-json).
    ("api_fatal_400_json", "failed"),
    ("api_retry", "ok"),
    ("basic_markdown", "ok"),
    // `-o json` run: its stdout document is the answer.
    ("basic_markdown_json", "ok"),
    ("failing_command", "ok"),
    ("file_edit", "ok"),
    ("file_read", "ok"),
    // Killed mid-answer: its stream-json has no `result`.
    ("interrupted_stream", "interrupted"),
    ("plain_text", "ok"),
    ("reasoning", "ok"),
    // Three runs, each resumed: `resume_1_first`, `resume_2_latest`, `resume_3_by_id`.
    ("resume_1_first", "ok"),
    ("shell_command", "ok"),
    ("subagent", "ok"),
];

const SUBAGENT_DIR: &str = "6a32b09a-db98-4639-82e6-0e4802f905b6";

fn fixtures() -> PathBuf {
    common::repo().join("fixtures/gemini-0.61.0")
}

/// How the run of recording `name` ended, as its stream-json's `result` lines say (`None`:
/// no stream-json).
fn stream_status(name: &str) -> Option<&'static str> {
    let text =
        std::fs::read_to_string(fixtures().join(format!("gemini.{name}.stream.jsonl"))).ok()?;
    let mut status = "interrupted";
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["type"] == "result" {
            status = if v["status"] == "success" {
                "ok"
            } else {
                "failed"
            };
        }
    }
    Some(status)
}

/// The first and last times a file's lines state (`timestamp`, `lastUpdated`, at any depth).
fn stated(path: &Path) -> (f64, f64) {
    fn walk(v: &serde_json::Value, out: &mut Vec<f64>) {
        match v {
            serde_json::Value::Object(map) => {
                for (k, v) in map {
                    if let ("timestamp" | "lastUpdated" | "startTime", Some(s)) =
                        (k.as_str(), v.as_str())
                        && let Ok(t) = chrono_free_rfc3339(s)
                    {
                        out.push(t);
                    }
                    walk(v, out);
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|i| walk(i, out)),
            _ => {}
        }
    }
    let mut times = Vec::new();
    for line in std::fs::read_to_string(path).unwrap().lines() {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
            walk(&v, &mut times);
        }
    }
    let first = times.iter().copied().fold(f64::INFINITY, f64::min);
    let last = times.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (first, last)
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` as unix seconds (the recordings' one spelling).
fn chrono_free_rfc3339(text: &str) -> Result<f64, ()> {
    let bytes = text.as_bytes();
    if bytes.len() < 20 || bytes[4] != b'-' || bytes[10] != b'T' {
        return Err(());
    }
    let num = |a: usize, z: usize| text[a..z].parse::<i64>().map_err(|_| ());
    let (year, month, day) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
    let (hh, mm) = (num(11, 13)?, num(14, 16)?);
    let secs: f64 = text[17..text.len() - 1].parse().map_err(|_| ())?;
    // Days from civil (Howard Hinnant's algorithm).
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Ok((days * 86_400 + hh * 3600 + mm * 60) as f64 + secs)
}

/// A file made to look last written a month ago.
fn age(path: &Path) {
    let old = SystemTime::now() - Duration::from_secs(30 * 86_400);
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(old)
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_45_real_gemini_recordings_read_old_have_their_runs_status_and_times() {
    // The table holds what each run's stream-json says.
    for (name, want) in RECORDINGS {
        if let Some(stream) = stream_status(name) {
            assert_eq!(stream, *want, "{name}: its stream-json's result");
        }
    }
    let db = TestDb::with(Config::default(), hiveterm::store::CHECKPOINT_EVERY);
    let chats = db.dir.path().join("home/.gemini/tmp/p/chats");
    std::fs::create_dir_all(chats.join(SUBAGENT_DIR)).unwrap();
    let mut files = Vec::new();
    for (name, want) in RECORDINGS {
        let path = chats.join(format!("session-{name}.jsonl"));
        std::fs::copy(
            fixtures().join(format!("gemini.{name}.session.jsonl")),
            &path,
        )
        .unwrap();
        age(&path);
        files.push((path, *want));
    }
    let sub = chats
        .join(SUBAGENT_DIR)
        .join("3379175b-11ed-4f13-84e8-b95f2ccef876.jsonl");
    std::fs::copy(
        fixtures().join(SUBAGENT_DIR).join(sub.file_name().unwrap()),
        &sub,
    )
    .unwrap();
    age(&sub);
    let store = db.state.store().clone();
    let roots = vec![std::fs::canonicalize(db.dir.path().join("home")).unwrap()];
    let task = tokio::spawn(async move { watch(store, roots, 1 << 20).await.unwrap() });
    let store = db.state.store();
    let addr = common::spawn_server(db.state.clone()).await;
    let start = Instant::now();
    let mut failures = Vec::new();
    for (path, want) in &files {
        let path = std::fs::canonicalize(path).unwrap();
        let id = watch_session_id(&path);
        let mut lines = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .count();
        let (mut first, mut last) = stated(&path);
        if path.ends_with("session-subagent.jsonl") {
            lines += std::fs::read_to_string(&sub).unwrap().lines().count();
            let (a, b) = stated(&sub);
            (first, last) = (first.min(a), last.max(b));
        }
        // Read whole and ended (it was last written long ago).
        let entry = loop {
            let entry = store.index_entry(&id).await.unwrap();
            if let Some(e) = &entry
                && e.info.ended.is_some()
                && db.raw_events(&id).len() == lines
            {
                break entry.unwrap();
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "{path:?} not read"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if entry.status().as_str() != *want {
            failures.push(format!(
                "{name}: status {} (want {want})",
                entry.status().as_str()
            ));
        }
        for ev in db.raw_events(&id) {
            if !(first..=last).contains(&ev.ts) {
                failures.push(format!(
                    "{name}: event {} at {} outside the log's {first}..{last}",
                    ev.seq, ev.ts
                ));
            }
        }
        // The summary the page's header shows, and its badges, agree with the status.
        let (_, summary) = common::call_json(
            addr,
            "GET",
            &format!("/api/sessions/{id}/summary"),
            Vec::new(),
        )
        .await;
        let n = |k: &str| summary[k].as_u64().unwrap_or(0);
        let ended = n("turns_ok") + n("turns_failed") + n("turns_interrupted");
        let agrees = match *want {
            "ok" => ended == n("turns") && n("turns_failed") == 0 && n("turns_ok") > 0,
            "failed" => n("turns_failed") > 0,
            _ => ended < n("turns"),
        };
        let (_, state) = common::call_json(
            addr,
            "GET",
            &format!("/api/sessions/{id}/state"),
            Vec::new(),
        )
        .await;
        let turn = &state["turn"];
        let badge = match (turn["in_flight"].as_bool(), turn["last_ok"].as_bool()) {
            (Some(false), Some(true)) => "ok",
            (Some(false), Some(false)) => "failed",
            _ => "interrupted",
        };
        if !agrees || badge != *want {
            failures.push(format!("{name}: summary {summary}, turn badge {turn}"));
        }
    }
    task.abort();
    assert!(failures.is_empty(), "{failures:#?}");
}
