//! Where each shown row sits, for the virtualised list: heights and their prefix sums.
//!
//! Heights are kept in blocks of [`BLOCK`] rows with a running sum per block, so finding the
//! row at a scroll offset, or the offset of a row, costs a scan over blocks (a few thousand
//! for a million rows) and updating one height costs O(1).

/// Rows per block.
pub const BLOCK: usize = 256;

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
    fn pop_undoes_push_across_a_block_edge() {
        let mut ix = index(&[1.0; BLOCK]);
        let before = ix.clone();
        ix.push(5.0);
        ix.pop();
        assert_eq!(ix, before);
    }
}
