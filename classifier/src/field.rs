//! A field of a JSON object, found by [`Field::field`]: a linear scan of its keys.
//!
//! The workspace's `serde_json` keeps objects in their written order (`preserve_order`: an
//! `IndexMap` hashed with SipHash), so `Value::get` hashes the key at every look. The objects
//! of a log line are small, and the classifier looks up dozens of fields per line: comparing
//! the few keys there are is cheaper than hashing (on a Gemini recording, the lookups were a
//! seventh of classifying). A big object is still looked up by its hash. The lookups are
//! `#[inline]`: inlined where the key is a constant, the comparisons are a few loads, not a
//! call to `memcmp` per key (the compiler stopped inlining them across codegen units once, and
//! a Gemini recording took 4 % more instructions).

use serde_json::{Map, Value};

/// Objects with more keys than this are looked up by hash.
const SCAN_KEYS: usize = 12;

/// A field of a JSON object by its key: of an object, a value that may be one, or none.
pub(crate) trait Field<'a>: Sized {
    /// The value of field `key`, when this is an object that has it.
    fn field(self, key: &str) -> Option<&'a Value>;

    /// Whether this is an object with field `key`.
    #[inline]
    fn has(self, key: &str) -> bool {
        self.field(key).is_some()
    }
}

impl<'a> Field<'a> for &'a Map<String, Value> {
    #[inline]
    fn field(self, key: &str) -> Option<&'a Value> {
        if self.len() > SCAN_KEYS {
            return self.get(key);
        }
        self.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
    }
}

impl<'a> Field<'a> for &'a Value {
    #[inline]
    fn field(self, key: &str) -> Option<&'a Value> {
        self.as_object()?.field(key)
    }
}

impl<'a> Field<'a> for Option<&'a Value> {
    #[inline]
    fn field(self, key: &str) -> Option<&'a Value> {
        self?.field(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_what_get_finds() {
        let mut map = Map::new();
        for n in 0..=2 * SCAN_KEYS {
            let key = format!("k{n}");
            map.insert(key, Value::from(n));
            let value = Value::Object(map.clone());
            for probe in 0..=2 * SCAN_KEYS + 1 {
                for key in [format!("k{probe}"), format!("{probe}"), String::new()] {
                    assert_eq!(map.field(&key), map.get(&key), "{n} keys, {key}");
                    assert_eq!(value.field(&key), value.get(&key));
                    assert_eq!(Some(&value).field(&key), value.get(&key));
                    assert_eq!(value.has(&key), map.contains_key(&key));
                }
            }
        }
        assert_eq!(Value::from(1).field("k0"), None);
        assert_eq!(Value::Null.field(""), None);
    }
}
