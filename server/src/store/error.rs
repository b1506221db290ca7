//! What can go wrong in the store, whichever backend.

/// What can go wrong in the store.
#[derive(Debug)]
pub enum StoreError {
    /// SQLite failed.
    Sql(rusqlite::Error),
    /// No session with this id.
    NoSession(String),
    /// The session has ended; it takes no more events.
    Ended(String),
    /// Stored data does not parse, or the store failed in another way.
    Corrupt(String),
    /// The database's schema is newer than this hiveterm knows: its version, and the
    /// newest this hiveterm knows.
    TooNew(i64, usize),
    /// The store is shut down.
    Closed,
    /// A keyed append found more stored under its key than its request took (another
    /// replica stored the same retry meanwhile): nothing was written; try the request again.
    Raced(String),
    /// A keyed append's `X-Hiveterm-After-Key` is not the session's newest key (another
    /// replica stored a newer one meanwhile): nothing was written.
    NotAfter(String),
    /// A note's write would take its session (or its comment link) over its cap of bytes:
    /// nothing was written.
    OverCap(String),
}

impl StoreError {
    /// Whether the error refused a request without writing anything (no such session, an
    /// ended one), rather than a failure that may have written part of a command.
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            StoreError::NoSession(_)
                | StoreError::Ended(_)
                | StoreError::Raced(_)
                | StoreError::NotAfter(_)
                | StoreError::OverCap(_)
        )
    }
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Sql(e) => write!(f, "database: {e}"),
            StoreError::NoSession(id) => write!(f, "no session {id}"),
            StoreError::Ended(id) => write!(f, "session {id} has ended"),
            StoreError::Corrupt(m) => write!(f, "database: {m}"),
            StoreError::TooNew(v, known) => write!(
                f,
                "database schema version {v} is newer than this hiveterm knows ({known})"
            ),
            StoreError::Closed => f.write_str("the store is shut down"),
            StoreError::Raced(m) | StoreError::NotAfter(m) | StoreError::OverCap(m) => {
                f.write_str(m)
            }
        }
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Sql(e)
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(e: serde_json::Error) -> StoreError {
        StoreError::Corrupt(e.to_string())
    }
}
