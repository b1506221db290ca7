//! A keyed append's checks on PostgreSQL, made under the session's row lock: replicas do not
//! share `crate::post`'s per-session turns, so two of them may take the same retry, or a
//! late copy of an earlier batch, at the same moment.

use deadpool_postgres::GenericClient;

use super::reader;
use crate::store::error::StoreError;
use crate::store::request::IdempotencyKey;

/// A keyed append's checks under the session's row lock (see [`IdempotencyKey`]): its key
/// holds the lines its request takes it to, and its first lines follow the key they must.
pub(super) async fn check_key(
    tx: &impl GenericClient,
    id: &str,
    key: &IdempotencyKey,
) -> Result<(), StoreError> {
    let have = reader::keyed(tx, id, &key.key)
        .await?
        .map_or(0, |k| k.lines);
    if have != key.stored {
        return Err(StoreError::Raced(format!(
            "another request stored lines under this Idempotency-Key meanwhile ({have}, not \
             {}); nothing of this one was stored: send it again",
            key.stored
        )));
    }
    if let Some(after) = key.after.as_deref().filter(|_| key.stored == 0) {
        let newest = reader::last_key(tx, id).await?.map(|(k, _)| k);
        if newest.as_deref().unwrap_or("") != after {
            return Err(StoreError::NotAfter(format!(
                "the session's newest Idempotency-Key is {newest:?}, not {after:?}; nothing \
                 was stored"
            )));
        }
    }
    Ok(())
}
