//! Issue 21: a Gemini CLI subagent's recording (`chats/<session id>/<agent>.jsonl`) under
//! `serve --watch` and `--follow` goes into its parent's session, its raw events the files'
//! lines byte for byte, and the session's rows are the ones `hiveterm classify` gives reading
//! the files together — whatever order the two files' lines were written in, across a
//! restart, after the derived tables are rebuilt, and in a one-file export of the session.

use std::path::PathBuf;
use std::time::{Duration, Instant};

mod common;
mod seen;

use classifier::LogClassifier;
use common::TestDb;
use hiveterm::Config;
use hiveterm::ingest::{watch, watch_session_id};
use hiveterm::store::Store;
use serde_json::Value;

const MAIN: &str = "gemini-0.61.0/gemini.subagent.session.jsonl";
const SESSION: &str = "6a32b09a-db98-4639-82e6-0e4802f905b6";
const AGENT: &str = "3379175b-11ed-4f13-84e8-b95f2ccef876";

fn lines(rel: &str) -> Vec<String> {
    String::from_utf8(common::fixture(rel))
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

fn main_lines() -> Vec<String> {
    lines(MAIN)
}

fn sub_lines() -> Vec<String> {
    lines(&format!("gemini-0.61.0/{SESSION}/{AGENT}.jsonl"))
}

/// The main recording's line holding the `invoke_agent` call (Gemini CLI writes it when the
/// call is done, after the subagent's lines).
fn call_line() -> usize {
    main_lines()
        .iter()
        .position(|l| l.contains(&format!("\"agentId\":\"{AGENT}\"")))
        .unwrap()
}

/// The envelopes `hiveterm classify` gives for the files read together, keyed by seq.
fn offline() -> Vec<classifier::TermEnvelope> {
    let mut out = Vec::new();
    let mut log = LogClassifier::new();
    log.feed(&common::fixture(MAIN), |e| out.push(e));
    log.finish(|e| out.push(e));
    let mut log = log.next_file(Some(AGENT));
    log.feed(
        &common::fixture(&format!("gemini-0.61.0/{SESSION}/{AGENT}.jsonl")),
        |e| out.push(e),
    );
    log.finish(|e| out.push(e));
    out
}

/// Checks the session's rows (its history, through the API) against [`offline`]: each stored
/// event is the next line of its file (by its source), so its seq maps to the seq
/// `hiveterm classify` numbers that line with; rows and `parent` the same.
async fn rows_match_classify(db: &TestDb, id: &str, what: &str) {
    let sources = db.sources(id);
    let mains = main_lines().len() as u64;
    let (mut m, mut s) = (0, 0);
    let offline_seq: Vec<u64> = sources
        .iter()
        .map(|src| match src.as_deref() {
            None => {
                m += 1;
                m
            }
            Some(a) => {
                assert_eq!(a, AGENT, "{what}: the source is the subagent's id");
                s += 1;
                mains + s
            }
        })
        .collect();
    let addr = common::spawn_server(db.state.clone()).await;
    let history = common::all_history(addr, id, 7).await;
    let want: Vec<Value> = offline()
        .into_iter()
        .filter(|e| !e.msgs.is_empty())
        .map(|e| serde_json::to_value(e).unwrap())
        .collect();
    let map = |seq: &Value| offline_seq[seq.as_u64().unwrap() as usize - 1];
    let got: Vec<(u64, Value, Option<u64>)> = history
        .iter()
        .map(|e| (map(&e["seq"]), e["msgs"].clone(), e.get("parent").map(map)))
        .collect();
    let mut got = got;
    got.sort_by_key(|g| g.0);
    let want: Vec<(u64, Value, Option<u64>)> = want
        .iter()
        .map(|e| {
            (
                e["seq"].as_u64().unwrap(),
                e["msgs"].clone(),
                e.get("parent").and_then(Value::as_u64),
            )
        })
        .collect();
    assert!(want.iter().any(|w| w.2.is_some()), "some rows nest");
    assert_eq!(got.len(), want.len(), "{what}: envelopes with rows");
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g, w, "{what}: the envelope of offline seq {}", w.0);
    }
}

/// Waits until session `id` holds `want` events.
async fn until_count(db: &TestDb, id: &str, want: usize, what: &str) {
    let start = Instant::now();
    while db.raw_events(id).len() != want {
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "{what}: {} events, want {want}",
            db.raw_events(id).len()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn start(store: &Store, root: PathBuf) -> tokio::task::JoinHandle<()> {
    let store = store.clone();
    tokio::spawn(async move {
        watch(store, vec![root], 1 << 20).await.unwrap();
    })
}

/// One order of writing: `(the subagent's file?, line index)`, each line appended in turn.
type Order = Vec<(bool, usize)>;

fn orders() -> Vec<(&'static str, Order)> {
    let (mains, subs, call) = (main_lines().len(), sub_lines().len(), call_line());
    let main = |r: std::ops::Range<usize>| r.map(|i| (false, i)).collect::<Order>();
    let sub = |r: std::ops::Range<usize>| r.map(|i| (true, i)).collect::<Order>();
    let cat = |parts: Vec<Order>| parts.concat();
    // The call first, then the two files' lines alternating.
    let mut alternating = main(0..call + 1);
    for i in 0..subs.max(mains - call - 1) {
        alternating.extend(sub(i..(i + 1).min(subs)));
        alternating.extend(main((call + 1 + i).min(mains)..(call + 2 + i).min(mains)));
    }
    vec![
        // As Gemini CLI writes them: the subagent's lines, then the call naming it.
        (
            "as written",
            cat(vec![main(0..call), sub(0..subs), main(call..mains)]),
        ),
        ("alternating after the call", alternating),
        (
            "one file after the other",
            cat(vec![main(0..mains), sub(0..subs)]),
        ),
        (
            "the subagent's start, the call, the rest interleaved",
            cat(vec![
                main(0..2),
                sub(0..5),
                main(2..call + 1),
                sub(5..9),
                main(call + 1..mains),
                sub(9..subs),
            ]),
        ),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watched_gemini_subagent_nests_under_its_call_whatever_the_interleaving() {
    let db = TestDb::with(Config::default(), 4);
    let root = db.dir.path().join("gemini");
    std::fs::create_dir_all(&root).unwrap();
    let root = std::fs::canonicalize(root).unwrap();
    let mut store = db.state.store().clone();
    let mut task = start(&store, root.clone());
    let (mains, subs, call) = (main_lines(), sub_lines(), call_line());
    let mut ids = Vec::new();
    for (k, (what, order)) in orders().into_iter().enumerate() {
        let chats = root.join(format!("p{k}/chats"));
        let main = chats.join("session-2026-12-02T14-11-6a32b09a.jsonl");
        let sub = chats.join(SESSION).join(format!("{AGENT}.jsonl"));
        std::fs::create_dir_all(sub.parent().unwrap()).unwrap();
        let id = watch_session_id(&main);
        let (mut m, mut s) = (0, 0);
        for (step, &(is_sub, i)) in order.iter().enumerate() {
            if is_sub {
                common::append_to(&sub, &format!("{}\n", subs[i]));
                s += 1;
            } else {
                common::append_to(&main, &format!("{}\n", mains[i]));
                m += 1;
            }
            // The subagent's lines wait for the call naming them.
            let stored = m + if m > call { s } else { 0 };
            until_count(&db, &id, stored, &format!("{what}, step {step}")).await;
            // Halfway through one order: stopped and started again (the fold resumed from
            // a checkpoint, each file's context with it).
            if k == 1 && step == order.len() / 2 {
                task.abort();
                let _ = task.await;
                store.close().await;
                store = db.reopen(4);
                task = start(&store, root.clone());
            }
        }
        // Raw events: each file's lines, byte for byte, in order.
        let raw = db.raw_lines(&id);
        let sources = db.sources(&id);
        let of = |want_sub: bool| -> Vec<String> {
            raw.iter()
                .zip(&sources)
                .filter(|(_, src)| src.is_some() == want_sub)
                .map(|(l, _)| l.clone())
                .collect()
        };
        assert_eq!(of(false), mains, "{what}: the main recording's lines");
        assert_eq!(of(true), subs, "{what}: the subagent's lines");
        ids.push((id, what));
    }
    // One session each: the subagent's recording is not a session of its own.
    assert_eq!(store.sessions(None, 100).await.unwrap().len(), ids.len());
    task.abort();
    let _ = task.await;
    // History, SSE and checkpoints as the writer made them ...
    let db = TestDb {
        state: hiveterm::AppState::new(store.clone(), Config::default()),
        ..db
    };
    for (id, what) in &ids {
        rows_match_classify(&db, id, what).await;
    }
    // ... and derived again from the raw events.
    store.close().await;
    db.sql("DELETE FROM meta WHERE key = 'derived'");
    let store = db.reopen(4);
    let db = TestDb {
        state: hiveterm::AppState::new(store, Config::default()),
        ..db
    };
    for (id, what) in &ids {
        rows_match_classify(&db, id, &format!("{what}, rebuilt")).await;
    }
    // `hiveterm share SESSION --export`: the file `hiveterm export` makes of the recordings.
    let dist = seen::fake_page(db.dir.path());
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_hiveterm"))
            .args(args)
            .args(["--static", dist.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let offline = db.dir.path().join("offline.html");
    let main = root.join("p0/chats/session-2026-12-02T14-11-6a32b09a.jsonl");
    run(&[
        "export",
        main.to_str().unwrap(),
        "-o",
        offline.to_str().unwrap(),
    ]);
    let offline = std::fs::read_to_string(offline).unwrap();
    assert!(
        seen::exported_envelopes(&offline)
            .iter()
            .any(|e| e.get("parent").is_some())
    );
    for (k, (id, what)) in ids.iter().enumerate() {
        let shared = db.dir.path().join(format!("shared{k}.html"));
        run(&[
            "share",
            id,
            "--export",
            shared.to_str().unwrap(),
            "--db",
            &db.db.spec,
        ]);
        let shared = std::fs::read_to_string(shared).unwrap();
        assert_eq!(
            seen::exported_envelopes(&shared),
            seen::exported_envelopes(&offline),
            "{what}: exported"
        );
    }
}

/// `--follow` of a Gemini CLI chat recording picks up its subagents' recordings
/// (`<its folder>/<its sessionId>/`) into the same session, nested under their calls.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_followed_gemini_recording_picks_up_its_subagents_recordings() {
    let db = TestDb::with(Config::default(), 4);
    let chats = db.dir.path().join("chats");
    std::fs::create_dir_all(chats.join(SESSION)).unwrap();
    let main = chats.join("session-2026-12-02T14-11-6a32b09a.jsonl");
    let sub = chats.join(SESSION).join(format!("{AGENT}.jsonl"));
    let (mains, subs, call) = (main_lines(), sub_lines(), call_line());
    // As written: the start, then the subagent's lines, then the call.
    for l in &mains[..call] {
        common::append_to(&main, &format!("{l}\n"));
    }
    let id = hiveterm::ingest::follow_session_id(&main);
    let store = db.state.store().clone();
    store.open_session(&id, "log", "follow").await.unwrap();
    let follow = tokio::spawn(hiveterm::ingest::follow(
        store.clone(),
        id.clone(),
        main.clone(),
        1 << 20,
    ));
    let subs_task = tokio::spawn(hiveterm::ingest::follow_subagents(
        store.clone(),
        id.clone(),
        main.clone(),
        1 << 20,
    ));
    until_count(&db, &id, call, "the start").await;
    for l in &subs {
        common::append_to(&sub, &format!("{l}\n"));
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(db.raw_events(&id).len(), call, "held back until the call");
    for l in &mains[call..] {
        common::append_to(&main, &format!("{l}\n"));
    }
    until_count(&db, &id, mains.len() + subs.len(), "all").await;
    rows_match_classify(&db, &id, "followed").await;
    follow.abort();
    subs_task.abort();
}
