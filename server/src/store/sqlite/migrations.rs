//! The SQLite schema's migrations, in order (the tables they make are listed in
//! `super::schema`).

/// Schema migrations; entry `i` takes `user_version` from `i` to `i + 1`.
pub(super) const MIGRATIONS: &[&str] = &[
    r#"
CREATE TABLE sessions (
    id       TEXT PRIMARY KEY,
    title    TEXT NOT NULL,
    source   TEXT NOT NULL,
    started  REAL NOT NULL,
    ended    REAL,
    last_seq INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE events (
    session   TEXT NOT NULL,
    seq       INTEGER NOT NULL,
    ts        REAL NOT NULL,
    received  REAL NOT NULL,
    raw       BLOB NOT NULL,
    cut_len   INTEGER,
    cut_limit INTEGER,
    PRIMARY KEY (session, seq)
);
CREATE TABLE checkpoints (
    session TEXT NOT NULL,
    seq     INTEGER NOT NULL,
    ctx     TEXT NOT NULL,
    badges  TEXT NOT NULL,
    PRIMARY KEY (session, seq)
);
CREATE TABLE follows (
    path    TEXT PRIMARY KEY,
    session TEXT NOT NULL,
    dev     INTEGER NOT NULL,
    ino     INTEGER NOT NULL,
    offset  INTEGER NOT NULL
);
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"#,
    r#"
CREATE TABLE rendered (
    session TEXT NOT NULL,
    seq     INTEGER NOT NULL,
    json    TEXT NOT NULL,
    PRIMARY KEY (session, seq)
);
"#,
    r#"
CREATE TABLE idempotency (
    session   TEXT NOT NULL,
    key       TEXT NOT NULL,
    first_seq INTEGER NOT NULL,
    last_seq  INTEGER NOT NULL,
    lines     INTEGER NOT NULL,
    PRIMARY KEY (session, key)
);
"#,
    r#"
ALTER TABLE checkpoints ADD COLUMN summary TEXT NOT NULL DEFAULT '{}';
"#,
    r#"
CREATE TABLE shares (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    token_hash   BLOB NOT NULL UNIQUE,
    session      TEXT NOT NULL,
    title        TEXT,
    created      REAL NOT NULL,
    expires      REAL,
    snapshot_seq INTEGER,
    redact       INTEGER NOT NULL DEFAULT 0,
    revoked      REAL
);
"#,
    r#"
ALTER TABLE idempotency ADD COLUMN body_sha256 BLOB;
"#,
    r#"
CREATE INDEX IF NOT EXISTS idempotency_newest ON idempotency(session, last_seq);
"#,
    r#"
CREATE TABLE notes (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    session  TEXT NOT NULL,
    from_seq INTEGER NOT NULL,
    to_seq   INTEGER NOT NULL,
    text     TEXT NOT NULL,
    author   TEXT NOT NULL,
    created  REAL NOT NULL,
    updated  REAL,
    share    INTEGER
);
CREATE INDEX notes_of_session ON notes(session, from_seq);
ALTER TABLE shares ADD COLUMN comments INTEGER NOT NULL DEFAULT 0;
"#,
    // The sessions' index (`crate::index`): the title the client gave, what the log says of
    // the session, and the indexes of `GET /api/sessions`' sorts and filters. Filled by the
    // derived-table rebuild (the derived data is marked stale here), then by the writer.
    r#"
ALTER TABLE sessions ADD COLUMN given_title TEXT;
ALTER TABLE sessions ADD COLUMN agent TEXT;
ALTER TABLE sessions ADD COLUMN agent_version TEXT;
ALTER TABLE sessions ADD COLUMN project TEXT;
ALTER TABLE sessions ADD COLUMN model TEXT;
ALTER TABLE sessions ADD COLUMN started_at REAL;
ALTER TABLE sessions ADD COLUMN ended_at REAL;
ALTER TABLE sessions ADD COLUMN outcome TEXT;
ALTER TABLE sessions ADD COLUMN turns INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN errors INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN input_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN output_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN cache_read_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN cache_creation_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN cost REAL;
ALTER TABLE sessions ADD COLUMN first_error INTEGER;
UPDATE sessions SET given_title = title;
DELETE FROM meta WHERE key = 'derived';
CREATE INDEX sessions_newest ON sessions(started DESC, id);
CREATE INDEX sessions_cost ON sessions(COALESCE(cost, -1.0) DESC, started DESC, id);
CREATE INDEX sessions_errors ON sessions(errors DESC, started DESC, id);
CREATE INDEX sessions_agent ON sessions(agent, started DESC, id);
CREATE INDEX sessions_project ON sessions(project, started DESC, id);
"#,
    // The search index (derived): filled by the rebuild the deleted `derived` key asks for.
    r#"
CREATE TABLE search_rows (
    id      INTEGER PRIMARY KEY,
    session TEXT NOT NULL,
    seq     INTEGER NOT NULL,
    rowno   INTEGER NOT NULL,
    ts      REAL NOT NULL,
    level   TEXT NOT NULL,
    icon    TEXT,
    summary TEXT NOT NULL,
    body    TEXT NOT NULL
);
CREATE UNIQUE INDEX search_rows_of_event ON search_rows(session, seq, rowno);
CREATE VIRTUAL TABLE search_fts USING fts5(
    summary, body, content = 'search_rows', content_rowid = 'id', tokenize = 'trigram'
);
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
CREATE INDEX sessions_cost ON sessions(COALESCE(cost, -1.0) DESC, (COALESCE(started_at, started)) DESC, id);
CREATE INDEX sessions_errors ON sessions(errors DESC, (COALESCE(started_at, started)) DESC, id);
CREATE INDEX sessions_agent ON sessions(agent, (COALESCE(started_at, started)) DESC, id);
CREATE INDEX sessions_project ON sessions(project, (COALESCE(started_at, started)) DESC, id);
"#,
    // Search reads a common query's rows in the hits' order (newest first), looking at each
    // (`super::search`): the index of that order.
    r#"
CREATE INDEX search_rows_newest ON search_rows(ts, session, seq, rowno);
"#,
    // Each event's source file, when not the session's main one (`crate::fold`).
    r#"
ALTER TABLE events ADD COLUMN source TEXT;
"#,
    // The search index without positions (`detail=none`): a query is the trigrams it has,
    // each row found checked again (`super::search`). It is half the size and twice as fast
    // to write; `automerge` 16 merges its segments less often (an import's time).
    r#"
DROP TABLE search_fts;
CREATE VIRTUAL TABLE search_fts USING fts5(
    summary, body, content = 'search_rows', content_rowid = 'id', tokenize = 'trigram',
    detail = 'none'
);
INSERT INTO search_fts(search_fts, rank) VALUES ('automerge', 16);
INSERT INTO search_fts(search_fts) VALUES ('rebuild');
"#,
    // The time of each session's newest search row (`super::search`): a search for one
    // agent's or project's rows starts its scan there, not at the newest row of all.
    r#"
ALTER TABLE sessions ADD COLUMN newest_row REAL;
UPDATE sessions SET newest_row = (SELECT MAX(ts) FROM search_rows WHERE session = sessions.id);
"#,
    // How much of a compressed followed file's frame is stored (`FollowPos::within`): a big
    // frame is stored in pieces.
    r#"
ALTER TABLE follows ADD COLUMN within INTEGER NOT NULL DEFAULT 0;
"#,
    // What a followed file's bytes before its stored position were (`FollowPos::mark`): a
    // file rewritten in place is known as another file.
    r#"
ALTER TABLE follows ADD COLUMN mark INTEGER NOT NULL DEFAULT 0;
"#,
    // Whether a session's cost is an estimate from the price table (issue 50): the derived
    // data is made again, so that sessions whose logs state no cost get their estimate.
    r#"
ALTER TABLE sessions ADD COLUMN cost_estimated INTEGER NOT NULL DEFAULT 0;
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
    // A comparison link (issue 48, `hiveterm share --compare A B`): its second session and
    // how far it reaches in it; a session's link has neither.
    r#"
ALTER TABLE shares ADD COLUMN compare_with TEXT;
ALTER TABLE shares ADD COLUMN compare_seq INTEGER;
"#,
];
