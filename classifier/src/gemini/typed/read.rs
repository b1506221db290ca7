//! How a [`Record`](super::Record) is read: each field from the JSON type it is read as, a
//! value of any other type read as nothing (checked and skipped), as `Value`'s `as_str`,
//! `as_u64`, `as_array` and `as_object` answer; a map's fields one by one ([`Fields`]).

use std::borrow::Cow;
use std::fmt;

use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::shape::{
    Call, Content, Display, FunctionResponse, Part, Record, Response, ResultPart, Thought, Tokens,
};
pub(super) use crate::lean::lax::{Fields, Lax, Read, lax, list, skip};
use crate::lean::lax::{List, Stamp, any};

/// A message's `type`: the recording's own types are not copied.
impl Read for Cow<'static, str> {
    fn string(s: &str) -> Option<Cow<'static, str>> {
        Some(match s {
            "user" => Cow::Borrowed("user"),
            "gemini" => Cow::Borrowed("gemini"),
            "info" => Cow::Borrowed("info"),
            "warning" => Cow::Borrowed("warning"),
            "error" => Cow::Borrowed("error"),
            other => Cow::Owned(other.to_owned()),
        })
    }
}

impl Fields for Record {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "id" => self.id = lax(map)?,
            "type" => self.ty = lax(map)?,
            "content" => self.content = map.next_value()?,
            "thoughts" => self.thoughts = list(map)?,
            "tokens" => self.tokens = lax(map)?,
            "model" => self.model = lax(map)?,
            "toolCalls" => self.tool_calls = list(map)?,
            "parent_tool_use_id" => self.nest.parent_tool_use_id = Some(map.next_value()?),
            "isSidechain" => self.nest.is_sidechain = map.next_value::<Value>()?.as_bool(),
            "agentId" => self.nest.agent_id = lax(map)?,
            _ => skip(map)?,
        }
        Ok(())
    }
}

impl Fields for Part {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "text" => self.text = lax(map)?,
            "functionResponse" => self.function_response = any(map)?,
            _ => skip(map)?,
        }
        Ok(())
    }
}

impl Fields for ResultPart {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "functionResponse" => {
                self.response = lax::<OnlyResponse, A>(map)?.and_then(|r| r.0);
            }
            _ => skip(map)?,
        }
        Ok(())
    }
}

/// A `functionResponse` of which only the `response` is read.
#[derive(Default)]
struct OnlyResponse(Option<Response>);

impl Fields for OnlyResponse {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "response" => self.0 = any(map)?,
            _ => skip(map)?,
        }
        Ok(())
    }
}

impl Fields for FunctionResponse {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "id" => self.id = lax(map)?,
            "name" => self.name = lax(map)?,
            "response" => self.response = any(map)?,
            _ => skip(map)?,
        }
        Ok(())
    }
}

impl Fields for Response {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "error" => self.error = lax(map)?,
            "output" => self.output = lax(map)?,
            _ => skip(map)?,
        }
        Ok(())
    }
}

impl Fields for Thought {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "subject" => self.subject = lax(map)?,
            "description" => self.description = lax(map)?,
            _ => skip(map)?,
        }
        Ok(())
    }
}

impl Fields for Tokens {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "input" => self.input = lax(map)?,
            "output" => self.output = lax(map)?,
            "cached" => self.cached = lax(map)?,
            "thoughts" => self.thoughts = lax(map)?,
            _ => skip(map)?,
        }
        Ok(())
    }
}

impl Fields for Call {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "id" => self.id = lax(map)?,
            "name" => self.name = lax(map)?,
            "args" => self.args = Some(map.next_value()?),
            "status" => self.status = lax(map)?,
            "result" => self.result = list(map)?.unwrap_or_default(),
            "resultDisplay" => self.display = map.next_value()?,
            "agentId" => self.agent_id = lax(map)?,
            _ => skip(map)?,
        }
        Ok(())
    }
}

impl<'de> Deserialize<'de> for Display {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Display, D::Error> {
        /// The map's `fileDiff`.
        #[derive(Default)]
        struct Diff(Option<String>);
        impl Fields for Diff {
            fn field<'de, A: MapAccess<'de>>(
                &mut self,
                key: &str,
                map: &mut A,
            ) -> Result<(), A::Error> {
                match key {
                    "fileDiff" => self.0 = lax(map)?,
                    _ => skip(map)?,
                }
                Ok(())
            }
        }
        /// A string, or a map's `fileDiff`.
        enum Either {
            Text(String),
            Diff(Option<String>),
        }
        impl Read for Either {
            fn string(s: &str) -> Option<Either> {
                Some(Either::Text(s.to_owned()))
            }
            fn map<'de, A: MapAccess<'de>>(map: A) -> Result<Option<Either>, A::Error> {
                Ok(Diff::map(map)?.map(|d| Either::Diff(d.0)))
            }
        }
        Ok(match Lax::<Either>::deserialize(de)?.0 {
            Some(Either::Text(s)) => Display {
                text: Some(s),
                file_diff: None,
            },
            Some(Either::Diff(d)) => Display {
                text: None,
                file_diff: d,
            },
            None => Display::default(),
        })
    }
}

impl<'de> Deserialize<'de> for Content {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Content, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Content;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E>(self, b: bool) -> Result<Content, E> {
                Ok(Content::Json(Value::Bool(b).to_string()))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Content, E> {
                Ok(Content::Json(Value::from(n).to_string()))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Content, E> {
                Ok(Content::Json(Value::from(n).to_string()))
            }
            fn visit_f64<E>(self, n: f64) -> Result<Content, E> {
                Ok(Content::Json(Value::from(n).to_string()))
            }
            fn visit_str<E>(self, s: &str) -> Result<Content, E> {
                Ok(Content::Text(s.to_owned()))
            }
            fn visit_unit<E>(self) -> Result<Content, E> {
                Ok(Content::Nothing)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Content, A::Error> {
                Ok(Content::Parts(
                    List::<Part>::seq(seq)?.map_or_else(Vec::new, |l| l.0),
                ))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Content, A::Error> {
                let value = Value::deserialize(MapAccessDeserializer::new(map))?;
                Ok(Content::Json(value.to_string()))
            }
        }
        de.deserialize_any(V)
    }
}

/// Reads the next value as a line's time (parsed where it is, no string made).
pub(super) fn time<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Option<f64>, A::Error> {
    Ok(map.next_value::<Lax<Stamp>>()?.0.and_then(|t| t.0))
}

/// Stops a line's read: a field its kind of line does not have.
pub(super) fn not_this<E: de::Error>() -> E {
    E::custom("not a field of this recording line")
}
