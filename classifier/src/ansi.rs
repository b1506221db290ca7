//! ANSI/OSC escape sequences and control characters, removed from untrusted text.

/// `s` without escape sequences or control characters other than `\n` and `\t`.
pub(crate) fn strip(s: &str) -> String {
    s.chars()
        .filter(|&c| c == '\n' || c == '\t' || !c.is_control())
        .collect()
}
