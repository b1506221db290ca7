//! What a look leaves of one file's reading for the next ([`Kept`], `super::read`).

use classifier::LineReader;
use classifier::zstd::FramePos;

use crate::ingest::unzst::ZstReader;

/// What a look left of one file's reading.
pub(super) enum Kept {
    /// A plain log read up to `scanned`, its complete lines stored up to `through`.
    Plain {
        dev: u64,
        ino: u64,
        through: u64,
        scanned: u64,
        /// The line reader holding the line from `through` (none: the line is long; the
        /// bytes from `through` to `scanned` hold no newline).
        reader: Option<LineReader>,
        /// The look stopped at its budget, not at the end.
        more: bool,
    },
    /// A compressed log whose look stopped at its budget (none: its decoder was let go;
    /// started again at the stored position).
    Zst(Option<Box<ZstReader>>, FramePos),
}

impl Kept {
    /// Whether a file of `len` bytes has something to read past what this kept.
    pub(super) fn more(&self, len: u64) -> bool {
        match self {
            Kept::Plain { scanned, more, .. } => *more || len > *scanned,
            Kept::Zst(..) => true,
        }
    }

    /// Whether the next look must read the file even if it has not changed.
    pub(super) fn pending(&self) -> bool {
        match self {
            Kept::Plain { more, .. } => *more,
            Kept::Zst(..) => true,
        }
    }
}
