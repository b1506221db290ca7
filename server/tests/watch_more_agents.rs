//! `serve --agents` (issue 47): Qwen Code's and Copilot CLI's own folders are watched like the
//! first three agents' — a Qwen Code session file one session, its subagents' transcripts in
//! that session tagged with their ids; a Copilot CLI session's `events.jsonl` one session named
//! by its folder, the other files of its folder not logs.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod common;

use common::{TestDb, lines_of};
use hiveterm::Config;
use hiveterm::ingest::{agent_folders, watch, watch_session_id};

const QWEN_SESSION: &str = "5d1c2a9e-3f4b-4c6d-8e7f-9a0b1c2d3e4f";
const COPILOT_SESSION: &str = "cbb3797b-afdb-4551-9e74-d625893c0125";

fn copy(from: &str, to: &Path) -> PathBuf {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(common::repo().join("fixtures").join(from), to).unwrap();
    std::fs::canonicalize(to).unwrap()
}

/// Waits (up to 20 s) until session `id` holds `want`.
async fn until(db: &TestDb, id: &str, want: &[String]) {
    let start = Instant::now();
    while db.raw_lines(id) != want {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "session {id}: {} events, want {}",
            db.raw_lines(id).len(),
            want.len()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_47_qwen_and_copilot_folders_are_watched_by_agents() {
    let db = TestDb::with(Config::default(), hiveterm::store::CHECKPOINT_EVERY);
    let home = db.dir.path().join("home");
    let project = home.join(".qwen/projects/-home-dev-work-file-edit");
    let qwen_main = copy(
        "qwen-0.24.4/qwen.file_edit.session.jsonl",
        &project.join(format!("chats/{QWEN_SESSION}.jsonl")),
    );
    let qwen_sub = copy(
        "qwen-0.24.4/qwen.failing_command.session.jsonl",
        &project.join(format!(
            "subagents/{QWEN_SESSION}/agent-general-call_7.jsonl"
        )),
    );
    // Qwen Code's other files are not logs.
    std::fs::write(project.join("meta.json"), "{}").unwrap();
    let state = home.join(".copilot/session-state").join(COPILOT_SESSION);
    let copilot = copy(
        "copilot-1.0.102/copilot.file_edit.events.jsonl",
        &state.join("events.jsonl"),
    );
    std::fs::write(state.join("workspace.yaml"), "id: x\n").unwrap();

    let folders = agent_folders(&home);
    assert!(
        folders.contains(&home.join(".qwen/projects")),
        "{folders:?}"
    );
    assert!(folders.contains(&home.join(".copilot/session-state")));
    let store = db.state.store().clone();
    let task = tokio::spawn(async move { watch(store, folders, 1 << 20).await.unwrap() });

    // The Qwen Code session: its file's lines, then its subagent's, tagged with its id.
    let qwen_id = watch_session_id(&qwen_main);
    let mut want = lines_of(&qwen_main);
    let main_len = want.len();
    want.extend(lines_of(&qwen_sub));
    until(&db, &qwen_id, &want).await;
    let sources = db.sources(&qwen_id);
    assert!(sources[..main_len].iter().all(Option::is_none));
    assert!(
        sources[main_len..]
            .iter()
            .all(|s| s.as_deref() == Some("general-call_7")),
        "{sources:?}"
    );

    // The Copilot CLI session: named by its folder, not by `events`.
    let copilot_id = watch_session_id(&copilot);
    assert!(
        copilot_id.starts_with(&format!("f-{COPILOT_SESSION}-")),
        "{copilot_id}"
    );
    until(&db, &copilot_id, &lines_of(&copilot)).await;

    // Two sessions: a subagent's transcript and the side files are none of their own.
    let sessions = db.state.store().sessions(None, 100).await.unwrap();
    let ids: Vec<&str> = sessions.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids.len(), 2, "{ids:?}");
    assert!(ids.contains(&qwen_id.as_str()) && ids.contains(&copilot_id.as_str()));
    task.abort();
}
