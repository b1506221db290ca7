//! Small text helpers shared by the classifiers: previews, line counts, cleaning.

/// Cuts `s` to at most `max` characters, adding `…` when anything was cut.
pub fn truncate_chars(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_owned(),
        Some((at, _)) => {
            let mut out = s[..at].to_owned();
            out.push('…');
            out
        }
    }
}

/// The `"…"` preview (`docs/ROWS.md`): whitespace runs (newlines included) folded to one space,
/// trimmed, cut to 60 characters with `…`.
pub fn preview(s: &str) -> String {
    truncate_chars(&fold_whitespace(s), 60)
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

/// Number of lines in `s` as a reader counts them: a trailing newline ends the last line
/// rather than starting an empty one; the empty string has none.
pub fn line_count(s: &str) -> usize {
    if s.is_empty() {
        return 0;
    }
    let newlines = s.bytes().filter(|&b| b == b'\n').count();
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
    if crate::ansi::needs_strip(s) {
        *s = crate::ansi::strip(s);
    }
    if has_bidi_control(s) {
        s.retain(|c| !is_bidi_control(c));
    }
}

/// A bidirectional embedding, override or isolate control.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Whether `s` has a [`is_bidi_control`] character: all are `E2 80 AA..=AE` or
/// `E2 81 A6..=A9` in UTF-8, so one `memchr` scan for `E2`.
fn has_bidi_control(s: &str) -> bool {
    let b = s.as_bytes();
    memchr::memchr_iter(0xE2, b).any(|i| {
        matches!(
            (b.get(i + 1), b.get(i + 2)),
            (Some(0x80), Some(0xAA..=0xAE)) | (Some(0x81), Some(0xA6..=0xA9))
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
