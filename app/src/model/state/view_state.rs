//! The view state's data: the rows held, their heights, what is visible, and what the
//! reader opened; read by the components, changed by the reducers beside it.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

use crate::model::layout::HeightIndex;
use classifier::Level;

use crate::model::nest::{Block, End, display_order};
use crate::model::rows::{Filter, Row, Shape};

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
    pub(super) rows: VecDeque<Arc<Row>>,
    /// Measured or estimated pixel height of each held row, parallel to `rows`.
    pub(super) heights: VecDeque<f32>,
    /// Absolute position of `rows[0]`; starts high so older pages can be prepended.
    pub(super) base: u64,
    /// Absolute positions of the rows that pass the filter, ascending.
    pub(super) visible: Vec<u64>,
    /// Prefix sums of the visible rows' heights.
    pub(super) layout: HeightIndex,
    /// What is shown.
    pub(super) filter: Filter,
    /// Whether bodied rows are open unless the reader toggled them.
    pub(super) expand: bool,
    /// Rows the reader opened or closed by hand, by uid.
    pub(super) toggled: HashMap<u64, bool>,
    /// Rows whose whole body the reader asked to see (bodies are drawn cut otherwise: see
    /// [`crate::model::text::body_cut`]), by uid.
    pub(super) full: std::collections::HashSet<u64>,
    /// Most rows held.
    pub(super) max_rows: usize,
    pub(super) next_uid: u64,
    pub(super) first_seq: Option<u64>,
    pub(super) last_seq: Option<u64>,
    /// The main agent's turns started and not yet ended, oldest first, with their start's
    /// `ts`: runs pair first in, first out (a second run may start while one is open); the
    /// banner shimmers while any is.
    pub(super) open_turns: VecDeque<Option<f64>>,
    /// Subagents' blocks by the `seq` of their call's envelope ([`crate::model::nest`]).
    pub(super) blocks: HashMap<u64, Block>,
    /// Blocks the reader opened or closed by hand, by call seq (else the expand preference).
    pub(super) blocks_toggled: HashMap<u64, bool>,
    /// How each subagent ended as the log's summary says, by its call's envelope.
    pub(super) subagent_ends: HashMap<u64, End>,
    /// Absolute position of the last `⚙ conversation reset` row: the rows before it are folded
    /// away under it unless `earlier_open`.
    pub(super) reset: Option<u64>,
    /// The reader opened the rows before the last conversation reset.
    pub(super) earlier_open: bool,
    /// A nested row was added since the shown list was last built: [`ViewState::settle`]
    /// builds it again (once per batch of envelopes, not once per row).
    pub(super) dirty: bool,
    /// Rows held when the shown list was last built ([`ViewState::settle_bulk`]).
    pub(super) built_len: usize,
    /// Tool names seen, in first-seen order.
    pub(super) tools: Vec<String>,
    /// Every tool name a row was made with, shared by the rows ([`Row::tool`]).
    pub(super) tool_names: Vec<Arc<str>>,
    /// Held rows per level.
    pub(super) counts: [usize; 4],
    /// Bumped whenever the visible list is rebuilt (components re-measure).
    pub(super) generation: u64,
    /// Rows `(seq, idx)` whose body, left in the file, matches the filter's query (the
    /// worker's search; the held bodies and the summaries are searched here).
    pub(super) body_hits: HashSet<(u64, u32)>,
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
            open_turns: VecDeque::new(),
            blocks: HashMap::new(),
            blocks_toggled: HashMap::new(),
            subagent_ends: HashMap::new(),
            dirty: false,
            built_len: 0,
            reset: None,
            earlier_open: false,
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
        !self.open_turns.is_empty()
    }

    /// Main-agent turns in flight (two overlapping runs: 2).
    pub fn turns_in_flight(&self) -> usize {
        self.open_turns.len()
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
        if self.nested() {
            // Shown out of seq order: the shown row of the lowest seq at or after `seq`.
            return (0..self.visible.len())
                .filter_map(|n| Some((self.visible_row(n)?.seq?, n)))
                .filter(|(s, _)| *s >= seq)
                .min()
                .map(|(_, n)| n);
        }
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
        self.blocks_toggled.clear();
        self.reestimate();
    }

    pub(super) fn reestimate(&mut self) {
        let heights: Vec<f32> = self.rows.iter().map(|r| self.estimate(r)).collect();
        self.heights = heights.into();
        self.rebuild_visible();
    }

    pub(super) fn rebuild_visible(&mut self) {
        self.visible.clear();
        self.layout = HeightIndex::default();
        self.dirty = false;
        self.built_len = self.rows.len();
        // Rows before the last conversation reset, folded away unless opened.
        let first = match self.reset {
            Some(r) if !self.earlier_open => (r - self.base) as usize,
            _ => 0,
        };
        if self.blocks.is_empty() {
            for (i, row) in self.rows.iter().enumerate().skip(first) {
                if self.passes(row) {
                    self.visible.push(self.base + i as u64);
                    self.layout.push(self.heights[i]);
                }
            }
        } else {
            let order = display_order(self.rows.iter().map(|r| &**r), |s| self.is_block_open(s));
            for i in order.into_iter().filter(|&i| i >= first) {
                if self.passes(&self.rows[i]) {
                    self.visible.push(self.base + i as u64);
                    self.layout.push(self.heights[i]);
                }
            }
        }
        self.generation += 1;
    }

    pub(super) fn passes(&self, row: &Row) -> bool {
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
    pub(super) fn holds_lazy(&self, seq: u64, idx: u32) -> bool {
        let i = self.rows.partition_point(|r| r.seq.is_none_or(|s| s < seq));
        self.rows
            .range(i..)
            .take_while(|r| r.seq == Some(seq))
            .any(|r| r.idx == idx && r.lazy.is_some())
    }
}
