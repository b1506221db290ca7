//! Fingerprints the classifier's source and the server's fold (`src/fold.rs`, `src/badges.rs`,
//! `src/index.rs`), so the server knows when rows it derived and cached (checkpoints, rendered
//! envelopes, the sessions' index columns) may be stale and must be rebuilt from the raw events.
//!
//! Also embeds the built page: every file of the workspace's `dist/` (built by
//! `trunk build --release`) when it holds an `index.html`, as a table of `include_bytes!` in
//! `$OUT_DIR/page.rs` (`src/page.rs` includes it). Without a built page the table is empty and
//! the binary carries no page. `dist/` is created empty when missing, so that cargo can watch
//! it (a missing path would rerun this script, and rebuild the crate, on every build).

use std::path::Path;

/// The one walk of a built page's files, shared with `src/page.rs`.
#[path = "src/page/files.rs"]
mod files;

fn main() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../classifier");
    let mut files = Vec::new();
    collect(&src.join("src"), &mut files);
    files.push(src.join("Cargo.toml"));
    files.sort();
    let server = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fold = [
        server.join("src/fold.rs"),
        server.join("src/badges.rs"),
        server.join("src/index.rs"),
    ];
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
    embed_page(&server.join("../dist"));
}

/// Writes `$OUT_DIR/page.rs`: `pub static FILES: &[(&str, &[u8])]`, the built page's files by
/// their `/`-separated path under `dist/` (as `files::page_files` finds them), or none when
/// `dist/index.html` does not exist or `dist/` cannot be read whole (a warning says why).
fn embed_page(dist: &Path) {
    let _ = std::fs::create_dir_all(dist);
    println!("cargo:rerun-if-changed={}", dist.display());
    let mut files = Vec::new();
    if dist.join("index.html").is_file() {
        match files::page_files(dist) {
            Ok(found) => files = found,
            Err(e) => println!(
                "cargo:warning=the page in {} is not embedded: {e}",
                dist.display()
            ),
        }
    }
    let mut out = String::from("pub static FILES: &[(&str, &[u8])] = &[\n");
    for (name, path) in files {
        let path = path.canonicalize().unwrap_or(path);
        out.push_str(&format!(
            "    ({name:?}, include_bytes!({:?})),\n",
            path.display().to_string()
        ));
    }
    out.push_str("];\n");
    let out_dir = std::env::var("OUT_DIR").expect("OUT_DIR");
    std::fs::write(Path::new(&out_dir).join("page.rs"), out).expect("write page.rs");
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
