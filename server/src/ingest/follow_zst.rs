//! `--follow` of a zstd-compressed log (a Codex rollout idle long enough to become
//! `rollout-*.jsonl.zst`): its lines imported decompressed, once; frames appended later are
//! imported as they complete. How far the file has been stored is the compressed length
//! read, committed with its lines, so a restart imports nothing twice.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use classifier::{LineReader, zstd};
use tokio::io::{AsyncReadExt, AsyncSeekExt};

use super::lines::{FOLLOW_POLL, note_line, store_lines};
use crate::store::{FollowPos, RawLine, Store, StoreError};

/// Whether `path` is a regular file that starts with a zstd frame. Nothing else is opened: a
/// FIFO's bytes are its writers', and reading them here would take them from the follow.
pub async fn is_compressed(path: &Path) -> bool {
    if !tokio::fs::metadata(path).await.is_ok_and(|m| m.is_file()) {
        return false;
    }
    let Ok(mut f) = tokio::fs::File::open(path).await else {
        return false;
    };
    let mut head = [0u8; 4];
    f.read_exact(&mut head).await.is_ok() && zstd::is_zstd(&head)
}

/// Follows the compressed log at `path` as session `session`: what it holds now, then each
/// frame appended, as its lines. A frame cut short is waited for; a file that shrinks or is
/// replaced is said in a note and read again from its start.
pub async fn follow(
    store: Store,
    session: String,
    path: &Path,
    max_line: usize,
) -> Result<(), StoreError> {
    let key = path.to_string_lossy().into_owned();
    let mut done = store.follow_pos(&key).await?;
    let mut warned = false;
    loop {
        if let Ok(meta) = tokio::fs::metadata(path).await {
            let (dev, ino, len) = (meta.dev(), meta.ino(), meta.len());
            let from = match &done {
                Some(p) if (p.dev, p.ino) == (dev, ino) && p.offset <= len => p.offset,
                Some(_) => {
                    let why = format!("hiveterm: {key} was replaced or shrank; reading it again");
                    store_lines(&store, &session, vec![note_line(&why)], None).await?;
                    done = None;
                    0
                }
                None => 0,
            };
            if len > from {
                match read_frames(path, from, max_line).await {
                    Ok(lines) => {
                        let pos = FollowPos {
                            path: key.clone(),
                            dev,
                            ino,
                            offset: len,
                            within: 0,
                            mark: 0,
                        };
                        store_lines(&store, &session, lines, Some(pos.clone())).await?;
                        done = Some(pos);
                        warned = false;
                    }
                    // A frame still being written: its end comes later. Said once.
                    Err(e) if !warned => {
                        tracing::warn!("{key}: {e}; waiting for the rest");
                        warned = true;
                    }
                    Err(_) => {}
                }
            } else if done.is_none() {
                done = Some(FollowPos {
                    path: key.clone(),
                    dev,
                    ino,
                    offset: len,
                    within: 0,
                    mark: 0,
                });
            }
        }
        tokio::time::sleep(FOLLOW_POLL).await;
    }
}

/// The lines of the frames from byte `from` of the file to its end (the last line even without
/// its newline: a frame ends where the agent's write did).
async fn read_frames(path: &Path, from: u64, max_line: usize) -> Result<Vec<RawLine>, String> {
    let plain = decompressed(path, from).await?;
    Ok(lines_of(&plain, max_line))
}

/// The bytes of the frames from byte `from` of the file at `path` to its end, decompressed.
pub(super) async fn decompressed(path: &Path, from: u64) -> Result<Vec<u8>, String> {
    let mut f = tokio::fs::File::open(path)
        .await
        .map_err(|e| e.to_string())?;
    f.seek(std::io::SeekFrom::Start(from))
        .await
        .map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes).await.map_err(|e| e.to_string())?;
    tokio::task::spawn_blocking(move || match zstd::decompress(&bytes) {
        Some(result) => result,
        None => Err("not a zstd frame where the last one ended".to_owned()),
    })
    .await
    .map_err(|e| e.to_string())?
}

/// `plain`'s lines, the last one even without its newline.
pub(super) fn lines_of(plain: &[u8], max_line: usize) -> Vec<RawLine> {
    let mut reader = LineReader::with_limit(max_line);
    let mut lines = Vec::new();
    reader.push(plain, |line| lines.push(RawLine::from_line(line)));
    reader.finish(|line| lines.push(RawLine::from_line(line)));
    lines
}
