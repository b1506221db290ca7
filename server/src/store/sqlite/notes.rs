//! SQLite's note statements (table `notes`, see [`super::schema`]): written by the writer
//! thread ([`super::writer::WriteCmd::Note`]), read by the reader pool.

use rusqlite::{Connection, OptionalExtension, params};

use crate::store::error::StoreError;
use crate::store::note::{
    NewNote, Note, NoteChange, NoteKey, NotePage, NoteWrite, Reader, over_cap,
};

/// The columns of a note row (its comment link's title joined), in [`note_row`]'s order.
const COLUMNS: &str = "n.id, n.session, n.from_seq, n.to_seq, n.text, n.author, n.created, \
     n.updated, n.share, s.title FROM notes n LEFT JOIN shares s ON s.id = n.share";

fn note_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Note> {
    let share = r.get::<_, Option<i64>>(8)?.map(|s| s as u64);
    let title: Option<String> = r.get(9)?;
    Ok(Note {
        id: r.get::<_, i64>(0)? as u64,
        from: r.get::<_, i64>(2)? as u64,
        to: r.get::<_, i64>(3)? as u64,
        text: r.get(4)?,
        author: r.get(5)?,
        reader: share.map(|link| Reader { link, title }),
        created_at: r.get(6)?,
        updated_at: r.get(7)?,
    })
}

/// The bytes (text and author) of `session`'s notes but note `except`, and of comment link
/// `share`'s readers' notes: read in the writer's transaction, so the caps hold.
fn used(
    conn: &Connection,
    session: &str,
    except: u64,
    share: Option<u64>,
) -> Result<(u64, Option<u64>), StoreError> {
    const BYTES: &str =
        "COALESCE(SUM(length(CAST(text AS BLOB)) + length(CAST(author AS BLOB))), 0)";
    let others: i64 = conn
        .prepare_cached(&format!(
            "SELECT {BYTES} FROM notes WHERE session = ?1 AND id != ?2"
        ))?
        .query_row(params![session, except as i64], |r| r.get(0))?;
    let shared = match share {
        Some(share) => Some(
            conn.prepare_cached(&format!("SELECT {BYTES} FROM notes WHERE share = ?1"))?
                .query_row(params![share as i64], |r| r.get::<_, i64>(0))? as u64,
        ),
        None => None,
    };
    Ok((others as u64, shared))
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
            let Some(old) = note(conn, &session, id)? else {
                return Ok(None);
            };
            let (others, _) = used(conn, &session, id, None)?;
            let bytes = (text.len() + old.author.len()) as u64;
            if let Some(refused) = over_cap(others, bytes, None) {
                return Err(StoreError::OverCap(refused));
            }
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
    let (others, shared) = used(conn, &new.session, 0, new.share)?;
    let bytes = (new.text.len() + new.author.len()) as u64;
    if let Some(refused) = over_cap(others, bytes, shared.map(|s| s + bytes)) {
        return Err(StoreError::OverCap(refused));
    }
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
            "SELECT {COLUMNS} WHERE n.id = ?1 AND n.session = ?2"
        ))?
        .query_row(params![id as i64, session], note_row)
        .optional()?)
}

/// A session's notes, by `from`, then `to`, then id.
pub(super) fn of_session(conn: &Connection, session: &str) -> Result<Vec<Note>, StoreError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} WHERE n.session = ?1 ORDER BY n.from_seq, n.to_seq, n.id"
        ))?
        .query_map(params![session], note_row)?
        .collect::<Result<_, _>>()?)
}

/// A page of a session's notes ([`NotePage`]): rows are read one at a time, and no further
/// than the page's end (and one more).
pub(super) fn page(
    conn: &Connection,
    session: &str,
    after: Option<NoteKey>,
    head: u64,
) -> Result<NotePage, StoreError> {
    let (from, to, id) = after.map_or((-1, -1, -1), |(f, t, i)| (f as i64, t as i64, i as i64));
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} WHERE n.session = ?1 AND n.to_seq <= ?2
         AND (n.from_seq, n.to_seq, n.id) > (?3, ?4, ?5)
         ORDER BY n.from_seq, n.to_seq, n.id"
    ))?;
    let rows = stmt.query_map(
        params![session, head.min(i64::MAX as u64) as i64, from, to, id],
        note_row,
    )?;
    NotePage::of(rows.map(|r| r.map_err(StoreError::from)))
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

/// The ids and times of `session`'s notes made after note `id` or changed after `at`.
fn changed_since(
    conn: &Connection,
    session: &str,
    id: i64,
    at: f64,
) -> Result<Vec<(u64, f64)>, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT id, COALESCE(updated, created) FROM notes WHERE session = ?1
             AND (id > ?2 OR COALESCE(updated, created) > ?3) ORDER BY id",
        )?
        .query_map(params![session, id, at], |r| {
            Ok((r.get::<_, i64>(0)? as u64, r.get(1)?))
        })?
        .collect::<Result<_, _>>()?)
}

/// What a loaded hub is told of a session whose notes' marks went from `before` to `now`:
/// each note made or changed since that it was not told of already (its streams read it),
/// and a reset when more were deleted than it was told of (another process deleted one).
fn tell(
    conn: &Connection,
    hub: &crate::hub::Hub,
    session: &str,
    before: (i64, i64, f64),
    now: Option<(i64, i64, f64)>,
) -> Result<(), StoreError> {
    let (count, _, _) = now.unwrap_or((0, 0, 0.0));
    let changed = changed_since(conn, session, before.1, before.2)?;
    let made = changed
        .iter()
        .filter(|(id, _)| *id as i64 > before.1)
        .count() as i64;
    let deleted = (before.0 + made - count).max(0) as u64;
    let told = hub.notes().take_told();
    if deleted > told.deletes {
        hub.notes().changed(NoteChange::Reset);
        return Ok(());
    }
    for (id, at) in changed {
        if told.stored.get(&id) != Some(&at) {
            hub.notes().changed(NoteChange::Changed(id));
        }
    }
    Ok(())
}

/// Watches the notes for writes of other processes on the same file: every
/// [`WATCH_EVERY`], the loaded hubs of the sessions whose notes changed are told which notes
/// changed ([`tell`]; this server's own writes are told by the writer at once, and not
/// again here). Ends once the store is dropped.
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
                    let was = before.get(id).copied().unwrap_or((0, 0, 0.0));
                    let told = shared
                        .readers
                        .with(|conn| tell(conn, &hub, id, was, now.get(id).copied()));
                    if told.is_err() {
                        hub.notes().changed(NoteChange::Reset);
                    }
                }
            }
        }
        seen = Some(now);
        drop(shared);
        std::thread::sleep(WATCH_EVERY);
    }
}
