//! The PostgreSQL schema's migrations, run in order on start (`super::schema`): the same
//! tables as SQLite's (`crate::store::sqlite::schema`), in PostgreSQL types.

/// Schema migrations; entry `i` takes `schema_version` from `i` to `i + 1`.
pub(super) const MIGRATIONS: &[&str] = &[
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
    // The trigram indexes' pending lists are merged by the server in the background
    // (`super::analyze`), not by whichever write finds them over 4 MB: that merge took
    // seconds inside a write holding its session's row lock.
    r#"
ALTER INDEX search_rows_summary SET (gin_pending_list_limit = 65536);
ALTER INDEX search_rows_body SET (gin_pending_list_limit = 65536);
"#,
    // How much of a compressed followed file's frame is stored (`FollowPos::within`): a big
    // frame is stored in pieces.
    r#"
ALTER TABLE follows ADD COLUMN within BIGINT NOT NULL DEFAULT 0;
"#,
    // What a followed file's bytes before its stored position were (`FollowPos::mark`): a
    // file rewritten in place is known as another file.
    r#"
ALTER TABLE follows ADD COLUMN mark BIGINT NOT NULL DEFAULT 0;
"#,
    // Whether a session's cost is an estimate from the price table (issue 50): the derived
    // data is made again, so that sessions whose logs state no cost get their estimate.
    r#"
ALTER TABLE sessions ADD COLUMN cost_estimated BIGINT NOT NULL DEFAULT 0;
DELETE FROM meta WHERE key = 'derived';
"#,
    // What a session's estimate is made of, and the models of no price of an unknown cost
    // (issue 50): a stored estimate is made again when the server starts with another price
    // table (`crate::store::prices_seen`); the derived data is made again to fill them.
    r#"
ALTER TABLE sessions ADD COLUMN tokens_by_model TEXT;
ALTER TABLE sessions ADD COLUMN unpriced_models TEXT;
DELETE FROM meta WHERE key = 'derived';
"#,
    // A comparison link (issue 48), as SQLite's.
    r#"
ALTER TABLE shares ADD COLUMN compare_with TEXT, ADD COLUMN compare_seq BIGINT;
"#,
];
