//! The lean parse of a rollout line's `payload` ([`crate::lean`]): the payload without the
//! fields no Codex row or summary reads — the system prompt of `session_meta`, the whole of
//! `world_state`, all but the model of `turn_context`, rate limits, per-response usage,
//! encrypted reasoning, the mirrors' copies of messages and reasoning… Most of a rollout's
//! bytes are those, and a field skipped is checked as JSON but never built.
//!
//! A field is dropped only once the payload's `type` (or its item's) is known to be one whose
//! rows never read it; an unknown type keeps everything (its row may show its JSON). The
//! equivalence test (`tests/lean.rs`) holds the rows and summary of every fixture to the
//! whole parse's.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use crate::lean::checked::{Checked, Key};

/// The `payload` of a rollout line of type `line`, without the fields nobody reads.
pub(crate) struct Payload<'a> {
    line: &'a str,
}

impl<'a> Payload<'a> {
    pub(crate) fn new(line: &'a str) -> Payload<'a> {
        Payload { line }
    }
}

/// What a map is, for [`keeps`].
#[derive(Clone, Copy)]
enum Of<'a> {
    /// A line's payload.
    Payload(&'a str),
    /// An `event_msg` `item_completed`'s `item`.
    Item,
    /// A map of which only one field is read (`thread_settings`: its `model`; `token_count`'s
    /// `info`: its `total_token_usage`).
    Only(&'a str),
}

/// Whether field `key` of a map that is `of`, whose `type` is `ty` (`None`: not yet seen or
/// none), is read by a row or the summary.
fn keeps(of: Of, ty: Option<&str>, key: &str) -> bool {
    if key == "type" {
        return true;
    }
    match (of, ty) {
        (Of::Payload("world_state"), _) => false,
        (Of::Payload("session_meta"), _) => key != "base_instructions",
        (Of::Payload("turn_context"), _) => key == "model",
        (Of::Payload("token_usage_record"), _) => key != "usage",
        (Of::Payload("response_item"), Some("reasoning")) => {
            matches!(key, "summary" | "content" | "id")
        }
        (
            Of::Payload("response_item"),
            Some(
                "function_call"
                | "function_call_output"
                | "custom_tool_call"
                | "custom_tool_call_output"
                | "local_shell_call",
            ),
        ) => matches!(
            key,
            "name" | "arguments" | "call_id" | "input" | "output" | "action"
        ),
        (Of::Payload("event_msg"), Some(ty)) => match ty {
            "task_started" | "turn_started" | "thread_settings_applied" => key == "thread_settings",
            "task_complete" | "turn_complete" | "turn_aborted" => {
                matches!(
                    key,
                    "error" | "duration_ms" | "time_to_first_token_ms" | "reason"
                )
            }
            "token_count" => key == "info",
            "item_completed" => key == "item",
            "user_message"
            | "agent_message"
            | "agent_reasoning"
            | "agent_reasoning_raw_content"
            | "exec_command_end"
            | "exec_command_output_delta"
            | "patch_apply_end" => false,
            _ => true,
        },
        // A mirror of a message or reasoning: only what it is.
        (Of::Item, Some("UserMessage" | "AgentMessage" | "Reasoning")) => key == "id",
        (Of::Item, Some("CommandExecution")) => matches!(
            key,
            "id" | "command" | "exit_code" | "status" | "aggregated_output"
        ),
        (Of::Item, Some("FileChange")) => {
            matches!(key, "id" | "changes" | "status" | "stdout" | "stderr")
        }
        (Of::Only(only), _) => key == only,
        _ => true,
    }
}

impl<'de> DeserializeSeed<'de> for Payload<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Value, D::Error> {
        de.deserialize_any(Lean {
            of: Of::Payload(self.line),
        })
    }
}

/// A value: a map with the fields [`keeps`] keeps, anything else whole.
struct Lean<'a> {
    of: Of<'a>,
}

impl<'de> DeserializeSeed<'de> for Lean<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Value, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Lean<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        let mut ty: Option<String> = None;
        while let Some(key) = access.next_key::<Key<'de>>()? {
            let key = key.0;
            if !keeps(self.of, ty.as_deref(), &key) {
                access.next_value::<Checked>()?;
                continue;
            }
            let value: Value = match (self.of, ty.as_deref(), key.as_ref()) {
                (Of::Payload("event_msg"), Some("item_completed"), "item") => {
                    access.next_value_seed(Lean { of: Of::Item })?
                }
                (Of::Payload("event_msg"), Some("thread_settings_applied"), "thread_settings") => {
                    access.next_value_seed(Lean {
                        of: Of::Only("model"),
                    })?
                }
                (Of::Payload("event_msg"), Some("token_count"), "info") => {
                    access.next_value_seed(Lean {
                        of: Of::Only("total_token_usage"),
                    })?
                }
                _ => access.next_value()?,
            };
            if key == "type" {
                // A second `type` could make a dropped field one that is read: keep the rest.
                ty = match (&ty, value.as_str()) {
                    (None, Some(t)) => Some(t.to_owned()),
                    _ => Some(String::new()),
                };
            }
            map.insert(key.into_owned(), value);
        }
        Ok(Value::Object(map))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element::<Value>()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
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
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
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
}
