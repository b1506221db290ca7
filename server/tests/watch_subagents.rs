//! Issue 21: a subagent's file under `serve --watch` and `--follow` — a Gemini CLI subagent's
//! recording (`chats/<session id>/<agent>.jsonl`), a Claude Code subagent's transcript
//! (`<session>/subagents/agent-<id>.jsonl`) — goes into its parent's session, its raw events
//! the files' lines byte for byte, and the session's rows are the ones `hiveterm classify`
//! gives reading the files together — whatever order the two files' lines were written in,
//! across a restart, after the derived tables are rebuilt, and in a one-file export of the
//! session.

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

/// A session of two files, as an agent lays them out.
#[derive(Clone, Copy)]
struct Case {
    /// The fixtures: the main log and the subagent's.
    main: &'static str,
    sub: &'static str,
    /// The subagent's id (its file's name).
    agent: &'static str,
    /// Where they go under a project's folder.
    main_at: &'static str,
    sub_at: &'static str,
    /// A piece of the main log's line holding the call that starts the subagent.
    call: &'static str,
    /// The subagent's lines wait for that call (Gemini CLI writes it when the call is done,
    /// after them; Claude Code first).
    held: bool,
}

const SESSION: &str = "6a32b09a-db98-4639-82e6-0e4802f905b6";
const AGENT: &str = "3379175b-11ed-4f13-84e8-b95f2ccef876";

const GEMINI: Case = Case {
    main: "gemini-0.61.0/gemini.subagent.session.jsonl",
    sub: "gemini-0.61.0/6a32b09a-db98-4639-82e6-0e4802f905b6/3379175b-11ed-4f13-84e8-b95f2ccef876.jsonl",
    agent: AGENT,
    main_at: "chats/session-2026-12-02T14-11-6a32b09a.jsonl",
    sub_at: "chats/6a32b09a-db98-4639-82e6-0e4802f905b6/3379175b-11ed-4f13-84e8-b95f2ccef876.jsonl",
    call: "\"agentId\":\"3379175b-11ed-4f13-84e8-b95f2ccef876\"",
    held: true,
};

const CLAUDE: Case = Case {
    main: "claude-code-2.1.332/subagent.transcript.jsonl",
    sub: "claude-code-2.1.332/subagent.transcript/subagents/agent-ae89bd37fdd96fc64.jsonl",
    agent: "ae89bd37fdd96fc64",
    main_at: "-home-dev-work/s1.jsonl",
    sub_at: "-home-dev-work/s1/subagents/agent-ae89bd37fdd96fc64.jsonl",
    call: "\"type\":\"tool_use\",\"id\":\"toolu_01RxUClraJSgxjOUuPo9lzyZxp\"",
    held: false,
};

impl Case {
    fn main_lines(&self) -> Vec<String> {
        lines(self.main)
    }

    fn sub_lines(&self) -> Vec<String> {
        lines(self.sub)
    }

    /// The main log's line holding the call that starts the subagent.
    fn call_line(&self) -> usize {
        self.main_lines()
            .iter()
            .position(|l| l.contains(self.call))
            .unwrap()
    }

    /// The envelopes `hiveterm classify` gives for the files read together.
    fn offline(&self) -> Vec<classifier::TermEnvelope> {
        let mut out = Vec::new();
        let mut log = LogClassifier::new();
        log.feed(&common::fixture(self.main), |e| out.push(e));
        // A followed file may go on: the server leaves the row the end of the log adds (a
        // Gemini recording's last turn's end, issue 45) to the session's end.
        let end = log.ctx().end_pending().is_some();
        log.finish(|e| out.push(e));
        if end {
            out.last_mut().and_then(|e| e.msgs.pop());
        }
        let mut log = log.next_file(Some(self.agent));
        log.feed(&common::fixture(self.sub), |e| out.push(e));
        log.finish(|e| out.push(e));
        out
    }
}

fn lines(rel: &str) -> Vec<String> {
    String::from_utf8(common::fixture(rel))
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Checks the session's rows (its history, through the API) against [`offline`]: each stored
/// event is the next line of its file (by its source), so its seq maps to the seq
/// `hiveterm classify` numbers that line with; rows and `parent` the same.
async fn rows_match_classify(db: &TestDb, case: Case, id: &str, what: &str) {
    let sources = db.sources(id);
    let mains = case.main_lines().len() as u64;
    let (mut m, mut s) = (0, 0);
    let offline_seq: Vec<u64> = sources
        .iter()
        .map(|src| match src.as_deref() {
            None => {
                m += 1;
                m
            }
            Some(a) => {
                assert_eq!(a, case.agent, "{what}: the source is the subagent's id");
                s += 1;
                mains + s
            }
        })
        .collect();
    let addr = common::spawn_server(db.state.clone()).await;
    let history = common::all_history(addr, id, 7).await;
    let want: Vec<Value> = case
        .offline()
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
    // The summary: `hiveterm summary`'s, its seqs (first error, each subagent's call) mapped.
    let (status, mut summary) = common::call_json(
        addr,
        "GET",
        &format!("/api/sessions/{id}/summary"),
        Vec::new(),
    )
    .await;
    assert_eq!(status, 200, "{summary}");
    let remap = |v: &mut Value| {
        if let Some(seq) = v.as_u64() {
            *v = Value::from(offline_seq[seq as usize - 1]);
        }
    };
    remap(&mut summary["first_error_seq"]);
    for sub in summary["by_subagent"].as_array_mut().into_iter().flatten() {
        remap(&mut sub["parent"]);
    }
    let mut log = LogClassifier::new().with_summary();
    log.feed(&common::fixture(case.main), |_| {});
    let end = log.ctx().end_pending();
    log.finish(|_| {});
    let mut log = log.next_file(Some(case.agent));
    log.feed(&common::fixture(case.sub), |_| {});
    log.finish(|_| {});
    let mut offline = serde_json::to_value(log.summary().unwrap()).unwrap();
    // While the session is live, the end of its main log is not counted yet (issue 45).
    let (_, state) = common::call_json(
        addr,
        "GET",
        &format!("/api/sessions/{id}/state"),
        Vec::new(),
    )
    .await;
    if let Some(ok) = end.filter(|_| state["ended"].is_null()) {
        let key = if ok { "turns_ok" } else { "turns_failed" };
        offline[key] = Value::from(offline[key].as_u64().unwrap() - 1);
    }
    assert!(offline["subagents"].as_u64() > Some(0));
    assert_eq!(summary, offline, "{what}: the summary");
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

fn orders(case: Case) -> Vec<(&'static str, Order)> {
    let (mains, subs) = (case.main_lines().len(), case.sub_lines().len());
    let call = case.call_line();
    let main = |r: std::ops::Range<usize>| r.map(|i| (false, i)).collect::<Order>();
    let sub = |r: std::ops::Range<usize>| r.map(|i| (true, i)).collect::<Order>();
    let cat = |parts: Vec<Order>| parts.concat();
    // The call first, then the two files' lines alternating.
    let mut alternating = main(0..call + 1);
    for i in 0..subs.max(mains - call - 1) {
        alternating.extend(sub(i..(i + 1).min(subs)));
        alternating.extend(main((call + 1 + i).min(mains)..(call + 2 + i).min(mains)));
    }
    // As the agent writes them: Gemini CLI the subagent's lines, then the call naming it;
    // Claude Code the call, then the subagent's lines.
    let as_written = if case.held {
        cat(vec![main(0..call), sub(0..subs), main(call..mains)])
    } else {
        cat(vec![main(0..call + 1), sub(0..subs), main(call + 1..mains)])
    };
    let mut orders = vec![
        ("as written", as_written),
        ("alternating after the call", alternating),
        (
            "one file after the other",
            cat(vec![main(0..mains), sub(0..subs)]),
        ),
    ];
    if case.held {
        orders.push((
            "the subagent's start, the call, the rest interleaved",
            cat(vec![
                main(0..2),
                sub(0..5),
                main(2..call + 1),
                sub(5..9),
                main(call + 1..mains),
                sub(9..subs),
            ]),
        ));
    }
    orders
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watched_gemini_subagent_nests_under_its_call_whatever_the_interleaving() {
    watched_whatever_the_interleaving(GEMINI).await;
}

/// Regression: a Claude Code subagent's transcript shared its session's context under
/// `--watch`, so its lines written between the main transcript's changed the main's rows (a
/// turn's end missing) from `hiveterm classify`'s, and the summary's tokens (a message's lines
/// split by another file's counted twice); its lines are now tagged with its id and
/// classified, and summed, as a file of their own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watched_claude_subagent_gives_classifys_rows_whatever_the_interleaving() {
    watched_whatever_the_interleaving(CLAUDE).await;
}

async fn watched_whatever_the_interleaving(case: Case) {
    let db = TestDb::with(Config::default(), 4);
    let root = db.dir.path().join("logs");
    std::fs::create_dir_all(&root).unwrap();
    let root = std::fs::canonicalize(root).unwrap();
    let orders = orders(case);
    // The folders first: a file in a folder made while watched may wait for a rescan (15 s)
    // when the folder's notification comes before the file.
    for k in 0..orders.len() {
        let sub = root.join(format!("p{k}")).join(case.sub_at);
        std::fs::create_dir_all(sub.parent().unwrap()).unwrap();
    }
    let mut store = db.state.store().clone();
    let mut task = start(&store, root.clone());
    let (mains, subs, call) = (case.main_lines(), case.sub_lines(), case.call_line());
    let mut ids = Vec::new();
    for (k, (what, order)) in orders.into_iter().enumerate() {
        let main = root.join(format!("p{k}")).join(case.main_at);
        let sub = root.join(format!("p{k}")).join(case.sub_at);
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
            // A Gemini subagent's lines wait for the call naming them.
            let stored = m + if m > call || !case.held { s } else { 0 };
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
        assert_eq!(of(false), mains, "{what}: the main log's lines");
        assert_eq!(of(true), subs, "{what}: the subagent's lines");
        ids.push((id, what));
    }
    // One session each: the subagent's file is not a session of its own.
    assert_eq!(store.sessions(None, 100).await.unwrap().len(), ids.len());
    task.abort();
    let _ = task.await;
    // History, SSE and checkpoints as the writer made them ...
    let db = TestDb {
        state: hiveterm::AppState::new(store.clone(), Config::default()),
        ..db
    };
    for (id, what) in &ids {
        rows_match_classify(&db, case, id, what).await;
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
        rows_match_classify(&db, case, id, &format!("{what}, rebuilt")).await;
    }
    // `hiveterm share SESSION --export`: the file `hiveterm export` makes of the two files.
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
    let main = root.join("p0").join(case.main_at);
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
    let (mains, subs, call) = (GEMINI.main_lines(), GEMINI.sub_lines(), GEMINI.call_line());
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
    rows_match_classify(&db, GEMINI, &id, "followed").await;
    follow.abort();
    subs_task.abort();
}
