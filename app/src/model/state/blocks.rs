//! The view state's subagent blocks and the earlier conversation folded under a reset, as
//! the components read and toggle them ([`crate::model::nest`] holds what a block is).

use crate::model::nest::{Block, End};
use crate::model::rows::Row;
use crate::model::state::view_state::ViewState;

impl ViewState {
    /// The subagent block started by the call in envelope `seq`, if any.
    pub fn block(&self, seq: u64) -> Option<&Block> {
        self.blocks.get(&seq)
    }

    /// A row's block, when it is the last row of the call envelope that started one: the
    /// block's one-line summary and whether it is open (what the call row draws).
    pub fn block_of(&self, row: &Row) -> Option<(String, bool)> {
        if let Some(r) = self.reset
            && self
                .rows
                .get((r - self.base) as usize)
                .is_some_and(|x| x.uid == row.uid)
        {
            let line = match r - self.base {
                1 => "earlier conversation · 1 row".to_owned(),
                n => format!("earlier conversation · {n} rows"),
            };
            return Some((line, self.earlier_open));
        }
        let seq = row.seq?;
        let block = self.blocks.get(&seq)?;
        let i = self.rows.partition_point(|r| r.seq.is_none_or(|s| s < seq));
        let last = self
            .rows
            .range(i..)
            .take_while(|r| r.seq == Some(seq))
            .last()?;
        if last.uid != row.uid {
            return None;
        }
        // How it ended: as its rows say (a turn end), else as the log's summary says (its
        // call's result, a task notification: a stream-json subagent has no turn rows).
        let line = match (block.end, self.subagent_ends.get(&seq)) {
            (None, Some(&end)) => Block {
                end: Some(end),
                ..block.clone()
            }
            .line(),
            _ => block.line(),
        };
        Some((line, self.is_block_open(seq)))
    }

    /// Whether the subagents' ends are `ends` already.
    pub fn has_subagent_ends(&self, ends: &[(u64, End)]) -> bool {
        ends.len() == self.subagent_ends.len()
            && ends
                .iter()
                .all(|(s, e)| self.subagent_ends.get(s) == Some(e))
    }

    /// How each subagent ended, by its call's envelope, as the log's summary says
    /// ([`classifier::SubagentSummary::ended`]); the blocks' lines show it where their rows
    /// say nothing.
    pub fn set_subagent_ends(&mut self, ends: &[(u64, End)]) {
        if ends.len() == self.subagent_ends.len()
            && ends
                .iter()
                .all(|(s, e)| self.subagent_ends.get(s) == Some(e))
        {
            return;
        }
        // Only the block lines read them (`block_of`, drawn again when their text changes):
        // the shown list and its heights stay. (Building the list again here cost a pass over
        // every row held at each new summary: 8 of the 11 s a 1 GB Gemini recording with
        // 12,000 subagents took to open.)
        self.subagent_ends = ends.iter().copied().collect();
    }

    /// The reader clicked the block toggle of shown row `n`: a call's subagent block, or the
    /// earlier conversation folded under a reset, opened or closed.
    pub fn toggle_block_at(&mut self, n: usize) {
        let Some(&p) = self.visible.get(n) else {
            return;
        };
        if self.reset == Some(p) {
            self.earlier_open = !self.earlier_open;
            self.rebuild_visible();
        } else if let Some(seq) = self.rows[(p - self.base) as usize].seq {
            let open = self.is_block_open(seq);
            self.set_block_open(seq, !open);
        }
    }

    /// Whether the block of the call in envelope `seq` is shown open.
    pub fn is_block_open(&self, seq: u64) -> bool {
        self.blocks_toggled
            .get(&seq)
            .copied()
            .unwrap_or(self.expand)
    }

    /// The reader opened or closed a subagent's block.
    pub fn set_block_open(&mut self, seq: u64, open: bool) {
        if open == self.expand {
            self.blocks_toggled.remove(&seq);
        } else {
            self.blocks_toggled.insert(seq, open);
        }
        self.rebuild_visible();
    }

    /// Builds the shown list again if nested rows came since it was built (the reducers of a
    /// batch leave that to its end: [`crate::model::state::apply`] settles each envelope).
    pub fn settle(&mut self) {
        if self.dirty {
            self.rebuild_visible();
        }
    }

    /// [`ViewState::settle`] for a log read in bulk, a chunk at a time (`done`: no chunk is to
    /// come): the list is built again once the rows held grew by a quarter since it was last
    /// built, while nothing is shown yet, and at the end. Building it is a pass over every row
    /// held, so building it at every chunk of a long log with subagents took time that grew
    /// with the square of its rows (a 1.16 GB transcript with 6,600 subagents: 2.5 s of the 7 s
    /// to open it); this way the passes add up to a few times the rows. Nested rows that came
    /// since show at the next build.
    pub fn settle_bulk(&mut self, done: bool) {
        let grown = self.rows.len() >= self.built_len + self.built_len / 4;
        if self.dirty && (done || grown || self.visible.is_empty()) {
            self.rebuild_visible();
        }
    }

    /// Whether the shown list may not be in `seq` order (subagents' blocks are shown under
    /// their calls).
    pub(super) fn nested(&self) -> bool {
        !self.blocks.is_empty()
    }
}
