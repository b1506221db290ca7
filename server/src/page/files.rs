//! The files of a built page directory (`dist/`), found by one walk: `build.rs` includes this
//! file (by `#[path]`) to embed them in the binary, and [`crate::page`] reads a `--static`
//! directory with it, so both take the same files.

use std::path::{Path, PathBuf};

/// How many directory levels below `dist/` are walked (trunk puts a crate's JS snippets two
/// levels down, `snippets/<crate>-<hash>/…`).
pub const MAX_DEPTH: usize = 4;

/// Every file under `dir`, as its `/`-separated path under `dir` and its path on disk,
/// sorted by the first: hidden entries (a name starting with `.`, trunk's `.stage` among
/// them) left out, symbolic links followed (a link to a file is that file), directories
/// walked [`MAX_DEPTH`] levels down and no further, names that are not UTF-8 left out. Any
/// entry that cannot be read is an error: a page is taken whole or not at all.
pub fn page_files(dir: &Path) -> std::io::Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    walk(dir, "", 0, &mut out)?;
    out.sort();
    Ok(out)
}

fn walk(
    dir: &Path,
    prefix: &str,
    depth: usize,
    out: &mut Vec<(String, PathBuf)>,
) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir.join(prefix))? {
        let entry = entry?;
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        if name.starts_with('.') {
            continue;
        }
        let rel = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        let path = entry.path();
        // Follows a symbolic link, as reading the file does.
        let meta = std::fs::metadata(&path)?;
        if meta.is_dir() {
            if depth < MAX_DEPTH {
                walk(dir, &rel, depth + 1, out)?;
            }
        } else if meta.is_file() {
            out.push((rel, path));
        }
    }
    Ok(())
}
