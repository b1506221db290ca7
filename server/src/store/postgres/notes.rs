//! PostgreSQL's note statements (table `notes`, the same as SQLite's in PostgreSQL types).
//! Each write is one transaction that also announces `"notes 0 <session>"` on the replicas'
//! channel (delivered at commit), so every replica's live pages of the session are told
//! (`super::listen`), this one's too.

use tokio_postgres::Row;

use super::handle::{CHANNEL, Postgres, pg};
use crate::store::error::StoreError;
use crate::store::note::{
    Note, NoteKey, NotePage, NoteWrite, PAGE_BYTES, PAGE_NOTES, Reader, over_cap,
};

/// The columns of a note row (its comment link's title joined), in [`note_row`]'s order.
const COLUMNS: &str = "n.id, n.session, n.from_seq, n.to_seq, n.text, n.author, n.created, \
     n.updated, n.share, s.title FROM notes n LEFT JOIN shares s ON s.id = n.share";

/// The bytes (text and author) of the notes a `WHERE` picks.
const BYTES: &str = "COALESCE(SUM(octet_length(text) + octet_length(author)), 0)::BIGINT";

fn note_row(r: &Row) -> Note {
    let share = r.get::<_, Option<i64>>(8).map(|s| s as u64);
    Note {
        id: r.get::<_, i64>(0) as u64,
        from: r.get::<_, i64>(2) as u64,
        to: r.get::<_, i64>(3) as u64,
        text: r.get(4),
        author: r.get(5),
        reader: share.map(|link| Reader {
            link,
            title: r.get(9),
        }),
        created_at: r.get(6),
        updated_at: r.get(7),
    }
}

/// The payload a note's write announces: `notes c<id> <session>` (made or changed) or
/// `notes d<id> <session>` (deleted), read by `super::listen`.
fn payload(write: &NoteWrite, id: u64) -> String {
    let kind = if matches!(write, NoteWrite::Delete { .. }) {
        'd'
    } else {
        'c'
    };
    format!("notes {kind}{id} {}", write.session())
}

impl Postgres {
    pub(crate) async fn write_note(&self, write: NoteWrite) -> Result<Option<Note>, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(pg)?;
        // One write at a time per session, so its caps hold across replicas.
        tx.execute(
            "SELECT pg_advisory_xact_lock(hashtext('hiveterm notes ' || $1))",
            &[&write.session()],
        )
        .await
        .map_err(pg)?;
        let used = async |session: &str,
                          except: u64,
                          share: Option<u64>|
               -> Result<(u64, Option<u64>), StoreError> {
            let others: i64 = tx
                .query_one(
                    &format!("SELECT {BYTES} FROM notes WHERE session = $1 AND id != $2"),
                    &[&session, &(except as i64)],
                )
                .await
                .map_err(pg)?
                .get(0);
            let shared = match share {
                Some(share) => Some(
                    tx.query_one(
                        &format!("SELECT {BYTES} FROM notes WHERE share = $1"),
                        &[&(share as i64)],
                    )
                    .await
                    .map_err(pg)?
                    .get::<_, i64>(0) as u64,
                ),
                None => None,
            };
            Ok((others as u64, shared))
        };
        let id: Option<i64> = match &write {
            NoteWrite::Create(new) => {
                let (others, shared) = used(&new.session, 0, new.share).await?;
                let bytes = (new.text.len() + new.author.len()) as u64;
                if let Some(refused) = over_cap(others, bytes, shared.map(|s| s + bytes)) {
                    return Err(StoreError::OverCap(refused));
                }
                tx.query_opt(
                    "INSERT INTO notes(session, from_seq, to_seq, text, author, created, share)
                     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                    &[
                        &new.session,
                        &(new.from as i64),
                        &(new.to as i64),
                        &new.text,
                        &new.author,
                        &new.created_at,
                        &new.share.map(|s| s as i64),
                    ],
                )
                .await
                .map_err(pg)?
                .map(|r| r.get(0))
            }
            NoteWrite::Update {
                session,
                id,
                text,
                at,
            } => {
                let author: Option<String> = tx
                    .query_opt(
                        "SELECT author FROM notes WHERE id = $1 AND session = $2",
                        &[&(*id as i64), session],
                    )
                    .await
                    .map_err(pg)?
                    .map(|r| r.get(0));
                let Some(author) = author else {
                    return Ok(None);
                };
                let (others, _) = used(session, *id, None).await?;
                if let Some(refused) = over_cap(others, (text.len() + author.len()) as u64, None) {
                    return Err(StoreError::OverCap(refused));
                }
                tx.query_opt(
                    "UPDATE notes SET text = $3, updated = $4 WHERE id = $1 AND session = $2
                     RETURNING id",
                    &[&(*id as i64), session, text, at],
                )
                .await
                .map_err(pg)?
                .map(|r| r.get(0))
            }
            NoteWrite::Delete { id, .. } => Some(*id as i64),
        };
        let Some(id) = id else {
            return Ok(None);
        };
        let note = tx
            .query_opt(
                &format!("SELECT {COLUMNS} WHERE n.id = $1 AND n.session = $2"),
                &[&id, &write.session()],
            )
            .await
            .map_err(pg)?
            .as_ref()
            .map(note_row);
        if let NoteWrite::Delete { session, .. } = &write
            && note.is_some()
        {
            tx.execute(
                "DELETE FROM notes WHERE id = $1 AND session = $2",
                &[&id, session],
            )
            .await
            .map_err(pg)?;
        }
        if note.is_some() {
            tx.execute(
                "SELECT pg_notify($1, $2)",
                &[&CHANNEL, &payload(&write, id as u64)],
            )
            .await
            .map_err(pg)?;
        }
        tx.commit().await.map_err(pg)?;
        Ok(note)
    }

    pub(crate) async fn notes(&self, session: &str) -> Result<Vec<Note>, StoreError> {
        let rows = self
            .client()
            .await?
            .query(
                &format!(
                    "SELECT {COLUMNS} WHERE n.session = $1 ORDER BY n.from_seq, n.to_seq, n.id"
                ),
                &[&session],
            )
            .await
            .map_err(pg)?;
        Ok(rows.iter().map(note_row).collect())
    }

    pub(crate) async fn note(&self, session: &str, id: u64) -> Result<Option<Note>, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt(
                &format!("SELECT {COLUMNS} WHERE n.id = $1 AND n.session = $2"),
                &[&(id as i64), &session],
            )
            .await
            .map_err(pg)?;
        Ok(row.as_ref().map(note_row))
    }

    /// A page of a session's notes ([`NotePage`]): the keys and sizes of the notes after
    /// `after` first (their lengths read without their texts), then the notes of the page.
    pub(crate) async fn notes_page(
        &self,
        session: &str,
        after: Option<NoteKey>,
        head: u64,
    ) -> Result<NotePage, StoreError> {
        let client = self.client().await?;
        let (from, to, id) = after.map_or((-1, -1, -1), |(f, t, i)| (f as i64, t as i64, i as i64));
        let head = head.min(i64::MAX as u64) as i64;
        let keys = client
            .query(
                "SELECT from_seq, to_seq, id, octet_length(text) + octet_length(author)
                 FROM notes WHERE session = $1 AND to_seq <= $2
                 AND (from_seq, to_seq, id) > ($3, $4, $5)
                 ORDER BY from_seq, to_seq, id LIMIT $6",
                &[&session, &head, &from, &to, &id, &(PAGE_NOTES as i64 + 1)],
            )
            .await
            .map_err(pg)?;
        let (mut last, mut bytes, mut taken) = (None, 0usize, 0usize);
        for k in &keys {
            let size = k.get::<_, i32>(3) as usize;
            if taken == PAGE_NOTES || (taken > 0 && bytes + size > PAGE_BYTES) {
                break;
            }
            bytes += size;
            taken += 1;
            last = Some((k.get::<_, i64>(0), k.get::<_, i64>(1), k.get::<_, i64>(2)));
        }
        let Some((lf, lt, li)) = last else {
            return Ok(NotePage::default());
        };
        let rows = client
            .query(
                &format!(
                    "SELECT {COLUMNS} WHERE n.session = $1 AND n.to_seq <= $2
                     AND (n.from_seq, n.to_seq, n.id) > ($3, $4, $5)
                     AND (n.from_seq, n.to_seq, n.id) <= ($6, $7, $8)
                     ORDER BY n.from_seq, n.to_seq, n.id"
                ),
                &[&session, &head, &from, &to, &id, &lf, &lt, &li],
            )
            .await
            .map_err(pg)?;
        let notes: Vec<Note> = rows.iter().map(note_row).collect();
        let next = (taken < keys.len())
            .then(|| notes.last().map(Note::key))
            .flatten();
        Ok(NotePage { notes, next })
    }

    pub(crate) async fn notes_of_share(&self, share: u64) -> Result<u64, StoreError> {
        let row = self
            .client()
            .await?
            .query_one(
                "SELECT COUNT(*) FROM notes WHERE share = $1",
                &[&(share as i64)],
            )
            .await
            .map_err(pg)?;
        Ok(row.get::<_, i64>(0) as u64)
    }
}
