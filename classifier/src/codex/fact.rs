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

use std::fmt;

use serde::Serialize;
use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::{Map, Value};

use crate::lean::checked::{Checked, Key};
use crate::lean::lax::{Fields, Lax, Read, Stamp, lax, skip};

/// The token counts of a usage map (`total_token_usage`, a usage record's turn and thread
/// usage), each as `Value::as_u64` reads it (`None`: not written, or not a count).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    /// `input_tokens` (cached included).
    pub(crate) input: Option<u64>,
    /// `cached_input_tokens`.
    pub(crate) cached: Option<u64>,
    /// `cache_write_input_tokens`.
    pub(crate) written: Option<u64>,
    /// `output_tokens`.
    pub(crate) output: Option<u64>,
    /// `reasoning_output_tokens`.
    pub(crate) reasoning: Option<u64>,
}

impl Usage {
    /// The usage a [`Value`] holds; `None` when it is no map.
    pub(crate) fn of_value(value: Option<&Value>) -> Option<Usage> {
        Lax::<Usage>::deserialize(value?).ok()?.0
    }
}

/// A rollout line that gives no row of its own (but a model's), read typed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "fact", rename_all = "snake_case")]
pub enum Fact {
    /// A `token_usage_record`: the thread it counts (`thread_id` when written, else
    /// `session_id`), the turn's usage and the thread's total.
    UsageRecord {
        /// The thread, when a string.
        thread: Option<String>,
        /// `turn_token_usage`.
        turn: Option<Usage>,
        /// `thread_token_usage`.
        total: Option<Usage>,
    },
    /// An `event_msg` `token_count`: the thread's running total (`info.total_token_usage`).
    TokenCount {
        /// The running total.
        total: Option<Usage>,
    },
    /// A `turn_context`: the model the turn runs.
    TurnContext {
        /// `model`.
        model: Option<String>,
    },
    /// An `event_msg` `thread_settings_applied`: the settings' model.
    Settings {
        /// `thread_settings.model`.
        model: Option<String>,
    },
    /// An `event_msg` `task_started` or `turn_started`: a turn begins.
    TaskStarted,
    /// An `event_msg` `item_completed` whose item is not a command or a file change: a mirror
    /// of a line the rows come from.
    Mirror,
}

impl Fact {
    /// The fact a rollout line of type `ty` with `payload` states; `None` for a line of rows.
    pub(crate) fn of_payload(ty: &str, payload: &Map<String, Value>) -> Option<Fact> {
        let line = LineType::of(ty)?;
        PayloadSeed(Some(line))
            .deserialize(payload)
            .ok()?
            .fact(line)
    }
}

/// A line read by [`fast`], and its time.
pub(crate) type Parsed = Option<(Box<Fact>, Option<f64>)>;

/// The fact of rollout line `line`, and its time, when it is one with only a rollout line's
/// own fields (`timestamp`, `ordinal`, `type`, `payload`, `metadata`). `None`: read it whole.
pub(crate) fn fast(line: &[u8]) -> Parsed {
    if !line.starts_with(b"{\"timestamp\":") {
        return None;
    }
    let text = std::str::from_utf8(line).ok()?;
    let mut de = serde_json::Deserializer::from_str(text);
    let read = de.deserialize_map(LineVisitor).ok()?;
    de.end().ok()?;
    let fact = read.payload?.fact(read.ty?)?;
    read.has_time.then(|| (Box::new(fact), read.time))
}

/// The rollout line types that may state a fact.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LineType {
    TokenUsageRecord,
    TurnContext,
    EventMsg,
}

impl LineType {
    fn of(ty: &str) -> Option<LineType> {
        match ty {
            "token_usage_record" => Some(LineType::TokenUsageRecord),
            "turn_context" => Some(LineType::TurnContext),
            "event_msg" => Some(LineType::EventMsg),
            _ => None,
        }
    }
}

/// A line's `type`: `Some(None)` for a string of another type.
struct AnyType(Option<LineType>);

impl Read for AnyType {
    fn string(s: &str) -> Option<AnyType> {
        Some(AnyType(LineType::of(s)))
    }
}

/// The `event_msg` types that state a fact.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Event {
    TokenCount,
    Settings,
    TaskStarted,
    ItemCompleted,
    /// Any other string.
    Other,
}

impl Read for Event {
    fn string(s: &str) -> Option<Event> {
        Some(match s {
            "token_count" => Event::TokenCount,
            "thread_settings_applied" => Event::Settings,
            "task_started" | "turn_started" => Event::TaskStarted,
            "item_completed" => Event::ItemCompleted,
            _ => Event::Other,
        })
    }
}

/// What a payload of any line type that may state a fact has.
#[derive(Default)]
struct Payload {
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
    fn fact(self, line: LineType) -> Option<Fact> {
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
fn rows<E: de::Error>() -> E {
    E::custom("a rollout line of rows")
}

/// Reads a payload; its line's type when known (an `event_msg` of another type stops the read).
struct PayloadSeed(Option<LineType>);

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
                    p.ty = lax(&mut map)?;
                    if self.0 == Some(LineType::EventMsg)
                        && matches!(p.ty, None | Some(Event::Other))
                    {
                        return Err(rows());
                    }
                }
                "model" => p.model = lax(&mut map)?,
                "thread_settings" => {
                    p.settings_model = lax::<OnlyModel, A>(&mut map)?.and_then(|m| m.0);
                }
                "info" => p.info_total = lax::<Info, A>(&mut map)?.and_then(|i| i.0),
                "item" => {
                    map.next_value::<Item>()?;
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

/// An `item_completed`'s `item`, read only for what it is: a command's or a file change's
/// stops the read (its rows come from it), any other is a mirror.
struct Item;

impl<'de> Deserialize<'de> for Item {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Item, D::Error> {
        #[derive(Default)]
        struct Of;
        impl Fields for Of {
            fn field<'de, A: MapAccess<'de>>(
                &mut self,
                key: &str,
                map: &mut A,
            ) -> Result<(), A::Error> {
                if key != "type" {
                    return skip(map);
                }
                match lax::<String, A>(map)?.as_deref() {
                    Some("CommandExecution" | "FileChange") => Err(rows()),
                    _ => Ok(()),
                }
            }
        }
        Lax::<Of>::deserialize(de).map(|_| Item)
    }
}

/// A map of which only its `model` is read (`thread_settings`).
#[derive(Default)]
struct OnlyModel(Option<String>);

impl Fields for OnlyModel {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "model" => self.0 = lax(map)?,
            _ => skip(map)?,
        }
        Ok(())
    }
}

/// A `token_count`'s `info`, of which only its `total_token_usage` is read.
#[derive(Default)]
struct Info(Option<Usage>);

impl Fields for Info {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "total_token_usage" => self.0 = lax(map)?,
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

/// A rollout line's fields, as [`fast`] reads them.
#[derive(Default)]
struct Line {
    ty: Option<LineType>,
    payload: Option<Payload>,
    time: Option<f64>,
    has_time: bool,
}

struct LineVisitor;

impl<'de> Visitor<'de> for LineVisitor {
    type Value = Line;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a rollout line")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Line, A::Error> {
        let mut line = Line::default();
        while let Some(Key(key)) = map.next_key()? {
            match key.as_ref() {
                "timestamp" => {
                    line.time = lax::<Stamp, A>(&mut map)?.and_then(|t| t.0);
                    line.has_time = true;
                }
                "type" => {
                    // A line of another type (or of no string type) is read whole.
                    line.ty = Some(
                        lax::<AnyType, A>(&mut map)?
                            .and_then(|t| t.0)
                            .ok_or_else(rows)?,
                    );
                }
                // A payload that is no map is no fact's (its row shows the line).
                "payload" => line.payload = Some(map.next_value_seed(PayloadSeed(line.ty))?),
                "ordinal" | "metadata" => {
                    map.next_value::<Checked>()?;
                }
                _ => return Err(rows()),
            }
        }
        Ok(line)
    }
}

#[cfg(test)]
mod tests;
