//! Reading one log file past its stored position, at most [`LOOK_BYTES`] a look (a big file
//! goes on at the next look), in batches each committed with the position it reaches; and
//! what a look leaves for the next ([`Kept`]) so that nothing is read twice:
//! - a plain log's unfinished last line (a half line waits for its newline): how far it has
//!   been scanned and the line reader holding it (a line over the limit holds only its head);
//!   a look without growth reads nothing, growth only the new bytes (issue 46: a 300 MB line
//!   without its newline was read again at every look);
//! - a compressed log's decoder, when a look stopped inside it (a frame's window, no more:
//!   issue 46, a zstd bomb decompressed whole took the server's memory).

use std::io::SeekFrom;
use std::path::{Path, PathBuf};

use classifier::LineReader;
use classifier::zstd::FramePos;
use tokio::io::{AsyncReadExt, AsyncSeekExt};

use super::Watcher;
use super::import::Job;
use super::kept::Kept;
use crate::ingest::follow::read_to_end;
use crate::ingest::follow_zst;
use crate::ingest::lines::{CHUNK, FOLLOW_BATCH, store_lines_from};
use crate::ingest::mark;
use crate::ingest::unzst::{self, Ended};
use crate::store::{FollowPos, Store, StoreError};

/// Most bytes one look reads of one file (decompressed bytes of a compressed one): the rest
/// is read at the next look, after the other files' news.
pub(super) const LOOK_BYTES: u64 = 16 << 20;

/// An unfinished line's bytes a kept line reader may hold: a longer one (under the line limit)
/// is scanned for its newline without being held, then read again once, whole.
const KEEP_LINE_BYTES: u64 = 8 << 20;

/// Most compressed logs whose decoder is kept between looks (each holds a frame's window);
/// others start again at their stored position.
const KEPT_DECODERS: usize = 4;

impl Watcher {
    /// What the last look kept of `path`, if it goes on from where its lines are stored.
    pub(super) fn kept_for(
        &mut self,
        path: &Path,
        dev: u64,
        ino: u64,
        from: u64,
        within: u64,
    ) -> Option<Kept> {
        let kept = self.kept.remove(path)?;
        let same = match &kept {
            Kept::Plain {
                dev: d,
                ino: i,
                through,
                ..
            } => (*d, *i, *through, 0) == (dev, ino, from, within),
            Kept::Zst(reader, at) => {
                reader.as_ref().is_none_or(|r| (r.dev, r.ino) == (dev, ino))
                    && (at.frame, at.within) == (from, within)
            }
        };
        same.then_some(kept)
    }

    /// What a job's reading of `path` left: looked at again if it was read short
    /// ([`Watcher::stale`]); what it kept, kept for the next look.
    pub(super) fn done(&mut self, path: PathBuf, read: Done) {
        if !read.whole {
            self.stale(&path);
        }
        self.keep(path, read.kept);
    }

    /// Keeps what a look left of `path`'s reading for the next (at most [`KEPT_DECODERS`]
    /// decoders).
    fn keep(&mut self, path: PathBuf, kept: Option<Kept>) {
        let Some(mut kept) = kept else {
            self.kept.remove(&path);
            return;
        };
        if let Kept::Zst(reader, _) = &mut kept {
            let decoders = self
                .kept
                .values()
                .filter(|k| matches!(k, Kept::Zst(Some(_), _)))
                .count();
            if decoders >= KEPT_DECODERS {
                *reader = None;
            }
        }
        self.kept.insert(path, kept);
    }
}

/// How a job's reading went.
pub(super) struct Done {
    /// Read as far as the plan saw (not: it could not be read, or shrank meanwhile).
    whole: bool,
    /// What is kept for the next look.
    kept: Option<Kept>,
}

impl Done {
    fn whole(kept: Option<Kept>) -> Done {
        Done { whole: true, kept }
    }

    fn short() -> Done {
        Done {
            whole: false,
            kept: None,
        }
    }
}

impl Job {
    /// Reads the file from where the plan says and stores its lines, in batches, each
    /// committed with the position it reaches; answers the file and how it went.
    pub(super) async fn run(
        mut self,
        store: &Store,
        max_line: usize,
    ) -> (PathBuf, Result<Done, StoreError>) {
        let kept = self.kept.take();
        let done = if follow_zst::is_compressed(&self.path).await {
            self.import_zst(store, max_line, kept).await
        } else {
            self.import_plain(store, max_line, kept).await
        };
        (self.path, done)
    }

    fn follow_pos(&self, offset: u64) -> FollowPos {
        FollowPos {
            path: self.path.to_string_lossy().into_owned(),
            dev: self.dev,
            ino: self.ino,
            offset,
            within: 0,
            mark: mark::mark(&self.file, offset).unwrap_or(0),
        }
    }

    /// A plain log from its stored position (or from where the last look's scan stopped):
    /// complete lines only, up to [`LOOK_BYTES`] read.
    async fn import_plain(
        &self,
        store: &Store,
        max_line: usize,
        kept: Option<Kept>,
    ) -> Result<Done, StoreError> {
        let (session, agent) = (self.session.as_str(), self.agent.as_deref());
        let Ok(f) = self.file.try_clone() else {
            return Ok(Done::short());
        };
        let mut f = tokio::fs::File::from_std(f);
        let through = self.from;
        let (mut reader, mut offset, mut must) = (None, through, 0);
        if let Some(Kept::Plain {
            scanned, reader: r, ..
        }) = kept
        {
            offset = scanned;
            match r {
                Some(r) => reader = Some(r),
                // A long line scanned for its newline: found, it is read again whole.
                None => match newline_past(&mut f, scanned).await {
                    Ok(end) => (offset, must) = (through, end),
                    Err(scanned) => {
                        return Ok(Done::whole(Some(
                            self.plain_kept(through, scanned, None, false),
                        )));
                    }
                },
            }
        }
        if f.seek(SeekFrom::Start(offset)).await.is_err() {
            return Ok(Done::short());
        }
        let mut reader = reader.unwrap_or_else(|| LineReader::with_limit(max_line));
        let mut buf = vec![0u8; CHUNK];
        let (start, mut stored) = (offset, through);
        let mut through = through;
        loop {
            let before = offset;
            let lines = read_to_end(
                &mut f,
                &mut reader,
                &mut offset,
                &mut through,
                &mut buf,
                false,
            )
            .await;
            if through > stored {
                store_lines_from(store, session, lines, Some(self.follow_pos(through)), agent)
                    .await?;
                stored = through;
            }
            let end = offset - before < FOLLOW_BATCH as u64;
            let spent = offset - start >= LOOK_BYTES && offset >= must;
            if end || spent {
                let partial = offset - through;
                let small = partial <= KEEP_LINE_BYTES || partial > max_line as u64 + 1;
                let kept = (partial > 0 || !end)
                    .then(|| self.plain_kept(through, offset, small.then_some(reader), !end));
                if end && offset < self.len {
                    return Ok(Done { whole: false, kept });
                }
                return Ok(Done::whole(kept));
            }
        }
    }

    fn plain_kept(
        &self,
        through: u64,
        scanned: u64,
        reader: Option<LineReader>,
        more: bool,
    ) -> Kept {
        Kept::Plain {
            dev: self.dev,
            ino: self.ino,
            through,
            scanned,
            reader,
            more,
        }
    }

    /// A compressed log from its stored position (a frame's start and how much of it is
    /// stored), or where the last look's decoder stopped: up to [`LOOK_BYTES`] decompressed,
    /// in batches each committed with the position it reaches. A frame still being written
    /// is waited for.
    async fn import_zst(
        &self,
        store: &Store,
        max_line: usize,
        kept: Option<Kept>,
    ) -> Result<Done, StoreError> {
        let (session, agent) = (self.session.as_str(), self.agent.as_deref());
        let key = self.path.to_string_lossy().into_owned();
        let at = FramePos {
            frame: self.from,
            within: self.within,
        };
        let kept = match kept {
            Some(Kept::Zst(reader, _)) => reader,
            _ => None,
        };
        let mut reader = match kept {
            Some(r) => *r,
            None => {
                let Ok(file) = self.file.try_clone() else {
                    return Ok(Done::short());
                };
                match unzst::open(file, at, max_line).await {
                    Ok(r) => r,
                    Err(e) => {
                        tracing::warn!("{key}: {e}; waiting for the rest");
                        return Ok(Done::whole(None));
                    }
                }
            }
        };
        let (mut read, mut committed) = (0, (self.from, self.within));
        loop {
            let (r, lines, ended) = unzst::read_piece(reader, FOLLOW_BATCH).await;
            reader = r;
            read += FOLLOW_BATCH as u64;
            let pos = reader.follow_pos(&key);
            if !lines.is_empty() || (pos.offset, pos.within) != committed {
                committed = (pos.offset, pos.within);
                store_lines_from(store, session, lines, Some(pos), agent).await?;
            }
            match ended {
                Ended::More if read >= LOOK_BYTES => {
                    let at = reader.through();
                    return Ok(Done::whole(Some(Kept::Zst(Some(Box::new(reader)), at))));
                }
                Ended::More => {}
                Ended::End => return Ok(Done::whole(None)),
                Ended::Wait(e) => {
                    tracing::warn!("{key}: {e}; waiting for the rest");
                    return Ok(Done::whole(None));
                }
            }
        }
    }
}

/// Where the first newline at or past byte `from` of `f` ends (the byte after it), reading
/// only from there; else how far the file was read.
async fn newline_past(f: &mut tokio::fs::File, from: u64) -> Result<u64, u64> {
    if f.seek(SeekFrom::Start(from)).await.is_err() {
        return Err(from);
    }
    let mut buf = vec![0u8; CHUNK];
    let mut at = from;
    loop {
        let n = f.read(&mut buf).await.unwrap_or(0);
        if n == 0 {
            return Err(at);
        }
        if let Some(i) = memchr::memchr(b'\n', &buf[..n]) {
            return Ok(at + i as u64 + 1);
        }
        at += n as u64;
    }
}
