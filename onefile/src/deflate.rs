//! [`Deflater`]: raw DEFLATE in pieces (`miniz_oxide`); the bytes do not depend on how they
//! are cut.

use miniz_oxide::deflate::core::{CompressorOxide, create_comp_flags_from_zip_params};
use miniz_oxide::deflate::stream::deflate;
use miniz_oxide::{MZFlush, MZStatus};

/// Raw DEFLATE (RFC 1951, no header: what `DecompressionStream("deflate-raw")` reads),
/// written in pieces.
pub struct Deflater {
    z: Box<CompressorOxide>,
    out: Vec<u8>,
    buf: Vec<u8>,
}

impl Deflater {
    /// At `level` (0–10).
    pub fn new(level: u8) -> Deflater {
        let flags = create_comp_flags_from_zip_params(i32::from(level), -15, 0);
        Deflater {
            z: Box::new(CompressorOxide::new(flags)),
            out: Vec::new(),
            buf: vec![0; 256 * 1024],
        }
    }

    /// Compresses the next bytes.
    pub fn write(&mut self, mut input: &[u8]) {
        while !input.is_empty() {
            let r = deflate(&mut self.z, input, &mut self.buf, MZFlush::None);
            self.out.extend_from_slice(&self.buf[..r.bytes_written]);
            input = &input[r.bytes_consumed..];
            if r.status.is_err() || (r.bytes_consumed == 0 && r.bytes_written == 0) {
                break;
            }
        }
    }

    /// Ends the stream; the compressed bytes.
    pub fn finish(mut self) -> Vec<u8> {
        loop {
            let r = deflate(&mut self.z, &[], &mut self.buf, MZFlush::Finish);
            self.out.extend_from_slice(&self.buf[..r.bytes_written]);
            if !matches!(r.status, Ok(MZStatus::Ok)) {
                break;
            }
        }
        self.out
    }
}
