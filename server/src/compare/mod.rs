//! Two runs side by side, what `hiveterm diff` and the compare page (`/compare/{a}/{b}`)
//! share: a run read ([`Side`]: a stored session by [`read_session`]; a log by `diff`'s own
//! reader), and the JSON made of two runs aligned ([`report`]: the summaries, their
//! differences, the first divergence and the aligned steps).
//!
//! Contents: [`report`] the JSON shapes and what both answers hold; [`api`] `GET
//! /api/compare/{a}/{b}`, every aligned pair (capped at [`api::MAX_PAIRS`]); [`file`] that
//! answer as one HTML file (`diff -o`); [`redact`] its strings redacted.

use classifier::compare::{Run, RunFold};
use classifier::{LogClassifier, Summary, TermEnvelope};

use crate::store::Store;

pub mod api;
pub mod file;
pub mod redact;
pub mod report;

/// Bytes of a stored log classified at a time.
const CHUNK: usize = 1 << 20;

/// One run read: its name, summary and steps; for a stored session, the session's seq of each
/// line of the log it was read as.
pub struct Side {
    /// A log's name or a session's id.
    pub name: String,
    /// Its postmortem summary (every file and tool, `SummaryFold::whole`).
    pub summary: Summary,
    /// Its turns of steps.
    pub run: Run,
    seqs: Option<Vec<u64>>,
}

impl Side {
    /// A log read: its steps numbered by its lines.
    pub fn of_log(name: String, summary: Summary, run: Run) -> Side {
        Side {
            name,
            summary,
            run,
            seqs: None,
        }
    }

    /// The seq a user finds the step at: the log's line, or the session's seq.
    pub fn seq(&self, line: u64) -> u64 {
        self.seqs
            .as_ref()
            .and_then(|s| s.get((line as usize).wrapping_sub(1)).copied())
            .unwrap_or(line)
    }
}

/// A stored session, read as its log (its subagents' files after it, as `share --export`
/// reads it), its steps numbered by the session's seqs. `Err` says why (`no session …`).
pub async fn read_session(store: &Store, id: &str) -> Result<Side, String> {
    if store
        .session_info(id)
        .await
        .map_err(|e| e.to_string())?
        .is_none()
    {
        return Err(format!("no session {id}"));
    }
    let mut main = Vec::new();
    let other = crate::redacted::write_log(store, id, None, false, &mut main).await?;
    let mut seqs = vec![0; other.lines.len()];
    for (i, &line) in other.lines.iter().enumerate() {
        if let Some(s) = seqs.get_mut((line as usize).wrapping_sub(1)) {
            *s = i as u64 + 1;
        }
    }
    let mut log = LogClassifier::new().with_whole_summary();
    let mut fold = RunFold::new();
    let mut add = |env: TermEnvelope| fold.add(&env);
    for chunk in main.chunks(CHUNK) {
        log.feed(chunk, &mut add);
    }
    log.finish(&mut add);
    drop(main);
    for (agent, bytes) in &other.files {
        log = log.next_file(Some(agent));
        for chunk in bytes.chunks(CHUNK) {
            log.feed(chunk, &mut add);
        }
        log.finish(&mut add);
    }
    Ok(Side {
        name: id.to_owned(),
        summary: log.summary().unwrap_or_default(),
        run: fold.finish(),
        seqs: Some(seqs),
    })
}
