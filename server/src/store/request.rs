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

/// Longest session title stored, in bytes: a longer one (`?title=`, `run`'s command line, a
/// followed file's path) is stored cut to the characters that fit.
pub const MAX_TITLE_BYTES: usize = 1024;

/// `title` cut to at most [`MAX_TITLE_BYTES`] bytes, on a char boundary.
pub fn cut_title(title: &str) -> &str {
    let mut end = title.len().min(MAX_TITLE_BYTES);
    while !title.is_char_boundary(end) {
        end -= 1;
    }
    &title[..end]
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
    /// Bytes stored through the last complete line (in a zstd-compressed file: where the
    /// frame holding the next line to store starts, in compressed bytes).
    pub offset: u64,
    /// In a zstd-compressed file, the decompressed bytes of the frame at `offset` already
    /// stored (a frame is stored in pieces: a big one is not decompressed whole); else 0.
    pub within: u64,
    /// What the file's bytes before `offset` were (`crate::ingest::mark`): a file rewritten
    /// in place past `offset` is known as another file. 0: not known (stored before marks
    /// were kept).
    pub mark: u64,
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
    /// The file of the session the lines come from, when not its main one (a subagent's
    /// file: the subagent's id), stored with each ([`crate::fold::StoredEvent::source`]).
    pub source: Option<String>,
    /// An idempotency key (`POST` with `Idempotency-Key`): the lines are counted under it in
    /// the same transaction, so a retry knows what was stored (see [`Keyed`]).
    pub key: Option<IdempotencyKey>,
}

/// An idempotency key and the SHA-256 of the whole body sent with it. The first append
/// under the key stores the hash; later ones leave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotencyKey {
    /// The key.
    pub key: String,
    /// The SHA-256 of the request's body.
    pub body_sha256: [u8; 32],
    /// Lines the request takes to be stored under the key before this append (a retry's
    /// earlier tries', its own earlier turns'). PostgreSQL checks it under the session's row
    /// lock, where another replica may be storing the same retry at the same moment.
    pub stored: u64,
    /// The key the session's newest must be before the key's first lines
    /// (`X-Hiveterm-After-Key`; `""`: none), checked likewise.
    pub after: Option<String>,
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
    /// The SHA-256 of the body first sent with the key (`None`: stored by a server from
    /// before it was kept).
    pub body_sha256: Option<[u8; 32]>,
}

/// Most frames one SSE backfill read returns: a slow client holds at most a few such chunks.
pub(crate) const BACKFILL_ROWS: i64 = 128;
/// Bytes after which an SSE backfill read stops adding frames.
pub(crate) const BACKFILL_BYTES: usize = 128 * 1024;

/// Bytes after which a history page stops (it always has at least one envelope); it then
/// says `"cut_by_bytes": true` and `next_before` goes on from there.
pub(crate) const HISTORY_PAGE_BYTES: usize = 16 * 1024 * 1024;

/// A history page (see `docs/API.md`) built from stored envelopes read newest first, up to
/// `limit + 1` of them: at most `limit` envelopes and [`HISTORY_PAGE_BYTES`].
pub(crate) struct HistoryPage {
    out: Vec<u8>,
    limit: usize,
    taken: usize,
    oldest: Option<u64>,
    more: bool,
    cut: bool,
}

impl HistoryPage {
    pub(crate) fn new(limit: usize) -> HistoryPage {
        let mut out = Vec::with_capacity(64 * 1024);
        out.extend_from_slice(b"{\"envelopes\":[");
        HistoryPage {
            out,
            limit,
            taken: 0,
            oldest: None,
            more: false,
            cut: false,
        }
    }

    /// Adds the next (older) envelope; answers whether to go on.
    pub(crate) fn push(&mut self, seq: u64, json: &str) -> bool {
        if self.taken == self.limit {
            self.more = true;
            return false;
        }
        // Bounded in bytes too, with at least one envelope so a page always moves on.
        if self.taken > 0 && self.out.len() + json.len() > HISTORY_PAGE_BYTES {
            (self.more, self.cut) = (true, true);
            return false;
        }
        if self.taken > 0 {
            self.out.push(b',');
        }
        self.out.extend_from_slice(json.as_bytes());
        self.oldest = Some(seq);
        self.taken += 1;
        true
    }

    /// The page's JSON, `head` being the newest stored seq when it was read.
    pub(crate) fn finish(mut self, head: u64) -> Vec<u8> {
        self.out.extend_from_slice(b"],\"next_before\":");
        match self.oldest.filter(|_| self.more) {
            Some(seq) => self.out.extend_from_slice(seq.to_string().as_bytes()),
            None => self.out.extend_from_slice(b"null"),
        }
        let tail = format!(",\"head\":{head},\"cut_by_bytes\":{}}}", self.cut);
        self.out.extend_from_slice(tail.as_bytes());
        self.out
    }
}
