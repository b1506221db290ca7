//! What reads across every session: the sessions' index (`crate::index`) and its live feed,
//! usage and search (`crate::search`) — more of [`Store`]'s methods.

use std::sync::Arc;

use super::{Backend, SearchPage, SearchQuery, Store, StoreError};
use crate::feed::IndexFeed;

impl Store {
    /// The sessions' hubs, whichever backend.
    fn hubs(&self) -> &crate::hub::Hubs {
        match &*self.backend {
            Backend::Sqlite(db) => db.hubs(),
            Backend::Postgres(db) => db.hubs(),
        }
    }

    /// The index's live feed (`crate::feed`): the sessions whose entries changed.
    pub fn index_feed(&self) -> &Arc<IndexFeed> {
        self.hubs().feed()
    }

    /// Session `id`'s index entry as of now, as `GET /api/sessions` lists it: from its hub's
    /// committed state when it is loaded (a hub is installed after its commit, so that is
    /// what the row says), else read from the database; `None` if there is no such session.
    pub async fn index_entry(&self, id: &str) -> Result<Option<crate::index::Entry>, StoreError> {
        if let Some(hub) = self.hubs().get(id) {
            let inner = hub.lock();
            return Ok(Some(crate::index::Entry {
                info: inner.info.clone(),
                index: crate::index::Index::of(&inner.fold),
            }));
        }
        let query = crate::index::Query {
            id: Some(id.to_owned()),
            limit: 1,
            ..Default::default()
        };
        Ok(self.index_page(query).await?.pop())
    }

    /// A page of the sessions' index: the sessions `query` asks for, in its order, after its
    /// cursor, at most its limit (`crate::index`).
    pub async fn index_page(
        &self,
        query: crate::index::Query,
    ) -> Result<Vec<crate::index::Entry>, StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.index_page(query).await,
            Backend::Postgres(db) => db.index_page(query).await,
        }
    }

    /// The sessions' tokens and cost by `by`, of the sessions started (by their log's time,
    /// else when made) at or after `since`: one group a key, ordered by key (`null` last).
    pub async fn usage(
        &self,
        by: crate::index::By,
        since: Option<f64>,
    ) -> Result<Vec<crate::index::UsageGroup>, StoreError> {
        let mut groups = match &*self.backend {
            Backend::Sqlite(db) => db.usage(by, since).await,
            Backend::Postgres(db) => db.usage(by, since).await,
        }?;
        groups.sort_by(|a, b| (a.key.is_none(), &a.key).cmp(&(b.key.is_none(), &b.key)));
        Ok(groups)
    }

    /// A page of the rows whose summary or body holds `q.text` (ASCII case folded), newest
    /// event first ([`Cursor`]); `q.limit` at least 1.
    pub async fn search(&self, mut q: SearchQuery) -> Result<SearchPage, StoreError> {
        q.limit = q.limit.max(1);
        match &*self.backend {
            Backend::Sqlite(db) => db.search(q).await,
            Backend::Postgres(db) => db.search(q).await,
        }
    }
}
