//! The view state as a pure reducer: envelopes in, the list of rows the page shows out.
//!
//! [`apply`] appends one envelope's rows (coalescing in place, de-duplicating by `seq`, turn
//! times paired, bounded), [`prepend`] adds an older page of history, [`set_filter`] changes
//! what is visible. Everything here is plain data, compiled and tested natively; components
//! only read it.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

use classifier::{Level, RowKind, TermEnvelope, TermMsg, row_kind};

use crate::model::layout::HeightIndex;
pub use crate::model::rows::{Filter, Row, Shape, TurnTime, level_index, shape_of};

mod prepend;
pub use prepend::prepend;

/// Pixel height of one line of text; `style/terminal.css` fixes `line-height` to it.
pub const LINE_PX: f32 = 20.0;

/// Most lines of a body the page shows before the body scrolls (`max-height` in the CSS).
pub const BODY_MAX_LINES: usize = 30;

/// Rows held by default; older rows are dropped past it (live sessions run for days).
pub const DEFAULT_MAX_ROWS: usize = 1_000_000;

/// The page's list of rows and everything derived from it.
#[derive(Debug, Clone)]
pub struct ViewState {
    /// All rows held, oldest first. Row at absolute position `p` is `rows[p - base]`.
    rows: VecDeque<Arc<Row>>,
    /// Measured or estimated pixel height of each held row, parallel to `rows`.
    heights: VecDeque<f32>,
    /// Absolute position of `rows[0]`; starts high so older pages can be prepended.
    base: u64,
    /// Absolute positions of the rows that pass the filter, ascending.
    visible: Vec<u64>,
    /// Prefix sums of the visible rows' heights.
    layout: HeightIndex,
    /// What is shown.
    filter: Filter,
    /// Whether bodied rows are open unless the reader toggled them.
    expand: bool,
    /// Rows the reader opened or closed by hand, by uid.
    toggled: HashMap<u64, bool>,
    /// Rows whose whole body the reader asked to see (bodies are drawn cut otherwise: see
    /// [`crate::model::text::body_cut`]), by uid.
    full: std::collections::HashSet<u64>,
    /// Most rows held.
    max_rows: usize,
    next_uid: u64,
    first_seq: Option<u64>,
    last_seq: Option<u64>,
    /// `ts` of the last turn start not yet ended (while appending).
    open_turn: Option<f64>,
    /// Turn starts minus ends seen while appending (drives the banner shimmer).
    in_flight: bool,
    /// Tool names seen, in first-seen order.
    tools: Vec<String>,
    /// Every tool name a row was made with, shared by the rows ([`Row::tool`]).
    tool_names: Vec<Arc<str>>,
    /// Held rows per level.
    counts: [usize; 4],
    /// Bumped whenever the visible list is rebuilt (components re-measure).
    generation: u64,
    /// Rows `(seq, idx)` whose body, left in the file, matches the filter's query (the
    /// worker's search; the held bodies and the summaries are searched here).
    body_hits: HashSet<(u64, u32)>,
}

const BASE: u64 = 1 << 48;

impl Default for ViewState {
    fn default() -> ViewState {
        ViewState::new(DEFAULT_MAX_ROWS)
    }
}

impl ViewState {
    /// An empty view holding at most `max_rows` rows (at least one).
    pub fn new(max_rows: usize) -> ViewState {
        ViewState {
            rows: VecDeque::new(),
            heights: VecDeque::new(),
            base: BASE,
            visible: Vec::new(),
            layout: HeightIndex::default(),
            filter: Filter::default(),
            expand: false,
            toggled: HashMap::new(),
            full: Default::default(),
            max_rows: max_rows.max(1),
            next_uid: 1,
            first_seq: None,
            last_seq: None,
            open_turn: None,
            in_flight: false,
            tools: Vec::new(),
            tool_names: Vec::new(),
            counts: [0; 4],
            generation: 0,
            body_hits: HashSet::new(),
        }
    }

    /// Rows held.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether no row is held.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Rows shown.
    pub fn visible_len(&self) -> usize {
        self.visible.len()
    }

    /// The `n`-th shown row.
    pub fn visible_row(&self, n: usize) -> Option<&Arc<Row>> {
        let p = *self.visible.get(n)?;
        self.rows.get((p - self.base) as usize)
    }

    /// All held rows, oldest first.
    pub fn rows(&self) -> impl Iterator<Item = &Arc<Row>> {
        self.rows.iter()
    }

    /// Pixel offsets of the shown rows.
    pub fn layout(&self) -> &HeightIndex {
        &self.layout
    }

    /// The current filter.
    pub fn filter(&self) -> &Filter {
        &self.filter
    }

    /// Whether bodied rows open by default.
    pub fn expand(&self) -> bool {
        self.expand
    }

    /// Whether a bodied row is open.
    pub fn is_open(&self, uid: u64) -> bool {
        self.toggled.get(&uid).copied().unwrap_or(self.expand)
    }

    /// Whether a row's whole body is drawn (the reader asked for it).
    pub fn is_full(&self, uid: u64) -> bool {
        self.full.contains(&uid)
    }

    /// The reader asked to see a row's whole body.
    pub fn show_full(&mut self, uid: u64) {
        self.full.insert(uid);
    }

    /// Lowest and highest `seq` held.
    pub fn seq_range(&self) -> (Option<u64>, Option<u64>) {
        (self.first_seq, self.last_seq)
    }

    /// Whether a turn is in flight (a start seen without its end).
    pub fn in_flight(&self) -> bool {
        self.in_flight
    }

    /// Tool names seen, in first-seen order.
    pub fn tools(&self) -> &[String] {
        &self.tools
    }

    /// Held rows per level (debug, info, warn, error).
    pub fn counts(&self) -> [usize; 4] {
        self.counts
    }

    /// Changes whenever the visible list is rebuilt rather than appended to.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The shown position of the first row of envelope `seq`, if shown.
    pub fn position_of_seq(&self, seq: u64) -> Option<usize> {
        self.position_in(seq, seq)
    }

    /// The shown position of the first shown row of an envelope in `first..=last`, if any.
    pub fn position_in(&self, first: u64, last: u64) -> Option<usize> {
        let n = self.position_from(first)?;
        let row = self.visible_row(n)?;
        row.seq
            .is_some_and(|s| (first..=last).contains(&s))
            .then_some(n)
    }

    /// The shown position of the first shown row of an envelope at or after `seq`, if one is
    /// held.
    pub fn position_from(&self, seq: u64) -> Option<usize> {
        let n = self.visible.partition_point(|&p| {
            self.rows[(p - self.base) as usize]
                .seq
                .is_some_and(|s| s < seq)
        });
        (n < self.visible.len()).then_some(n)
    }

    /// The next (or previous) shown warn/error row after (before) shown position `from`.
    pub fn next_problem(&self, from: Option<usize>, forward: bool) -> Option<usize> {
        let is_problem = |n: usize| {
            self.visible_row(n)
                .is_some_and(|r| matches!(r.msg.level, Level::Warn | Level::Error))
        };
        let len = self.visible.len();
        if forward {
            let start = from.map_or(0, |f| f + 1);
            (start..len).find(|&n| is_problem(n))
        } else {
            let end = from.unwrap_or(len).min(len);
            (0..end).rev().find(|&n| is_problem(n))
        }
    }

    /// Estimated pixel height of a row before it is measured.
    pub fn estimate(&self, row: &Row) -> f32 {
        let summary_lines = (row.msg.summary.chars().count() / 140 + 1) as f32;
        let lines = match row.shape() {
            Shape::Flat => summary_lines,
            Shape::FlatMarkdown => row.body_lines().max(1) as f32 + 0.5,
            Shape::Details => {
                if self.is_open(row.uid) {
                    summary_lines + row.body_lines().clamp(1, BODY_MAX_LINES) as f32 + 0.5
                } else {
                    summary_lines
                }
            }
        };
        lines * LINE_PX
    }

    /// Records a shown row's measured height. Returns whether it changed.
    pub fn set_height(&mut self, n: usize, px: f32) -> bool {
        let Some(&p) = self.visible.get(n) else {
            return false;
        };
        let i = (p - self.base) as usize;
        if (self.heights[i] - px).abs() < 0.5 {
            return false;
        }
        self.heights[i] = px;
        self.layout.set(n, px);
        true
    }

    /// The reader opened or closed one row by hand.
    pub fn set_open(&mut self, uid: u64, open: bool) {
        if open == self.expand {
            self.toggled.remove(&uid);
        } else {
            self.toggled.insert(uid, open);
        }
    }

    /// Opens or closes every bodied row (the expand-tool-output preference).
    pub fn set_expand(&mut self, expand: bool) {
        self.expand = expand;
        self.toggled.clear();
        self.reestimate();
    }

    fn reestimate(&mut self) {
        let heights: Vec<f32> = self.rows.iter().map(|r| self.estimate(r)).collect();
        self.heights = heights.into();
        self.rebuild_visible();
    }

    fn rebuild_visible(&mut self) {
        self.visible.clear();
        self.layout = HeightIndex::default();
        for (i, row) in self.rows.iter().enumerate() {
            if self.passes(row) {
                self.visible.push(self.base + i as u64);
                self.layout.push(self.heights[i]);
            }
        }
        self.generation += 1;
    }

    fn passes(&self, row: &Row) -> bool {
        let hits = &self.body_hits;
        self.filter
            .passes_with(row, |r| r.seq.is_some_and(|s| hits.contains(&(s, r.idx))))
    }

    /// Rows whose body (left in the file) matches the current query, found by the worker:
    /// those held are shown. Returns whether any held row was shown by it.
    pub fn add_body_hits(&mut self, hits: &[(u64, u32)]) -> bool {
        if self.filter.query.is_empty() {
            return false;
        }
        let before = self.body_hits.len();
        self.body_hits.extend(hits.iter().copied());
        if self.body_hits.len() == before {
            return false;
        }
        let held = hits.iter().any(|&(s, i)| self.holds_lazy(s, i));
        if held {
            self.rebuild_visible();
        }
        held
    }

    /// Whether row `(seq, idx)` is held with its body left in the file (such rows are an
    /// offline log's, all with a `seq`, in order).
    fn holds_lazy(&self, seq: u64, idx: u32) -> bool {
        let i = self.rows.partition_point(|r| r.seq.is_none_or(|s| s < seq));
        self.rows
            .range(i..)
            .take_while(|r| r.seq == Some(seq))
            .any(|r| r.idx == idx && r.lazy.is_some())
    }

    fn make_row(&mut self, seq: Option<u64>, ts: Option<f64>, idx: usize, msg: TermMsg) -> Row {
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
        }
    }

    /// The shared name `t` (a log has a few dozen tools at most: a look along the list).
    fn tool_name(&mut self, t: &str) -> Arc<str> {
        if let Some(n) = self.tool_names.iter().find(|n| ***n == *t) {
            return n.clone();
        }
        let n: Arc<str> = t.into();
        self.tool_names.push(n.clone());
        n
    }

    fn note_tool(&mut self, row: &Row) {
        if let Some(tool) = &row.tool
            && !self.tools.iter().any(|t| **t == **tool)
        {
            self.tools.push(tool.to_string());
        }
    }

    fn push_back(&mut self, row: Row) {
        self.note_tool(&row);
        self.counts[level_index(row.msg.level)] += 1;
        let h = self.estimate(&row);
        let p = self.base + self.rows.len() as u64;
        if self.passes(&row) {
            self.visible.push(p);
            self.layout.push(h);
        }
        self.rows.push_back(Arc::new(row));
        self.heights.push_back(h);
    }

    fn pop_back(&mut self) {
        let p = self.base + self.rows.len() as u64 - 1;
        if self.visible.last() == Some(&p) {
            self.visible.pop();
            self.layout.pop();
        }
        if let Some(row) = self.rows.pop_back() {
            self.counts[level_index(row.msg.level)] -= 1;
        }
        self.heights.pop_back();
    }

    fn evict(&mut self) {
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
}

fn is_repeat(state: &ViewState, env: &TermEnvelope) -> bool {
    matches!((env.seq, state.last_seq), (Some(seq), Some(last)) if seq <= last)
}

/// [`apply`] for an envelope whose rows' bodies were left in the file: `lazy` lists them
/// (`(seq, idx, body lines)`, in order, others' rows among them allowed). The envelope is
/// taken: its rows become the held rows without a copy.
pub fn apply_lazy(
    state: &mut ViewState,
    env: TermEnvelope,
    lazy: &[crate::worker::protocol::Lazy],
) {
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
        match row_kind(&row.msg) {
            RowKind::TurnStart => {
                state.in_flight = true;
                state.open_turn = env.ts;
                row.turn = env.ts.map(|ts| Box::new(TurnTime::Start { ts }));
            }
            k if k.is_turn_end() => {
                state.in_flight = false;
                let dur = match (state.open_turn.take(), env.ts) {
                    (Some(start), Some(end)) if end >= start => Some(end - start),
                    _ => None,
                };
                row.turn = env.ts.map(|ts| Box::new(TurnTime::End { ts, dur }));
            }
            _ => {}
        }
        if let Some(key) = &row.msg.coalesce_key
            && state
                .rows
                .back()
                .is_some_and(|last| last.msg.coalesce_key.as_ref() == Some(key))
        {
            state.pop_back();
        }
        state.push_back(row);
    }
    state.evict();
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

#[cfg(test)]
mod tests;
