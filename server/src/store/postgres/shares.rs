//! PostgreSQL's share statements (table `shares`, the same as SQLite's in PostgreSQL types).
//! A share is one row written in one statement, so no session lock is taken.

use tokio_postgres::Row;

use super::handle::{Postgres, pg};
use crate::store::error::StoreError;
use crate::store::share::{Share, ShareWrite, ShareWritten, TokenHash};

/// The columns of a share row, in [`share_row`]'s order.
const COLUMNS: &str = "id, session, title, created, expires, snapshot_seq, redact, revoked, comments, compare_with, compare_seq";

fn share_row(r: &Row) -> Share {
    Share {
        id: r.get::<_, i64>(0) as u64,
        session: r.get(1),
        title: r.get(2),
        created_at: r.get(3),
        expires_at: r.get(4),
        snapshot_seq: r.get::<_, Option<i64>>(5).map(|s| s as u64),
        redact: r.get(6),
        revoked_at: r.get(7),
        comments: r.get(8),
        compare_with: r.get(9),
        compare_seq: r.get::<_, Option<i64>>(10).map(|s| s as u64),
    }
}

impl Postgres {
    pub(crate) async fn write_share(&self, write: ShareWrite) -> Result<ShareWritten, StoreError> {
        let client = self.client().await?;
        match write {
            ShareWrite::Create(new) => {
                let row = client
                    .query_one(
                        &format!(
                            "INSERT INTO shares(token_hash, session, title, created, expires,
                                                snapshot_seq, redact, comments, compare_with,
                                                compare_seq)
                             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING {COLUMNS}"
                        ),
                        &[
                            &&new.token_hash[..],
                            &new.session,
                            &new.title,
                            &new.created_at,
                            &new.expires_at,
                            &new.snapshot_seq.map(|s| s as i64),
                            &new.redact,
                            &new.comments,
                            &new.compare_with,
                            &new.compare_seq.map(|s| s as i64),
                        ],
                    )
                    .await
                    .map_err(pg)?;
                Ok(ShareWritten::Created(share_row(&row)))
            }
            ShareWrite::Revoke { id, at } => {
                client
                    .execute(
                        "UPDATE shares SET revoked = $2 WHERE id = $1 AND revoked IS NULL",
                        &[&(id as i64), &at],
                    )
                    .await
                    .map_err(pg)?;
                drop(client);
                self.share(id).await.map(ShareWritten::Revoked)
            }
        }
    }

    pub(crate) async fn shares(&self) -> Result<Vec<Share>, StoreError> {
        let rows = self
            .client()
            .await?
            .query(
                &format!("SELECT {COLUMNS} FROM shares ORDER BY id DESC"),
                &[],
            )
            .await
            .map_err(pg)?;
        Ok(rows.iter().map(share_row).collect())
    }

    pub(crate) async fn share_by_hash(
        &self,
        hash: &TokenHash,
    ) -> Result<Option<(Share, Vec<u8>)>, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt(
                &format!("SELECT {COLUMNS}, token_hash FROM shares WHERE token_hash = $1"),
                &[&&hash[..]],
            )
            .await
            .map_err(pg)?;
        Ok(row.map(|r| (share_row(&r), r.get(11))))
    }

    pub(crate) async fn share(&self, id: u64) -> Result<Option<Share>, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt(
                &format!("SELECT {COLUMNS} FROM shares WHERE id = $1"),
                &[&(id as i64)],
            )
            .await
            .map_err(pg)?;
        Ok(row.as_ref().map(share_row))
    }
}
