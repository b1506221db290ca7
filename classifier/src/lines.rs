//! Bytes in arbitrary chunks → numbered lines.

/// One line of input, without its line terminator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// 1-based physical line number (blank lines count).
    pub number: u64,
    /// The line's bytes, `\r\n` already reduced to nothing.
    pub bytes: Vec<u8>,
}

/// Splits a byte stream fed in chunks into non-blank lines.
#[derive(Debug, Default)]
pub struct LineReader {
    buf: Vec<u8>,
    number: u64,
}

impl LineReader {
    /// A reader at the start of a stream.
    pub fn new() -> LineReader {
        LineReader::default()
    }

    /// Feeds a chunk; calls `out` for each complete non-blank line.
    pub fn push(&mut self, chunk: &[u8], mut out: impl FnMut(Line)) {
        for &b in chunk {
            if b == b'\n' {
                self.number += 1;
                let bytes = std::mem::take(&mut self.buf);
                emit(self.number, bytes, &mut out);
            } else {
                self.buf.push(b);
            }
        }
    }

    /// Ends the stream; yields a last line that had no newline.
    pub fn finish(&mut self, mut out: impl FnMut(Line)) {
        if !self.buf.is_empty() {
            self.number += 1;
            let bytes = std::mem::take(&mut self.buf);
            emit(self.number, bytes, &mut out);
        }
    }
}

fn emit(number: u64, mut bytes: Vec<u8>, out: &mut impl FnMut(Line)) {
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    if bytes.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
        return;
    }
    out(Line { number, bytes });
}
