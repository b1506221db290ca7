//! The log classified in the worker ([`Classifier`], pure): envelopes with rows after each
//! chunk, the log's [`classifier::Summary`], a [`Checkpoint`] (a `LogClassifier::resume`
//! point) every [`CHECKPOINT_BYTES`] or so with the [`Trigrams`] of the bodies after it, and
//! a body read again from the nearest checkpoint ([`bodies_in`]), exactly as classified.
//!
//! A session's several files (a main log and its subagents', dropped together) are one
//! stream of bytes, the files one after the other: at each file's first byte the worker calls
//! [`Classifier::next_file`] (`LogClassifier::next_file`, as `hiveterm classify` does), and a
//! checkpoint is taken there, so a body is never read again across two files.

use classifier::{ClassifyCtx, LogClassifier, Summary, TermEnvelope};

use crate::worker::protocol::RowKey;
use crate::worker::protocol::row_batch::push_kept;
use crate::worker::trigrams::Trigrams;

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
    /// Where `log` is, after `lines` lines and `bytes` bytes of the files before its own.
    fn at(log: &LogClassifier, lines: u64, bytes: u64) -> Checkpoint {
        Checkpoint {
            offset: bytes + log.line_start(),
            lines: lines + log.lines_seen(),
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
    /// Physical lines and bytes of the files before the one being read (its classifier
    /// counts from its own start).
    line_base: u64,
    byte_base: u64,
    /// Bytes of the file being read fed so far.
    fed: u64,
    checkpoints: Vec<Checkpoint>,
    /// Per checkpoint, the three-byte sequences of the bodies of the lines after it (up to
    /// the next one): what a search passes over ([`crate::worker::body_search`]).
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
            checkpoints: vec![Checkpoint::at(&log, 0, 0)],
            spans: vec![Trigrams::default()],
            log,
            limit,
            line_base: 0,
            byte_base: 0,
            fed: 0,
            done: false,
        }
    }

    /// The next file of the session begins (a subagent's; `agent`: its id, when its file's
    /// name says): the last line of the file before is ended, and a checkpoint is taken here.
    /// Answers the envelopes that ending completed.
    pub fn next_file(&mut self, agent: Option<&str>) -> Vec<TermEnvelope> {
        let mut out = Vec::new();
        self.log.finish(|env| push_kept(&mut out, env));
        self.index(&out);
        self.line_base += self.log.lines_seen();
        self.byte_base += self.fed;
        self.fed = 0;
        self.log = std::mem::take(&mut self.log).next_file(agent);
        if self.checkpoints.last().map(|c| c.offset) == Some(self.byte_base) {
            // An empty file before: its checkpoint is this one's.
            self.checkpoints.pop();
            self.spans.pop();
        }
        self.checkpoints
            .push(Checkpoint::at(&self.log, self.line_base, self.byte_base));
        self.spans.push(Trigrams::default());
        out
    }

    /// Where the line in progress starts, from the first byte of the first file.
    fn line_start(&self) -> u64 {
        self.byte_base + self.log.line_start()
    }

    /// The summary of the lines so far, listing at most `files` changed files (the others
    /// counted): its cost does not grow with the files a log changed.
    pub fn summary(&self, files: usize) -> Summary {
        self.log.summary_head(files).unwrap_or_default()
    }

    /// [`Classifier::summary`] with only the subagents whose end is not the one in `sent`,
    /// which it brings up to date ([`classifier::SummaryFold::summary_changes`]).
    pub fn summary_changes(
        &self,
        files: usize,
        sent: &mut Vec<Option<classifier::SubagentEnd>>,
    ) -> Summary {
        self.log.summary_changes(files, sent).unwrap_or_default()
    }

    /// Classifies one chunk.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<TermEnvelope> {
        self.push_every(chunk, CHECKPOINT_BYTES)
    }

    /// Classifies one chunk, a checkpoint after it when the last is `every` bytes back.
    pub fn push_every(&mut self, chunk: &[u8], every: u64) -> Vec<TermEnvelope> {
        let mut out = Vec::new();
        self.log.feed(chunk, |env| push_kept(&mut out, env));
        self.fed += chunk.len() as u64;
        self.index(&out);
        let last = self.checkpoints.last().map_or(0, |c| c.offset);
        if self.line_start() >= last + every.max(1) {
            // A held envelope's line is in the span ending here: its bodies are too (handed
            // out with the next line's, they go into the next span's set as well).
            if let Some(held) = self.log.held().cloned() {
                self.index(std::slice::from_ref(&held));
            }
            self.checkpoints
                .push(Checkpoint::at(&self.log, self.line_base, self.byte_base));
            self.spans.push(Trigrams::default());
        }
        out
    }

    /// Ends the input.
    pub fn finish(&mut self) -> Vec<TermEnvelope> {
        let mut out = Vec::new();
        self.log.finish(|env| push_kept(&mut out, env));
        self.index(&out);
        self.done = true;
        out
    }

    /// The bodies of `envs`, all after the last checkpoint, into its span's set (the rows
    /// the page would replace at once are out already: [`push_kept`]; the page never shows
    /// them, so their bodies are never a hit).
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

    /// Physical lines seen so far, blank ones included (of every file so far).
    pub fn lines(&self) -> u64 {
        self.line_base + self.log.lines_seen()
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
            None => self.line_start(),
        };
        Some((from, end))
    }

    /// The re-reads that answer `want`: per checkpoint (its index), the byte to stop at and
    /// the rows wanted after it. Rows of lines not classified yet are left out.
    pub fn plan(&self, want: &[RowKey]) -> Vec<Reread> {
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

/// One re-read: from checkpoint (index), up to byte, the rows `(seq, idx)` it answers.
pub type Reread = (usize, u64, Vec<RowKey>);

/// Re-reads the rows `want` (`(seq, idx)`, any order) from `bytes`, the file from
/// checkpoint `from` on (up to a line start, or the end): each one's body, exactly as the
/// whole file's classification gives it. A row that has no body there is left out.
pub fn bodies_in(
    from: &Checkpoint,
    limit: usize,
    bytes: &[u8],
    want: &[RowKey],
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
            // The last line wanted may be held for the log's end: its rows are all here.
            log.release(&mut take);
            return out;
        }
    }
    log.finish(&mut take);
    out
}

#[cfg(test)]
pub(crate) mod tests;
