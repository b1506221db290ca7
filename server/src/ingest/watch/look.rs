//! Finding what changed: the watched folders' notification watches, the full rescan, the
//! paths notifications named and the files that changed lately, and importing each (main
//! logs several at once, then subagents' files one by one).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use futures_util::StreamExt;

use super::find::{Role, is_log, role, walk};
use super::{IDLE, IMPORTS, Sub, Watcher, kept};
use crate::store::StoreError;

impl Watcher {
    /// Puts a notification watch on each root there is (a root made later gets one then).
    pub(super) fn arm(&mut self, notify: Option<&mut notify::RecommendedWatcher>) {
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
    pub(super) async fn rescan(&mut self) -> Result<(), StoreError> {
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

    /// The paths notifications named, and the files that changed lately — as the rescan
    /// finds them: a symbolic link is not followed (nor a path through one).
    pub(super) async fn look(&mut self, dirty: BTreeSet<PathBuf>) -> Result<(), StoreError> {
        let mut found = Vec::new();
        let mut folders = HashMap::new();
        for path in dirty {
            if !self.in_folder(&path, &mut folders) {
                continue;
            }
            match std::fs::symlink_metadata(&path) {
                Ok(m) if m.is_dir() => walk(&path, &mut found),
                Ok(m) if m.is_file() && is_log(&path) => found.push((path, m)),
                Ok(_) => {}
                // Gone: no longer held either.
                Err(_) => {
                    self.unhold(&path);
                }
            }
        }
        let hot: Vec<PathBuf> = self
            .files
            .iter()
            .filter(|(_, t)| t.changed.is_some_and(|c| c.elapsed() < IDLE))
            .map(|(p, _)| p.clone())
            .chain(
                self.kept
                    .iter()
                    .filter(|(_, k)| k.pending())
                    .map(|(p, _)| p.clone()),
            )
            .collect();
        for path in hot {
            match std::fs::symlink_metadata(&path) {
                Ok(m) if m.is_file() && self.in_folder(&path, &mut folders) => {
                    found.push((path, m));
                }
                // Gone, or a link or a folder now: found again if it comes back.
                _ => {
                    self.files.remove(&path);
                    self.unhold(&path);
                    self.kept.remove(&path);
                }
            }
        }
        self.look_at(found).await
    }

    /// Whether `path` is a root, or in a folder reached from one without a symbolic link (its
    /// folder, resolved, is where its path says); `folders` remembers the folders looked at.
    fn in_folder(&self, path: &Path, folders: &mut HashMap<PathBuf, bool>) -> bool {
        if self.roots.iter().any(|r| r == path) {
            return true;
        }
        let Some(dir) = path.parent() else {
            return false;
        };
        if let Some(&known) = folders.get(dir) {
            return known;
        }
        let real = std::fs::canonicalize(dir).ok();
        let inside = self.roots.iter().any(|root| {
            dir.strip_prefix(root).is_ok_and(|rel| {
                std::fs::canonicalize(root).is_ok_and(|r| real.as_ref() == Some(&r.join(rel)))
            })
        });
        folders.insert(dir.to_owned(), inside);
        inside
    }

    /// Imports what is new in each of `found` (main logs first, each kind oldest first).
    pub(super) async fn look_at(
        &mut self,
        found: Vec<(PathBuf, std::fs::Metadata)>,
    ) -> Result<(), StoreError> {
        let mut found = found;
        self.released(&mut found).await?;
        let mut seen = HashSet::new();
        let mut mains = Vec::new();
        let mut subs = Vec::new();
        for (path, meta) in found {
            // Held: looked at again when its main recording lets it through.
            if self.waiting.contains_key(&path) || !seen.insert(path.clone()) {
                continue;
            }
            let unchanged = self.files.get(&path).is_some_and(|t| {
                !t.stale && t.len == meta.len() && t.mtime == meta.modified().ok()
            }) && !self.kept.get(&path).is_some_and(kept::Kept::pending);
            if unchanged {
                continue;
            }
            match role(&path) {
                Role::Sub(main, agent) => {
                    let held = false;
                    subs.push((path, meta, Some(Sub { main, agent, held })));
                }
                Role::GeminiSub {
                    chats,
                    session,
                    agent,
                } => match self.gemini_main(chats, session) {
                    Some(main) => {
                        let held = true;
                        subs.push((path, meta, Some(Sub { main, agent, held })));
                    }
                    None if self.fixed.is_some() => {}
                    None => mains.push((path, meta, None)),
                },
                Role::Main if self.fixed.is_some() => {}
                Role::Main => mains.push((path, meta, None)),
            }
        }
        let oldest = |v: &mut Vec<(PathBuf, std::fs::Metadata, Option<Sub>)>| {
            v.sort_by(|a, b| (a.1.modified().ok(), &a.0).cmp(&(b.1.modified().ok(), &b.0)));
        };
        oldest(&mut mains);
        oldest(&mut subs);
        // Main logs are sessions of their own: planned one by one, read and stored
        // [`IMPORTS`] at a time.
        let mut jobs = Vec::new();
        for (path, meta, _) in mains {
            match self.plan(&path, &meta, None).await {
                Ok(Some(job)) => jobs.push(job),
                Ok(None) => {}
                Err(e) => self.failed(&path, e)?,
            }
        }
        let max_line = self.max_line;
        let done: Vec<_> = futures_util::stream::iter(jobs)
            .map(|job| {
                let store = self.store.clone();
                async move { job.run(&store, max_line).await }
            })
            .buffered(IMPORTS)
            .collect()
            .await;
        for (path, result) in done {
            match result {
                Ok(read) => self.done(path, read),
                Err(e) => self.failed(&path, e)?,
            }
        }
        // A subagent's file goes into its main log's session, after what that has stored.
        for (path, meta, sub) in subs {
            if let Err(e) = self.import(&path, &meta, sub.as_ref()).await {
                self.failed(&path, e)?;
            }
        }
        Ok(())
    }

    /// A log that could not be imported: said, and looked at again on the next rescan; a
    /// closed store ends the watch.
    fn failed(&mut self, path: &Path, e: StoreError) -> Result<(), StoreError> {
        if matches!(e, StoreError::Closed) {
            return Err(e);
        }
        tracing::error!("watching {}: {e}", path.display());
        self.files.remove(path);
        self.kept.remove(path);
        Ok(())
    }
}
