//! The planner's statistics of the search rows, kept current by the server itself: a search
//! is planned for its pattern from them (`super::search`), and with none (a table filled by
//! an import, before autovacuum's analyze comes, if it comes at all) PostgreSQL reads every
//! match of a common word to sort them (0.6 s on the fleet benchmark, 4 ms once analyzed).
//! After [`MIN_ROWS`] new rows, or half the table, one `ANALYZE search_rows` runs in the
//! background, never two at once (it reads 300,000 rows' texts: a few seconds of a core).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use deadpool_postgres::Pool;

/// Fewest rows added that call for new statistics.
const MIN_ROWS: u64 = 100_000;

/// Rows added since the last analyze, and the table's rows then.
#[derive(Default)]
pub(super) struct Stats {
    added: AtomicU64,
    base: AtomicU64,
    running: AtomicBool,
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

    /// Notes `n` rows written; starts an analyze when enough were.
    pub(super) fn wrote(self: &Arc<Self>, pool: &Pool, n: u64) {
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
}
