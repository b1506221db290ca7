//! The PostgreSQL schema: its migrations, run on start under an advisory lock so replicas
//! starting together do not race, and the rebuild of the derived tables when the fold
//! changes, done once (the first replica to take the lock) for all replicas.
//!
//! The same tables as SQLite's (`crate::store::sqlite::schema`), in PostgreSQL types, plus
//! `schema_version`. Raw events are `BYTEA`, byte for byte. The search index is
//! `search_rows` with GIN `pg_trgm` indexes (`super::search`); the migration that makes it
//! creates the extension if it is not there.

use classifier::TermEnvelope;
use deadpool_postgres::{Client, GenericClient};

use super::handle::pg;
use super::reader;
use crate::fold::{Checkpoint, SessionFold, StoredEvent};
use crate::index::{self, Index};
use crate::store::StoreError;
use crate::store::derived::{self, Derive};

/// The advisory lock key that serialises migrations and rebuilds across replicas.
const MIGRATE_LOCK: i64 = 0x6869_7665_7465_726d; // "hiveterm"

/// Schema migrations; entry `i` takes `schema_version` from `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    r#"
CREATE TABLE sessions (
    id       TEXT PRIMARY KEY,
    title    TEXT NOT NULL,
    source   TEXT NOT NULL,
    started  DOUBLE PRECISION NOT NULL,
    ended    DOUBLE PRECISION,
    last_seq BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE events (
    session   TEXT NOT NULL,
    seq       BIGINT NOT NULL,
    ts        DOUBLE PRECISION NOT NULL,
    received  DOUBLE PRECISION NOT NULL,
    raw       BYTEA NOT NULL,
    cut_len   BIGINT,
    cut_limit BIGINT,
    PRIMARY KEY (session, seq)
);
CREATE TABLE checkpoints (
    session TEXT NOT NULL,
    seq     BIGINT NOT NULL,
    ctx     TEXT NOT NULL,
    badges  TEXT NOT NULL,
    PRIMARY KEY (session, seq)
);
CREATE TABLE rendered (
    session TEXT NOT NULL,
    seq     BIGINT NOT NULL,
    json    TEXT NOT NULL,
    PRIMARY KEY (session, seq)
);
CREATE TABLE follows (
    path     TEXT PRIMARY KEY,
    session  TEXT NOT NULL,
    dev      BIGINT NOT NULL,
    ino      BIGINT NOT NULL,
    "offset" BIGINT NOT NULL
);
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"#,
    r#"
CREATE TABLE idempotency (
    session   TEXT NOT NULL,
    key       TEXT NOT NULL,
    first_seq BIGINT NOT NULL,
    last_seq  BIGINT NOT NULL,
    lines     BIGINT NOT NULL,
    PRIMARY KEY (session, key)
);
"#,
    r#"
ALTER TABLE checkpoints ADD COLUMN summary TEXT NOT NULL DEFAULT '{}';
"#,
    r#"
CREATE TABLE shares (
    id           BIGSERIAL PRIMARY KEY,
    token_hash   BYTEA NOT NULL UNIQUE,
    session      TEXT NOT NULL,
    title        TEXT,
    created      DOUBLE PRECISION NOT NULL,
    expires      DOUBLE PRECISION,
    snapshot_seq BIGINT,
    redact       BOOLEAN NOT NULL DEFAULT FALSE,
    revoked      DOUBLE PRECISION
);
"#,
    r#"
ALTER TABLE idempotency ADD COLUMN body_sha256 BYTEA;
"#,
    r#"
CREATE INDEX IF NOT EXISTS idempotency_newest ON idempotency(session, last_seq);
"#,
    r#"
CREATE TABLE notes (
    id       BIGSERIAL PRIMARY KEY,
    session  TEXT NOT NULL,
    from_seq BIGINT NOT NULL,
    to_seq   BIGINT NOT NULL,
    text     TEXT NOT NULL,
    author   TEXT NOT NULL,
    created  DOUBLE PRECISION NOT NULL,
    updated  DOUBLE PRECISION,
    share    BIGINT
);
CREATE INDEX notes_of_session ON notes(session, from_seq);
ALTER TABLE shares ADD COLUMN comments BOOLEAN NOT NULL DEFAULT FALSE;
"#,
    // The sessions' index (`crate::index`), as SQLite's.
    r#"
ALTER TABLE sessions
    ADD COLUMN given_title TEXT,
    ADD COLUMN agent TEXT,
    ADD COLUMN agent_version TEXT,
    ADD COLUMN project TEXT,
    ADD COLUMN model TEXT,
    ADD COLUMN started_at DOUBLE PRECISION,
    ADD COLUMN ended_at DOUBLE PRECISION,
    ADD COLUMN outcome TEXT,
    ADD COLUMN turns BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN errors BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN input_tokens BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN output_tokens BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN cache_read_tokens BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN cache_creation_tokens BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN cost DOUBLE PRECISION,
    ADD COLUMN first_error BIGINT;
UPDATE sessions SET given_title = title;
DELETE FROM meta WHERE key = 'derived';
CREATE INDEX sessions_newest ON sessions(started DESC, id);
CREATE INDEX sessions_cost ON sessions(COALESCE(cost, -1.0::DOUBLE PRECISION) DESC, started DESC, id);
CREATE INDEX sessions_errors ON sessions(errors DESC, started DESC, id);
CREATE INDEX sessions_agent ON sessions(agent, started DESC, id);
CREATE INDEX sessions_project ON sessions(project, started DESC, id);
"#,
    // The search index (derived): filled by the rebuild the deleted `derived` key asks for.
    // `gin_trgm_ops` is named in the schema the extension lives in, whatever the search path.
    r#"
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE TABLE search_rows (
    session TEXT NOT NULL,
    seq     BIGINT NOT NULL,
    rowno   INTEGER NOT NULL,
    ts      DOUBLE PRECISION NOT NULL,
    level   TEXT NOT NULL,
    icon    TEXT,
    summary TEXT NOT NULL,
    body    TEXT NOT NULL,
    PRIMARY KEY (session, seq, rowno)
);
DO $$
DECLARE trgm TEXT;
BEGIN
    SELECT n.nspname INTO trgm FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'pg_trgm';
    EXECUTE format('CREATE INDEX search_rows_summary ON search_rows USING gin (summary %I.gin_trgm_ops)', trgm);
    EXECUTE format('CREATE INDEX search_rows_body ON search_rows USING gin (body %I.gin_trgm_ops)', trgm);
END $$;
DELETE FROM meta WHERE key = 'derived';
"#,
    // The index sorts by when the log started (`crate::index::STARTED_SQL`), not by when the
    // server made the session: a watched old log sorts by its own time.
    r#"
DROP INDEX sessions_newest;
DROP INDEX sessions_cost;
DROP INDEX sessions_errors;
DROP INDEX sessions_agent;
DROP INDEX sessions_project;
CREATE INDEX sessions_newest ON sessions((COALESCE(started_at, started)) DESC, id);
CREATE INDEX sessions_cost ON sessions(COALESCE(cost, -1.0::DOUBLE PRECISION) DESC, (COALESCE(started_at, started)) DESC, id);
CREATE INDEX sessions_errors ON sessions(errors DESC, (COALESCE(started_at, started)) DESC, id);
CREATE INDEX sessions_agent ON sessions(agent, (COALESCE(started_at, started)) DESC, id);
CREATE INDEX sessions_project ON sessions(project, (COALESCE(started_at, started)) DESC, id);
"#,
    // Search reads a common query's rows in the hits' order (newest first), looking at each
    // (`super::search`): the index of that order, and statistics of the texts fine enough
    // for the planner to tell a common query from a rare one.
    r#"
CREATE INDEX search_rows_newest ON search_rows(ts DESC, session COLLATE "C" DESC, seq DESC, rowno DESC);
ALTER TABLE search_rows ALTER COLUMN summary SET STATISTICS 1000,
    ALTER COLUMN body SET STATISTICS 1000;
"#,
    // Each event's source file, when not the session's main one (`crate::fold`).
    r#"
ALTER TABLE events ADD COLUMN source TEXT;
"#,
];

/// Migrates the schema and rebuilds stale derived tables, holding the advisory lock: two
/// replicas starting together on an empty database make one schema, and one rebuild.
pub(super) async fn prepare(client: &mut Client, every: u64) -> Result<(), StoreError> {
    client
        .execute("SELECT pg_advisory_lock($1)", &[&MIGRATE_LOCK])
        .await
        .map_err(pg)?;
    let result = async {
        migrate(client).await?;
        rebuild_derived_if_stale(client, every).await
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
