//! What a reader sees of a text, mapped back to the text: its JSON escapes decoded (a line
//! that is not JSON shows `\u0073k-ant-…`, and a JSON string can hold one escaped again),
//! then format characters (zero-width, bidirectional and other invisible ones) and, as the
//! rows drop them (`crate::ansi::strip`), escape sequences and control characters removed.
//! A secret split by a colour code, a BEL or a U+202E reads whole here, and a colour code
//! right before a token no longer passes for a word character.

use memchr::memchr_iter;

use crate::swar::{HIGH, bytes_eq, maybe_control};

/// A text as read, each of its bytes mapped to the bytes of the original it came from.
pub(super) struct View {
    pub(super) text: String,
    /// Per byte of `text`: where its source starts and ends in the original.
    start: Vec<u32>,
    end: Vec<u32>,
}

impl View {
    /// The view of `text` when it differs from it (escapes, format or control characters);
    /// `None` for nearly every text, after one cheap pass.
    pub(super) fn of(b: &[u8]) -> Option<View> {
        if !needs_view(b) {
            return None;
        }
        let text = std::str::from_utf8(b).ok()?;
        let escapes = has_escapes(b);
        let format = (0..b.len()).any(|i| format_at(b, i));
        let control = (0..b.len()).any(|i| crate::ansi::strips_at(b, i));
        if !(escapes || format || control) || u32::try_from(text.len()).is_err() {
            return None;
        }
        if !(escapes || format) {
            // Only controls and escape sequences: stripped, each byte its own source.
            let (text, start) = crate::ansi::strip_mapped(text);
            let end = start.iter().map(|&i| i + 1).collect();
            return Some(View { text, start, end });
        }
        let mut view = decode(text, escapes);
        if view
            .text
            .bytes()
            .any(|c| c < 0x20 && c != b'\n' && c != b'\t' || c == 0x7f)
            || view
                .text
                .contains(['\u{9b}', '\u{9d}', '\u{90}', '\u{98}', '\u{9e}', '\u{9f}'])
        {
            let (text, map) = crate::ansi::strip_mapped(&view.text);
            let start = map.iter().map(|&i| view.start[i as usize]).collect();
            let end = map.iter().map(|&i| view.end[i as usize]).collect();
            view = View { text, start, end };
        }
        Some(view)
    }

    /// The original range of the view's bytes `s..e` (`s < e`).
    pub(super) fn source(&self, s: usize, e: usize) -> (usize, usize) {
        (self.start[s] as usize, self.end[e - 1] as usize)
    }

    /// Whether something the reader does not see stood right before view byte `i`.
    pub(super) fn cut_before(&self, i: usize) -> bool {
        i > 0 && self.end[i - 1] != self.start[i]
    }
}

/// Whether `b` may read otherwise than it is stored: a JSON escape, a control or a format
/// character. Eight bytes at a time: a word of printable ASCII without `\\` (nearly every
/// word of most text) is passed over after a few arithmetic operations.
fn needs_view(b: &[u8]) -> bool {
    let odd_at = |k: usize| match b[k] {
        b'\\' => matches!(b.get(k + 1), Some(b'u' | b'/')),
        c if c < 0x80 => (c < 0x20 && c != b'\n' && c != b'\t') || c == 0x7f,
        _ => crate::ansi::strips_at(b, k) || format_at(b, k),
    };
    let words = b.chunks_exact(8);
    let tail = b.len() - words.remainder().len();
    for (n, word) in words.enumerate() {
        let w = u64::from_le_bytes(word.try_into().unwrap_or_default());
        let odd = (w & HIGH) | maybe_control(w) | bytes_eq(w, b'\\');
        if odd != 0 && (n * 8..n * 8 + 8).any(odd_at) {
            return true;
        }
    }
    (tail..b.len()).any(odd_at)
}

/// A JSON escape that changes what a token reads as: `\uXXXX` or `\/`.
fn has_escapes(b: &[u8]) -> bool {
    memchr_iter(b'\\', b).any(|i| matches!(b.get(i + 1), Some(b'u' | b'/')))
}

/// Whether a format character ([`is_format`]) starts at byte `i` of UTF-8 `b`: looked up by
/// its bytes, so the common non-ASCII characters (`…`, `→`, `—`, emoji) cost a compare or two.
fn format_at(b: &[u8], i: usize) -> bool {
    let at = |k: usize| b.get(i + k).copied().unwrap_or(0);
    match b[i] {
        0xc2 => at(1) == 0xad,
        0xd8 => matches!(at(1), 0x80..=0x85 | 0x9c),
        0xdb => at(1) == 0x9d,
        0xdc => at(1) == 0x8f,
        0xe0 => matches!((at(1), at(2)), (0xa2, 0x90 | 0x91) | (0xa3, 0xa2)),
        0xe1 => (at(1), at(2)) == (0xa0, 0x8e),
        0xe2 => matches!((at(1), at(2)), (0x80, 0x8b..=0x8f | 0xaa..=0xae) | (0x81, 0xa0..=0xaf)),
        0xef => matches!((at(1), at(2)), (0xbb, 0xbf) | (0xbf, 0xb9..=0xbb)),
        0xf0 | 0xf3
            if matches!(
                (b[i], at(1)),
                (0xf0, 0x91 | 0x93 | 0x9b | 0x9d) | (0xf3, 0xa0)
            ) =>
        {
            std::str::from_utf8(&b[i..(i + 4).min(b.len())])
                .ok()
                .and_then(|s| s.chars().next())
                .is_some_and(is_format)
        }
        _ => false,
    }
}

/// A Unicode format character (category Cf): invisible, it can split a token a reader
/// sees whole.
pub(super) fn is_format(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{600}'..='\u{605}'
            | '\u{61c}'
            | '\u{6dd}'
            | '\u{70f}'
            | '\u{890}'..='\u{891}'
            | '\u{8e2}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206f}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{110bd}'
            | '\u{110cd}'
            | '\u{13430}'..='\u{1343f}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0001}'
            | '\u{e0020}'..='\u{e007f}'
    )
}

/// `text` with its JSON escapes decoded (when `escapes`) and format characters dropped.
fn decode(text: &str, escapes: bool) -> View {
    let b = text.as_bytes();
    let mut view = View {
        text: String::with_capacity(text.len()),
        start: Vec::with_capacity(text.len()),
        end: Vec::with_capacity(text.len()),
    };
    let push = |view: &mut View, c: char, from: usize, to: usize, whole: bool| {
        if is_format(c) {
            return;
        }
        let n = c.len_utf8();
        view.text.push(c);
        for k in 0..n {
            // A decoded escape maps each byte to all of it; a plain character byte by byte.
            let (s, e) = if whole {
                (from, to)
            } else {
                (from + k, from + k + 1)
            };
            view.start.push(s as u32);
            view.end.push(e as u32);
        }
    };
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '\\'
            && escapes
            && let Some((decoded, len)) = escape_at(b, i)
        {
            push(&mut view, decoded, i, i + len, true);
            while chars.next_if(|&(j, _)| j < i + len).is_some() {}
            continue;
        }
        push(&mut view, c, i, i + c.len_utf8(), false);
    }
    view
}

/// The JSON escape at `i` (a backslash): the character and the escape's length.
fn escape_at(b: &[u8], i: usize) -> Option<(char, usize)> {
    let simple = match b.get(i + 1)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let unit = hex4(b, i + 2)?;
            if (0xd800..0xdc00).contains(&unit)
                && b.get(i + 6) == Some(&b'\\')
                && b.get(i + 7) == Some(&b'u')
                && let Some(low) = hex4(b, i + 8).filter(|l| (0xdc00..0xe000).contains(l))
            {
                let c = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
                return char::from_u32(c).map(|c| (c, 12));
            }
            return char::from_u32(unit).map(|c| (c, 6));
        }
        _ => return None,
    };
    Some((simple, 2))
}

fn hex4(b: &[u8], i: usize) -> Option<u32> {
    let digits = std::str::from_utf8(b.get(i..i + 4)?).ok()?;
    u32::from_str_radix(digits, 16).ok()
}
