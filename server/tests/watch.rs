//! `serve --watch DIR` (issue 22): the agents' own folders imported and followed — one file one
//! session, subagents' files in their session, raw events byte for byte the files' lines; a
//! line stored when its newline arrives; growth within a second, a new file (in a new folder)
//! within two; a restart resumes each file where its stored bytes end (nothing twice, files
//! made while down imported); a main log replaced or truncated becomes a new session.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod common;

use common::{TestDb, lines_of};
use hiveterm::Config;
use hiveterm::ingest::{watch, watch_session_id};
use hiveterm::store::Store;

/// Waits (up to `within`) until session `id` holds `want`; answers how long it took.
async fn until(db: &TestDb, id: &str, want: &[String], within: Duration) -> Duration {
    let start = Instant::now();
    loop {
        let got = db.raw_lines(id);
        if got == want {
            return start.elapsed();
        }
        assert!(
            start.elapsed() <= within,
            "session {id}: after {within:?}, {} events, want {}; first difference at {:?}",
            got.len(),
            want.len(),
            got.iter().zip(want).position(|(a, b)| a != b)
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn copy(from: &str, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(common::repo().join("fixtures").join(from), to).unwrap();
}

fn note(t: &str) -> String {
    format!("{{\"kind\":\"note\",\"ts\":1764468000,\"text\":\"{t}\"}}")
}

/// The agents' folders, as each lays out its logs.
struct Home {
    claude: PathBuf,
    codex: PathBuf,
    gemini: PathBuf,
}

impl Home {
    fn new(root: &Path) -> Home {
        let home = Home {
            claude: root.join(".claude/projects"),
            codex: root.join(".codex/sessions"),
            gemini: root.join(".gemini/tmp"),
        };
        let project = home.claude.join("-home-dev-work");
        copy(
            "claude-code-2.1.332/subagent.transcript.jsonl",
            &project.join("s1.jsonl"),
        );
        copy(
            "claude-code-2.1.332/subagent.transcript/subagents/agent-ae89bd37fdd96fc64.jsonl",
            &project.join("s1/subagents/agent-ae89bd37fdd96fc64.jsonl"),
        );
        copy(
            "claude-code-2.1.332/tool_errors.transcript.jsonl",
            &project.join("s2.jsonl"),
        );
        copy(
            "codex-0.171.0/codex_shell_command.session.jsonl",
            &home
                .codex
                .join("2026/12/02/rollout-2026-12-02T14-00-00-a.jsonl"),
        );
        let chats = home.gemini.join("0846/chats");
        copy(
            "gemini-0.61.0/gemini.subagent.session.jsonl",
            &chats.join("session-2026-12-02T14-11-6a32b09a.jsonl"),
        );
        copy(
            "gemini-0.61.0/6a32b09a-db98-4639-82e6-0e4802f905b6/3379175b-11ed-4f13-84e8-b95f2ccef876.jsonl",
            &chats.join(
                "6a32b09a-db98-4639-82e6-0e4802f905b6/3379175b-11ed-4f13-84e8-b95f2ccef876.jsonl",
            ),
        );
        home
    }

    fn roots(&self) -> Vec<PathBuf> {
        vec![self.claude.clone(), self.codex.clone(), self.gemini.clone()]
    }
}

/// Each session and the lines it must hold (a main log's, then its subagents').
fn expected(home: &Home) -> Vec<(String, Vec<String>)> {
    let canon = |p: PathBuf| std::fs::canonicalize(p).unwrap();
    let project = canon(home.claude.join("-home-dev-work"));
    let chats = canon(home.gemini.join("0846/chats"));
    let with = |main: PathBuf, subs: &[PathBuf]| {
        let mut lines = lines_of(&main);
        for s in subs {
            lines.extend(lines_of(s));
        }
        (watch_session_id(&main), lines)
    };
    vec![
        with(
            project.join("s1.jsonl"),
            &[project.join("s1/subagents/agent-ae89bd37fdd96fc64.jsonl")],
        ),
        with(project.join("s2.jsonl"), &[]),
        with(
            canon(
                home.codex
                    .join("2026/12/02/rollout-2026-12-02T14-00-00-a.jsonl"),
            ),
            &[],
        ),
        // A Gemini CLI subagent's recording goes into its parent's session too
        // (`tests/watch_gemini.rs`: nested as `hiveterm classify` nests it).
        with(
            chats.join("session-2026-12-02T14-11-6a32b09a.jsonl"),
            &[chats.join(
                "6a32b09a-db98-4639-82e6-0e4802f905b6/3379175b-11ed-4f13-84e8-b95f2ccef876.jsonl",
            )],
        ),
    ]
}

fn start(store: &Store, roots: Vec<PathBuf>) -> tokio::task::JoinHandle<()> {
    let store = store.clone();
    tokio::spawn(async move {
        watch(store, roots, 1 << 20).await.unwrap();
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agents_folders_imported_followed_and_resumed() {
    let db = TestDb::with(Config::default(), hiveterm::store::CHECKPOINT_EVERY);
    let home = Home::new(db.dir.path());
    let store = db.state.store().clone();
    let task = start(&store, home.roots());
    let want = expected(&home);
    for (id, lines) in &want {
        until(&db, id, lines, Duration::from_secs(20)).await;
    }
    // A subagent's file is not a session of its own: four sessions.
    let sessions = store.sessions(None, 100).await.unwrap();
    assert_eq!(sessions.len(), 4, "{sessions:?}");
    assert!(sessions.iter().all(|s| s.source == "watch"));

    // Growth: half a line is not an event; its newline makes it one, within a second.
    let s2 = std::fs::canonicalize(home.claude.join("-home-dev-work/s2.jsonl")).unwrap();
    let s2_id = watch_session_id(&s2);
    let mut s2_lines = lines_of(&s2);
    common::append_to(&s2, "{\"type\":\"user\",\"message\":");
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(
        db.raw_lines(&s2_id),
        s2_lines,
        "half a line is never an event"
    );
    common::append_to(&s2, "{\"role\":\"user\",\"content\":\"go on\"}}\n");
    s2_lines.push(
        "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"go on\"}}".to_owned(),
    );
    let took = until(&db, &s2_id, &s2_lines, Duration::from_secs(5)).await;
    assert!(took < Duration::from_secs(1), "a grown file took {took:?}");

    // A new file, in a folder made now: a session within two seconds.
    let fresh = home
        .codex
        .join("2026/12/03/rollout-2026-12-03T09-00-00-b.jsonl");
    std::fs::create_dir_all(fresh.parent().unwrap()).unwrap();
    common::append_to(&fresh, &format!("{}\n{}\n", note("one"), note("two")));
    let fresh_id = watch_session_id(&std::fs::canonicalize(&fresh).unwrap());
    let took = until(
        &db,
        &fresh_id,
        &[note("one"), note("two")],
        Duration::from_secs(5),
    )
    .await;
    assert!(took < Duration::from_secs(2), "a new file took {took:?}");

    // Stopped; files grow and appear meanwhile; restarted: only what is new is stored.
    task.abort();
    let _ = task.await;
    common::append_to(&fresh, &format!("{}\n", note("three")));
    let later = home.claude.join("-other/s9.jsonl");
    std::fs::create_dir_all(later.parent().unwrap()).unwrap();
    common::append_to(&later, &format!("{}\n", note("while down")));
    store.close().await;
    let store = db.reopen(hiveterm::store::CHECKPOINT_EVERY);
    let task = start(&store, home.roots());
    until(
        &db,
        &fresh_id,
        &[note("one"), note("two"), note("three")],
        Duration::from_secs(10),
    )
    .await;
    let later_id = watch_session_id(&std::fs::canonicalize(&later).unwrap());
    until(
        &db,
        &later_id,
        &[note("while down")],
        Duration::from_secs(10),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    for (id, lines) in &want {
        if *id != s2_id {
            assert_eq!(&db.raw_lines(id), lines, "{id}: nothing stored twice");
        }
    }
    assert_eq!(db.raw_lines(&s2_id), s2_lines);

    // Replaced by another file: a new session, the old one kept as it was.
    let replacement = db.dir.path().join("replacement.jsonl");
    std::fs::write(&replacement, format!("{}\n", note("new file"))).unwrap();
    std::fs::rename(&replacement, &fresh).unwrap();
    let ino = std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(&fresh).unwrap());
    let replaced_id = format!("{fresh_id}-i{ino:x}");
    until(
        &db,
        &replaced_id,
        &[note("new file")],
        Duration::from_secs(5),
    )
    .await;
    assert_eq!(
        db.raw_lines(&fresh_id),
        [note("one"), note("two"), note("three")]
    );
    // Truncated in place: a new session again? No: same inode, shorter — a new session too.
    std::fs::write(&later, "").unwrap();
    common::append_to(&later, &format!("{}\n", note("x")));
    let later_ino = std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(&later).unwrap());
    let shrunk_id = format!("{later_id}-i{later_ino:x}");
    until(&db, &shrunk_id, &[note("x")], Duration::from_secs(5)).await;
    task.abort();
}

/// A Codex rollout compressed to `.jsonl.zst` after its lines were stored from the `.jsonl`
/// goes on in the same session, nothing stored twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rollout_compressed_while_watched_is_not_stored_twice() {
    let db = TestDb::with(Config::default(), hiveterm::store::CHECKPOINT_EVERY);
    let data = common::repo().join("server/tests/data");
    let compressed = std::fs::read(data.join("codex_resume_1_first.session.jsonl.zst")).unwrap();
    let plain = classifier::zstd::decompress(&compressed).unwrap().unwrap();
    let root = db.dir.path().join("sessions");
    let day = root.join("2026/12/02");
    std::fs::create_dir_all(&day).unwrap();
    let jsonl = day.join("rollout-x.jsonl");
    // Only part of it first, as a live agent writes it.
    let cut = plain.iter().position(|&b| b == b'\n').unwrap() + 1;
    std::fs::write(&jsonl, &plain[..cut]).unwrap();
    let store = db.state.store().clone();
    let task = start(&store, vec![root.clone()]);
    let id = watch_session_id(&std::fs::canonicalize(&jsonl).unwrap());
    let first: Vec<String> = String::from_utf8(plain[..cut].to_vec())
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    until(&db, &id, &first, Duration::from_secs(10)).await;
    // Codex compresses the idle rollout: the .zst appears, the .jsonl goes.
    std::fs::write(day.join("rollout-x.jsonl.zst"), &compressed).unwrap();
    std::fs::remove_file(&jsonl).unwrap();
    let all: Vec<String> = String::from_utf8(plain)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect();
    until(&db, &id, &all, Duration::from_secs(20)).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(db.raw_lines(&id), all);
    assert_eq!(store.sessions(None, 10).await.unwrap().len(), 1);
    task.abort();
}

/// Issue 21: `--follow` of a Claude Code session transcript picks up its subagents' files as
/// they appear (the folder made later), into the same session, nested by their `agentId`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_followed_transcript_picks_up_its_subagents_files_as_they_appear() {
    let db = TestDb::with(Config::default(), hiveterm::store::CHECKPOINT_EVERY);
    let main = db.dir.path().join("proj/s1.jsonl");
    copy("claude-code-2.1.332/subagent.transcript.jsonl", &main);
    let id = hiveterm::ingest::follow_session_id(&main);
    let store = db.state.store().clone();
    store.open_session(&id, "log", "follow").await.unwrap();
    let follow = tokio::spawn(hiveterm::ingest::follow(
        store.clone(),
        id.clone(),
        main.clone(),
        1 << 20,
    ));
    let subs = tokio::spawn(hiveterm::ingest::follow_subagents(
        store.clone(),
        id.clone(),
        main.clone(),
        1 << 20,
    ));
    let mut want = lines_of(&main);
    until(&db, &id, &want, Duration::from_secs(10)).await;
    let sub = db
        .dir
        .path()
        .join("proj/s1/subagents/agent-ae89bd37fdd96fc64.jsonl");
    copy(
        "claude-code-2.1.332/subagent.transcript/subagents/agent-ae89bd37fdd96fc64.jsonl",
        &sub,
    );
    want.extend(lines_of(&sub));
    until(&db, &id, &want, Duration::from_secs(30)).await;
    // Still live: the follow's session is not ended by the subagents' watch.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let info = store.session_info(&id).await.unwrap().unwrap();
    assert!(info.live);
    // Its rows nest as `hiveterm classify` nests the session's.
    let stored = common::all_history(db_addr(&db).await, &id, 500).await;
    assert!(
        stored.iter().any(|e| e.get("parent").is_some()),
        "nested rows"
    );
    follow.abort();
    subs.abort();
}

async fn db_addr(db: &TestDb) -> std::net::SocketAddr {
    common::spawn_server(db.state.clone()).await
}
