//! The Web Worker side: classifies a dropped file (or pasted text) off the main thread.
//!
//! The worker is its own wasm (`src/bin/worker.rs` calls [`run`]). Protocol, all plain
//! objects:
//! - worker → page `{kind: "ready"}` once it listens;
//! - page → worker `{kind: "file", file: Blob}` (a `File`, or the `Blob` of pasted text);
//! - worker → page `{kind: "rows", json: "[TermEnvelope…]", read, total, lines, summary}`
//!   after each chunk (the first chunk is small so the first rows show at once), then
//!   `{kind: "done", …}` with the same fields. `summary` is a JSON string: the
//!   [`classifier::Summary`] of the file read so far (the keys `hiveterm summary --json`
//!   prints, docs/CLI.md); the one on `done` is the whole file's;
//! - to the markdown worker (its own small wasm, `src/bin/mdworker.rs`, [`run_markdown`]):
//!   page → worker `{kind: "md", id, text}`, worker → page `{kind: "md", id, html}`: a
//!   markdown body rendered by [`classifier::markdown::render`] (pulldown-cmark, then
//!   ammonia), so the page's own wasm carries no renderer ([`crate::md_render`]).
//!
//! The file is read with `File.slice` and `FileReaderSync`, chunk by chunk, through one
//! [`classifier::LogClassifier`] (the same type `hiveterm classify` uses, with the same line
//! limit): each line's `seq` is its 1-based line number and its rows are exactly the CLI's.

use classifier::{LogClassifier, Summary, TermEnvelope};

/// Bytes read for the first chunk: small, so the first rows show quickly.
pub const FIRST_CHUNK: usize = 128 * 1024;
/// Bytes read per later chunk.
pub const CHUNK: usize = 4 * 1024 * 1024;

/// Classifies a stream of chunks, returning after each the envelopes that have rows (an
/// envelope without rows is not sent), and keeps the file's [`Summary`]. Pure; the worker
/// feeds it file slices.
#[derive(Debug)]
pub struct Classifier {
    log: LogClassifier,
}

impl Default for Classifier {
    fn default() -> Classifier {
        Classifier::new()
    }
}

impl Classifier {
    /// With the one line limit, [`classifier::MAX_LINE_BYTES`].
    pub fn new() -> Classifier {
        Classifier::with_limit(classifier::MAX_LINE_BYTES)
    }

    /// With another line limit (tests lower it).
    pub fn with_limit(limit: usize) -> Classifier {
        Classifier {
            log: LogClassifier::with_limit(limit).with_summary(),
        }
    }

    /// The summary of the lines so far.
    pub fn summary(&self) -> Summary {
        self.log.summary().unwrap_or_default()
    }

    /// Classifies one chunk.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<TermEnvelope> {
        let mut out = Vec::new();
        self.log.feed(chunk, |env| keep(&mut out, env));
        out
    }

    /// Ends the input.
    pub fn finish(&mut self) -> Vec<TermEnvelope> {
        let mut out = Vec::new();
        self.log.finish(|env| keep(&mut out, env));
        out
    }

    /// Physical lines seen so far, blank ones included.
    pub fn lines(&self) -> u64 {
        self.log.lines_seen()
    }
}

fn keep(out: &mut Vec<TermEnvelope>, env: TermEnvelope) {
    if !env.msgs.is_empty() {
        out.push(env);
    }
}

/// Starts listening for jobs (worker only).
pub fn run() {
    #[cfg(target_arch = "wasm32")]
    imp::run();
}

/// Starts listening for markdown bodies to render (the markdown worker only).
pub fn run_markdown() {
    #[cfg(target_arch = "wasm32")]
    imp::run_markdown();
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use super::*;
    use js_sys::{Object, Reflect, Uint8Array};
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    use web_sys::{Blob, DedicatedWorkerGlobalScope, FileReaderSync, MessageEvent};

    fn scope() -> DedicatedWorkerGlobalScope {
        js_sys::global().unchecked_into()
    }

    fn post(kind: &str, fields: &[(&str, JsValue)]) {
        let o = Object::new();
        let _ = Reflect::set(&o, &"kind".into(), &kind.into());
        for (k, v) in fields {
            let _ = Reflect::set(&o, &(*k).into(), v);
        }
        let _ = scope().post_message(&o);
    }

    fn post_rows(c: &Classifier, envs: &[TermEnvelope], read: f64, total: f64, kind: &str) {
        let json = serde_json::to_string(envs).unwrap_or_else(|_| "[]".to_owned());
        let summary = serde_json::to_string(&c.summary()).unwrap_or_else(|_| "{}".to_owned());
        let lines = c.lines();
        post(
            kind,
            &[
                ("json", json.into()),
                ("read", read.into()),
                ("total", total.into()),
                ("lines", (lines as f64).into()),
                ("summary", summary.into()),
            ],
        );
    }

    pub fn run() {
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            let data = ev.data();
            let kind = Reflect::get(&data, &"kind".into())
                .ok()
                .and_then(|k| k.as_string())
                .unwrap_or_default();
            if kind == "file"
                && let Ok(file) = Reflect::get(&data, &"file".into())
            {
                classify_blob(file.unchecked_into());
            }
        });
        scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        post("ready", &[]);
    }

    pub fn run_markdown() {
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            let data = ev.data();
            let get = |k: &str| Reflect::get(&data, &k.into()).ok();
            if get("kind").and_then(|k| k.as_string()).as_deref() == Some("md") {
                let id = get("id").unwrap_or(JsValue::UNDEFINED);
                let text = get("text").and_then(|t| t.as_string()).unwrap_or_default();
                let html = classifier::markdown::render(&text);
                post("md", &[("id", id), ("html", html.into())]);
            }
        });
        scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        post("ready", &[]);
    }

    fn classify_blob(blob: Blob) {
        let total = blob.size();
        let Ok(reader) = FileReaderSync::new() else {
            post("error", &[("message", "FileReaderSync unavailable".into())]);
            return;
        };
        let mut c = Classifier::new();
        let mut at = 0.0_f64;
        let mut size = FIRST_CHUNK as f64;
        while at < total {
            let end = (at + size).min(total);
            let bytes = blob
                .slice_with_f64_and_f64(at, end)
                .and_then(|s| reader.read_as_array_buffer(&s))
                .map(|buf| Uint8Array::new(&buf).to_vec());
            let bytes = match bytes {
                Ok(b) => b,
                Err(e) => {
                    let msg = e.as_string().unwrap_or_else(|| format!("{e:?}"));
                    post("error", &[("message", msg.into())]);
                    return;
                }
            };
            let envs = c.push(&bytes);
            at = end;
            post_rows(&c, &envs, at, total, "rows");
            size = CHUNK as f64;
        }
        let envs = c.finish();
        post_rows(&c, &envs, total, total, "done");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_split(input: &[u8], split: usize) -> Vec<TermEnvelope> {
        let mut c = Classifier::new();
        let mut out = Vec::new();
        for chunk in input.chunks(split.max(1)) {
            out.extend(c.push(chunk));
        }
        out.extend(c.finish());
        out
    }

    #[test]
    fn chunking_does_not_change_rows() {
        let input = b"{\"kind\":\"turn_start\",\"ts\":1.0,\"from\":\"operator\",\"body\":\"go\"}\n\n\
{\"kind\":\"note\",\"ts\":2.0,\"text\":\"stderr: boom\"}\nnot json\n{\"kind\":\"turn_end\",\"ts\":3.0,\"ok\":true}";
        let whole = run_split(input, input.len());
        assert_eq!(whole.len(), 4);
        assert_eq!(
            whole.iter().map(|e| e.seq).collect::<Vec<_>>(),
            vec![Some(1), Some(3), Some(4), Some(5)]
        );
        for split in 1..input.len() {
            assert_eq!(run_split(input, split), whole, "split {split}");
        }
    }

    #[test]
    fn rowless_lines_send_no_envelope() {
        let input = b"{\"kind\":\"status_changed\",\"ts\":1.0,\"status\":\"busy\"}\n";
        assert!(run_split(input, 7).is_empty());
    }

    #[test]
    fn the_summary_grows_with_the_file() {
        let input = b"{\"kind\":\"turn_start\",\"ts\":1.0,\"from\":\"operator\",\"body\":\"go\"}\nnot json\n{\"kind\":\"turn_end\",\"ts\":3.0,\"ok\":true}";
        let mut c = Classifier::new();
        let first = input.iter().position(|&b| b == b'\n').unwrap() + 1;
        c.push(&input[..first]);
        assert_eq!((c.summary().turns, c.summary().errors), (1, 0));
        c.push(&input[first..]);
        c.finish();
        let s = c.summary();
        assert_eq!(
            (
                s.turns,
                s.turns_ok,
                s.errors,
                s.first_error_seq,
                s.duration_s
            ),
            (1, 1, 1, Some(2), Some(2.0))
        );
    }
}
