//! Which byte ranges of a log are read, in order, and how far ahead ([`ReadAhead`], pure):
//! the first [`FIRST_CHUNK`] bytes (small, so the first rows show at once), then [`CHUNK`]
//! each; a short read's missing bytes asked for again, a file that ends early ended.

/// Bytes read for the first chunk: small, so the first rows show quickly.
pub const FIRST_CHUNK: usize = 128 * 1024;
/// Bytes read per later chunk.
pub const CHUNK: usize = 4 * 1024 * 1024;
/// Bytes of the log asked for ahead of the chunk being classified (reads in flight or done
/// and not classified yet).
pub const AHEAD_BYTES: f64 = 2.0 * CHUNK as f64;

/// Which byte ranges of a log of `total` bytes are read, in order, and how far ahead: the
/// first [`FIRST_CHUNK`] bytes, then [`CHUNK`] each, together exactly `0..total`. Pure.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadAhead {
    total: f64,
    /// The next byte to ask for.
    next: f64,
    /// The next byte to classify (every read before it was taken).
    taken: f64,
}

impl ReadAhead {
    /// Nothing asked for yet.
    pub fn new(total: f64) -> ReadAhead {
        ReadAhead {
            total: total.max(0.0),
            next: 0.0,
            taken: 0.0,
        }
    }

    /// The next range to ask for, if the reads not taken yet are under `ahead` bytes (at
    /// least one is always allowed) and the log has more.
    pub fn ask(&mut self, ahead: f64) -> Option<(f64, f64)> {
        if self.next >= self.total || (self.next > self.taken && self.next - self.taken >= ahead) {
            return None;
        }
        let size = if self.next == 0.0 { FIRST_CHUNK } else { CHUNK } as f64;
        let range = (self.next, (self.next + size).min(self.total));
        self.next = range.1;
        Some(range)
    }

    /// The oldest read not taken yet, asked for `asked` bytes, came with `got` of them
    /// (reads are taken in the order asked). A stream may fill a read only in part: the bytes
    /// it did not bring are asked for again by a later read (every range after it starts
    /// that much earlier). `got` 0 is the end of the file: nothing more is asked for.
    pub fn take(&mut self, asked: f64, got: f64) {
        let got = got.clamp(0.0, asked);
        self.taken += got;
        self.next -= asked - got;
        if got == 0.0 {
            self.total = self.taken;
            self.next = self.taken;
        }
    }

    /// Bytes taken so far.
    pub fn taken(&self) -> f64 {
        self.taken
    }

    /// Whether every byte was taken.
    pub fn all_taken(&self) -> bool {
        self.taken >= self.total
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The ranges a [`ReadAhead`] asks for, taking each as soon as `window` more are asked.
    fn ranges(total: f64, ahead: f64, window: usize) -> Vec<(f64, f64)> {
        let mut plan = ReadAhead::new(total);
        let mut asked = std::collections::VecDeque::new();
        let mut taken = Vec::new();
        loop {
            while let Some(r) = plan.ask(ahead) {
                asked.push_back(r);
                let in_flight: f64 = asked.iter().map(|(a, b)| b - a).sum();
                assert!(
                    asked.len() == 1 || in_flight <= ahead + CHUNK as f64,
                    "{in_flight} bytes asked ahead"
                );
            }
            assert!(
                asked.len() <= window.max(1),
                "{} reads in flight",
                asked.len()
            );
            let Some(r) = asked.pop_front() else { break };
            plan.take(r.1 - r.0, r.1 - r.0);
            taken.push(r);
        }
        assert!(plan.all_taken());
        assert_eq!(plan.taken(), total.max(0.0));
        taken
    }

    #[test]
    fn the_reads_ahead_tile_the_log_in_order() {
        let (first, chunk) = (FIRST_CHUNK as f64, CHUNK as f64);
        for total in [
            0.0,
            1.0,
            first - 1.0,
            first,
            first + 1.0,
            first + chunk,
            first + 3.0 * chunk + 7.0,
            154e6,
            1.082e9,
        ] {
            let got = ranges(total, AHEAD_BYTES, 4);
            let mut at = 0.0;
            for (i, &(a, b)) in got.iter().enumerate() {
                assert_eq!(
                    a, at,
                    "total {total}: range {i} starts where the last ended"
                );
                assert!(b > a);
                let size = if i == 0 { first } else { chunk };
                assert!(b - a == size || b == total, "total {total}: range {i}");
                at = b;
            }
            assert_eq!(at, total);
            // One read at a time when nothing may be ahead: the same ranges.
            assert_eq!(ranges(total, 0.0, 1), got);
        }
    }

    /// Reads of a stream of `len` bytes (the file may be shorter than the `total` the plan
    /// was made for) that fill each read with at most `fill(i)` bytes: the chunks taken, in
    /// order, as byte ranges of the stream.
    fn stream_reads(total: f64, len: usize, fill: impl Fn(usize) -> usize) -> Vec<(usize, usize)> {
        let mut plan = ReadAhead::new(total);
        let mut asked = std::collections::VecDeque::new();
        let (mut at, mut out, mut i) = (0usize, Vec::new(), 0);
        loop {
            while let Some((a, b)) = plan.ask(AHEAD_BYTES) {
                asked.push_back(b - a);
            }
            let Some(n) = asked.pop_front() else { break };
            // A read's bytes are the stream's next ones (reads are answered in order).
            let got = (n as usize)
                .min(fill(i))
                .min(len - at)
                .max(usize::from(at < len));
            let got = if at >= len { 0 } else { got };
            i += 1;
            out.push((at, at + got));
            at += got;
            plan.take(n, got as f64);
            // Every read brings a byte at least, but those in flight at the end: the reads end.
            assert!(
                i <= len + 4,
                "the reads never end: total {total} len {len} at {at} i {i}"
            );
        }
        assert!(plan.all_taken());
        assert_eq!(plan.taken(), at as f64);
        out
    }

    /// Regression (BYOB stream reads, the lead): a stream may fill a read in part, and a file
    /// may end before the size it had when dropped; every byte is still taken, once, in order.
    #[test]
    fn short_stream_reads_still_take_every_byte_once() {
        let (first, chunk) = (FIRST_CHUNK, CHUNK);
        for len in [0, 1, first - 1, first, first + 1, first + 3 * chunk + 7] {
            for fill in [4093usize, 65_536, first, chunk / 2 + 3, chunk] {
                let got = stream_reads(len as f64, len, |i| fill + i % 3);
                let mut at = 0;
                for &(a, b) in got.iter().filter(|r| r.1 > r.0) {
                    assert_eq!(a, at, "len {len} fill {fill}");
                    at = b;
                }
                assert_eq!(at, len, "len {len} fill {fill}");
            }
            // The file is shorter than it was: the reads stop at its end.
            let got = stream_reads(len as f64 + 5e6, len, |_| chunk);
            assert_eq!(got.last().map_or(0, |r| r.1), len);
        }
    }

    /// Taking each range as soon as it is asked, the ranges tile the log.
    pub(crate) fn tiles(total: f64) -> Vec<(f64, f64)> {
        ranges(total, AHEAD_BYTES, 4)
    }
}
