//! Navigation as a pure reducer, beside the row reducer ([`crate::model::state`]): which row is
//! current, whether the view follows the tail, a permalink waiting for its rows (and the
//! history paged back to reach it), the rows a permalink or a shift-click selected, and where
//! the scroller must go for each of these.
//!
//! The page feeds it what happened (a scroll, a key, rows arriving, a frame) and does what it
//! answers ([`Scroll`]); nothing here touches the browser, so every rule is tested natively.
//! Positions are places in the shown list (`data-pos`); permalinks are envelope `seq`s.

use crate::model::layout::HeightIndex;
use crate::model::state::{Filter, ViewState, set_filter};

/// Pixels from the bottom within which the view counts as following the tail.
pub const FOLLOW_SLACK_PX: f64 = 40.0;

/// Pixels from the top within which a live view asks for older history.
pub const OLDER_AT_PX: f64 = 400.0;

/// Most history pages fetched to reach a permalink's row before giving up.
pub const MAX_SEEK_PAGES: usize = 50;

/// A permalink: one envelope (`#120`) or a range of them (`#seq=120-180`), inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeqRange {
    /// The first seq.
    pub first: u64,
    /// The last seq (`first` for one envelope).
    pub last: u64,
}

impl SeqRange {
    /// One envelope.
    pub fn one(seq: u64) -> SeqRange {
        SeqRange {
            first: seq,
            last: seq,
        }
    }

    /// The range between two seqs, in either order.
    pub fn between(a: u64, b: u64) -> SeqRange {
        SeqRange {
            first: a.min(b),
            last: a.max(b),
        }
    }

    /// Reads a URL fragment: `#120`, `#seq=120` or `#seq=120-180` (the `#` optional).
    pub fn parse(hash: &str) -> Option<SeqRange> {
        let h = hash.trim_start_matches('#');
        let h = h.strip_prefix("seq=").unwrap_or(h);
        match h.split_once('-') {
            None => h.parse().ok().map(SeqRange::one),
            Some((a, b)) => Some(SeqRange::between(a.parse().ok()?, b.parse().ok()?)),
        }
    }

    /// The URL fragment: `#120` for one envelope, `#seq=120-180` for a range.
    pub fn hash(self) -> String {
        if self.first == self.last {
            format!("#{}", self.first)
        } else {
            format!("#seq={}-{}", self.first, self.last)
        }
    }

    /// Whether `seq` is in the range.
    pub fn contains(self, seq: u64) -> bool {
        (self.first..=self.last).contains(&seq)
    }
}

/// The scroller's visible part, in content pixels.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Viewport {
    /// Scroll offset of the top edge.
    pub top: f64,
    /// Visible height.
    pub height: f64,
}

/// What the scroller must do.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scroll {
    /// Nothing.
    Stay,
    /// Scroll so this content offset is at the top.
    To(f64),
    /// Scroll to the very end (the tail, and the preview row after the list).
    Bottom,
}

/// A key the page handles (outside text fields, without modifiers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// `j`: the next row.
    Down,
    /// `k`: the previous row.
    Up,
    /// `n`: the next warning or error.
    NextProblem,
    /// `N`: the previous warning or error.
    PrevProblem,
    /// `/`: focus the search box.
    Search,
    /// `e`: toggle expanding tool output.
    Expand,
    /// `G`: jump to the latest row and follow the tail.
    Latest,
    /// `c`: copy a link to the current row (or the selected range).
    CopyLink,
    /// `a`: write a note on the current row (or the selected range).
    Note,
}

impl Key {
    /// The key of a `KeyboardEvent.key`, if the page handles it.
    pub fn of(key: &str) -> Option<Key> {
        Some(match key {
            "j" => Key::Down,
            "k" => Key::Up,
            "n" => Key::NextProblem,
            "N" => Key::PrevProblem,
            "/" => Key::Search,
            "e" => Key::Expand,
            "G" => Key::Latest,
            "c" => Key::CopyLink,
            "a" => Key::Note,
            _ => return None,
        })
    }
}

/// The navigation state.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Nav {
    current: Option<usize>,
    follow: bool,
    pending: Option<SeqRange>,
    selection: Option<SeqRange>,
}

impl Nav {
    /// A new view: a live one follows its tail; `permalink` is the URL's `#seq`, if any.
    pub fn new(follow: bool, permalink: Option<SeqRange>) -> Nav {
        Nav {
            current: None,
            follow,
            pending: permalink,
            selection: permalink.filter(|p| p.first != p.last),
        }
    }

    /// The reader's current row.
    pub fn current(&self) -> Option<usize> {
        self.current
    }

    /// Whether the view follows the tail.
    pub fn follows(&self) -> bool {
        self.follow
    }

    /// A permalink whose rows are not held yet.
    pub fn pending(&self) -> Option<SeqRange> {
        self.pending
    }

    /// The selected range of envelopes (highlighted), if any.
    pub fn selection(&self) -> Option<SeqRange> {
        self.selection
    }

    /// The scroller moved (by the reader or by the page; in its own pixels, `scroll_height`
    /// its content height): the view follows the tail when its
    /// bottom is within [`FOLLOW_SLACK_PX`] of the end.
    /// Answers whether that changed it.
    pub fn scrolled(&mut self, vp: Viewport, scroll_height: f64) -> bool {
        let follow = vp.top + vp.height >= scroll_height - FOLLOW_SLACK_PX;
        std::mem::replace(&mut self.follow, follow) != follow
    }

    /// The list (or the preview row after it) grew or was re-measured: whether to queue a
    /// frame that follows the tail ([`Nav::tail_frame`]).
    pub fn grew(&self) -> bool {
        self.follow
    }

    /// A queued tail frame runs: the end, only if the view still follows it (a permalink
    /// revealed since the frame was queued stops following and must not be scrolled away
    /// from).
    pub fn tail_frame(&self) -> Scroll {
        if self.follow {
            Scroll::Bottom
        } else {
            Scroll::Stay
        }
    }

    /// "jump to latest" or `G`: follow the tail again.
    pub fn jump_latest(&mut self) -> Scroll {
        self.follow = true;
        Scroll::Bottom
    }

    /// Makes row `n` current and brings it into view: when it is not already visible, the
    /// view stops following and scrolls it to a third of the way down.
    pub fn reveal(&mut self, n: usize, lay: &HeightIndex, vp: Viewport) -> Scroll {
        self.current = Some(n);
        let y = lay.offset(n);
        let h = f64::from(lay.height(n));
        if y < vp.top || y + h.min(vp.height / 2.0) > vp.top + vp.height {
            self.follow = false;
            Scroll::To((y - vp.height / 3.0).max(0.0))
        } else {
            Scroll::Stay
        }
    }

    /// The row a key moves to, if it moves to one (`j`, `k`, `n`, `N`); reveal it.
    pub fn target(&self, key: Key, state: &ViewState) -> Option<usize> {
        let len = state.visible_len();
        let cur = self.current;
        match key {
            Key::Down if len > 0 => Some(cur.map_or(0, |c| (c + 1).min(len - 1))),
            Key::Up if len > 0 => Some(cur.map_or(0, |c| c.saturating_sub(1))),
            Key::NextProblem => state.next_problem(cur, true),
            Key::PrevProblem => state.next_problem(cur, false),
            _ => None,
        }
    }

    /// Applies a filter. Only a changed filter rebuilds the list and forgets the current row
    /// (its position means another row now): the same filter again — the debounced search's
    /// first run after load — keeps a permalink's row current.
    pub fn filter(&mut self, state: &mut ViewState, filter: Filter) {
        if *state.filter() != filter {
            set_filter(state, filter);
            self.current = None;
        }
    }

    /// Rows arrived: the position of a pending permalink's first shown row, once held. The
    /// permalink is then done; reveal that row (on the next frame, once it is laid out).
    ///
    /// A permalink whose lines give no shown row (bookkeeping lines, state changes: a range
    /// link written by hand, or to a line of the raw log) goes to the first shown row after
    /// it, once one is held and no row of it can still come: the view holds its log from the
    /// start (`from_start`: an offline log or an export, read in order) or from a row at or
    /// before the permalink (a live view paged back to it). A range stays selected.
    pub fn found(&mut self, state: &ViewState, from_start: bool) -> Option<usize> {
        let want = self.pending?;
        let n = state.position_in(want.first, want.last).or_else(|| {
            let before_held = from_start || state.seq_range().0.is_some_and(|f| f <= want.first);
            let after = want.last.checked_add(1)?;
            before_held.then(|| state.position_from(after)).flatten()
        })?;
        self.pending = None;
        Some(n)
    }

    /// Goes to envelope `seq` as its permalink would (the summary's "first error"): pending
    /// until its row is held ([`Nav::found`]), a selection dropped, the tail no longer
    /// followed.
    pub fn goto(&mut self, seq: u64) {
        self.pending = Some(SeqRange::one(seq));
        self.selection = None;
        self.follow = false;
    }

    /// Goes to a range as its `#seq=A-B` link would (a note's): pending until its first row
    /// is held, then selected (a range) and revealed; the tail no longer followed.
    pub fn goto_range(&mut self, range: SeqRange) {
        self.pending = Some(range);
        self.selection = (range.first != range.last).then_some(range);
        self.follow = false;
    }

    /// `before` of the next history page to fetch to reach a pending permalink: while its
    /// first seq is older than every held row and the server has older pages.
    pub fn seek_before(&self, state: &ViewState, next_before: Option<u64>) -> Option<u64> {
        let want = self.pending?;
        let held = state.seq_range().0.is_some_and(|f| f <= want.first);
        if held { None } else { next_before }
    }

    /// Whether a live view scrolled near its top should fetch the next older page.
    pub fn wants_older(vp: Viewport) -> bool {
        vp.top < OLDER_AT_PX
    }

    /// An older page of `added` shown rows was put before the list: the current row moved.
    pub fn prepended(&mut self, added: usize) {
        if let Some(c) = &mut self.current {
            *c += added;
        }
    }

    /// A click on row `n` (envelope `seq`): it becomes current; with shift, the selection
    /// runs from the current row's envelope to this one. Answers the URL fragment to show.
    pub fn click(
        &mut self,
        n: usize,
        seq: Option<u64>,
        shift: bool,
        state: &ViewState,
    ) -> Option<String> {
        let seq = seq?;
        let anchor = self
            .current
            .and_then(|c| state.visible_row(c))
            .and_then(|r| r.seq)
            .filter(|_| shift);
        self.current = Some(n);
        let range = match anchor {
            Some(a) => SeqRange::between(a, seq),
            None => SeqRange::one(seq),
        };
        self.selection = (range.first != range.last).then_some(range);
        Some(range.hash())
    }

    /// The link the reader copies: the selected range, else the current row's envelope.
    pub fn link(&self, state: &ViewState) -> Option<SeqRange> {
        self.selection.or_else(|| {
            let seq = state.visible_row(self.current?)?.seq?;
            Some(SeqRange::one(seq))
        })
    }

    /// A row was revealed by a key or a search jump: a one-row link replaces a selection.
    pub fn deselect(&mut self) {
        self.selection = None;
    }

    /// Another log is shown (or none): nothing is current, followed, selected or pending,
    /// except `permalink` (a kept log reopened at its `#seq`).
    pub fn reset(&mut self, follow: bool, permalink: Option<SeqRange>) {
        *self = Nav::new(follow, permalink);
    }
}

#[cfg(test)]
mod tests;
