//! How a rollout line's payload is read for its [`Fact`]: a payload of any type that may state
//! one ([`PayloadSeed`]), the maps in it of which a field or two is read ([`Sub`]), token counts
//! ([`Usage`]). A type of rows stops the read ([`rows`]): the line is read whole.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};

use super::shape::{Fact, Usage};
use crate::lean::checked::Key;
use crate::lean::lax::{Fields, lax, skip, type_of};

/// The rollout line types that may state a fact.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum LineType {
    TokenUsageRecord,
    TurnContext,
    EventMsg,
}

impl LineType {
    pub(super) fn of(ty: &str) -> Option<LineType> {
        match ty {
            "token_usage_record" => Some(LineType::TokenUsageRecord),
            "turn_context" => Some(LineType::TurnContext),
            "event_msg" => Some(LineType::EventMsg),
            _ => None,
        }
    }
}

/// The `event_msg` types that state a fact.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Event {
    TokenCount,
    Settings,
    TaskStarted,
    ItemCompleted,
    /// Any other string.
    Other,
}

impl Event {
    pub(super) fn of(ty: &str) -> Event {
        match ty {
            "token_count" => Event::TokenCount,
            "thread_settings_applied" => Event::Settings,
            "task_started" | "turn_started" => Event::TaskStarted,
            "item_completed" => Event::ItemCompleted,
            _ => Event::Other,
        }
    }
}

/// What a payload of any line type that may state a fact has.
#[derive(Default)]
pub(super) struct Payload {
    ty: Option<Event>,
    model: Option<String>,
    settings_model: Option<String>,
    info_total: Option<Usage>,
    thread_id: Option<String>,
    has_thread_id: bool,
    session_id: Option<String>,
    turn: Option<Usage>,
    total: Option<Usage>,
}

impl Payload {
    /// The fact of a line of type `line` with this payload; `None`: a line of rows.
    pub(super) fn fact(self, line: LineType) -> Option<Fact> {
        Some(match line {
            LineType::TokenUsageRecord => Fact::UsageRecord {
                thread: if self.has_thread_id {
                    self.thread_id
                } else {
                    self.session_id
                },
                turn: self.turn,
                total: self.total,
            },
            LineType::TurnContext => Fact::TurnContext { model: self.model },
            LineType::EventMsg => match self.ty? {
                Event::TokenCount => Fact::TokenCount {
                    total: self.info_total,
                },
                Event::Settings => Fact::Settings {
                    model: self.settings_model,
                },
                Event::TaskStarted => Fact::TaskStarted,
                // A command's or a file change's item stopped the read ([`Item`]).
                Event::ItemCompleted => Fact::Mirror,
                Event::Other => return None,
            },
        })
    }
}

/// Not a line of facts: the caller reads it as rows.
pub(super) fn rows<E: de::Error>() -> E {
    E::custom("a rollout line of rows")
}

/// Reads a payload; its line's type when known (an `event_msg` of another type stops the read).
pub(super) struct PayloadSeed(pub(super) Option<LineType>);

impl<'de> DeserializeSeed<'de> for PayloadSeed {
    type Value = Payload;
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Payload, D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for PayloadSeed {
    type Value = Payload;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a rollout line's payload")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Payload, A::Error> {
        let mut p = Payload::default();
        while let Some(Key(key)) = map.next_key()? {
            match key.as_ref() {
                "type" => {
                    let ty = Event::of(&type_of(&mut map)?.0);
                    if self.0 == Some(LineType::EventMsg) && ty == Event::Other {
                        return Err(rows());
                    }
                    p.ty = Some(ty);
                }
                "model" => p.model = lax(&mut map)?,
                "thread_settings" => {
                    p.settings_model = lax::<Sub, A>(&mut map)?.and_then(|m| m.model);
                }
                "info" => p.info_total = lax::<Sub, A>(&mut map)?.and_then(|i| i.total),
                "item" => {
                    lax::<Sub, A>(&mut map)?;
                }
                "thread_id" => {
                    p.thread_id = lax(&mut map)?;
                    p.has_thread_id = true;
                }
                "session_id" => p.session_id = lax(&mut map)?,
                "turn_token_usage" => p.turn = lax(&mut map)?,
                "thread_token_usage" => p.total = lax(&mut map)?,
                _ => skip(&mut map)?,
            }
        }
        Ok(p)
    }
}

/// A map in a payload of which a field or two is read: `thread_settings` (its `model`), a
/// `token_count`'s `info` (its `total_token_usage`), an `item_completed`'s `item` (its `type`:
/// a command's or a file change's stops the read, as its rows come from it; any other item is a
/// mirror). One reader for the three, so the page's worker compiles one.
#[derive(Default)]
struct Sub {
    model: Option<String>,
    total: Option<Usage>,
}

impl Fields for Sub {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "model" => self.model = lax(map)?,
            "total_token_usage" => self.total = lax(map)?,
            "type" => {
                if matches!(type_of(map)?.0.as_ref(), "CommandExecution" | "FileChange") {
                    return Err(rows());
                }
            }
            _ => skip(map)?,
        }
        Ok(())
    }
}

impl Fields for Usage {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "input_tokens" => self.input = lax(map)?,
            "cached_input_tokens" => self.cached = lax(map)?,
            "cache_write_input_tokens" => self.written = lax(map)?,
            "output_tokens" => self.output = lax(map)?,
            "reasoning_output_tokens" => self.reasoning = lax(map)?,
            _ => skip(map)?,
        }
        Ok(())
    }
}
