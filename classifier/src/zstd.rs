//! Zstandard-compressed logs: Codex compresses an idle rollout to `rollout-*.jsonl.zst` (its
//! `codex-rs/rollout/src/compression.rs` reads both forms). A log is known as compressed by
//! its first bytes ([`MAGIC`]), whatever its name, and read decompressed, every frame in turn
//! (frames may follow one another). Pure Rust (`ruzstd`), so the page's worker decompresses as
//! the command line does; no I/O of its own: [`Decompressed`] reads whatever [`Read`] it is
//! given, and [`decompress`] takes bytes.

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
