//! "Save as one file" in the classifier worker: a log (an offline log's `Blob`, or a live
//! session's raw events fetched from `GET /api/sessions/{id}/events/raw`) and the page's own
//! files (fetched from its origin) made into the one-file export, by the same `onefile`
//! crate as `hiveterm export` — so the same log, options and page give the same bytes.
//!
//! The page starts a worker of its own for each save ([`crate::share::save_button`]), so a save
//! never holds up the offline log's rows or bodies. It asks with
//! [`crate::worker::protocol::ToWorker::Save`] (the log attached, or its URL; the page's
//! `<link href>`s — the workers' glue is found through their trunk loaders next to this
//! worker) and is answered with `Saving` as the log is read, then `Saved` (the file
//! attached) or `Error`.
//!
//! Pure, tested natively: finding the page's files by name ([`glue_of_loader`],
//! [`wasm_of_glue`], [`file_name`]) and the export of a log read in chunks ([`save`]).

use onefile::{Options, Written, html::Assets};

/// Bytes of the log read at a time.
pub const CHUNK: usize = 4 * 1024 * 1024;

/// The trunk loaders of the two workers whose glue an export carries, next to this worker.
pub const LOADERS: [&str; 2] = ["worker_loader.js", "mdworker_loader.js"];

/// The last segment of a URL's path (`https://h/s/app-1.js?x` → `app-1.js`).
pub fn file_name(url: &str) -> &str {
    let path = url.split(['?', '#']).next().unwrap_or_default();
    path.rsplit('/').next().unwrap_or_default()
}

/// Whether a file's name ends in `.ext` (as trunk writes them: lower case).
fn has_ext(name: &str, ext: &str) -> bool {
    std::path::Path::new(name)
        .extension()
        .is_some_and(|e| e == ext)
}

/// The glue a trunk loader imports (`import init from './worker.js';` → `worker.js`).
pub fn glue_of_loader(js: &str) -> Option<String> {
    js.split(['\'', '"'])
        .map(str::trim)
        .find(|s| has_ext(s, "js") && !s.contains(char::is_whitespace))
        .map(|s| file_name(s).to_owned())
        .filter(|s| !s.is_empty())
}

/// wasm-bindgen's name of the wasm next to a glue (`app-1.js` → `app-1_bg.wasm`).
pub fn wasm_of_glue(glue: &str) -> Option<String> {
    glue.strip_suffix(".js")
        .map(|stem| format!("{stem}_bg.wasm"))
}

/// The page's files to fetch from its `<link href>`s: the stylesheet and the page's glue
/// (`app-*.js`) with its wasm, as URLs.
pub fn page_files(links: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for l in links {
        let name = file_name(l);
        let wanted = has_ext(name, "css")
            || (name.starts_with("app-") && has_ext(name, "js"))
            || (name.starts_with("app-") && name.ends_with("_bg.wasm"));
        if wanted && !out.contains(l) {
            out.push(l.clone());
        }
    }
    if let Some(wasm) = out
        .iter()
        .find(|l| file_name(l).starts_with("app-") && has_ext(file_name(l), "js"))
        .and_then(|l| {
            let name = file_name(l);
            Some(format!(
                "{}{}",
                &l[..l.len() - name.len()],
                wasm_of_glue(name)?
            ))
        })
        && !out.contains(&wasm)
    {
        out.push(wasm);
    }
    out
}

/// The export of a log read in `chunks`, with the page's `files` (name, bytes): the file
/// and what was written; `progress(bytes read)` after each chunk.
pub fn save<C: AsRef<[u8]>>(
    chunks: impl IntoIterator<Item = C>,
    name: &str,
    files: &[(&str, &[u8])],
    opts: &Options,
    mut progress: impl FnMut(usize),
) -> Result<(Vec<u8>, Written), String> {
    let assets = Assets::of(files)?;
    let mut read = 0;
    let chunks = chunks.into_iter().inspect(|c| {
        read += c.as_ref().len();
        progress(read);
    });
    let mut out = Vec::new();
    let written = onefile::build(chunks, name, &assets, opts, &mut out)
        .map_err(|e| format!("cannot write the file: {e}"))?;
    Ok((out, written))
}

/// The options of a save, as the command line takes them: the title typed (kept as typed,
/// as `--title`), else the session's own (`own`: redacted with the log, as `hiveterm share
/// SESSION --export --redact` does), else none (the file shows the log's name).
pub fn options(typed: &str, own: &str, redact: bool) -> Options {
    let (typed, own) = (typed.trim(), own.trim());
    let title = if typed.is_empty() {
        (!own.is_empty()).then(|| {
            if redact {
                classifier::redact::redact_text(own).0.into_owned()
            } else {
                own.to_owned()
            }
        })
    } else {
        Some(typed.to_owned())
    };
    Options {
        redact,
        title,
        ..Options::default()
    }
}

/// Makes the file `save` asks for (the log: `url`'s, else the attached `log` `Blob`) and
/// posts it to the page ([`crate::worker::protocol::FromWorker::Saved`]), its progress as it
/// goes (wasm only).
#[cfg(target_arch = "wasm32")]
pub use imp::start;

#[cfg(target_arch = "wasm32")]
mod imp {
    use super::*;
    use crate::worker::protocol::port::{reply, scope};
    use crate::worker::protocol::{self, FromWorker, Saved};
    use js_sys::{Array, Uint8Array};
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen_futures::JsFuture;
    use web_sys::{Blob, BlobPropertyBag, FileReaderSync, Response};

    fn err(e: JsValue) -> String {
        e.as_string().unwrap_or_else(|| format!("{e:?}"))
    }

    async fn fetch(url: &str) -> Result<Response, String> {
        let res: Response = JsFuture::from(scope().fetch_with_str(url))
            .await
            .map_err(|e| format!("cannot fetch {url}: {}", err(e)))?
            .unchecked_into();
        if !res.ok() {
            return Err(format!("cannot fetch {url}: HTTP {}", res.status()));
        }
        Ok(res)
    }

    async fn bytes(url: &str) -> Result<Vec<u8>, String> {
        let res = fetch(url).await?;
        let buf = JsFuture::from(res.array_buffer().map_err(err)?)
            .await
            .map_err(err)?;
        Ok(Uint8Array::new(&buf).to_vec())
    }

    async fn text(url: &str) -> Result<String, String> {
        String::from_utf8(bytes(url).await?).map_err(|_| format!("{url} is not UTF-8"))
    }

    /// The page's files an export carries, by name.
    async fn page(links: &[String]) -> Result<Vec<(String, Vec<u8>)>, String> {
        let mut urls = page_files(links);
        for loader in LOADERS {
            let glue = glue_of_loader(&text(loader).await?)
                .ok_or_else(|| format!("{loader} names no script"))?;
            let wasm = wasm_of_glue(&glue).unwrap_or_default();
            urls.push(glue);
            urls.push(wasm);
        }
        let mut files = Vec::new();
        for url in urls {
            files.push((file_name(&url).to_owned(), bytes(&url).await?));
        }
        Ok(files)
    }

    pub fn start(req: protocol::Save, log: JsValue) {
        wasm_bindgen_futures::spawn_local(async move {
            if let Err(message) = run(req, log).await {
                reply(&FromWorker::Error { job: None, message }, None);
            }
        });
    }

    async fn run(req: protocol::Save, log: JsValue) -> Result<(), String> {
        // The log's name (a session's id) redacted with it, as `hiveterm share --export
        // --redact` does: an id can be a token.
        let name = if req.redact {
            classifier::redact::redact_text(&req.name).0.into_owned()
        } else {
            req.name
        };
        let opts = Options {
            notes: req.notes.clone(),
            ..options(&req.title, &req.own_title, req.redact)
        };
        let files = page(&req.links).await?;
        let log: Blob = match req.url {
            Some(url) => {
                let res = fetch(&url).await?;
                JsFuture::from(res.blob().map_err(err)?)
                    .await
                    .map_err(err)?
                    .unchecked_into()
            }
            None => log.dyn_into().map_err(|_| "no log to save".to_owned())?,
        };
        let reader = FileReaderSync::new().map_err(err)?;
        let log = crate::worker::unzip::plain(&reader, log)?;
        let total = log.size();
        let mut at = 0.0;
        let mut failed = None;
        let chunks = std::iter::from_fn(|| {
            if at >= total || failed.is_some() {
                return None;
            }
            let end = (at + CHUNK as f64).min(total);
            match log
                .slice_with_f64_and_f64(at, end)
                .and_then(|s| reader.read_as_array_buffer(&s))
            {
                Ok(buf) => {
                    at = end;
                    Some(Uint8Array::new(&buf).to_vec())
                }
                Err(e) => {
                    failed = Some(err(e));
                    None
                }
            }
        });
        let named: Vec<(&str, &[u8])> = files
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_slice()))
            .collect();
        let (file, written) = save(chunks, &name, &named, &opts, |read| {
            let msg = FromWorker::Saving {
                read: read as u64,
                total: total as u64,
            };
            reply(&msg, None);
        })?;
        if let Some(e) = failed {
            return Err(format!("cannot read the log: {e}"));
        }
        let parts = Array::of1(&Uint8Array::from(file.as_slice()));
        let bag = BlobPropertyBag::new();
        bag.set_type("text/html");
        let blob = Blob::new_with_u8_array_sequence_and_options(&parts, &bag).map_err(err)?;
        let report = serde_json::to_string(&written.report).unwrap_or_else(|_| "{}".into());
        let saved = Saved {
            rows: written.meta.envelopes,
            lines: written.meta.lines,
            bytes: written.html_bytes as u64,
            redact: opts.redact,
            report,
        };
        reply(&FromWorker::Saved(saved), Some(&blob.into()));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workers_glue_is_found_through_its_loader() {
        let check = |js: &str, expect: Option<&str>| {
            assert_eq!(glue_of_loader(js).as_deref(), expect, "{js}");
        };
        check(
            "import init, * as bindings from './worker.js';\nconst wasm = await init({ module_or_path: './worker_bg.wasm' });",
            Some("worker.js"),
        );
        check(
            "import init from \"/s/mdworker-0a1b.js\";init();",
            Some("mdworker-0a1b.js"),
        );
        check("console.log('nothing')", None);
        assert_eq!(
            wasm_of_glue("app-0a1b.js").as_deref(),
            Some("app-0a1b_bg.wasm")
        );
        assert_eq!(wasm_of_glue("app.css"), None);
        assert_eq!(file_name("http://h:1/s/app-1.js?token=x#y"), "app-1.js");
        assert_eq!(file_name("worker.js"), "worker.js");
    }

    #[test]
    fn the_pages_files_come_from_its_links() {
        let links: Vec<String> = [
            "http://h/s/terminal-9.css",
            "http://h/s/app-1.js",
            "http://h/s/app-1_bg.wasm",
            "http://h/favicon.ico",
            "http://h/s/app-1.js",
        ]
        .map(str::to_owned)
        .to_vec();
        assert_eq!(
            page_files(&links),
            [
                "http://h/s/terminal-9.css",
                "http://h/s/app-1.js",
                "http://h/s/app-1_bg.wasm"
            ]
        );
        // The page's wasm follows from its glue when no link names it.
        assert_eq!(
            page_files(&links[..2]),
            [
                "http://h/s/terminal-9.css",
                "http://h/s/app-1.js",
                "http://h/s/app-1_bg.wasm"
            ]
        );
    }

    const GLUE: &[u8] =
        b"async function __wbg_init(m){}\nexport { initSync, __wbg_init as default };\n";

    fn page() -> Vec<(&'static str, &'static [u8])> {
        vec![
            ("terminal-9.css", b".row{}"),
            ("app-1.js", GLUE),
            ("app-1_bg.wasm", b"\0asm"),
            ("worker.js", GLUE),
            ("worker_bg.wasm", b"\0asm"),
            ("mdworker.js", GLUE),
            ("mdworker_bg.wasm", b"\0asm"),
        ]
    }

    /// However the worker's reads cut the log, the file is `onefile::build`'s of the whole
    /// log — the one `hiveterm export` writes (server/src/export.rs tests that half).
    #[test]
    fn the_file_does_not_depend_on_the_reads() {
        let mut log = Vec::new();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
        for dir in ["claude-code-2.1.332", "hyperhive"] {
            let mut paths: Vec<_> = std::fs::read_dir(root.join(dir))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
                .collect();
            paths.sort();
            for p in paths {
                log.extend(std::fs::read(p).unwrap());
                log.push(b'\n');
            }
        }
        assert!(log.len() > 10_000);
        let page = page();
        let assets = Assets::of(&page).unwrap();
        for opts in [options("", "", true), options(" A title ", "", false)] {
            let mut want = Vec::new();
            onefile::build([&log[..]], "all.jsonl", &assets, &opts, &mut want).unwrap();
            for cut in [1009, 64 * 1024] {
                let mut reads = Vec::new();
                let (file, written) = save(log.chunks(cut), "all.jsonl", &page, &opts, |n| {
                    reads.push(n)
                })
                .unwrap();
                assert!(file == want, "cut {cut}");
                assert_eq!(reads.last(), Some(&log.len()));
                assert_eq!(written.html_bytes, want.len());
            }
        }
    }

    /// A redacted save reports each secret for review and the file holds none of it; a
    /// session's own title is redacted too (a typed one is the reader's, as `--title`).
    #[test]
    fn a_redacted_save_reports_and_removes_the_secret() {
        let secret = "sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
        let log = format!(
            "{{\"kind\":\"turn_start\",\"ts\":1.0,\"from\":\"operator\",\"body\":\"go\"}}\n\
             {{\"kind\":\"note\",\"ts\":2.0,\"text\":\"stderr: key {secret}\"}}\n"
        );
        let opts = options("", &format!("deploy {secret}"), true);
        let (file, written) = save([log.as_bytes()], "x.jsonl", &page(), &opts, |_| {}).unwrap();
        let file = String::from_utf8(file).unwrap();
        assert!(
            !file.contains("sk-ant-api03"),
            "the title or the meta kept it"
        );
        assert_eq!(written.report.count, 1);
        assert_eq!(written.report.items[0].seq, 2);
        assert_eq!(written.meta.redactions, Some(1));
        assert!(
            written.meta.title.contains("[REDACTED:"),
            "{}",
            written.meta.title
        );
        assert_eq!(options("  ", "", true).title, None);
        assert_eq!(
            options(" mine ", "own", true).title.as_deref(),
            Some("mine")
        );
        assert_eq!(options("", " own ", false).title.as_deref(), Some("own"));
        assert!(save([b"x"], "x", &page()[1..], &opts, |_| {}).is_err());
    }
}
