//! [`PostLocks`]: the turns POSTs to one session take.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

/// One async read-write lock per session: a POST that is one append and has no key takes it
/// shared, any other exclusively; entries go when no POST holds them.
#[derive(Default)]
pub struct PostLocks {
    map: Mutex<HashMap<String, Weak<tokio::sync::RwLock<()>>>>,
}

impl PostLocks {
    pub(super) fn get(&self, id: &str) -> Arc<tokio::sync::RwLock<()>> {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(lock) = map.get(id).and_then(Weak::upgrade) {
            return lock;
        }
        map.retain(|_, w| w.strong_count() > 0);
        let lock = Arc::new(tokio::sync::RwLock::new(()));
        map.insert(id.to_owned(), Arc::downgrade(&lock));
        lock
    }
}
