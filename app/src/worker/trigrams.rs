//! The three-byte sequences of a span of bodies ([`Trigrams`], pure): a lossy set (a
//! bitmap of hashes), ASCII case folded. A body that contains a query contains every
//! three-byte sequence of it, so a span whose set lacks one has no hit
//! ([`crate::worker::body_search`]).

/// Bits of one span's set (a power of two): 2^17 = 16 KiB a span, 1 KiB per 256 KiB of log.
const BITS_LOG2: u32 = 17;
const WORDS: usize = (1 << BITS_LOG2) / 64;

/// The three-byte sequences of a span's bodies, ASCII case folded, as a bitmap of hashes.
#[derive(Debug, Clone, PartialEq)]
pub struct Trigrams {
    /// Of a fixed size, so indexing it with a slot needs no bounds check (a slot's word is
    /// always below [`WORDS`]): [`Trigrams::add`] runs over every byte of every body.
    bits: Box<[u64; WORDS]>,
}

impl Default for Trigrams {
    fn default() -> Trigrams {
        Trigrams {
            bits: vec![0; WORDS]
                .into_boxed_slice()
                .try_into()
                .expect("WORDS words"),
        }
    }
}

fn slot(t: u32) -> usize {
    (t.wrapping_mul(0x9E37_79B1) >> (32 - BITS_LOG2)) as usize
}

impl Trigrams {
    /// Adds every three-byte sequence of `text`.
    pub fn add(&mut self, text: &str) {
        let b = text.as_bytes();
        if b.len() < 3 {
            return;
        }
        let mut t =
            (u32::from(b[0].to_ascii_lowercase()) << 8) | u32::from(b[1].to_ascii_lowercase());
        for &c in &b[2..] {
            t = ((t << 8) | u32::from(c.to_ascii_lowercase())) & 0x00FF_FFFF;
            let s = slot(t);
            self.bits[s >> 6] |= 1 << (s & 63);
        }
    }

    /// Whether a text added may contain `query` (ASCII case ignored): false only when one of
    /// the query's three-byte sequences was never added. A query under three bytes: true.
    pub fn may_contain(&self, query: &str) -> bool {
        query.as_bytes().windows(3).all(|w| {
            let t = (u32::from(w[0].to_ascii_lowercase()) << 16)
                | (u32::from(w[1].to_ascii_lowercase()) << 8)
                | u32::from(w[2].to_ascii_lowercase());
            let s = slot(t);
            self.bits[s >> 6] & (1 << (s & 63)) != 0
        })
    }

    /// The share of bits set (how selective the set still is).
    pub fn fill(&self) -> f64 {
        let ones: u32 = self.bits.iter().map(|w| w.count_ones()).sum();
        f64::from(ones) / (WORDS * 64) as f64
    }
}
