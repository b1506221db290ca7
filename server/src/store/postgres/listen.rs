//! `LISTEN hiveterm`: replicas' commits, as `"events <seq> <session>"` (events up to `seq`
//! stored), `"row <seq> <session>"` (the session opened or ended) or `"notes 0 <session>"`
//! (a note made, changed or deleted: the hub tells its streams). A session whose hub is
//! loaded here is brought up to the database ([`super::catchup::refresh`]); its SSE clients
//! then get the new envelopes from the hub's broadcast, exactly once and in order, as if this
//! replica had stored them (and the index's live feed is told through the hub's publish). A
//! session not loaded here is marked in the index's live feed, which reads its entry from the
//! database. A lost connection is reopened, every loaded hub refreshed and the feed's
//! subscribers told to read the index again (notifications sent meanwhile were lost).

use std::sync::Arc;
use std::time::Duration;

use deadpool_postgres::Pool;
use futures_util::StreamExt;
use tokio_postgres::{AsyncMessage, NoTls};

use super::handle::{CHANNEL, Postgres, Shared};

/// Listens forever (until the task is aborted).
pub(super) async fn run(pool: Pool, shared: Arc<Shared>) {
    let db = Postgres {
        pool,
        // It writes nothing.
        stats: Arc::default(),
        shared,
        listener: std::sync::Mutex::new(None),
    };
    let mut reconnect = false;
    loop {
        if let Err(e) = listen(&db, reconnect).await {
            tracing::warn!("LISTEN {CHANNEL}: {e}; reconnecting");
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        reconnect = true;
    }
}

async fn listen(db: &Postgres, reconnect: bool) -> Result<(), String> {
    let (client, mut connection) = db
        .shared
        .config
        .connect(NoTls)
        .await
        .map_err(|e| e.to_string())?;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let driver = tokio::spawn(async move {
        let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
        while let Some(message) = messages.next().await {
            match message {
                Ok(AsyncMessage::Notification(n)) => {
                    if tx.send(n.payload().to_owned()).is_err() {
                        return;
                    }
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!("LISTEN connection: {e}");
                    return;
                }
            }
        }
    });
    client
        .batch_execute(&format!("LISTEN {CHANNEL}"))
        .await
        .map_err(|e| e.to_string())?;
    // Anything committed before LISTEN took effect: loaded hubs are brought up to it, and
    // after a lost connection the index's live feed is told to read the index again (other
    // sessions may have changed meanwhile).
    let loaded: Vec<String> = db.shared.hubs.lock().keys().cloned().collect();
    for id in loaded {
        refresh(db, &id).await;
    }
    if reconnect {
        db.shared.hubs.feed().reset();
    }
    while let Some(payload) = rx.recv().await {
        let mut parts = payload.splitn(3, ' ');
        let (Some(kind), Some(seq), Some(id)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        if kind == "notes" {
            if let Some(hub) = db.shared.hubs.get(id) {
                hub.notes().changed(note_change(seq));
            }
            continue;
        }
        // A session not loaded here loads from the database when asked for; the index's
        // live feed reads its entry there.
        let Some(seen) = db.shared.hubs.get(id).map(|hub| hub.lock().info.last_seq) else {
            db.shared.hubs.feed().changed(id);
            continue;
        };
        // Events not seen yet, or the row changed (opened, ended).
        if kind == "row" || seq.parse::<u64>().is_ok_and(|seq| seq > seen) {
            refresh(db, id).await;
        }
    }
    driver.abort();
    Err("the connection closed".into())
}

async fn refresh(db: &Postgres, id: &str) {
    if let Err(e) = super::catchup::refresh(db, id).await {
        tracing::warn!("bringing session {id} up to the database: {e}");
    }
}

/// A `notes` payload's change: `c<id>` made or changed, `d<id>` deleted; anything else (an
/// older replica's `0`) a reset.
fn note_change(code: &str) -> crate::store::note::NoteChange {
    use crate::store::note::NoteChange;
    let id = code.get(1..).and_then(|id| id.parse().ok());
    match (code.as_bytes().first(), id) {
        (Some(b'c'), Some(id)) => NoteChange::Changed(id),
        (Some(b'd'), Some(id)) => NoteChange::Deleted(id),
        _ => NoteChange::Reset,
    }
}
