//! Derived text kept compressed (issue 51: the store's size): a stored envelope's JSON is
//! written DEFLATEd when that makes it smaller, and read back either way, so a database
//! written before (plain text) is read as it is, with no migration.
//!
//! SQLite keeps a packed envelope as a BLOB in `rendered.json` (a column of TEXT affinity
//! keeps a BLOB as it is given) and a plain one as TEXT: the value's type says which.

use miniz_oxide::deflate::compress_to_vec;
use miniz_oxide::inflate::decompress_to_vec_with_limit;

use crate::store::error::StoreError;

/// Texts shorter than this are kept plain: DEFLATE saves little on them and costs a call.
const SMALL: usize = 200;

/// DEFLATE's level: the fastest (the writer packs every envelope in its transaction; the
/// next levels saved a few per cent more for twice the time).
const LEVEL: u8 = 1;

/// The most bytes an envelope unpacks to: a stored envelope's rows are bounded by the line
/// limit (`classifier::MAX_LINE_BYTES`) many times over; this only stops a damaged value.
const MAX_UNPACKED: usize = 1 << 30;

/// `text` packed, or `None` when it is kept plain (short, or DEFLATE would not shrink it).
pub(crate) fn pack(text: &str) -> Option<Vec<u8>> {
    if text.len() < SMALL {
        return None;
    }
    let packed = compress_to_vec(text.as_bytes(), LEVEL);
    (packed.len() < text.len()).then_some(packed)
}

/// The text [`pack`] packed.
pub(crate) fn unpack(packed: &[u8]) -> Result<String, StoreError> {
    let bytes = decompress_to_vec_with_limit(packed, MAX_UNPACKED)
        .map_err(|e| StoreError::Corrupt(format!("a packed envelope does not inflate: {e:?}")))?;
    String::from_utf8(bytes)
        .map_err(|_| StoreError::Corrupt("a packed envelope is not UTF-8".to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_51_a_packed_text_unpacks_to_itself() {
        let long = format!(
            r#"{{"seq":1,"msgs":[{{"summary":"{}"}}]}}"#,
            "ab ".repeat(400)
        );
        let packed = pack(&long).expect("a long repetitive text is packed");
        assert!(packed.len() < long.len() / 4, "{}", packed.len());
        assert_eq!(unpack(&packed).unwrap(), long);
        assert_eq!(
            pack(r#"{"seq":1,"msgs":[]}"#),
            None,
            "a short text stays plain"
        );
        assert!(unpack(b"\xff\xff not deflate").is_err());
    }
}
