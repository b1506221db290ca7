//! `--follow`: a growing log file, like `tail -F`, stored line by line as its lines complete.

use std::io::SeekFrom;
use std::os::unix::fs::{FileTypeExt as _, MetadataExt};
use std::path::{Path, PathBuf};

use classifier::LineReader;
use tokio::io::{AsyncReadExt, AsyncSeekExt};

use super::lines::{CHUNK, FOLLOW_BATCH, FOLLOW_POLL, note_line, pump, store_lines};
use super::mark;
use crate::store::{FollowPos, RawLine, Store, StoreError};

/// The session id a followed path gets: stable across restarts.
pub fn follow_session_id(path: &Path) -> String {
    let stem: String = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(60)
        .collect();
    // FNV-1a of the path, so two files with one name get two sessions.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in path.as_os_str().as_encoded_bytes() {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("f-{stem}-{:08x}", hash as u32)
}

/// Follows `path` forever as session `session` (created by the caller), like `tail -F`:
/// lines are stored as they complete (a partial last line waits for its newline); a file
/// that shrinks was truncated and is read again from the start, and so is one rewritten in
/// place past where it was stored (its mark, [`super::mark`], no longer holds; the session
/// says so in a note, at once or when the follow starts again); a file replaced by another
/// (rotation) is read to its end, then the new one from its start. How far the file has been
/// stored is committed with its lines, so a restarted server goes on where it stopped. A
/// zstd-compressed log (`rollout-*.jsonl.zst`) is imported decompressed
/// ([`super::follow_zst`]).
pub async fn follow(
    store: Store,
    session: String,
    path: PathBuf,
    max_line: usize,
) -> Result<(), StoreError> {
    if super::follow_zst::is_compressed(&path).await {
        return super::follow_zst::follow(store, session, &path, max_line).await;
    }
    let key = path.to_string_lossy().into_owned();
    let mut pos = store.follow_pos(&key).await?;
    let mut file: Option<(tokio::fs::File, u64, u64)> = None; // (file, dev, ino)
    let mut reader = LineReader::with_limit(max_line);
    let mut offset = 0u64; // bytes read from the open file
    let mut through = 0u64; // bytes of it up to the end of the last complete line
    let mut buf = vec![0u8; CHUNK];
    // Where the open file's stored bytes end and their mark, and its size when last looked at.
    let (mut marked, mut seen) = ((0u64, 0u64), 0u64);
    loop {
        let meta = tokio::fs::metadata(&path).await.ok();
        if let Some(m) = &meta
            && !m.is_file()
        {
            if m.file_type().is_fifo() {
                return follow_fifo(&store, &session, &path, max_line).await;
            }
            let why = followable(&path).err().unwrap_or_default();
            tracing::error!("{why}");
            return store_lines(
                &store,
                &session,
                vec![note_line(&format!("hiveterm: {why}; not following it"))],
                None,
            )
            .await;
        }
        let identity = meta.as_ref().map(|m| (m.dev(), m.ino(), m.len()));
        // Rotation: the path now names another file (or none). Drain the old one first.
        if let Some((mut old, dev, ino)) = file.take() {
            if identity.is_some_and(|(d, i, _)| (d, i) == (dev, ino)) {
                file = Some((old, dev, ino));
            } else {
                let lines = read_to_end(
                    &mut old,
                    &mut reader,
                    &mut offset,
                    &mut through,
                    &mut buf,
                    true,
                )
                .await;
                store_lines(&store, &session, lines, None).await?;
                store_lines(
                    &store,
                    &session,
                    vec![note_line(&format!(
                        "hiveterm: {key} was moved, removed or replaced; following the path"
                    ))],
                    None,
                )
                .await?;
                reader = LineReader::with_limit(max_line);
                (offset, through) = (0, 0);
                (marked, seen) = ((0, 0), 0);
                pos = None;
            }
        }
        if file.is_none()
            && let Some((dev, ino, _)) = identity
            && let Ok(mut f) = tokio::fs::File::open(&path).await
        {
            offset = match pos.take() {
                Some(p) if (p.dev, p.ino) == (dev, ino) => {
                    let holds = std_file(&f)
                        .await
                        .is_some_and(|s| mark::holds(&s, p.offset, p.mark));
                    if holds {
                        marked = (p.offset, p.mark);
                        p.offset
                    } else {
                        let why = format!(
                            "hiveterm: {key} shrank or was rewritten while not followed; \
                             reading it again from the start"
                        );
                        store_lines(&store, &session, vec![note_line(&why)], None).await?;
                        0
                    }
                }
                _ => 0,
            };
            if f.seek(SeekFrom::Start(offset)).await.is_err() {
                offset = 0;
            }
            through = offset;
            file = Some((f, dev, ino));
        }
        if let Some((f, dev, ino)) = &mut file {
            let len = f.metadata().await.map(|m| m.len()).unwrap_or(0);
            if len < offset {
                // Truncated: start again from the beginning.
                store_lines(
                    &store,
                    &session,
                    vec![note_line(&format!(
                        "hiveterm: {key} was truncated; reading it again from the start"
                    ))],
                    None,
                )
                .await?;
                reader = LineReader::with_limit(max_line);
                (offset, through) = (0, 0);
                marked = (0, 0);
                let _ = f.seek(SeekFrom::Start(0)).await;
            } else if len != seen && marked.0 > 0 && !still_holds(f, marked).await {
                // Rewritten in place past where it was stored (truncated and written again
                // between two looks): another file, from its start.
                store_lines(
                    &store,
                    &session,
                    vec![note_line(&format!(
                        "hiveterm: {key} was rewritten; reading it again from the start"
                    ))],
                    None,
                )
                .await?;
                reader = LineReader::with_limit(max_line);
                (offset, through) = (0, 0);
                marked = (0, 0);
                let _ = f.seek(SeekFrom::Start(0)).await;
            }
            seen = len;
            let before = offset;
            let lines =
                read_to_end(f, &mut reader, &mut offset, &mut through, &mut buf, false).await;
            if offset != before {
                let done = FollowPos {
                    path: key.clone(),
                    dev: *dev,
                    ino: *ino,
                    offset: through,
                    within: 0,
                    mark: std_file(f)
                        .await
                        .and_then(|f| mark::mark(&f, through))
                        .unwrap_or(0),
                };
                marked = (through, done.mark);
                store_lines(&store, &session, lines, Some(done)).await?;
                if offset - before >= FOLLOW_BATCH as u64 {
                    continue; // more is there: store it in the next batch, now.
                }
            }
        }
        tokio::time::sleep(FOLLOW_POLL).await;
    }
}

/// A second handle on `f`, for reads at a place (`super::mark`) that leave its position.
async fn std_file(f: &tokio::fs::File) -> Option<std::fs::File> {
    Some(f.try_clone().await.ok()?.into_std().await)
}

/// Whether the open file still holds the bytes stored to `marked.0` (mark `marked.1`).
async fn still_holds(f: &tokio::fs::File, marked: (u64, u64)) -> bool {
    std_file(f)
        .await
        .is_some_and(|s| mark::holds(&s, marked.0, marked.1))
}

/// Reads what the file has now, up to [`FOLLOW_BATCH`] bytes (all of it with `last`); yields
/// the complete lines (and, with `last`, the partial one). `offset` is advanced by the bytes
/// read, `through` to just after the last newline.
pub(super) async fn read_to_end(
    f: &mut tokio::fs::File,
    reader: &mut LineReader,
    offset: &mut u64,
    through: &mut u64,
    buf: &mut [u8],
    last: bool,
) -> Vec<RawLine> {
    let mut lines = Vec::new();
    let mut read = 0;
    while last || read < FOLLOW_BATCH {
        match f.read(buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                read += n;
                if let Some(i) = buf[..n].iter().rposition(|&b| b == b'\n') {
                    *through = *offset + i as u64 + 1;
                }
                *offset += n as u64;
                reader.push(&buf[..n], |line| lines.push(RawLine::from_line(line)));
            }
        }
    }
    if last {
        reader.finish(|line| lines.push(RawLine::from_line(line)));
        *through = *offset;
    }
    lines
}

/// Whether `path` can be followed: a regular file (not one of the kernel's `/proc` or
/// `/sys`, whose files say they are empty and never end), a FIFO, or nothing yet. A
/// device (`/dev/zero`, `/dev/urandom`), a directory or a socket is refused: following one
/// would burn a core or fill the disk.
pub fn followable(path: &Path) -> Result<(), String> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(());
    };
    let kind = meta.file_type();
    let what = if kind.is_fifo() {
        return Ok(());
    } else if kind.is_file() {
        let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
        if !(real.starts_with("/proc") || real.starts_with("/sys")) {
            return Ok(());
        }
        "a kernel file"
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else {
        "not a regular file"
    };
    Err(format!(
        "cannot follow {}: it is {what} (only regular files and FIFOs are followed)",
        path.display()
    ))
}

/// Follows a FIFO: its lines are stored as they come, in chunks, whoever writes them; it is
/// held open for writing too, so a writer closing it is not an end (like `tail -F`).
async fn follow_fifo(
    store: &Store,
    session: &str,
    path: &Path,
    max_line: usize,
) -> Result<(), StoreError> {
    let receiver = tokio::net::unix::pipe::OpenOptions::new()
        .read_write(true)
        .open_receiver(path);
    match receiver {
        Ok(rx) => pump(store, session, rx, max_line, RawLine::from_line).await,
        Err(e) => {
            tracing::error!("cannot open the FIFO {}: {e}", path.display());
            store_lines(
                store,
                session,
                vec![note_line(&format!(
                    "hiveterm: cannot open the FIFO {}: {e}",
                    path.display()
                ))],
                None,
            )
            .await
        }
    }
}
