//! Bringing a session's hub up to the database: the events other replicas stored since the
//! hub last saw the session are folded in and their stored envelopes become one batch for its
//! SSE clients. Done before every write (under the session's write lock) and when another
//! replica announces a commit (`super::listen`).

use std::sync::Arc;

use deadpool_postgres::GenericClient;

use super::handle::Postgres;
use super::reader;
use crate::fold::SessionFold;
use crate::hub::{Hub, MAX_INLINE_BATCH, SessionInfo};
use crate::store::error::StoreError;

/// A hub brought up to a committed session row: its fold after `info.last_seq`, whether the
/// partial message changed, and the frames of the events it had not seen (`None` when they
/// are too many to broadcast).
pub(super) struct CaughtUp {
    pub(super) hub: Arc<Hub>,
    pub(super) fold: SessionFold,
    pub(super) preview_changed: bool,
    pub(super) frames: Option<Vec<u8>>,
}

/// The hub of the session whose committed row is `info` (loaded if need be), with the fold
/// and frames of the events other replicas stored since it last saw the session. The caller
/// holds the session's write lock.
pub(super) async fn catch_up(
    db: &Postgres,
    client: &impl GenericClient,
    info: &SessionInfo,
) -> Result<CaughtUp, StoreError> {
    let id = info.id.as_str();
    let Some(hub) = db.shared.hubs.get(id) else {
        let fold = reader::fold_at(client, id, info.last_seq).await?;
        // Through `insert_created`: beyond `MAX_HUBS` idle hubs are dropped (a replica that
        // inserted directly kept every session it ever wrote in memory).
        let hub = Arc::new(Hub::new(info.clone(), fold.clone()));
        let hub = db.shared.hubs.insert_created(id.to_owned(), hub);
        return Ok(CaughtUp {
            hub,
            fold,
            preview_changed: false,
            frames: Some(Vec::new()),
        });
    };
    let (seen, mut fold) = {
        let inner = hub.lock();
        (inner.info.last_seq, inner.fold.clone())
    };
    let mut preview_changed = false;
    let mut frames = Some(Vec::new());
    if info.last_seq > seen {
        (preview_changed, frames) = reader::fold_events_with_frames(
            client,
            id,
            &mut fold,
            seen,
            info.last_seq,
            MAX_INLINE_BATCH,
        )
        .await?;
    }
    if info.ended.is_some() && !fold.preview.preview.is_empty() {
        // A message cut off by the end is no longer being written.
        fold.preview = crate::fold::LivePreview {
            preview: classifier::Preview::new(),
            seq: info.last_seq,
        };
        preview_changed = true;
    }
    Ok(CaughtUp {
        hub,
        fold,
        preview_changed,
        frames,
    })
}

/// Brings the hub of `id`, if loaded, up to the committed row (after this replica's open or
/// end, or another replica's write). Takes the session's write lock.
pub(super) async fn refresh(db: &Postgres, id: &str) -> Result<(), StoreError> {
    if db.shared.hubs.get(id).is_none() {
        return Ok(());
    }
    let slot = db.shared.slot_of(id);
    let _guard = slot.lock.lock().await;
    let client = db.client().await?;
    let Some(info) = reader::session(&client, id).await? else {
        return Ok(());
    };
    let c = catch_up(db, &client, &info).await?;
    db.shared
        .hubs
        .publish(&c.hub, info, c.fold, c.preview_changed, c.frames);
    Ok(())
}
