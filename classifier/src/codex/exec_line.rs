//! A `codex exec --json` line read typed ([`Exec`]): its type and the fields the rows and the
//! summary read, for the events whose rows come from these alone — `thread.started`, `turn.*`,
//! `error`, and the item events of messages, reasoning, commands, file changes and errors
//! ([`ItemKind`]). Other items (MCP calls, searches, plans, kinds not known yet) show their
//! JSON or read maps of any shape, and stay [`Value`]s.
//!
//! Read into a [`Value`], each such line costs a map for the line, its item and its usage,
//! each two allocations and a SipHash of every key; read here, only the strings a row shows
//! are allocated. Both paths read the same [`Exec`], so there is one implementation of these
//! lines' rows and summary:
//!
//! - the line itself ([`fast`]: the classifier's parse of a line), when its fields are all an
//!   exec line's own; any other field, and the line is read as a [`Value`];
//! - a parsed line's map ([`Exec::of_map`]).
//!
//! A field of another JSON type than the one read answers as [`Value`]'s `as_str`, `as_i64`…
//! would (nothing), and a field written twice keeps its last value, as a [`Value`]'s map does
//! ([`crate::lean::lax`]). The tests hold the two paths to each other on every `exec --json`
//! line of the fixtures and on odd ones.

use serde::Serialize;
use serde::de::{self, MapAccess};
use serde_json::{Map, Value};

use super::fact::Usage;
use crate::field::Field;
use crate::lean::lax::{Fields, Message, lax, list, read_line, skip, type_of};

/// The `exec --json` event types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ExecType {
    /// `thread.started`: a new process.
    ThreadStarted,
    /// `turn.started`.
    TurnStarted,
    /// `turn.completed`, with the thread's usage so far.
    TurnCompleted,
    /// `turn.failed`, with its error.
    TurnFailed,
    /// `error`: a stream or API error.
    Error,
    /// `item.started`.
    ItemStarted,
    /// `item.updated`.
    ItemUpdated,
    /// `item.completed`.
    ItemCompleted,
}

impl ExecType {
    /// The type of a line whose `type` is `ty`, when it is one of these.
    pub(crate) fn of(ty: &str) -> Option<ExecType> {
        Some(match ty {
            "thread.started" => ExecType::ThreadStarted,
            "turn.started" => ExecType::TurnStarted,
            "turn.completed" => ExecType::TurnCompleted,
            "turn.failed" => ExecType::TurnFailed,
            "error" => ExecType::Error,
            "item.started" => ExecType::ItemStarted,
            "item.updated" => ExecType::ItemUpdated,
            "item.completed" => ExecType::ItemCompleted,
            _ => return None,
        })
    }

    /// As written in a line.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            ExecType::ThreadStarted => "thread.started",
            ExecType::TurnStarted => "turn.started",
            ExecType::TurnCompleted => "turn.completed",
            ExecType::TurnFailed => "turn.failed",
            ExecType::Error => "error",
            ExecType::ItemStarted => "item.started",
            ExecType::ItemUpdated => "item.updated",
            ExecType::ItemCompleted => "item.completed",
        }
    }

    fn is_item(self) -> bool {
        matches!(
            self,
            ExecType::ItemStarted | ExecType::ItemUpdated | ExecType::ItemCompleted
        )
    }
}

/// The item types read typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ItemKind {
    /// `agent_message`: the answer's text.
    AgentMessage,
    /// `reasoning`: a reasoning summary.
    Reasoning,
    /// `command_execution`: a shell command and its output.
    CommandExecution,
    /// `file_change`: a patch's files.
    FileChange,
    /// `error`: a non-fatal error.
    Error,
}

impl ItemKind {
    fn of(ty: &str) -> Option<ItemKind> {
        Some(match ty {
            "agent_message" => ItemKind::AgentMessage,
            "reasoning" => ItemKind::Reasoning,
            "command_execution" => ItemKind::CommandExecution,
            "file_change" => ItemKind::FileChange,
            "error" => ItemKind::Error,
            _ => return None,
        })
    }
}

/// An item of a kind read typed ([`ItemKind`]): the fields its rows read.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Item {
    /// `type` (`None` only while it is read).
    pub(crate) kind: Option<ItemKind>,
    /// `id`.
    pub(crate) id: Option<String>,
    /// `text`: a message's or reasoning's.
    pub(crate) text: Option<String>,
    /// `command`.
    pub(crate) command: Option<String>,
    /// `aggregated_output`.
    pub(crate) output: Option<String>,
    /// `exit_code`, as `Value::as_i64` reads it.
    pub(crate) exit_code: Option<i64>,
    /// `status`.
    pub(crate) status: Option<String>,
    /// `message`: an error item's.
    pub(crate) message: Option<String>,
    /// `changes`: a file change's (empty when not an array).
    pub(crate) changes: Vec<Change>,
}

/// One file of a `file_change` item (an element that is no map: neither).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Change {
    /// `path`.
    pub(crate) path: Option<String>,
    /// `kind`: `add`, `delete`, `update`.
    pub(crate) kind: Option<String>,
}

/// An `exec --json` line whose rows come from its typed fields.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Exec {
    /// `type`.
    pub(crate) ty: ExecType,
    /// `thread_id`.
    pub(crate) thread_id: Option<String>,
    /// `usage` (`None` when no map).
    pub(crate) usage: Option<Usage>,
    /// `error.message`: why a turn failed.
    pub(crate) failure: Option<String>,
    /// `message`: an `error` event's.
    pub(crate) message: Option<String>,
    /// `item`, of an item event (`None` when it is no map).
    pub(crate) item: Option<Box<Item>>,
}

impl Exec {
    /// The line of type `ty` and fields `obj` read typed; `None` for a line of another type,
    /// or an item event whose item is of a kind not read typed.
    pub(crate) fn of_map(ty: &str, obj: &Map<String, Value>) -> Option<Exec> {
        let ty = ExecType::of(ty)?;
        let s = |k: &str| obj.field(k).and_then(Value::as_str).map(str::to_owned);
        let item = match obj.field("item") {
            Some(Value::Object(item)) if ty.is_item() => Some(Box::new(Item::of_map(item)?)),
            _ => None,
        };
        Some(Exec {
            ty,
            thread_id: s("thread_id"),
            usage: Usage::of_value(obj.field("usage")),
            failure: obj
                .field("error")
                .and_then(|e| e.field("message"))
                .and_then(Value::as_str)
                .map(str::to_owned),
            message: s("message"),
            item,
        })
    }
}

impl Item {
    fn of_map(item: &Map<String, Value>) -> Option<Item> {
        let s = |k: &str| item.field(k).and_then(Value::as_str).map(str::to_owned);
        let changes = item.field("changes").and_then(Value::as_array);
        Some(Item {
            kind: Some(ItemKind::of(item.field("type")?.as_str()?)?),
            id: s("id"),
            text: s("text"),
            command: s("command"),
            output: s("aggregated_output"),
            exit_code: item.field("exit_code").and_then(Value::as_i64),
            status: s("status"),
            message: s("message"),
            changes: changes
                .into_iter()
                .flatten()
                .map(|c| Change {
                    path: c.field("path").and_then(Value::as_str).map(str::to_owned),
                    kind: c.field("kind").and_then(Value::as_str).map(str::to_owned),
                })
                .collect(),
        })
    }
}

/// The exec line `line` read typed, when it has only an exec line's own fields (`type`,
/// `thread_id`, `usage`, `error`, `message`, `item`) and its item, if any, is of a kind read
/// typed. `None`: read it whole.
pub(crate) fn fast(line: &[u8]) -> Option<Box<Exec>> {
    let rest = line.strip_prefix(b"{\"type\":\"")?;
    if !(rest.starts_with(b"thread.")
        || rest.starts_with(b"turn.")
        || rest.starts_with(b"item.")
        || rest.starts_with(b"error\""))
    {
        return None;
    }
    let read = read_line::<Line>(simdutf8::basic::from_utf8(line).ok()?)?;
    let ty = read.ty?;
    // An `error` event is Codex's by its string `message` ([`super::is_codex`]).
    if ty == ExecType::Error && read.message.is_none() {
        return None;
    }
    let item = match read.item {
        Some(item) if ty.is_item() => {
            item.kind?;
            Some(item)
        }
        _ => None,
    };
    Some(Box::new(Exec {
        ty,
        thread_id: read.thread_id,
        usage: read.usage,
        failure: Message::of_map_only(read.failure),
        message: read.message,
        item,
    }))
}

/// A line's fields, as [`fast`] reads them.
#[derive(Default)]
struct Line {
    ty: Option<ExecType>,
    thread_id: Option<String>,
    usage: Option<Usage>,
    failure: Option<Message>,
    message: Option<String>,
    item: Option<Box<Item>>,
}

fn whole<E: de::Error>() -> E {
    E::custom("an exec line read whole")
}

impl Fields for Line {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "type" => self.ty = Some(ExecType::of(&type_of(map)?.0).ok_or_else(whole)?),
            "thread_id" => self.thread_id = lax(map)?,
            "usage" => self.usage = lax(map)?,
            "error" => self.failure = lax(map)?,
            "message" => self.message = lax(map)?,
            "item" => self.item = lax(map)?,
            _ => return Err(whole()),
        }
        Ok(())
    }
}

impl Fields for Item {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "type" => self.kind = Some(ItemKind::of(&type_of(map)?.0).ok_or_else(whole)?),
            "id" => self.id = lax(map)?,
            "text" => self.text = lax(map)?,
            "command" => self.command = lax(map)?,
            "aggregated_output" => self.output = lax(map)?,
            "exit_code" => self.exit_code = lax(map)?,
            "status" => self.status = lax(map)?,
            "message" => self.message = lax(map)?,
            "changes" => self.changes = list(map)?.unwrap_or_default(),
            _ => skip(map)?,
        }
        Ok(())
    }
}

impl Fields for Change {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "path" => self.path = lax(map)?,
            "kind" => self.kind = lax(map)?,
            _ => skip(map)?,
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
