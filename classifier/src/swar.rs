//! Bytes eight at a time: a `u64` of eight bytes tested in a few arithmetic operations, the
//! scans of text that look for the few bytes that matter (controls to strip, escapes to write)
//! and pass over the rest ([`crate::text`], [`crate::ansi`], [`crate::redact`]).
//!
//! Each test sets the high bit of every byte that matches and no other bit: no carry crosses
//! bytes, so the lowest set bit is the first match and every set bit is a true one.

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
