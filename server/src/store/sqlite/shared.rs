//! What the writer thread and the readers share ([`Shared`]): the reader pool, the hubs, the
//! checkpoint interval.

use std::sync::Arc;

use super::reader::{self, Readers};
use crate::hub::{Hub, Hubs};
use crate::store::error::StoreError;

/// What the writer thread and the readers share.
pub(super) struct Shared {
    pub(super) readers: Readers,
    pub(super) hubs: Hubs,
    pub(super) checkpoint_every: u64,
}

impl Shared {
    /// The hub of `id`, loaded from the database on first use; `None` if there is no such
    /// session. Blocks.
    pub(super) fn hub(&self, id: &str) -> Result<Option<Arc<Hub>>, StoreError> {
        self.hubs
            .get_or_load(id, || self.readers.with(|conn| reader::load_hub(conn, id)))
    }
}
