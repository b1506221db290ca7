//! A search of an offline log's bodies (which stay in the file) that reads again only the
//! parts of the file that can hold a hit.
//!
//! While the worker classifies the log it keeps, for each span between two checkpoints
//! ([`crate::worker::classify::Checkpoint`], one every 4 MiB), a [`Trigrams`](crate::worker::trigrams::Trigrams) set: a lossy set
//! (a bitmap of hashes) of every three-byte sequence of every body of the span, ASCII case
//! folded. A body that contains a query (ASCII case ignored, as the page's filter,
//! [`crate::model::text::contains_ci`]) contains every three-byte sequence of the query, so a span
//! whose set lacks one of them has no hit: the [`Search`] skips it and classifies again, from
//! their checkpoints, only the spans whose set may hold the query. The sets are built from
//! the bodies exactly as the classifier made them (not from the raw JSON), so escapes,
//! sanitising and bodies made of several fields cannot hide a hit; a hash collision only
//! makes a span read for nothing. A query under three bytes, and the part of the log not
//! classified yet, are read in full. The hits are therefore exactly those of one pass over
//! the whole file (tests sweep many queries over the fixtures).
//!
//! Does not read the file: the worker ([`crate::worker`]) hands it the bytes it asks for.

use classifier::{LogClassifier, TermEnvelope};

use crate::worker::classify::Classifier;
use crate::worker::read_ahead::CHUNK;

/// A search of the bodies for `query`: the rows `(seq, idx)` whose body contains it (ASCII
/// case ignored), in file order. Driven by the worker: [`Search::next_read`] says which bytes
/// to read next, [`Search::push`] takes them.
#[derive(Debug)]
pub struct Search {
    query: String,
    limit: usize,
    /// Where the next read starts (a line start when `log` is `None`: a checkpoint's).
    at: u64,
    /// The classifier positioned at `at`, when a span is being read.
    log: Option<LogClassifier>,
    /// Whether the end of the file was reached.
    done: bool,
    /// Bytes read and spans skipped so far.
    read: u64,
    skipped: usize,
}

impl Search {
    /// A search for `query` from the file's start.
    pub fn new(query: &str, limit: usize) -> Search {
        Search {
            query: query.to_owned(),
            limit,
            at: 0,
            log: None,
            done: false,
            read: 0,
            skipped: 0,
        }
    }

    /// The bytes to read next, `from..to` of a file of `total` bytes, whose log `c`
    /// classifies (its checkpoints and their spans' [`Trigrams`](crate::worker::trigrams::Trigrams)); `None` once the whole file
    /// is searched. Spans that cannot hold a hit are passed over.
    pub fn next_read(&mut self, c: &Classifier, total: u64) -> Option<(u64, u64)> {
        if self.done {
            return None;
        }
        let cps = c.checkpoints();
        if self.log.is_none() {
            // At a checkpoint: pass over the spans that cannot hold a hit.
            let mut k = cps.partition_point(|cp| cp.offset < self.at);
            while cps.get(k).is_some_and(|cp| cp.offset == self.at)
                && c.span_trigrams(k)
                    .is_some_and(|t| !t.may_contain(&self.query))
            {
                self.skipped += 1;
                self.at = cps.get(k + 1).map_or(u64::MAX, |next| next.offset);
                k += 1;
            }
            if self.at >= total {
                self.done = true;
                return None;
            }
            let cp = &cps[k.min(cps.len() - 1)];
            debug_assert_eq!(cp.offset, self.at);
            self.log = Some(cp.resume(self.limit));
        }
        // Up to the next checkpoint, so that the span after it can be passed over.
        let next_cp = cps
            .iter()
            .map(|cp| cp.offset)
            .find(|&o| o > self.at)
            .unwrap_or(u64::MAX);
        let to = (self.at + CHUNK as u64).min(next_cp).min(total);
        Some((self.at, to))
    }

    /// The bytes asked for by [`Search::next_read`] (`to` is where they end): their hits.
    /// At a checkpoint the classifier is dropped and resumed from it when its span is read.
    pub fn push(&mut self, bytes: &[u8], to: u64, c: &Classifier, total: u64) -> Vec<(u64, u32)> {
        let mut hits = Vec::new();
        let q = &self.query;
        let Some(log) = self.log.as_mut() else {
            return hits;
        };
        log.feed(bytes, |env| search_env(&env, q, &mut hits));
        self.read += bytes.len() as u64;
        self.at = to;
        if to >= total {
            log.finish(|env| search_env(&env, q, &mut hits));
            self.done = true;
            self.log = None;
        } else if c.checkpoints().iter().any(|cp| cp.offset == to) {
            // The line in progress starts here (a checkpoint is a line start): nothing of
            // this span is left in the classifier but the envelope held for the log's end.
            log.release(|env| search_env(&env, q, &mut hits));
            self.log = None;
        }
        hits
    }

    /// Whether the whole file was searched.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Bytes classified again so far, and spans passed over.
    pub fn work(&self) -> (u64, usize) {
        (self.read, self.skipped)
    }
}

/// The rows of `env` whose body contains `query`.
pub fn search_env(env: &TermEnvelope, query: &str, hits: &mut Vec<(u64, u32)>) {
    let Some(seq) = env.seq else { return };
    for (idx, msg) in env.msgs.iter().enumerate() {
        if msg
            .body
            .as_deref()
            .is_some_and(|b| crate::model::text::contains_ci(b, query))
        {
            hits.push((seq, idx as u32));
        }
    }
}

#[cfg(test)]
mod tests;
