//! The PostgreSQL backend (`--db postgres://…`): one database shared by any number of
//! `hiveterm serve` replicas.
//!
//! - [`schema`]: migrations and the derived-table rebuild, under an advisory lock.
//! - [`reader`]: every query; [`writer`]: open, append, end; [`catchup`]: a hub brought up
//!   to the database; [`shares`]: share links; [`keys`]: a keyed append's checks under
//!   the row lock; [`notes`]: notes.
//! - [`listen`]: `LISTEN hiveterm`; a replica told `(session, seq)` by another brings the
//!   session's hub up to that seq from the database.
//!
//! Each session's hub is only changed by a task holding the session's write lock (a
//! per-process async mutex), and every write transaction takes the session's row lock
//! (`SELECT … FOR UPDATE`) first: seqs are assigned in the database, gapless and in order
//! across replicas. Before writing, the writer brings the hub up to the row's `last_seq`
//! (events other replicas stored), so the fold is always the one after the newest event.

mod analyze;
mod catchup;
mod handle;
mod index;
mod keys;
mod listen;
mod migrations;
mod notes;
mod reader;
mod rows;
mod schema;
mod search;
mod shares;
mod writer;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tokio_postgres::NoTls;

pub(crate) use self::handle::Postgres;
use self::handle::{Shared, pg};
use crate::fold::{SessionFold, StoredEvent};
use crate::hub::{Hub, Hubs, SessionInfo};
use crate::store::error::StoreError;
use crate::store::request::{Append, Appended, FollowPos, Keyed};

/// Pooled connections per replica.
const POOL_SIZE: usize = 16;

impl Postgres {
    /// Connects to `url`, migrates the schema and rebuilds stale derived tables (on a
    /// helper thread, so a synchronous caller can open it), then starts listening for other
    /// replicas' writes on the current tokio runtime.
    /// With `prices` (a server's start), stored estimates made with other prices are made
    /// again (`crate::store::prices_seen`).
    pub(crate) fn open(
        url: &str,
        checkpoint_every: u64,
        prices: Option<&classifier::prices::Prices>,
    ) -> Result<Postgres, StoreError> {
        let config: tokio_postgres::Config = url.parse().map_err(pg)?;
        let prepare_config = config.clone();
        let stats = std::thread::scope(|scope| {
            scope
                .spawn(|| {
                    let rt = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .map_err(pg)?;
                    rt.block_on(async {
                        let pool = pool(prepare_config, 1)?;
                        let mut client = pool.get().await.map_err(pg)?;
                        schema::prepare(&mut client, checkpoint_every, prices).await?;
                        drop(client);
                        Ok::<_, StoreError>(analyze::Stats::read(&pool).await)
                    })
                })
                .join()
                .map_err(|_| StoreError::Corrupt("the migration thread panicked".into()))?
        })?;
        let shared = Arc::new(Shared {
            config: config.clone(),
            hubs: Hubs::default(),
            locks: Mutex::new(HashMap::new()),
            checkpoint_every,
        });
        let pool = pool(config, POOL_SIZE)?;
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| {
            StoreError::Corrupt("the PostgreSQL store needs a tokio runtime".into())
        })?;
        let listener = runtime.spawn(listen::run(pool.clone(), shared.clone()));
        Ok(Postgres {
            pool,
            stats: Arc::new(stats),
            shared,
            listener: Mutex::new(Some(listener)),
        })
    }

    pub(crate) fn close(&self) {
        let listener = self
            .listener
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(listener) = listener {
            listener.abort();
        }
        self.pool.close();
    }

    async fn client(&self) -> Result<deadpool_postgres::Client, StoreError> {
        if self.pool.is_closed() {
            return Err(StoreError::Closed);
        }
        self.pool.get().await.map_err(pg)
    }

    pub(crate) async fn open_session(
        &self,
        id: &str,
        title: &str,
        source: &str,
    ) -> Result<bool, StoreError> {
        Box::pin(writer::open_session(self, id, title, source)).await
    }

    pub(crate) async fn append(&self, append: Append) -> Result<Appended, StoreError> {
        // Boxed: the append's future is large, and every caller of the store would carry it.
        Box::pin(writer::append(self, append)).await
    }

    pub(crate) async fn end_session(&self, id: &str) -> Result<SessionInfo, StoreError> {
        Box::pin(writer::end_session(self, id)).await
    }

    /// The hub of `id`, loaded from the database on first use (under the session's write
    /// lock); `None` if there is no such session.
    pub(crate) async fn hub(&self, id: &str) -> Result<Option<Arc<Hub>>, StoreError> {
        if let Some(hub) = self.shared.hubs.get(id) {
            return Ok(Some(hub));
        }
        let slot = self.shared.slot_of(id);
        let _guard = slot.lock.lock().await;
        if let Some(hub) = self.shared.hubs.get(id) {
            return Ok(Some(hub));
        }
        let client = self.client().await?;
        let Some(info) = reader::session(&client, id).await? else {
            return Ok(None);
        };
        let fold = reader::fold_at(&client, id, info.last_seq).await?;
        let hub = Arc::new(Hub::new(info, fold));
        Ok(Some(self.shared.hubs.insert_created(id.to_owned(), hub)))
    }

    pub(crate) async fn sessions(
        &self,
        before: Option<(f64, String)>,
        limit: usize,
    ) -> Result<Vec<SessionInfo>, StoreError> {
        reader::sessions(&self.client().await?, before.as_ref(), limit).await
    }

    pub(crate) async fn index_page(
        &self,
        query: crate::index::Query,
    ) -> Result<Vec<crate::index::Entry>, StoreError> {
        index::index_page(&self.client().await?, &query).await
    }

    pub(crate) async fn usage(
        &self,
        by: crate::index::By,
        since: Option<f64>,
    ) -> Result<Vec<crate::index::UsageGroup>, StoreError> {
        index::usage(&self.client().await?, by, since).await
    }

    pub(crate) async fn follow_pos(
        &self,
        path: &str,
    ) -> Result<Option<(FollowPos, String)>, StoreError> {
        reader::follow_pos(&self.client().await?, path).await
    }

    pub(crate) async fn history_page(
        &self,
        id: &str,
        head: u64,
        before: Option<u64>,
        limit: usize,
    ) -> Result<Vec<u8>, StoreError> {
        reader::rendered_page(&self.client().await?, id, head, before, limit).await
    }

    pub(crate) async fn frames(
        &self,
        id: &str,
        after: u64,
        upto: u64,
    ) -> Result<(Vec<u8>, u64), StoreError> {
        reader::rendered_frames(&self.client().await?, id, after, upto).await
    }

    pub(crate) async fn search(
        &self,
        q: crate::store::search::SearchQuery,
    ) -> Result<crate::store::search::SearchPage, StoreError> {
        let client = self.client().await?;
        let mut pager = crate::store::search::Pager::new(q);
        while let Some((after, n)) = pager.ask() {
            let batch = search::candidates(&client, pager.query(), after.as_ref(), n).await?;
            pager.take(batch);
        }
        Ok(pager.finish())
    }

    pub(crate) async fn last_key(&self, id: &str) -> Result<Option<(String, Keyed)>, StoreError> {
        reader::last_key(&self.client().await?, id).await
    }

    pub(crate) async fn keyed(&self, id: &str, key: &str) -> Result<Option<Keyed>, StoreError> {
        reader::keyed(&self.client().await?, id, key).await
    }

    pub(crate) async fn session_info(&self, id: &str) -> Result<Option<SessionInfo>, StoreError> {
        reader::session(&self.client().await?, id).await
    }

    pub(crate) async fn fold_at(&self, id: &str, seq: u64) -> Result<SessionFold, StoreError> {
        reader::fold_at(&self.client().await?, id, seq).await
    }

    pub(crate) async fn events(
        &self,
        id: &str,
        after: u64,
        upto: u64,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        reader::load_events(&self.client().await?, id, after, upto).await
    }

    /// The sessions' hubs (and the index's live feed they mark).
    pub(crate) fn hubs(&self) -> &crate::hub::Hubs {
        &self.shared.hubs
    }

    pub(crate) fn loaded_hubs(&self) -> usize {
        self.shared.hubs.lock().len()
    }

    pub(crate) fn checkpoint_every(&self) -> u64 {
        self.shared.checkpoint_every
    }
}

/// A pool of `size` connections.
fn pool(config: tokio_postgres::Config, size: usize) -> Result<Pool, StoreError> {
    let manager = Manager::from_config(
        config,
        NoTls,
        ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        },
    );
    Pool::builder(manager)
        .max_size(size)
        .runtime(Runtime::Tokio1)
        .build()
        .map_err(pg)
}
