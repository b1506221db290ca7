//! The log being classified (wasm only): its `Blob.stream()` read by a BYOB reader, reads
//! issued ahead ([`ReadAhead`]) into a few JS buffers that go round (no new buffer per
//! chunk: the garbage of one per chunk, 50–120 MB at 154 MB, was most of what the renderer
//! held beyond the rows), each chunk copied once into one reused wasm buffer and classified
//! ([`Classifier`]), its rows posted ([`FromWorker::Rows`], the [`row_batch`] buffer
//! attached and transferred).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use js_sys::{ArrayBuffer, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, FileReaderSync, ReadableStreamByobReader};

use crate::worker::classify::Classifier;
use crate::worker::protocol::port::{reply, scope};
use crate::worker::protocol::row_batch::{self, strip};
use crate::worker::protocol::{FromWorker, PHASES, Part, Rows};

/// Changed files listed in the summary of every chunk but the last (the summary header shows
/// no more before its "and N more").
const SUMMARY_FILES: usize = 20;
use crate::worker::read_ahead::{AHEAD_BYTES, CHUNK, FIRST_CHUNK, ReadAhead};

/// Bytes read one chunk at a time at most, waiting for the page's first frame.
const HOLD_BYTES: f64 = FIRST_CHUNK as f64 + 4.0 * CHUNK as f64;

/// What a read of the stream brought: the view it filled, of one of the job's buffers
/// (`None` at the end of the file), or why not.
type Came = Result<Option<Uint8Array>, String>;

/// A read issued ahead: `asked` bytes, once the stream has them.
struct Pending {
    asked: f64,
    got: Rc<RefCell<Option<Came>>>,
}

impl Pending {
    fn ready(&self) -> bool {
        self.got.borrow().is_some()
    }
}

/// The log being classified.
pub struct Job {
    /// Its number (the page's).
    pub id: u64,
    /// The file (a body's or a search's re-read slices it).
    pub blob: Blob,
    /// Its size.
    pub total: f64,
    /// The file's stream, read into buffers the worker gives it.
    stream: ReadableStreamByobReader,
    /// Buffers of [`CHUNK`] bytes free for the next reads (each read detaches the one
    /// it fills; it comes back with the bytes and returns here once they are copied).
    free: Vec<ArrayBuffer>,
    /// The ranges asked for, and the reads in flight (or done) not classified yet,
    /// in order.
    plan: ReadAhead,
    ahead: VecDeque<Pending>,
    /// The chunk being classified, in wasm memory (one buffer, reused).
    buf: Vec<u8>,
    /// Since when the worker has had nothing to do but wait for the next chunk.
    waiting: Option<f64>,
    /// One chunk at a time until the page has painted the first rows (reads in flight
    /// held up that frame) or [`HOLD_BYTES`] are read.
    hold: bool,
    /// The log's classifier, its checkpoints and their spans' sets.
    pub c: Classifier,
    /// The files of the session after the first: where each starts in the blob, and its
    /// subagent's id; the next first.
    parts: VecDeque<Part>,
    done: bool,
    /// Milliseconds per phase ([`PHASES`]).
    phases: [f64; PHASES.len()],
    /// Each subagent's end as the page was last told it (a chunk's summary lists only the
    /// subagents whose end changed: issue 24).
    ends_sent: Vec<Option<classifier::SubagentEnd>>,
    /// Called when a read ahead comes (the worker schedules a step).
    on_read: Rc<dyn Fn()>,
}

impl Job {
    /// Job `id` of `blob`, reusing the buffers of `last` (its stream is let go);
    /// `on_read` is called whenever a read comes. The first chunk is asked for alone, so
    /// that nothing else is read before it: the first rows.
    pub fn start(
        id: u64,
        blob: Blob,
        parts: Vec<Part>,
        last: Option<Job>,
        on_read: Rc<dyn Fn()>,
    ) -> Result<Job, String> {
        let (buf, free) = last.map_or_else(Default::default, |j| {
            let _ = j.stream.cancel();
            (j.buf, j.free)
        });
        let stream = ReadableStreamByobReader::new(&blob.stream()).map_err(|e| message_of(&e))?;
        let total = blob.size();
        let mut job = Job {
            id,
            blob,
            total,
            stream,
            free,
            plan: ReadAhead::new(total),
            ahead: VecDeque::new(),
            buf,
            waiting: Some(now()),
            hold: true,
            c: Classifier::new(),
            parts: parts.into(),
            done: false,
            phases: [0.0; PHASES.len()],
            ends_sent: Vec::new(),
            on_read,
        };
        job.read_ahead(0.0);
        Ok(job)
    }

    /// The page has painted the first rows: read ahead from now on.
    pub fn shown(&mut self) {
        self.hold = false;
        self.read_ahead(AHEAD_BYTES);
    }

    /// Asks for the next chunks, up to `ahead` bytes ahead of the one in hand (at least
    /// one).
    fn read_ahead(&mut self, ahead: f64) {
        while let Some((from, to)) = self.plan.ask(ahead) {
            let got = Rc::new(RefCell::new(None));
            let buffer = self
                .free
                .pop()
                .unwrap_or_else(|| ArrayBuffer::new(CHUNK as u32));
            let view = Uint8Array::new_with_byte_offset_and_length(
                &buffer,
                0,
                (to - from).min(CHUNK as f64) as u32,
            );
            let p = self.stream.read_with_array_buffer_view(&view);
            let g = got.clone();
            let on_read = self.on_read.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let r = wasm_bindgen_futures::JsFuture::from(p).await;
                *g.borrow_mut() = Some(r.map_err(|e| message_of(&e)).map(|r| {
                    let (done, view) = read_result(&r);
                    view.filter(|_| !done)
                }));
                on_read();
            });
            self.ahead.push_back(Pending {
                asked: to - from,
                got,
            });
        }
    }

    /// Whether a step can classify something now (the next chunk has come, or the end).
    pub fn ready(&self) -> bool {
        !self.done && self.ahead.front().is_none_or(Pending::ready)
    }

    /// A read ahead came: the time waited for it is the read phase's.
    pub fn arrived(&mut self) {
        if self.ahead.front().is_some_and(Pending::ready)
            && let Some(since) = self.waiting.take()
        {
            self.phases[0] += now() - since;
        }
    }

    /// Classifies the next chunk (it has come, [`Job::ready`]) and posts its rows.
    pub fn step(&mut self) -> Result<(), String> {
        let j = self;
        let mut t = now();
        let mut lap = |j: &mut Job, phase: usize| {
            let n = now();
            j.phases[phase] += n - t;
            t = n;
        };
        let mut envs = match j.ahead.pop_front() {
            Some(Pending { asked, got }) => {
                let view = got
                    .borrow_mut()
                    .take()
                    .unwrap_or_else(|| Err("no chunk".into()))?;
                let n = view.as_ref().map_or(0, |v| v.length() as usize);
                let start = j.plan.taken();
                if let Some(v) = &view {
                    if j.buf.len() != n {
                        j.buf.resize(n, 0);
                    }
                    v.copy_to(&mut j.buf);
                    // Its buffer goes round again (a short read's too: it is CHUNK bytes).
                    if v.buffer().byte_length() as usize == CHUNK {
                        j.free.push(v.buffer());
                    }
                }
                j.plan.take(asked, n as f64);
                // Ask for the next chunk before classifying this one: the browser reads it
                // meanwhile.
                j.hold &= j.plan.taken() < HOLD_BYTES;
                j.read_ahead(if j.hold { 0.0 } else { AHEAD_BYTES });
                lap(j, 0);
                j.classify(start, n)
            }
            None => Vec::new(),
        };
        if j.plan.all_taken() {
            // Files left empty at the end are files of the session all the same.
            while let Some((_, agent)) = j.parts.pop_front() {
                envs.extend(j.c.next_file(agent.as_deref()));
            }
            envs.extend(j.c.finish());
            j.done = true;
        }
        lap(j, 1);
        let lazy = strip(&mut envs);
        lap(j, 2);
        let buf = row_batch::encode(&envs, &lazy);
        drop((envs, lazy));
        let rows = Uint8Array::from(buf.as_slice());
        drop(buf);
        lap(j, 3);
        // Every chunk's summary lists the first files only, and the subagents whose end
        // changed since the last chunk's (a log that changed 66,000 files in 6,600 subagents
        // would otherwise send all of them with every chunk: issue 24); the last chunk's lists
        // them all, once.
        let summary = if j.done {
            j.c.summary(usize::MAX)
        } else {
            j.c.summary_changes(SUMMARY_FILES, &mut j.ends_sent)
        };
        let summary = serde_json::to_string(&summary).unwrap_or_else(|_| "{}".to_owned());
        lap(j, 4);
        let msg = FromWorker::Rows(Rows {
            job: j.id,
            read: j.plan.taken() as u64,
            total: j.total as u64,
            lines: j.c.lines(),
            done: j.done,
            summary,
            phases: j.phases.to_vec(),
        });
        reply(&msg, Some(&rows.into()));
        lap(j, 5);
        if !j.ready() {
            j.waiting = Some(t);
        }
        Ok(())
    }

    /// Classifies the `n` bytes in hand, which start at byte `start` of the blob: a file of
    /// the session that starts among them is begun there ([`Classifier::next_file`]).
    fn classify(&mut self, start: f64, n: usize) -> Vec<classifier::TermEnvelope> {
        let mut envs = Vec::new();
        let mut at = 0;
        while let Some((b, agent)) = self
            .parts
            .front()
            .filter(|(b, _)| *b < start + n as f64)
            .cloned()
        {
            let cut = ((b - start).max(0.0) as usize).min(n);
            if cut > at {
                envs.extend(self.c.push(&self.buf[at..cut]));
                at = cut;
            }
            envs.extend(self.c.next_file(agent.as_deref()));
            self.parts.pop_front();
        }
        if n > at {
            envs.extend(self.c.push(&self.buf[at..n]));
        }
        envs
    }

    /// Bytes `from..to` of the log, read at once.
    pub fn read(&self, reader: &FileReaderSync, from: f64, to: f64) -> Result<Vec<u8>, String> {
        self.blob
            .slice_with_f64_and_f64(from, to)
            .and_then(|s| reader.read_as_array_buffer(&s))
            .map(|buf| Uint8Array::new(&buf).to_vec())
            .map_err(|e| message_of(&e))
    }
}

/// What a JS error says.
pub fn message_of(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| {
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
        })
        .unwrap_or_else(|| format!("{e:?}"))
}

/// What a BYOB reader's read gave (`{done, value}`): whether the stream ended, and the view
/// it filled (its buffer comes back in it; at the end an empty one), if any.
pub fn read_result(r: &JsValue) -> (bool, Option<Uint8Array>) {
    let get = |k: &str| Reflect::get(r, &k.into()).unwrap_or(JsValue::UNDEFINED);
    let done = get("done").as_bool().unwrap_or(false);
    let value = get("value");
    (
        done,
        (!value.is_undefined()).then(|| value.unchecked_into()),
    )
}

/// Milliseconds on the worker's clock.
pub fn now() -> f64 {
    scope().performance().map_or(0.0, |p| p.now())
}
