//! `hiveterm serve --watch DIR` (and `--agents`): every agent log under the watched folders,
//! at any depth and in folders made later, imported and followed — one file, one session.
//!
//! What is a log: a `*.jsonl` or `*.jsonl.zst` file (Claude Code transcripts, Codex rollouts,
//! Gemini CLI chat recordings, hyperhive event logs; the classifier tells the formats apart).
//! A Claude Code subagent's file (`<project>/<session>/subagents/agent-*.jsonl`) is not a
//! session of its own: its lines go into the session of its main log, nested under the call
//! that started them (each line names its `agentId`). A Gemini CLI subagent's recording
//! (`chats/<session id>/*.jsonl`) is a session of its own: its lines do not say whose they
//! are, and interleaved with the main recording's they could not be told apart.
//!
//! How (bounded in open files and memory however many logs there are):
//! - nothing is held open: a file is opened, read from where its stored lines end up to its
//!   last complete line (a half line waits for its newline), and closed;
//! - a file-system notification marks a path to look at; files that changed lately are looked
//!   at every [`HOT_POLL`] (growth within a second even if a notification is lost); a full
//!   rescan every [`RESCAN`] finds what notifications missed (every second without them);
//! - where each file's stored bytes end is committed with its lines (the `follows` table), so
//!   a restart goes on where it stopped: no line stored twice, none skipped, files created
//!   while the server was down imported;
//! - a main log that shrinks or is replaced by another file becomes a new session (its id
//!   gets the new file's inode), never silently; a subagent's file that does is said in an
//!   error row of its session and read again;
//! - a session is live while its file changes, and ended after [`IDLE`] without a change.
//!
//! A session's id is stable from the file's path ([`watch_session_id`]): the same as
//! `--follow` of that path, so a log once followed goes on in the same session; a rollout
//! compressed to `.jsonl.zst` goes on in the session of its `.jsonl` (the lines already stored
//! from it are skipped).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use classifier::LineReader;
use tokio::io::{AsyncReadExt, AsyncSeekExt};

use super::follow::follow_session_id;
use super::follow_zst;
use super::lines::CHUNK;
use crate::store::{Append, FollowPos, RawLine, Store, StoreError};

/// How often the files that changed lately are looked at.
pub const HOT_POLL: Duration = Duration::from_millis(250);
/// How often every watched folder is scanned again (what notifications missed).
pub const RESCAN: Duration = Duration::from_secs(15);
/// A session whose file has not changed for this long is ended (live again when it grows).
pub const IDLE: Duration = Duration::from_secs(120);
/// Most bytes read from a file into one append.
const BATCH: usize = 16 * CHUNK;

/// The agents' default folders under `home`: Claude Code's projects, Codex's sessions,
/// Gemini CLI's chats (`--agents`).
pub fn agent_folders(home: &Path) -> Vec<PathBuf> {
    vec![
        home.join(".claude").join("projects"),
        home.join(".codex").join("sessions"),
        home.join(".gemini").join("tmp"),
    ]
}

/// The session a watched main log's lines go to: `--follow`'s id for the path (a
/// `.jsonl.zst` that of its `.jsonl`).
pub fn watch_session_id(path: &Path) -> String {
    match path.to_str().and_then(|p| p.strip_suffix(".zst")) {
        Some(plain) => follow_session_id(Path::new(plain)),
        None => follow_session_id(path),
    }
}

/// Whether `path` names an agent log (`*.jsonl`, `*.jsonl.zst`, not hidden).
fn is_log(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let name = name.to_ascii_lowercase();
    let name = name.strip_suffix(".zst").unwrap_or(&name);
    !name.starts_with('.') && Path::new(name).extension().is_some_and(|e| e == "jsonl")
}

/// What a log file is to the watch.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Role {
    /// A session's main log.
    Main,
    /// A subagent's file: its lines go to the session of this main log.
    Sub(PathBuf),
}

fn name_of(path: &Path) -> &str {
    path.file_name().and_then(|n| n.to_str()).unwrap_or("")
}

/// `path`'s role.
fn role(path: &Path) -> Role {
    let parent = path.parent();
    let dir = parent.map(name_of).unwrap_or("");
    let grand = parent.and_then(Path::parent);
    if dir == "subagents" && name_of(path).starts_with("agent-") {
        // <project>/<session>/subagents/agent-<id>.jsonl: the main log is <project>/<session>.jsonl.
        return match grand.and_then(|g| Some((g.parent()?, name_of(g)))) {
            Some((project, session)) if !session.is_empty() => {
                Role::Sub(project.join(format!("{session}.jsonl")))
            }
            _ => Role::Main,
        };
    }
    Role::Main
}

/// What is known of one log file.
#[derive(Debug)]
struct Tracked {
    /// The session its lines go to.
    session: String,
    /// Its size and modification time when last looked at.
    len: u64,
    mtime: Option<SystemTime>,
    /// When it was last seen to change (none: not since the watch found it, or found it
    /// older than [`IDLE`]).
    changed: Option<Instant>,
}

/// One session's liveness as the watch left it.
#[derive(Debug, Default)]
struct Live {
    /// Marked live (opened) by the watch.
    open: bool,
    /// When one of its files last changed.
    changed: Option<Instant>,
}

/// The watch's state.
struct Watcher {
    store: Store,
    roots: Vec<PathBuf>,
    max_line: usize,
    files: HashMap<PathBuf, Tracked>,
    sessions: HashMap<String, Live>,
    /// Roots a notification watch is on.
    notified: HashSet<PathBuf>,
    /// The one session every subagent's file goes to (`--follow`'s; main logs are not
    /// looked at, and the session's liveness is not the watch's).
    fixed: Option<String>,
}

/// Watches `roots` forever: imports every log found under them and follows them.
pub async fn watch(store: Store, roots: Vec<PathBuf>, max_line: usize) -> Result<(), StoreError> {
    run(store, roots, None, max_line).await
}

/// `--follow` of a Claude Code session transcript `main`, followed as session `session` (its
/// liveness is the follow's): its subagents' files, in `<main without .jsonl>/subagents/`,
/// picked up as they appear and followed into the same session, as `--watch` does.
pub async fn follow_subagents(
    store: Store,
    session: String,
    main: PathBuf,
    max_line: usize,
) -> Result<(), StoreError> {
    let Some(dir) = main.to_str().and_then(|m| m.strip_suffix(".jsonl")) else {
        return Ok(());
    };
    run(
        store,
        vec![Path::new(dir).join("subagents")],
        Some(session),
        max_line,
    )
    .await
}

/// Watches `roots`; with `fixed`, only subagents' files, into that session.
async fn run(
    store: Store,
    roots: Vec<PathBuf>,
    fixed: Option<String>,
    max_line: usize,
) -> Result<(), StoreError> {
    let roots: Vec<PathBuf> = roots
        .into_iter()
        .map(|r| std::fs::canonicalize(&r).unwrap_or(r))
        .collect();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<PathBuf>();
    let mut notify = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if let Ok(event) = event {
            for path in event.paths {
                let _ = tx.send(path);
            }
        }
    })
    .map_err(|e| {
        tracing::warn!("file-system notifications unavailable ({e}); rescanning every second")
    })
    .ok();
    let mut w = Watcher {
        store,
        roots,
        max_line,
        files: HashMap::new(),
        sessions: HashMap::new(),
        notified: HashSet::new(),
        fixed,
    };
    w.arm(notify.as_mut());
    w.rescan().await?;
    let mut last_scan = Instant::now();
    loop {
        let mut dirty = BTreeSet::new();
        tokio::select! {
            Some(p) = rx.recv() => {
                dirty.insert(p);
                while let Ok(p) = rx.try_recv() {
                    dirty.insert(p);
                }
            }
            () = tokio::time::sleep(HOT_POLL) => {}
        }
        // A followed transcript's one subagents' folder is small: looked at every second.
        let every = if w.notified.len() == w.roots.len() && w.fixed.is_none() {
            RESCAN
        } else {
            Duration::from_secs(1)
        };
        if last_scan.elapsed() >= every {
            w.arm(notify.as_mut());
            w.rescan().await?;
            last_scan = Instant::now();
        } else {
            w.look(dirty).await?;
        }
        w.end_idle().await?;
    }
}

impl Watcher {
    /// Puts a notification watch on each root there is (a root made later gets one then).
    fn arm(&mut self, notify: Option<&mut notify::RecommendedWatcher>) {
        use notify::Watcher as _;
        let Some(notify) = notify else { return };
        for root in &self.roots {
            if !self.notified.contains(root)
                && root.is_dir()
                && notify.watch(root, notify::RecursiveMode::Recursive).is_ok()
            {
                self.notified.insert(root.clone());
            }
        }
    }

    /// Every log under the roots, looked at: main logs first (oldest first), then subagents'.
    async fn rescan(&mut self) -> Result<(), StoreError> {
        let roots = self.roots.clone();
        let found = tokio::task::spawn_blocking(move || {
            let mut found = Vec::new();
            for root in &roots {
                walk(root, &mut found);
            }
            found
        })
        .await
        .unwrap_or_default();
        self.look_at(found).await
    }

    /// The paths notifications named, and the files that changed lately.
    async fn look(&mut self, dirty: BTreeSet<PathBuf>) -> Result<(), StoreError> {
        let mut found = Vec::new();
        for path in dirty {
            match std::fs::metadata(&path) {
                Ok(m) if m.is_dir() => walk(&path, &mut found),
                Ok(m) if m.is_file() && is_log(&path) => found.push((path, m)),
                _ => {}
            }
        }
        let hot: Vec<PathBuf> = self
            .files
            .iter()
            .filter(|(_, t)| t.changed.is_some_and(|c| c.elapsed() < IDLE))
            .map(|(p, _)| p.clone())
            .collect();
        for path in hot {
            match std::fs::metadata(&path) {
                Ok(m) if m.is_file() => found.push((path, m)),
                Ok(_) => {}
                // Gone: found again if it comes back.
                Err(_) => drop(self.files.remove(&path)),
            }
        }
        self.look_at(found).await
    }

    /// Imports what is new in each of `found` (main logs first, each kind oldest first).
    async fn look_at(
        &mut self,
        found: Vec<(PathBuf, std::fs::Metadata)>,
    ) -> Result<(), StoreError> {
        let mut seen = HashSet::new();
        let mut mains = Vec::new();
        let mut subs = Vec::new();
        for (path, meta) in found {
            if !seen.insert(path.clone()) {
                continue;
            }
            let unchanged = self
                .files
                .get(&path)
                .is_some_and(|t| t.len == meta.len() && t.mtime == meta.modified().ok());
            if unchanged {
                continue;
            }
            match role(&path) {
                Role::Main if self.fixed.is_some() => {}
                Role::Main => mains.push((path, meta, None)),
                Role::Sub(main) => subs.push((path, meta, Some(main))),
            }
        }
        let oldest = |v: &mut Vec<(PathBuf, std::fs::Metadata, Option<PathBuf>)>| {
            v.sort_by(|a, b| (a.1.modified().ok(), &a.0).cmp(&(b.1.modified().ok(), &b.0)));
        };
        oldest(&mut mains);
        oldest(&mut subs);
        for (path, meta, main) in mains.into_iter().chain(subs) {
            if let Err(e) = self.import(&path, &meta, main.as_deref()).await {
                if matches!(e, StoreError::Closed) {
                    return Err(e);
                }
                tracing::error!("watching {}: {e}", path.display());
                // Looked at again on the next rescan.
                self.files.remove(&path);
            }
        }
        Ok(())
    }

    /// Ends the sessions whose files have not changed for [`IDLE`].
    async fn end_idle(&mut self) -> Result<(), StoreError> {
        if self.fixed.is_some() {
            return Ok(());
        }
        let idle: Vec<String> = self
            .sessions
            .iter()
            .filter(|(_, l)| l.open && l.changed.is_none_or(|c| c.elapsed() >= IDLE))
            .map(|(s, _)| s.clone())
            .collect();
        for session in idle {
            match self.store.end_session(&session).await {
                Ok(_) | Err(StoreError::NoSession(_) | StoreError::Ended(_)) => {}
                Err(e) => return Err(e),
            }
            if let Some(l) = self.sessions.get_mut(&session) {
                l.open = false;
            }
        }
        Ok(())
    }

    /// Session `session` created or marked live, titled `title` if new.
    async fn open(&mut self, session: &str, title: &str) -> Result<(), StoreError> {
        if self.fixed.is_some() {
            return Ok(());
        }
        let live = self.sessions.entry(session.to_owned()).or_default();
        if !live.open {
            self.store.open_session(session, title, "watch").await?;
            live.open = true;
        }
        Ok(())
    }

    /// The session of main log `main` (known, stored, or by its path).
    async fn session_of(&self, main: &Path) -> Result<String, StoreError> {
        if let Some(fixed) = &self.fixed {
            return Ok(fixed.clone());
        }
        if let Some(t) = self.files.get(main) {
            return Ok(t.session.clone());
        }
        let key = main.to_string_lossy();
        Ok(match self.store.followed(&key).await? {
            Some((_, session)) => session,
            None => watch_session_id(main),
        })
    }

    /// Stores what `path` holds past its stored position, in batches, each committed with
    /// the position it reaches.
    async fn import(
        &mut self,
        path: &Path,
        meta: &std::fs::Metadata,
        main: Option<&Path>,
    ) -> Result<(), StoreError> {
        let key = path.to_string_lossy().into_owned();
        let stored = self.store.followed(&key).await?;
        let (dev, ino, len) = (meta.dev(), meta.ino(), meta.len());
        let mut session = match (main, &stored) {
            (Some(main), _) => self.session_of(main).await?,
            (None, Some((_, session))) => session.clone(),
            (None, None) => watch_session_id(path),
        };
        let title = main.unwrap_or(path).display().to_string();
        let (mut from, mut skip) = (0, 0);
        let mut note = None;
        if let Some((pos, was)) = &stored {
            if (pos.dev, pos.ino) == (dev, ino) && pos.offset <= len {
                from = pos.offset;
            } else if main.is_none() {
                // Replaced or shrunk: a new session, named after the new file.
                session = next_session(&watch_session_id(path), ino, was);
                tracing::warn!("{key} was replaced or shrank: its lines now go to {session}");
            } else {
                note = Some(format!(
                    "hiveterm: {key} was replaced or shrank; reading it again from the start"
                ));
            }
        } else if let Some(plain) = key.strip_suffix(".zst")
            && let Some((pos, plain_session)) = self.store.followed(plain).await?
        {
            // A rollout compressed after its lines were stored from its `.jsonl`: those
            // are skipped.
            session = plain_session;
            skip = pos.offset;
        }
        let changed = self.tracked(path, &session, meta);
        if len <= from && note.is_none() {
            return Ok(());
        }
        self.open(&session, &title).await?;
        if let Some(live) = self.sessions.get_mut(&session) {
            live.changed = live.changed.max(changed);
        }
        if let Some(text) = note {
            self.append(&session, vec![super::note_line(&text)], None)
                .await?;
        }
        if follow_zst::is_compressed(path).await {
            return self
                .import_zst(path, &session, (dev, ino, len), from, skip)
                .await;
        }
        self.import_plain(path, &session, (dev, ino), from).await
    }

    /// Notes what `path` is now; answers when it was last seen to change.
    fn tracked(&mut self, path: &Path, session: &str, meta: &std::fs::Metadata) -> Option<Instant> {
        let mtime = meta.modified().ok();
        let t = self.files.entry(path.to_owned()).or_insert_with(|| {
            let recent = mtime
                .and_then(|m| SystemTime::now().duration_since(m).ok())
                .is_none_or(|age| age < IDLE);
            Tracked {
                session: session.to_owned(),
                len: meta.len(),
                mtime,
                changed: recent.then(Instant::now),
            }
        });
        if t.len != meta.len() || t.mtime != mtime {
            t.changed = Some(Instant::now());
        }
        t.session = session.to_owned();
        t.len = meta.len();
        t.mtime = mtime;
        t.changed
    }

    async fn append(
        &self,
        session: &str,
        lines: Vec<RawLine>,
        follow: Option<FollowPos>,
    ) -> Result<(), StoreError> {
        if lines.is_empty() && follow.is_none() {
            return Ok(());
        }
        self.store
            .append(Append {
                session: session.to_owned(),
                lines,
                create: None,
                follow,
                key: None,
            })
            .await
            .map(drop)
    }

    /// A plain log from byte `from`: complete lines only, in batches.
    async fn import_plain(
        &self,
        path: &Path,
        session: &str,
        (dev, ino): (u64, u64),
        mut from: u64,
    ) -> Result<(), StoreError> {
        let Ok(mut f) = tokio::fs::File::open(path).await else {
            return Ok(());
        };
        if f.seek(std::io::SeekFrom::Start(from)).await.is_err() {
            return Ok(());
        }
        let mut buf = vec![0u8; CHUNK];
        loop {
            let mut reader = LineReader::with_limit(self.max_line);
            let mut lines = Vec::new();
            let (mut read, mut through) = (0u64, 0u64);
            while read < BATCH as u64 {
                match f.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if let Some(i) = buf[..n].iter().rposition(|&b| b == b'\n') {
                            through = read + i as u64 + 1;
                        }
                        read += n as u64;
                        reader.push(&buf[..n], |line| lines.push(RawLine::from_line(line)));
                    }
                }
            }
            if through == 0 {
                return Ok(()); // nothing complete: the rest waits for its newline.
            }
            let pos = FollowPos {
                path: path.to_string_lossy().into_owned(),
                dev,
                ino,
                offset: from + through,
            };
            self.append(session, lines, Some(pos)).await?;
            from += through;
            if read < BATCH as u64 {
                return Ok(());
            }
            // Go on from the end of the last complete line.
            if f.seek(std::io::SeekFrom::Start(from)).await.is_err() {
                return Ok(());
            }
        }
    }

    /// A compressed log from compressed byte `from`, its first `skip` decompressed bytes
    /// skipped (stored from its `.jsonl` before it was compressed). A frame still being
    /// written is waited for.
    async fn import_zst(
        &mut self,
        path: &Path,
        session: &str,
        (dev, ino, len): (u64, u64, u64),
        from: u64,
        skip: u64,
    ) -> Result<(), StoreError> {
        let plain = match follow_zst::decompressed(path, from).await {
            Ok(p) => p,
            Err(e) => {
                tracing::warn!("{}: {e}; waiting for the rest", path.display());
                return Ok(());
            }
        };
        let rest = plain.get(skip as usize..).unwrap_or_default();
        let lines = follow_zst::lines_of(rest, self.max_line);
        let pos = FollowPos {
            path: path.to_string_lossy().into_owned(),
            dev,
            ino,
            offset: len,
        };
        self.append(session, lines, Some(pos)).await
    }
}

/// The session a main log replaced or shrunk goes on in: `<id>-i<inode>`, or, when that is
/// the one it was in (the same file shrunk again), the next of `<id>-i<inode>-2`, `-3`, ….
fn next_session(id: &str, ino: u64, was: &str) -> String {
    let new = format!("{id}-i{ino:x}");
    if was == new {
        return format!("{new}-2");
    }
    match was
        .strip_prefix(&new)
        .and_then(|rest| rest.strip_prefix('-'))
        .and_then(|n| n.parse::<u64>().ok())
    {
        Some(n) => format!("{new}-{}", n + 1),
        None => new,
    }
}

/// Every log file under `dir`, at any depth, with its metadata (symbolic links not followed).
fn walk(dir: &Path, found: &mut Vec<(PathBuf, std::fs::Metadata)>) {
    let mut stack = vec![dir.to_owned()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file()
                && is_log(&path)
                && let Ok(meta) = entry.metadata()
            {
                found.push((path, meta));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_of_the_agents_files() {
        let check = |path: &str, want: Role| assert_eq!(role(Path::new(path)), want, "{path}");
        check("/p/s1.jsonl", Role::Main);
        check(
            "/p/s1/subagents/agent-a1.jsonl",
            Role::Sub(PathBuf::from("/p/s1.jsonl")),
        );
        check("/p/s1/subagents/notes.jsonl", Role::Main);
        check("/2026/12/02/rollout-2026-x.jsonl.zst", Role::Main);
        check("/proj/chats/abc-123/sub-9.jsonl", Role::Main);
        check("/proj/chats/session-2.jsonl", Role::Main);
    }

    #[test]
    fn a_replaced_log_gets_a_new_session_each_time() {
        assert_eq!(next_session("f-a-1", 0xab, "f-a-1"), "f-a-1-iab");
        assert_eq!(next_session("f-a-1", 0xab, "f-a-1-iab"), "f-a-1-iab-2");
        assert_eq!(next_session("f-a-1", 0xab, "f-a-1-iab-2"), "f-a-1-iab-3");
        assert_eq!(next_session("f-a-1", 0xcd, "f-a-1-iab-2"), "f-a-1-icd");
    }

    #[test]
    fn what_is_a_log() {
        for (name, want) in [
            ("a.jsonl", true),
            ("rollout-1.jsonl.zst", true),
            (".a.jsonl", false),
            ("a.json", false),
            ("a.jsonl.tmp", false),
            ("logs.json", false),
        ] {
            assert_eq!(is_log(Path::new(name)), want, "{name}");
        }
    }

    #[test]
    fn a_compressed_rollout_goes_on_in_its_plain_session() {
        let a = Path::new("/h/.codex/sessions/2026/12/02/rollout-x.jsonl");
        let z = Path::new("/h/.codex/sessions/2026/12/02/rollout-x.jsonl.zst");
        assert_eq!(watch_session_id(a), watch_session_id(z));
        assert_eq!(watch_session_id(a), follow_session_id(a));
    }
}
