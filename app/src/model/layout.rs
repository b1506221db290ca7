//! Where each shown row sits, for the virtualised list: heights and their prefix sums.
//!
//! Heights are kept in blocks of [`BLOCK`] rows with a running sum per block, so finding the
//! row at a scroll offset, or the offset of a row, costs a scan over blocks (a few thousand
//! for a million rows) and updating one height costs O(1).

use std::ops::Range;

/// Rows per block.
pub const BLOCK: usize = 256;

/// Pixels rendered above and below the viewport.
pub const OVERSCAN: f64 = 600.0;

/// Most rows rendered at once.
pub const MAX_WINDOW: usize = 400;

/// Heights of a list of rows, with fast offset lookups.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HeightIndex {
    heights: Vec<f32>,
    blocks: Vec<f64>,
    total: f64,
}

impl HeightIndex {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.heights.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.heights.is_empty()
    }

    /// Sum of all heights.
    pub fn total(&self) -> f64 {
        self.total
    }

    /// Height of row `n`.
    pub fn height(&self, n: usize) -> f32 {
        self.heights.get(n).copied().unwrap_or(0.0)
    }

    /// Appends a row.
    pub fn push(&mut self, h: f32) {
        if self.heights.len().is_multiple_of(BLOCK) {
            self.blocks.push(0.0);
        }
        self.heights.push(h);
        if let Some(b) = self.blocks.last_mut() {
            *b += f64::from(h);
        }
        self.total += f64::from(h);
    }

    /// Removes the last row.
    pub fn pop(&mut self) {
        if let Some(h) = self.heights.pop() {
            if let Some(b) = self.blocks.last_mut() {
                *b -= f64::from(h);
            }
            self.total -= f64::from(h);
            if self.heights.len().is_multiple_of(BLOCK) {
                self.blocks.pop();
            }
        }
    }

    /// Sets row `n`'s height.
    pub fn set(&mut self, n: usize, h: f32) {
        if let Some(old) = self.heights.get_mut(n) {
            let d = f64::from(h) - f64::from(*old);
            *old = h;
            self.blocks[n / BLOCK] += d;
            self.total += d;
        }
    }

    /// Pixel offset of the top of row `n` (the total height for `n == len`).
    pub fn offset(&self, n: usize) -> f64 {
        let n = n.min(self.heights.len());
        let block = n / BLOCK;
        let mut y: f64 = self.blocks[..block].iter().sum();
        for h in &self.heights[block * BLOCK..n] {
            y += f64::from(*h);
        }
        y
    }

    /// The row covering offset `y` (the last row past the end, 0 when empty).
    pub fn index_at(&self, y: f64) -> usize {
        if self.heights.is_empty() || y <= 0.0 {
            return 0;
        }
        let mut acc = 0.0;
        for (b, sum) in self.blocks.iter().enumerate() {
            if acc + sum > y {
                let start = b * BLOCK;
                for (i, h) in self.heights[start..].iter().enumerate() {
                    acc += f64::from(*h);
                    if acc > y {
                        return start + i;
                    }
                }
            }
            acc += sum;
        }
        self.heights.len() - 1
    }
}

impl HeightIndex {
    /// The rows to render for a viewport at `top`, `height` px high: those within
    /// [`OVERSCAN`] of it, at most [`MAX_WINDOW`] of them.
    pub fn window(&self, top: f64, height: f64) -> Range<usize> {
        if self.is_empty() {
            return 0..0;
        }
        let start = self.index_at((top - OVERSCAN).max(0.0));
        let end = (self.index_at(top + height + OVERSCAN) + 1)
            .min(self.len())
            .min(start + MAX_WINDOW);
        start..end
    }

    /// Rows measured at new heights (`(row, px)`): the changes worth applying (half a pixel
    /// or more), and how far the content above the row at `top` moved — the scroll offset
    /// to add so the reader's first visible row stays where it is.
    pub fn measured(&self, top: f64, found: &[(usize, f32)]) -> (Vec<(usize, f32)>, f64) {
        let anchor = self.index_at(top);
        let mut shift = 0.0_f64;
        let mut changes = Vec::new();
        for &(n, h) in found {
            let old = self.height(n);
            if (old - h).abs() >= 0.5 {
                if n < anchor {
                    shift += f64::from(h - old);
                }
                changes.push((n, h));
            }
        }
        (changes, shift)
    }
}

/// The tallest scroller the page draws, in pixels: under every browser's largest element
/// height (Chromium 33,554,432 px; Firefox about 17,895,697 px).
pub const MAX_SCROLL_PX: f64 = 15_000_000.0;

/// Scroller offsets and content offsets (where rows are in the layout). While the rows fit
/// in [`MAX_SCROLL_PX`] they are the same; past it the scroller is that tall and its range
/// maps linearly onto the content's, so its top is the first row and its bottom the last.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScrollMap {
    content: f64,
    spacer: f64,
    viewport: f64,
}

impl ScrollMap {
    /// The map for `content` px of rows in a `viewport` px high scroller at most `max` px tall.
    pub fn new(content: f64, viewport: f64, max: f64) -> ScrollMap {
        ScrollMap {
            content,
            spacer: content.min(max.max(viewport)),
            viewport,
        }
    }

    /// The scroller's content height.
    pub fn spacer(&self) -> f64 {
        self.spacer
    }

    /// Content px per scroller px (1 when the rows fit).
    pub fn ratio(&self) -> f64 {
        let room = self.spacer - self.viewport;
        if self.content <= self.spacer || room <= 0.0 {
            1.0
        } else {
            (self.content - self.viewport) / room
        }
    }

    /// The content offset at the top of the viewport for scroller offset `s`.
    pub fn to_content(&self, s: f64) -> f64 {
        s * self.ratio()
    }

    /// The scroller offset that puts content offset `c` at the top of the viewport.
    pub fn to_scroll(&self, c: f64) -> f64 {
        c / self.ratio()
    }

    /// Where content offset `y` is drawn in the scroller when it is at `s` (rows near the
    /// viewport are drawn at their true distance from its top).
    pub fn place(&self, y: f64, s: f64) -> f64 {
        s + (y - self.to_content(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(hs: &[f32]) -> HeightIndex {
        let mut ix = HeightIndex::default();
        for h in hs {
            ix.push(*h);
        }
        ix
    }

    #[test]
    fn empty_index_has_nothing() {
        let ix = HeightIndex::default();
        assert_eq!(ix.total(), 0.0);
        assert_eq!(ix.offset(0), 0.0);
        assert_eq!(ix.index_at(100.0), 0);
    }

    #[test]
    fn offsets_are_prefix_sums() {
        let ix = index(&[10.0, 20.0, 30.0]);
        assert_eq!(ix.offset(0), 0.0);
        assert_eq!(ix.offset(1), 10.0);
        assert_eq!(ix.offset(2), 30.0);
        assert_eq!(ix.offset(3), 60.0);
        assert_eq!(ix.offset(99), 60.0);
    }

    #[test]
    fn index_at_finds_covering_row() {
        let ix = index(&[10.0, 20.0, 30.0]);
        assert_eq!(ix.index_at(0.0), 0);
        assert_eq!(ix.index_at(9.9), 0);
        assert_eq!(ix.index_at(10.0), 1);
        assert_eq!(ix.index_at(59.0), 2);
        assert_eq!(ix.index_at(1e9), 2);
    }

    #[test]
    fn many_blocks_agree_with_a_plain_sum() {
        let hs: Vec<f32> = (0..3000).map(|i| (i % 7 + 1) as f32 * 10.0).collect();
        let mut ix = index(&hs);
        ix.set(1000, 500.0);
        let mut plain = hs.clone();
        plain[1000] = 500.0;
        for n in [0, 1, 255, 256, 257, 999, 1000, 1001, 2999, 3000] {
            let want: f64 = plain[..n].iter().map(|h| f64::from(*h)).sum();
            assert_eq!(ix.offset(n), want, "offset {n}");
            if n < 3000 {
                assert_eq!(ix.index_at(want), n, "index_at {want}");
                assert_eq!(ix.index_at(want + 0.5), n);
            }
        }
        assert_eq!(ix.total(), plain.iter().map(|h| f64::from(*h)).sum::<f64>());
    }

    #[test]
    fn window_covers_the_viewport_and_its_overscan() {
        let ix = index(&[20.0; 1000]);
        // 600 px overscan = 30 rows each side of a 200 px viewport at 2000 px (row 100).
        assert_eq!(ix.window(2000.0, 200.0), 70..141);
        assert_eq!(ix.window(0.0, 200.0), 0..41);
        assert_eq!(ix.window(1e9, 200.0), 999..1000);
        assert_eq!(HeightIndex::default().window(0.0, 200.0), 0..0);
        // Never more than MAX_WINDOW rows, however tall the viewport.
        let tiny = index(&vec![1.0; 5000]);
        assert_eq!(tiny.window(0.0, 4000.0).len(), MAX_WINDOW);
    }

    #[test]
    fn measuring_keeps_the_first_visible_row_in_place() {
        let ix = index(&[20.0; 10]);
        // Viewport top at row 5 (100 px): rows 2 and 7 re-measured, row 3 unchanged.
        let (changes, shift) = ix.measured(100.0, &[(2, 50.0), (3, 20.2), (7, 10.0)]);
        assert_eq!(changes, [(2, 50.0), (7, 10.0)]);
        assert_eq!(shift, 30.0, "only rows above the anchor move it");
        assert_eq!(ix.measured(0.0, &[(0, 40.0)]), (vec![(0, 40.0)], 0.0));
    }

    #[test]
    fn a_list_that_fits_scrolls_as_it_is() {
        let map = ScrollMap::new(10_000.0, 800.0, MAX_SCROLL_PX);
        assert_eq!((map.spacer(), map.ratio()), (10_000.0, 1.0));
        assert_eq!(map.to_content(1234.0), 1234.0);
        assert_eq!(map.to_scroll(1234.0), 1234.0);
        assert_eq!(map.place(1300.0, 1234.0), 1300.0);
    }

    /// Two million 20 px rows: 40,000,000 px, past Chromium's largest element height. The
    /// scroller stays under the limit, its top is the first row and its bottom the last, and
    /// every row can be brought to the top of the viewport within one scroller pixel.
    #[test]
    fn a_list_past_the_browser_limit_reaches_every_row() {
        let rows = 2_000_000;
        let ix = index(&vec![20.0; rows]);
        let vh = 800.0;
        let map = ScrollMap::new(ix.total(), vh, MAX_SCROLL_PX);
        assert!(map.spacer() <= MAX_SCROLL_PX && map.spacer() < 33_554_432.0);
        let bottom = map.spacer() - vh;
        // The scroller's ends are the list's ends.
        assert_eq!(map.to_content(0.0), 0.0);
        assert!((map.to_content(bottom) - (ix.total() - vh)).abs() < 1e-6);
        let last = ix.window(map.to_content(bottom), vh);
        assert_eq!(last.end, rows, "the last row is rendered at the bottom");
        // The last row is drawn at the viewport's bottom edge.
        let y = ix.offset(rows - 1);
        assert!((map.place(y, bottom) + 20.0 - map.spacer()).abs() < 1e-6);
        // Any row: scroll to it (as an integer offset, as browsers do) and it is in view.
        for n in [0, 1, 620_753, 1_000_000, 1_677_721, rows - 2, rows - 1] {
            let c = ix.offset(n);
            let s = map.to_scroll(c).round().min(bottom);
            let top = map.to_content(s);
            let drawn = map.place(c, s) - s;
            assert!(
                drawn >= -map.ratio() && drawn + 20.0 <= vh + map.ratio(),
                "row {n}: {drawn}"
            );
            assert!(ix.window(top, vh).contains(&n), "row {n} rendered");
        }
    }

    #[test]
    fn pop_undoes_push_across_a_block_edge() {
        let mut ix = index(&[1.0; BLOCK]);
        let before = ix.clone();
        ix.push(5.0);
        ix.pop();
        assert_eq!(ix, before);
    }
}
