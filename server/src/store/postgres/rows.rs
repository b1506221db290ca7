//! The rows a batch of appends adds to PostgreSQL, column by column: each table's columns
//! one `UNNEST`ed array of the writer's one statement (`super::writer`).

use classifier::TermEnvelope;

use crate::store::search::index_rows;

/// The rows a batch of appends adds, column by column.
pub(super) struct Rows {
    pub events: EventRows,
    pub rendered_seqs: Vec<i64>,
    pub rendered_json: Vec<String>,
    pub search: SearchCols,
}

impl Rows {
    pub(super) fn with_capacity(n: usize) -> Rows {
        Rows {
            events: EventRows::with_capacity(n),
            rendered_seqs: Vec::with_capacity(n),
            rendered_json: Vec::with_capacity(n),
            search: SearchCols::default(),
        }
    }
}

/// The `events` rows of an append, column by column (for one `INSERT … UNNEST`).
pub(super) struct EventRows {
    pub seq: Vec<i64>,
    pub ts: Vec<f64>,
    pub received: Vec<f64>,
    pub raw: Vec<Vec<u8>>,
    pub cut_len: Vec<Option<i64>>,
    pub cut_limit: Vec<Option<i64>>,
    /// The file each came from, when not the session's main one.
    pub source: Vec<Option<String>>,
}

impl EventRows {
    fn with_capacity(n: usize) -> EventRows {
        EventRows {
            seq: Vec::with_capacity(n),
            ts: Vec::with_capacity(n),
            received: Vec::with_capacity(n),
            raw: Vec::with_capacity(n),
            cut_len: Vec::with_capacity(n),
            cut_limit: Vec::with_capacity(n),
            source: Vec::with_capacity(n),
        }
    }

    pub(super) fn push(
        &mut self,
        seq: u64,
        ts: f64,
        received: f64,
        raw: Vec<u8>,
        cut: Option<(u64, u64)>,
        source: Option<&str>,
    ) {
        self.source.push(source.map(str::to_owned));
        self.seq.push(seq as i64);
        self.ts.push(ts);
        self.received.push(received);
        self.raw.push(raw);
        self.cut_len.push(cut.map(|c| c.0 as i64));
        self.cut_limit.push(cut.map(|c| c.1 as i64));
    }
}

/// The rows of an append to index, column by column (`UNNEST`ed by the writer).
#[derive(Default)]
pub(super) struct SearchCols {
    pub seq: Vec<i64>,
    pub row: Vec<i32>,
    pub ts: Vec<f64>,
    pub level: Vec<&'static str>,
    pub icon: Vec<Option<String>>,
    pub summary: Vec<String>,
    pub body: Vec<String>,
}

impl SearchCols {
    /// Adds the rows of event `seq`'s envelope.
    pub(super) fn push(&mut self, seq: u64, env: &TermEnvelope) {
        let (ts, rows) = index_rows(env);
        for r in rows {
            self.seq.push(seq as i64);
            self.row.push(r.row as i32);
            self.ts.push(ts);
            self.level.push(r.level);
            self.icon.push(r.icon.map(str::to_owned));
            self.summary.push(r.summary.to_owned());
            self.body.push(r.body.to_owned());
        }
    }
}
