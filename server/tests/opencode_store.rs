//! `serve --agents` and OpenCode's store (issue 47): a real OpenCode 1.18.33 database
//! (`data/opencode-1.18.33.resume_1_first.db`, copied from the shared corpus `corpus-more`: one
//! session of three runs) read read-only while a writer holds a write transaction on it (WAL),
//! one hiveterm session per OpenCode session, a line per complete message, whose rows are
//! those of `opencode export` of the same session; what the writer commits is stored next, and
//! a restart stores nothing twice. On the backend the suite runs against.

use std::collections::HashMap;
use std::path::Path;

mod common;

use classifier::{LogClassifier, TermMsg};
use common::TestDb;
use hiveterm::ingest::opencode::{opencode_db, read, session_id, store_new};

/// Every row of `lines` classified as one log, in order, but a JSON document's line counts.
fn rows(lines: &[String]) -> Vec<TermMsg> {
    let mut log = LogClassifier::new();
    let mut out = Vec::new();
    log.feed(lines.join("\n").as_bytes(), |e| out.extend(e.msgs));
    log.finish(|e| out.extend(e.msgs));
    // (An export's lines before its last count themselves: `⚙ JSON document · N lines`.)
    out.retain(|m| m.coalesce_key.as_deref() != Some("json-doc"));
    out
}

fn writer(db: &Path) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mode: String = conn
        .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    conn
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_store_read_while_written_a_session_each_as_its_export() {
    let db = TestDb::new();
    let home = db.dir.path().join("home");
    let path = opencode_db(&home);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::copy(
        common::repo().join("server/tests/data/opencode-1.18.33.resume_1_first.db"),
        &path,
    )
    .unwrap();
    // OpenCode writing: WAL, a write transaction open (a prompt being stored).
    let mut conn = writer(&path);
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .unwrap();
    let ses = "ses_db046dc44ffeT1vRxGEtrrbkqI";
    tx.execute(
        "INSERT INTO message (id, session_id, time_created, time_updated, data) \
         VALUES ('msg_zzz', ?1, 1796633900000, 1796633900000, \
         '{\"role\":\"user\",\"time\":{\"created\":1796633900000}}')",
        [ses],
    )
    .unwrap();
    tx.execute(
        "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) \
         VALUES ('prt_zzz', 'msg_zzz', ?1, 1796633900000, 1796633900000, \
         '{\"type\":\"text\",\"text\":\"one more\"}')",
        [ses],
    )
    .unwrap();

    // Read meanwhile: not blocked, the committed messages only.
    let sessions = read(&path).unwrap();
    assert_eq!(sessions.len(), 1);
    assert_eq!(sessions[0].title, "Remember the number 7.");
    assert_eq!(sessions[0].lines.len(), 7);
    let store = db.state.store().clone();
    let mut stored = HashMap::new();
    // Just changed: live.
    let changed = sessions[0].updated_ms;
    store_new(&store, sessions, &mut stored, changed + 1000)
        .await
        .unwrap();
    let id = session_id(ses);
    let lines = db.raw_lines(&id);
    assert_eq!(lines.len(), 7);
    let live = |store: &hiveterm::store::Store| {
        let store = store.clone();
        let id = id.clone();
        async move { store.session_info(&id).await.unwrap().unwrap().live }
    };
    assert!(live(&store).await);

    // The rows are the export's: every prompt, every call, every turn end, in order.
    let export = common::fixture("opencode-1.18.33/opencode.resume_1_first.export.json");
    let export: Vec<String> = String::from_utf8(export)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(rows(&lines), rows(&export));
    assert!(rows(&lines).iter().all(|m| m.icon.as_deref() != Some("!")));

    // Issue 47: not changed for two minutes, it is ended (by OpenCode's clock, not ours).
    let sessions = read(&path).unwrap();
    store_new(&store, sessions, &mut stored, changed + 121_000)
        .await
        .unwrap();
    assert!(!live(&store).await, "an idle OpenCode session is ended");

    // Committed: stored next, live again; a restart (nothing known) stores only what is new.
    tx.commit().unwrap();
    let sessions = read(&path).unwrap();
    assert_eq!(sessions[0].lines.len(), 8);
    let changed = sessions[0].updated_ms;
    store_new(&store, sessions, &mut HashMap::new(), changed + 1000)
        .await
        .unwrap();
    assert!(live(&store).await, "a session changed again is live again");
    let after = db.raw_lines(&id);
    assert_eq!(after.len(), 8);
    assert_eq!(after[..7], lines[..]);
    let last = rows(&after);
    let last = last.last().unwrap();
    assert_eq!(last.summary, "TURN ← user");
    assert_eq!(last.body.as_deref(), Some("one more"));
    let again = read(&path).unwrap();
    store_new(&store, again, &mut HashMap::new(), changed + 1000)
        .await
        .unwrap();
    assert_eq!(db.raw_lines(&id).len(), 8);
}
