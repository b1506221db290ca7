//! The page inside a one-file export (`hiveterm export`, the `onefile` crate): the file's boot
//! script leaves `window.hivetermExport` — `meta` (title, counts, summary), `worker` and
//! `mdworker` (the classifier's and the markdown renderer's workers, as `blob:` URLs) and
//! `next()` (the embedded envelopes as JSON lines, inflated
//! chunk by chunk) — and starts this page. Seeing it ([`embedded`]), the page shows those
//! envelopes as an offline log ([`crate::offline::embedded`], the loader), through the same
//! reducer and the same progress as a dropped one, with the summary the exporter computed
//! in the header, and asks no server anything: no session list, no kept log to restore, no
//! live view.
//!
//! These are the exported page's facts, which the page's parts read (the workers' URLs
//! among them) and which read nothing of the page's. Pure, tested natively: [`Envelopes`]
//! (chunks → envelopes) and [`Meta`].

use classifier::TermEnvelope;
use js_sys::Reflect;
use serde::Deserialize;
use wasm_bindgen::JsValue;

/// The export's facts, from its `meta` block (onefile/src/lib.rs, `Meta`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Meta {
    /// What the file holds: empty for a log's rows, `compare` for two runs aligned
    /// (`hiveterm diff -o`, onefile/src/compare.rs).
    pub kind: String,
    /// The title to show.
    pub title: String,
    /// The log's file name.
    pub name: String,
    /// Physical lines of the log.
    pub lines: u64,
    /// Bytes of envelopes (JSON lines) embedded: the progress bar's total.
    pub bytes: f64,
    /// The notes it carries, shown read-only.
    pub notes: Vec<onefile::Note>,
}

impl Meta {
    /// The meta block's JSON; `None` if it is not an export's.
    pub fn parse(json: &str) -> Option<Meta> {
        serde_json::from_str(json).ok()
    }
}

/// Splits the inflated data, fed in chunks cut anywhere, into envelopes (one JSON line each).
/// A line that is not an envelope (it cannot be: the exporter wrote it) is skipped.
#[derive(Debug, Default)]
pub struct Envelopes {
    partial: Vec<u8>,
}

impl Envelopes {
    /// The envelopes of the lines this chunk completes.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<TermEnvelope> {
        let Some(last) = chunk.iter().rposition(|&b| b == b'\n') else {
            self.partial.extend_from_slice(chunk);
            return Vec::new();
        };
        let out = if self.partial.is_empty() {
            parse_lines(&chunk[..last])
        } else {
            self.partial.extend_from_slice(&chunk[..last]);
            let out = parse_lines(&self.partial);
            self.partial.clear();
            out
        };
        self.partial.extend_from_slice(&chunk[last + 1..]);
        out
    }

    /// The envelope of a last line without a newline, if any.
    pub fn finish(&mut self) -> Vec<TermEnvelope> {
        let out = parse_lines(&self.partial);
        self.partial.clear();
        out
    }
}

fn parse_lines(bytes: &[u8]) -> Vec<TermEnvelope> {
    bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .filter_map(|l| serde_json::from_slice(l).ok())
        .collect()
}

/// `window.hivetermExport` (its `meta`, `next()`, the workers' URLs), in an exported file.
pub fn export() -> Option<JsValue> {
    let v = Reflect::get(&js_sys::global(), &"hivetermExport".into()).ok()?;
    v.is_object().then_some(v)
}

/// Whether this page is an export.
pub fn embedded() -> bool {
    export().is_some()
}

/// The export's meta block, if this page is one.
pub fn meta() -> Option<Meta> {
    let meta = Reflect::get(&export()?, &"meta".into()).ok()?;
    Meta::parse(&js_sys::JSON::stringify(&meta).ok()?.as_string()?)
}

/// The worker's URL in an export (a `blob:` URL); `None` on a served page.
pub fn worker_url() -> Option<String> {
    Reflect::get(&export()?, &"worker".into()).ok()?.as_string()
}

/// The markdown worker's URL in an export (a `blob:` URL); `None` on a served page.
pub fn mdworker_url() -> Option<String> {
    Reflect::get(&export()?, &"mdworker".into())
        .ok()?
        .as_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(n: u64) -> Vec<u8> {
        (1..=n)
            .map(|i| {
                let env = TermEnvelope {
                    ts: Some(i as f64),
                    seq: Some(i * 2),
                    parent: None,
                    msgs: vec![classifier::TermMsg::new(classifier::Level::Info, "row\n{}")],
                };
                format!("{}\n", serde_json::to_string(&env).unwrap())
            })
            .collect::<String>()
            .into_bytes()
    }

    #[test]
    fn chunks_cut_anywhere_give_every_envelope_once() {
        let data = lines(20);
        let whole = Envelopes::default().push(&data);
        assert_eq!(whole.len(), 20);
        assert_eq!(whole[3].seq, Some(8));
        for split in [1, 2, 7, 64, 333, data.len()] {
            let mut p = Envelopes::default();
            let mut got = Vec::new();
            for c in data.chunks(split) {
                got.extend(p.push(c));
            }
            got.extend(p.finish());
            assert_eq!(got, whole, "split {split}");
        }
    }

    #[test]
    fn a_last_line_without_newline_and_garbage() {
        let mut data = lines(2);
        data.extend_from_slice(b"not json\n\n");
        data.extend_from_slice(&lines(1)[..lines(1).len() - 1]);
        let mut p = Envelopes::default();
        let mut got = p.push(&data);
        assert_eq!(got.len(), 2);
        got.extend(p.finish());
        assert_eq!(got.len(), 3);
    }

    #[test]
    fn meta_parses_the_exporters_block() {
        let m = Meta::parse(r#"{"format":1,"title":"t","name":"x.jsonl","lines":9,"envelopes":3,"bytes":120,"range":null,"redactions":null,"summary":{}}"#).unwrap();
        assert_eq!((m.title.as_str(), m.lines, m.bytes), ("t", 9, 120.0));
        assert!(m.notes.is_empty());
        assert_eq!(m.kind, "");
        let m = Meta::parse(r#"{"format":1,"kind":"compare","title":"a ↔ b","bytes":9}"#).unwrap();
        assert_eq!((m.kind.as_str(), m.title.as_str()), ("compare", "a ↔ b"));
        let m = Meta::parse(r#"{"title":"t","notes":[{"id":1,"from":2,"to":3,"text":"*x*","author":"A","created_at":1.0}]}"#).unwrap();
        assert_eq!(
            (m.notes[0].from, m.notes[0].to, m.notes[0].text.as_str()),
            (2, 3, "*x*")
        );
        assert_eq!(Meta::parse("nope"), None);
    }
}
