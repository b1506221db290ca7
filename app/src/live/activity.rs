//! What a live session is doing now, counted up by the second (issue 21, points 4 and 5):
//! the tool calls running — called, not yet answered: the server's `active_tools`, named as
//! their rows name them ([`classifier::active`]) — and a compaction in progress (the newest
//! row is the classifier's [`RowKind::Compacting`] row, which the page then draws as
//! `⚙ compact · 12s…`). Pure, tested natively; the ticking clock is the view's.

use contract::State;

use crate::model::state::ViewState;
use classifier::{RowKind, row_kind};

/// One running tool call.
#[derive(Debug, Clone, PartialEq)]
pub struct RunningTool {
    /// The tool, as its row names it.
    pub name: String,
    /// When it was called (unix seconds), when known.
    pub since: Option<f64>,
}

/// The running tool calls of a state (`GET …/state`, an SSE `state` frame), oldest first.
pub fn running_tools(state: &State) -> Vec<RunningTool> {
    state
        .badges
        .active_tools
        .calls()
        .iter()
        .map(|c| RunningTool {
            name: c.name.clone(),
            since: c.since,
        })
        .collect()
}

/// Whole seconds from `since` to `now` (`0s`, `12s`, `1m 05s`, `2h 03m`); never negative
/// (the server's clock may be ahead of the reader's).
pub fn elapsed(since: f64, now: f64) -> String {
    let secs = (now - since).max(0.0).floor();
    if secs < 60.0 {
        format!("{secs}s")
    } else {
        classifier::duration(secs)
    }
}

/// The indicator's parts: `Bash 3s` for each running call (its name alone when its time
/// is not known).
pub fn tools_text(tools: &[RunningTool], now: f64) -> Vec<String> {
    tools
        .iter()
        .map(|t| match t.since {
            Some(since) => format!("{} {}", t.name, elapsed(since, now)),
            None => t.name.clone(),
        })
        .collect()
}

/// The compaction in progress: the newest held row, when it is the compacting status row
/// of the main agent, with its time (its `uid`, `ts`).
pub fn compacting(state: &ViewState) -> Option<(u64, f64)> {
    let last = state.rows().last()?;
    let ts = last.ts?;
    (last.parent.is_none() && row_kind(&last.msg) == RowKind::Compacting).then_some((last.uid, ts))
}

/// The compacting row's summary while it counts: `⚙ compact · 12s…`.
pub fn compact_text(since: f64, now: f64) -> String {
    format!("⚙ compact · {}…", elapsed(since, now))
}

#[cfg(test)]
mod tests;
