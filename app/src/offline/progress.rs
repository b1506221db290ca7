//! An offline log's reading as the page sees it, pure: its [`Progress`] (the banner's, and
//! the phases the big-log benchmark prints) and each [`ReaderEvent`] the worker's messages (or an
//! exported file's reader, [`crate::offline::embedded`]) bring.

use classifier::TermEnvelope;

use crate::worker::protocol::{Lazy, PHASES, RowKey};

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
    /// Milliseconds per phase so far: the worker's ([`PHASES`]), then the
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
        let n = PHASES.len();
        self.phases.resize(n + PAGE_PHASES.len(), 0.0);
        for (i, &w) in worker.iter().take(n).enumerate() {
            self.phases[i] = w;
        }
        for (i, p) in page.into_iter().enumerate() {
            self.phases[n + i] += p;
        }
    }
}

/// What the worker (or an export's reader) brings for the log in hand: its messages of this
/// log, the rows decoded.
#[derive(Debug, Clone, PartialEq)]
pub enum ReaderEvent {
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
        lazy: Vec<Lazy>,
        /// The worker's milliseconds per phase so far ([`PHASES`]), and last
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
        hits: Vec<RowKey>,
        /// Whether the whole file was searched.
        done: bool,
    },
    /// Reading failed.
    Error(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_are_the_workers_then_the_pages_summed() {
        let mut p = Progress::default();
        p.add_phases(&[1.0, 2.0], [0.5, 0.25, 0.0]);
        p.add_phases(&[3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 99.0], [0.5, 0.25, 1.0]);
        assert_eq!(p.phases.len(), PHASES.len() + PAGE_PHASES.len());
        assert_eq!(&p.phases[..6], &[3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
        assert_eq!(&p.phases[6..], &[1.0, 0.5, 1.0]);
    }
}
