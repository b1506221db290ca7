//! `--follow`: a growing log with a partial last line, truncation, rotation, and a restart
//! that goes on where it stopped.

use std::io::Write;
use std::time::{Duration, Instant};

mod common;

use common::TestDb;
use hiveterm::Config;
use hiveterm::ingest::{follow, follow_session_id};

async fn wait_for(db: &TestDb, id: &str, n: usize) -> Vec<String> {
    let start = Instant::now();
    loop {
        let got = db.raw_lines(id);
        if got.len() >= n || start.elapsed() > Duration::from_secs(10) {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn note(t: &str) -> String {
    format!("{{\"kind\":\"note\",\"text\":\"{t}\"}}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follows_partial_lines_truncation_rotation_and_restart() {
    let db = TestDb::with(Config::default(), hiveterm::store::CHECKPOINT_EVERY);
    let dir = &db.dir;
    let log = dir.path().join("agent.jsonl");
    let id = follow_session_id(&log);
    assert!(hiveterm::valid_session_id(&id), "{id}");
    let store = db.state.store().clone();
    store.open_session(&id, "log", "follow").await.unwrap();
    common::append_to(
        &log,
        &format!("{}\n{}\n{{\"kind\":\"note\",", note("a"), note("b")),
    );
    let task = tokio::spawn(follow(store.clone(), id.clone(), log.clone(), 1 << 20));
    assert_eq!(wait_for(&db, &id, 2).await, [note("a"), note("b")]);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        db.raw_lines(&id).len(),
        2,
        "a partial line waits for its newline"
    );
    common::append_to(&log, "\"text\":\"c\"}\n");
    assert_eq!(wait_for(&db, &id, 3).await[2], note("c"));

    // Truncated (copytruncate rotation): read again from the start.
    std::fs::write(&log, format!("{}\n", note("d"))).unwrap();
    let got = wait_for(&db, &id, 5).await;
    assert!(got[3].contains("truncated"), "{got:?}");
    assert_eq!(got[4], note("d"));

    // Rotated: renamed away, a new file in its place.
    common::append_to(&log, &format!("{}\n", note("e")));
    assert_eq!(wait_for(&db, &id, 6).await[5], note("e"));
    std::fs::rename(&log, dir.path().join("agent.jsonl.1")).unwrap();
    std::fs::write(&log, format!("{}\n", note("f"))).unwrap();
    let got = wait_for(&db, &id, 8).await;
    assert!(got[6].contains("replaced"), "{got:?}");
    assert_eq!(got[7], note("f"));

    // Stopped, the file grows, restarted: only the new lines are stored.
    task.abort();
    let _ = task.await;
    common::append_to(&log, &format!("{}\n", note("g")));
    store.close().await;
    let store = db.reopen(hiveterm::store::CHECKPOINT_EVERY);
    let sessions = store.sessions(None, usize::MAX).await.unwrap();
    let info = sessions.iter().find(|s| s.id == id).unwrap();
    // With SQLite a restarted server ends the sessions its sources fed; PostgreSQL replicas
    // share sessions, so one restarting ends none (docs/DEPLOY.md).
    assert_eq!(
        info.live,
        common::on_postgres(),
        "a follow session ends with its server"
    );
    store.open_session(&id, "log", "follow").await.unwrap();
    let task = tokio::spawn(follow(store.clone(), id.clone(), log.clone(), 1 << 20));
    let got = wait_for(&db, &id, 9).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(db.raw_lines(&id).len(), 9, "{got:?}");
    assert_eq!(got[8], note("g"));
    task.abort();
}

/// Regression (issue 20): a Codex rollout compressed to `.jsonl.zst` is imported decompressed,
/// byte for byte the plain file's lines; a frame appended later is imported too; a restart
/// imports nothing twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_compressed_rollout_is_imported_decompressed_once() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let compressed = std::fs::read(data.join("codex_resume_1_first.session.jsonl.zst")).unwrap();
    let plain = classifier::zstd::decompress(&compressed).unwrap().unwrap();
    let lines: Vec<String> = String::from_utf8(plain)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect();
    let db = TestDb::with(Config::default(), hiveterm::store::CHECKPOINT_EVERY);
    let log = db.dir.path().join("rollout-x.jsonl.zst");
    std::fs::write(&log, &compressed).unwrap();
    let id = follow_session_id(&log);
    let store = db.state.store().clone();
    store.open_session(&id, "log", "follow").await.unwrap();
    let task = tokio::spawn(follow(store.clone(), id.clone(), log.clone(), 1 << 20));
    assert_eq!(wait_for(&db, &id, lines.len()).await, lines);

    // One more frame (`hello` as a note line, by zstd -19) appended: imported as it comes.
    let frame: &[u8] = &[
        0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x68, 0x31, 0x00, 0x00, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x0a,
        0x53, 0x88, 0xbd, 0x91,
    ];
    let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    f.write_all(frame).unwrap();
    drop(f);
    let got = wait_for(&db, &id, lines.len() + 1).await;
    assert_eq!(got.last().map(String::as_str), Some("hello"), "{got:?}");

    task.abort();
    let _ = task.await;
    store.close().await;
    let store = db.reopen(hiveterm::store::CHECKPOINT_EVERY);
    store.open_session(&id, "log", "follow").await.unwrap();
    let task = tokio::spawn(follow(store.clone(), id.clone(), log.clone(), 1 << 20));
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(
        db.raw_lines(&id).len(),
        lines.len() + 1,
        "nothing imported twice"
    );
    task.abort();
}
