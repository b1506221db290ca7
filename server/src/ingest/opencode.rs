//! `serve --agents`: OpenCode's sessions, read from its store
//! (`~/.local/share/opencode/opencode.db`, SQLite in WAL mode, written by OpenCode while it runs).
//!
//! The database is opened read-only (`SQLITE_OPEN_READ_ONLY`: no write, no lock held but a
//! read transaction's, which never blocks OpenCode's writer in WAL mode) every [`POLL`], and
//! closed again. Each OpenCode session (a subagent's is a child session: a session of its own
//! here) is one hiveterm session, `oc-<session id>`, and each of its messages one stored line
//! once it is complete (a user message with its parts; an assistant message with
//! `time.completed` or an `error`), in order, stopping at the first that is not: the line is
//! an `opencode export` document of that one message (`{"timestamp", "info", "messages":
//! [message]}`), so it gives the rows an export gives (`classifier/src/opencode/`). A session
//! already stored (a restart) goes on after the messages it holds (its `last_seq`: one line
//! each). A session is live while OpenCode changes it and ended once it has not for
//! [`crate::ingest::IDLE`] (by OpenCode's own `time_updated`, so an old session is stored
//! ended at once); a session changed again is live again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};
use serde_json::{Value, json};

use crate::store::{Append, RawLine, Store, StoreError};

/// How often the database is read.
pub const POLL: std::time::Duration = std::time::Duration::from_secs(2);

/// OpenCode's store under `home`.
pub fn opencode_db(home: &Path) -> PathBuf {
    home.join(".local")
        .join("share")
        .join("opencode")
        .join("opencode.db")
}

/// The hiveterm session of OpenCode session `id`.
pub fn session_id(id: &str) -> String {
    let id: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(90)
        .collect();
    format!("oc-{id}")
}

/// One OpenCode session as read: its id, title (its first prompt, else OpenCode's title), and
/// each complete message's line, in order.
#[derive(Debug)]
pub struct Session {
    pub id: String,
    pub title: String,
    pub lines: Vec<Vec<u8>>,
    /// When OpenCode last changed it (unix milliseconds: the session's or its newest
    /// message's `time_updated`).
    pub updated_ms: i64,
}

/// What this process knows of a stored session.
#[derive(Debug, Clone, Copy, Default)]
pub struct Known {
    /// Its lines stored.
    lines: u64,
    /// Marked ended.
    ended: bool,
}

/// Every session of the database at `path`, each with its complete messages as lines.
pub fn read(path: &Path) -> rusqlite::Result<Vec<Session>> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let mut conn = Connection::open_with_flags(path, flags)?;
    conn.busy_timeout(std::time::Duration::from_secs(2))?;
    // One snapshot of all three tables.
    let tx = conn.transaction()?;
    let mut sessions = Vec::new();
    {
        let mut q = tx.prepare(
            "SELECT id, coalesce(title, ''), coalesce(version, ''), coalesce(directory, ''), \
             parent_id, time_updated FROM session ORDER BY time_created, id",
        )?;
        let rows = q.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, Option<String>>(4)?,
                r.get::<_, Option<i64>>(5)?.unwrap_or(0),
            ))
        })?;
        for row in rows {
            let (id, title, version, directory, parent, updated) = row?;
            let mut info =
                json!({"id": id, "title": title, "version": version, "directory": directory});
            if let Some(p) = parent {
                info["parentID"] = Value::String(p);
            }
            sessions.push((id, title, info, updated));
        }
    }
    let mut parts: HashMap<String, Vec<Value>> = HashMap::new();
    {
        let mut q = tx.prepare("SELECT message_id, data FROM part ORDER BY message_id, id")?;
        let rows = q.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
        for row in rows {
            let (message, data) = row?;
            if let Ok(v) = serde_json::from_str::<Value>(&data) {
                parts.entry(message).or_default().push(v);
            }
        }
    }
    let mut messages: HashMap<String, Vec<(i64, Value)>> = HashMap::new();
    let mut updated: HashMap<String, i64> = HashMap::new();
    {
        let mut q = tx.prepare(
            "SELECT id, session_id, time_created, data, time_updated FROM message \
             ORDER BY time_created, id",
        )?;
        let rows = q.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, Option<i64>>(4)?.unwrap_or(0),
            ))
        })?;
        for row in rows {
            let (id, session, created, data, changed) = row?;
            let newest = updated.entry(session.clone()).or_default();
            *newest = (*newest).max(changed);
            let Ok(mut info) = serde_json::from_str::<Value>(&data) else {
                continue;
            };
            if let Some(obj) = info.as_object_mut() {
                obj.insert("id".into(), Value::String(id.clone()));
            }
            let parts = parts.remove(&id).unwrap_or_default();
            messages
                .entry(session)
                .or_default()
                .push((created, json!({"info": info, "parts": parts})));
        }
    }
    tx.finish()?;
    Ok(sessions
        .into_iter()
        .map(|(id, title, info, changed)| {
            let updated_ms = changed.max(updated.get(&id).copied().unwrap_or(0));
            let mut lines = Vec::new();
            let messages = messages.remove(&id).unwrap_or_default();
            let title = first_prompt(&messages).unwrap_or(title);
            for (created, m) in messages {
                if !complete(&m) {
                    break;
                }
                let line = json!({"timestamp": created, "info": info, "messages": [m]});
                lines.push(line.to_string().into_bytes());
            }
            Session {
                id,
                title,
                lines,
                updated_ms,
            }
        })
        .collect())
}

/// The session's first prompt (its first user message's text), the title the index shows.
fn first_prompt(messages: &[(i64, Value)]) -> Option<String> {
    let (_, m) = messages.iter().find(|(_, m)| m["info"]["role"] == "user")?;
    let parts = m["parts"].as_array()?;
    let text = parts.iter().find_map(|p| p["text"].as_str())?;
    let text = text.trim().trim_matches('"').trim();
    (!text.is_empty()).then(|| text.chars().take(200).collect())
}

/// Whether a message is complete: a user message with parts, an assistant message completed
/// or failed.
fn complete(m: &Value) -> bool {
    let info = &m["info"];
    match info["role"].as_str() {
        Some("user") => m["parts"].as_array().is_some_and(|p| !p.is_empty()),
        Some("assistant") => !info["time"]["completed"].is_null() || !info["error"].is_null(),
        _ => true,
    }
}

/// Reads the database at `db` every [`POLL`] forever, storing each session's new complete
/// messages (it may not be there yet) and ending the sessions OpenCode left.
pub async fn watch_opencode(store: Store, db: PathBuf) -> Result<(), StoreError> {
    let mut known: HashMap<String, Known> = HashMap::new();
    loop {
        if db.exists() {
            let path = db.clone();
            match tokio::task::spawn_blocking(move || read(&path)).await {
                Ok(Ok(sessions)) => {
                    let now_ms = (crate::clock::now() * 1000.0) as i64;
                    store_new(&store, sessions, &mut known, now_ms).await?;
                }
                Ok(Err(e)) => tracing::debug!("reading {}: {e}", db.display()),
                Err(e) => tracing::error!("reading {}: {e}", db.display()),
            }
        }
        tokio::time::sleep(POLL).await;
    }
}

/// Stores what of `sessions` is not stored yet (`known`: what this process stored, empty at
/// a start), at `now_ms` (unix milliseconds): a session with new lines is live, one OpenCode
/// has not changed for [`crate::ingest::IDLE`] ended.
pub async fn store_new(
    store: &Store,
    sessions: Vec<Session>,
    known: &mut HashMap<String, Known>,
    now_ms: i64,
) -> Result<(), StoreError> {
    let idle_ms = i64::try_from(crate::ingest::IDLE.as_millis()).unwrap_or(i64::MAX);
    for s in sessions {
        let id = session_id(&s.id);
        let k = match known.get(&id) {
            Some(k) => *k,
            None => match store.session_info(&id).await? {
                Some(info) => Known {
                    lines: info.last_seq,
                    ended: info.ended.is_some(),
                },
                None => Known::default(),
            },
        };
        let have = usize::try_from(k.lines).unwrap_or(usize::MAX);
        let mut now = k;
        if s.lines.len() > have {
            let title = if s.title.trim().is_empty() {
                format!("opencode {}", s.id)
            } else {
                s.title.clone()
            };
            if k.ended || k.lines == 0 {
                // Created, or live again.
                store.open_session(&id, &title, "watch").await?;
            }
            let lines = s.lines[have..].iter().map(|l| RawLine::now(l.clone()));
            store
                .append(Append {
                    session: id.clone(),
                    lines: lines.collect(),
                    create: None,
                    follow: None,
                    source: None,
                    key: None,
                })
                .await?;
            now = Known {
                lines: s.lines.len() as u64,
                ended: false,
            };
        }
        if !now.ended && now.lines > 0 && now_ms.saturating_sub(s.updated_ms) >= idle_ms {
            match store.end_session(&id).await {
                Ok(_) | Err(StoreError::NoSession(_) | StoreError::Ended(_)) => {}
                Err(e) => return Err(e),
            }
            now.ended = true;
        }
        known.insert(id, now);
    }
    Ok(())
}
