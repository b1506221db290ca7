//! Two runs side by side, what `hiveterm diff` and the compare page (`/compare/{a}/{b}`)
//! share: a run read ([`Side`]: a stored session by [`read_session`]; a log by `diff`'s own
//! reader), and the JSON made of two runs aligned ([`report`]: the summaries, their
//! differences, the first divergence and the aligned steps — made by the contract's pure
//! [`contract::compare::make`], which the page's compare worker runs in the browser too).
//!
//! Contents: [`report`] the JSON shapes and what both answers hold; [`api`] `GET
//! /api/compare/{a}/{b}`, every aligned pair (capped at [`api::MAX_PAIRS`]); [`file`] that
//! answer as one HTML file (`diff -o`); [`redact`] its strings redacted.

use classifier::compare::RunFold;
use classifier::{LogClassifier, TermEnvelope};

use crate::store::Store;

pub mod api;
pub mod file;
pub mod redact;
pub mod report;

/// Bytes of a stored log classified at a time.
const CHUNK: usize = 1 << 20;

/// One run read: the contract's ([`contract::compare::make::Side`]), as the page's compare
/// worker reads one too.
pub use contract::compare::make::Side;

/// A stored session, read as its log (its subagents' files after it, as `share --export`
/// reads it), its steps numbered by the session's seqs. `Err` says why (`no session …`).
pub async fn read_session(store: &Store, id: &str) -> Result<Side, String> {
    read_session_at(store, id, None, false).await
}

/// A stored session as [`read_session`] reads it, up to seq `upto` (all when `None`: a
/// comparison link's snapshot), its events redacted first when `redact` (one redactor over
/// them in order, as a redacted share reads them: `crate::redacted::write_log`).
pub async fn read_session_at(
    store: &Store,
    id: &str,
    upto: Option<u64>,
    redact: bool,
) -> Result<Side, String> {
    if store
        .session_info(id)
        .await
        .map_err(|e| e.to_string())?
        .is_none()
    {
        return Err(format!("no session {id}"));
    }
    let mut main = Vec::new();
    let other = crate::redacted::write_log(store, id, upto, redact, &mut main).await?;
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
    Ok(Side::of_session(
        id.to_owned(),
        log.summary().unwrap_or_default(),
        fold.finish(),
        seqs,
    ))
}
