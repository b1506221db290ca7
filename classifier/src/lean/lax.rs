//! Typed reads of JSON that answer as a [`Value`](serde_json::Value) would: a field of the JSON
//! type it is read as ([`Read`]), a value of any other type read as nothing (checked and
//! skipped: [`Lax`]), as `Value`'s `as_str`, `as_u64`, `as_array` and `as_object` answer; a map's
//! fields one by one ([`Fields`]); a type ([`type_of`]) and an error's message ([`Message`]).
//! Shared by the typed readers of Gemini recordings and stream-json events
//! (`crate::gemini::typed`), Codex rollouts (`crate::codex::fact`) and `exec --json` lines
//! (`crate::codex::exec_line`); depends only on [`checked`](super::checked) (and `crate::time`
//! for [`Stamp`]).

use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use super::checked::{Checked, Key};

/// A value of the type `T` reads, or nothing for a value of another JSON type (checked and
/// skipped), as `Value`'s `as_str`, `as_u64`, `as_array`, `as_object` answer.
pub(crate) struct Lax<T>(pub(crate) Option<T>);

/// A value read as [`Lax`], its type's default for a value of another JSON type: a field that
/// counts by being written (`functionResponse`, `response`), or an element of an array.
pub(crate) struct Any<T>(pub(crate) T);

/// What each type reads from the JSON value of its own type; any other is nothing.
pub(crate) trait Read: Sized {
    fn string(_: &str) -> Option<Self> {
        None
    }

    fn unsigned(_: u64) -> Option<Self> {
        None
    }

    fn signed(_: i64) -> Option<Self> {
        None
    }

    fn float(_: f64) -> Option<Self> {
        None
    }

    fn map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Option<Self>, A::Error> {
        while map.next_entry::<Checked, Checked>()?.is_some() {}
        Ok(None)
    }

    fn seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Option<Self>, A::Error> {
        while seq.next_element::<Checked>()?.is_some() {}
        Ok(None)
    }
}

/// A map read field by field.
pub(crate) trait Fields: Default {
    /// Reads the value of field `key` (a value it does not read: checked and skipped). An
    /// error stops the read: a line's reader ([`read_line`]) so declines a field its line
    /// does not have.
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error>;
}

impl<T: Fields> Read for T {
    fn map<'de, A: MapAccess<'de>>(map: A) -> Result<Option<T>, A::Error> {
        fields(map).map(Some)
    }
}

/// A map's fields read one by one as `T` reads them.
fn fields<'de, T: Fields, A: MapAccess<'de>>(mut map: A) -> Result<T, A::Error> {
    let mut value = T::default();
    while let Some(Key(key)) = map.next_key()? {
        value.field(&key, &mut map)?;
    }
    Ok(value)
}

/// A map read field by field into a box, where it stays: a big record is not moved through
/// each reader that returns it.
impl<T: Fields> Fields for Box<T> {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        (**self).field(key, map)
    }
}

impl Read for String {
    fn string(s: &str) -> Option<String> {
        Some(s.to_owned())
    }
}

impl Read for u64 {
    fn unsigned(n: u64) -> Option<u64> {
        Some(n)
    }
}

/// As `Value::as_f64` reads it: any number.
impl Read for f64 {
    fn unsigned(n: u64) -> Option<f64> {
        Some(n as f64)
    }

    fn signed(n: i64) -> Option<f64> {
        Some(n as f64)
    }

    fn float(n: f64) -> Option<f64> {
        Some(n)
    }
}

/// As `Value::as_i64` reads it: a count above `i64::MAX` is none.
impl Read for i64 {
    fn unsigned(n: u64) -> Option<i64> {
        i64::try_from(n).ok()
    }

    fn signed(n: i64) -> Option<i64> {
        Some(n)
    }
}

/// An array, its elements read as [`Any`].
pub(crate) struct List<T>(pub(crate) Vec<T>);

impl<T: Read + Default> Read for List<T> {
    fn seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Option<List<T>>, A::Error> {
        let mut list = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(Any(x)) = seq.next_element::<Any<T>>()? {
            list.push(x);
        }
        Ok(Some(List(list)))
    }
}

impl<'de, T: Read> Deserialize<'de> for Lax<T> {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Lax<T>, D::Error> {
        de.deserialize_any(LaxVisitor(PhantomData))
    }
}

impl<'de, T: Read + Default> Deserialize<'de> for Any<T> {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Any<T>, D::Error> {
        Ok(Any(Lax::<T>::deserialize(de)?.0.unwrap_or_default()))
    }
}

struct LaxVisitor<T>(PhantomData<T>);

impl<'de, T: Read> Visitor<'de> for LaxVisitor<T> {
    type Value = Lax<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Lax<T>, E> {
        Ok(Lax(None))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Lax<T>, E> {
        Ok(Lax(T::signed(n)))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Lax<T>, E> {
        Ok(Lax(T::unsigned(n)))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Lax<T>, E> {
        Ok(Lax(T::float(n)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Lax<T>, E> {
        Ok(Lax(T::string(s)))
    }

    fn visit_unit<E>(self) -> Result<Lax<T>, E> {
        Ok(Lax(None))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Lax<T>, A::Error> {
        T::seq(seq).map(Lax)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Lax<T>, A::Error> {
        T::map(map).map(Lax)
    }
}

/// A line of JSON, `text`, read field by field as `T` ([`Fields`]): `None` when it is no object,
/// is not JSON to its end, or a field's read stopped it (a line the typed readers leave to the
/// whole parse).
pub(crate) fn read_line<T: Fields>(text: &str) -> Option<T> {
    let mut de = serde_json::Deserializer::from_str(text);
    let line = de.deserialize_map(LineVisitor::<T>(PhantomData)).ok()?;
    de.end().ok()?;
    Some(line)
}

/// The object of a line ([`read_line`]), its fields read as `T` reads them (the line itself,
/// not an `Option` of it: a line's reader holds a whole record, moved once).
struct LineVisitor<T>(PhantomData<T>);

impl<'de, T: Fields> Visitor<'de> for LineVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        fields(map)
    }
}

/// Reads the next value as [`Lax`].
pub(crate) fn lax<'de, T: Read, A: MapAccess<'de>>(map: &mut A) -> Result<Option<T>, A::Error> {
    Ok(map.next_value::<Lax<T>>()?.0)
}

/// Reads the next value as an array of [`Any`] elements, `None` when not an array.
pub(crate) fn list<'de, T: Read + Default, A: MapAccess<'de>>(
    map: &mut A,
) -> Result<Option<Vec<T>>, A::Error> {
    Ok(lax::<List<T>, A>(map)?.map(|l| l.0))
}

/// Reads the next value as [`Any`]: `Some` however it is written.
pub(crate) fn any<'de, T: Read + Default, A: MapAccess<'de>>(
    map: &mut A,
) -> Result<Option<T>, A::Error> {
    Ok(Some(map.next_value::<Any<T>>()?.0))
}

/// Reads the next value as a line's or an item's type, a string borrowed from the line when it
/// has no escapes (anything else stops the read: a type that is no string is never one a typed
/// reader reads, and the line is read whole).
pub(crate) fn type_of<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Key<'de>, A::Error> {
    map.next_value::<Key<'de>>()
}

/// An `error`'s message, as the rows of both agents read it: its `message` when a map
/// (`of_map`), itself when a string, nothing when of another type.
pub(crate) struct Message {
    pub(crate) text: Option<String>,
    pub(crate) of_map: bool,
}

impl Message {
    /// The message of a map's `error` only (`error.message`).
    pub(crate) fn of_map_only(message: Option<Message>) -> Option<String> {
        message.filter(|m| m.of_map).and_then(|m| m.text)
    }
}

impl Read for Message {
    fn string(s: &str) -> Option<Message> {
        Some(Message {
            text: Some(s.to_owned()),
            of_map: false,
        })
    }

    fn map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Option<Message>, A::Error> {
        let mut text = None;
        while let Some(Key(key)) = map.next_key()? {
            if key == "message" {
                text = lax(&mut map)?;
            } else {
                skip(&mut map)?;
            }
        }
        Ok(Some(Message { text, of_map: true }))
    }
}

pub(crate) fn skip<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
    map.next_value::<Checked>().map(drop)
}

/// A time written as RFC 3339, parsed as it is read (`None`: not one), as
/// `crate::time::rfc3339` reads it from a [`Value`](serde_json::Value).
pub(crate) struct Stamp(pub(crate) Option<f64>);

impl Read for Stamp {
    fn string(s: &str) -> Option<Stamp> {
        Some(Stamp(crate::time::parse_rfc3339(s)))
    }
}
