//! A chat recording's lines read into typed fields: a message record ([`Record`], the one thing
//! the rows, the summary, the nesting and the running calls read of such a line), a metadata
//! line ([`Meta`]) and a `$set` update ([`Update`]).
//!
//! A recording is mostly message records and updates. Read into a [`Value`], each of their maps
//! (the line, its tokens, every tool call, its args, each result part and the function
//! response inside it) costs two allocations and a SipHash of every key; read here, only the
//! strings a row shows are allocated, and a field nobody reads is checked as JSON but never
//! built. Every path reads the same:
//!
//! A stream-json `init`, prompt, `tool_use`, `tool_result` or `result` of only the CLI's fields
//! is read typed too ([`Event`], in [`event`]); its rows are the whole parse's by the same row
//! makers.
//!
//! - the line itself, when its fields are all the recording's own ([`fast`], in [`line`]: the
//!   classifier's parse of a line; any other field, and the line is read as a [`Value`]);
//! - a [`Value`] ([`Record::of_value`]: a line parsed whole, and every message record becomes
//!   a [`Record`] so; [`Update::of_value`] and [`Meta::of_value`]: an update or metadata line
//!   parsed whole stays a `Value` and is read so when classified).
//!
//! A field of another JSON type than the one read answers as [`Value`]'s `as_str`, `as_u64`,
//! `as_array`… would (nothing), and a field written twice keeps its last value, as a
//! [`Value`]'s map does ([`read`]: how each is read; [`shape`]: the types). The tests hold the
//! two paths to each other on every recording line of the fixtures and on odd ones.

use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

pub use self::event::{Event, Stats};
use self::line::UpdateOf;
pub(crate) use self::line::{Fast, fast};
use self::read::Lax;
pub(crate) use self::shape::{Call, Content, FunctionResponse, Response, Thought};
pub use self::shape::{Meta, Record, Update};

impl Record {
    /// The record a [`Value`] holds (of another shape than a map: an empty record).
    pub(crate) fn of_value(value: &Value) -> Record {
        value
            .as_object()
            .map_or_else(Record::default, Record::of_map)
    }

    /// The record a line's map holds. (One deserializer, so the page's worker compiles the
    /// readers once more, not twice.)
    pub(crate) fn of_map(map: &Map<String, Value>) -> Record {
        // Reading a `Value` fails only where reading the line would have: never here.
        Lax::<Record>::deserialize(map)
            .map_or_else(|_| Record::default(), |r| r.0.unwrap_or_default())
    }
}

impl Update {
    /// The update a `$set`'s value holds; `seen`: a message of the recording was shown, so the
    /// texts of its history are left out (nothing reads them then).
    pub(crate) fn of_value(set: &Value, seen: bool) -> Update {
        let update = if seen {
            Lax::<UpdateOf<true>>::deserialize(set).map(|u| u.0.map(|u| u.0))
        } else {
            Lax::<UpdateOf<false>>::deserialize(set).map(|u| u.0.map(|u| u.0))
        };
        match update {
            Ok(Some(update)) => update,
            _ => Update {
                not_object: true,
                ..Update::default()
            },
        }
    }
}

impl Meta {
    /// The metadata a line's [`Value`] (or its `&Map`) holds.
    pub(crate) fn of_value<'de>(line: impl Deserializer<'de>) -> Meta {
        Lax::<Meta>::deserialize(line).map_or_else(|_| Meta::default(), |m| m.0.unwrap_or_default())
    }
}

mod event;
mod line;
mod read;
mod shape;

#[cfg(test)]
mod tests;
