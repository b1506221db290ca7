//! Where the value of a secret-named assignment ends, and what may precede its name: the
//! bytes that stop an unquoted value, the start of a line or a list, and the text the
//! assignment sits in (brackets, emphasis and table marks), which its value cannot outlast.

/// Stops an unquoted assignment value.
pub(super) fn ends_value(c: u8) -> bool {
    c.is_ascii_whitespace() || matches!(c, b'"' | b'\'' | b'&' | b',' | b';' | b'`' | b'\\')
}

/// What precedes an unquoted name before `:`, on its line.
pub(super) enum Lead {
    /// Nothing but spaces or a YAML list's `-`.
    LineStart,
    /// An opening bracket or a list's separator (`{`, `(`, `[`, `,`, `;`), then spaces.
    ListStart,
    /// Prose or code.
    Other,
}

pub(super) fn line_lead(b: &[u8], lead: usize) -> Lead {
    let mut i = lead;
    while i > 0 && matches!(b[i - 1], b' ' | b'\t' | b'-') {
        i -= 1;
    }
    match i.checked_sub(1).map(|i| b[i]) {
        None | Some(b'\n' | b'\r') => Lead::LineStart,
        Some(b'{' | b'(' | b'[' | b',' | b';') => Lead::ListStart,
        Some(_) => Lead::Other,
    }
}

/// Bytes looked back from a name for the bracket it sits in.
const ENCLOSURE_LOOKBACK: usize = 256;

/// The text an assignment sits in, which its unquoted value cannot outlast: a bracket open
/// before the name on its line (`(`, `[`, `{`, right before it `<`, or `>` closing a tag),
/// whose closer ends the value unless the value opened it again (`getpw()` stays whole, and
/// is code); or a run of emphasis or table marks right before the name (`**`, `|`, `~`),
/// which the value does not keep at its end. A closer with no opener before the name is the
/// value's (`DB_PASSWORD=abc)def`).
#[derive(Debug, Clone, Copy)]
pub(super) enum Enclosure {
    None,
    /// The opener and its closer.
    Bracket(u8, u8),
    /// The mark and how many of it (up to 3).
    Marks(u8, usize),
}

impl Enclosure {
    /// The enclosure of a name whose lead (what precedes it) ends at `lead`.
    pub(super) fn of(b: &[u8], lead: usize) -> Enclosure {
        let Some(&c) = lead.checked_sub(1).map(|i| &b[i]) else {
            return Enclosure::None;
        };
        match c {
            b'<' => return Enclosure::Bracket(b'<', b'>'),
            b'>' => return Enclosure::Bracket(b'>', b'<'),
            b'*' | b'|' | b'~' | b'!' | b'#' | b'%' | b'^' | b'?' | b'@' | b'$' | b':' => {
                let n = b[..lead]
                    .iter()
                    .rev()
                    .take(3)
                    .take_while(|&&d| d == c)
                    .count();
                return Enclosure::Marks(c, n);
            }
            _ => {}
        }
        // The innermost bracket still open before the name, on its line.
        let mut depth = 0usize;
        for &c in b[lead.saturating_sub(ENCLOSURE_LOOKBACK)..lead]
            .iter()
            .rev()
        {
            match c {
                b'\n' => break,
                b')' | b']' | b'}' => depth += 1,
                b'(' | b'[' | b'{' if depth > 0 => depth -= 1,
                b'(' => return Enclosure::Bracket(b'(', b')'),
                b'[' => return Enclosure::Bracket(b'[', b']'),
                b'{' => return Enclosure::Bracket(b'{', b'}'),
                _ => {}
            }
        }
        Enclosure::None
    }

    /// The end of an unquoted value starting at `v`.
    pub(super) fn value_end(self, b: &[u8], v: usize) -> usize {
        let mut end = v;
        let mut depth = 0usize;
        while end < b.len() && !ends_value(b[end]) {
            if let Enclosure::Bracket(open, close) = self {
                if b[end] == close {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                } else if b[end] == open {
                    depth += 1;
                }
            }
            end += 1;
        }
        if let Enclosure::Marks(mark, n) = self {
            let trailing = b[v..end]
                .iter()
                .rev()
                .take(n)
                .take_while(|&&c| c == mark)
                .count();
            end -= trailing;
        }
        end
    }
}
