//! The page inside a one-file export (`hiveterm export`, the `onefile` crate): the file's boot
//! script leaves `window.hivetermExport` — `meta` (title, counts, summary), `worker` and
//! `mdworker` (the classifier's and the markdown renderer's workers, as `blob:` URLs) and
//! `next()` (the embedded envelopes as JSON lines, inflated
//! chunk by chunk) — and starts this page. Seeing it, the page shows those envelopes as an
//! offline log, through the same reducer and the same progress as a dropped one, with the
//! summary the exporter computed in the header, and asks no server anything: no session
//! list, no kept log to restore, no live view.
//!
//! Pure, tested natively: [`Envelopes`] (chunks → envelopes) and [`Meta`].

use classifier::TermEnvelope;
use serde::Deserialize;

/// The export's facts, from its `meta` block (onefile/src/lib.rs, `Meta`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Meta {
    /// The title to show.
    pub title: String,
    /// The log's file name.
    pub name: String,
    /// Physical lines of the log.
    pub lines: u64,
    /// Bytes of envelopes (JSON lines) embedded: the progress bar's total.
    pub bytes: f64,
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

pub use imp::{embedded, load, mdworker_url, worker_url};

mod imp {
    use super::*;
    use crate::browser::now_ms;
    use crate::log_file::LogFile;
    use crate::offline::FromWorker;
    use js_sys::{Function, Promise, Reflect, Uint8Array};
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen_futures::JsFuture;

    /// How often rows are handed to the view while the data is read (ms).
    const BATCH_MS: f64 = 150.0;

    fn export() -> Option<JsValue> {
        let v = Reflect::get(&js_sys::global(), &"hivetermExport".into()).ok()?;
        v.is_object().then_some(v)
    }

    /// Whether this page is an export.
    pub fn embedded() -> bool {
        export().is_some()
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

    /// Shows the export's rows in `log`; false when this page is not an export.
    pub fn load(log: LogFile) -> bool {
        let Some(ex) = export() else { return false };
        let meta = Reflect::get(&ex, &"meta".into()).ok();
        // The summary as the worker sends it: the JSON of `hiveterm summary --json`.
        let summary = meta
            .as_ref()
            .and_then(|m| Reflect::get(m, &"summary".into()).ok())
            .filter(JsValue::is_object)
            .and_then(|s| js_sys::JSON::stringify(&s).ok())
            .and_then(|s| s.as_string());
        let meta = meta
            .and_then(|m| js_sys::JSON::stringify(&m).ok())
            .and_then(|s| s.as_string())
            .and_then(|s| Meta::parse(&s))
            .unwrap_or_default();
        let Some(next) = Reflect::get(&ex, &"next".into())
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
        else {
            return false;
        };
        log.open_embedded(&meta.title, meta.bytes);
        leptos::task::spawn_local(read(log, ex, next, meta, summary));
        true
    }

    async fn read(log: LogFile, ex: JsValue, next: Function, meta: Meta, summary: Option<String>) {
        let mut parser = Envelopes::default();
        let (mut read, mut envs, mut sent, mut last) = (0.0, Vec::new(), false, now_ms());
        let rows = |envs, read, done| FromWorker::Rows {
            envs,
            read,
            total: meta.bytes,
            lines: meta.lines,
            done,
            // The whole log's, computed by the exporter: the header shows it from the start.
            summary: summary.clone(),
            // An export carries its rows whole: no body is left in a file.
            lazy: Vec::new(),
            phases: Vec::new(),
        };
        loop {
            let chunk = match next.call0(&ex).map(|p| JsFuture::from(Promise::from(p))) {
                Ok(f) => f.await,
                Err(e) => Err(e),
            };
            let chunk = match chunk {
                Ok(c) if c.is_null() || c.is_undefined() => break,
                Ok(c) => c.unchecked_into::<Uint8Array>().to_vec(),
                Err(e) => {
                    let why = e.as_string().unwrap_or_else(|| format!("{e:?}"));
                    log.on_worker(FromWorker::Error(format!("cannot read the export: {why}")));
                    return;
                }
            };
            read += chunk.len() as f64;
            envs.extend(parser.push(&chunk));
            // The first rows at once, then batches: each batch is one update of the view.
            if !envs.is_empty() && (!sent || now_ms() - last > BATCH_MS) {
                log.on_worker(rows(std::mem::take(&mut envs), read, false));
                (sent, last) = (true, now_ms());
            }
        }
        envs.extend(parser.finish());
        log.on_worker(rows(envs, read, true));
    }
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
        assert_eq!(Meta::parse("nope"), None);
    }
}
