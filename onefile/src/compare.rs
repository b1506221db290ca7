//! A comparison as one file (`hiveterm diff A B -o FILE.html`, issue 48): the page and two
//! runs aligned — the compare API's answer (docs/API.md, `GET /api/compare/{a}/{b}`) as
//! JSON, raw DEFLATE like a log's rows — that opens from `file://` with no request. The page
//! sees `"kind": "compare"` in the meta block and shows its compare page from the embedded
//! answer (app/src/view/compare_page.rs). The layout is a log's file's ([`crate::html`])
//! without the workers: nothing is classified or rendered as markdown there.

use serde::Serialize;

use crate::deflate::Deflater;
use crate::html::{self, Assets, Doc};

/// The meta block of a comparison's file.
#[derive(Debug, Clone, Serialize)]
pub struct CompareMeta<'a> {
    /// Version of this layout.
    pub format: u32,
    /// `compare`: what the page shows.
    pub kind: &'static str,
    /// The page's title.
    pub title: &'a str,
    /// Bytes of the embedded answer before compression.
    pub bytes: u64,
}

/// What [`build`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    /// Bytes of compressed answer.
    pub compressed: usize,
    /// Bytes of the whole HTML file.
    pub html_bytes: usize,
}

/// Writes the file of a comparison: `answer`, the compare API's JSON for two runs, titled
/// `title`, with the page's `assets`. The same inputs give the same bytes.
pub fn build(
    answer: &[u8],
    title: &str,
    assets: &Assets,
    out: &mut impl std::io::Write,
) -> std::io::Result<Written> {
    let mut z = Deflater::new(crate::LEVEL);
    z.write(answer);
    let data = z.finish();
    let meta = CompareMeta {
        format: 1,
        kind: "compare",
        title,
        bytes: answer.len() as u64,
    };
    let meta = html::inline(&serde_json::to_string(&meta).unwrap_or_else(|_| "{}".to_owned()));
    let doc = Doc {
        title,
        meta: &meta,
        workers: false,
    };
    let html_bytes = html::write_doc(out, assets, &doc, &data)?;
    Ok(Written {
        compressed: data.len(),
        html_bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GLUE: &[u8] =
        b"async function __wbg_init(m){}\nexport { initSync, __wbg_init as default };\n";

    #[test]
    fn a_comparison_carries_its_answer_and_no_worker() {
        let page: Vec<(&str, &[u8])> = vec![
            ("app-0123.js", GLUE),
            ("app-0123_bg.wasm", b"\0asm"),
            ("terminal-0123.css", b".row{}"),
            ("worker.js", GLUE),
            ("worker_bg.wasm", b"\0asm"),
            ("mdworker.js", GLUE),
            ("mdworker_bg.wasm", b"\0asm"),
        ];
        let assets = Assets::of(&page).unwrap();
        let answer = br#"{"a":"x</script>","b":"y","pairs":[]}"#;
        let mut out = Vec::new();
        let w = build(answer, "a <-> b</title>", &assets, &mut out).unwrap();
        let html = String::from_utf8(out).unwrap();
        assert_eq!(w.html_bytes, html.len());
        assert!(!html.contains("</title>\n<title") && html.contains("a &lt;-&gt; b&lt;/title&gt;"));
        let meta: serde_json::Value =
            serde_json::from_str(html::block(&html, "hiveterm-export").unwrap()).unwrap();
        assert_eq!(meta["kind"], "compare");
        assert_eq!(meta["bytes"], answer.len());
        for id in [
            "hiveterm-worker-js",
            "hiveterm-worker-wasm",
            "hiveterm-mdworker-js",
        ] {
            assert!(html::block(&html, id).is_none(), "{id}");
        }
        // One `</script>` per block: the answer's own is inside the deflated data.
        assert_eq!(html.matches("</script>").count(), 4);
        let data = html::data(&html).unwrap();
        assert_eq!(
            miniz_oxide::inflate::decompress_to_vec(&data).unwrap(),
            answer
        );
        // The same inputs, the same bytes.
        let mut again = Vec::new();
        build(answer, "a <-> b</title>", &assets, &mut again).unwrap();
        assert_eq!(again, html.into_bytes());
    }
}
