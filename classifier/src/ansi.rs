//! ANSI/OSC escape sequences and control characters, removed from untrusted text.
//!
//! What [`strip`] removes, in one left-to-right pass (linear time, no backtracking):
//! - CSI sequences: `ESC [` or the 8-bit `U+009B`, parameter and intermediate bytes, one final
//!   byte (`ESC[31m`, `ESC[2K`, `ESC[?25l`). A sequence cut short by any other character ends
//!   there; that character is then treated on its own.
//! - String sequences: OSC (`ESC ]`, `U+009D`), DCS (`ESC P`, `U+0090`), SOS (`ESC X`,
//!   `U+0098`), PM (`ESC ^`, `U+009E`), APC (`ESC _`, `U+009F`), up to their terminator: BEL,
//!   `ESC \` or `U+009C`. An OSC 8 hyperlink keeps its visible text. An unterminated string
//!   sequence ends at the next newline (kept), so a stray `ESC ]` hides at most one line.
//! - Other escape sequences: `ESC` + intermediates (`0x20–0x2F`) + one final character
//!   (`ESC ( B`, `ESC 7`, `ESC =`, `ESC c`); a lone `ESC` is dropped.
//! - Every other control character (C0, DEL, C1 `U+0080–U+009F`) except `\n` and `\t`.
//! - Carriage returns, the way a terminal shows them: `\r` before `\n` (any run of them) or at
//!   the end is dropped; a `\r` followed by more text starts the line over, so only the text
//!   after the last such `\r` of a line is kept (a progress bar `10%\r20%\r30%` shows `30%`).
//!
//! Asked to (`strip(s, true)`, what [`crate::sanitize`] does), the same pass also drops the
//! bidirectional controls ([`is_bidi_control`]), so a text that needs both is copied once.

const ESC: char = '\u{1b}';
const BEL: char = '\u{7}';
/// String terminator, 8-bit form.
const ST: char = '\u{9c}';

/// What the scanner is inside of.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// Plain text.
    Text,
    /// Just after `ESC`.
    Escape,
    /// After `ESC` and intermediate bytes, waiting for the final character.
    EscapeIntermediate,
    /// Inside a CSI sequence.
    Csi,
    /// Inside a string sequence (OSC, DCS, SOS, PM, APC).
    Str,
    /// Inside a string sequence, just after `ESC` (maybe the `ESC \` terminator).
    StrEscape,
}

/// A bidirectional embedding, override or isolate control.
pub(crate) fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Whether the byte at `i` of `b` starts a [`is_bidi_control`] character: all are
/// `E2 80 AA..=AE` or `E2 81 A6..=A9` in UTF-8.
pub(crate) fn bidi_at(b: &[u8], i: usize) -> bool {
    b[i] == 0xE2
        && matches!(
            (b.get(i + 1), b.get(i + 2)),
            (Some(0x80), Some(0xAA..=0xAE)) | (Some(0x81), Some(0xA6..=0xA9))
        )
}

/// Whether the byte at `i` of `b` starts something [`strip`] removes: a C0 control other than `\n`
/// and `\t`, DEL, or the first byte of a C1 control.
pub(crate) fn strips_at(b: &[u8], i: usize) -> bool {
    match b[i] {
        b'\n' | b'\t' => false,
        0..0x20 | 0x7f => true,
        // C1 controls U+0080–U+009F are encoded as C2 80 … C2 9F.
        0xc2 => b.get(i + 1).is_some_and(|&n| (0x80..=0x9f).contains(&n)),
        _ => false,
    }
}

/// Whether no byte of the eight in `w` (little-endian) can start something [`strip`] removes:
/// no C0 control but `\n` and `\t`, no DEL, no 0xC2 (the first byte of a C1 control, and of
/// other characters: those are looked at one by one).
fn plain_word(w: u64) -> bool {
    crate::swar::maybe_control(w) == 0
}

/// `s` without escape sequences or control characters other than `\n` and `\t`, with
/// carriage returns applied as overwrites (see the module doc).
/// With `bidi`, the bidirectional controls ([`is_bidi_control`]) are removed in
/// the same pass: what [`crate::sanitize`] does to a text that needs stripping, in one copy.
pub(crate) fn strip(s: &str, bidi: bool) -> String {
    run(s, None, true, bidi)
}

/// [`strip`], and for each byte of the result the index in `s` of the byte it is (the
/// redactor reads what a reader sees and maps what it finds back to the original).
pub(crate) fn strip_mapped(s: &str) -> (String, Vec<u32>) {
    let mut map = Vec::with_capacity(s.len());
    let out = run(s, Some(&mut map), true, false);
    (out, map)
}

/// The scan of [`strip`]; `runs`: plain text copied a run at a time (`false` only in tests:
/// a character at a time, the reference the runs are held to); `bidi`: bidirectional controls
/// removed too.
fn run(s: &str, map: Option<&mut Vec<u32>>, runs: bool, bidi: bool) -> String {
    let mut st = Stripper {
        out: String::with_capacity(s.len()),
        line_start: 0,
        s,
        next: 0,
        at: 0,
        map,
        bidi,
    };
    let mut state = State::Text;
    loop {
        if runs && state == State::Text {
            st.copy_plain();
            // A whole CSI sequence next (nearly every escape of a tool's colored output):
            // passed over at once, as reading it a character at a time would.
            while st.skip_csi() {
                st.copy_plain();
            }
        }
        let Some(c) = st.next_char() else {
            break;
        };
        state = match state {
            State::Text => st.text(c),
            State::Escape => st.escape(c),
            State::EscapeIntermediate => match c {
                '\u{20}'..='\u{2f}' => State::EscapeIntermediate,
                '\u{30}'..='\u{7e}' => State::Text,
                _ => st.text(c),
            },
            State::Csi => match c {
                // Parameter and intermediate bytes.
                '\u{20}'..='\u{3f}' => State::Csi,
                // The final byte.
                '\u{40}'..='\u{7e}' => State::Text,
                _ => st.text(c),
            },
            State::Str => match c {
                BEL | ST => State::Text,
                ESC => State::StrEscape,
                '\n' => st.text(c),
                _ => State::Str,
            },
            State::StrEscape => match c {
                '\\' => State::Text,
                // An `ESC` that does not terminate begins a new sequence, as in a terminal.
                _ => st.escape(c),
            },
        };
    }
    st.out
}

/// The scanner's output and input.
struct Stripper<'a> {
    out: String,
    /// Where the current output line starts, for `\r`.
    line_start: usize,
    s: &'a str,
    /// Where the next character starts in the input.
    next: usize,
    /// Where the character being read starts in the input.
    at: usize,
    /// When asked: the input index of each output byte.
    map: Option<&'a mut Vec<u32>>,
    /// Bidirectional controls are removed too.
    bidi: bool,
}

impl Stripper<'_> {
    /// The next character of the input, read.
    fn next_char(&mut self) -> Option<char> {
        let c = self.s[self.next..].chars().next()?;
        self.at = self.next;
        self.next += c.len_utf8();
        Some(c)
    }

    /// The next character of the input, not read.
    fn peek(&self) -> Option<char> {
        self.s[self.next..].chars().next()
    }

    /// In plain text: the run ahead that is kept as it is — every character but a control
    /// other than `\n` and `\t` (C0, DEL, C1) — copied at once, as reading it a character at a
    /// time would (a `\n` in it starts a line for `\r`). Eight bytes at a time while none of
    /// them can start a control.
    fn copy_plain(&mut self) {
        let b = &self.s.as_bytes()[self.next..];
        let mut n = 0;
        let bidi = self.bidi;
        loop {
            n = crate::swar::skip_clean_blocks(b, n, |c| {
                crate::swar::maybe_control_byte(c) || (bidi && c == 0xe2)
            });
            while let Some(word) = b.get(n..n + 8) {
                let w = u64::from_le_bytes(word.try_into().expect("eight bytes"));
                if !plain_word(w) || (self.bidi && crate::swar::bytes_eq(w, 0xe2) != 0) {
                    break;
                }
                n += 8;
            }
            // Byte by byte through the word that may hold a control (or the last bytes).
            let end = (n + 8).min(b.len());
            while n < end && !strips_at(b, n) && !(self.bidi && bidi_at(b, n)) {
                n += 1;
            }
            if n < end || n == b.len() {
                break;
            }
        }
        if n == 0 {
            return;
        }
        let from = self.next;
        let run = &self.s[from..from + n];
        if let Some(last) = memchr::memrchr(b'\n', run.as_bytes()) {
            self.line_start = self.out.len() + last + 1;
        }
        self.out.push_str(run);
        if let Some(map) = self.map.as_deref_mut() {
            map.extend(from as u32..(from + n) as u32);
        }
        self.next += n;
    }

    /// In plain text: passes over a whole 7-bit CSI sequence ahead (`ESC [`, parameter and
    /// intermediate bytes, a final byte), which leaves nothing, as the states `Escape` and
    /// `Csi` would; whether there was one. A sequence cut short is left to the states.
    fn skip_csi(&mut self) -> bool {
        let b = &self.s.as_bytes()[self.next..];
        if !b.starts_with(b"\x1b[") {
            return false;
        }
        let params = b[2..]
            .iter()
            .take_while(|c| (0x20..=0x3f).contains(*c))
            .count();
        match b.get(2 + params) {
            Some(0x40..=0x7e) => {
                self.next += 2 + params + 1;
                true
            }
            _ => false,
        }
    }

    /// Keeps `c`, the character read.
    fn push(&mut self, c: char) {
        self.out.push(c);
        if let Some(map) = self.map.as_deref_mut() {
            let at = self.at as u32;
            map.extend((0..c.len_utf8() as u32).map(|k| at + k));
        }
    }

    /// Reads `c` as plain text (also when it cut an escape sequence short); the next state.
    fn text(&mut self, c: char) -> State {
        match c {
            ESC => return State::Escape,
            '\u{9b}' => return State::Csi,
            '\u{90}' | '\u{98}' | '\u{9d}' | '\u{9e}' | '\u{9f}' => return State::Str,
            '\n' => {
                self.push('\n');
                self.line_start = self.out.len();
            }
            '\r' => {
                while self.peek() == Some('\r') {
                    self.next += 1;
                }
                if self.peek().is_some_and(|n| n != '\n') {
                    self.out.truncate(self.line_start);
                    if let Some(map) = self.map.as_deref_mut() {
                        map.truncate(self.line_start);
                    }
                }
            }
            '\t' => self.push('\t'),
            c if c.is_control() => {}
            c if self.bidi && is_bidi_control(c) => {}
            c => self.push(c),
        }
        State::Text
    }

    /// Reads `c` right after an `ESC`; the next state. A lone `ESC` is dropped.
    fn escape(&mut self, c: char) -> State {
        match c {
            '[' => State::Csi,
            ']' | 'P' | 'X' | '^' | '_' => State::Str,
            '\u{20}'..='\u{2f}' => State::EscapeIntermediate,
            '\u{30}'..='\u{7e}' => State::Text,
            _ => self.text(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// True when [`strip`] would change `s`: it holds a C0 control other than `\n`/`\t`
    /// (escape and `\r` included), DEL, or a C1 control. Cheap: one pass over the bytes, eight
    /// at a time ([`crate::text::scan`], which [`crate::text::sanitize`] calls).
    fn needs_strip(s: &str) -> bool {
        crate::text::scan(s) == crate::text::Clean::Strip
    }

    /// `input` stripped is `expect`; and the fast check agrees that it needed stripping.
    fn check(input: &str, expect: &str) {
        assert_eq!(strip(input, false), expect, "strip({input:?})");
        // The mapped strip keeps the same bytes, each mapped to the input byte it is.
        let (mapped, map) = strip_mapped(input);
        assert_eq!(mapped, expect, "strip_mapped({input:?})");
        assert_eq!(map.len(), mapped.len());
        for (k, &at) in map.iter().enumerate() {
            assert_eq!(
                input.as_bytes()[at as usize],
                mapped.as_bytes()[k],
                "{input:?} at {k}"
            );
        }
        assert!(map.windows(2).all(|w| w[0] < w[1]), "in order: {input:?}");
        assert_eq!(
            needs_strip(input),
            input != expect,
            "needs_strip({input:?})"
        );
    }

    /// Plain text copied a run at a time gives what reading it a character at a time gives,
    /// and maps each byte back to the same place: every piece at every offset of a word.
    #[test]
    fn runs_of_plain_text_read_as_one_character_at_a_time() {
        let pieces = [
            "\x1b[31m",
            // CSI sequences passed over at once (`skip_csi`), whole and cut short.
            "\x1b[1;32m",
            "\x1b[?25l",
            "\x1b[1 q",
            "\x1b[",
            "\x1b[1",
            "\x1b[1\u{e9}",
            "\x1b[1\n",
            "\x1b[\x1b[m",
            "\x1b[1\x7f",
            "\x1b]8;;u\x07",
            "\0",
            "\r",
            "a\r\nb",
            "\x7f",
            "\u{85}",
            "\u{9b}1m",
            "\u{9c}",
            "\u{a0}",
            "©",
            "\u{c0}",
            "–",
            "\t",
            "\n",
            "🐝",
            "\x1b",
            "x\ry",
            "\u{202E}",
            "\u{2069}",
            "├─",
        ];
        for a in pieces {
            for b in pieces {
                for text in crate::swar::at_every_offset(a, b, "é") {
                    let (mut want_map, mut got_map) = (Vec::new(), Vec::new());
                    let want = run(&text, Some(&mut want_map), false, false);
                    let got = run(&text, Some(&mut got_map), true, false);
                    assert_eq!(got, want, "{text:?}");
                    assert_eq!(got_map, want_map, "{text:?}");
                    assert_eq!(strip(&text, false), want, "{text:?}");
                    let want = run(&text, None, false, true);
                    assert_eq!(strip(&text, true), want, "{text:?}");
                    let mut two_passes = strip(&text, false);
                    two_passes.retain(|c| !is_bidi_control(c));
                    assert_eq!(want, two_passes, "{text:?}");
                }
            }
        }
    }

    #[test]
    fn plain_text_is_untouched() {
        check("", "");
        check("hello world", "hello world");
        check("tabs\tand\nnewlines\n", "tabs\tand\nnewlines\n");
        check("émoji 🐝 ünïcode · …", "émoji 🐝 ünïcode · …");
        check(
            "[31m no escape, just brackets",
            "[31m no escape, just brackets",
        );
        // U+00A0 (C2 A0) and U+00C0 (C3 80) share bytes with C1 controls but are text.
        check("a\u{a0}b\u{c0}c", "a\u{a0}b\u{c0}c");
    }

    #[test]
    fn csi_sequences() {
        check("\x1b[31mred\x1b[0m", "red");
        check("\x1b[1;38;5;208mbold\x1b[m", "bold");
        check("\x1b[2K\x1b[1Gline", "line");
        check("\x1b[?25lhidden cursor\x1b[?25h", "hidden cursor");
        check("8-bit \u{9b}31mcsi\u{9b}0m", "8-bit csi");
        // Cut short by a newline: the newline stays, the sequence is gone.
        check("a\x1b[31\nb", "a\nb");
        // Cut short by a non-ASCII character: the character stays.
        check("a\x1b[3é", "aé");
        check("unterminated at end \x1b[", "unterminated at end ");
    }

    #[test]
    fn string_sequences() {
        check("\x1b]0;window title\x07after", "after");
        check("\x1b]0;title\x1b\\after", "after");
        check(
            "\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\",
            "link",
        );
        check("\x1b]8;;https://e.com\x07link\x1b]8;;\x07", "link");
        check("\u{9d}0;eight-bit osc\u{9c}after", "after");
        check("\x1bPdevice control\x1b\\after", "after");
        check("\x1b_apc\x07\x1b^pm\x07\x1bXsos\x07after", "after");
        // Unterminated: ends at the newline, so the next line shows.
        check("a\x1b]0;never ends\nnext line", "a\nnext line");
        check("\x1b]0;never ends at all", "");
        // An ESC inside that does not terminate starts a new sequence.
        check("\x1b]0;t\x1b[31mred", "red");
    }

    #[test]
    fn other_escapes() {
        check("\x1b(Bcharset", "charset");
        check("\x1b)0\x1b7saved\x1b8", "saved");
        check("\x1b=keypad\x1b>", "keypad");
        check("\x1bcreset", "reset");
        check("lone \x1b", "lone ");
        check("\x1b\x1b[31mdouble", "double");
        check("esc before newline\x1b\nx", "esc before newline\nx");
        check("esc then é\x1bé", "esc then éé");
    }

    #[test]
    fn control_characters() {
        check("nul\0byte", "nulbyte");
        check(
            "bell\x07 backspace\x08 ff\x0c vt\x0b",
            "bell backspace ff vt",
        );
        check("del\x7f", "del");
        check("c1 \u{80}\u{85}\u{8d}\u{9c}x", "c1 x");
        check("\u{1}\u{1f}", "");
    }

    #[test]
    fn carriage_returns() {
        check("crlf\r\nline\r\n", "crlf\nline\n");
        check("double\r\r\nline", "double\nline");
        check("trailing\r", "trailing");
        check("10%\r20%\r30%", "30%");
        check(
            "first\nprogress 1%\rprogress 100%\ndone",
            "first\nprogress 100%\ndone",
        );
        check("\rstart", "start");
        check("a\x1b[K\rb", "b");
    }

    /// `needs_strip` looks eight bytes at a time: every control at every offset of a longer
    /// text is still found, a C1 control whose two bytes straddle two words too.
    #[test]
    fn the_fast_check_finds_controls_anywhere() {
        for c in ["\x1b", "\0", "\r", "\x7f", "\u{85}", "\u{9f}"] {
            for at in 0..40 {
                let text = format!("{}{c}{}", "a".repeat(at), "b".repeat(40 - at));
                assert!(needs_strip(&text), "{text:?}");
            }
        }
        for at in 0..40 {
            let text = format!("{}\u{a0}é\t\n{}", "a".repeat(at), "b".repeat(40 - at));
            assert!(!needs_strip(&text), "{text:?}");
        }
    }

    #[test]
    fn stays_linear_on_long_sequences() {
        let long = "\x1b[".to_owned() + &"1;".repeat(200_000) + "m" + "text";
        assert_eq!(strip(&long, false), "text");
        let many = "\r".repeat(100_000) + "x";
        assert_eq!(strip(&many, false), "x");
        let csi = "\x1b[".repeat(100_000);
        assert_eq!(strip(&csi, false), "");
    }
}
