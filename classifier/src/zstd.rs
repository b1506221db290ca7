//! Zstandard-compressed logs: Codex compresses an idle rollout to `rollout-*.jsonl.zst` (its
//! `codex-rs/rollout/src/compression.rs` reads both forms). A log is known as compressed by
//! its first bytes ([`MAGIC`]), whatever its name, and read decompressed, every frame in turn
//! (frames may follow one another). Pure Rust (`ruzstd`), so the page's worker decompresses as
//! the command line does; no I/O of its own: [`Decompressed`] reads whatever [`Read`] it is
//! given, and [`decompress`] takes bytes.
//!
//! [`Frames`] reads a stream that may be read in pieces, over time (the server's watched and
//! followed logs): it says where it is ([`FramePos`]: the frame being read and how much of it
//! is out), so a reader stopped anywhere can start again there, and it refuses a frame whose
//! window (the memory its decoding holds) is over a bound.

use std::io::{self, BufRead, BufReader, Read};

use ruzstd::decoding::{FrameDecoder, StreamingDecoder};

/// The first bytes of a zstd frame.
pub const MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// Whether bytes that start a log start a zstd frame.
pub fn is_zstd(head: &[u8]) -> bool {
    head.starts_with(&MAGIC)
}

/// A zstd stream of one or more frames, read decompressed.
pub struct Decompressed<R: Read> {
    dec: Option<StreamingDecoder<BufReader<R>, FrameDecoder>>,
}

impl<R: Read> Decompressed<R> {
    /// Starts reading `input`, which must begin with a zstd frame; an error says why not.
    pub fn new(input: R) -> io::Result<Decompressed<R>> {
        let dec = StreamingDecoder::new(BufReader::new(input)).map_err(io::Error::other)?;
        Ok(Decompressed { dec: Some(dec) })
    }
}

impl<R: Read> Read for Decompressed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some(dec) = self.dec.as_mut() else {
                return Ok(0);
            };
            let n = dec.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            // This frame is done: another may follow.
            let Some(done) = self.dec.take() else {
                return Ok(0);
            };
            let (mut source, frame) = done.into_parts();
            if source.fill_buf()?.is_empty() {
                return Ok(0);
            }
            let next =
                StreamingDecoder::new_with_decoder(source, frame).map_err(io::Error::other)?;
            self.dec = Some(next);
        }
    }
}

/// Where a [`Frames`] reader is: the frame being read (its first byte's offset in the
/// compressed stream) and the decompressed bytes of it read so far. A frame cannot be
/// decoded from its middle: a reader started again at a `FramePos` starts at the frame and
/// passes over `within` bytes ([`Frames::skip`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FramePos {
    /// Offset of the frame's first byte in the compressed stream.
    pub frame: u64,
    /// Decompressed bytes of that frame already read.
    pub within: u64,
}

/// Counts the bytes read from the stream, so a frame's start is known.
struct Counted<R> {
    inner: R,
    read: u64,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        Ok(n)
    }
}

type Source<R> = BufReader<Counted<R>>;

/// The frame being read, or, between frames, the stream and the decoder the next one is
/// read with.
enum State<R: Read> {
    Between(Source<R>, FrameDecoder),
    In(StreamingDecoder<Source<R>, FrameDecoder>),
    /// After an error: nothing more is read.
    Broken,
}

/// A zstd stream of frames read decompressed, each read's bytes from one frame, saying
/// where it is ([`pos`](Frames::pos)). An error (a frame cut short, corrupt, or with a window
/// over the bound) ends it: a new reader started at its last good [`FramePos`] goes on once
/// the stream is whole.
pub struct Frames<R: Read> {
    state: State<R>,
    /// Where the frame being read starts, relative to where `input` started (after a frame
    /// ends: where the next one would).
    frame: u64,
    within: u64,
    /// The start of the stream, in the caller's offsets.
    base: u64,
}

impl<R: Read> Frames<R> {
    /// Reads `input`, which starts at a frame's start (or at the stream's end), byte
    /// `base` of the whole stream; a frame whose window is over `max_window` bytes is an
    /// error.
    pub fn new(input: R, base: u64, max_window: u64) -> Frames<R> {
        let mut dec = FrameDecoder::new();
        dec.set_max_window_size(max_window);
        let source = BufReader::new(Counted {
            inner: input,
            read: 0,
        });
        Frames {
            state: State::Between(source, dec),
            frame: 0,
            within: 0,
            base,
        }
    }

    /// Where the reader is: the frame the next bytes come from (or, between frames, where
    /// the next one starts, `within` 0).
    pub fn pos(&self) -> FramePos {
        FramePos {
            frame: self.base + self.frame,
            within: self.within,
        }
    }

    /// Reads and drops `n` decompressed bytes; an error if the stream ends first.
    pub fn skip(&mut self, mut n: u64) -> io::Result<()> {
        let mut scratch = vec![0u8; 64 * 1024];
        while n > 0 {
            let want = scratch.len().min(usize::try_from(n).unwrap_or(usize::MAX));
            match self.read(&mut scratch[..want])? {
                0 => return Err(io::ErrorKind::UnexpectedEof.into()),
                got => n -= got as u64,
            }
        }
        Ok(())
    }

    /// Reads decompressed bytes into `buf`, all from one frame; 0 at the end of the stream
    /// (its last frame whole).
    pub fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            match std::mem::replace(&mut self.state, State::Broken) {
                State::Broken => return Err(io::Error::other("an earlier read failed")),
                State::In(mut dec) => {
                    let n = dec.read(buf)?;
                    if n > 0 {
                        self.within += n as u64;
                        self.state = State::In(dec);
                        return Ok(n);
                    }
                    // This frame is done: the next one starts where its bytes ended.
                    let (source, dec) = dec.into_parts();
                    self.frame = source.get_ref().read - source.buffer().len() as u64;
                    self.within = 0;
                    self.state = State::Between(source, dec);
                }
                State::Between(mut source, dec) => {
                    if source.fill_buf()?.is_empty() {
                        self.state = State::Between(source, dec);
                        return Ok(0);
                    }
                    let next = StreamingDecoder::new_with_decoder(source, dec)
                        .map_err(io::Error::other)?;
                    self.state = State::In(next);
                }
            }
        }
    }
}

/// `bytes` decompressed when they are a zstd stream ([`is_zstd`]), else `None`; a stream that
/// is cut short or corrupt is an error saying what was wrong.
pub fn decompress(bytes: &[u8]) -> Option<Result<Vec<u8>, String>> {
    if !is_zstd(bytes) {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len().saturating_mul(4));
    Some(
        Decompressed::new(bytes)
            .and_then(|mut d| d.read_to_end(&mut out))
            .map(|_| out)
            .map_err(|e| format!("a zstd-compressed log that cannot be read: {e}")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `hello\n` compressed by `zstd -19` (one frame, with its checksum).
    const HELLO: &[u8] = &[
        0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x68, 0x31, 0x00, 0x00, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x0a,
        0x53, 0x88, 0xbd, 0x91,
    ];

    #[test]
    fn plain_bytes_are_not_zstd() {
        assert!(decompress(b"{\"type\":\"x\"}\n").is_none());
        assert!(decompress(b"").is_none());
        assert!(decompress(&MAGIC[..3]).is_none());
    }

    /// Reads `bytes` with [`Frames`] in pieces of `piece`, started again at its position
    /// every `again` reads: every byte once, and each read's position.
    fn read_frames(bytes: &[u8], piece: usize, again: usize) -> (Vec<u8>, Vec<FramePos>) {
        let (mut out, mut seen) = (Vec::new(), Vec::new());
        let mut frames = Frames::new(bytes, 0, 1 << 23);
        let mut buf = vec![0u8; piece];
        for reads in 1.. {
            let n = frames.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            out.extend_from_slice(&buf[..n]);
            seen.push(frames.pos());
            if reads % again == 0 {
                let at = frames.pos();
                frames = Frames::new(&bytes[at.frame as usize..], at.frame, 1 << 23);
                frames.skip(at.within).unwrap();
            }
        }
        (out, seen)
    }

    #[test]
    fn frames_say_where_they_are_and_start_again_there() {
        let two = [HELLO, HELLO].concat();
        let (out, seen) = read_frames(&two, 4, usize::MAX);
        assert_eq!(out, b"hello\nhello\n");
        let at = |frame, within| FramePos { frame, within };
        assert_eq!(seen, [at(0, 4), at(0, 6), at(19, 4), at(19, 6)]);
        for again in 1..4 {
            assert_eq!(read_frames(&two, 4, again).0, out, "again {again}");
        }
        // A cut frame is an error once its whole bytes are read; what came before stays read.
        let mut cut = Frames::new(&two[..25], 0, 1 << 23);
        let mut buf = [0u8; 64];
        assert_eq!(cut.read(&mut buf).unwrap(), 6);
        assert!(cut.read(&mut buf).is_err());
        // The end of the stream, read again, is still the end.
        let mut end = Frames::new(&two[..0], 38, 1 << 23);
        assert_eq!(end.read(&mut buf).unwrap(), 0);
        assert_eq!(end.pos(), at(38, 0));
        // A frame whose window is over the bound is refused.
        assert!(Frames::new(HELLO, 0, 0).read(&mut buf).is_err());
    }

    #[test]
    fn frames_in_turn_and_cut_streams() {
        assert_eq!(decompress(HELLO), Some(Ok(b"hello\n".to_vec())));
        let two = [HELLO, HELLO].concat();
        assert_eq!(decompress(&two), Some(Ok(b"hello\nhello\n".to_vec())));
        for cut in 4..HELLO.len() - 1 {
            assert!(
                matches!(decompress(&HELLO[..cut]), Some(Err(_))),
                "cut at {cut}"
            );
        }
    }
}
