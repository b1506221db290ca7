//! A lean parse guided by a [`Shape`]: a JSON value built as a [`Value`], but for its maps'
//! fields that the shape says no row reads, which are checked ([`Checked`]) and never built.
//! The rollout payloads of Codex ([`crate::codex::lean`]) and the records of a Gemini chat
//! recording ([`crate::gemini::lean`]) are read through it. Depends only on [`super::checked`]
//! and [`super::build`].

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::build::{Entries, Whole, scalars};
use super::checked::{Checked, Key};

/// What a value is, for a lean parse: which fields of its maps are kept, and how their values
/// and its arrays' elements are read in turn.
pub(crate) trait Shape: Copy {
    /// Whether field `key` of a map of this shape whose `type` is `ty` (`None`: not seen yet,
    /// or none) is read by a row or the summary. A map's `type` is always kept.
    fn keeps(self, ty: Option<&str>, key: &str) -> bool;

    /// The shape of the value of a kept field, when it is read lean too (`None`: whole).
    fn field(self, ty: Option<&str>, key: &str) -> Option<Self>;

    /// The shape of the elements, when the value is an array read lean (`None`: whole).
    fn element(self) -> Option<Self> {
        None
    }
}

/// A value read as its [`Shape`] says.
pub(crate) struct Lean<S>(pub(crate) S);

impl<'de, S: Shape> DeserializeSeed<'de> for Lean<S> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Value, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de, S: Shape> Visitor<'de> for Lean<S> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Entries::new();
        let mut ty: Option<String> = None;
        while let Some(key) = access.next_key::<Key<'de>>()? {
            let key = key.0;
            let is_type = key == "type";
            if !is_type && !self.0.keeps(ty.as_deref(), &key) {
                access.next_value::<Checked>()?;
                continue;
            }
            let value: Value = match self.0.field(ty.as_deref(), &key) {
                Some(shape) if !is_type => access.next_value_seed(Lean(shape))?,
                _ => access.next_value_seed(Whole)?,
            };
            if is_type {
                // A second `type` could make a dropped field one that is read: keep the rest.
                ty = match (&ty, value.as_str()) {
                    (None, Some(t)) => Some(t.to_owned()),
                    _ => Some(String::new()),
                };
            }
            map.push(key.into_owned(), value);
        }
        Ok(Value::Object(map.into_map()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let Some(shape) = self.0.element() else {
            return Whole.visit_seq(seq);
        };
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(Lean(shape))? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    scalars!();
}
