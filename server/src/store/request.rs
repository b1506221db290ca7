//! What callers ask of the store and what it answers, whichever backend.

/// One line to store.
#[derive(Debug, Clone)]
pub struct RawLine {
    /// The bytes as received (the first bytes of an over-long line).
    pub bytes: Vec<u8>,
    /// For an over-long line: its full length and the limit.
    pub cut: Option<(u64, u64)>,
    /// When it was received (unix seconds).
    pub received: f64,
}

impl RawLine {
    /// A whole line received now.
    pub fn now(bytes: Vec<u8>) -> RawLine {
        RawLine {
            bytes,
            cut: None,
            received: crate::clock::now(),
        }
    }

    /// A line from a [`classifier::LineReader`], received now.
    pub fn from_line(line: classifier::Line) -> RawLine {
        let cut = line.oversize.map(|o| (o.len, o.limit));
        RawLine {
            bytes: line.bytes,
            cut,
            received: crate::clock::now(),
        }
    }
}

/// How far a followed file has been stored, committed with its lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FollowPos {
    /// The path as given.
    pub path: String,
    /// Device of the file.
    pub dev: u64,
    /// Inode of the file.
    pub ino: u64,
    /// Bytes stored through the last complete line.
    pub offset: u64,
}

/// The answer to an append.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Appended {
    /// The session was created by this append.
    pub created: bool,
    /// The seq of each line, in order.
    pub seqs: Vec<u64>,
}

/// An append request.
#[derive(Debug, Clone)]
pub struct Append {
    /// The session.
    pub session: String,
    /// The lines, in order.
    pub lines: Vec<RawLine>,
    /// Create the session if missing, with this title and source.
    pub create: Option<(String, String)>,
    /// A followed file's position to commit with the lines.
    pub follow: Option<FollowPos>,
    /// An idempotency key (`POST` with `Idempotency-Key`): the lines are counted under it in
    /// the same transaction, so a retry knows what was stored (see [`Keyed`]).
    pub key: Option<String>,
}

/// What was stored under an idempotency key of a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keyed {
    /// The seq of its first line.
    pub first_seq: u64,
    /// The seq of its last line.
    pub last_seq: u64,
    /// How many lines (their seqs are consecutive).
    pub lines: u64,
}
