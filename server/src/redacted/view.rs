//! [`View`]: a session's redacted fold as of one event (a share's last), and what the reads
//! under a redacted share take from it — badges, summary, report, history pages, a stream's
//! frames — each from the tip, the newest envelopes, or folded again from a checkpoint.

use tokio::sync::MutexGuard;

use super::folded::{Folded, State, read_events};
use crate::badges::Badges;
use crate::hub::push_json_frame;
use crate::store::{HistoryPage, Store, StoreError};

/// A redacted fold, locked, as of event `head`.
pub(crate) struct View<'a> {
    folded: MutexGuard<'a, Folded>,
    store: &'a Store,
    session: &'a str,
    head: u64,
}

impl<'a> View<'a> {
    pub(super) fn new(
        folded: MutexGuard<'a, Folded>,
        store: &'a Store,
        session: &'a str,
        head: u64,
    ) -> View<'a> {
        View {
            folded,
            store,
            session,
            head,
        }
    }

    /// `from` moved on to event `to`, each event's seq and envelope (when it has rows) given
    /// to `each` while it answers `true`; answers the fold where it stopped.
    async fn replay(
        &self,
        from: &State,
        to: u64,
        mut each: impl FnMut(u64, Option<String>) -> bool,
    ) -> Result<State, StoreError> {
        let mut state = from.clone();
        read_events(self.store, self.session, from.pos, to, |ev| {
            let env = state.step(ev);
            each(state.pos, env)
        })
        .await?;
        Ok(state)
    }

    /// `f` of the fold at `head`: the tip's, or one folded again from a checkpoint (a
    /// snapshot's head behind the tip).
    async fn at_head<T>(&self, f: impl FnOnce(&State) -> T) -> Result<T, StoreError> {
        let base = self.folded.state_at_or_before(self.head);
        if base.pos == self.head {
            return Ok(f(base));
        }
        let state = self.replay(base, self.head, |_, _| true).await?;
        Ok(f(&state))
    }

    /// The badges after event `head`.
    pub(crate) async fn badges(&self) -> Result<Badges, StoreError> {
        self.at_head(|s| s.fold.badges.clone()).await
    }

    /// The summary after event `head` (of an ended session: `ended`,
    /// [`crate::fold::SessionFold::summary_ended`]).
    pub(crate) async fn summary(&self, ended: bool) -> Result<classifier::Summary, StoreError> {
        self.at_head(|s| s.fold.summary_ended(ended)).await
    }

    /// The redactions up to event `head`, for a human to review before the link is sent:
    /// `{"count", "events", "items": [{"seq", "kind", "preview"}…], "truncated"}`
    /// ([`onefile::Report`]: the export's report, the same shape), and a `note`.
    pub(crate) async fn report(&self) -> Result<contract::share::Review, StoreError> {
        self.at_head(|s| contract::share::Review {
            report: s.report.clone(),
            note: contract::share::REVIEW_NOTE.to_owned(),
        })
        .await
    }

    /// A history page of envelopes `< before` and `<= head` (the shape of `docs/API.md`):
    /// from the newest envelopes, then folded again a checkpoint's stretch at a time,
    /// newest first, until the page is full.
    pub(crate) async fn page(
        &self,
        before: Option<u64>,
        limit: usize,
    ) -> Result<Vec<u8>, StoreError> {
        let hi = before.map_or(self.head + 1, |b| b.min(self.head + 1));
        let mut page = HistoryPage::new(limit);
        // Envelopes of events up to `end` are still to be taken.
        let mut end = hi.saturating_sub(1);
        let f = &self.folded;
        if end > f.recent_from && end <= f.tip.pos {
            for (seq, json) in f.recent.iter().rev().filter(|(seq, _)| *seq <= end) {
                if !page.push(*seq, json) {
                    return Ok(page.finish(self.head));
                }
            }
            end = f.recent_from;
        }
        while end > 0 {
            let i = f.checkpoints.partition_point(|c| c.pos < end);
            let from = &f.checkpoints[i.saturating_sub(1)];
            let mut envs = Vec::new();
            self.replay(from, end, |seq, env| {
                if let Some(json) = env {
                    envs.push((seq, json));
                }
                true
            })
            .await?;
            for (seq, json) in envs.iter().rev() {
                if !page.push(*seq, json) {
                    return Ok(page.finish(self.head));
                }
            }
            end = from.pos;
        }
        Ok(page.finish(self.head))
    }

    /// SSE frames of the envelopes of events `(after, head]`, stopping once they pass
    /// `max` bytes; answers them and the event they reach (`head` when all were taken).
    pub(crate) async fn frames(
        &self,
        after: u64,
        max: usize,
    ) -> Result<(Vec<u8>, u64), StoreError> {
        let mut out = Vec::new();
        if after >= self.head {
            return Ok((out, self.head));
        }
        let f = &self.folded;
        if after >= f.recent_from && self.head <= f.tip.pos {
            for (seq, json) in &f.recent {
                if *seq > after && *seq <= self.head {
                    push_json_frame(&mut out, *seq, json);
                }
            }
            return Ok((out, self.head));
        }
        let from = f.state_at_or_before(after);
        let mut reached = self.head;
        self.replay(from, self.head, |seq, env| {
            if let Some(json) = env.filter(|_| seq > after) {
                push_json_frame(&mut out, seq, &json);
                if out.len() > max {
                    reached = seq;
                    return false;
                }
            }
            true
        })
        .await?;
        Ok((out, reached))
    }
}
