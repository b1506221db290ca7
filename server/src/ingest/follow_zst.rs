//! `--follow` of a zstd-compressed log (a Codex rollout idle long enough to become
//! `rollout-*.jsonl.zst`): its lines imported decompressed, once, a piece at a time
//! ([`super::unzst`]); frames appended later are imported as they complete. How far the file
//! has been stored (a frame's start and how much of it) is committed with its lines, so a
//! restart imports nothing twice.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use classifier::zstd::{self, FramePos};
use tokio::io::AsyncReadExt;

use super::lines::{FOLLOW_BATCH, FOLLOW_POLL, note_line, store_lines};
use super::unzst::{self, Ended, ZstReader};
use crate::store::{Store, StoreError};

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
/// frame appended, as its lines, read a piece at a time ([`ZstReader`]), each piece committed
/// with the position it reaches. A frame cut short is waited for; a file that shrinks or is
/// replaced is said in a note and read again from its start.
pub async fn follow(
    store: Store,
    session: String,
    path: &Path,
    max_line: usize,
) -> Result<(), StoreError> {
    let key = path.to_string_lossy().into_owned();
    let mut done = store.follow_pos(&key).await?;
    let mut reader: Option<ZstReader> = None;
    // The file's length when it last could not be read on: looked at again when it changes.
    let mut stuck: Option<u64> = None;
    loop {
        let Ok(meta) = tokio::fs::metadata(path).await else {
            tokio::time::sleep(FOLLOW_POLL).await;
            continue;
        };
        let (dev, ino, len) = (meta.dev(), meta.ino(), meta.len());
        let at = match &done {
            Some(p) if (p.dev, p.ino) == (dev, ino) && p.offset <= len => FramePos {
                frame: p.offset,
                within: p.within,
            },
            Some(_) => {
                let why = format!("hiveterm: {key} was replaced or shrank; reading it again");
                store_lines(&store, &session, vec![note_line(&why)], None).await?;
                (done, reader, stuck) = (None, None, None);
                FramePos::default()
            }
            None => FramePos::default(),
        };
        let grown = (at.frame < len || at.within > 0) && stuck != Some(len);
        if reader.is_none() && grown {
            let file = match std::fs::File::open(path) {
                Ok(f) => f,
                Err(e) => {
                    tracing::warn!("{key}: {e}; waiting for the rest");
                    stuck = Some(len);
                    tokio::time::sleep(FOLLOW_POLL).await;
                    continue;
                }
            };
            match unzst::open(file, at, max_line).await {
                Ok(r) => reader = Some(r),
                Err(e) => {
                    tracing::warn!("{key}: {e}; waiting for the rest");
                    stuck = Some(len);
                }
            }
        }
        let Some(r) = reader.take() else {
            tokio::time::sleep(FOLLOW_POLL).await;
            continue;
        };
        let (r, lines, ended) = unzst::read_piece(r, FOLLOW_BATCH).await;
        let pos = r.follow_pos(&key);
        if !lines.is_empty() || done.as_ref() != Some(&pos) {
            store_lines(&store, &session, lines, Some(pos.clone())).await?;
            done = Some(pos);
        }
        match ended {
            Ended::More => reader = Some(r),
            Ended::End => {
                stuck = Some(len);
                tokio::time::sleep(FOLLOW_POLL).await;
            }
            Ended::Wait(e) => {
                // A frame still being written: its end comes later. Said once per length.
                tracing::warn!("{key}: {e}; waiting for the rest");
                stuck = Some(len);
                tokio::time::sleep(FOLLOW_POLL).await;
            }
        }
    }
}
