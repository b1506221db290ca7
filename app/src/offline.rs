//! The page side of offline reading: hands a dropped, picked or pasted log to the worker
//! ([`crate::worker`]) and feeds the envelopes it sends back into the view state.
//!
//! The worker (its own small wasm, `src/bin/worker.rs`, started by
//! [`crate::browser::new_worker`]) is started with the page, so its wasm is compiled before
//! a log is dropped; each log opened is a new job of it (numbered: a late message of an
//! earlier job is dropped). The worker sends the rows without their bodies, which stay in
//! the file: a row shown open asks for its body ([`crate::bodies`]), and a search asks the
//! worker for the rows whose body matches ([`search`]). (Markdown bodies are rendered by
//! another worker, [`crate::md_render`].)
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
    /// Milliseconds per phase so far: the worker's ([`crate::worker::PHASES`]), then the
    /// page's ([`PAGE_PHASES`]). The big-log benchmark prints them (`data-phases`).
    pub phases: Vec<f64>,
}

/// The page's phases of an offline log's rows, after the worker's in [`Progress::phases`].
pub const PAGE_PHASES: [&str; 3] = [
    "page: message decode (row_batch)",
    "page: reducer (apply_lazy)",
    "page: summary header parsed and set",
];

impl Progress {
    /// Adds a message's phases: the worker's so far (`worker`, its running totals), and the
    /// page's for this message (`page`, added to the page's totals).
    pub fn add_phases(&mut self, worker: &[f64], page: [f64; PAGE_PHASES.len()]) {
        let n = crate::worker::PHASES.len();
        self.phases.resize(n + PAGE_PHASES.len(), 0.0);
        for (i, &w) in worker.iter().take(n).enumerate() {
            self.phases[i] = w;
        }
        for (i, p) in page.into_iter().enumerate() {
            self.phases[n + i] += p;
        }
    }
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
        /// Rows whose body was left in the file (`seq`, `idx`, the body's line count).
        lazy: Vec<crate::worker::Lazy>,
        /// The worker's milliseconds per phase so far ([`crate::worker::PHASES`]), and last
        /// the page's for decoding this message.
        phases: Vec<f64>,
    },
    /// Bodies asked for: `(seq, idx, body)`.
    Bodies(Vec<(u64, u32, String)>),
    /// Rows of search `id` whose body matches (`(seq, idx)`); `done`: the search ended.
    Hits {
        /// The search.
        id: u64,
        /// The rows.
        hits: Vec<(u64, u32)>,
        /// Whether the whole file was searched.
        done: bool,
    },
    /// Reading failed.
    Error(String),
}

/// Reads `[seq, idx, seq, idx, …]`.
pub fn pairs_of(flat: &[f64]) -> Vec<(u64, u32)> {
    flat.chunks_exact(2)
        .map(|p| (p[0] as u64, p[1] as u32))
        .collect()
}

pub use imp::{Reader, ask_bodies, cancel, install, read_blob, search, shown, text_blob};

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
        /// The log in hand (0: none).
        job: f64,
        /// Messages held until the worker listens.
        held: Vec<Object>,
        handler: Rc<dyn Fn(FromWorker)>,
        _on_message: Option<Closure<dyn FnMut(MessageEvent)>>,
    }

    /// The worker, and the messages held until it listens.
    #[derive(Clone)]
    pub struct Reader(Rc<RefCell<Inner>>);

    fn floats(v: Option<JsValue>) -> Vec<f64> {
        v.and_then(|v| v.dyn_into::<js_sys::Float64Array>().ok())
            .map(|a| a.to_vec())
            .unwrap_or_default()
    }

    fn decode(data: &JsValue, job: f64) -> Option<FromWorker> {
        let get = |k: &str| Reflect::get(data, &k.into()).ok();
        let kind = get("kind")?.as_string()?;
        // A message of an earlier log.
        if kind != "ready" && get("job").and_then(|j| j.as_f64()) != Some(job) {
            return None;
        }
        match kind.as_str() {
            "ready" => Some(FromWorker::Ready),
            "rows" | "done" => {
                let t = crate::browser::now_ms();
                let bytes = get("rows")?.dyn_into::<js_sys::Uint8Array>().ok()?.to_vec();
                let (envs, lazy) = crate::row_batch::decode(&bytes);
                let mut phases = floats(get("phases"));
                phases.push(crate::browser::now_ms() - t);
                Some(FromWorker::Rows {
                    envs,
                    read: get("read")?.as_f64()?,
                    total: get("total")?.as_f64()?,
                    lines: get("lines")?.as_f64()? as u64,
                    done: kind == "done",
                    summary: get("summary").and_then(|v| v.as_string()),
                    lazy,
                    phases,
                })
            }
            "bodies" => Some(FromWorker::Bodies(
                serde_json::from_str(&get("json")?.as_string()?).unwrap_or_default(),
            )),
            "hits" => Some(FromWorker::Hits {
                id: get("id")?.as_f64()? as u64,
                hits: pairs_of(&floats(get("hits"))),
                done: get("done")?.as_bool()?,
            }),
            "error" => Some(FromWorker::Error(
                get("message")?.as_string().unwrap_or_default(),
            )),
            _ => None,
        }
    }

    fn message(kind: &str, job: f64, fields: &[(&str, JsValue)]) -> Object {
        let msg = Object::new();
        let _ = Reflect::set(&msg, &"kind".into(), &kind.into());
        let _ = Reflect::set(&msg, &"job".into(), &job.into());
        for (k, v) in fields {
            let _ = Reflect::set(&msg, &(*k).into(), v);
        }
        msg
    }

    impl Reader {
        /// Starts the worker; `handler` gets every decoded message of the log in hand.
        pub fn new(handler: impl Fn(FromWorker) + 'static) -> Reader {
            let r = Reader(Rc::new(RefCell::new(Inner {
                worker: None,
                ready: false,
                job: 0.0,
                held: Vec::new(),
                handler: Rc::new(handler),
                _on_message: None,
            })));
            r.spawn();
            r
        }

        fn spawn(&self) {
            // Relative: next to the page wherever it is served (in an exported file, the
            // `blob:` URL of the worker it carries, a classic script).
            let worker = match crate::export::worker_url() {
                Some(url) => crate::browser::new_classic_worker(&url),
                None => crate::browser::new_worker("./worker_loader.js"),
            };
            let worker = match worker {
                Ok(w) => w,
                Err(e) => {
                    let handler = self.0.borrow().handler.clone();
                    handler(FromWorker::Error(format!("cannot start a worker: {e}")));
                    return;
                }
            };
            let me = self.clone();
            let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
                let job = me.0.borrow().job;
                let Some(msg) = decode(&ev.data(), job) else {
                    return;
                };
                if msg == FromWorker::Ready {
                    me.0.borrow_mut().ready = true;
                    me.flush();
                }
                let handler = me.0.borrow().handler.clone();
                handler(msg);
            });
            worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            let mut inner = self.0.borrow_mut();
            inner.worker = Some(worker);
            inner.ready = false;
            inner._on_message = Some(on_message);
        }

        fn flush(&self) {
            let mut inner = self.0.borrow_mut();
            if !inner.ready {
                return;
            }
            let held = std::mem::take(&mut inner.held);
            if let Some(w) = &inner.worker {
                for msg in held {
                    let _ = w.post_message(&msg);
                }
            }
        }

        fn send(&self, kind: &str, fields: &[(&str, JsValue)]) {
            {
                let mut inner = self.0.borrow_mut();
                let msg = message(kind, inner.job, fields);
                inner.held.push(msg);
            }
            self.flush();
        }

        /// Classifies a file (or any blob): a new job, which ends the one in hand.
        pub fn read(&self, blob: web_sys::Blob) {
            {
                let mut inner = self.0.borrow_mut();
                inner.job += 1.0;
                inner.held.clear();
            }
            self.send("file", &[("file", blob.into())]);
        }

        /// Drops the job in hand.
        pub fn cancel(&self) {
            self.send("cancel", &[]);
            self.0.borrow_mut().job += 1.0;
        }

        /// Asks for the bodies of rows `(seq, idx)` of the log in hand.
        pub fn bodies(&self, want: &[(u64, u32)]) {
            let flat: Vec<f64> = want
                .iter()
                .flat_map(|&(s, i)| [s as f64, f64::from(i)])
                .collect();
            let want = js_sys::Float64Array::from(flat.as_slice());
            self.send("bodies", &[("want", want.into())]);
        }

        /// Tells the worker the log in hand's first rows are painted: it reads ahead from now
        /// on (before, one chunk at a time, so reads do not hold up that frame).
        pub fn shown(&self) {
            self.send("shown", &[]);
        }

        /// Searches the bodies of the log in hand for `query` (empty: stops searching).
        pub fn search(&self, id: u64, query: &str) {
            self.send(
                "search",
                &[("id", (id as f64).into()), ("query", query.into())],
            );
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

    /// After the next frame (the one that paints the first rows of the log in hand), tells
    /// the worker they are shown ([`Reader::shown`]).
    pub fn shown() {
        let Some(r) = reader() else { return };
        let job = r.0.borrow().job;
        let f = Closure::once_into_js(move || {
            if r.0.borrow().job == job {
                r.shown();
            }
        });
        let asked = web_sys::window().map(|w| w.request_animation_frame(f.unchecked_ref()));
        if !matches!(asked, Some(Ok(_)))
            && let Some(r) = reader()
        {
            r.shown();
        }
    }

    /// Asks the worker for bodies of the log in hand (answered by [`FromWorker::Bodies`]).
    pub fn ask_bodies(want: &[(u64, u32)]) {
        if let Some(r) = reader() {
            r.bodies(want);
        }
    }

    /// Asks the worker to search the bodies of the log in hand (answered by
    /// [`FromWorker::Hits`] with this `id`).
    pub fn search(id: u64, query: &str) {
        if let Some(r) = reader() {
            r.search(id, query);
        }
    }

    /// Pasted text as a blob (what the worker reads, and what is kept for a reload).
    pub fn text_blob(text: &str) -> Option<web_sys::Blob> {
        let parts = js_sys::Array::of1(&JsValue::from_str(text));
        web_sys::Blob::new_with_str_sequence(&parts).ok()
    }
}
