//! PostgreSQL's note statements (table `notes`, the same as SQLite's in PostgreSQL types).
//! Each write is one transaction that also announces `"notes 0 <session>"` on the replicas'
//! channel (delivered at commit), so every replica's live pages of the session are told
//! (`super::listen`), this one's too.

use tokio_postgres::Row;

use super::handle::{CHANNEL, Postgres, pg};
use crate::store::StoreError;
use crate::store::note::{Note, NoteWrite};

/// The columns of a note row, in [`note_row`]'s order.
const COLUMNS: &str = "id, session, from_seq, to_seq, text, author, created, updated, share";

fn note_row(r: &Row) -> Note {
    Note {
        id: r.get::<_, i64>(0) as u64,
        session: r.get(1),
        from: r.get::<_, i64>(2) as u64,
        to: r.get::<_, i64>(3) as u64,
        text: r.get(4),
        author: r.get(5),
        created_at: r.get(6),
        updated_at: r.get(7),
        share: r.get::<_, Option<i64>>(8).map(|s| s as u64),
    }
}

impl Postgres {
    pub(crate) async fn write_note(&self, write: NoteWrite) -> Result<Option<Note>, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(pg)?;
        let payload = format!("notes 0 {}", write.session());
        let row = match &write {
            NoteWrite::Create(new) => tx
                .query_opt(
                    &format!(
                        "INSERT INTO notes(session, from_seq, to_seq, text, author, created, share)
                         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING {COLUMNS}"
                    ),
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
                .map_err(pg)?,
            NoteWrite::Update {
                session,
                id,
                text,
                at,
            } => tx
                .query_opt(
                    &format!(
                        "UPDATE notes SET text = $3, updated = $4 WHERE id = $1 AND session = $2
                         RETURNING {COLUMNS}"
                    ),
                    &[&(*id as i64), session, text, at],
                )
                .await
                .map_err(pg)?,
            NoteWrite::Delete { session, id } => tx
                .query_opt(
                    &format!(
                        "DELETE FROM notes WHERE id = $1 AND session = $2 RETURNING {COLUMNS}"
                    ),
                    &[&(*id as i64), session],
                )
                .await
                .map_err(pg)?,
        };
        if row.is_some() {
            tx.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &payload])
                .await
                .map_err(pg)?;
        }
        tx.commit().await.map_err(pg)?;
        Ok(row.as_ref().map(note_row))
    }

    pub(crate) async fn notes(&self, session: &str) -> Result<Vec<Note>, StoreError> {
        let rows = self
            .client()
            .await?
            .query(
                &format!(
                    "SELECT {COLUMNS} FROM notes WHERE session = $1 ORDER BY from_seq, to_seq, id"
                ),
                &[&session],
            )
            .await
            .map_err(pg)?;
        Ok(rows.iter().map(note_row).collect())
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
