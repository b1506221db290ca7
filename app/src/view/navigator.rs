//! [`Navigator`]: the row list's scroller and the navigation reducer together — the one place
//! where the reducer's answers ([`Scroll`]) move the scroller and permalinks reach the URL.
//! The reducer speaks in content offsets (the rows' layout); the scroller's own offsets differ
//! once the rows are taller than a browser can draw ([`ScrollMap`]).

use leptos::html;
use leptos::prelude::*;

use crate::browser;
use crate::model::layout::ScrollMap;
use crate::model::nav::{Key, Nav, Scroll, SeqRange, Viewport};
use crate::model::state::ViewState;

/// The list's scroller and what moves it.
#[derive(Clone, Copy)]
pub struct Navigator {
    /// The rows.
    pub state: RwSignal<ViewState>,
    /// Current row, tail-following, permalink, selection.
    pub nav: RwSignal<Nav>,
    /// The scrolling element.
    pub scroller: NodeRef<html::Div>,
}

impl Navigator {
    /// A navigator over new signals, following the tail or not, at the URL's permalink.
    pub fn new(state: RwSignal<ViewState>, follow: bool) -> Navigator {
        Navigator {
            state,
            nav: RwSignal::new(Nav::new(follow, browser::permalink())),
            scroller: NodeRef::new(),
        }
    }

    /// The scroller's map for the rows held now.
    pub fn map(&self) -> ScrollMap {
        let total = self.state.with_untracked(|s| s.layout().total());
        let vh = self
            .scroller
            .get_untracked()
            .map_or(0.0, |sc| f64::from(sc.client_height()));
        ScrollMap::new(total, vh, browser::max_scroll_px())
    }

    /// The viewport, in content offsets.
    fn viewport(&self) -> Viewport {
        let map = self.map();
        self.scroller
            .get_untracked()
            .map(|sc| Viewport {
                top: map.to_content(f64::from(sc.scroll_top())),
                height: f64::from(sc.client_height()),
            })
            .unwrap_or_default()
    }

    /// Moves the scroller as the reducer answered.
    pub fn scroll(&self, to: Scroll) {
        let Some(sc) = self.scroller.get_untracked() else {
            return;
        };
        match to {
            Scroll::Stay => {}
            Scroll::To(y) => sc.set_scroll_top(self.map().to_scroll(y).round() as i32),
            Scroll::Bottom => sc.set_scroll_top(sc.scroll_height()),
        }
    }

    /// Runs `change`, which puts the `dy` px of content it answers above the view (older
    /// rows, re-measured ones), and keeps the view on the same rows.
    pub fn keep_in_place(&self, change: impl FnOnce() -> f64) {
        let top = self.viewport().top;
        let dy = change();
        if dy != 0.0 {
            self.scroll(Scroll::To(top + dy));
        }
    }

    /// Makes row `n` current, in view, and the URL's permalink (one row: a selection goes).
    pub fn reveal(&self, n: usize) {
        self.nav.update(Nav::deselect);
        let seq = self
            .state
            .with_untracked(|s| s.visible_row(n).and_then(|r| r.seq));
        self.show(n, seq.map(SeqRange::one));
    }

    /// Makes row `n` current and in view, with `link` in the URL.
    fn show(&self, n: usize, link: Option<SeqRange>) {
        let vp = self.viewport();
        let to = self
            .state
            .with_untracked(|s| self.nav.try_update(|nav| nav.reveal(n, s.layout(), vp)));
        self.scroll(to.unwrap_or(Scroll::Stay));
        if let Some(link) = link {
            browser::set_permalink(link);
        }
    }

    /// Reveals a permalink's first row, once its rows are held; a range stays selected.
    pub fn reveal_permalink(&self, n: usize, link: SeqRange) {
        let one = self
            .state
            .with_untracked(|s| s.visible_row(n).and_then(|r| r.seq))
            .map(SeqRange::one);
        let keep = self.nav.with_untracked(Nav::selection).is_some();
        self.show(n, if keep { Some(link) } else { one });
    }

    /// Goes to envelope `seq`'s first shown row, as its `#seq` link would: revealed (and put
    /// in the URL) as soon as it is held and laid out.
    pub fn goto(&self, seq: u64) {
        self.nav.update(|n| n.goto(seq));
    }

    /// Goes to a range as its `#seq=A-B` link would (a note's), selected once held.
    pub fn goto_range(&self, range: SeqRange) {
        self.nav.update(|n| n.goto_range(range));
    }

    /// A key the list handles (`j`, `k`, `n`, `N`, `G`, `c`); answers whether it did.
    pub fn key(&self, key: Key) -> bool {
        match key {
            Key::Latest => self.jump_latest(),
            Key::CopyLink => self.copy_link(),
            Key::Note => return false,
            _ => {
                let to = self
                    .state
                    .with_untracked(|s| self.nav.with_untracked(|nav| nav.target(key, s)));
                match to {
                    Some(n) => self.reveal(n),
                    None => return matches!(key, Key::Down | Key::Up),
                }
            }
        }
        true
    }

    /// Follows the tail again.
    pub fn jump_latest(&self) {
        let to = self.nav.try_update(Nav::jump_latest);
        self.scroll(to.unwrap_or(Scroll::Stay));
    }

    /// The selected range, else the current row's envelope (what a link or a note is on).
    pub fn link(&self) -> Option<SeqRange> {
        self.state
            .with_untracked(|s| self.nav.with_untracked(|nav| nav.link(s)))
    }

    /// Copies a link to the selected range or the current row.
    pub fn copy_link(&self) {
        let link = self
            .state
            .with_untracked(|s| self.nav.with_untracked(|nav| nav.link(s)));
        if let Some(link) = link {
            browser::set_permalink(link);
            browser::copy_text(&browser::link_url(link));
        }
    }

    /// A click on row `n`: current; with shift, the range from the current row selected.
    pub fn click(&self, n: usize, shift: bool) {
        let hash = self.state.with_untracked(|s| {
            let seq = s.visible_row(n).and_then(|r| r.seq);
            self.nav
                .try_update(|nav| nav.click(n, seq, shift, s))
                .flatten()
        });
        if let Some(link) = hash.as_deref().and_then(SeqRange::parse) {
            browser::set_permalink(link);
        }
    }
}
