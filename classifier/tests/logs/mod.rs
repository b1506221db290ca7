//! The logs the whole-corpus tests sweep: every `.jsonl` (and Gemini's `-o json` stdout
//! `.json` and stderr `.txt`) under the real fixtures and the
//! committed hostile logs (shared by `lean.rs` and `resume.rs`).

use std::path::{Path, PathBuf};

/// Every fixture and hostile log, sorted by path.
pub fn every_log() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = Vec::new();
    files(&root.join("../fixtures"), &mut all);
    files(&root.join("tests/hostile"), &mut all);
    assert!(all.len() >= 25, "{all:?}");
    all.sort();
    all
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a test folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e == "jsonl" || e == "json" || e == "txt")
        {
            out.push(path);
        }
    }
}
