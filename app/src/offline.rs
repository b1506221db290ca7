//! The page side of offline reading: hands a dropped, picked or pasted log to the worker
//! ([`crate::worker`]) and feeds the envelopes it sends back into the view state.
//!
//! The worker (its own small wasm, `src/bin/worker.rs`, started by
//! [`crate::browser::new_worker`]) is started when the first log is opened, and replaced
//! when a new log arrives while it is still busy. (Markdown bodies are rendered by another
//! worker, [`crate::md_render`], which no log replaces.)
//! Pasted text is read as a `Blob` of it, exactly as a file is.

use classifier::TermEnvelope;

/// Progress of reading one log.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Progress {
    /// Name shown in the header.
    pub name: String,
    /// Bytes read.
    pub read: f64,
    /// Bytes in all.
    pub total: f64,
    /// Lines read.
    pub lines: u64,
    /// Whether the whole log is classified.
    pub done: bool,
    /// Milliseconds from the drop to the first rows, and to the end.
    pub first_ms: Option<f64>,
    /// Milliseconds from the drop to the end.
    pub done_ms: Option<f64>,
    /// What went wrong, if anything.
    pub error: Option<String>,
}

/// One message from the worker, decoded.
#[derive(Debug, Clone, PartialEq)]
pub enum FromWorker {
    /// The worker listens.
    Ready,
    /// A chunk's envelopes, and how far reading got.
    Rows {
        /// The envelopes.
        envs: Vec<TermEnvelope>,
        /// Bytes read.
        read: f64,
        /// Bytes in all.
        total: f64,
        /// Lines read.
        lines: u64,
        /// Whether this is the last chunk.
        done: bool,
        /// The summary of the log read so far (JSON: the keys of `hiveterm summary --json`).
        summary: Option<String>,
    },
    /// Reading failed.
    Error(String),
}

/// Parses a batch of envelopes the worker sent. A batch that does not parse (it cannot: the
/// worker wrote it) gives no envelopes rather than a panic.
pub fn parse_batch(json: &str) -> Vec<TermEnvelope> {
    serde_json::from_str(json).unwrap_or_default()
}

pub use imp::{Reader, cancel, install, read_blob, text_blob};

mod imp {
    use super::*;
    use js_sys::{Object, Reflect};
    use std::cell::RefCell;
    use std::rc::Rc;
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    use web_sys::{MessageEvent, Worker};

    struct Inner {
        worker: Option<Worker>,
        ready: bool,
        busy: bool,
        pending: Option<web_sys::Blob>,
        handler: Rc<dyn Fn(FromWorker)>,
        _on_message: Option<Closure<dyn FnMut(MessageEvent)>>,
    }

    /// The worker, with the job queue in front of it.
    #[derive(Clone)]
    pub struct Reader(Rc<RefCell<Inner>>);

    fn decode(data: &JsValue) -> Option<FromWorker> {
        let get = |k: &str| Reflect::get(data, &k.into()).ok();
        let kind = get("kind")?.as_string()?;
        match kind.as_str() {
            "ready" => Some(FromWorker::Ready),
            "rows" | "done" => Some(FromWorker::Rows {
                envs: parse_batch(&get("json")?.as_string()?),
                read: get("read")?.as_f64()?,
                total: get("total")?.as_f64()?,
                lines: get("lines")?.as_f64()? as u64,
                done: kind == "done",
                summary: get("summary").and_then(|v| v.as_string()),
            }),
            "error" => Some(FromWorker::Error(
                get("message")?.as_string().unwrap_or_default(),
            )),
            _ => None,
        }
    }

    impl Reader {
        /// Starts a worker; `handler` gets every decoded message.
        pub fn new(handler: impl Fn(FromWorker) + 'static) -> Reader {
            Reader(Rc::new(RefCell::new(Inner {
                worker: None,
                ready: false,
                busy: false,
                pending: None,
                handler: Rc::new(handler),
                _on_message: None,
            })))
        }

        fn spawn(&self) {
            // Relative: next to the page wherever it is served (in an exported file, the
            // `blob:` URL of the worker it carries).
            let url = crate::export::worker_url();
            let url = url.as_deref().unwrap_or("./worker_loader.js");
            let worker = match crate::browser::new_worker(url) {
                Ok(w) => w,
                Err(e) => {
                    let handler = self.0.borrow().handler.clone();
                    handler(FromWorker::Error(format!("cannot start a worker: {e}")));
                    return;
                }
            };
            let me = self.clone();
            let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
                let Some(msg) = decode(&ev.data()) else {
                    return;
                };
                match &msg {
                    FromWorker::Ready => {
                        me.0.borrow_mut().ready = true;
                        me.flush();
                    }
                    FromWorker::Rows { done: true, .. } | FromWorker::Error(_) => {
                        me.0.borrow_mut().busy = false;
                    }
                    FromWorker::Rows { .. } => {}
                }
                let handler = me.0.borrow().handler.clone();
                handler(msg);
            });
            worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            let mut inner = self.0.borrow_mut();
            inner.worker = Some(worker);
            inner.ready = false;
            inner.busy = false;
            inner._on_message = Some(on_message);
        }

        fn flush(&self) {
            let job = {
                let mut inner = self.0.borrow_mut();
                if !inner.ready || inner.busy {
                    return;
                }
                inner.pending.take()
            };
            let Some(blob) = job else { return };
            let msg = Object::new();
            let _ = Reflect::set(&msg, &"kind".into(), &"file".into());
            let _ = Reflect::set(&msg, &"file".into(), &blob);
            let mut inner = self.0.borrow_mut();
            if let Some(w) = &inner.worker {
                let _ = w.post_message(&msg);
                inner.busy = true;
            }
        }

        /// Classifies a file (or any blob).
        pub fn read(&self, blob: web_sys::Blob) {
            let (busy, none) = {
                let inner = self.0.borrow();
                (inner.busy, inner.worker.is_none())
            };
            if none {
                self.spawn();
            } else if busy {
                if let Some(w) = self.0.borrow_mut().worker.take() {
                    w.terminate();
                }
                self.spawn();
            }
            self.0.borrow_mut().pending = Some(blob);
            self.flush();
        }

        /// Drops the job in hand: a busy worker is stopped (the next job starts another).
        pub fn cancel(&self) {
            let mut inner = self.0.borrow_mut();
            inner.pending = None;
            if inner.busy {
                if let Some(w) = inner.worker.take() {
                    w.terminate();
                }
                inner.busy = false;
            }
        }
    }

    thread_local! {
        static READER: RefCell<Option<Reader>> = const { RefCell::new(None) };
    }

    /// Starts the page's worker; `handler` gets its messages.
    pub fn install(handler: impl Fn(FromWorker) + 'static) {
        let reader = Reader::new(handler);
        READER.with(|r| *r.borrow_mut() = Some(reader));
    }

    fn reader() -> Option<Reader> {
        READER.with(|r| r.borrow().clone())
    }

    /// Classifies a file (or the blob of pasted text) in the page's worker.
    pub fn read_blob(blob: web_sys::Blob) {
        if let Some(r) = reader() {
            r.read(blob);
        }
    }

    /// Stops reading the log in hand.
    pub fn cancel() {
        if let Some(r) = reader() {
            r.cancel();
        }
    }

    /// Pasted text as a blob (what the worker reads, and what is kept for a reload).
    pub fn text_blob(text: &str) -> Option<web_sys::Blob> {
        let parts = js_sys::Array::of1(&JsValue::from_str(text));
        web_sys::Blob::new_with_str_sequence(&parts).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_round_trips() {
        let envs = vec![TermEnvelope {
            ts: Some(1.5),
            seq: Some(3),
            msgs: vec![classifier::TermMsg::new(classifier::Level::Warn, "x")],
        }];
        let json = serde_json::to_string(&envs).unwrap();
        assert_eq!(parse_batch(&json), envs);
    }

    #[test]
    fn garbage_batch_is_empty() {
        assert!(parse_batch("not json").is_empty());
    }
}
