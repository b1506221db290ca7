//! The Web Worker side: classifies a dropped file (or pasted text) off the main thread.
//!
//! The worker is its own wasm (`src/bin/worker.rs` calls [`run`]). Protocol, all plain
//! objects:
//! - worker → page `{kind: "ready"}` once it listens;
//! - page → worker `{kind: "file", file: Blob}` (a `File`, or the `Blob` of pasted text);
//! - page → worker `{kind: "shown", job}` once the frame with the log's first rows is painted:
//!   until then (or [`FIRST_CHUNK`] + 4 chunks) the worker reads one chunk at a time, since
//!   reads in flight held that frame up; then [`AHEAD_BYTES`] ahead;
//! - worker → page `{kind: "rows", rows: Uint8Array, read, total, lines, summary}` after
//!   each chunk (the first chunk is small so the first rows show at once), then
//!   `{kind: "done", …}` with the same fields. `rows` is the chunk's envelopes without their
//!   bodies in [`crate::row_batch`]'s flat layout, its buffer transferred, not copied (no
//!   JSON: the page decodes it straight into rows). `summary` is a JSON string: the
//!   [`classifier::Summary`] of the file read so far (the keys `hiveterm summary --json`
//!   prints, docs/CLI.md); the one on `done` is the whole file's;
//! - to the markdown worker (its own small wasm, `src/bin/mdworker.rs`, [`run_markdown`]):
//!   page → worker `{kind: "md", id, text}`, worker → page `{kind: "md", id, html}`: a
//!   markdown body rendered by [`classifier::markdown::render`] (pulldown-cmark, then
//!   ammonia), so the page's own wasm carries no renderer ([`crate::md_render`]).
//!
//! The file is read chunk by chunk ([`ReadAhead`]: reads of the file's `Blob.stream()` by a
//! BYOB reader, issued ahead, so the browser fills the next chunks while the worker classifies
//! this one, each into one of a few JS buffers that go round (no new buffer per chunk: the
//! garbage of one per chunk, 50–120 MB at 154 MB, was most of what the renderer held beyond
//! the rows), then copied once into one reused wasm buffer) through one [`classifier::LogClassifier`]
//! (the same type `hiveterm classify` uses, with the same line limit): each line's `seq` is
//! its 1-based line number and its rows are exactly the CLI's. A body's or a search's re-read
//! of a span is a `FileReaderSync` read.

use classifier::{ClassifyCtx, LogClassifier, Summary, TermEnvelope, line_count};

use crate::body_search::Trigrams;

/// The worker's phases, in the order of the `phases` array it sends with its rows: the
/// milliseconds each took so far for the log in hand (the big-log benchmark prints them).
pub const PHASES: [&str; 6] = [
    "read (waiting for the file's next chunk, copy into wasm)",
    "classify (lines, rows, summary fold, checkpoints)",
    "strip bodies",
    "rows encoded (row_batch)",
    "summary to JSON",
    "postMessage",
];

/// Bytes read for the first chunk: small, so the first rows show quickly.
pub const FIRST_CHUNK: usize = 128 * 1024;
/// Bytes read per later chunk.
pub const CHUNK: usize = 4 * 1024 * 1024;
/// Bytes of the log asked for ahead of the chunk being classified (reads in flight or done
/// and not classified yet).
pub const AHEAD_BYTES: f64 = 2.0 * CHUNK as f64;

/// Which byte ranges of a log of `total` bytes are read, in order, and how far ahead: the
/// first [`FIRST_CHUNK`] bytes, then [`CHUNK`] each, together exactly `0..total`. Pure.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadAhead {
    total: f64,
    /// The next byte to ask for.
    next: f64,
    /// The next byte to classify (every read before it was taken).
    taken: f64,
}

impl ReadAhead {
    /// Nothing asked for yet.
    pub fn new(total: f64) -> ReadAhead {
        ReadAhead {
            total: total.max(0.0),
            next: 0.0,
            taken: 0.0,
        }
    }

    /// The next range to ask for, if the reads not taken yet are under `ahead` bytes (at
    /// least one is always allowed) and the log has more.
    pub fn ask(&mut self, ahead: f64) -> Option<(f64, f64)> {
        if self.next >= self.total || (self.next > self.taken && self.next - self.taken >= ahead) {
            return None;
        }
        let size = if self.next == 0.0 { FIRST_CHUNK } else { CHUNK } as f64;
        let range = (self.next, (self.next + size).min(self.total));
        self.next = range.1;
        Some(range)
    }

    /// The oldest read not taken yet, asked for `asked` bytes, came with `got` of them
    /// (reads are taken in the order asked). A stream may fill a read only in part: the bytes
    /// it did not bring are asked for again by a later read (every range after it starts
    /// that much earlier). `got` 0 is the end of the file: nothing more is asked for.
    pub fn take(&mut self, asked: f64, got: f64) {
        let got = got.clamp(0.0, asked);
        self.taken += got;
        self.next -= asked - got;
        if got == 0.0 {
            self.total = self.taken;
            self.next = self.taken;
        }
    }

    /// Bytes taken so far.
    pub fn taken(&self) -> f64 {
        self.taken
    }

    /// Whether every byte was taken.
    pub fn all_taken(&self) -> bool {
        self.taken >= self.total
    }
}

/// Fewest bytes between two checkpoints (a body is re-read from the one before its line, so
/// this bounds what one body costs to read again).
pub const CHECKPOINT_BYTES: u64 = 4 * 1024 * 1024;

/// A point of the file where classifying can resume: the byte where a line starts, the
/// physical lines before it, and the context there (serialised: a held `ClassifyCtx` of
/// thousands of tool calls is several times bigger than its JSON).
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    /// Byte offset of a line start.
    pub offset: u64,
    /// Physical lines before it.
    pub lines: u64,
    /// The context there, as JSON.
    pub ctx: String,
}

impl Checkpoint {
    fn at(log: &LogClassifier) -> Checkpoint {
        Checkpoint {
            offset: log.line_start(),
            lines: log.lines_seen(),
            ctx: serde_json::to_string(log.ctx()).unwrap_or_default(),
        }
    }

    /// A classifier resumed here.
    pub fn resume(&self, limit: usize) -> LogClassifier {
        let ctx: ClassifyCtx = serde_json::from_str(&self.ctx).unwrap_or_default();
        LogClassifier::resume(limit, self.lines, ctx)
    }
}

/// Classifies a stream of chunks, returning after each the envelopes that have rows (an
/// envelope without rows is not sent), and keeps the file's [`Summary`] and a
/// [`Checkpoint`] every [`CHECKPOINT_BYTES`] or so. Pure; the worker feeds it file slices.
#[derive(Debug)]
pub struct Classifier {
    log: LogClassifier,
    limit: usize,
    checkpoints: Vec<Checkpoint>,
    /// Per checkpoint, the three-byte sequences of the bodies of the lines after it (up to
    /// the next one): what a search passes over ([`crate::body_search`]).
    spans: Vec<Trigrams>,
    done: bool,
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
        let log = LogClassifier::with_limit(limit).with_summary();
        Classifier {
            checkpoints: vec![Checkpoint::at(&log)],
            spans: vec![Trigrams::default()],
            log,
            limit,
            done: false,
        }
    }

    /// The summary of the lines so far.
    pub fn summary(&self) -> Summary {
        self.log.summary().unwrap_or_default()
    }

    /// Classifies one chunk.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<TermEnvelope> {
        self.push_every(chunk, CHECKPOINT_BYTES)
    }

    /// Classifies one chunk, a checkpoint after it when the last is `every` bytes back.
    pub fn push_every(&mut self, chunk: &[u8], every: u64) -> Vec<TermEnvelope> {
        let mut out = Vec::new();
        self.log.feed(chunk, |env| keep(&mut out, env));
        self.index(&out);
        let last = self.checkpoints.last().map_or(0, |c| c.offset);
        if self.log.line_start() >= last + every.max(1) {
            self.checkpoints.push(Checkpoint::at(&self.log));
            self.spans.push(Trigrams::default());
        }
        out
    }

    /// Ends the input.
    pub fn finish(&mut self) -> Vec<TermEnvelope> {
        let mut out = Vec::new();
        self.log.finish(|env| keep(&mut out, env));
        self.index(&out);
        self.done = true;
        out
    }

    /// The bodies of `envs`, all after the last checkpoint, into its span's set.
    fn index(&mut self, envs: &[TermEnvelope]) {
        if let Some(t) = self.spans.last_mut() {
            for body in envs
                .iter()
                .flat_map(|e| &e.msgs)
                .filter_map(|m| m.body.as_deref())
            {
                t.add(body);
            }
        }
    }

    /// The set of span `k` (from checkpoint `k` to the next), once every line of it is
    /// classified.
    pub fn span_trigrams(&self, k: usize) -> Option<&Trigrams> {
        (k + 1 < self.spans.len() || self.done)
            .then(|| self.spans.get(k))
            .flatten()
    }

    /// Physical lines seen so far, blank ones included.
    pub fn lines(&self) -> u64 {
        self.log.lines_seen()
    }

    /// The checkpoints taken so far.
    pub fn checkpoints(&self) -> &[Checkpoint] {
        &self.checkpoints
    }

    /// Where to re-read line `seq` (one classified already): the checkpoint before it, and
    /// the byte where the re-read can stop (every line up to `seq` ends before it).
    pub fn span_of(&self, seq: u64) -> Option<(usize, u64)> {
        if seq == 0 || seq > self.lines() {
            return None;
        }
        let i = self.checkpoints.partition_point(|c| c.lines < seq);
        let from = i.checked_sub(1)?;
        let end = match self.checkpoints.get(i) {
            Some(next) => next.offset,
            None if self.done => u64::MAX,
            None => self.log.line_start(),
        };
        Some((from, end))
    }

    /// The re-reads that answer `want`: per checkpoint (its index), the byte to stop at and
    /// the rows wanted after it. Rows of lines not classified yet are left out.
    pub fn plan(&self, want: &[(u64, u32)]) -> Vec<Reread> {
        let mut out: Vec<Reread> = Vec::new();
        for &(seq, idx) in want {
            let Some((from, end)) = self.span_of(seq) else {
                continue;
            };
            match out.iter_mut().find(|(f, _, _)| *f == from) {
                Some((_, _, rows)) => rows.push((seq, idx)),
                None => out.push((from, end, vec![(seq, idx)])),
            }
        }
        out
    }

    /// The line limit.
    pub fn limit(&self) -> usize {
        self.limit
    }
}

fn keep(out: &mut Vec<TermEnvelope>, env: TermEnvelope) {
    if !env.msgs.is_empty() {
        out.push(env);
    }
}

/// One re-read: from checkpoint (index), up to byte, the rows `(seq, idx)` it answers.
pub type Reread = (usize, u64, Vec<(u64, u32)>);

/// A row whose body stays in the file: where it is (`seq`, `idx`) and the body's line
/// count (the page's height estimate).
pub type Lazy = (u64, u32, u32);

/// Takes the bodies out of `envs` (what the page holds is the rows' metadata; a body is
/// read again from the file when it is shown, [`bodies_in`]), returning the rows that had
/// one. Rows of an envelope without a `seq` keep theirs (none comes from a file).
pub fn strip(envs: &mut [TermEnvelope]) -> Vec<Lazy> {
    let mut lazy = Vec::new();
    for env in envs {
        let Some(seq) = env.seq else { continue };
        for (idx, msg) in env.msgs.iter_mut().enumerate() {
            if let Some(body) = msg.body.take() {
                let lines = u32::try_from(line_count(&body)).unwrap_or(u32::MAX);
                lazy.push((seq, idx as u32, lines));
            }
        }
    }
    lazy
}

/// Re-reads the rows `want` (`(seq, idx)`, any order) from `bytes`, the file from
/// checkpoint `from` on (up to a line start, or the end): each one's body, exactly as the
/// whole file's classification gives it. A row that has no body there is left out.
pub fn bodies_in(
    from: &Checkpoint,
    limit: usize,
    bytes: &[u8],
    want: &[(u64, u32)],
) -> Vec<(u64, u32, String)> {
    let Some(&last) = want.iter().map(|(s, _)| s).max() else {
        return Vec::new();
    };
    let mut log = from.resume(limit);
    let mut out = Vec::new();
    let mut take = |env: TermEnvelope| {
        let Some(seq) = env.seq else { return };
        for (idx, msg) in env.msgs.into_iter().enumerate() {
            if let Some(body) = msg.body
                && want.contains(&(seq, idx as u32))
            {
                out.push((seq, idx as u32, body));
            }
        }
    };
    // Fed in slices so a body near the checkpoint does not classify the whole span.
    for piece in bytes.chunks(256 * 1024) {
        log.feed(piece, &mut take);
        if log.lines_seen() >= last {
            return out;
        }
    }
    log.finish(&mut take);
    out
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
pub(crate) mod imp {
    use super::*;
    use crate::body_search::Search;
    use js_sys::{ArrayBuffer, Float64Array, Object, Reflect, Uint8Array};
    use std::cell::RefCell;
    use std::collections::VecDeque;
    use std::rc::Rc;
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    use web_sys::{
        Blob, DedicatedWorkerGlobalScope, FileReaderSync, MessageChannel, MessageEvent,
        ReadableStreamByobReader,
    };

    pub(crate) fn scope() -> DedicatedWorkerGlobalScope {
        js_sys::global().unchecked_into()
    }

    pub(crate) fn post(kind: &str, fields: &[(&str, JsValue)]) {
        let o = Object::new();
        let _ = Reflect::set(&o, &"kind".into(), &kind.into());
        for (k, v) in fields {
            let _ = Reflect::set(&o, &(*k).into(), v);
        }
        let _ = scope().post_message(&o);
    }

    /// Posts a message whose `buffer` is transferred to the page, not copied.
    fn post_transfer(kind: &str, fields: &[(&str, JsValue)], buffer: &JsValue) {
        let o = Object::new();
        let _ = Reflect::set(&o, &"kind".into(), &kind.into());
        for (k, v) in fields {
            let _ = Reflect::set(&o, &(*k).into(), v);
        }
        let _ = scope().post_message_with_transfer(&o, &js_sys::Array::of1(buffer));
    }

    fn numbers(xs: &[f64]) -> JsValue {
        Float64Array::from(xs).into()
    }

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
    struct Job {
        id: f64,
        /// The file (a body's or a search's re-read slices it).
        blob: Blob,
        total: f64,
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
        c: Classifier,
        done: bool,
        /// Milliseconds per phase ([`PHASES`]).
        phases: [f64; PHASES.len()],
    }

    impl Job {
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
                wasm_bindgen_futures::spawn_local(async move {
                    let r = wasm_bindgen_futures::JsFuture::from(p).await;
                    *g.borrow_mut() = Some(r.map_err(|e| message_of(&e)).map(|r| {
                        let done = get(&r, "done").as_bool().unwrap_or(false);
                        let value = get(&r, "value");
                        (!done && !value.is_undefined()).then(|| value.unchecked_into())
                    }));
                    arrived();
                });
                self.ahead.push_back(Pending {
                    asked: to - from,
                    got,
                });
            }
        }

        /// Whether a step can classify something now (the next chunk has come, or the end).
        fn ready(&self) -> bool {
            !self.done && self.ahead.front().is_none_or(Pending::ready)
        }
    }

    fn message_of(e: &JsValue) -> String {
        e.as_string()
            .or_else(|| {
                e.dyn_ref::<js_sys::Error>()
                    .map(|e| String::from(e.message()))
            })
            .unwrap_or_else(|| format!("{e:?}"))
    }

    /// A read ahead came: the time waited for it is the read phase's, and its chunk can
    /// be classified.
    fn arrived() {
        let t = now();
        with(|w| {
            if let Some(j) = w.job.as_mut()
                && j.ahead.front().is_some_and(Pending::ready)
                && let Some(since) = j.waiting.take()
            {
                j.phases[0] += t - since;
            }
        });
        schedule();
    }

    /// A search of the bodies.
    struct Find {
        id: f64,
        s: Search,
        /// Hits not sent yet, and when some were last sent (each batch refilters the page's
        /// rows: a few a second at most).
        hits: Vec<(u64, u32)>,
        sent_at: f64,
    }

    /// Fewest milliseconds between two batches of search hits.
    const HITS_EVERY_MS: f64 = 400.0;

    struct Worker {
        reader: FileReaderSync,
        job: Option<Job>,
        find: Option<Find>,
        channel: MessageChannel,
        scheduled: bool,
    }

    thread_local! {
        static WORKER: RefCell<Option<Worker>> = const { RefCell::new(None) };
    }

    fn read(reader: &FileReaderSync, blob: &Blob, from: f64, to: f64) -> Result<Vec<u8>, String> {
        blob.slice_with_f64_and_f64(from, to)
            .and_then(|s| reader.read_as_array_buffer(&s))
            .map(|buf| Uint8Array::new(&buf).to_vec())
            .map_err(|e| message_of(&e))
    }

    pub(crate) fn get(data: &JsValue, k: &str) -> JsValue {
        Reflect::get(data, &k.into()).unwrap_or(JsValue::UNDEFINED)
    }

    pub fn run() {
        let (Ok(reader), Ok(channel)) = (FileReaderSync::new(), MessageChannel::new()) else {
            post("error", &[("message", "FileReaderSync unavailable".into())]);
            return;
        };
        // Work goes in steps (one chunk each), each a task of its own: a body asked for
        // while a log is read is answered between two chunks.
        let on_tick = Closure::<dyn FnMut(MessageEvent)>::new(move |_: MessageEvent| tick());
        channel
            .port2()
            .set_onmessage(Some(on_tick.as_ref().unchecked_ref()));
        on_tick.forget();
        WORKER.with(|w| {
            *w.borrow_mut() = Some(Worker {
                reader,
                job: None,
                find: None,
                channel,
                scheduled: false,
            });
        });
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            let data = ev.data();
            let kind = get(&data, "kind").as_string().unwrap_or_default();
            let job = get(&data, "job").as_f64().unwrap_or(0.0);
            match kind.as_str() {
                "file" => start(job, get(&data, "file").unchecked_into()),
                "shown" => {
                    with(|w| {
                        if let Some(j) = w.job.as_mut().filter(|j| j.id == job) {
                            j.hold = false;
                            j.read_ahead(AHEAD_BYTES);
                        }
                    });
                }
                "cancel" => {
                    with(|w| {
                        w.job = None;
                        w.find = None;
                    });
                }
                "bodies" => {
                    let want: Vec<f64> = get(&data, "want")
                        .dyn_into::<Float64Array>()
                        .map(|a| a.to_vec())
                        .unwrap_or_default();
                    let want: Vec<(u64, u32)> = want
                        .chunks_exact(2)
                        .map(|p| (p[0] as u64, p[1] as u32))
                        .collect();
                    bodies(job, &want);
                }
                "search" => {
                    let id = get(&data, "id").as_f64().unwrap_or(0.0);
                    let query = get(&data, "query").as_string().unwrap_or_default();
                    with(|w| {
                        w.find = (!query.is_empty() && w.job.as_ref().is_some_and(|j| j.id == job))
                            .then(|| Find {
                                id,
                                s: Search::new(&query, classifier::MAX_LINE_BYTES),
                                hits: Vec::new(),
                                sent_at: 0.0,
                            });
                    });
                    schedule();
                }
                other => {
                    crate::worker_export::message(other, &data);
                }
            }
        });
        scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        warm_up();
        post("ready", &[]);
    }

    /// How long the worker classifies a sample log when it starts.
    const WARM_MS: f64 = 150.0;

    /// The sample: a real Claude Code transcript of this repository's fixtures (38 tool calls,
    /// text, thinking, a diff, an error), carried in the worker's wasm.
    static WARM_LOG: &[u8] =
        include_bytes!("../../fixtures/claude-code-2.1.332/file_tools.transcript.jsonl");

    /// Classifies [`WARM_LOG`] over and over for [`WARM_MS`] when the worker starts, before
    /// any log comes: the browser compiles wasm first with its baseline compiler and optimises
    /// a function only once it has run hot, so a log's first megabytes were classified by
    /// slower code (about 123 MB/s over a 154 MB log against 167 MB/s over a 1 GB one).
    fn warm_up() {
        let start = now();
        while now() - start < WARM_MS {
            let mut c = Classifier::new();
            let mut envs = c.push(WARM_LOG);
            envs.extend(c.finish());
            let lazy = strip(&mut envs);
            drop(crate::row_batch::encode(&envs, &lazy));
        }
    }

    fn with<T>(f: impl FnOnce(&mut Worker) -> T) -> Option<T> {
        WORKER.with(|w| w.borrow_mut().as_mut().map(f))
    }

    fn schedule() {
        with(|w| {
            if !w.scheduled && (w.job.as_ref().is_some_and(Job::ready) || w.find.is_some()) {
                w.scheduled = true;
                let _ = w.channel.port1().post_message(&JsValue::NULL);
            }
        });
    }

    fn start(id: f64, blob: Blob) {
        with(|w| {
            w.find = None;
            let total = blob.size();
            // The last job's buffers are reused; its stream is let go.
            let (buf, free) = w.job.take().map_or_else(Default::default, |j| {
                let _ = j.stream.cancel();
                (j.buf, j.free)
            });
            let stream = match ReadableStreamByobReader::new(&blob.stream()) {
                Ok(s) => s,
                Err(e) => {
                    post(
                        "error",
                        &[("job", id.into()), ("message", message_of(&e).into())],
                    );
                    return;
                }
            };
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
                done: false,
                phases: [0.0; PHASES.len()],
            };
            // The first chunk alone, so that nothing else is read before it: the first rows.
            job.read_ahead(0.0);
            w.job = Some(job);
        });
        schedule();
    }

    /// One step: a chunk of the log, and a chunk of the search.
    fn tick() {
        with(|w| {
            w.scheduled = false;
            let Worker {
                reader, job, find, ..
            } = w;
            if let Some(j) = job.as_mut().filter(|j| j.ready())
                && let Err(e) = classify_step(j)
            {
                post("error", &[("job", j.id.into()), ("message", e.into())]);
                *job = None;
            }
            if let (Some(f), Some(j)) = (find.as_mut(), job.as_ref()) {
                match search_step(reader, j, f) {
                    Ok(true) => {}
                    Ok(false) => *find = None,
                    Err(e) => {
                        post("error", &[("job", j.id.into()), ("message", e.into())]);
                        *find = None;
                    }
                }
            }
        });
        schedule();
    }

    fn now() -> f64 {
        scope().performance().map_or(0.0, |p| p.now())
    }

    /// Classifies the next chunk (it has come, [`Job::ready`]) and posts its rows.
    fn classify_step(j: &mut Job) -> Result<(), String> {
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
                if n == 0 {
                    Vec::new()
                } else {
                    j.c.push(&j.buf[..n])
                }
            }
            None => Vec::new(),
        };
        if j.plan.all_taken() {
            envs.extend(j.c.finish());
            j.done = true;
        }
        lap(j, 1);
        let lazy = strip(&mut envs);
        lap(j, 2);
        let buf = crate::row_batch::encode(&envs, &lazy);
        drop((envs, lazy));
        let rows = Uint8Array::from(buf.as_slice());
        drop(buf);
        lap(j, 3);
        let summary = serde_json::to_string(&j.c.summary()).unwrap_or_else(|_| "{}".to_owned());
        lap(j, 4);
        post_transfer(
            if j.done { "done" } else { "rows" },
            &[
                ("job", j.id.into()),
                ("rows", rows.clone().into()),
                ("read", j.plan.taken().into()),
                ("total", j.total.into()),
                ("lines", (j.c.lines() as f64).into()),
                ("summary", summary.into()),
                ("phases", numbers(&j.phases)),
            ],
            &rows.buffer(),
        );
        lap(j, 5);
        if !j.ready() {
            j.waiting = Some(t);
        }
        Ok(())
    }

    /// A chunk of the search (spans that cannot hold a hit are passed over); whether there
    /// is more.
    fn search_step(reader: &FileReaderSync, j: &Job, f: &mut Find) -> Result<bool, String> {
        let total = j.total as u64;
        let mut hits = match f.s.next_read(&j.c, total) {
            Some((from, to)) => {
                let bytes = read(reader, &j.blob, from as f64, to as f64)?;
                f.s.push(&bytes, to, &j.c, total)
            }
            None => Vec::new(),
        };
        let done = f.s.is_done();
        f.hits.append(&mut hits);
        let now = js_sys::Date::now();
        if !done && (f.hits.is_empty() || now - f.sent_at < HITS_EVERY_MS) {
            return Ok(true);
        }
        f.sent_at = now;
        let flat: Vec<f64> = std::mem::take(&mut f.hits)
            .iter()
            .flat_map(|&(s, i)| [s as f64, f64::from(i)])
            .collect();
        post(
            "hits",
            &[
                ("job", j.id.into()),
                ("id", f.id.into()),
                ("hits", numbers(&flat)),
                ("done", done.into()),
            ],
        );
        Ok(!done)
    }

    /// Answers a request for bodies: each re-read from its checkpoint.
    fn bodies(job: f64, want: &[(u64, u32)]) {
        let found = with(|w| {
            let Some(j) = w.job.as_ref().filter(|j| j.id == job) else {
                return Vec::new();
            };
            let mut found = Vec::new();
            for (from, end, rows) in j.c.plan(want) {
                let Some(cp) = j.c.checkpoints().get(from) else {
                    continue;
                };
                let to = (end as f64).min(j.total);
                if let Ok(bytes) = read(&w.reader, &j.blob, cp.offset as f64, to) {
                    found.extend(bodies_in(cp, j.c.limit(), &bytes, &rows));
                }
            }
            found
        })
        .unwrap_or_default();
        let json = serde_json::to_string(&found).unwrap_or_else(|_| "[]".to_owned());
        post("bodies", &[("job", job.into()), ("json", json.into())]);
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
}

#[cfg(test)]
pub(crate) mod tests {
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

    /// The ranges a [`ReadAhead`] asks for, taking each as soon as `window` more are asked.
    fn ranges(total: f64, ahead: f64, window: usize) -> Vec<(f64, f64)> {
        let mut plan = ReadAhead::new(total);
        let mut asked = std::collections::VecDeque::new();
        let mut taken = Vec::new();
        loop {
            while let Some(r) = plan.ask(ahead) {
                asked.push_back(r);
                let in_flight: f64 = asked.iter().map(|(a, b)| b - a).sum();
                assert!(
                    asked.len() == 1 || in_flight <= ahead + CHUNK as f64,
                    "{in_flight} bytes asked ahead"
                );
            }
            assert!(
                asked.len() <= window.max(1),
                "{} reads in flight",
                asked.len()
            );
            let Some(r) = asked.pop_front() else { break };
            plan.take(r.1 - r.0, r.1 - r.0);
            taken.push(r);
        }
        assert!(plan.all_taken());
        assert_eq!(plan.taken(), total.max(0.0));
        taken
    }

    #[test]
    fn the_reads_ahead_tile_the_log_in_order() {
        let (first, chunk) = (FIRST_CHUNK as f64, CHUNK as f64);
        for total in [
            0.0,
            1.0,
            first - 1.0,
            first,
            first + 1.0,
            first + chunk,
            first + 3.0 * chunk + 7.0,
            154e6,
            1.082e9,
        ] {
            let got = ranges(total, AHEAD_BYTES, 4);
            let mut at = 0.0;
            for (i, &(a, b)) in got.iter().enumerate() {
                assert_eq!(
                    a, at,
                    "total {total}: range {i} starts where the last ended"
                );
                assert!(b > a);
                let size = if i == 0 { first } else { chunk };
                assert!(b - a == size || b == total, "total {total}: range {i}");
                at = b;
            }
            assert_eq!(at, total);
            // One read at a time when nothing may be ahead: the same ranges.
            assert_eq!(ranges(total, 0.0, 1), got);
        }
    }

    /// Reads of a stream of `len` bytes (the file may be shorter than the `total` the plan
    /// was made for) that fill each read with at most `fill(i)` bytes: the chunks taken, in
    /// order, as byte ranges of the stream.
    fn stream_reads(total: f64, len: usize, fill: impl Fn(usize) -> usize) -> Vec<(usize, usize)> {
        let mut plan = ReadAhead::new(total);
        let mut asked = std::collections::VecDeque::new();
        let (mut at, mut out, mut i) = (0usize, Vec::new(), 0);
        loop {
            while let Some((a, b)) = plan.ask(AHEAD_BYTES) {
                asked.push_back(b - a);
            }
            let Some(n) = asked.pop_front() else { break };
            // A read's bytes are the stream's next ones (reads are answered in order).
            let got = (n as usize)
                .min(fill(i))
                .min(len - at)
                .max(usize::from(at < len));
            let got = if at >= len { 0 } else { got };
            i += 1;
            out.push((at, at + got));
            at += got;
            plan.take(n, got as f64);
            // Every read brings a byte at least, but those in flight at the end: the reads end.
            assert!(
                i <= len + 4,
                "the reads never end: total {total} len {len} at {at} i {i}"
            );
        }
        assert!(plan.all_taken());
        assert_eq!(plan.taken(), at as f64);
        out
    }

    /// Regression (BYOB stream reads, the lead): a stream may fill a read in part, and a file
    /// may end before the size it had when dropped; every byte is still taken, once, in order.
    #[test]
    fn short_stream_reads_still_take_every_byte_once() {
        let (first, chunk) = (FIRST_CHUNK, CHUNK);
        for len in [0, 1, first - 1, first, first + 1, first + 3 * chunk + 7] {
            for fill in [4093usize, 65_536, first, chunk / 2 + 3, chunk] {
                let got = stream_reads(len as f64, len, |i| fill + i % 3);
                let mut at = 0;
                for &(a, b) in got.iter().filter(|r| r.1 > r.0) {
                    assert_eq!(a, at, "len {len} fill {fill}");
                    at = b;
                }
                assert_eq!(at, len, "len {len} fill {fill}");
            }
            // The file is shorter than it was: the reads stop at its end.
            let got = stream_reads(len as f64 + 5e6, len, |_| chunk);
            assert_eq!(got.last().map_or(0, |r| r.1), len);
        }
    }

    #[test]
    fn classifying_the_reads_ahead_gives_the_whole_files_rows() {
        let input = every_fixture();
        let whole = run_split(&input, input.len());
        let mut c = Classifier::new();
        let mut out = Vec::new();
        for (a, b) in ranges(input.len() as f64, AHEAD_BYTES, 4) {
            out.extend(c.push(&input[a as usize..b as usize]));
        }
        out.extend(c.finish());
        assert_eq!(out, whole);
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

    fn fixture(name: &str) -> Vec<u8> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
        let mut found = Vec::new();
        let mut dirs = vec![root];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "jsonl") {
                    found.push(p);
                }
            }
        }
        found.sort();
        let mut all = Vec::new();
        for p in found
            .iter()
            .filter(|p| p.display().to_string().contains(name))
        {
            all.extend(std::fs::read(p).unwrap());
            if all.last() != Some(&b'\n') {
                all.push(b'\n');
            }
        }
        all
    }

    /// Every fixture, one after another: a log with every kind of body.
    pub(crate) fn every_fixture() -> Vec<u8> {
        fixture("")
    }

    #[test]
    fn line_counts_are_those_of_str_lines() {
        let pieces = [
            "", "a", "\n", "\r\n", "\n\n", "é", "\u{a}x", "\x0b", "\u{8a}",
        ];
        for a in pieces {
            for b in pieces {
                for at in 0..18 {
                    let text = format!("{}{a}{}{b}", "x".repeat(at), "\n".repeat(at % 4));
                    assert_eq!(line_count(&text), text.lines().count(), "{text:?}");
                }
            }
        }
    }

    #[test]
    fn stripped_bodies_are_read_again_exactly() {
        let input = every_fixture();
        assert!(input.len() > 10_000);
        for (chunk, every) in [(997, 1), (4096, 5000), (input.len(), 1)] {
            let mut c = Classifier::new();
            let mut whole = Vec::new();
            for piece in input.chunks(chunk) {
                whole.extend(c.push_every(piece, every));
            }
            whole.extend(c.finish());
            let mut meta = whole.clone();
            let lazy = strip(&mut meta);
            assert!(lazy.len() > 50, "{}", lazy.len());
            assert!(meta.iter().all(|e| e.msgs.iter().all(|m| m.body.is_none())));
            // Asked one by one and all at once, every body comes back as classified.
            let want: Vec<(u64, u32)> = lazy.iter().map(|&(s, i, _)| (s, i)).collect();
            let body = |seq: u64, idx: u32| {
                let env = whole.iter().find(|e| e.seq == Some(seq)).unwrap();
                env.msgs[idx as usize].body.clone().unwrap()
            };
            let read = |want: &[(u64, u32)]| {
                let mut got = Vec::new();
                for (from, end, rows) in c.plan(want) {
                    let cp = &c.checkpoints()[from];
                    let end = usize::try_from(end.min(input.len() as u64)).unwrap();
                    got.extend(bodies_in(
                        cp,
                        c.limit(),
                        &input[cp.offset as usize..end],
                        &rows,
                    ));
                }
                got
            };
            let mut all = read(&want);
            all.sort_by_key(|&(s, i, _)| (s, i));
            assert_eq!(all.len(), want.len());
            for (s, i, b) in all {
                assert_eq!(b, body(s, i), "line {s} row {i}");
            }
            for &(s, i, lines) in lazy.iter().step_by(7) {
                let got = read(&[(s, i)]);
                assert_eq!(got, vec![(s, i, body(s, i))]);
                assert_eq!(lines as usize, body(s, i).lines().count());
            }
        }
    }

    #[test]
    fn a_body_of_a_log_still_being_read_is_found() {
        let input = every_fixture();
        let half = input.len() / 2;
        let mut c = Classifier::new();
        let mut envs = c.push_every(&input[..half], 1000);
        let lazy = strip(&mut envs);
        let &(s, i, _) = lazy.last().unwrap();
        let (from, end) = c.span_of(s).unwrap();
        assert!(end <= half as u64);
        let cp = &c.checkpoints()[from];
        let got = bodies_in(
            cp,
            c.limit(),
            &input[cp.offset as usize..end as usize],
            &[(s, i)],
        );
        assert_eq!(got.len(), 1);
        assert!(c.span_of(c.lines() + 1).is_none());
    }
}
