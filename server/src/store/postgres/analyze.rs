//! The planner's statistics of the search rows, kept current by the server itself: a search
//! is planned for its pattern from them (`super::search`), and with none (a table filled by
//! an import, before autovacuum's analyze comes, if it comes at all) PostgreSQL reads every
//! match of a common word to sort them (0.6 s on the fleet benchmark, 4 ms once analyzed).
//! After [`MIN_ROWS`] new rows, or half the table, one `ANALYZE search_rows` runs in the
//! background, never two at once (it reads 300,000 rows' texts: a few seconds of a core).
//!
//! The trigram indexes' pending lists too: PostgreSQL adds a GIN index's new entries to a
//! list, merged into the index by the write that finds it over its limit, which took seconds
//! inside a write holding its session's row lock (every replica's writes to the session
//! waited: the load benchmark's POSTs, 10 s). The limit is 64 MB (a migration), and after
//! every [`CLEAN_ROWS`] rows `gin_clean_pending_list` merges them here, beside the writes.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use deadpool_postgres::Pool;

/// Fewest rows added that call for new statistics.
const MIN_ROWS: u64 = 100_000;

/// Fewest rows added that call for merging the pending lists.
const CLEAN_ROWS: u64 = 2_000;

/// Rows added since the last analyze, and the table's rows then; rows added since the last
/// merge of the pending lists.
#[derive(Default)]
pub(super) struct Stats {
    added: AtomicU64,
    base: AtomicU64,
    running: AtomicBool,
    pending: AtomicU64,
    cleaning: AtomicBool,
}

impl Stats {
    /// What the database says of the table now (rows, and rows changed since its last
    /// analyze), so a table left unanalyzed is analyzed after the next write.
    pub(super) async fn read(pool: &Pool) -> Stats {
        let stats = Stats::default();
        let Ok(client) = pool.get().await else {
            return stats;
        };
        let row = client
            .query_opt(
                "SELECT n_live_tup, n_mod_since_analyze FROM pg_stat_user_tables
                 WHERE relid = 'search_rows'::regclass",
                &[],
            )
            .await;
        if let Ok(Some(row)) = row {
            let live: i64 = row.get(0);
            let changed: i64 = row.get(1);
            stats.base.store(live.max(0) as u64, Ordering::Relaxed);
            stats.added.store(changed.max(0) as u64, Ordering::Relaxed);
        }
        stats
    }

    /// Notes `n` rows written; starts a merge of the pending lists, or an analyze, when
    /// enough were.
    pub(super) fn wrote(self: &Arc<Self>, pool: &Pool, n: u64) {
        self.clean(pool, n);
        let added = self.added.fetch_add(n, Ordering::Relaxed) + n;
        let base = self.base.load(Ordering::Relaxed);
        if added < MIN_ROWS.max(base / 2) || self.running.swap(true, Ordering::AcqRel) {
            return;
        }
        self.added.fetch_sub(added, Ordering::Relaxed);
        self.base.store(base + added, Ordering::Relaxed);
        let (stats, pool) = (self.clone(), pool.clone());
        tokio::spawn(async move {
            match pool.get().await {
                Ok(client) => {
                    if let Err(e) = client.batch_execute("ANALYZE search_rows").await {
                        tracing::warn!("ANALYZE search_rows: {e}");
                    }
                }
                Err(e) => tracing::warn!("ANALYZE search_rows: {e}"),
            }
            stats.running.store(false, Ordering::Release);
        });
    }

    /// Merges the trigram indexes' pending lists in the background after [`CLEAN_ROWS`]
    /// rows, never two at once.
    fn clean(self: &Arc<Self>, pool: &Pool, n: u64) {
        let pending = self.pending.fetch_add(n, Ordering::Relaxed) + n;
        if pending < CLEAN_ROWS || self.cleaning.swap(true, Ordering::AcqRel) {
            return;
        }
        self.pending.fetch_sub(pending, Ordering::Relaxed);
        let (stats, pool) = (self.clone(), pool.clone());
        tokio::spawn(async move {
            let sql = "SELECT gin_clean_pending_list('search_rows_summary'::regclass),
                              gin_clean_pending_list('search_rows_body'::regclass)";
            match pool.get().await {
                Ok(client) => {
                    if let Err(e) = client.batch_execute(sql).await {
                        tracing::warn!("merging the search index's pending lists: {e}");
                    }
                }
                Err(e) => tracing::warn!("merging the search index's pending lists: {e}"),
            }
            stats.cleaning.store(false, Ordering::Release);
        });
    }
}
