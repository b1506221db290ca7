//! A [`Value`] built at its final size: [`Whole`] reads any JSON value as
//! `serde_json::from_slice` would (the same value, its maps in the same order, a repeated key
//! keeping its first place and its last value), and [`Entries`] gathers a map's fields before
//! the map is made.
//!
//! The workspace's `serde_json` keeps a map in written order (an `IndexMap`), which grows as
//! fields come: an 8-field map is allocated three times and its hash table rehashed twice.
//! Gathered first into a reused list, a map is made once, at its size (a Gemini recording spent
//! a twentieth of classifying in regrowing maps). Depends on nothing else of the crate.

use std::cell::RefCell;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// Lists kept for reuse (one per level of nesting being read).
const POOL: usize = 32;
/// A list that grew longer than this is not kept (one huge map must not stay in memory).
const KEEP_FIELDS: usize = 64;

thread_local! {
    static FREE: RefCell<Vec<Vec<(String, Value)>>> = const { RefCell::new(Vec::new()) };
}

/// A map's fields as they are read, made into a [`Map`] at the end ([`Entries::into_map`]).
pub(crate) struct Entries(Vec<(String, Value)>);

impl Entries {
    /// An empty list (a reused one when there is).
    pub(crate) fn new() -> Entries {
        // (`try_with`: no pool while the thread ends.)
        let list = FREE.try_with(|free| free.borrow_mut().pop()).ok().flatten();
        Entries(list.unwrap_or_else(|| Vec::with_capacity(16)))
    }

    /// Adds a field (a repeated key is resolved by [`Entries::into_map`]).
    pub(crate) fn push(&mut self, key: String, value: Value) {
        self.0.push((key, value));
    }

    /// The value of `key` as the map would hold it now: the last one given.
    pub(crate) fn field(&self, key: &str) -> Option<&Value> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Whether field `key` was given.
    pub(crate) fn has(&self, key: &str) -> bool {
        self.field(key).is_some()
    }

    /// The map, allocated once at its size.
    pub(crate) fn into_map(mut self) -> Map<String, Value> {
        self.0.drain(..).collect()
    }
}

impl Drop for Entries {
    fn drop(&mut self) {
        if self.0.capacity() > KEEP_FIELDS {
            return;
        }
        let mut list = std::mem::take(&mut self.0);
        list.clear();
        let _ = FREE.try_with(|free| {
            let mut free = free.borrow_mut();
            if free.len() < POOL {
                free.push(list);
            }
        });
    }
}

/// The scalar `visit_*` methods of a [`Visitor`] of [`Value`]: each scalar as
/// `serde_json::Value` holds it. [`Whole`] and the shaped reader (`super::shaped::Lean`) share
/// them.
macro_rules! scalars {
    () => {
        fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
            Ok(Value::Bool(v))
        }
        fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
            Ok(Value::Number(v.into()))
        }
        fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
            Ok(Value::Number(v.into()))
        }
        fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
            Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
        }
        fn visit_str<E>(self, v: &str) -> Result<Value, E> {
            Ok(Value::String(v.to_owned()))
        }
        fn visit_string<E>(self, v: String) -> Result<Value, E> {
            Ok(Value::String(v))
        }
        fn visit_unit<E>(self) -> Result<Value, E> {
            Ok(Value::Null)
        }
        fn visit_none<E>(self) -> Result<Value, E> {
            Ok(Value::Null)
        }
    };
}
pub(crate) use scalars;

/// Any JSON value, read whole.
#[derive(Clone, Copy)]
pub(crate) struct Whole;

impl<'de> DeserializeSeed<'de> for Whole {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Value, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Whole {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut entries = Entries::new();
        while let Some(key) = access.next_key::<String>()? {
            let value = access.next_value_seed(Whole)?;
            entries.push(key, value);
        }
        Ok(Value::Object(entries.into_map()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(Whole)? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    scalars!();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Whole` reads `text` as `serde_json` does: the same value, written out the same (order
    /// included), or an error where it has one.
    fn check(text: &str) {
        let mut de = serde_json::Deserializer::from_str(text);
        let got = Whole
            .deserialize(&mut de)
            .and_then(|v| de.end().map(|()| v));
        let want = serde_json::from_str::<Value>(text);
        match (got, want) {
            (Ok(got), Ok(want)) => {
                assert_eq!(got, want, "{text}");
                assert_eq!(got.to_string(), want.to_string(), "{text}");
            }
            (Err(got), Err(want)) => assert_eq!(got.to_string(), want.to_string(), "{text}"),
            (got, want) => panic!("{text}: {got:?} against {want:?}"),
        }
    }

    #[test]
    fn reads_what_serde_json_reads() {
        for text in [
            "null",
            "true",
            "-0",
            "1.5e300",
            "18446744073709551615",
            "-9223372036854775808",
            r#""\u00e9\n\ud83e\udd80""#,
            "[]",
            "{}",
            r#"{"b":1,"a":[{"z":null,"y":{}}],"c":"x"}"#,
            // A repeated key keeps its first place and its last value.
            r#"{"a":1,"b":2,"a":3}"#,
            r#"{"k":{"a":1,"a":{"x":[1,{"a":2,"a":3}]}}}"#,
            // Errors are the deserializer's.
            r#"{"a":1,}"#,
            r#"{"a":[1,2}"#,
            r#"{"a":"\ud800"}"#,
            "[1e999]",
        ] {
            check(text);
        }
        // Deeper than the recursion limit.
        check(&format!("{}{}", "[".repeat(200), "]".repeat(200)));
        check(&format!("{}1{}", "{\"a\":".repeat(100), "}".repeat(100)));
    }

    /// Maps of every size up to past what a reused list keeps, nested in lists of every depth
    /// up to past what the pool keeps; every one made right, and no list kept too long.
    #[test]
    fn every_size_and_depth_reads_the_same() {
        for fields in 0..=KEEP_FIELDS + 2 {
            let map: Vec<String> = (0..fields).map(|i| format!("\"k{}\":{i}", i % 7)).collect();
            let map = format!("{{{}}}", map.join(","));
            for depth in [0, 1, POOL - 1, POOL, POOL + 1] {
                let nested = format!("{}{map}{}", "{\"n\":".repeat(depth), "}".repeat(depth));
                check(&nested);
            }
        }
        FREE.with(|free| {
            let free = free.borrow();
            assert!(free.len() <= POOL);
            assert!(
                free.iter()
                    .all(|l| l.is_empty() && l.capacity() <= KEEP_FIELDS)
            );
        });
    }
}
