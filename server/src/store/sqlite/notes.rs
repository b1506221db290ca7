//! SQLite's note statements (table `notes`, see [`super::schema`]): written by the writer
//! thread ([`super::writer::WriteCmd::Note`]), read by the reader pool.

use rusqlite::{Connection, OptionalExtension, params};

use crate::store::StoreError;
use crate::store::note::{NewNote, Note, NoteWrite};

/// The columns of a note row, in [`note_row`]'s order.
const COLUMNS: &str = "id, session, from_seq, to_seq, text, author, created, updated, share";

fn note_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Note> {
    Ok(Note {
        id: r.get::<_, i64>(0)? as u64,
        session: r.get(1)?,
        from: r.get::<_, i64>(2)? as u64,
        to: r.get::<_, i64>(3)? as u64,
        text: r.get(4)?,
        author: r.get(5)?,
        created_at: r.get(6)?,
        updated_at: r.get(7)?,
        share: r.get::<_, Option<i64>>(8)?.map(|s| s as u64),
    })
}

/// Runs a note write inside the writer's transaction.
pub(super) fn write(conn: &Connection, write: NoteWrite) -> Result<Option<Note>, StoreError> {
    match write {
        NoteWrite::Create(new) => create(conn, &new).map(Some),
        NoteWrite::Update {
            session,
            id,
            text,
            at,
        } => {
            conn.prepare_cached(
                "UPDATE notes SET text = ?3, updated = ?4 WHERE id = ?1 AND session = ?2",
            )?
            .execute(params![id as i64, session, text, at])?;
            note(conn, &session, id)
        }
        NoteWrite::Delete { session, id } => {
            let old = note(conn, &session, id)?;
            conn.prepare_cached("DELETE FROM notes WHERE id = ?1 AND session = ?2")?
                .execute(params![id as i64, session])?;
            Ok(old)
        }
    }
}

fn create(conn: &Connection, new: &NewNote) -> Result<Note, StoreError> {
    conn.prepare_cached(
        "INSERT INTO notes(session, from_seq, to_seq, text, author, created, share)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        new.session,
        new.from as i64,
        new.to as i64,
        new.text,
        new.author,
        new.created_at,
        new.share.map(|s| s as i64),
    ])?;
    let id = conn.last_insert_rowid() as u64;
    note(conn, &new.session, id)?
        .ok_or_else(|| StoreError::Corrupt("a note just stored is missing".into()))
}

/// Note `id` of `session`, if there is one.
pub(super) fn note(conn: &Connection, session: &str, id: u64) -> Result<Option<Note>, StoreError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM notes WHERE id = ?1 AND session = ?2"
        ))?
        .query_row(params![id as i64, session], note_row)
        .optional()?)
}

/// A session's notes, by `from`, then `to`, then id.
pub(super) fn of_session(conn: &Connection, session: &str) -> Result<Vec<Note>, StoreError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM notes WHERE session = ?1 ORDER BY from_seq, to_seq, id"
        ))?
        .query_map(params![session], note_row)?
        .collect::<Result<_, _>>()?)
}

/// How many notes were written through share `share`.
pub(super) fn count_of_share(conn: &Connection, share: u64) -> Result<u64, StoreError> {
    Ok(conn
        .prepare_cached("SELECT COUNT(*) FROM notes WHERE share = ?1")?
        .query_row(params![share as i64], |r| r.get::<_, i64>(0))? as u64)
}

/// How often a server on SQLite looks for notes another process wrote on its file
/// (`hiveterm note` beside it).
pub(super) const WATCH_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Each session's notes, summed up: how many, the newest id, the newest change.
type Marks = std::collections::HashMap<String, (i64, i64, f64)>;

fn marks(conn: &Connection) -> Result<Marks, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT session, COUNT(*), MAX(id), MAX(COALESCE(updated, created))
             FROM notes GROUP BY session",
        )?
        .query_map([], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?, r.get(3)?))))?
        .collect::<Result<_, _>>()?)
}

/// Watches the notes for writes of other processes on the same file: every
/// [`WATCH_EVERY`], the loaded hubs of the sessions whose notes changed are told (their
/// streams send a `notes` frame; this server's own writes are told by the writer at once,
/// and again here, which costs a reader one more read). Ends once the store is dropped.
pub(super) fn watch(shared: &std::sync::Weak<super::shared::Shared>) {
    let mut seen: Option<Marks> = None;
    loop {
        let Some(shared) = shared.upgrade() else {
            return;
        };
        let Ok(now) = shared.readers.with(marks) else {
            drop(shared);
            std::thread::sleep(WATCH_EVERY);
            continue;
        };
        if let Some(before) = &seen {
            let changed: std::collections::HashSet<&String> = now
                .keys()
                .chain(before.keys())
                .filter(|id| now.get(*id) != before.get(*id))
                .collect();
            for id in changed {
                if let Some(hub) = shared.hubs.get(id) {
                    hub.notes_changed();
                }
            }
        }
        seen = Some(now);
        drop(shared);
        std::thread::sleep(WATCH_EVERY);
    }
}
