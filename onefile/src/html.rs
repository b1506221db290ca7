//! The exported file's layout: one HTML document, everything inline.
//!
//! ```text
//! <meta http-equiv=Content-Security-Policy …>   nothing remote: see EXPORT_CSP
//! <style>                                      the page's stylesheet
//! <script type=application/json id=hiveterm-export>          meta: title, counts, summary
//! <script type=application/octet-stream id=hiveterm-app-wasm data-bytes=N>  the page's wasm, z
//! <script type=text/plain id=hiveterm-worker-js>              the worker's wasm-bindgen glue
//! <script type=application/octet-stream id=hiveterm-worker-wasm data-bytes=N>  its wasm, z
//! <script type=text/plain id=hiveterm-mdworker-js>            the markdown worker's glue
//! <script type=application/octet-stream id=hiveterm-mdworker-wasm data-bytes=N>  its wasm, z
//! <script type=application/octet-stream id=hiveterm-data data-bytes=N data-pieces=K>
//!                                  the envelopes, z: their first FIRST_DATA bytes
//! <script type=module async>       the page's glue, then boot.js (the only script that runs; hashed)
//! <script type=application/octet-stream id=hiveterm-data-1 data-bytes=N>  the next DATA_BLOCK bytes
//! …                                … up to hiveterm-data-(K-1)
//! ```
//!
//! `z`: raw DEFLATE (the browser inflates it natively: `DecompressionStream("deflate-raw")`,
//! no decoder in the file) written as [`text7`](crate::text7) text, 7 bits a character, which
//! the `<script>` holds verbatim (base64 holds 6); `data-bytes` is its length in bytes.
//! The order is what the first rows need first: the boot script is `async`, so it runs as
//! soon as the parser reaches it, not once the whole file (11 MB for a 100,000-line log) is
//! parsed: with the page's wasm, the workers and the first piece of the rows before it,
//! the page starts and shows its first rows while the parser reads the other pieces.
//! `boot.js` turns the blocks into what the page expects: each worker (the classifier's, the
//! markdown renderer's) as a `blob:` URL (its glue, the decoder and its deflated wasm joined),
//! the data as a stream of inflated bytes (a piece decoded when the page has read the one
//! before and the parser is past it), both on `window.hivetermExport` with the meta, then
//! starts the page's wasm. The page (app/src/offline/embedded.rs) sees `hivetermExport` and shows the
//! rows as an offline log, asking nothing of any server.

use std::io::{self, Write};

use sha2::{Digest, Sha256};

use crate::base64::base64;
use crate::deflate::Deflater;
use crate::meta::Meta;
use crate::text7;

/// The exported file's Content-Security-Policy (a `<meta>`, so no `frame-ancestors`): no
/// source at all by default; the one inline script by its hash and WebAssembly; the worker
/// only from a `blob:` URL the page made; inline styles; images only `data:` (a remote image
/// in an agent's markdown does not load). `connect-src` is not given: no fetch, no XHR, no
/// EventSource.
pub const EXPORT_CSP: &str = "default-src 'none'; script-src 'wasm-unsafe-eval' {hash}; worker-src blob:; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/// The boot script (appended to the page's glue in the one inline module).
const BOOT: &str = include_str!("boot.js");

/// Text escaped for HTML (element content and quoted attribute values).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Bytes of compressed envelopes in the first data block (before the boot script): what
/// the first rows need, a few hundred of them, and little to parse and decode.
pub const FIRST_DATA: usize = 64 * 1024;
/// Bytes of compressed envelopes in each data block after it: each is decoded in a task of
/// its own, a few ms.
pub const DATA_BLOCK: usize = 1024 * 1024;

/// DEFLATE level of the wasm: the highest (it is compressed once per file: 2 MB of wasm).
pub const WASM_LEVEL: u8 = 10;

/// The page's files an export needs, found in a built page; the wasm deflated.
#[derive(Debug)]
pub struct Assets<'a> {
    css: &'a str,
    app_js: &'a str,
    app_wasm: Vec<u8>,
    worker_js: String,
    worker_wasm: Vec<u8>,
    mdworker_js: String,
    mdworker_wasm: Vec<u8>,
    app_init: &'a str,
    worker_init: &'a str,
    mdworker_init: &'a str,
}

/// Whether a file's name ends in `.ext`.
fn has_ext(name: &str, ext: &str) -> bool {
    std::path::Path::new(name)
        .extension()
        .is_some_and(|e| e == ext)
}

/// The name of a wasm-bindgen glue's init function (its default export), if the glue stands
/// alone (no `import`: snippets would need files of their own).
fn init_name(js: &str) -> Option<&str> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    if js.lines().any(|l| l.trim_start().starts_with("import ")) {
        return None;
    }
    let at = js.rfind(" as default")?;
    let start = js[..at].rfind(|c: char| !ident(c)).map_or(0, |i| i + 1);
    let name = &js[start..at];
    (!name.is_empty() && js.contains(&format!("function {name}("))).then_some(name)
}

/// A worker's wasm-bindgen glue (an ES module, `--target web`) as a classic script: Chromium
/// starts no module worker from a `blob:` URL of a page opened from `file://` (its origin is
/// opaque), and a classic one it does. Its `export` keywords and statement go, and
/// `import.meta.url` (only read when no wasm bytes are given, which boot.js always gives)
/// becomes the worker's own address. `None` if anything module-only is left.
fn classic(js: &str) -> Option<String> {
    let mut out = String::with_capacity(js.len());
    let mut rest = js.replace("import.meta.url", "self.location.href");
    // `export { a, b as default };` (also minified: `export{…};`) goes whole.
    while let Some(at) = ["export {", "export{"]
        .iter()
        .filter_map(|p| rest.find(p))
        .min()
    {
        let end = at + rest[at..].find('}')? + 1;
        let end = if rest[end..].starts_with(';') {
            end + 1
        } else {
            end
        };
        out.push_str(&rest[..at]);
        rest = rest[end..].to_owned();
    }
    out.push_str(&rest);
    for decl in [
        "class ",
        "function ",
        "async function ",
        "const ",
        "let ",
        "var ",
    ] {
        out = out.replace(&format!("export {decl}"), decl);
    }
    let module_only = out.contains("import.meta")
        || out.lines().any(|l| {
            l.trim_start().starts_with("export ") || l.trim_start().starts_with("import ")
        });
    (!module_only).then_some(out)
}

impl<'a> Assets<'a> {
    /// Finds them among a built page's files (name, bytes) by trunk's names: `*.css`, `app-*.js`, `app-*_bg.wasm`, `worker.js` (or
    /// `worker-*.js`), `worker*_bg.wasm`, `mdworker.js` (or `mdworker-*.js`) and
    /// `mdworker*_bg.wasm`; deflates the wasm.
    pub fn of(files: &[(&'a str, &'a [u8])]) -> Result<Assets<'a>, String> {
        let find = |what: &str, test: &dyn Fn(&str) -> bool| -> Result<&'a [u8], String> {
            files
                .iter()
                .find(|(n, _)| !n.contains('/') && test(n))
                .map(|&(_, bytes)| bytes)
                .ok_or_else(|| format!("the built page has no {what}"))
        };
        let text = |what: &str, bytes: &'a [u8]| -> Result<&'a str, String> {
            let s = std::str::from_utf8(bytes).map_err(|_| format!("{what} is not UTF-8"))?;
            let lower = s.to_ascii_lowercase();
            if lower.contains("</script") || lower.contains("<!--") || lower.contains("</style") {
                return Err(format!("{what} holds text that cannot be inlined in HTML"));
            }
            Ok(s)
        };
        let app_js = text(
            "the page's script",
            find("app-*.js", &|n| n.starts_with("app-") && has_ext(n, "js"))?,
        )?;
        let worker_js = text(
            "the worker's script",
            find("worker.js", &|n| {
                n == "worker.js" || (n.starts_with("worker-") && has_ext(n, "js"))
            })?,
        )?;
        let mdworker_js = text(
            "the markdown worker's script",
            find("mdworker.js", &|n| {
                n == "mdworker.js" || (n.starts_with("mdworker-") && has_ext(n, "js"))
            })?,
        )?;
        let init = |what: &str, js: &'a str| {
            init_name(js).ok_or_else(|| {
                format!("the {what}'s script is not the wasm-bindgen glue an export can inline")
            })
        };
        let as_classic = |what: &str, js: &str| {
            classic(js).ok_or_else(|| {
                format!("the {what}'s script cannot be made a classic script an export can start")
            })
        };
        let deflate = |wasm: &[u8]| {
            let mut z = Deflater::new(WASM_LEVEL);
            z.write(wasm);
            z.finish()
        };
        Ok(Assets {
            app_init: init("page", app_js)?,
            worker_init: init("worker", worker_js)?,
            mdworker_init: init("markdown worker", mdworker_js)?,
            css: text("the stylesheet", find("*.css", &|n| has_ext(n, "css"))?)?,
            app_js,
            app_wasm: deflate(find("app-*_bg.wasm", &|n| {
                n.starts_with("app-") && n.ends_with("_bg.wasm")
            })?),
            worker_js: as_classic("worker", worker_js)?,
            worker_wasm: deflate(find("worker*_bg.wasm", &|n| {
                n.starts_with("worker") && n.ends_with("_bg.wasm")
            })?),
            mdworker_js: as_classic("markdown worker", mdworker_js)?,
            mdworker_wasm: deflate(find("mdworker*_bg.wasm", &|n| {
                n.starts_with("mdworker") && n.ends_with("_bg.wasm")
            })?),
        })
    }
}

/// The one inline script: the page's glue, then the boot.
fn module_script(assets: &Assets) -> String {
    let boot = BOOT
        .replace("__PAGE_INIT__", assets.app_init)
        .replace("__WORKER_INIT__", assets.worker_init)
        .replace("__MDWORKER_INIT__", assets.mdworker_init);
    format!("{}\n{boot}", assets.app_js)
}

/// The CSP of an export whose inline script is `script`.
pub fn csp(script: &str) -> String {
    let hash = format!("'sha256-{}'", base64(&Sha256::digest(script.as_bytes())));
    EXPORT_CSP.replace("{hash}", &hash)
}

/// The meta block of a log's file.
fn inline_json(meta: &Meta) -> String {
    inline(&serde_json::to_string(meta).unwrap_or_else(|_| "{}".to_owned()))
}

/// Writes the file (`data`: the envelopes, deflated); its size.
pub fn write(out: &mut dyn Write, assets: &Assets, meta: &Meta, data: &[u8]) -> io::Result<usize> {
    let doc = Doc {
        title: &meta.title,
        meta: &inline_json(meta),
        workers: true,
    };
    write_doc(out, assets, &doc, data)
}

/// What a file shows besides the page: its title, its meta block, and whether it carries the
/// workers (a log's file does; a comparison's, [`crate::compare`], needs none).
pub struct Doc<'a> {
    /// The document's `<title>`.
    pub title: &'a str,
    /// The meta block's JSON (`<` escaped: [`inline`]).
    pub meta: &'a str,
    /// Whether the classifier's and the markdown renderer's workers go in.
    pub workers: bool,
}

/// JSON text that may sit in a `<script>` element: `<` (only ever inside strings) escaped.
pub fn inline(json: &str) -> String {
    json.replace('<', "\\u003c")
}

/// Writes a file of `doc` (`data`: deflated, the page reads it through `next()`); its size.
pub fn write_doc(
    out: &mut dyn Write,
    assets: &Assets,
    doc: &Doc,
    data: &[u8],
) -> io::Result<usize> {
    let script = module_script(assets);
    let mut w = Counter { out, n: 0 };
    let block = |w: &mut Counter, kind: &str, id: &str, body: &[u8]| -> io::Result<()> {
        write!(w, "<script type=\"{kind}\" id=\"{id}\">")?;
        w.write_all(body)?;
        w.write_all(b"</script>\n")
    };
    let z = |w: &mut Counter, id: &str, bytes: &[u8], attrs: &str| -> io::Result<()> {
        write!(
            w,
            "<script type=\"application/octet-stream\" id=\"{id}\" data-bytes=\"{}\"{attrs}>",
            bytes.len()
        )?;
        w.write_all(text7::encode(bytes).as_bytes())?;
        w.write_all(b"</script>\n")
    };
    write!(
        w,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"color-scheme\" content=\"dark light\">\n\
         <meta name=\"referrer\" content=\"no-referrer\">\n\
         <meta name=\"generator\" content=\"hiveterm export {version}\">\n\
         <title>{title}</title>\n<link rel=\"icon\" href=\"data:,\">\n<style>",
        csp = csp(&script),
        version = env!("CARGO_PKG_VERSION"),
        title = escape(doc.title),
    )?;
    w.write_all(assets.css.as_bytes())?;
    w.write_all(b"</style>\n</head>\n<body>\n")?;
    block(
        &mut w,
        "application/json",
        "hiveterm-export",
        doc.meta.as_bytes(),
    )?;
    z(&mut w, "hiveterm-app-wasm", &assets.app_wasm, "")?;
    if doc.workers {
        block(
            &mut w,
            "text/plain",
            "hiveterm-worker-js",
            assets.worker_js.as_bytes(),
        )?;
        z(&mut w, "hiveterm-worker-wasm", &assets.worker_wasm, "")?;
        block(
            &mut w,
            "text/plain",
            "hiveterm-mdworker-js",
            assets.mdworker_js.as_bytes(),
        )?;
        z(&mut w, "hiveterm-mdworker-wasm", &assets.mdworker_wasm, "")?;
    }
    let (first, rest) = data.split_at(data.len().min(FIRST_DATA));
    let rest: Vec<&[u8]> = rest.chunks(DATA_BLOCK).collect();
    z(
        &mut w,
        "hiveterm-data",
        first,
        &format!(" data-pieces=\"{}\"", 1 + rest.len()),
    )?;
    write!(w, "<script type=\"module\" async id=\"hiveterm-boot\">")?;
    w.write_all(script.as_bytes())?;
    w.write_all(b"</script>\n")?;
    for (i, piece) in rest.iter().enumerate() {
        z(&mut w, &format!("hiveterm-data-{}", i + 1), piece, "")?;
    }
    w.write_all(b"</body>\n</html>\n")?;
    w.flush()?;
    Ok(w.n)
}

/// The text of the block `id` of an exported file, if it has one.
pub fn block<'a>(html: &'a str, id: &str) -> Option<&'a str> {
    let at = html.find(&format!(" id=\"{id}\""))?;
    let start = at + html[at..].find('>')? + 1;
    Some(&html[start..start + html[start..].find("</script>")?])
}

/// The compressed envelopes of an exported file: its data blocks' bytes, joined.
pub fn data(html: &str) -> Option<Vec<u8>> {
    let first = block(html, "hiveterm-data")?;
    let at = html.find(" id=\"hiveterm-data\"")?;
    let tag = &html[at..at + html[at..].find('>')?];
    let pieces: usize = tag
        .split_once("data-pieces=\"")?
        .1
        .split('"')
        .next()?
        .parse()
        .ok()?;
    let mut out = text7::decode(first);
    for i in 1..pieces {
        out.extend(text7::decode(block(html, &format!("hiveterm-data-{i}"))?));
    }
    Some(out)
}

/// Counts the bytes written.
struct Counter<'a> {
    out: &'a mut dyn Write,
    n: usize,
}

impl Write for Counter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        self.n += n;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GLUE: &[u8] =
        b"async function __wbg_init(m){}\nexport { initSync, __wbg_init as default };\n";

    /// A built page's files, as trunk names them.
    fn page() -> Vec<(&'static str, &'static [u8])> {
        vec![
            ("index.html", b"<!doctype html>"),
            ("app-0123456789abcdef.js", GLUE),
            ("app-0123456789abcdef_bg.wasm", b"\0asm"),
            ("terminal-0123456789abcdef.css", b".row{}"),
            ("worker.js", GLUE),
            ("worker_bg.wasm", b"\0asm"),
            ("mdworker.js", GLUE),
            ("mdworker_bg.wasm", b"\0asm"),
            ("worker_loader.js", b"import init from './worker.js';"),
        ]
    }

    fn meta(title: &str) -> Meta {
        Meta {
            format: 1,
            title: title.into(),
            name: "x.jsonl".into(),
            lines: 1,
            envelopes: 0,
            bytes: 0,
            range: None,
            redactions: None,
            summary: classifier::Summary::default(),
            notes: Vec::new(),
        }
    }

    #[test]
    fn the_file_inlines_everything_and_its_csp_hashes_its_one_script() {
        let page = page();
        let assets = Assets::of(&page).unwrap();
        let mut out = Vec::new();
        let n = write(
            &mut out,
            &assets,
            &meta("</script><script>alert(1)</script>"),
            b"data",
        )
        .unwrap();
        let html = String::from_utf8(out).unwrap();
        assert_eq!(n, html.len());
        // The title and the meta cannot close their elements.
        assert!(!html.contains("<script>alert"), "{html}");
        assert_eq!(html.matches("</script>").count(), 8);
        // Exactly one script runs: the module, and the CSP names its hash.
        let script = module_script(&assets);
        assert!(html.contains(&format!(
            "<script type=\"module\" async id=\"hiveterm-boot\">{script}</script>"
        )));
        let digest = base64(&Sha256::digest(script.as_bytes()));
        assert!(html.contains(&format!("script-src 'wasm-unsafe-eval' 'sha256-{digest}'")));
        assert!(html.contains("default-src 'none'"));
        for remote in ["http:", "https:", "src=", "href=\"./", "connect-src"] {
            assert!(!html.contains(remote), "{remote}");
        }
        assert!(html.contains(&format!(
            "id=\"hiveterm-data\" data-bytes=\"4\" data-pieces=\"1\">{}</script>",
            text7::encode(b"data")
        )));
        // The wasm, deflated.
        let wasm = miniz_oxide::inflate::decompress_to_vec(&assets.app_wasm).unwrap();
        assert_eq!(wasm, b"\0asm");
    }

    #[test]
    fn the_data_comes_in_pieces_the_first_before_the_boot_script() {
        let page = page();
        let assets = Assets::of(&page).unwrap();
        // Incompressible-looking bytes: 64 KiB, then two whole blocks and a bit.
        let data: Vec<u8> = (0..FIRST_DATA + 2 * DATA_BLOCK + 5)
            .map(|i| (i * 7 + i / 251) as u8)
            .collect();
        let mut out = Vec::new();
        write(&mut out, &assets, &meta("t"), &data).unwrap();
        let html = String::from_utf8(out).unwrap();
        assert!(html.contains(&format!(
            "id=\"hiveterm-data\" data-bytes=\"{FIRST_DATA}\" data-pieces=\"4\">"
        )));
        assert!(html.contains(&format!(
            "id=\"hiveterm-data-2\" data-bytes=\"{DATA_BLOCK}\">"
        )));
        assert!(html.contains("id=\"hiveterm-data-3\" data-bytes=\"5\">"));
        assert!(!html.contains("hiveterm-data-4"));
        // What the first rows need, before the boot script; the other pieces after it.
        let at = |id: &str| html.find(&format!(" id=\"{id}\"")).unwrap();
        let boot = at("hiveterm-boot");
        for id in [
            "hiveterm-export",
            "hiveterm-app-wasm",
            "hiveterm-worker-wasm",
            "hiveterm-mdworker-wasm",
            "hiveterm-data",
        ] {
            assert!(at(id) < boot, "{id}");
        }
        assert!(at("hiveterm-data-1") > boot);
        assert_eq!(data_of(&html).unwrap(), data);
        assert_eq!(
            block(&html, "hiveterm-data-3").map(text7::decode),
            Some(data[data.len() - 5..].to_vec())
        );
    }

    use super::data as data_of;

    #[test]
    fn the_init_function_is_the_glues_default_export() {
        let check = |js: &str, expect: Option<&str>| assert_eq!(init_name(js), expect, "{js}");
        check(
            "async function __wbg_init(m){}\nexport { initSync, __wbg_init as default };",
            Some("__wbg_init"),
        );
        check(
            "async function a(m){}export{b as initSync,a as default};",
            Some("a"),
        );
        check(
            "import x from './snippets/a.js';\nasync function a(){}export{a as default};",
            None,
        );
        check("export { x as default };", None);
    }

    #[test]
    fn a_workers_glue_becomes_a_classic_script() {
        let glue = "export class A {\n}\nfunction f() { return new URL('w_bg.wasm', import.meta.url); }\n\
                    async function __wbg_init(m){}\nexport { initSync, __wbg_init as default };\n";
        let js = classic(glue).unwrap();
        assert_eq!(
            js,
            "class A {\n}\nfunction f() { return new URL('w_bg.wasm', self.location.href); }\n\
             async function __wbg_init(m){}\n\n"
        );
        assert_eq!(
            classic("async function a(){}export{a as default};").as_deref(),
            Some("async function a(){}")
        );
        assert_eq!(classic("import x from './y.js';\nexport{x};"), None);
    }

    #[test]
    fn a_page_without_its_parts_is_refused() {
        let empty: &[(&str, &[u8])] = &[("index.html", b"x")];
        assert!(Assets::of(empty).unwrap_err().contains("no app-*.js"));
        let bad: &[(&str, &[u8])] = &[("index.html", b"x"), ("app-1.js", b"let s = '</script>';")];
        assert!(Assets::of(bad).unwrap_err().contains("cannot be inlined"));
    }
}
