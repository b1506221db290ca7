//! A zstd-compressed log read in bounded pieces (a followed or watched `rollout-*.jsonl.zst`):
//! [`ZstReader`] decompresses at most a piece at a time, keeps one frame's window and one
//! line in progress, and says how far its complete lines go ([`FramePos`]: a frame's start
//! and the decompressed bytes of it stored), which is what is committed with them. A reader
//! started at a committed position goes on from there: a restart meets only what was not
//! stored (issue 46: an 88 KB file of 1 GB of lines, decompressed whole, took 5.9 GB).

use std::io::{Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;

use classifier::LineReader;
use classifier::zstd::{FramePos, Frames};

use super::lines::CHUNK;
use super::mark;
use crate::store::{FollowPos, RawLine};

/// The largest frame window decompressed (the memory one frame's decoding holds): 32 MiB,
/// what `zstd` up to level 19 (8 MiB) and `--ultra -20` use; a frame that asks more (`--ultra
/// -21`, `-22`, `--long`) is refused.
pub(super) const MAX_WINDOW: u64 = 32 << 20;

/// How a [`ZstReader::read`] ended.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Ended {
    /// Its budget is spent: there may be more.
    More,
    /// At the end of the file's last whole frame.
    End,
    /// A frame cut short (being written), corrupt or refused: the reader is done; one
    /// started again at its position reads on once the file is whole there.
    Wait(String),
}

/// A compressed log being read: its frames, the line in progress, and how far its complete
/// lines go.
pub(super) struct ZstReader {
    frames: Frames<std::fs::File>,
    lines: LineReader,
    through: FramePos,
    /// The file, for the mark of a position ([`crate::ingest::mark`]).
    marks: std::fs::File,
    /// The file read (device, inode).
    pub(super) dev: u64,
    pub(super) ino: u64,
}

impl ZstReader {
    /// Reads `file` from `at` (a frame's start, then `at.within` decompressed bytes passed
    /// over). Blocking.
    pub(super) fn open(
        file: std::fs::File,
        at: FramePos,
        max_line: usize,
    ) -> std::io::Result<ZstReader> {
        let meta = file.metadata()?;
        let marks = file.try_clone()?;
        let mut file = file;
        file.seek(SeekFrom::Start(at.frame))?;
        let mut frames = Frames::new(file, at.frame, MAX_WINDOW);
        frames.skip(at.within)?;
        Ok(ZstReader {
            through: frames.pos(),
            frames,
            lines: LineReader::with_limit(max_line),
            marks,
            dev: meta.dev(),
            ino: meta.ino(),
        })
    }

    /// How far the complete lines read go.
    pub(super) fn through(&self) -> FramePos {
        self.through
    }

    /// The position to commit with the lines read so far, as `path`'s.
    pub(super) fn follow_pos(&self, path: &str) -> FollowPos {
        FollowPos {
            path: path.to_owned(),
            dev: self.dev,
            ino: self.ino,
            offset: self.through.frame,
            within: self.through.within,
            mark: mark::mark(&self.marks, self.through.frame).unwrap_or(0),
        }
    }

    /// The lines of up to `budget` more decompressed bytes (the last line of the file's
    /// frames even without its newline: a frame ends where the agent's write did). Blocking.
    pub(super) fn read(&mut self, budget: usize) -> (Vec<RawLine>, Ended) {
        let mut lines = Vec::new();
        let mut buf = vec![0u8; CHUNK];
        let mut read = 0;
        while read < budget {
            let before = self.frames.pos();
            let n = match self.frames.read(&mut buf) {
                Ok(0) => {
                    self.lines
                        .finish(|line| lines.push(RawLine::from_line(line)));
                    self.through = self.frames.pos();
                    return (lines, Ended::End);
                }
                Ok(n) => n,
                Err(e) => return (lines, Ended::Wait(e.to_string())),
            };
            read += n;
            let now = self.frames.pos();
            if now.frame != before.frame && self.through == before {
                // A frame ended with a complete line: the next one's start says the same.
                self.through = FramePos {
                    frame: now.frame,
                    within: 0,
                };
            }
            if let Some(i) = memchr::memrchr(b'\n', &buf[..n]) {
                self.through = FramePos {
                    frame: now.frame,
                    within: now.within - (n - i - 1) as u64,
                };
            }
            self.lines
                .push(&buf[..n], |line| lines.push(RawLine::from_line(line)));
        }
        (lines, Ended::More)
    }
}

/// Runs `read` of `budget` bytes on a blocking thread; the reader comes back with its lines.
pub(super) async fn read_piece(
    mut reader: ZstReader,
    budget: usize,
) -> (ZstReader, Vec<RawLine>, Ended) {
    let joined = tokio::task::spawn_blocking(move || {
        let (lines, ended) = reader.read(budget);
        (reader, lines, ended)
    })
    .await;
    joined.unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))
}

/// Reads `file` from `at` ([`ZstReader::open`]) on a blocking thread.
pub(super) async fn open(
    file: std::fs::File,
    at: FramePos,
    max_line: usize,
) -> std::io::Result<ZstReader> {
    tokio::task::spawn_blocking(move || ZstReader::open(file, at, max_line))
        .await
        .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))
}
