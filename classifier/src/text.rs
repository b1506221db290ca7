//! Small text helpers shared by the classifiers: previews, line counts, cleaning.

use crate::ansi::{bidi_at, is_bidi_control};
use crate::swar::{bytes_eq, maybe_control, maybe_control_byte, skip_clean_blocks};

/// Cuts `s` to at most `max` characters, adding `…` when anything was cut.
pub fn truncate_chars(s: &str, max: usize) -> String {
    let head = first_chars(s, max);
    if head.len() == s.len() {
        return s.to_owned();
    }
    let mut out = String::with_capacity(head.len() + '…'.len_utf8());
    out.push_str(head);
    out.push('…');
    out
}

/// The first `max` characters of `s` (all of it when it has no more), borrowed.
pub(crate) fn first_chars(s: &str, max: usize) -> &str {
    // A character is at least one byte: a text of no more bytes has no more characters.
    if s.len() <= max {
        return s;
    }
    match s.char_indices().nth(max) {
        None => s,
        Some((at, _)) => &s[..at],
    }
}

/// The `"…"` preview (`docs/ROWS.md`): whitespace runs (newlines included) folded to one space,
/// trimmed, cut to 60 characters with `…`.
pub fn preview(s: &str) -> String {
    one_line(s, 60)
}

/// Folds every run of whitespace to one space and trims the ends.
pub fn fold_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len().min(256));
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// `s` with whitespace runs folded to one space, trimmed, and cut at `max` characters with
/// `…`: `truncate_chars(&fold_whitespace(s), max)`, but reading only as much of `s` as it
/// keeps, so a megabyte argument costs no more than a short one.
pub(crate) fn one_line(s: &str, max: usize) -> String {
    // Most names, paths and commands are one line already, and short: copied as they are.
    if s.len() <= max && is_folded_ascii(s.as_bytes()) {
        return s.to_owned();
    }
    // At most `max` characters of four bytes, and the `…`.
    let mut out = String::with_capacity(s.len().min(4 * max) + '…'.len_utf8());
    let mut kept = 0;
    for word in s.split_whitespace() {
        // A word of no more bytes than the characters left fits whole.
        if kept < max && word.len() < max - kept {
            if kept > 0 {
                out.push(' ');
                kept += 1;
            }
            out.push_str(word);
            kept += word.chars().count();
            continue;
        }
        for c in (kept > 0).then_some(' ').into_iter().chain(word.chars()) {
            if kept == max {
                out.push('…');
                return out;
            }
            out.push(c);
            kept += 1;
        }
    }
    out
}

/// Whether `b` is ASCII that [`one_line`] folds to itself: no whitespace but single spaces
/// between other characters, and no control character.
fn is_folded_ascii(b: &[u8]) -> bool {
    // (No space first.)
    let mut after_space = true;
    for &c in b {
        match c {
            b' ' if after_space => return false,
            b' ' => after_space = true,
            0..b' ' | 0x80.. => return false,
            _ => after_space = false,
        }
    }
    b.is_empty() || !after_space
}

/// Appends `n` in decimal, as `n.to_string()` writes it, without the formatting machinery
/// (row makers that run on every line: counts, keys, durations).
pub(crate) fn push_u64(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&digits[at..]).expect("ASCII digits"));
}

/// Number of lines in `s` as a reader counts them: a trailing newline ends the last line
/// rather than starting an empty one; the empty string has none.
pub fn line_count(s: &str) -> usize {
    if s.is_empty() {
        return 0;
    }
    // memchr counts many bytes at a time (the page's worker counts every body's lines).
    let newlines = memchr::memchr_iter(b'\n', s.as_bytes()).count();
    if s.ends_with('\n') {
        newlines
    } else {
        newlines + 1
    }
}

/// Removes ANSI/OSC escape sequences and control characters other than `\n` and `\t`
/// from `s`, in place (see [`crate::ansi`] for exactly what goes, `\r` included), and the
/// bidirectional embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069),
/// which make text read in another order than it is written ("Trojan Source": a file name
/// or command that is not what it looks like). The plain direction marks (U+200E, U+200F,
/// U+061C) stay: right-to-left text needs them and they reorder nothing beyond a neutral.
/// Untrusted terminal output never reaches a page raw. Text with nothing to remove is left
/// untouched after one cheap scan.
pub fn sanitize(s: &mut String) {
    match scan(s) {
        Clean::Strip => *s = crate::ansi::strip(s, true),
        Clean::Bidi => s.retain(|c| !is_bidi_control(c)),
        Clean::Nothing => {}
    }
}

/// [`sanitize`] of a copy of `s`, made in one copy: a text to strip is stripped from `s`
/// itself (a long tool output with its colours is copied once, not copied and then stripped).
pub(crate) fn sanitized(s: &str) -> String {
    match scan(s) {
        Clean::Strip => crate::ansi::strip(s, true),
        Clean::Bidi => {
            let mut copy = s.to_owned();
            copy.retain(|c| !is_bidi_control(c));
            copy
        }
        Clean::Nothing => s.to_owned(),
    }
}

/// The text between `<name>` and `</name>` (the first of each), when `s` has both.
pub(crate) fn tag<'a>(s: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("<{name}>");
    let close = format!("</{name}>");
    let start = s.find(&open)? + open.len();
    let len = s[start..].find(&close)?;
    Some(&s[start..start + len])
}

/// What [`sanitize`] has to do to a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Clean {
    /// Nothing: the text is clean.
    Nothing,
    /// Remove its bidirectional controls ([`is_bidi_control`]), and nothing else.
    Bidi,
    /// Strip it ([`crate::ansi::strip`]: a control character or escape sequence,
    /// and any bidirectional control with them, in one pass).
    Strip,
}

/// What [`sanitize`] must do to `s`, in one pass over its bytes, eight at a time: a word with
/// no byte below 0x20 but `\n` and `\t`, no DEL, no 0xC2 (the lead byte of a C1 control) and
/// no 0xE2 (of a bidirectional control) — nearly every word of most text — is passed over
/// after a few arithmetic operations; the bytes of the others are looked at one by one. The
/// first thing to strip ends the scan: the strip removes the bidirectional controls after it
/// too.
pub(crate) fn scan(s: &str) -> Clean {
    let b = s.as_bytes();
    let mut bidi = false;
    let mut at = 0;
    loop {
        at = skip_clean_blocks(b, at, |c| maybe_control_byte(c) || c == 0xe2);
        let Some(word) = b.get(at..at + 8) else {
            break;
        };
        let w = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        let mut odd = maybe_control(w) | bytes_eq(w, 0xe2);
        while odd != 0 {
            let i = at + (odd.trailing_zeros() / 8) as usize;
            if crate::ansi::strips_at(b, i) {
                return Clean::Strip;
            }
            bidi |= bidi_at(b, i);
            odd &= odd - 1;
        }
        at += 8;
    }
    for i in at..b.len() {
        if crate::ansi::strips_at(b, i) {
            return Clean::Strip;
        }
        bidi |= bidi_at(b, i);
    }
    if bidi { Clean::Bidi } else { Clean::Nothing }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_is_fold_then_truncate() {
        let check = |s: &str, max: usize| {
            assert_eq!(
                one_line(s, max),
                truncate_chars(&fold_whitespace(s), max),
                "{s:?} {max}"
            );
        };
        for s in [
            "",
            " ",
            "a",
            " a  b\n\tc ",
            "abc def",
            "é é é",
            "\n\nx\n\n",
            "a b",
        ] {
            for max in 0..8 {
                check(s, max);
            }
        }
        check(&"word ".repeat(100), 60);
        // Words of one to four characters, of one and two bytes, three of them, cut at every
        // length (a word is pushed whole when its bytes fit).
        let words = ["a", "ab", "abcd", "é", "éé", "aéa", "ééé\u{1F600}"];
        for a in words {
            for b in words {
                for c in words {
                    let s = format!("{a} {b}\n\n{c}");
                    for max in 0..14 {
                        check(&s, max);
                    }
                }
            }
        }
        check(&"x".repeat(61), 60);
        // Every text of up to five of these characters (ASCII and not, blank and not, a
        // control), cut at every length: the texts copied as they are and the others.
        let chars = [
            ' ', 'a', '\t', '\n', '\u{1}', 'é', '\u{85}', '\u{a0}', '\u{3000}',
        ];
        let mut texts = vec![String::new()];
        for _ in 0..5 {
            let longer: Vec<String> = texts
                .iter()
                .filter(|t| t.chars().count() == texts.last().map_or(0, |l| l.chars().count()))
                .flat_map(|t| {
                    chars.iter().map(move |c| {
                        let mut t = t.clone();
                        t.push(*c);
                        t
                    })
                })
                .collect();
            texts.extend(longer);
        }
        assert_eq!(texts.len(), 1 + 9 + 81 + 729 + 6561 + 59049);
        for t in &texts {
            for max in 0..7 {
                check(t, max);
            }
        }
    }

    /// `fold_whitespace` joins the words of `split_whitespace` with one space: every text of up
    /// to five of these characters (ASCII and not, blank and not, controls), the texts copied
    /// as they are and the others.
    #[test]
    fn fold_whitespace_joins_the_words() {
        let chars = [
            ' ', 'a', '\t', '\n', '\u{b}', '\u{1}', 'é', '\u{85}', '\u{3000}',
        ];
        let mut texts = vec![String::new()];
        let mut last = texts.clone();
        for _ in 0..5 {
            last = last
                .iter()
                .flat_map(|t| {
                    chars.iter().map(move |c| {
                        let mut t = t.clone();
                        t.push(*c);
                        t
                    })
                })
                .collect();
            texts.extend(last.iter().cloned());
        }
        assert_eq!(texts.len(), 66_430);
        for t in &texts {
            let want = t.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(fold_whitespace(t), want, "{t:?}");
        }
    }

    /// `push_u64` writes what `to_string` writes: every number below 100,000, each power of
    /// ten and its neighbours, and the largest.
    #[test]
    fn push_u64_is_to_string() {
        let mut numbers: Vec<u64> = (0..100_000).collect();
        for p in 0..20 {
            let ten = 10u64.pow(p);
            numbers.extend([ten - 1, ten, ten + 1]);
        }
        numbers.extend([u64::MAX - 1, u64::MAX]);
        for n in numbers {
            let mut out = String::from("x");
            push_u64(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }

    /// `sanitized` is `sanitize` of a copy, on texts of every kind `scan` tells apart: every
    /// string of up to three pieces from a set of clean, control, escape, bidi and multi-byte
    /// ones.
    #[test]
    fn sanitized_is_sanitize_of_a_copy() {
        let pieces = [
            "",
            "a",
            "é",
            "\n",
            "\t",
            "\r",
            "x\rY",
            "\u{1b}[31m",
            "\u{1b}]0;t\u{7}",
            "\u{7f}",
            "\u{85}",
            "\u{202e}",
            "\u{200f}",
            "\u{2066}",
            "\u{1}",
            "ab\u{202a}cd",
        ];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let text = format!("{a}{b}{c}");
                    let mut copy = text.clone();
                    sanitize(&mut copy);
                    assert_eq!(sanitized(&text), copy, "{text:?}");
                }
            }
        }
    }

    #[test]
    fn previews() {
        let check = |input: &str, expect: &str| assert_eq!(preview(input), expect, "{input:?}");
        check("check CI", "check CI");
        check("  a\n\nb\tc  ", "a b c");
        check(&"x".repeat(60), &"x".repeat(60));
        check(&"x".repeat(61), &format!("{}…", "x".repeat(60)));
        check(&"é".repeat(61), &format!("{}…", "é".repeat(60)));
        check("", "");
    }

    #[test]
    fn sanitize_strips_bidi_controls() {
        let check = |input: &str, expect: &str| {
            let mut s = input.to_owned();
            sanitize(&mut s);
            assert_eq!(s, expect, "{input:?}");
        };
        // Trojan Source: reads `rm -rf / # safe` but runs in another order.
        check("ls \u{202E}fdp.exe\u{202C}", "ls fdp.exe");
        check("a\u{202A}b\u{202B}c\u{202D}d", "abcd");
        check("\u{2066}x\u{2067}y\u{2068}z\u{2069}", "xyz");
        // Direction marks and ordinary text around E2 bytes stay.
        check("שלום\u{200F} ok", "שלום\u{200F} ok");
        check("a – b … c “d” ‘e’ €", "a – b … c “d” ‘e’ €");
        check("\x1b[31mred\x1b[0m\u{202E}", "red");
        check("", "");
        for c in ['\u{202A}', '\u{202E}', '\u{2066}', '\u{2069}'] {
            assert!(is_bidi_control(c), "{c:?}");
        }
        for c in [
            '\u{2029}', '\u{202F}', '\u{2065}', '\u{206A}', '\u{200F}', 'a',
        ] {
            assert!(!is_bidi_control(c), "{c:?}");
        }
    }

    /// The eight-bytes-at-a-time [`scan`] agrees with a byte-by-byte look at every offset of
    /// every piece, pieces straddling two words included.
    #[test]
    fn scan_finds_what_sanitize_removes_anywhere() {
        let pieces = [
            "\x1b[31m", "\0", "\r", "\x7f", "\u{85}", "\u{9f}", "\u{202E}", "\u{2066}", "\u{a0}",
            "\u{c0}", "–", "…", "\u{200F}", "\u{2029}", "\u{206A}", "é", "\t", "\n", "🐝",
        ];
        for a in pieces {
            for b in pieces {
                for text in crate::swar::at_every_offset(a, b, "y") {
                    let bytes = text.as_bytes();
                    let strip = (0..bytes.len()).any(|i| crate::ansi::strips_at(bytes, i));
                    let bidi = text.chars().any(is_bidi_control);
                    let want = match (strip, bidi) {
                        (true, _) => Clean::Strip,
                        (false, true) => Clean::Bidi,
                        (false, false) => Clean::Nothing,
                    };
                    assert_eq!(scan(&text), want, "{text:?}");
                    let mut clean = text.clone();
                    sanitize(&mut clean);
                    assert_eq!(scan(&clean), Clean::Nothing, "{text:?} → {clean:?}");
                    // One pass is the strip, then the bidirectional controls removed.
                    let mut two_passes = crate::ansi::strip(&text, false);
                    two_passes.retain(|c| !is_bidi_control(c));
                    assert_eq!(clean, two_passes, "{text:?}");
                }
            }
        }
        assert_eq!(scan(""), Clean::Nothing);
    }

    #[test]
    fn counts_lines() {
        let check = |input: &str, expect: usize| assert_eq!(line_count(input), expect, "{input:?}");
        check("", 0);
        check("a", 1);
        check("a\n", 1);
        check("a\nb", 2);
        check("a\nb\n", 2);
        check("\n", 1);
        check("\n\n", 2);
    }
}
