//! Bytes eight at a time: a `u64` of eight bytes tested in a few arithmetic operations, the
//! scans of text that look for the few bytes that matter (controls to strip, escapes to write)
//! and pass over the rest ([`crate::text`], [`crate::ansi`], [`crate::redact`]).
//!
//! Each test sets the high bit of every byte that matches and no other bit: no carry crosses
//! bytes, so the lowest set bit is the first match and every set bit is a true one. Before the
//! words, [`skip_clean_blocks`] passes over 32-byte blocks with no byte that matters, in
//! vector compares where the target has them.

pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;
pub(crate) const HIGH: u64 = 0x8080_8080_8080_8080;
const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The high bit of each byte of `w` that is zero, and no other bit (no carry crosses bytes:
/// each byte's low seven bits plus 0x7F is at most 0xFE).
pub(crate) fn zero_bytes(w: u64) -> u64 {
    !(((w & LOW7) + LOW7) | w) & HIGH
}

/// The high bit of each byte of `w` equal to `c`.
pub(crate) fn bytes_eq(w: u64, c: u8) -> u64 {
    zero_bytes(w ^ (ONES * u64::from(c)))
}

/// The high bit of each byte of `w` below 0x20.
pub(crate) fn bytes_below_space(w: u64) -> u64 {
    !(((w & LOW7) + ONES * 0x60) | w) & HIGH
}

/// The high bit of each byte of `w` that may start what `ansi::strip` removes: a C0 control
/// but `\n` and `\t`, DEL, or 0xC2 (the first byte of a C1 control, and of other characters,
/// which the caller looks at byte by byte with `ansi::strips_at`).
pub(crate) fn maybe_control(w: u64) -> u64 {
    (bytes_below_space(w) & !bytes_eq(w, b'\n') & !bytes_eq(w, b'\t'))
        | bytes_eq(w, 0x7f)
        | bytes_eq(w, 0xc2)
}

/// The first index at or after `at` that starts a 32-byte block holding a byte `hit` flags,
/// or the start of the last, shorter, block: the blocks in between skipped whole. Written so
/// the compiler makes it a few vector instructions per block on x86_64 and aarch64 (16 and 32
/// bytes compared at once, more than eight); elsewhere (wasm32) it skips nothing and the word
/// loop after it reads every byte. The callers' word loops then find the exact byte.
#[inline]
pub(crate) fn skip_clean_blocks(b: &[u8], mut at: usize, hit: impl Fn(u8) -> bool) -> usize {
    if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
        while let Some(block) = b.get(at..at + 32) {
            if block.iter().fold(false, |any, &c| any | hit(c)) {
                break;
            }
            at += 32;
        }
    }
    at
}

/// Whether byte `c` may start what `ansi::strip` removes: [`maybe_control`] of one byte.
#[inline]
pub(crate) fn maybe_control_byte(c: u8) -> bool {
    (c < 0x20 && c != b'\n' && c != b'\t') || c == 0x7f || c == 0xc2
}

/// Texts that put `a` and then `b` at every offset of an eight-byte word, so that a scan
/// eight bytes at a time meets each piece inside a word and straddling two; `fill` goes
/// between them (one to two copies, or none).
#[cfg(test)]
pub(crate) fn at_every_offset<'a>(
    a: &'a str,
    b: &'a str,
    fill: &'a str,
) -> impl Iterator<Item = String> + 'a {
    (0..20).map(move |at| {
        format!(
            "{}{a}{}{b}{}",
            "x".repeat(at),
            fill.repeat(at % 3),
            "z".repeat(9)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`skip_clean_blocks`] skips only whole blocks with no flagged byte, and stops at the
    /// block holding one: every text of up to 100 bytes with a flagged byte at each place,
    /// from every start below it.
    #[test]
    fn clean_blocks_are_skipped_and_only_they() {
        let hit = |c: u8| maybe_control_byte(c) || c == b'"';
        for len in 0..100 {
            for at in 0..=len {
                let mut text = vec![b'a'; len];
                if at < len {
                    text[at] = if at % 2 == 0 { 0x1b } else { b'"' };
                }
                for start in 0..=at.min(len) {
                    let got = skip_clean_blocks(&text, start, hit);
                    assert!(
                        got >= start && got <= at.max(start),
                        "{len} {at} {start}: {got}"
                    );
                    assert!(!text[start..got].iter().any(|&c| hit(c)));
                    let stopped = text.get(got..got + 32);
                    if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
                        assert!(
                            stopped.is_none_or(|b| b.iter().any(|&c| hit(c))),
                            "{len} {at} {start}"
                        );
                    }
                }
            }
        }
    }

    /// [`maybe_control_byte`] flags a byte exactly when [`maybe_control`] flags it in a word.
    #[test]
    fn one_byte_is_flagged_as_in_a_word() {
        for c in 0..=255u8 {
            let word = u64::from_le_bytes([b'a', c, b'a', b'a', b'a', b'a', b'a', b'a']);
            assert_eq!(maybe_control_byte(c), maybe_control(word) != 0, "{c:#x}");
        }
    }
}
