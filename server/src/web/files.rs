//! [`Files`]: the names of the page's built files in `--static`'s directory, listed (bounded)
//! and listed again when it changes, so a request path is matched against a list in memory.

use std::collections::HashSet;
use std::path::{Path as FsPath, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// The names of the built files (relative paths, `/`-separated, without `index.html`), read
/// again when the directory changes (or after [`Files::RESCAN`]).
#[derive(Default)]
pub struct Files {
    cache: std::sync::Mutex<FilesCache>,
}

#[derive(Default)]
struct FilesCache {
    dir: PathBuf,
    names: HashSet<String>,
    longest: usize,
    modified: Option<SystemTime>,
    scanned: Option<Instant>,
}

impl Files {
    /// How long a listing is trusted when the directory's own time has not changed (files
    /// replaced in a subdirectory do not change it).
    const RESCAN: Duration = Duration::from_secs(2);
    /// Most files listed (a `--static` pointed at a huge tree is not walked whole).
    const MAX_FILES: usize = 10_000;
    /// Deepest subdirectory listed.
    const MAX_DEPTH: usize = 4;

    /// The built file `path` (a request path) names by the module's rule, if any.
    pub fn find(&self, dir: &FsPath, path: &str) -> Option<String> {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let modified = std::fs::metadata(dir).and_then(|m| m.modified()).ok();
        let stale = cache.dir != dir
            || cache.modified != modified
            || cache.scanned.is_none_or(|t| t.elapsed() > Self::RESCAN);
        if stale {
            let mut names = HashSet::new();
            list(dir, "", 0, &mut names);
            cache.longest = names.iter().map(String::len).max().unwrap_or(0);
            cache.names = names;
            cache.dir = dir.to_owned();
            cache.modified = modified;
            cache.scanned = Some(Instant::now());
        }
        let path = path.trim_start_matches('/');
        let last = path.rsplit('/').next().unwrap_or_default();
        if last.is_empty() || last == "index.html" {
            return None;
        }
        // The tails, longest first: the whole path, then after each `/`.
        let starts = std::iter::once(0).chain(path.match_indices('/').map(|(i, _)| i + 1));
        starts
            .map(|i| &path[i..])
            .filter(|tail| tail.len() <= cache.longest)
            .find(|tail| cache.names.contains(*tail))
            .map(str::to_owned)
    }
}

/// Adds the files under `dir/prefix` to `names`.
fn list(dir: &FsPath, prefix: &str, depth: usize, names: &mut HashSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir.join(prefix)) else {
        return;
    };
    for entry in entries.flatten() {
        if names.len() >= Files::MAX_FILES {
            return;
        }
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        let rel = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() && depth < Files::MAX_DEPTH {
            list(dir, &rel, depth + 1, names);
        } else if kind.is_file() && rel != "index.html" {
            names.insert(rel);
        }
    }
}
