//! Issue 46: how `serve --watch` (and `--follow`) decides what changed, under hostile
//! folders — a log rewritten in place past its stored position (item 3), a log unreadable
//! while it grew (item 8), symbolic links made while serving (item 11), thousands of held-back
//! Gemini CLI subagent recordings (item 12).

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod common;

use common::{DbSpec, TestDb, call_json};
use hiveterm::Config;
use hiveterm::ingest::{follow, follow_session_id, watch, watch_session_id};
use hiveterm::store::Store;

fn note(t: &str) -> String {
    format!("{{\"kind\":\"note\",\"ts\":1764468000,\"text\":\"{t}\"}}")
}

/// `n` note lines `<what> 0` … and the file's bytes.
fn notes(what: &str, n: usize) -> (Vec<String>, String) {
    let lines: Vec<String> = (0..n).map(|i| note(&format!("{what} {i}"))).collect();
    let text = lines.iter().map(|l| format!("{l}\n")).collect();
    (lines, text)
}

/// Waits (up to `within`) until `check` holds of session `id`'s raw lines.
async fn until(db: &TestDb, id: &str, within: Duration, check: impl Fn(&[String]) -> bool) {
    let start = Instant::now();
    loop {
        let got = db.raw_lines(id);
        if check(&got) {
            return;
        }
        assert!(
            start.elapsed() <= within,
            "session {id}: after {within:?}, {} events: {:?}…",
            got.len(),
            got.iter().take(3).collect::<Vec<_>>()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn start_watch(store: &Store, root: PathBuf) -> tokio::task::JoinHandle<()> {
    let store = store.clone();
    tokio::spawn(async move {
        watch(store, vec![root], 1 << 20).await.unwrap();
    })
}

/// How a log is made another file in place.
#[derive(Clone, Copy, Debug)]
enum Rewrite {
    /// Written again from its start in one write (the same inode; as a truncation and a
    /// write look when no look falls between them).
    InOneWrite,
    /// Removed and made again (the inode often reused).
    Recreated,
}

fn rewrite(path: &Path, how: Rewrite, text: &str) {
    use std::io::Write as _;
    match how {
        Rewrite::InOneWrite => {
            let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
            f.write_all(text.as_bytes()).unwrap();
            f.set_len(text.len() as u64).unwrap();
        }
        Rewrite::Recreated => {
            std::fs::remove_file(path).unwrap();
            std::fs::write(path, text).unwrap();
        }
    }
}

/// Item 3: a watched main log of 100 lines rewritten as 300 other lines: all 300 stored,
/// none as a fragment, in a new session (`<id>-i<inode>`); the old session kept as it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_46_a_watched_log_rewritten_in_place_is_stored_whole() {
    for how in [Rewrite::InOneWrite, Rewrite::Recreated] {
        let db = TestDb::with(Config::default(), hiveterm::store::CHECKPOINT_EVERY);
        let root = std::fs::canonicalize(db.dir.path())
            .unwrap()
            .join("projects");
        let log = root.join("-work/s1.jsonl");
        std::fs::create_dir_all(log.parent().unwrap()).unwrap();
        let (old, old_text) = notes("old", 100);
        std::fs::write(&log, &old_text).unwrap();
        let task = start_watch(db.state.store(), root);
        let id = watch_session_id(&log);
        until(&db, &id, Duration::from_secs(10), |got| got == old).await;
        let (new, new_text) = notes("new line", 300);
        rewrite(&log, how, &new_text);
        let ino = std::fs::metadata(&log).unwrap().ino();
        let replaced = format!("{id}-i{ino:x}");
        until(&db, &replaced, Duration::from_secs(10), |got| {
            got.len() >= new.len()
        })
        .await;
        tokio::time::sleep(Duration::from_millis(600)).await;
        assert_eq!(db.raw_lines(&replaced), new, "{how:?}: all 300, whole");
        assert_eq!(db.raw_lines(&id), old, "{how:?}: the old session as it was");
        task.abort();
    }
}

/// Item 3: a subagent's file rewritten in place is read again from its start into its
/// session, after a note; a `--follow`ed file too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_46_a_subagents_or_followed_file_rewritten_in_place_is_read_again_whole() {
    #[derive(Debug, Clone, Copy)]
    enum Source {
        Subagent,
        Followed,
    }
    for source in [Source::Subagent, Source::Followed] {
        for how in [Rewrite::InOneWrite, Rewrite::Recreated] {
            let db = TestDb::with(Config::default(), hiveterm::store::CHECKPOINT_EVERY);
            let root = std::fs::canonicalize(db.dir.path())
                .unwrap()
                .join("projects");
            let main = root.join("-work/s1.jsonl");
            let sub = root.join("-work/s1/subagents/agent-a1.jsonl");
            std::fs::create_dir_all(sub.parent().unwrap()).unwrap();
            std::fs::write(&main, format!("{}\n", note("main"))).unwrap();
            let (old, old_text) = notes("old", 100);
            std::fs::write(&sub, &old_text).unwrap();
            let store = db.state.store().clone();
            let (id, task, before) = match source {
                Source::Subagent => {
                    let id = watch_session_id(&main);
                    let mut before = vec![note("main")];
                    before.extend(old.iter().cloned());
                    (id, start_watch(&store, root), before)
                }
                Source::Followed => {
                    let id = follow_session_id(&sub);
                    store.open_session(&id, "log", "follow").await.unwrap();
                    let task = tokio::spawn({
                        let (store, id, sub) = (store.clone(), id.clone(), sub.clone());
                        async move {
                            follow(store, id, sub, 1 << 20).await.unwrap();
                        }
                    });
                    (id, task, old.clone())
                }
            };
            until(&db, &id, Duration::from_secs(10), |got| got == before).await;
            let (new, new_text) = notes("new line", 300);
            rewrite(&sub, how, &new_text);
            let want = before.len() + 1 + new.len();
            until(&db, &id, Duration::from_secs(10), |got| got.len() >= want).await;
            tokio::time::sleep(Duration::from_millis(600)).await;
            let got = db.raw_lines(&id);
            let what = format!("{source:?} {how:?}");
            assert_eq!(got.len(), want, "{what}: nothing lost, nothing twice");
            assert_eq!(got[..before.len()], before, "{what}");
            assert!(
                got[before.len()].contains("hiveterm: "),
                "{what}: {}",
                got[before.len()]
            );
            assert_eq!(got[before.len() + 1..], new, "{what}: all 300, whole");
            task.abort();
        }
    }
}

/// Item 11: a symbolic link made in a watched folder while serving — to a log outside it, to
/// a folder outside it, or in place of a log already followed — is not imported or followed,
/// as the startup scan and the rescans skip one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_46_symbolic_links_made_while_serving_are_not_followed_out_of_the_folder() {
    let db = TestDb::with(Config::default(), hiveterm::store::CHECKPOINT_EVERY);
    let base = std::fs::canonicalize(db.dir.path()).unwrap();
    let root = base.join("projects");
    let outside = base.join("elsewhere");
    std::fs::create_dir_all(root.join("-work")).unwrap();
    std::fs::create_dir_all(outside.join("logs")).unwrap();
    std::fs::write(
        outside.join("secret.jsonl"),
        format!("{}\n", note("secret")),
    )
    .unwrap();
    std::fs::write(outside.join("logs/x.jsonl"), format!("{}\n", note("x"))).unwrap();
    std::fs::write(outside.join("other.jsonl"), format!("{}\n", note("other"))).unwrap();
    let kept = root.join("-work/kept.jsonl");
    std::fs::write(&kept, format!("{}\n", note("kept"))).unwrap();
    let store = db.state.store().clone();
    let task = start_watch(&store, root.clone());
    until(
        &db,
        &watch_session_id(&kept),
        Duration::from_secs(10),
        |g| g.len() == 1,
    )
    .await;
    // Made while serving: links to a log and to a folder, and a log put in place of one.
    let link = |target: &Path, at: &Path| std::os::unix::fs::symlink(target, at).unwrap();
    link(
        &outside.join("secret.jsonl"),
        &root.join("-work/link.jsonl"),
    );
    link(&outside.join("logs"), &root.join("linked"));
    std::fs::remove_file(&kept).unwrap();
    link(&outside.join("other.jsonl"), &kept);
    // A real log made after them: once it is stored, they were looked at.
    let fresh = root.join("-work/fresh.jsonl");
    std::fs::write(&fresh, format!("{}\n", note("fresh"))).unwrap();
    until(
        &db,
        &watch_session_id(&fresh),
        Duration::from_secs(10),
        |g| g.len() == 1,
    )
    .await;
    // They change too (the files that changed lately are looked at every 250 ms).
    for f in ["secret.jsonl", "logs/x.jsonl", "other.jsonl"] {
        common::append_to(&outside.join(f), &format!("{}\n", note("more")));
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut ids: Vec<String> = store
        .sessions(None, 100)
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect();
    ids.sort();
    let mut want = vec![watch_session_id(&kept), watch_session_id(&fresh)];
    want.sort();
    assert_eq!(ids, want, "only the folder's own logs");
    assert_eq!(db.raw_lines(&watch_session_id(&kept)), [note("kept")]);
    task.abort();
}

/// CPU seconds (user and system) process `pid` has used, from `/proc/<pid>/stat`.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks: f64 = f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap();
    ticks / 100.0
}

/// Events stored in every session, as the API lists them.
async fn stored(addr: std::net::SocketAddr) -> u64 {
    let (_, v) = call_json(addr, "GET", "/api/sessions?limit=1000", vec![]).await;
    v["sessions"].as_array().map_or(0, |s| {
        s.iter().map(|s| s["last_seq"].as_u64().unwrap_or(0)).sum()
    })
}

async fn until_stored(addr: std::net::SocketAddr, want: u64, within: Duration) {
    let start = Instant::now();
    loop {
        let got = stored(addr).await;
        if got == want {
            return;
        }
        assert!(start.elapsed() < within, "stored {got} of {want}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Item 12: held-back Gemini CLI subagent recordings (their calls not stored yet, their main
/// recording not idle) were planned again every 250 ms — a store read or two and two `stat`s
/// each: 6,000 of them kept most of a core. Planned only when something that could release
/// them changes, 2,000 cost next to nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_46_held_gemini_subagent_recordings_are_not_planned_every_tick() {
    let dir = tempfile::tempdir().unwrap();
    let db = DbSpec::fresh(dir.path());
    let chats = dir.path().join("tmp/0846/chats");
    let session = "6a32b09a-db98-4639-82e6-0e4802f905b6";
    std::fs::create_dir_all(chats.join(session)).unwrap();
    let main = format!("{{\"sessionId\":\"{session}\",\"kind\":\"main\"}}\n");
    std::fs::write(chats.join("session-2026-12-02T14-11-6a32b09a.jsonl"), main).unwrap();
    for i in 0..2000 {
        let agent = format!("{i:08x}-11ed-4f13-84e8-b95f2ccef876");
        let line = format!("{{\"sessionId\":\"{agent}\",\"kind\":\"subagent\"}}\n");
        std::fs::write(chats.join(session).join(format!("{agent}.jsonl")), line).unwrap();
    }
    let root = dir.path().join("tmp");
    let args = [
        "serve",
        "--db",
        &db.spec,
        "--addr",
        "127.0.0.1:0",
        "--watch",
        root.to_str().unwrap(),
    ];
    let (mut child, addr) = common::spawn(&args, &[]);
    // The main recording's one line; the subagents' wait for their calls.
    until_stored(addr, 1, Duration::from_secs(30)).await;
    // Each is looked at once at the start: until a second goes by quietly (or 20 s).
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        let before = cpu_seconds(child.id());
        tokio::time::sleep(Duration::from_secs(1)).await;
        if cpu_seconds(child.id()) - before < 0.1 {
            break;
        }
    }
    let before = cpu_seconds(child.id());
    tokio::time::sleep(Duration::from_secs(4)).await;
    let used = cpu_seconds(child.id()) - before;
    assert_eq!(stored(addr).await, 1, "still held");
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        used < 0.4,
        "2,000 held recordings used {used:.2} s of CPU in 4 s"
    );
}

/// Item 8: a log that could not be read while it grew (its read permission taken away, then
/// given back) is read once it can be — not left behind until its next write. The server
/// runs as `nobody` when the tests run as root (whom permissions do not stop).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_46_a_log_unreadable_while_it_grew_is_read_once_it_can_be() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let mode = |p: &Path, m: u32| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
    };
    mode(dir.path(), 0o755);
    let data = dir.path().join("db");
    std::fs::create_dir_all(&data).unwrap();
    mode(&data, 0o777);
    let db = DbSpec::fresh(&data);
    let root = dir.path().join("projects");
    let log = root.join("-work/s1.jsonl");
    std::fs::create_dir_all(log.parent().unwrap()).unwrap();
    let (first, text) = notes("first", 5);
    std::fs::write(&log, text).unwrap();
    mode(&log, 0o644);
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_hiveterm"));
    cmd.args([
        "serve",
        "--db",
        &db.spec,
        "--addr",
        "127.0.0.1:0",
        "--watch",
        root.to_str().unwrap(),
    ]);
    let root_user = std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find(|l| l.starts_with("Uid:"))
        .is_some_and(|l| l.split_whitespace().nth(2) == Some("0"));
    if root_user {
        cmd.uid(65534).gid(65534);
    }
    let (mut child, addr) = common::spawn_command(cmd);
    until_stored(addr, first.len() as u64, Duration::from_secs(30)).await;
    // Unreadable (writable by its owner), it grows; the watch sees it grow and cannot read it.
    mode(&log, 0o200);
    let (_, more) = notes("more", 5);
    common::append_to(&log, &more);
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(stored(addr).await, 5, "not readable yet");
    // Readable again, it does not change: read within the next looks.
    mode(&log, 0o644);
    let start = Instant::now();
    loop {
        let got = stored(addr).await;
        if got == 10 {
            break;
        }
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{got} of 10 lines stored 20 s after it was readable again");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

/// Item 3 for the Gemini CLI hold: a main recording rewritten in place, its new lines naming a
/// held subagent before where its old ones ended, lets that subagent through (what its
/// stored lines name is read again from its start), into the new session.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_46_a_main_recording_rewritten_in_place_is_read_again_for_its_calls() {
    let db = TestDb::with(Config::default(), hiveterm::store::CHECKPOINT_EVERY);
    let root = std::fs::canonicalize(db.dir.path()).unwrap().join("tmp");
    let chats = root.join("0846/chats");
    let session = "6a32b09a-db98-4639-82e6-0e4802f905b6";
    let agent = "3379175b-11ed-4f13-84e8-b95f2ccef876";
    std::fs::create_dir_all(chats.join(session)).unwrap();
    let main = chats.join("session-2026-12-02T14-11-6a32b09a.jsonl");
    let first = format!("{{\"sessionId\":\"{session}\",\"kind\":\"main\"}}");
    let (old, old_text) = notes("old", 20);
    std::fs::write(&main, format!("{first}\n{old_text}")).unwrap();
    let sub_line = format!("{{\"sessionId\":\"{agent}\",\"kind\":\"subagent\"}}");
    let sub = chats.join(session).join(format!("{agent}.jsonl"));
    std::fs::write(&sub, format!("{sub_line}\n")).unwrap();
    let task = start_watch(db.state.store(), root);
    let id = watch_session_id(&main);
    until(&db, &id, Duration::from_secs(10), |g| {
        g.len() == 1 + old.len()
    })
    .await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(
        db.raw_lines(&id).len(),
        1 + old.len(),
        "held: no call names it"
    );
    // Rewritten in place: the call naming it is its second line.
    let call = format!("{{\"agentId\":\"{agent}\"}}");
    let (new, new_text) = notes("new line", 40);
    rewrite(
        &main,
        Rewrite::InOneWrite,
        &format!("{first}\n{call}\n{new_text}"),
    );
    let ino = std::fs::metadata(&main).unwrap().ino();
    let replaced = format!("{id}-i{ino:x}");
    let mut want = vec![first, call];
    want.extend(new);
    want.push(sub_line);
    until(&db, &replaced, Duration::from_secs(10), |g| g == want).await;
    task.abort();
}
