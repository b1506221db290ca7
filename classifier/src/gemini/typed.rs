//! A chat recording's message record read into typed fields: [`Record`], the one thing the
//! rows, the summary, the nesting and the running calls read of such a line.
//!
//! A message record is most of a recording's bytes. Read into a [`Value`], each of its maps
//! (the line, its tokens, every tool call, its args, each result part and the function
//! response inside it) costs two allocations and a SipHash of every key; read here, only the
//! strings a row shows are allocated, and a field nobody reads is checked as JSON but never
//! built. Every path gets the same [`Record`]:
//!
//! - the line itself, when its fields are all the recording's own ([`fast`]: the classifier's
//!   parse of a line; any other field, and the line is read as a [`Value`] as before);
//! - a [`Value`] ([`Record::of_value`]: a line parsed whole, a `$set` history's messages).
//!
//! A field of another JSON type than the one read answers as [`Value`]'s `as_str`, `as_u64`,
//! `as_array`… would (nothing), and a field written twice keeps its last value, as a
//! [`Value`]'s map does. The equivalence test below holds the two paths to each other on every
//! record of the fixtures and on odd ones.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::Value;

use self::read::{Fields, Lax};
pub use self::shape::Record;
pub(crate) use self::shape::{Call, Content, FunctionResponse, Response, Thought};
use crate::lean::checked::Key;

impl Record {
    /// The record a [`Value`] holds (of another shape than a map: an empty record).
    pub(crate) fn of_value(value: &Value) -> Record {
        // Reading a `Value` fails only where reading the line would have: never here.
        Lax::<Record>::deserialize(value)
            .map_or_else(|_| Record::default(), |r| r.0.unwrap_or_default())
    }
}

/// The record of line `line` and its time, when the line is a message record with only the
/// fields a recording writes (`id`, `timestamp`, `type`, `content`, `thoughts`, `tokens`,
/// `model`, `toolCalls`), of a type that makes it one (`docs/FORMATS.md`, "Gemini"); `None`:
/// read it whole. Such a line is no other agent's, so its event is
/// [`LiveEvent::GeminiRecord`](crate::LiveEvent::GeminiRecord) as its whole parse's is.
pub(crate) fn fast(line: &[u8]) -> Option<(Record, Option<f64>)> {
    if !line.starts_with(b"{\"id\":") {
        return None;
    }
    let text = std::str::from_utf8(line).ok()?;
    let mut de = serde_json::Deserializer::from_str(text);
    let line = Line::deserialize(&mut de).ok()?;
    de.end().ok()?;
    let Line {
        record,
        has_id,
        has_content,
        timestamp,
    } = line;
    let is_record = match record.ty.as_deref()? {
        "user" | "info" | "warning" | "error" => has_id && has_content,
        "gemini" => has_id,
        _ => false,
    };
    let ts = timestamp.as_deref().and_then(crate::time::parse_rfc3339);
    is_record.then_some((record, ts))
}

/// A line read by [`fast`]: an error at any field a recording's message does not write.
struct Line {
    record: Record,
    has_id: bool,
    has_content: bool,
    timestamp: Option<String>,
}

impl<'de> Deserialize<'de> for Line {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Line, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Line;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a recording's message record")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Line, A::Error> {
                let mut line = Line {
                    record: Record::default(),
                    has_id: false,
                    has_content: false,
                    timestamp: None,
                };
                while let Some(Key(key)) = map.next_key()? {
                    match key.as_ref() {
                        "id" => line.has_id = true,
                        "content" => line.has_content = true,
                        "timestamp" => {
                            line.timestamp = map.next_value::<Lax<String>>()?.0;
                            continue;
                        }
                        "type" | "thoughts" | "tokens" | "model" | "toolCalls" => {}
                        _ => return Err(de::Error::custom("not a recording's field")),
                    }
                    line.record.field(&key, &mut map)?;
                }
                Ok(line)
            }
        }
        de.deserialize_map(V)
    }
}

mod read;
mod shape;

#[cfg(test)]
mod tests;
