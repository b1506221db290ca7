//! Issue 46: how `serve --watch` and `--follow` read a hostile log — a zstd bomb (item 1), a
//! zstd log grown by appending frames (item 7), an unterminated long last line (item 9).
//! Memory is the test process's peak (`VmHWM`: nextest runs each test in a process of its
//! own), reading its bytes read (`rchar`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod common;

use common::TestDb;
use hiveterm::Config;
use hiveterm::ingest::{follow, follow_session_id, watch, watch_session_id};
use hiveterm::store::Store;

/// The line limit the tests read with.
const MAX_LINE: usize = 1 << 20;

/// A block of a hand-made zstd frame.
enum Block<'a> {
    Raw(&'a [u8]),
    /// A byte repeated (at most 128 KiB).
    Rle(u8, u32),
}

/// A zstd frame of `blocks` (8 MiB window, no checksum): what a compressor may write, and a
/// bomb when its blocks repeat bytes.
fn frame(blocks: &[Block]) -> Vec<u8> {
    let mut out = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x68];
    for (i, block) in blocks.iter().enumerate() {
        let last = u32::from(i + 1 == blocks.len());
        let (kind, size, body) = match block {
            Block::Raw(b) => (0, b.len() as u32, b.to_vec()),
            Block::Rle(byte, n) => (1, *n, vec![*byte]),
        };
        let header = last | (kind << 1) | (size << 3);
        out.extend_from_slice(&header.to_le_bytes()[..3]);
        out.extend_from_slice(&body);
    }
    out
}

/// A bomb: one frame of `lines` lines of `mib` MiB each (`00000007 aaaa…`), each over
/// [`MAX_LINE`]; about 4 bytes per 128 KiB.
fn bomb(lines: usize, mib: usize) -> Vec<u8> {
    let heads: Vec<String> = (0..lines).map(|i| format!("{i:08} ")).collect();
    let mut blocks = Vec::new();
    for head in &heads {
        blocks.push(Block::Raw(head.as_bytes()));
        blocks.extend((0..mib * 8).map(|_| Block::Rle(b'a', 128 << 10)));
        blocks.push(Block::Raw(b"\n"));
    }
    frame(&blocks)
}

/// A `/proc/self/status` or `/proc/self/io` figure.
fn proc_figure(file: &str, key: &str) -> u64 {
    let text = std::fs::read_to_string(format!("/proc/self/{file}")).unwrap();
    let line = text.lines().find(|l| l.starts_with(key)).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// The test process's peak resident memory, in MiB.
fn peak_mib() -> u64 {
    proc_figure("status", "VmHWM:") / 1024
}

/// The tests of this file measure the whole process (its peak, its bytes read): they run one
/// at a time, each holding this.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Starts the process's peak (`VmHWM`) again from what it holds now (Linux: `clear_refs` 5),
/// so that a test before this one does not count.
fn reset_peak() {
    std::fs::write("/proc/self/clear_refs", "5").unwrap();
}

/// Bytes the test process has read so far.
fn bytes_read() -> u64 {
    proc_figure("io", "rchar:")
}

/// Waits (up to `within`) until `check` holds of session `id`'s events.
async fn until(
    db: &TestDb,
    id: &str,
    within: Duration,
    check: impl Fn(&[common::RawEvent]) -> bool,
) -> Vec<common::RawEvent> {
    let start = Instant::now();
    loop {
        let got = db.raw_events(id);
        if check(&got) {
            return got;
        }
        assert!(
            start.elapsed() <= within,
            "session {id}: after {within:?}, {} events",
            got.len()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// How a log is read: `serve --watch` of its folder, or `--follow` of it.
#[derive(Debug, Clone, Copy)]
enum Via {
    Watch,
    Follow,
}

impl Via {
    /// Starts reading `log` into its session; answers the session and the task.
    async fn start(self, store: &Store, log: &Path) -> (String, tokio::task::JoinHandle<()>) {
        let store = store.clone();
        let log = std::fs::canonicalize(log).unwrap();
        match self {
            Via::Watch => {
                let root = log.parent().unwrap().to_owned();
                let id = watch_session_id(&log);
                let task = tokio::spawn(async move {
                    watch(store, vec![root], MAX_LINE).await.unwrap();
                });
                (id, task)
            }
            Via::Follow => {
                let id = follow_session_id(&log);
                store.open_session(&id, "log", "follow").await.unwrap();
                let task = tokio::spawn({
                    let id = id.clone();
                    async move {
                        follow(store, id, log, MAX_LINE).await.unwrap();
                    }
                });
                (id, task)
            }
        }
    }
}

/// Item 1: a bomb (256 MiB of 4 MiB lines in 9 KB) is read in pieces: the process's peak
/// stays far under what it decompresses to (the old code held it whole: over 256 MiB); a
/// reader stopped half way and started again goes on from the committed position, each line
/// stored once.
async fn check_bomb(via: Via) {
    let db = TestDb::with(Config::default(), hiveterm::store::CHECKPOINT_EVERY);
    let dir = db.dir.path().join("logs");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("rollout-bomb.jsonl.zst");
    let (lines, mib) = (64, 4);
    let bytes = bomb(lines, mib);
    assert!(bytes.len() < 10_000, "{} bytes", bytes.len());
    std::fs::write(&log, &bytes).unwrap();
    reset_peak();
    let before = peak_mib();
    let store = db.state.store().clone();
    let (id, task) = via.start(&store, &log).await;
    // Stopped half way (a server killed), then started again.
    let some = |e: &[common::RawEvent]| e.len() >= 4;
    let got = until(&db, &id, Duration::from_secs(60), some).await;
    assert!(got.len() < lines, "{via:?}: read in pieces, not whole");
    task.abort();
    let _ = task.await;
    store.close().await;
    let store = db.reopen(hiveterm::store::CHECKPOINT_EVERY);
    let (_, task) = via.start(&store, &log).await;
    let all = |e: &[common::RawEvent]| e.len() >= lines;
    until(&db, &id, Duration::from_secs(120), all).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    let got: Vec<(String, Option<i64>)> = db
        .raw_events(&id)
        .into_iter()
        .map(|e| (String::from_utf8(e.raw[..9].to_vec()).unwrap(), e.cut_len))
        .collect();
    let want: Vec<(String, Option<i64>)> = (0..lines)
        .map(|i| (format!("{i:08} "), Some((9 + (mib << 20)) as i64)))
        .collect();
    assert_eq!(got, want, "{via:?}: each line once, in order");
    let peak = peak_mib();
    // The growth, not the peak: the test binary's earlier tests may have left it at 130 MiB.
    assert!(
        peak.saturating_sub(before) < 100,
        "{via:?}: the peak went from {before} MiB to {peak} MiB reading a {} MiB bomb",
        lines * mib
    );
    task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_46_zstd_bomb_in_a_watched_folder_is_read_in_bounded_pieces() {
    let _one = ONE_AT_A_TIME.lock().await;
    check_bomb(Via::Watch).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_46_zstd_bomb_followed_is_read_in_bounded_pieces() {
    let _one = ONE_AT_A_TIME.lock().await;
    check_bomb(Via::Follow).await;
}

/// Item 7: a zstd log grown by appending frames (one line each) while it is read stores
/// each line once (the old code committed the length it saw before reading, and a frame
/// appended meanwhile was read again).
async fn check_appended_frames(via: Via) {
    let db = TestDb::with(Config::default(), hiveterm::store::CHECKPOINT_EVERY);
    let dir = db.dir.path().join("logs");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("rollout-grown.jsonl.zst");
    let line = |i: usize| format!("{{\"kind\":\"note\",\"ts\":1764468000,\"text\":\"frame {i}\"}}");
    let one = move |i: usize| frame(&[Block::Raw(format!("{}\n", line(i)).as_bytes())]);
    std::fs::write(&log, one(0)).unwrap();
    let store = db.state.store().clone();
    let (id, task) = via.start(&store, &log).await;
    until(&db, &id, Duration::from_secs(10), |e| !e.is_empty()).await;
    let n = 1500;
    let writer = {
        let log = log.clone();
        std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new().append(true).open(log).unwrap();
            for i in 1..n {
                f.write_all(&one(i)).unwrap();
                std::thread::sleep(Duration::from_micros(700));
            }
        })
    };
    writer.join().unwrap();
    let want: Vec<String> = (0..n).map(line).collect();
    let done = |e: &[common::RawEvent]| e.len() >= n;
    until(&db, &id, Duration::from_secs(30), done).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let got = db.raw_lines(&id);
    let twice = got.len().saturating_sub(want.len());
    assert!(
        got == want,
        "{via:?}: {} lines stored for {n} frames ({twice} more)",
        got.len()
    );
    task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_46_frames_appended_to_a_watched_zstd_log_are_stored_once() {
    let _one = ONE_AT_A_TIME.lock().await;
    check_appended_frames(Via::Watch).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_46_frames_appended_to_a_followed_zstd_log_are_stored_once() {
    let _one = ONE_AT_A_TIME.lock().await;
    check_appended_frames(Via::Follow).await;
}

/// Item 9: a watched log whose last line has no newline yet, growing a little at a time and
/// touched without growing, is not read again from the line's start at each look: only the
/// new bytes are (the old code read the whole line at every look). Once the newline comes
/// the line is stored once: over the limit as its head and length, under it whole.
async fn check_unterminated(max_line: usize, partial: usize) {
    let db = TestDb::with(Config::default(), hiveterm::store::CHECKPOINT_EVERY);
    let dir = db.dir.path().join("logs");
    std::fs::create_dir_all(&dir).unwrap();
    let log: PathBuf = dir.join("long.jsonl");
    let first = "{\"kind\":\"note\",\"ts\":1764468000,\"text\":\"first\"}";
    let mut text = format!("{first}\n{{\"kind\":\"note\",\"text\":\"").into_bytes();
    text.resize(first.len() + 1 + partial, b'x');
    std::fs::write(&log, &text).unwrap();
    let store = db.state.store().clone();
    let id = watch_session_id(&std::fs::canonicalize(&log).unwrap());
    let task = tokio::spawn({
        let store = store.clone();
        async move { watch(store, vec![dir], max_line).await.unwrap() }
    });
    until(&db, &id, Duration::from_secs(10), |e| e.len() == 1).await;
    // The first looks read the line as far as it goes: until the reads stop.
    let start = Instant::now();
    let mut read_before = bytes_read();
    loop {
        tokio::time::sleep(Duration::from_millis(600)).await;
        let now = bytes_read();
        if now - read_before < 64 << 10 || start.elapsed() > Duration::from_secs(30) {
            read_before = now;
            break;
        }
        read_before = now;
    }
    let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    let mut grown = 0;
    for i in 0..20 {
        if i % 2 == 0 {
            f.write_all(&[b'x'; 100]).unwrap();
            grown += 100;
        } else {
            // Touched, not grown.
            f.set_modified(std::time::SystemTime::now()).unwrap();
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    let read = bytes_read() - read_before;
    assert!(
        read < (partial as u64) / 4,
        "a {partial}-byte unterminated line: {read} bytes read while it grew by {grown}"
    );
    f.write_all(b"\"}\n").unwrap();
    let last = "{\"kind\":\"note\",\"ts\":1764468000,\"text\":\"last\"}";
    writeln!(f, "{last}").unwrap();
    let got = until(&db, &id, Duration::from_secs(20), |e| e.len() == 3).await;
    let len = partial + grown + 2;
    let (long, cut) = (&got[1].raw, got[1].cut_len);
    if len > max_line {
        assert_eq!(cut, Some(len as i64), "over the limit: its real length");
        assert!(long.len() < 1024 && long.starts_with(b"{\"kind\""));
    } else {
        assert_eq!((long.len(), cut), (len, None), "under the limit: whole");
    }
    assert_eq!(got[2].raw, last.as_bytes());
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(db.raw_events(&id).len(), 3, "nothing stored twice");
    task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_46_an_unterminated_long_line_is_not_read_again_at_each_look() {
    let _one = ONE_AT_A_TIME.lock().await;
    // Over the limit (its reader keeps only its head), and under it but too long to keep
    // (scanned for its newline, then read once).
    for (max_line, partial) in [(MAX_LINE, 48 << 20), (32 << 20, 12 << 20)] {
        check_unterminated(max_line, partial).await;
    }
}
