//! [`LogClassifier`]: the one way from bytes to envelopes.
//!
//! # How a line is read, for speed
//!
//! Every fast path below gives the envelopes of the whole parse (a `serde_json::Value`, then
//! `classify`), and anything doubtful goes to the whole parse; `classifier/tests/lean.rs`
//! holds them to it.
//!
//! - **Lean**: a line (here and in [`classify_line`](crate::classify_line)) is parsed by
//!   `crate::lean`: the top-level fields no row or summary reads are checked by serde_json but
//!   not built; nested ones by shape (`lean/shaped.rs`) for Claude Code messages
//!   (`stream/lean.rs`), Codex payloads, Gemini recordings, OpenCode parts, Qwen Code session
//!   records and Copilot CLI events (each agent's `lean.rs`, one shape for all of them in
//!   `formats/lean.rs`). What the lines before tell
//!   comes as `lean::Hints` from the context; the maps it builds are made once at their size
//!   (`lean/build.rs`).
//! - **Typed, with no map at all**: a Gemini recording's message records, metadata and
//!   updates of only the recording's own fields (`gemini/typed.rs`, the same `Record` a whole
//!   parse's message record becomes); a Codex rollout's lines that give no row of their own
//!   (`codex/fact.rs`, the same `Fact`); a `codex exec --json` line whose rows come from its
//!   typed fields, not an MCP call, a search or a plan item (`codex/exec_line.rs`, the same
//!   `Exec`); a Gemini stream-json answer delta as the CLI writes it, known from its bytes
//!   (`gemini/typed/line.rs`), and its `init`, prompt, `tool_use`, `tool_result` and `result`
//!   lines of only the CLI's fields (`gemini/typed/event.rs`, their rows made by the whole
//!   parse's row makers). The readers share `lean/lax.rs` (a line read field by field by one
//!   `read_line`).
//! - **Batches**: a few lines are parsed, then classified (`Batch`), so each phase's code
//!   stays in the instruction cache.
//! - **Fields**: rows read a field of a small object through `crate::field` (`Field::field`,
//!   a scan of its keys) rather than `Value::get`, which hashes the key with SipHash (the
//!   workspace's objects keep their written order).
//! - **Writing**: `hiveterm classify` writes the envelopes with `JsonWriter`
//!   (`msg/writer.rs`: `TermEnvelope::write_json`'s bytes, which are serde_json's, a growing
//!   row's body escaped once rather than at every delta).
//! - **The page's summaries**: each chunk's but the last lists only the first files and the
//!   subagents whose end changed (`SummaryFold::summary_changes`, `summary/head.rs`).

use crate::classify::classify_log_event_at;
use crate::ctx::ClassifyCtx;
use crate::event::line_event_lean;
use crate::lines::{LineReader, LineRef, MAX_LINE_BYTES};
use crate::msg::TermEnvelope;
use crate::summary::{Summary, SummaryFold};

/// Turns a log, fed as chunks of bytes split anywhere, into one [`TermEnvelope`] per
/// non-blank line, numbered by its 1-based physical line (`seq`), each classified with the
/// context of every line before it.
///
/// It owns a [`LineReader`] (framing, with the one line limit, [`MAX_LINE_BYTES`] by
/// default) and a [`ClassifyCtx`] (correlation), and classifies each line with
/// [`classify_line`](crate::classify_line). `hiveterm classify`, the page's Web Worker and the throughput
/// benchmark all go through it, so a log gives the same envelopes on every path, whatever its
/// chunking and whatever its line sizes — a line over the limit included, which is one
/// `✗ unreadable line · N bytes, over the L-byte line limit` error row everywhere.
///
/// ```
/// use classifier::LogClassifier;
///
/// let mut log = LogClassifier::new();
/// let mut envs = Vec::new();
/// log.feed(b"{\"kind\":\"turn_start\",\"from\":\"operator\",\"body\":\"go\"}\n{\"kind\":", |e| envs.push(e));
/// log.feed(b"\"turn_end\",\"ok\":true}", |e| envs.push(e));
/// log.finish(|e| envs.push(e));
/// assert_eq!(envs.len(), 2);
/// assert_eq!(envs[1].seq, Some(2));
/// assert_eq!(envs[1].msgs[0].summary, "turn ok");
/// ```
///
/// # A server that stores lines and classifies them later
///
/// A server that must store each line before classifying it (and classify again when the
/// classifier changes) uses the same two halves this type joins, and gets the same envelopes:
/// 1. **Split, don't classify:** feed the bytes to a [`LineReader`] (same limit) and store
///    each [`Line`](crate::lines::Line) as it comes: its `bytes` and, for an over-long line, its
///    [`oversize`](crate::lines::Line::oversize) (`len` and `limit`; `bytes` then holds only the first
///    [`OVERSIZE_HEAD_BYTES`](crate::lines::OVERSIZE_HEAD_BYTES)). Nothing more is needed to
///    show that line's row later.
/// 2. **Classify a stored line:** rebuild `Line { number: seq, bytes, oversize }` and call
///    [`classify_line`](crate::classify_line) with the session's own [`ClassifyCtx`] (serialisable, so it can be
///    checkpointed), in seq order. The envelope is exactly the one this type gives for that
///    line, `seq` being `number`. For the summary, fold each line's event
///    ([`event::line_event`](crate::event::line_event)) and envelope into the session's
///    [`SummaryFold`] (serialisable too) with [`SummaryFold::add`]. (A server that numbers lines by its own seq, or that fills
///    in a missing `ts` with the time it received the line, does that after.)
/// 3. **At the log's end** (known whole), the rows [`ClassifyCtx::end_of_log`] gives go in the
///    last line's envelope (a Gemini recording's last turn ends with its file); a server that
///    cannot know a file is whole keeps [`ClassifyCtx::end_pending`] instead.
///
/// # The summary
///
/// [`with_summary`](LogClassifier::with_summary) also folds every line into a
/// [`SummaryFold`], read at any point with [`summary`](LogClassifier::summary) (the page's
/// worker sends it with each batch of rows; `hiveterm summary` prints it at the end).
///
/// # A session of several files
///
/// A Claude Code session's transcript and its subagents' transcripts (or a Gemini chat
/// recording and its subagents' recordings) are one session: after the main file,
/// [`next_file`](LogClassifier::next_file) goes on to each subagent's file, oldest first. Its
/// lines are numbered on after the lines before (every `seq` stays unique), classified with a
/// context of their own but the subagent calls seen so far, so each envelope's `parent` names
/// the envelope of the call that started that subagent; the summary goes on counting.
#[derive(Debug, Default)]
pub struct LogClassifier {
    reader: LineReader,
    ctx: ClassifyCtx,
    fold: Option<SummaryFold>,
    /// Lines of the session's files before this one: added to each line's number.
    base: u64,
    /// The envelope of the last line, held while the end of the log would add rows to it:
    /// handed out before the next line's, or by [`finish`](Self::finish) with those rows.
    held: EndHold,
}

impl LogClassifier {
    /// Most lines parsed at once, then classified, before their envelopes are handed out (a
    /// caller that writes envelopes a batch at a time keeps to the same number).
    pub const BATCH_LINES: usize = BATCH_LINES;

    /// At the start of a log, with the one line limit [`MAX_LINE_BYTES`].
    pub fn new() -> LogClassifier {
        LogClassifier::with_limit(MAX_LINE_BYTES)
    }

    /// At the start of a log, keeping lines of at most `limit` bytes whole (tests lower it).
    pub fn with_limit(limit: usize) -> LogClassifier {
        LogClassifier {
            reader: LineReader::with_limit(limit),
            ctx: ClassifyCtx::new(),
            fold: None,
            base: 0,
            held: EndHold::default(),
        }
    }

    /// The next file of the same session, a subagent's (`agent`: its id, when its file's name
    /// says, as Claude Code's `subagents/agent-<id>.jsonl` does): numbered on from the lines
    /// so far, with the same line limit and summary, and the subagent calls seen so far.
    #[must_use]
    pub fn next_file(self, agent: Option<&str>) -> LogClassifier {
        LogClassifier {
            reader: LineReader::with_limit(self.reader.limit()),
            ctx: self.ctx.next_file(agent),
            fold: self.fold,
            base: self.base + self.reader.lines_seen(),
            held: EndHold::default(),
        }
    }

    /// Resumed at a line start after `lines` physical lines, with the context `ctx` had
    /// there (a point taken with [`line_start`](Self::line_start), `lines_seen` and
    /// [`ctx`](Self::ctx)): fed the bytes from that line on, it gives exactly the envelopes
    /// the whole log gives from there (the page's worker re-reads one line's body so).
    pub fn resume(limit: usize, lines: u64, ctx: ClassifyCtx) -> LogClassifier {
        LogClassifier {
            reader: LineReader::resume(limit, lines),
            ctx,
            fold: None,
            base: 0,
            held: EndHold::default(),
        }
    }

    /// Where the line in progress starts, in bytes from the first byte fed (every line
    /// before it is classified).
    pub fn line_start(&self) -> u64 {
        self.reader.line_start()
    }

    /// Also folds the log into its [`Summary`] (a bounded one: [`SummaryFold::new`]).
    #[must_use]
    pub fn with_summary(mut self) -> LogClassifier {
        self.fold = Some(SummaryFold::new());
        self
    }

    /// Also folds the log into its [`Summary`], keeping every file, tool and model
    /// ([`SummaryFold::whole`]): `hiveterm summary`'s.
    #[must_use]
    pub fn with_whole_summary(mut self) -> LogClassifier {
        self.fold = Some(SummaryFold::whole());
        self
    }

    /// Feeds the next chunk; calls `out` with the envelope of each line it completes, in
    /// order (an envelope may have no rows: an agent-state event).
    pub fn feed(&mut self, chunk: &[u8], mut out: impl FnMut(TermEnvelope)) {
        let mut batch = Batch::new(crate::formats::lean_hints(&self.ctx));
        let (ctx, fold, base, held) = (&mut self.ctx, &mut self.fold, self.base, &mut self.held);
        self.reader.push_ref(chunk, |line: LineRef<'_>| {
            if batch.parse(&line) {
                batch.classify(base, ctx, fold, held, &mut out);
            }
        });
        batch.classify(base, ctx, fold, held, &mut out);
    }

    /// The envelope held while the end of the log would add rows to it, if any: a line
    /// already read whose envelope is handed out with the next line's (a reader that indexes
    /// what each stretch of the file holds counts it where its line is).
    pub fn held(&self) -> Option<&TermEnvelope> {
        self.held.0.as_ref()
    }

    /// Hands out, as it is, the envelope held while the end of the log would add rows to it
    /// ([`ClassifyCtx::end_pending`]), for a reader that stops before the log's end (a span
    /// re-read from a checkpoint): its rows are the whole file's, without the end's.
    pub fn release(&mut self, out: impl FnMut(TermEnvelope)) {
        self.held.release(out);
    }

    /// Ends the log: the envelope of a last line that had no newline, if any; and the rows
    /// the end of the log adds ([`ClassifyCtx::end_of_log`]: a Gemini chat recording's last
    /// turn ends with the file), in the last line's envelope.
    pub fn finish(&mut self, mut out: impl FnMut(TermEnvelope)) {
        let mut batch = Batch::new(crate::formats::lean_hints(&self.ctx));
        let (ctx, fold, base, held) = (&mut self.ctx, &mut self.fold, self.base, &mut self.held);
        self.reader.finish_ref(|line: LineRef<'_>| {
            batch.parse(&line);
        });
        batch.classify(base, ctx, fold, held, &mut out);
        held.finish(ctx, fold.as_mut(), out);
    }

    /// The summary of the lines so far, when made [`with_summary`](Self::with_summary).
    pub fn summary(&self) -> Option<Summary> {
        self.fold.as_ref().map(SummaryFold::summary)
    }

    /// The summary so far listing at most `files` changed files
    /// ([`SummaryFold::summary_head`]).
    pub fn summary_head(&self, files: usize) -> Option<Summary> {
        self.fold.as_ref().map(|f| f.summary_head(files))
    }

    /// The summary so far as [`SummaryFold::summary_changes`] makes it: the subagents whose
    /// end changed since `sent` was brought up to date; `None` if made without one.
    pub fn summary_changes(
        &self,
        files: usize,
        sent: &mut Vec<Option<crate::summary::SubagentEnd>>,
    ) -> Option<Summary> {
        self.fold.as_ref().map(|f| f.summary_changes(files, sent))
    }

    /// Physical lines seen so far, blank ones included.
    pub fn lines_seen(&self) -> u64 {
        self.reader.lines_seen()
    }

    /// The correlation context after the lines classified so far.
    pub fn ctx(&self) -> &ClassifyCtx {
        &self.ctx
    }
}

/// Lines parsed a few at a time, then classified in order: each phase's code stays in the
/// instruction cache for a run of lines instead of taking turns with the other's at every line
/// (`hiveterm classify` of a tools-heavy transcript: −2 % CPU).
///
/// A batch is parsed with the hints of the context at its start ([`crate::lean::Hints`]).
/// That is always right: a hint only lets a lean parse leave out more, it turns on once and
/// stays on, and a line parsed without it is the whole parse's (its rows and summary the same).
struct Batch {
    hints: crate::lean::Hints,
    /// Line numbers and events, not classified yet.
    lines: Vec<(u64, crate::event::LogEvent)>,
    /// Their bytes.
    bytes: usize,
}

/// Lines in a batch at most. (128, not 32: the agents' live formats, whose lines are short and
/// of many kinds, each kind its own code, missed the instruction cache a third to two fifths
/// less often, and the data cache more often, for 2–4 % less CPU; docs/BENCHMARKS.md.)
const BATCH_LINES: usize = 128;
/// A batch's lines' bytes at most (so a batch of big lines holds little memory).
const BATCH_BYTES: usize = 256 * 1024;

impl Batch {
    fn new(hints: crate::lean::Hints) -> Batch {
        Batch {
            hints,
            lines: Vec::new(),
            bytes: 0,
        }
    }

    /// Parses `line` into the batch; whether the batch is full.
    fn parse(&mut self, line: &LineRef<'_>) -> bool {
        let event = line_event_lean(&line.bytes, line.oversize, self.hints);
        self.lines.push((line.number, event));
        self.bytes += line.bytes.len();
        self.lines.len() >= BATCH_LINES || self.bytes >= BATCH_BYTES
    }

    /// Each line: exactly [`classify_line`](crate::classify_line) (numbered after `base`
    /// lines of the files before), then the summary fold if any; the batch left empty, with
    /// the context's hints now.
    fn classify(
        &mut self,
        base: u64,
        ctx: &mut ClassifyCtx,
        fold: &mut Option<SummaryFold>,
        held: &mut EndHold,
        out: &mut impl FnMut(TermEnvelope),
    ) {
        for (number, event) in self.lines.drain(..) {
            let env = classify_log_event_at(&event, ctx, base + number);
            if let Some(fold) = fold {
                fold.add(&event.event, &env);
            }
            held.pass(env, ctx, &mut *out);
        }
        self.bytes = 0;
        self.hints = crate::formats::lean_hints(ctx);
    }
}

/// The envelope of a log's last line, held while the end of the log would add rows to it
/// ([`ClassifyCtx::end_pending`]: a Gemini chat recording's open turn ends with its file).
/// Every reader that classifies a log line by line and may reach its end ([`LogClassifier`],
/// the one-file export) passes each envelope through one, so they all give the end's rows the
/// same way: in the last line's envelope, folded into the summary as the log's end.
#[derive(Debug, Default)]
pub struct EndHold(Option<TermEnvelope>);

impl EndHold {
    /// `env`, just classified with `ctx`: hands out the envelope held before it, then `env`
    /// itself unless the end of the log would add rows to it (then it is held).
    pub fn pass(
        &mut self,
        env: TermEnvelope,
        ctx: &ClassifyCtx,
        mut out: impl FnMut(TermEnvelope),
    ) {
        if let Some(before) = self.0.take() {
            out(before);
        }
        if ctx.end_pending().is_some() {
            self.0 = Some(env);
        } else {
            out(env);
        }
    }

    /// Hands out the held envelope as it is, for a reader that stops before the log's end
    /// (a span re-read from a checkpoint, a range of lines): its rows are the whole file's,
    /// without the end's.
    pub fn release(&mut self, mut out: impl FnMut(TermEnvelope)) {
        if let Some(env) = self.0.take() {
            out(env);
        }
    }

    /// The log ends here: the held envelope, with the rows the end adds
    /// ([`ClassifyCtx::end_of_log`]), folded into `fold` too.
    pub fn finish(
        &mut self,
        ctx: &mut ClassifyCtx,
        fold: Option<&mut SummaryFold>,
        mut out: impl FnMut(TermEnvelope),
    ) {
        let Some(mut env) = self.0.take() else {
            return;
        };
        let rows = ctx.end_of_log();
        if let Some(fold) = fold {
            fold.add_end(&TermEnvelope {
                ts: env.ts,
                seq: env.seq,
                parent: env.parent,
                msgs: rows.clone(),
            });
        }
        env.msgs.extend(rows);
        out(env);
    }
}
