//! `serve --follow FILE --to URL`: one followed file forwarded in batches of whole lines,
//! each under the key `hiveterm-forward.<round>.<start>.<end>` of the bytes it holds, resumed
//! from the receiver's newest key (see the parent module).

use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;
use std::time::Duration;

use classifier::{Line, LineReader};
use sha2::{Digest, Sha256};
use tokio::io::{AsyncReadExt, AsyncSeekExt};

use super::outbox::{Batch, Outbox, Unsent, back_off, line_to_send};
use super::remote::Remote;

/// Bytes read from the file at a time.
const CHUNK: usize = 256 * 1024;
/// How often the file is looked at for new lines.
const POLL: Duration = Duration::from_millis(200);
/// What a followed file's keys start with.
const KEY_PREFIX: &str = "hiveterm-forward.";

/// The key of the batch of bytes `start..end` of the file's `round`-th reading.
fn batch_key(round: u64, start: u64, end: u64) -> String {
    format!("{KEY_PREFIX}{round}.{start}.{end}")
}

/// `(round, start, end)` of a key [`batch_key`] made; `None` for any other.
fn parse_key(key: &str) -> Option<(u64, u64, u64)> {
    let mut parts = key.strip_prefix(KEY_PREFIX)?.split('.');
    let mut next = || parts.next()?.parse::<u64>().ok();
    let (round, start, end) = (next()?, next()?, next()?);
    (parts.next().is_none() && start < end).then_some((round, start, end))
}

/// Where forwarding (re)starts: the reading `round`, at byte `offset` (a line start), after
/// skipping `skip` lines (a session fed by a forwarder from before keys).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Start {
    round: u64,
    offset: u64,
    skip: u64,
}

/// The file being read.
struct Reading {
    file: tokio::fs::File,
    dev: u64,
    ino: u64,
    /// The file offset the reader started at (a line start).
    base: u64,
    reader: LineReader,
    /// The file offset read up to.
    read: u64,
    /// Lines still to skip.
    skip: u64,
    /// Where the bytes of `batch` start.
    batch_start: u64,
    batch: Batch,
}

impl Reading {
    /// The file offset where the line in progress starts (every line before it was taken).
    fn pos(&self) -> u64 {
        self.base + self.reader.line_start()
    }
}

/// One file forwarded as one remote session.
struct Follower {
    outbox: Outbox,
    path: PathBuf,
    max_line: usize,
    /// How many times the file was read again from its start (this reading's keys say it).
    round: u64,
    /// The remote session's newest key, as far as this forwarder knows (`""`: none): each
    /// batch is posted to follow it, so a late POST of an earlier run cannot also store it.
    after: String,
}

/// Forwards `path` to `remote` as session `id` forever (until the task is dropped, or the
/// remote refuses its lines).
pub async fn forward_follow(
    remote: Remote,
    id: String,
    path: PathBuf,
    max_line: usize,
) -> Result<(), String> {
    let title = path.display().to_string();
    let outbox = Outbox { remote, id, title };
    let mut f = Follower {
        outbox,
        path,
        max_line,
        round: 0,
        after: String::new(),
    };
    loop {
        match f.follow().await {
            Err(Unsent::Refused(why)) => return Err(why),
            Err(Unsent::Moved(why)) => {
                tracing::warn!("forwarding {}: {why}; resuming", f.outbox.id);
            }
        }
    }
}

impl Follower {
    /// Resumes where the remote is, then follows the file until a batch cannot be sent.
    async fn follow(&mut self) -> Result<std::convert::Infallible, Unsent> {
        let mut start = Some(self.resume().await?);
        self.round = start.map_or(0, |s| s.round);
        let mut reading: Option<Reading> = None;
        let mut buf = vec![0u8; CHUNK];
        loop {
            let meta = tokio::fs::metadata(&self.path)
                .await
                .ok()
                .filter(|m| m.is_file());
            let identity = meta.as_ref().map(|m| (m.dev(), m.ino()));
            // Rotation: the path names another file (or none). Send the old one to its end.
            if let Some(r) = &mut reading
                && identity != Some((r.dev, r.ino))
            {
                self.read_available(r, &mut buf, true).await?;
                reading = None;
                self.round += 1;
                start = None;
            }
            if reading.is_none()
                && let (Some((dev, ino)), Some(meta)) = (identity, &meta)
                && let Ok(file) = tokio::fs::File::open(&self.path).await
            {
                let from = start.take().unwrap_or_default();
                reading = Some(self.open(file, dev, ino, meta.len(), from).await);
            }
            if let Some(r) = &mut reading {
                let len = r.file.metadata().await.map_or(0, |m| m.len());
                if len < r.read {
                    // Truncated: read it again from the start; its lines follow those sent.
                    self.round += 1;
                    let _ = r.file.seek(std::io::SeekFrom::Start(0)).await;
                    r.base = 0;
                    r.read = 0;
                    r.skip = 0;
                    r.reader = LineReader::with_limit(self.max_line);
                    r.batch = Batch::default();
                    r.batch_start = 0;
                }
                self.read_available(r, &mut buf, false).await?;
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Reads from `from` (from the start, as a new reading, when the file is shorter).
    async fn open(
        &mut self,
        mut file: tokio::fs::File,
        dev: u64,
        ino: u64,
        len: u64,
        from: Start,
    ) -> Reading {
        let mut from = from;
        if len < from.offset
            || file
                .seek(std::io::SeekFrom::Start(from.offset))
                .await
                .is_err()
        {
            self.round += 1;
            from = Start::default();
            let _ = file.seek(std::io::SeekFrom::Start(0)).await;
        }
        Reading {
            file,
            dev,
            ino,
            base: from.offset,
            reader: LineReader::with_limit(self.max_line),
            read: from.offset,
            skip: from.skip,
            batch_start: from.offset,
            batch: Batch::default(),
        }
    }

    /// Where to start: after the receiver's newest batch of this file, if the file still
    /// holds it (sent again first if the receiver has only part of it); else the file's start
    /// as a new reading; or, for a session without our keys, after its `last_seq` lines.
    async fn resume(&mut self) -> Result<Start, Unsent> {
        let remote = &self.outbox.remote;
        let id = &self.outbox.id;
        let mut backoff = Duration::from_millis(200);
        let last = loop {
            match remote.last_key(id).await {
                Ok(last) => break last,
                Err(e) => tracing::warn!("forwarding {id}: {e}; retrying in {backoff:?}"),
            }
            back_off(&mut backoff).await;
        };
        self.after = last.as_ref().map(|l| l.key.clone()).unwrap_or_default();
        let Some((last, (round, start, end))) =
            last.and_then(|l| parse_key(&l.key).map(|k| (l, k)))
        else {
            let skip = loop {
                match remote.last_seq(id).await {
                    Ok(n) => break n,
                    Err(e) => tracing::warn!("forwarding {id}: {e}; retrying in {backoff:?}"),
                }
                back_off(&mut backoff).await;
            };
            return Ok(Start {
                round: 0,
                offset: 0,
                skip,
            });
        };
        match self.read_range(start, end).await {
            Some((body, lines))
                if last
                    .body_sha256
                    .is_none_or(|h| h == <[u8; 32]>::from(Sha256::digest(&body))) =>
            {
                if last.lines < lines {
                    // Its key is stored: a retry, which follows no key.
                    self.outbox.send(&last.key, "", &body).await?;
                }
                Ok(Start {
                    round,
                    offset: end,
                    skip: 0,
                })
            }
            _ => {
                tracing::warn!(
                    "forwarding {id}: {} no longer holds what was sent last; reading it again \
                     from its start",
                    self.path.display()
                );
                Ok(Start {
                    round: round + 1,
                    offset: 0,
                    skip: 0,
                })
            }
        }
    }

    /// The body of the batch of bytes `start..end` of the file and its number of lines;
    /// `None` when the file does not have them.
    async fn read_range(&self, start: u64, end: u64) -> Option<(Vec<u8>, u64)> {
        let mut file = tokio::fs::File::open(&self.path).await.ok()?;
        if file.metadata().await.ok()?.len() < end {
            return None;
        }
        file.seek(std::io::SeekFrom::Start(start)).await.ok()?;
        let mut bytes = vec![0u8; usize::try_from(end - start).ok()?];
        file.read_exact(&mut bytes).await.ok()?;
        let mut reader = LineReader::with_limit(self.max_line);
        let mut batch = Batch::default();
        reader.push(&bytes, |line| batch.push(line_to_send(line)));
        reader.finish(|line| batch.push(line_to_send(line)));
        let lines = batch.lines.len() as u64;
        Some((batch.take_body(), lines))
    }

    /// Posts the batch as the bytes up to `end`.
    async fn send(&mut self, r: &mut Reading, end: u64) -> Result<(), Unsent> {
        let body = r.batch.take_body();
        let key = batch_key(self.round, r.batch_start, end);
        self.outbox.send(&key, &self.after, &body).await?;
        self.after = key;
        r.batch_start = end;
        Ok(())
    }

    /// Takes the line the reader gave (if any), `before` being where it started: into the
    /// batch, which is sent when it is full (or first, when the line would overfill it).
    async fn take(
        &mut self,
        r: &mut Reading,
        got: Option<Line>,
        before: u64,
    ) -> Result<(), Unsent> {
        if let Some(line) = got {
            if r.skip > 0 {
                r.skip -= 1;
            } else {
                let line = line_to_send(line);
                if r.batch.would_overflow(&line) {
                    self.send(r, before).await?;
                }
                r.batch.push(line);
                if r.batch.is_full() {
                    let end = r.pos();
                    self.send(r, end).await?;
                }
            }
        }
        if r.batch.is_empty() {
            r.batch_start = r.pos();
        }
        Ok(())
    }

    /// Reads what the file has now, sending batches as they fill and then the rest (with
    /// `last`, the file is done: its last line without a newline too).
    async fn read_available(
        &mut self,
        r: &mut Reading,
        buf: &mut [u8],
        last: bool,
    ) -> Result<(), Unsent> {
        loop {
            let n = match r.file.read(buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            r.read += n as u64;
            let mut rest = &buf[..n];
            // A line at a time, so each batch ends where its last line does.
            while !rest.is_empty() {
                let cut = memchr::memchr(b'\n', rest).map_or(rest.len(), |i| i + 1);
                let (piece, tail) = rest.split_at(cut);
                rest = tail;
                let before = r.pos();
                let mut got = None;
                r.reader.push(piece, |line| got = Some(line));
                self.take(r, got, before).await?;
            }
        }
        if last {
            let before = r.pos();
            let mut got = None;
            r.reader.finish(|line| got = Some(line));
            self.take(r, got, before).await?;
        }
        if !r.batch.is_empty() {
            let end = if last { r.read } else { r.pos() };
            self.send(r, end).await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_name_their_bytes_and_only_ours_parse() {
        type Parsed = Option<(u64, u64, u64)>;
        let cases: &[(&str, Parsed)] = &[
            (&batch_key(0, 0, 120), Some((0, 0, 120))),
            (&batch_key(3, 4096, 8192), Some((3, 4096, 8192))),
            ("hiveterm-forward.1.5", None),
            ("hiveterm-forward.1.5.5", None),
            ("hiveterm-forward.1.5.9.2", None),
            ("hiveterm-forward.x.0.9", None),
            ("hiveterm-run.0.12", None),
            ("my-own-key", None),
        ];
        for (key, want) in cases {
            assert_eq!(parse_key(key), *want, "{key}");
        }
    }
}
