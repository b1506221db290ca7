//! The classifier worker's loop (`src/bin/worker.rs` calls [`run`]): it answers the page's
//! [`crate::worker::protocol::ToWorker`] messages — a log to classify (`job::Job`), its first rows painted, bodies to
//! read again, a search of the bodies, a save ([`crate::worker::export`]) — and works in
//! steps (one chunk of the log, one of the search), each a task of its own, so a body asked
//! for while a log is read is answered between two chunks.
//!
//! The worker's state is one `Worker`, owned by the loop's handlers (an `Rc` each holds),
//! not a global.

/// Starts listening for jobs (the classifier worker only).
pub fn run() {
    #[cfg(target_arch = "wasm32")]
    imp::run();
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use std::cell::RefCell;
    use std::rc::{Rc, Weak};

    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    use web_sys::{Blob, FileReaderSync, MessageChannel, MessageEvent};

    use crate::worker::body_search::Search;
    use crate::worker::classify::{Classifier, bodies_in};
    use crate::worker::job::{Job, now};
    use crate::worker::protocol::port::{receive, reply, scope};
    use crate::worker::protocol::row_batch::{self, strip};
    use crate::worker::protocol::{FromWorker, Part, RowKey, ToWorker};
    use crate::worker::range_read::RangeRead;

    /// A search of the bodies.
    struct Find {
        id: u64,
        s: Search,
        /// The range being read for it, and the bytes of the last one.
        read: RangeRead,
        bytes: Vec<u8>,
        /// Hits not sent yet, and when some were last sent (each batch refilters the page's
        /// rows: a few a second at most).
        hits: Vec<RowKey>,
        sent_at: f64,
    }

    /// Fewest milliseconds between two batches of search hits.
    const HITS_EVERY_MS: f64 = 400.0;

    struct State {
        reader: FileReaderSync,
        job: Option<Job>,
        find: Option<Find>,
        /// A step is a message to itself through this channel (a task of its own).
        channel: MessageChannel,
        scheduled: bool,
    }

    /// The worker: the log in hand, the search, the step scheduled.
    #[derive(Clone)]
    struct Worker(Rc<RefCell<State>>);

    fn error(job: Option<u64>, message: String) {
        reply(&FromWorker::Error { job, message }, None);
    }

    pub fn run() {
        let (Ok(reader), Ok(channel)) = (FileReaderSync::new(), MessageChannel::new()) else {
            error(None, "FileReaderSync unavailable".into());
            return;
        };
        let w = Worker(Rc::new(RefCell::new(State {
            reader,
            job: None,
            find: None,
            channel,
            scheduled: false,
        })));
        let me = w.clone();
        let on_tick = Closure::<dyn FnMut(MessageEvent)>::new(move |_: MessageEvent| me.tick());
        w.0.borrow()
            .channel
            .port2()
            .set_onmessage(Some(on_tick.as_ref().unchecked_ref()));
        on_tick.forget();
        let me = w.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            if let Some((msg, data)) = receive::<ToWorker>(&ev) {
                me.on_message(msg, data);
            }
        });
        scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        warm_up();
        reply(&FromWorker::Ready, None);
    }

    /// How long the worker classifies a sample log when it starts.
    const WARM_MS: f64 = 150.0;

    /// The sample: a real Claude Code stream-json log of this repository's fixtures (tool
    /// calls of eight tools, their results and errors, text, a turn end), carried in the
    /// worker's wasm compressed by `zstd -19` (5.7 KB; the worker has the decoder for dropped
    /// logs). It was a 229 KB transcript (26 KB compressed): a sample a fortieth its size
    /// runs the same hot paths, looped, and left room for three more agents' formats.
    /// `tests/warm_log.rs` holds it to the fixture.
    static WARM_LOG: &[u8] = include_bytes!("warm_log.jsonl.zst");

    /// Classifies [`WARM_LOG`] over and over for [`WARM_MS`] when the worker starts, before
    /// any log comes: the browser compiles wasm first with its baseline compiler and
    /// optimises a function only once it has run hot, so a log's first megabytes were
    /// classified by slower code (about 123 MB/s over a 154 MB log against 167 MB/s over a
    /// 1 GB one).
    fn warm_up() {
        let start = now();
        let Some(Ok(log)) = classifier::zstd::decompress(WARM_LOG) else {
            return;
        };
        while now() - start < WARM_MS {
            let mut c = Classifier::new();
            let mut envs = c.push(&log);
            envs.extend(c.finish());
            let lazy = strip(&mut envs);
            drop(row_batch::encode(&envs, &lazy));
        }
    }

    impl Worker {
        fn on_message(&self, msg: ToWorker, data: JsValue) {
            match msg {
                ToWorker::File { job, parts } => self.start(job, data.unchecked_into(), parts),
                ToWorker::Shown { job } => {
                    if let Some(j) = self.0.borrow_mut().job.as_mut().filter(|j| j.id == job) {
                        j.shown();
                    }
                }
                ToWorker::Cancel => {
                    let mut s = self.0.borrow_mut();
                    s.job = None;
                    s.find = None;
                }
                ToWorker::Bodies { job, want } => self.bodies(job, &want),
                ToWorker::Search { job, id, query } => {
                    {
                        let me: Weak<RefCell<State>> = Rc::downgrade(&self.0);
                        // A read of the search came: a step can search it.
                        let on_read: Rc<dyn Fn()> = Rc::new(move || {
                            if let Some(w) = me.upgrade().map(Worker) {
                                w.schedule();
                            }
                        });
                        let mut s = self.0.borrow_mut();
                        let ours = s.job.as_ref().is_some_and(|j| j.id == job);
                        s.find = (!query.is_empty() && ours).then(|| Find {
                            id,
                            s: Search::new(&query, classifier::MAX_LINE_BYTES),
                            read: RangeRead::new(on_read),
                            bytes: Vec::new(),
                            hits: Vec::new(),
                            sent_at: 0.0,
                        });
                    }
                    self.schedule();
                }
                ToWorker::Save(save) => crate::worker::export::start(save, data),
            }
        }

        /// A step, unless one is scheduled or there is nothing to do.
        fn schedule(&self) {
            let mut s = self.0.borrow_mut();
            let find = s.find.as_ref().is_some_and(|f| !f.read.waiting());
            if !s.scheduled && (s.job.as_ref().is_some_and(Job::ready) || find) {
                s.scheduled = true;
                let _ = s.channel.port1().post_message(&JsValue::NULL);
            }
        }

        fn start(&self, id: u64, blob: Blob, parts: Vec<Part>) {
            let me: Weak<RefCell<State>> = Rc::downgrade(&self.0);
            // A read came: its wait is the read phase's, and a step can classify it.
            let on_read: Rc<dyn Fn()> = Rc::new(move || {
                if let Some(w) = me.upgrade().map(Worker) {
                    if let Some(j) = w.0.borrow_mut().job.as_mut() {
                        j.arrived();
                    }
                    w.schedule();
                }
            });
            {
                let mut s = self.0.borrow_mut();
                s.find = None;
                // A compressed log is one file (a session's files are read as they are).
                let blob = if parts.is_empty() {
                    crate::worker::unzip::plain(&s.reader, blob)
                } else {
                    Ok(blob)
                };
                let blob = match blob {
                    Ok(blob) => blob,
                    Err(e) => {
                        s.job = None;
                        error(Some(id), e);
                        return;
                    }
                };
                match Job::start(id, blob, parts, s.job.take(), on_read) {
                    Ok(job) => s.job = Some(job),
                    Err(e) => error(Some(id), e),
                }
            }
            self.schedule();
        }

        /// One step: a chunk of the log, and a chunk of the search.
        fn tick(&self) {
            {
                let mut s = self.0.borrow_mut();
                s.scheduled = false;
                let State { job, find, .. } = &mut *s;
                if let Some(j) = job.as_mut().filter(|j| j.ready())
                    && let Err(e) = j.step()
                {
                    error(Some(j.id), e);
                    *job = None;
                }
                if let (Some(f), Some(j)) = (find.as_mut(), job.as_ref())
                    && !f.read.waiting()
                {
                    match search_step(j, f) {
                        Ok(true) => {}
                        Ok(false) => *find = None,
                        Err(e) => {
                            error(Some(j.id), e);
                            *find = None;
                        }
                    }
                }
            }
            self.schedule();
        }

        /// Answers a request for bodies: each re-read from its checkpoint.
        fn bodies(&self, job: u64, want: &[RowKey]) {
            let s = self.0.borrow();
            let mut found = Vec::new();
            if let Some(j) = s.job.as_ref().filter(|j| j.id == job) {
                for (from, end, rows) in j.c.plan(want) {
                    let Some(cp) = j.c.checkpoints().get(from) else {
                        continue;
                    };
                    let to = (end as f64).min(j.total);
                    if let Ok(bytes) = j.read(&s.reader, cp.offset as f64, to) {
                        found.extend(bodies_in(cp, j.c.limit(), &bytes, &rows));
                    }
                }
            }
            reply(&FromWorker::Bodies { job, found }, None);
        }
    }

    /// A chunk of the search (spans that cannot hold a hit are passed over): the range read
    /// searched, the next asked for; whether there is more.
    fn search_step(j: &Job, f: &mut Find) -> Result<bool, String> {
        let total = j.total as u64;
        let mut hits = match f.read.take(&mut f.bytes)? {
            Some((_, to)) => f.s.push(&f.bytes, to, &j.c, total),
            None => Vec::new(),
        };
        if !f.read.busy()
            && let Some((from, to)) = f.s.next_read(&j.c, total)
        {
            f.read.start(&j.blob, from, to)?;
        }
        let done = f.s.is_done();
        f.hits.append(&mut hits);
        let now = js_sys::Date::now();
        if !done && (f.hits.is_empty() || now - f.sent_at < HITS_EVERY_MS) {
            return Ok(true);
        }
        f.sent_at = now;
        let msg = FromWorker::Hits {
            job: j.id,
            id: f.id,
            hits: std::mem::take(&mut f.hits),
            done,
        };
        reply(&msg, None);
        Ok(!done)
    }
}
