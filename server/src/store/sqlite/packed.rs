//! Derived text as SQLite keeps it (`crate::store::packed`): a BLOB when packed, TEXT when
//! plain (short, or written before issue 51), in the same column; the value's type says which.

use rusqlite::types::{Value, ValueRef};

use crate::store::error::StoreError;
use crate::store::packed;

/// `text` as it is stored: packed as a BLOB when that makes it smaller, else as TEXT.
pub(super) fn value(text: &str) -> Value {
    match packed::pack(text) {
        Some(bytes) => Value::Blob(bytes),
        None => Value::Text(text.to_owned()),
    }
}

/// The text a stored value holds ([`value`], or plain TEXT of an older database).
pub(super) fn text(stored: ValueRef<'_>) -> Result<String, StoreError> {
    match stored {
        ValueRef::Text(text) => String::from_utf8(text.to_vec())
            .map_err(|_| StoreError::Corrupt("stored text is not UTF-8".to_owned())),
        ValueRef::Blob(bytes) => packed::unpack(bytes),
        _ => Err(StoreError::Corrupt(
            "stored text is neither text nor packed".to_owned(),
        )),
    }
}
