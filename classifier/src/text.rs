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

/// The seed's `"…"` preview: whitespace runs (newlines included) folded to one space,
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
/// from `s`, in place (see [`crate::ansi`] for exactly what goes, `\r` included). Untrusted
/// terminal output never reaches a page raw. Text with nothing to remove is left untouched
/// after one cheap scan.
pub fn sanitize(s: &mut String) {
    if crate::ansi::needs_strip(s) {
        *s = crate::ansi::strip(s);
    }
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
