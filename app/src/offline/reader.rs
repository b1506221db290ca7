//! The page's side of the classifier worker ([`crate::worker::run`]): a [`Reader`] hands it
//! a dropped, picked or pasted log and turns what it sends back into [`ReaderEvent`]s of the log
//! in hand.
//!
//! The worker (its own wasm, `src/bin/worker.rs`, started by [`crate::browser::new_worker`],
//! or in an exported file from the `blob:` URL it carries) is started with the page, so its
//! wasm is compiled before a log is dropped; each log opened is a new job of it (numbered:
//! a late message of an earlier job is dropped). The worker sends the rows without their
//! bodies, which stay in the file: a row shown open asks for its body
//! ([`crate::offline::bodies`] through [`Reader::bodies`]), and a search asks the worker for
//! the rows whose body matches ([`Reader::search`]). Pasted text is read as a `Blob` of it,
//! exactly as a file is. The [`Reader`] is owned by the offline log
//! ([`crate::offline::log_file::LogFile`]); nothing else reaches the worker.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Uint8Array;
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{MessageEvent, Worker};

use crate::offline::progress::ReaderEvent;
use crate::worker::protocol::port::{post, receive};
use crate::worker::protocol::{FromWorker, RowKey, ToWorker, row_batch};

struct Inner {
    worker: Option<Worker>,
    ready: bool,
    /// The log in hand (0: none).
    job: u64,
    /// Messages (and their attachments) held until the worker listens.
    held: Vec<(ToWorker, Option<JsValue>)>,
    handler: Rc<dyn Fn(ReaderEvent)>,
    _on_message: Option<Closure<dyn FnMut(MessageEvent)>>,
}

/// The worker, and the messages held until it listens.
#[derive(Clone)]
pub struct Reader(Rc<RefCell<Inner>>);

/// The worker's message of job `job` as an update of the log in hand; `None` for
/// [`FromWorker::Ready`], another job's and a save's.
fn update(msg: FromWorker, data: &JsValue, job: u64) -> Option<ReaderEvent> {
    match msg {
        FromWorker::Rows(r) if r.job == job => {
            let t = crate::browser::now_ms();
            let bytes = data.dyn_ref::<Uint8Array>()?.to_vec();
            let (envs, lazy) = row_batch::decode(&bytes);
            let mut phases = r.phases;
            phases.push(crate::browser::now_ms() - t);
            Some(ReaderEvent::Rows {
                envs,
                read: r.read as f64,
                total: r.total as f64,
                lines: r.lines,
                done: r.done,
                summary: Some(r.summary),
                lazy,
                phases,
            })
        }
        FromWorker::Bodies { job: j, found } if j == job => Some(ReaderEvent::Bodies(found)),
        FromWorker::Hits {
            job: j,
            id,
            hits,
            done,
        } if j == job => Some(ReaderEvent::Hits { id, hits, done }),
        FromWorker::Error { job: j, message } if j.is_none_or(|j| j == job) => {
            Some(ReaderEvent::Error(message))
        }
        _ => None,
    }
}

impl Reader {
    /// Starts the worker (`url`: an exported file's `blob:` URL of it, else the one next to
    /// the page); `handler` gets every update of the log in hand.
    pub fn new(url: Option<String>, handler: impl Fn(ReaderEvent) + 'static) -> Reader {
        let r = Reader(Rc::new(RefCell::new(Inner {
            worker: None,
            ready: false,
            job: 0,
            held: Vec::new(),
            handler: Rc::new(handler),
            _on_message: None,
        })));
        r.spawn(url);
        r
    }

    fn spawn(&self, url: Option<String>) {
        // Relative: next to the page wherever it is served (in an exported file, the
        // `blob:` URL of the worker it carries, a classic script).
        let worker = match url {
            Some(url) => crate::browser::new_classic_worker(&url),
            None => crate::browser::new_worker("./worker_loader.js"),
        };
        let worker = match worker {
            Ok(w) => w,
            Err(e) => {
                let handler = self.0.borrow().handler.clone();
                handler(ReaderEvent::Error(format!("cannot start a worker: {e}")));
                return;
            }
        };
        let me = self.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            let Some((msg, data)) = receive::<FromWorker>(&ev) else {
                return;
            };
            if msg == FromWorker::Ready {
                me.0.borrow_mut().ready = true;
                me.flush();
                return;
            }
            let job = me.0.borrow().job;
            if let Some(update) = update(msg, &data, job) {
                let handler = me.0.borrow().handler.clone();
                handler(update);
            }
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
            for (msg, data) in held {
                post(w, &msg, data.as_ref());
            }
        }
    }

    fn send(&self, msg: ToWorker, data: Option<JsValue>) {
        self.0.borrow_mut().held.push((msg, data));
        self.flush();
    }

    fn job(&self) -> u64 {
        self.0.borrow().job
    }

    /// Classifies a file (or any blob): a new job, which ends the one in hand.
    pub fn read(&self, blob: web_sys::Blob, parts: Vec<crate::worker::protocol::Part>) {
        let job = {
            let mut inner = self.0.borrow_mut();
            inner.job += 1;
            inner.held.clear();
            inner.job
        };
        self.send(ToWorker::File { job, parts }, Some(blob.into()));
    }

    /// Drops the job in hand.
    pub fn cancel(&self) {
        self.send(ToWorker::Cancel, None);
        self.0.borrow_mut().job += 1;
    }

    /// Asks for the bodies of rows `(seq, idx)` of the log in hand (answered by
    /// [`ReaderEvent::Bodies`]).
    pub fn bodies(&self, want: &[RowKey]) {
        let job = self.job();
        self.send(
            ToWorker::Bodies {
                job,
                want: want.to_vec(),
            },
            None,
        );
    }

    /// After the next frame (the one that paints the first rows of the log in hand), tells
    /// the worker they are shown: it reads ahead from then on (before, one chunk at a time,
    /// so reads do not hold up that frame).
    pub fn shown(&self) {
        let job = self.job();
        let r = self.clone();
        let f = Closure::once_into_js(move || {
            if r.job() == job {
                r.send(ToWorker::Shown { job }, None);
            }
        });
        let asked = web_sys::window().map(|w| w.request_animation_frame(f.unchecked_ref()));
        if !matches!(asked, Some(Ok(_))) {
            self.send(ToWorker::Shown { job }, None);
        }
    }

    /// Searches the bodies of the log in hand for `query` (empty: stops searching); the
    /// rows found come as [`ReaderEvent::Hits`] with this `id`.
    pub fn search(&self, id: u64, query: &str) {
        let job = self.job();
        let query = query.to_owned();
        self.send(ToWorker::Search { job, id, query }, None);
    }
}

/// Pasted text as a blob (what the worker reads, and what is kept for a reload).
pub fn text_blob(text: &str) -> Option<web_sys::Blob> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    web_sys::Blob::new_with_str_sequence(&parts).ok()
}
