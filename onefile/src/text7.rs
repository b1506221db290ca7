//! Bytes as text an HTML `<script>` element holds verbatim, 7 bits a byte of text (8/7 of the
//! data's size, where base64 takes 4/3): the export's compressed data and wasm.
//!
//! The bits, most significant first, are cut into 7-bit groups (the last padded with zeros).
//! A group is written as that ASCII character, except the three the HTML parser would not
//! give back as they are in a script's text: NUL (replaced), CR (made LF) and `<` (which could
//! start `</script` or `<!--`). Such a group and the group after it become one two-byte UTF-8
//! character, U+0080–U+037F: `(k << 7) | next`, where `k` is 1 + the forbidden group's index
//! in [`FORBIDDEN`], or 4 + that index when it is the last group (nothing after it). So 14
//! bits take two bytes and the rate stays 7 bits a byte. The decoder (`text7` in boot.js)
//! keeps whole bytes only: the padding (under 7 bits) falls away.

/// The 7-bit groups not written as themselves.
pub const FORBIDDEN: [u8; 3] = [0, b'\r', b'<'];

/// Encodes `bytes`; the text is ASCII but for the two-byte characters above.
pub fn encode(bytes: &[u8]) -> String {
    let mut groups = Groups::new(bytes);
    let mut out = String::with_capacity(bytes.len() / 7 * 8 + bytes.len() / 50 + 8);
    while let Some(g) = groups.next() {
        match FORBIDDEN.iter().position(|&f| f == g) {
            None => out.push(char::from(g)),
            Some(i) => {
                let (k, next) = match groups.next() {
                    Some(next) => (1 + i as u32, u32::from(next)),
                    None => (4 + i as u32, 0),
                };
                // Under U+0380: always a char.
                out.extend(char::from_u32((k << 7) | next));
            }
        }
    }
    out
}

/// The 7-bit groups of some bytes, most significant bit first.
struct Groups<'a> {
    bytes: &'a [u8],
    at: usize,
    acc: u32,
    bits: u32,
}

impl<'a> Groups<'a> {
    fn new(bytes: &'a [u8]) -> Groups<'a> {
        Groups {
            bytes,
            at: 0,
            acc: 0,
            bits: 0,
        }
    }
}

impl Iterator for Groups<'_> {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        if self.bits < 7 {
            match self.bytes.get(self.at) {
                Some(&b) => {
                    self.acc = (self.acc << 8) | u32::from(b);
                    self.bits += 8;
                    self.at += 1;
                }
                None if self.bits == 0 => return None,
                None => {
                    // The last group, padded with zeros.
                    let g = (self.acc << (7 - self.bits)) & 0x7f;
                    self.bits = 0;
                    return Some(g as u8);
                }
            }
        }
        self.bits -= 7;
        let g = (self.acc >> self.bits) & 0x7f;
        self.acc &= (1 << self.bits) - 1;
        Some(g as u8)
    }
}

/// The bytes of a text [`encode`] wrote (what boot.js does in the browser; here for the tests
/// and for any reader of an exported file).
pub fn decode(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0u32);
    let mut put = |g: u32| {
        acc = (acc << 7) | g;
        bits += 7;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    };
    for c in text.chars() {
        let c = c as u32;
        if c < 0x80 {
            put(c);
        } else {
            let k = c >> 7;
            put(u32::from(FORBIDDEN[((k - 1) % 3) as usize]));
            if k <= 3 {
                put(c & 0x7f);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(bytes: &[u8]) {
        let text = encode(bytes);
        assert_eq!(decode(&text), bytes, "{bytes:?} → {text:?}");
        for c in text.chars() {
            assert!(!matches!(c, '\0' | '\r' | '<'), "{c:?} in {text:?}");
            assert!((c as u32) < 0x380, "{c:?}");
        }
        // 7 bits a byte of text: at most one byte more than 8/7 of the data, rounded up.
        assert!(
            text.len() <= (bytes.len() * 8).div_ceil(7) + 1,
            "{}",
            text.len()
        );
    }

    #[test]
    fn every_length_and_every_byte_round_trips() {
        check(b"");
        for n in 0..=40u8 {
            check(&(0..n).map(|i| i.wrapping_mul(97)).collect::<Vec<_>>());
        }
        check(&(0..=255).collect::<Vec<u8>>());
        check(&[0; 33]);
        check(&[0xff; 33]);
    }

    #[test]
    fn forbidden_groups_anywhere_even_last() {
        // A lone zero byte: two groups, both 0 — a forbidden group followed by one.
        check(&[0]);
        // 7 bytes are 8 groups exactly: the last group forbidden, nothing after it.
        for last in FORBIDDEN {
            let mut b = [0xffu8; 7];
            b[6] = 0x80 | last; // the last 7 bits are `last`
            check(&b);
            assert!(
                encode(&b)
                    .chars()
                    .last()
                    .is_some_and(|c| c as u32 >= 4 << 7)
            );
        }
        // '<' groups back to back.
        let lt: Vec<u8> = encode_groups(&[b'<'; 16]);
        check(&lt);
    }

    /// Bytes whose 7-bit groups are `groups` (a multiple of 8 groups).
    fn encode_groups(groups: &[u8]) -> Vec<u8> {
        let (mut acc, mut bits, mut out) = (0u64, 0, Vec::new());
        for &g in groups {
            acc = (acc << 7) | u64::from(g);
            bits += 7;
            while bits >= 8 {
                bits -= 8;
                out.push((acc >> bits) as u8);
            }
        }
        out
    }

    #[test]
    fn random_bytes_take_eight_sevenths() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let bytes: Vec<u8> = (0..100_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        check(&bytes);
        let ratio = encode(&bytes).len() as f64 / bytes.len() as f64;
        assert!(ratio < 1.15, "{ratio}");
    }
}
