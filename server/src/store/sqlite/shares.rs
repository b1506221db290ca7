//! SQLite's share statements (table `shares`, see [`super::schema`]): written by the writer
//! thread ([`super::writer::WriteCmd::Share`]), read by the reader pool.

use rusqlite::{Connection, OptionalExtension, params};

use crate::store::error::StoreError;
use crate::store::share::{NewShare, Share, ShareWrite, ShareWritten, TokenHash};

/// The columns of a share row, in [`share_row`]'s order.
const COLUMNS: &str = "id, session, title, created, expires, snapshot_seq, redact, revoked, comments, compare_with, compare_seq";

fn share_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Share> {
    Ok(Share {
        id: r.get::<_, i64>(0)? as u64,
        session: r.get(1)?,
        title: r.get(2)?,
        created_at: r.get(3)?,
        expires_at: r.get(4)?,
        snapshot_seq: r.get::<_, Option<i64>>(5)?.map(|s| s as u64),
        redact: r.get(6)?,
        revoked_at: r.get(7)?,
        comments: r.get(8)?,
        compare_with: r.get(9)?,
        compare_seq: r.get::<_, Option<i64>>(10)?.map(|s| s as u64),
    })
}

/// Runs a share write inside the writer's transaction.
pub(super) fn write(conn: &Connection, write: ShareWrite) -> Result<ShareWritten, StoreError> {
    match write {
        ShareWrite::Create(new) => create(conn, &new).map(ShareWritten::Created),
        ShareWrite::Revoke { id, at } => {
            conn.prepare_cached(
                "UPDATE shares SET revoked = ?2 WHERE id = ?1 AND revoked IS NULL",
            )?
            .execute(params![id as i64, at])?;
            share(conn, id).map(ShareWritten::Revoked)
        }
    }
}

fn create(conn: &Connection, new: &NewShare) -> Result<Share, StoreError> {
    conn.prepare_cached(
        "INSERT INTO shares(token_hash, session, title, created, expires, snapshot_seq, redact,
                            comments, compare_with, compare_seq)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?
    .execute(params![
        &new.token_hash[..],
        new.session,
        new.title,
        new.created_at,
        new.expires_at,
        new.snapshot_seq.map(|s| s as i64),
        new.redact,
        new.comments,
        new.compare_with,
        new.compare_seq.map(|s| s as i64),
    ])?;
    let id = conn.last_insert_rowid() as u64;
    share(conn, id)?.ok_or_else(|| StoreError::Corrupt("a share just stored is missing".into()))
}

pub(super) fn share(conn: &Connection, id: u64) -> Result<Option<Share>, StoreError> {
    Ok(conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM shares WHERE id = ?1"))?
        .query_row(params![id as i64], share_row)
        .optional()?)
}

/// Every share, newest first.
pub(super) fn all(conn: &Connection) -> Result<Vec<Share>, StoreError> {
    Ok(conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM shares ORDER BY id DESC"))?
        .query_map([], share_row)?
        .collect::<Result<_, _>>()?)
}

/// The share stored with token hash `hash`, and the hash as stored.
pub(super) fn by_hash(
    conn: &Connection,
    hash: &TokenHash,
) -> Result<Option<(Share, Vec<u8>)>, StoreError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS}, token_hash FROM shares WHERE token_hash = ?1"
        ))?
        .query_row(params![&hash[..]], |r| Ok((share_row(r)?, r.get(11)?)))
        .optional()?)
}
