//! The reducers: envelopes appended ([`apply`], [`apply_lazy`]: coalescing in place,
//! de-duplicating by `seq`, turn times paired, bounded), the filter set, the view cleared.

use std::sync::Arc;

use classifier::{RowKind, TermEnvelope, TermMsg, row_kind};

use crate::model::nest::Block;
use crate::model::rows::{Filter, Row, TurnTime, level_index};
use crate::model::state::view_state::ViewState;
use crate::worker::protocol::Lazy;

impl ViewState {
    pub(super) fn make_row(
        &mut self,
        seq: Option<u64>,
        ts: Option<f64>,
        idx: usize,
        msg: TermMsg,
    ) -> Row {
        let uid = self.next_uid;
        self.next_uid += 1;
        Row {
            uid,
            seq,
            idx: idx as u32,
            ts,
            tool: classifier::tool_of(&msg).map(|t| self.tool_name(t)),
            msg,
            turn: None,
            lazy: None,
            parent: None,
            depth: 0,
        }
    }

    /// The held rows of envelope `seq` (rows are held in seq order).
    pub(super) fn rows_of(&self, seq: u64) -> impl Iterator<Item = &Arc<Row>> {
        let i = self.rows.partition_point(|r| r.seq.is_none_or(|s| s < seq));
        self.rows.range(i..).take_while(move |r| r.seq == Some(seq))
    }

    /// A subagent's row (its envelope's `parent`): its depth, and its block counts it.
    fn nest(&mut self, row: &mut Row, parent: u64) {
        row.parent = Some(parent);
        if !self.blocks.contains_key(&parent) {
            let call = self
                .rows_of(parent)
                .find(|r| row_kind(&r.msg) == RowKind::ToolCall)
                .cloned();
            let depth = self.rows_of(parent).next().map_or(0, |r| r.depth) + 1;
            self.blocks
                .insert(parent, Block::new(depth, call.as_deref()));
        }
        let block = self.blocks.get_mut(&parent).expect("just made");
        row.depth = block.depth;
        block.add(row);
    }

    /// The blocks again from the rows held (after rows were dropped or put before).
    pub(super) fn rebuild_blocks(&mut self) {
        if self.blocks.is_empty() && self.rows.iter().all(|r| r.parent.is_none()) {
            return;
        }
        self.blocks.clear();
        let rows: Vec<Arc<Row>> = self.rows.iter().cloned().collect();
        for (i, r) in rows.iter().enumerate() {
            if let Some(p) = r.parent {
                let mut row = (**r).clone();
                self.nest(&mut row, p);
                if row.depth != r.depth {
                    self.rows[i] = Arc::new(row);
                }
            }
        }
    }

    /// The shared name `t` (a log has a few dozen tools at most: a look along the list).
    pub(super) fn tool_name(&mut self, t: &str) -> Arc<str> {
        if let Some(n) = self.tool_names.iter().find(|n| ***n == *t) {
            return n.clone();
        }
        let n: Arc<str> = t.into();
        self.tool_names.push(n.clone());
        n
    }

    pub(super) fn note_tool(&mut self, row: &Row) {
        if let Some(tool) = &row.tool
            && !self.tools.iter().any(|t| **t == **tool)
        {
            self.tools.push(tool.to_string());
        }
    }

    pub(super) fn push_back(&mut self, row: Row) {
        self.note_tool(&row);
        self.counts[level_index(row.msg.level)] += 1;
        let h = self.estimate(&row);
        let p = self.base + self.rows.len() as u64;
        let reset = row.parent.is_none() && row_kind(&row.msg) == RowKind::ConversationReset;
        if reset {
            // The rows before it are folded away under it.
            self.reset = Some(p);
            self.earlier_open = false;
        }
        if row.parent.is_some() || self.dirty || reset {
            // Shown under its call, not at the end: the list is built again once settled.
            self.dirty = true;
        } else if self.passes(&row) {
            self.visible.push(p);
            self.layout.push(h);
        }
        self.rows.push_back(Arc::new(row));
        self.heights.push_back(h);
    }

    pub(super) fn pop_back(&mut self) {
        let p = self.base + self.rows.len() as u64 - 1;
        if self.visible.last() == Some(&p) {
            self.visible.pop();
            self.layout.pop();
        } else if self.nested() {
            self.dirty = true;
        }
        if let Some(row) = self.rows.pop_back() {
            self.counts[level_index(row.msg.level)] -= 1;
        }
        self.heights.pop_back();
    }

    pub(super) fn evict(&mut self) {
        if self.rows.len() <= self.max_rows {
            return;
        }
        // Drop a tenth at once so eviction costs O(1) per row on average.
        let target = self.max_rows - self.max_rows / 10;
        while self.rows.len() > target {
            if let Some(row) = self.rows.pop_front() {
                self.counts[level_index(row.msg.level)] -= 1;
                self.toggled.remove(&row.uid);
                self.full.remove(&row.uid);
            }
            self.heights.pop_front();
            self.base += 1;
        }
        self.first_seq = self.rows.iter().find_map(|r| r.seq);
        if self.reset.is_some_and(|r| r < self.base) {
            self.reset = None;
        }
        self.rebuild_blocks();
        self.rebuild_visible();
    }
}

/// Appends one envelope's rows. A row with a `coalesce_key` replaces the last row when that
/// one has the same key (it is still last by construction). An envelope whose `seq` is not
/// above every seq held is a repeat and is ignored. Turn rows get their times; the end of a
/// turn pairs with the last open start.
pub fn apply(state: &mut ViewState, env: &TermEnvelope) {
    if is_repeat(state, env) {
        return;
    }
    apply_lazy(state, env.clone(), &[]);
    state.settle();
}

fn is_repeat(state: &ViewState, env: &TermEnvelope) -> bool {
    matches!((env.seq, state.last_seq), (Some(seq), Some(last)) if seq <= last)
}

/// [`apply`] for an envelope whose rows' bodies were left in the file: `lazy` lists them
/// (`(seq, idx, body lines)`, in order, others' rows among them allowed). The envelope is
/// taken: its rows become the held rows without a copy. A subagent's rows (nested under their
/// call) are shown once the batch is settled: call [`ViewState::settle`] after the batch.
pub fn apply_lazy(state: &mut ViewState, env: TermEnvelope, lazy: &[Lazy]) {
    if is_repeat(state, &env) {
        return;
    }
    if let Some(seq) = env.seq {
        state.last_seq = Some(seq);
        state.first_seq.get_or_insert(seq);
    }
    let mine = match env.seq {
        Some(seq) => {
            let from = lazy.partition_point(|l| l.0 < seq);
            &lazy[from..from + lazy[from..].partition_point(|l| l.0 == seq)]
        }
        None => &[],
    };
    for (idx, msg) in env.msgs.into_iter().enumerate() {
        let mut row = state.make_row(env.seq, env.ts, idx, msg);
        if row.msg.body.is_none() {
            row.lazy = mine.iter().find(|l| l.1 as usize == idx).map(|l| l.2);
        }
        match env.parent {
            // A subagent's turns are its block's, not the session's.
            Some(parent) => state.nest(&mut row, parent),
            None => turn_time(state, &mut row, env.ts),
        }
        if let Some(key) = &row.msg.coalesce_key
            && state.rows.back().is_some_and(|last| {
                last.msg.coalesce_key.as_ref() == Some(key) && last.parent == row.parent
            })
        {
            state.pop_back();
        }
        state.push_back(row);
    }
    state.evict();
}

/// A main-agent turn row's time: a start opens a turn (runs may overlap), an end or an
/// interruption closes the oldest open one. A turn end whose line said the turn's own duration
/// shows that on its summary (`turn ok · 375ms`), so its time here is the clock only; else the
/// duration since the start it closes.
fn turn_time(state: &mut ViewState, row: &mut Row, ts: Option<f64>) {
    let kind = row_kind(&row.msg);
    if kind == RowKind::TurnStart {
        state.open_turns.push_back(ts);
        row.turn = ts.map(|ts| Box::new(TurnTime::Start { ts }));
    } else if kind.ends_turn() {
        let start = state.open_turns.pop_front().flatten();
        let dur = match (start, ts) {
            _ if classifier::turn_duration(&row.msg).is_some() => None,
            (Some(start), Some(end)) if end >= start => Some(end - start),
            _ => None,
        };
        row.turn = ts.map(|ts| Box::new(TurnTime::End { ts, dur }));
    }
}

/// Replaces the filter and rebuilds the visible list.
pub fn set_filter(state: &mut ViewState, filter: Filter) {
    if state.filter != filter {
        if state.filter.query != filter.query {
            state.body_hits.clear();
        }
        state.filter = filter;
        state.rebuild_visible();
    }
}

/// Empties the view (a new file was dropped).
pub fn clear(state: &mut ViewState) {
    let filter = state.filter.clone();
    let expand = state.expand;
    let next_uid = state.next_uid;
    *state = ViewState::new(state.max_rows);
    state.filter = filter;
    state.expand = expand;
    state.next_uid = next_uid;
    state.generation = next_uid;
}
