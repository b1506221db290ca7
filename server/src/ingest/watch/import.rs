//! Importing one log file: from where its stored lines end to its last complete line (a
//! compressed one's new frames), in batches committed with the position they reach, a Gemini
//! CLI subagent's tagged with its id (and held back until its call is stored, `super::gate`);
//! a main log replaced, shrunk or rewritten in place (its mark, `crate::ingest::mark`) goes
//! on in a new session.

use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::{Instant, SystemTime};

use super::kept::Kept;
use super::{IDLE, Sub, Tracked, Watcher, watch_session_id};
use crate::ingest::lines::{note_line, store_lines_from};
use crate::ingest::mark;
use crate::store::StoreError;

/// What is left of one file's import once the watch has planned it ([`Watcher::plan`]): the
/// reading and storing, which needs nothing of the watch's state, so several run at once
/// (their appends then share the writer's transactions).
pub(super) struct Job {
    pub(super) path: std::path::PathBuf,
    /// The file, opened when planned (the one looked at, whatever the path names by then).
    pub(super) file: std::fs::File,
    pub(super) session: String,
    /// The subagent's id its lines are tagged with.
    pub(super) agent: Option<String>,
    pub(super) dev: u64,
    pub(super) ino: u64,
    /// Its size when planned.
    pub(super) len: u64,
    /// Where to read from (in a compressed file, its compressed bytes: a frame's start).
    pub(super) from: u64,
    /// In a compressed file, the decompressed bytes of the frame at `from` already stored
    /// (or, read from its start, its first bytes stored from its `.jsonl`).
    pub(super) within: u64,
    /// What the last look left of its reading, when it goes on from there ([`Kept`]).
    pub(super) kept: Option<Kept>,
}

impl Watcher {
    /// Stores what `path` holds past its stored position ([`Watcher::plan`], then
    /// [`Job::run`]); a file read short is looked at again ([`Watcher::stale`]).
    pub(super) async fn import(
        &mut self,
        path: &Path,
        meta: &std::fs::Metadata,
        sub: Option<&Sub>,
    ) -> Result<(), StoreError> {
        if let Some(job) = self.plan(path, meta, sub).await? {
            let (path, read) = job.run(&self.store, self.max_line).await;
            self.done(path, read?);
        }
        Ok(())
    }

    /// What importing `path` takes, past its stored position: its session (made or marked
    /// live), where to read from, and the subagent's id its lines are tagged with (a
    /// subagent's file goes into its main log's session); none when there is nothing new or
    /// it must wait (a held Gemini CLI subagent's) or cannot be opened (looked at again,
    /// [`Watcher::stale`]).
    pub(super) async fn plan(
        &mut self,
        path: &Path,
        meta: &std::fs::Metadata,
        sub: Option<&Sub>,
    ) -> Result<Option<Job>, StoreError> {
        let key = path.to_string_lossy().into_owned();
        let stored = self.store.followed(&key).await?;
        let main = sub.map(|s| s.main.as_path());
        let agent = sub.map(|s| s.agent.as_str());
        if let (Some(sub), None) = (sub.filter(|s| s.held), &stored) {
            if let Some(gate) = self.hold(&sub.main, &sub.agent).await? {
                self.held(path, sub, gate);
                return Ok(None);
            }
            self.unhold(path);
        }
        let (dev, ino, len) = (meta.dev(), meta.ino(), meta.len());
        let mut session = match (main, &stored) {
            (Some(main), _) => self.session_of(main).await?,
            (None, Some((_, session))) => session.clone(),
            (None, None) => watch_session_id(path),
        };
        let title = main.unwrap_or(path).display().to_string();
        // The file looked at, not whatever the path names by now (a symbolic link is not
        // followed out of the folder).
        let file = match std::fs::File::open(path) {
            Ok(f) if f.metadata().is_ok_and(|m| (m.dev(), m.ino()) == (dev, ino)) => f,
            Ok(_) => return Ok(None),
            Err(e) => {
                if !self.files.get(path).is_some_and(|t| t.stale) {
                    tracing::warn!("{key}: {e}; looking at it again later");
                }
                self.tracked(path, &session, meta);
                self.stale(path);
                return Ok(None);
            }
        };
        let (mut from, mut within) = (0, 0);
        let mut note = None;
        if let Some((pos, was)) = &stored {
            if (pos.dev, pos.ino) == (dev, ino)
                && pos.offset <= len
                && mark::holds(&file, pos.offset, pos.mark)
            {
                (from, within) = (pos.offset, pos.within);
            } else if main.is_none() {
                // Replaced, shrunk or rewritten: a new session, named after the new file.
                session = next_session(&watch_session_id(path), ino, was);
                tracing::warn!(
                    "{key} was replaced, shrank or was rewritten: its lines now go to {session}"
                );
            } else {
                note = Some(format!(
                    "hiveterm: {key} was replaced, shrank or was rewritten; reading it again \
                     from the start"
                ));
            }
        } else if let Some(plain) = key.strip_suffix(".zst")
            && let Some((pos, plain_session)) = self.store.followed(plain).await?
        {
            // A rollout compressed after its lines were stored from its `.jsonl`: those
            // are skipped.
            session = plain_session;
            within = pos.offset;
        }
        let changed = self.tracked(path, &session, meta);
        let kept = self.kept_for(path, dev, ino, from, within);
        let more = kept.as_ref().is_some_and(|k| k.more(len));
        if note.is_none() && !more && (len <= from || kept.is_some()) {
            if let Some(kept) = kept {
                self.kept.insert(path.to_owned(), kept);
            }
            return Ok(None);
        }
        self.open(&session, &title).await?;
        if let Some(live) = self.sessions.get_mut(&session) {
            live.changed = live.changed.max(changed);
        }
        if let Some(text) = note {
            store_lines_from(&self.store, &session, vec![note_line(&text)], None, agent).await?;
        }
        Ok(Some(Job {
            path: path.to_owned(),
            file,
            session,
            agent: agent.map(str::to_owned),
            dev,
            ino,
            len,
            from,
            within,
            kept,
        }))
    }

    /// Notes what `path` is now; answers when it was last seen to change.
    pub(super) fn tracked(
        &mut self,
        path: &Path,
        session: &str,
        meta: &std::fs::Metadata,
    ) -> Option<Instant> {
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
                stale: false,
            }
        });
        if t.len != meta.len() || t.mtime != mtime {
            t.changed = Some(Instant::now());
        }
        t.stale = false;
        t.session = session.to_owned();
        t.len = meta.len();
        t.mtime = mtime;
        t.changed
    }

    /// `path` could not be read (as far as it was looked at): looked at again at the next
    /// looks though it has not changed (with the files that changed lately, and at rescans).
    pub(super) fn stale(&mut self, path: &Path) {
        if let Some(t) = self.files.get_mut(path) {
            t.stale = true;
        }
    }
}

/// The session a main log replaced or shrunk goes on in: `<id>-i<inode>`, or, when that is
/// the one it was in (the same file shrunk again), the next of `<id>-i<inode>-2`, `-3`, ….
pub(super) fn next_session(id: &str, ino: u64, was: &str) -> String {
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
