//! The rollout lines that give no row of their own, only what the lines after them and the
//! summary read ([`Fact`]): token usage records and counts, turn contexts and settings (the
//! model), turn starts, and the `item_completed` mirrors of messages and reasoning. They are
//! most of a rollout's lines.
//!
//! Read into a [`Value`], each such line costs a map for the line, its payload and every map in
//! it (usage counts, `info`, `item`), each two allocations and a SipHash of every key. Read here,
//! a line's fields are read where they are and only a model or thread id is copied. Both paths
//! read the same [`Fact`], so there is one implementation of these lines:
//!
//! - the line itself, when its fields are all a rollout line's own ([`fast`]: the classifier's
//!   parse of a line; `timestamp`, `ordinal`, `type`, `payload`, `metadata`);
//! - a [`Value`]'s payload ([`Fact::of_payload`]: a line parsed whole, and any line of another
//!   field), read by the same reader.
//!
//! A field of another JSON type than the one read answers as [`Value`]'s `as_str`, `as_u64`…
//! would (nothing), and a field written twice keeps its last value, as a [`Value`]'s map does
//! ([`crate::lean::lax`]). The tests hold the two paths to each other on every rollout line of
//! the fixtures and on odd ones.
//!
//! Contents:
//! - [`shape`]: [`Fact`] and [`Usage`], what the readers of these lines read.
//! - [`read`]: a payload read for its fact; a type of rows stops the read.
//! - [`line`]: [`fast`], a line read from its bytes.
//! - `tests`: the two paths held to each other.

use serde::Deserialize;
use serde::de::DeserializeSeed;
use serde_json::{Map, Value};

use self::read::{Event, LineType, PayloadSeed};
use crate::field::Field;
use crate::lean::lax::Lax;

pub(crate) use self::line::fast;
pub use self::shape::{Fact, Usage};

mod line;
mod read;
mod shape;

#[cfg(test)]
mod tests;

impl Usage {
    /// The usage a [`Value`] holds; `None` when it is no map.
    pub(crate) fn of_value(value: Option<&Value>) -> Option<Usage> {
        // Read as the line's reader reads it (see [`Fact::of_payload`]).
        let text = serde_json::to_string(value?).ok()?;
        Lax::<Usage>::deserialize(&mut serde_json::Deserializer::from_str(&text))
            .ok()?
            .0
    }
}

impl Fact {
    /// The fact a rollout line of type `ty` with `payload` states; `None` for a line of rows.
    ///
    /// The payload is written back as JSON and read by the line's own reader: one reader is
    /// compiled, not one per deserializer (the page's worker is held to a size), and these
    /// payloads are small.
    pub(crate) fn of_payload(ty: &str, payload: &Map<String, Value>) -> Option<Fact> {
        let line = LineType::of(ty)?;
        // An event of rows is known by its type (and an item's) without writing it.
        if line == LineType::EventMsg {
            let event = Event::of(payload.field("type").and_then(Value::as_str)?);
            let item = payload.field("item").field("type").and_then(Value::as_str);
            if event == Event::Other || matches!(item, Some("CommandExecution" | "FileChange")) {
                return None;
            }
        }
        let text = serde_json::to_string(payload).ok()?;
        let mut de = serde_json::Deserializer::from_str(&text);
        PayloadSeed(Some(line))
            .deserialize(&mut de)
            .ok()?
            .fact(line)
    }
}
