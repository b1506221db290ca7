//! Fingerprints the classifier's source and the server's fold (`src/fold.rs`, `src/badges.rs`),
//! so the server knows when rows it derived and cached (checkpoints, rendered envelopes) may be
//! stale and must be rebuilt from the raw events.

use std::path::Path;

fn main() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../classifier");
    let mut files = Vec::new();
    collect(&src.join("src"), &mut files);
    files.push(src.join("Cargo.toml"));
    files.sort();
    let server = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fold = [server.join("src/fold.rs"), server.join("src/badges.rs")];
    // FNV-1a over each file's path (relative) and bytes.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for b in bytes {
            hash ^= u64::from(*b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for f in files.iter().chain(&fold) {
        feed(
            f.strip_prefix(&src)
                .or_else(|_| f.strip_prefix(server))
                .unwrap_or(f)
                .to_string_lossy()
                .as_bytes(),
        );
        feed(&std::fs::read(f).unwrap_or_default());
    }
    println!("cargo:rerun-if-changed={}", src.join("src").display());
    println!(
        "cargo:rerun-if-changed={}",
        src.join("Cargo.toml").display()
    );
    for f in &fold {
        println!("cargo:rerun-if-changed={}", f.display());
    }
    println!("cargo:rustc-env=HIVETERM_CLASSIFIER_FINGERPRINT={hash:016x}");
}

fn collect(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            println!("cargo:rerun-if-changed={}", path.display());
            collect(&path, out);
        } else {
            out.push(path);
        }
    }
}
