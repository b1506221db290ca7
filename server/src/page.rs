//! The built page held in memory: the one the binary carries (`build.rs` embeds `dist/` when
//! it was built before the binary), or a `dist/` directory read whole (`hiveterm export
//! --static DIR`, tests).
//!
//! `hiveterm serve` serves the embedded page unless `--static DIR` names a directory (then
//! the files on disk, as before; a binary built without a page also falls back to `dist/`).
//! The serving rule is the one of `web`: a path names a file, or the longest tail of its
//! segments does (an asset asked for relative to a page below the root), else it is the page
//! (`index.html`).

use std::borrow::Cow;
use std::path::Path;
use std::sync::{Arc, LazyLock};

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, header};
use axum::response::{IntoResponse, Response};

mod files;

pub use files::{MAX_DEPTH, page_files};

mod generated {
    include!(concat!(env!("OUT_DIR"), "/page.rs"));
}

/// A built page: its files by `/`-separated path (`index.html`, `app-….js`, …).
#[derive(Debug, Default)]
pub struct Bundle {
    files: Vec<(String, Cow<'static, [u8]>)>,
}

static EMBEDDED: LazyLock<Option<Arc<Bundle>>> = LazyLock::new(|| {
    let files: Vec<_> = generated::FILES
        .iter()
        .map(|(name, bytes)| ((*name).to_owned(), Cow::Borrowed(*bytes)))
        .collect();
    let bundle = Bundle { files };
    bundle.index_html().is_some().then(|| Arc::new(bundle))
});

/// The page this binary carries, if it was built with one.
pub fn embedded() -> Option<Arc<Bundle>> {
    EMBEDDED.clone()
}

/// What to say when a page is needed and the binary carries none.
pub const NOT_EMBEDDED: &str = "this hiveterm carries no built page: build the page first \
    (`trunk build --release`, see README), then hiveterm (`cargo build --release -p hiveterm`), \
    or name a built page with --static DIR";

impl Bundle {
    /// A page from its files (name, bytes).
    pub fn new(files: Vec<(String, Vec<u8>)>) -> Bundle {
        Bundle {
            files: files.into_iter().map(|(n, b)| (n, Cow::Owned(b))).collect(),
        }
    }

    /// The files of a built page directory (`dist/`), read now: the files [`page_files`]
    /// finds (the ones `build.rs` embeds: [`MAX_DEPTH`] levels of subdirectories, hidden
    /// entries left out, symbolic links followed), all or an error.
    pub fn from_dir(dir: &Path) -> Result<Bundle, String> {
        let err = |e: std::io::Error| format!("cannot read {}: {e}", dir.display());
        let files = page_files(dir)
            .map_err(err)?
            .into_iter()
            .map(|(name, path)| Ok((name, std::fs::read(path)?)))
            .collect::<std::io::Result<Vec<_>>>()
            .map_err(err)?;
        let bundle = Bundle::new(files);
        if bundle.index_html().is_none() {
            return Err(format!(
                "{} holds no built page (no index.html): run `trunk build --release`",
                dir.display()
            ));
        }
        Ok(bundle)
    }

    /// A file's bytes.
    pub fn get(&self, name: &str) -> Option<&[u8]> {
        self.files
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, b)| b.as_ref())
    }

    /// The files' names.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.files.iter().map(|(n, _)| n.as_str())
    }

    /// The page itself, `index.html`, if it is there and UTF-8.
    pub fn index_html(&self) -> Option<&str> {
        std::str::from_utf8(self.get("index.html")?).ok()
    }

    /// The file a request path names by the module's rule (`index.html` never: it is served
    /// as the page).
    pub fn find(&self, path: &str) -> Option<&str> {
        let path = path.trim_start_matches('/');
        let last = path.rsplit('/').next().unwrap_or_default();
        if last.is_empty() || last == "index.html" {
            return None;
        }
        let longest = self.names().map(str::len).max().unwrap_or(0);
        std::iter::once(0)
            .chain(path.match_indices('/').map(|(i, _)| i + 1))
            .map(|i| &path[i..])
            .filter(|tail| tail.len() <= longest)
            .find_map(|tail| self.names().find(|n| *n == tail))
    }

    /// The answer to a GET or HEAD of a file of the page, or `None` when the path names none.
    pub(crate) fn respond(&self, req: &Request) -> Option<Response> {
        if req.method() != Method::GET && req.method() != Method::HEAD {
            return None;
        }
        let name = self.find(req.uri().path())?;
        let bytes = self.get(name)?;
        let body = if req.method() == Method::HEAD {
            Body::empty()
        } else {
            Body::from(bytes.to_vec())
        };
        let mut res = body.into_response();
        let headers = res.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(content_type(name)),
        );
        headers.insert(header::CONTENT_LENGTH, HeaderValue::from(bytes.len()));
        let cache = if hashed(name) {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
        Some(res)
    }
}

/// The media type of a page file, by its extension.
pub fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or_default() {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Whether a built file's name carries trunk's content hash (`app-0123456789abcdef.js`).
pub(crate) fn hashed(name: &str) -> bool {
    let base = name.rsplit('/').next().unwrap_or(name);
    let stem = base.split('.').next().unwrap_or(base);
    stem.rsplit_once('-').is_some_and(|(_, h)| {
        h.len() == 16
            && h.bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bundle() -> Bundle {
        Bundle::new(vec![
            ("index.html".into(), b"<!doctype html>".to_vec()),
            ("app-0123456789abcdef.js".into(), b"js".to_vec()),
            ("snippets/x/inline0.js".into(), b"s".to_vec()),
        ])
    }

    #[test]
    fn find_takes_the_longest_tail_that_names_a_file() {
        let b = bundle();
        let check = |path: &str, expect: Option<&str>| assert_eq!(b.find(path), expect, "{path}");
        check("/app-0123456789abcdef.js", Some("app-0123456789abcdef.js"));
        check(
            "/s/abc/app-0123456789abcdef.js",
            Some("app-0123456789abcdef.js"),
        );
        check(
            "/s/abc/snippets/x/inline0.js",
            Some("snippets/x/inline0.js"),
        );
        check("/index.html", None);
        check("/s/abc/", None);
        check("/s/abc", None);
        check("/nothing.js", None);
    }

    #[test]
    fn a_page_directory_is_walked_once_the_same_way() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let write = |rel: &str| {
            let p = d.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, rel).unwrap();
        };
        write("index.html");
        write("app-0123456789abcdef.js");
        write(".stage/half-built.js");
        write(".hidden");
        write("snippets/x-1/inline0.js");
        write("a/b/c/d/at-depth-4.js");
        write("a/b/c/d/e/too-deep.js");
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("linked.css"), "css").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(outside.path().join("linked.css"), d.join("style.css")).unwrap();
        let names: Vec<String> = page_files(d).unwrap().into_iter().map(|(n, _)| n).collect();
        let mut want = vec![
            "a/b/c/d/at-depth-4.js",
            "app-0123456789abcdef.js",
            "index.html",
            "snippets/x-1/inline0.js",
        ];
        if cfg!(unix) {
            want.push("style.css");
        }
        assert_eq!(names, want);
        let bundle = Bundle::from_dir(d).unwrap();
        assert_eq!(bundle.names().collect::<Vec<_>>(), want);
        if cfg!(unix) {
            assert_eq!(bundle.get("style.css"), Some(&b"css"[..]));
        }
        // A link that leads nowhere is an error, not a page with a file missing.
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(d.join("gone"), d.join("broken.js")).unwrap();
            assert!(page_files(d).is_err());
            assert!(Bundle::from_dir(d).unwrap_err().starts_with("cannot read"));
        }
    }

    #[test]
    fn content_types_follow_extensions() {
        assert_eq!(content_type("a/b.wasm"), "application/wasm");
        assert_eq!(content_type("x.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("noext"), "application/octet-stream");
    }
}
