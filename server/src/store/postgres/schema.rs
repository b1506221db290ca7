//! The PostgreSQL schema: its migrations (`super::migrations`), run on start under an advisory lock so replicas
//! starting together do not race, and the rebuild of the derived tables when the fold
//! changes, done once (the first replica to take the lock) for all replicas.
//!
//! The same tables as SQLite's (`crate::store::sqlite::schema`), in PostgreSQL types, plus
//! `schema_version`. Raw events are `BYTEA`, byte for byte. The search index is
//! `search_rows` with GIN `pg_trgm` indexes (`super::search`); the migration that makes it
//! creates the extension if it is not there.

use classifier::TermEnvelope;
use classifier::prices::Prices;
use deadpool_postgres::{Client, GenericClient};

use super::handle::pg;
use super::migrations::MIGRATIONS;
use super::reader;
use crate::fold::{Checkpoint, SessionFold, StoredEvent};
use crate::index::{self, Index};
use crate::store::derived;
use crate::store::derived::Derive;
use crate::store::error::StoreError;
use crate::store::prices_seen::{self, Reprice, Unstated};

/// The advisory lock key that serialises migrations and rebuilds across replicas.
const MIGRATE_LOCK: i64 = 0x6869_7665_7465_726d; // "hiveterm"

/// Migrates the schema and rebuilds stale derived tables, holding the advisory lock: two
/// replicas starting together on an empty database make one schema, and one rebuild.
/// With `prices` (a server's start, not a one-shot command's), the stored estimates made with
/// other prices are made again ([`prices_seen`]).
pub(super) async fn prepare(
    client: &mut Client,
    every: u64,
    prices: Option<&Prices>,
) -> Result<(), StoreError> {
    client
        .execute("SELECT pg_advisory_lock($1)", &[&MIGRATE_LOCK])
        .await
        .map_err(pg)?;
    let result = async {
        migrate(client).await?;
        rebuild_derived_if_stale(client, every).await?;
        if let Some(prices) = prices {
            let tx = client.transaction().await.map_err(pg)?;
            let repriced = prices_seen::reprice_if_changed(&mut Derived(&tx), prices).await?;
            tx.commit().await.map_err(pg)?;
            prices_seen::log_repriced(repriced);
        }
        Ok::<(), StoreError>(())
    }
    .await;
    let unlock = client
        .execute("SELECT pg_advisory_unlock($1)", &[&MIGRATE_LOCK])
        .await;
    result?;
    unlock.map_err(pg)?;
    Ok(())
}

async fn migrate(client: &mut Client) -> Result<(), StoreError> {
    client
        .batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        .await
        .map_err(pg)?;
    let version: i32 = client
        .query_opt("SELECT version FROM schema_version", &[])
        .await
        .map_err(pg)?
        .map_or(0, |r| r.get(0));
    if version as usize > MIGRATIONS.len() {
        return Err(StoreError::TooNew(i64::from(version), MIGRATIONS.len()));
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let tx = client.transaction().await.map_err(pg)?;
        tx.batch_execute(sql).await.map_err(pg)?;
        tx.execute("DELETE FROM schema_version", &[])
            .await
            .map_err(pg)?;
        tx.execute(
            "INSERT INTO schema_version(version) VALUES ($1)",
            &[&((i + 1) as i32)],
        )
        .await
        .map_err(pg)?;
        tx.commit().await.map_err(pg)?;
        tracing::info!("database migrated to schema version {}", i + 1);
    }
    Ok(())
}

/// Drops derived data made under another [`derived::derived_format`] and derives it again
/// from the raw events, through the one fold ([`derived::rebuild_if_stale`], in one
/// transaction).
async fn rebuild_derived_if_stale(client: &mut Client, every: u64) -> Result<(), StoreError> {
    let tx = client.transaction().await.map_err(pg)?;
    let rebuilt = derived::rebuild_if_stale(&mut Derived(&tx), every).await?;
    tx.commit().await.map_err(pg)?;
    derived::log_rebuilt(rebuilt);
    Ok(())
}

/// The rebuild's statements over a PostgreSQL transaction.
struct Derived<'a, C>(&'a C);

impl<C: GenericClient + Sync> Derive for Derived<'_, C> {
    async fn stored_format(&mut self) -> Result<Option<String>, StoreError> {
        Ok(self
            .0
            .query_opt("SELECT value FROM meta WHERE key = 'derived'", &[])
            .await
            .map_err(pg)?
            .map(|r| r.get(0)))
    }

    async fn clear(&mut self) -> Result<(), StoreError> {
        self.0
            .batch_execute(
                "DELETE FROM checkpoints; DELETE FROM rendered; DELETE FROM search_rows;",
            )
            .await
            .map_err(pg)
    }

    async fn sessions(&mut self) -> Result<Vec<String>, StoreError> {
        Ok(self
            .0
            .query("SELECT id FROM sessions", &[])
            .await
            .map_err(pg)?
            .iter()
            .map(|r| r.get(0))
            .collect())
    }

    async fn events(
        &mut self,
        session: &str,
        after: u64,
        upto: u64,
    ) -> Result<Vec<StoredEvent>, StoreError> {
        reader::load_events(self.0, session, after, upto).await
    }

    async fn rendered(
        &mut self,
        session: &str,
        seq: u64,
        env: &TermEnvelope,
        json: &str,
    ) -> Result<(), StoreError> {
        insert_rendered(self.0, session, seq, json).await?;
        super::search::index(self.0, session, seq, env).await
    }

    async fn checkpoint(
        &mut self,
        session: &str,
        seq: u64,
        cp: &Checkpoint,
    ) -> Result<(), StoreError> {
        insert_checkpoint(self.0, session, seq, cp).await
    }

    async fn index(&mut self, session: &str, fold: &SessionFold) -> Result<(), StoreError> {
        let given: String = self
            .0
            .query_one(
                "SELECT COALESCE(given_title, title) FROM sessions WHERE id = $1",
                &[&session],
            )
            .await
            .map_err(pg)?
            .get(0);
        let (title, idx) = index::row_of(session, &given, fold);
        update_index(self.0, session, &title, &idx).await
    }

    async fn set_format(&mut self, format: &str) -> Result<(), StoreError> {
        self.0
            .execute(
                "INSERT INTO meta(key, value) VALUES ('derived', $1)
                 ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                &[&format],
            )
            .await
            .map_err(pg)?;
        Ok(())
    }
}

/// [`prices_seen`]'s statements over a PostgreSQL transaction.
impl<C: GenericClient + Sync> Reprice for Derived<'_, C> {
    async fn stored_prices(&mut self) -> Result<Option<String>, StoreError> {
        Ok(self
            .0
            .query_opt("SELECT value FROM meta WHERE key = 'prices'", &[])
            .await
            .map_err(pg)?
            .map(|r| r.get(0)))
    }

    async fn unstated(&mut self) -> Result<Vec<Unstated>, StoreError> {
        Ok(self
            .0
            .query(prices_seen::UNSTATED_SQL, &[])
            .await
            .map_err(pg)?
            .iter()
            .map(|r| Unstated {
                id: r.get(0),
                tokens_by_model: r.get(1),
            })
            .collect())
    }

    async fn set_cost(
        &mut self,
        id: &str,
        cost: Option<f64>,
        unpriced: Option<String>,
    ) -> Result<(), StoreError> {
        let sql = prices_seen::set_cost_sql(|n| format!("${n}"));
        let estimated = i64::from(cost.is_some());
        self.0
            .execute(&sql, &[&id, &cost, &estimated, &unpriced])
            .await
            .map_err(pg)?;
        Ok(())
    }

    async fn set_prices(&mut self, fingerprint: &str) -> Result<(), StoreError> {
        self.0
            .execute(
                "INSERT INTO meta(key, value) VALUES ('prices', $1)
                 ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                &[&fingerprint],
            )
            .await
            .map_err(pg)?;
        Ok(())
    }
}

/// Stores the envelope (as JSON) of event `seq`, which has rows.
pub(super) async fn insert_rendered(
    client: &impl GenericClient,
    id: &str,
    seq: u64,
    json: &str,
) -> Result<(), StoreError> {
    let stmt = client
        .prepare_cached(
            "INSERT INTO rendered(session, seq, json) VALUES ($1, $2, $3)
             ON CONFLICT (session, seq) DO UPDATE SET json = EXCLUDED.json",
        )
        .await
        .map_err(pg)?;
    client
        .execute(&stmt, &[&id, &(seq as i64), &json])
        .await
        .map_err(pg)?;
    Ok(())
}

/// Stores the fold after event `seq`.
pub(super) async fn insert_checkpoint(
    client: &impl GenericClient,
    id: &str,
    seq: u64,
    cp: &Checkpoint,
) -> Result<(), StoreError> {
    let [ctx, badges, summary] = cp.to_columns()?;
    let stmt = client
        .prepare_cached(
            "INSERT INTO checkpoints(session, seq, ctx, badges, summary) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (session, seq) DO UPDATE
             SET ctx = EXCLUDED.ctx, badges = EXCLUDED.badges, summary = EXCLUDED.summary",
        )
        .await
        .map_err(pg)?;
    client
        .execute(&stmt, &[&id, &(seq as i64), &ctx, &badges, &summary])
        .await
        .map_err(pg)?;
    Ok(())
}

/// Sets a session's title and index columns (`crate::index`).
pub(super) async fn update_index(
    client: &impl GenericClient,
    id: &str,
    title: &str,
    idx: &Index,
) -> Result<(), StoreError> {
    let sql = index::update_sql(|n| format!("${n}"));
    let args = index::update_args(id, title, idx);
    let stmt = client.prepare_cached(&sql).await.map_err(pg)?;
    client
        .execute_raw(&stmt, args.iter().map(super::index::pg_value))
        .await
        .map_err(pg)?;
    Ok(())
}
