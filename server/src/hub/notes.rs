//! A session's notes' changes as its hub keeps them ([`HubNotes`]): each committed change
//! told to the session's live streams (a broadcast: one that falls behind sends a reset), and
//! what was told since the SQLite store's watch last looked, so it does not tell this
//! server's own writes again.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::broadcast;

use crate::store::note::NoteChange;

/// Note changes kept for a stream that is behind (then it sends a reset), and most stored
/// notes remembered as told.
const NOTE_CHANGES: usize = 64;

/// The note changes told since the SQLite store's watch last looked: how many deletes, and
/// each stored note's time (at most [`NOTE_CHANGES`]; more are forgotten and the watch tells
/// them again, which costs a stream one more read of the note).
#[derive(Debug, Default)]
pub struct NotesTold {
    /// Deletes told.
    pub deletes: u64,
    /// Notes stored, by id: their `updated_at`, else `created_at`.
    pub stored: HashMap<u64, f64>,
}

/// A session's notes' changes.
pub struct HubNotes {
    tx: broadcast::Sender<NoteChange>,
    told: Mutex<NotesTold>,
}

impl Default for HubNotes {
    fn default() -> HubNotes {
        HubNotes {
            tx: broadcast::Sender::new(NOTE_CHANGES),
            told: Mutex::default(),
        }
    }
}

impl HubNotes {
    /// Tells the session's streams of `change` (after it committed).
    pub fn changed(&self, change: NoteChange) {
        {
            let mut told = self.told.lock().unwrap_or_else(|e| e.into_inner());
            match &change {
                NoteChange::Deleted(_) => told.deletes += 1,
                NoteChange::Stored(n) if told.stored.len() < NOTE_CHANGES => {
                    told.stored
                        .insert(n.id, n.updated_at.unwrap_or(n.created_at));
                }
                _ => {}
            }
        }
        let _ = self.tx.send(change);
    }

    /// The changes told since the last call.
    pub fn take_told(&self) -> NotesTold {
        std::mem::take(&mut *self.told.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// A receiver of each change from now on.
    pub fn watch(&self) -> broadcast::Receiver<NoteChange> {
        self.tx.subscribe()
    }
}
