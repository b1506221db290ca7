//! Bytes in arbitrary chunks → numbered lines.
//!
//! A [`LineReader`] is fed whatever pieces the input arrives in (a live pipe, a file read in
//! blocks, a browser `File` sliced into chunks) and yields the same [`Line`]s whatever the
//! split. Lines end at `\n`; a `\r` right before it is dropped, a lone `\r` elsewhere is kept
//! (it is the line's content, not a terminator). Blank lines (only spaces, tabs and `\r`) are
//! counted but not yielded. Bytes are passed through untouched: a byte-order mark or invalid
//! UTF-8 is for [`parse_line`](crate::parse_line) to judge.
//!
//! A line longer than the reader's limit ([`MAX_LINE_BYTES`] by default) is not buffered past
//! the limit: it is yielded once, as a [`Line`] with [`Line::oversize`] set and only its first
//! bytes kept, so the caller shows one error row and goes on with the next line.
//!
//! This module only frames bytes: it knows nothing of what a line means. A [`Line`] (whole
//! or over-long) becomes an envelope through [`classify_line`](crate::classify_line); the
//! usual caller is [`LogClassifier`](crate::LogClassifier), which owns a reader.
//!
//! Cost: one `memchr` scan per chunk, one copy per line (a line inside one chunk is copied
//! straight out of it; a line spanning chunks is gathered in an amortised buffer), so a huge
//! line arriving in small chunks stays linear. [`LineReader::push_ref`] lends a line inside one
//! chunk instead of copying it (what `LogClassifier` reads: it parses the line at once).

use std::borrow::Cow;

/// The one line limit: the longest line kept whole, 64 MiB; the default of every path that
/// reads a log ([`LogClassifier`](crate::LogClassifier), so `hiveterm classify` and the page's
/// worker; the server's ingest, issue 8).
pub const MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// How many leading bytes of an over-long line are kept for the error row's preview.
pub const OVERSIZE_HEAD_BYTES: usize = 256;

/// One non-blank line of input, without its line terminator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// 1-based physical line number (blank lines count).
    pub number: u64,
    /// The line's bytes without `\n` or the `\r` before it; for an [`oversize`](Line::oversize)
    /// line only its first [`OVERSIZE_HEAD_BYTES`].
    pub bytes: Vec<u8>,
    /// Set when the line was longer than the reader's limit and was not kept whole.
    pub oversize: Option<Oversize>,
}

/// How far a line overran the reader's limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Oversize {
    /// The line's full length in bytes (without its terminator).
    pub len: u64,
    /// The reader's limit in bytes.
    pub limit: u64,
}

impl Line {
    /// A whole line (not over any limit) numbered `number`: how a caller that stored a
    /// line's bytes, or has them from elsewhere, hands them back to
    /// [`classify_line`](crate::classify_line).
    pub fn whole(number: u64, bytes: impl Into<Vec<u8>>) -> Line {
        Line {
            number,
            bytes: bytes.into(),
            oversize: None,
        }
    }
}

/// A [`Line`] as [`LineReader::push_ref`] hands it: borrowed from the chunk when the whole
/// line sits in it (no copy), else from the reader's buffer, where its pieces were gathered
/// (an over-long line's head: owned).
#[derive(Debug)]
pub(crate) struct LineRef<'a> {
    pub(crate) number: u64,
    pub(crate) bytes: Cow<'a, [u8]>,
    pub(crate) oversize: Option<Oversize>,
}

impl LineRef<'_> {
    fn into_line(self) -> Line {
        Line {
            number: self.number,
            bytes: self.bytes.into_owned(),
            oversize: self.oversize,
        }
    }
}

/// The most room a [`LineReader`] keeps between gathered lines.
const KEPT_BUF_BYTES: usize = 4 << 20;

/// Splits a byte stream fed in chunks into numbered non-blank lines.
#[derive(Debug)]
pub struct LineReader {
    /// The current line's bytes so far (capped at `limit` while it still may fit, at
    /// [`OVERSIZE_HEAD_BYTES`] once it is known to be too long).
    buf: Vec<u8>,
    /// The current line's full length so far, including bytes not kept.
    len: u64,
    /// The current line has gone past `limit`.
    over: bool,
    /// Every byte of the current over-long line seen so far was blank.
    over_blank: bool,
    /// The last byte seen of the current line was `\r`.
    last_cr: bool,
    /// Physical lines finished so far.
    number: u64,
    /// Bytes fed so far.
    fed: u64,
    /// Longest line kept whole.
    limit: usize,
    /// The longest line so far that did not sit in one chunk: the room taken at once for the
    /// next such line, which is then copied once rather than grown again and again.
    span_hint: usize,
}

impl Default for LineReader {
    fn default() -> LineReader {
        LineReader::new()
    }
}

impl LineReader {
    /// A reader at the start of a stream, with the default [`MAX_LINE_BYTES`] limit.
    pub fn new() -> LineReader {
        LineReader::with_limit(MAX_LINE_BYTES)
    }

    /// A reader that keeps lines of at most `limit` bytes (without terminator) and yields
    /// longer ones as [`Line::oversize`].
    pub fn with_limit(limit: usize) -> LineReader {
        LineReader {
            buf: Vec::new(),
            len: 0,
            over: false,
            over_blank: true,
            last_cr: false,
            number: 0,
            fed: 0,
            limit,
            span_hint: 0,
        }
    }

    /// A reader resumed at a line start after `lines` physical lines (the next line is
    /// numbered `lines + 1`): fed the bytes from that line on, it yields exactly the lines a
    /// reader fed the whole stream yields from there (see [`line_start`](Self::line_start)).
    pub fn resume(limit: usize, lines: u64) -> LineReader {
        LineReader {
            number: lines,
            ..LineReader::with_limit(limit)
        }
    }

    /// Where the line in progress starts, in bytes from the first byte fed: every line
    /// before it is complete (and yielded). With [`lines_seen`](Self::lines_seen), a point
    /// to [`resume`](Self::resume) from.
    pub fn line_start(&self) -> u64 {
        self.fed - self.len
    }

    /// Feeds a chunk; calls `out` for each complete non-blank line, in order.
    pub fn push(&mut self, chunk: &[u8], mut out: impl FnMut(Line)) {
        self.push_ref(chunk, |line| out(line.into_line()));
    }

    /// [`push`](Self::push), a line that sits whole in `chunk` lent rather than copied.
    pub(crate) fn push_ref(&mut self, chunk: &[u8], mut out: impl FnMut(LineRef<'_>)) {
        self.fed += chunk.len() as u64;
        let mut rest = chunk;
        while let Some(i) = memchr::memchr(b'\n', rest) {
            let piece = &rest[..i];
            rest = &rest[i + 1..];
            self.number += 1;
            if self.len == 0 {
                // The whole line sits in this chunk: judge it and lend it straight from there.
                let piece = piece.strip_suffix(b"\r").unwrap_or(piece);
                if is_blank(piece) {
                    continue;
                }
                if piece.len() <= self.limit {
                    out(LineRef {
                        number: self.number,
                        bytes: Cow::Borrowed(piece),
                        oversize: None,
                    });
                } else {
                    out(self.oversize_line(piece, piece.len() as u64));
                }
            } else {
                self.extend(piece);
                self.end_line(&mut out);
            }
        }
        if !rest.is_empty() {
            self.extend(rest);
        }
    }

    /// Ends the stream; yields a last line that had no newline.
    pub fn finish(&mut self, mut out: impl FnMut(Line)) {
        self.finish_ref(|line| out(line.into_line()));
    }

    /// [`finish`](Self::finish) for [`push_ref`](Self::push_ref).
    pub(crate) fn finish_ref(&mut self, mut out: impl FnMut(LineRef<'_>)) {
        if self.len > 0 {
            self.number += 1;
            self.end_line(&mut out);
        }
    }

    /// The longest line kept whole, in bytes.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Physical lines seen so far, blank ones included (a last line without newline counts
    /// once [`finish`](LineReader::finish) has run).
    pub fn lines_seen(&self) -> u64 {
        self.number
    }

    /// Adds a piece of the current (unfinished) line.
    fn extend(&mut self, piece: &[u8]) {
        if piece.is_empty() {
            return;
        }
        self.len += piece.len() as u64;
        self.last_cr = piece.last() == Some(&b'\r');
        if !self.over {
            // One byte of slack for a `\r` that the `\n` will show to be a terminator.
            if self.len <= self.limit as u64 + 1 {
                if self.buf.is_empty() {
                    // At most 4 MiB ahead: one giant line does not make every later one
                    // take as much.
                    let room = self.span_hint.min(4 << 20).min(self.limit + 1);
                    self.buf.reserve(room.max(piece.len()));
                }
                self.buf.extend_from_slice(piece);
                return;
            }
            // Crossing the limit: keep the head only, from now on just count.
            self.over = true;
            self.over_blank = is_blank(&self.buf) && is_blank(piece);
            let head = OVERSIZE_HEAD_BYTES.min(self.limit);
            if self.buf.len() < head {
                let more = (head - self.buf.len()).min(piece.len());
                self.buf.extend_from_slice(&piece[..more]);
            }
            self.buf.truncate(head);
            self.buf.shrink_to_fit();
            return;
        }
        if self.over_blank {
            self.over_blank = is_blank(piece);
        }
    }

    /// Yields the gathered line (already counted in `number`) and resets for the next.
    fn end_line(&mut self, out: &mut impl FnMut(LineRef<'_>)) {
        let len = std::mem::replace(&mut self.len, 0);
        let over = std::mem::replace(&mut self.over, false);
        let over_blank = std::mem::replace(&mut self.over_blank, true);
        let last_cr = std::mem::replace(&mut self.last_cr, false);
        if !over {
            self.span_hint = self.span_hint.max(self.buf.len());
        }
        if over {
            let bytes = std::mem::take(&mut self.buf);
            if !over_blank {
                out(LineRef {
                    number: self.number,
                    bytes: Cow::Owned(bytes),
                    oversize: Some(Oversize {
                        len: len - u64::from(last_cr),
                        limit: self.limit as u64,
                    }),
                });
            }
            return;
        }
        // The line is lent from the buffer, which is kept for the next (a line of a log of long
        // lines gathered in memory already in the cache, not in a fresh allocation).
        let bytes = self.buf.strip_suffix(b"\r").unwrap_or(&self.buf);
        if !is_blank(bytes) {
            if bytes.len() <= self.limit {
                out(LineRef {
                    number: self.number,
                    bytes: Cow::Borrowed(bytes),
                    oversize: None,
                });
            } else {
                out(self.oversize_line(bytes, bytes.len() as u64));
            }
        }
        self.buf.clear();
        if self.buf.capacity() > KEPT_BUF_BYTES {
            self.buf = Vec::new();
        }
    }

    fn oversize_line(&self, line: &[u8], len: u64) -> LineRef<'static> {
        let head = OVERSIZE_HEAD_BYTES.min(self.limit).min(line.len());
        LineRef {
            number: self.number,
            bytes: Cow::Owned(line[..head].to_vec()),
            oversize: Some(Oversize {
                len,
                limit: self.limit as u64,
            }),
        }
    }
}

/// Only spaces, tabs and `\r`: a line that gives no envelope.
fn is_blank(bytes: &[u8]) -> bool {
    bytes.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}
