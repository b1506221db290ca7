//! `hiveterm serve --watch DIR` (and `--agents`): every agent log under the watched folders,
//! at any depth and in folders made later, imported and followed — one file, one session.
//!
//! What is a log: a `*.jsonl` or `*.jsonl.zst` file (Claude Code transcripts, Codex rollouts,
//! Gemini CLI chat recordings, hyperhive event logs; the classifier tells the formats apart).
//! A subagent's file is not a session of its own: its lines go into the session of its main
//! log, tagged with the subagent's id (from the file's name) and each classified with its
//! file's own context (`crate::fold`), so they nest under the call that started them, and give
//! the rows `hiveterm classify` gives reading the files together, however they interleave with
//! the main log's. A Claude Code subagent's file is `<project>/<session>/subagents/agent-<id>.jsonl`
//! beside `<project>/<session>.jsonl`; a Gemini CLI subagent's recording is
//! `chats/<session id>/<agent>.jsonl`, beside the main recording whose `sessionId` that is, and is
//! held back until the main recording's call naming it is stored (Gemini CLI writes the call
//! when it is done, after the subagent's lines: [`gate`]).
//!
//! How (bounded in open files and memory however many logs there are):
//! - nothing is held open: a file is opened, read from where its stored lines end up to its
//!   last complete line (a half line waits for its newline), at most [`read::LOOK_BYTES`] a
//!   look, and closed — but for the decoders of a few compressed logs read in pieces, kept
//!   between looks ([`read`], [`kept`]); a half line is not read again;
//! - a file-system notification marks a path to look at; files that changed lately are looked
//!   at every [`HOT_POLL`] (growth within a second even if a notification is lost); a full
//!   rescan every [`RESCAN`] finds what notifications missed (every second without them);
//! - where each file's stored bytes end is committed with its lines (the `follows` table), so
//!   a restart goes on where it stopped: no line stored twice, none skipped, files created
//!   while the server was down imported;
//! - a main log that shrinks, is replaced by another file or is rewritten in place (its
//!   bytes before the stored position are not what they were: `crate::ingest::mark`) becomes
//!   a new session (its id gets the new file's inode), never silently; a subagent's file that
//!   does is said in an error row of its session and read again from its start;
//! - a file that cannot be read (its permission taken away, say) is looked at again at the
//!   next looks (every [`HOT_POLL`] while it changed lately, then at rescans) until it is read;
//! - symbolic links are not followed, found by a rescan or named by a notification: a link
//!   in a watched folder is not a log of it;
//! - a session is live while its file changes, and ended after [`IDLE`] without a change.
//!
//! A session's id is stable from the file's path ([`watch_session_id`]): the same as
//! `--follow` of that path, so a log once followed goes on in the same session; a rollout
//! compressed to `.jsonl.zst` goes on in the session of its `.jsonl` (the lines already stored
//! from it are skipped).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use crate::store::{Store, StoreError};

mod find;
mod gate;
mod import;
mod kept;
mod look;
mod read;
#[cfg(test)]
mod tests;

use find::{Scan, gemini_main};
pub use find::{agent_folders, watch_session_id};

/// How often the files that changed lately are looked at.
pub const HOT_POLL: Duration = Duration::from_millis(250);
/// How often every watched folder is scanned again (what notifications missed).
pub const RESCAN: Duration = Duration::from_secs(15);
/// Main logs read and stored at once (their appends share the writer's transactions on
/// SQLite, and run side by side on PostgreSQL).
const IMPORTS: usize = 4;
/// A session whose file has not changed for this long is ended (live again when it grows).
pub const IDLE: Duration = Duration::from_secs(120);

/// A subagent's file: its main log, the subagent's id its lines are tagged with (from the
/// file's name), and whether it waits for the call naming it (a Gemini CLI subagent's,
/// [`gate`]).
struct Sub {
    main: PathBuf,
    agent: String,
    held: bool,
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
    /// It could not be read (as far as it was looked at): looked at again though unchanged.
    stale: bool,
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
    /// `--follow`'s main log (as found from a subagent's file) and the key its position is
    /// stored under (the path it was given).
    fixed_main: Option<(PathBuf, String)>,
    /// Gemini CLI subagents' recordings held back until their call is stored ([`gate`]),
    /// let through when their main recording's stored lines or idleness change: each one's
    /// main recording, and each main recording's held files.
    waiting: HashMap<PathBuf, PathBuf>,
    holds: HashMap<PathBuf, find::Holds>,
    /// What is known of each main recording's stored lines ([`gate`]).
    scans: HashMap<PathBuf, Scan>,
    /// What the last look left of each file's reading ([`read`]): an unfinished last line
    /// scanned, a big file's next piece.
    kept: HashMap<PathBuf, kept::Kept>,
    /// The main recording of each `(chats folder, session id)` found.
    gemini_mains: HashMap<(PathBuf, String), PathBuf>,
}

/// Watches `roots` forever: imports every log found under them and follows them.
pub async fn watch(store: Store, roots: Vec<PathBuf>, max_line: usize) -> Result<(), StoreError> {
    run(store, roots, None, max_line).await
}

/// What a followed main log's subagents' watch knows of it.
struct Fixed {
    session: String,
    main: PathBuf,
}

/// `--follow` of a session's main log `main`, followed as session `session` (its liveness is
/// the follow's): its subagents' files picked up as they appear and followed into the same
/// session, as `--watch` does — a Claude Code transcript's in `<main without
/// .jsonl>/subagents/`, a Gemini CLI chat recording's in `<its folder>/<its sessionId>/`.
pub async fn follow_subagents(
    store: Store,
    session: String,
    main: PathBuf,
    max_line: usize,
) -> Result<(), StoreError> {
    let Some(dir) = main.to_str().and_then(|m| m.strip_suffix(".jsonl")) else {
        return Ok(());
    };
    let mut roots = vec![Path::new(dir).join("subagents")];
    if let Some(id) = crate::session_files::gemini_session(&main)
        && let Some(folder) = main.parent()
    {
        roots.push(folder.join(id));
    }
    let fixed = Fixed { session, main };
    run(store, roots, Some(fixed), max_line).await
}

/// Watches `roots`; with `fixed`, only subagents' files, into that session.
async fn run(
    store: Store,
    roots: Vec<PathBuf>,
    fixed: Option<Fixed>,
    max_line: usize,
) -> Result<(), StoreError> {
    let roots: Vec<PathBuf> = roots
        .into_iter()
        .map(|r| std::fs::canonicalize(&r).unwrap_or(r))
        .collect();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<PathBuf>();
    let on_event = move |event: notify::Result<notify::Event>| {
        if let Ok(event) = event
            && names_a_change(&event.kind)
        {
            for path in event.paths {
                let _ = tx.send(path);
            }
        }
    };
    // A folder linked into a watched one is not watched through its link.
    let config = notify::Config::default().with_follow_symlinks(false);
    let mut notify = <notify::RecommendedWatcher as notify::Watcher>::new(on_event, config)
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
        fixed_main: fixed.as_ref().map(|f| {
            let canonical = std::fs::canonicalize(&f.main).unwrap_or(f.main.clone());
            (canonical, f.main.to_string_lossy().into_owned())
        }),
        fixed: fixed.map(|f| f.session),
        waiting: HashMap::new(),
        holds: HashMap::new(),
        scans: HashMap::new(),
        kept: HashMap::new(),
        gemini_mains: HashMap::new(),
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

/// Whether a notification can mean a log grew, appeared or went: not a file or folder
/// opened, read or closed unwritten. Those are the watch's own reads: taken as changes, each
/// look would set off the next, and an idle watch would burn a core.
fn names_a_change(kind: &notify::EventKind) -> bool {
    use notify::event::{AccessKind, AccessMode, EventKind};
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        EventKind::Any
        | EventKind::Create(_)
        | EventKind::Modify(_)
        | EventKind::Remove(_)
        | EventKind::Other => true,
    }
}

impl Watcher {
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

    /// The main recording in `chats` of Gemini CLI session `session`, if there is one.
    fn gemini_main(&mut self, chats: PathBuf, session: String) -> Option<PathBuf> {
        let key = (chats, session);
        if let Some(main) = self.gemini_mains.get(&key) {
            return Some(main.clone());
        }
        let main = gemini_main(&key.0, &key.1)?;
        self.gemini_mains.insert(key, main.clone());
        Some(main)
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
}
