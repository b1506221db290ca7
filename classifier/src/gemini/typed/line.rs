//! The recording lines read straight from their bytes ([`fast`]): a message record, a metadata
//! line or a `{"$set": …}` update, each only when it has no field but the recording's own
//! there, so that it is no other agent's line and its rows are its whole parse's; and the
//! readers of an update's value ([`UpdateOf`], its history's messages [`Msg`]) and of a
//! metadata line's fields, which the readers of a whole parse's `Value` share.

use serde::de::MapAccess;

use super::read::{Fields, Lax, Read, lax, list, not_this, skip, time};
use super::shape::{Meta, Record, Update};
use crate::lean::checked::Key;
use crate::lean::lax::read_line;

/// A recording line read by [`fast`].
pub(crate) enum Fast {
    /// A message record ([`crate::LiveEvent::GeminiRecord`]).
    Message(Box<Record>),
    /// A metadata line ([`crate::LiveEvent::GeminiMeta`]).
    Meta(Box<Meta>),
    /// An update ([`crate::LiveEvent::GeminiUpdate`]).
    Update(Box<Update>),
    /// A stream-json answer delta's text ([`crate::LiveEvent::GeminiDelta`]).
    Delta(String),
    /// Another stream-json event ([`crate::LiveEvent::GeminiEvent`]).
    Event(Box<super::event::Event>),
}

/// A line read, and its time.
pub(crate) type Parsed = Option<(Fast, Option<f64>)>;

/// The recording line `line` and its time, when it is one with only the fields a recording
/// writes there (`docs/FORMATS.md`, "Gemini"):
/// - a message record: `id`, `timestamp`, `type`, `content`, `thoughts`, `tokens`, `model`,
///   `toolCalls`, of a `type` that makes it one;
/// - a metadata line: `sessionId`, `projectHash`, `startTime`, `lastUpdated`, `kind`,
///   `directories`, the first two written;
/// - an update: `$set` alone (`seen`: a message of the recording was shown, so the texts of
///   its history are read by nothing);
/// - a stream-json answer delta as the Gemini CLI writes it (most lines of a stream-json
///   log): [`delta`];
/// - and a stream-json `init`, prompt, `tool_use`, `tool_result` or `result` of only the
///   CLI's fields ([`super::event`]).
///
/// `None`: read it whole.
pub(crate) fn fast(line: &[u8], seen: bool) -> Parsed {
    let read: fn(&str) -> Parsed = if line.starts_with(b"{\"id\":") {
        read_as::<MessageLine>
    } else if line.starts_with(b"{\"sessionId\":") {
        read_as::<MetaLine>
    } else if line.starts_with(DELTA_HEAD) {
        return delta(line).or_else(|| event(line));
    } else if [
        &b"{\"type\":\"init\","[..],
        b"{\"type\":\"tool_use\",",
        b"{\"type\":\"tool_result\",",
        b"{\"type\":\"result\",",
    ]
    .iter()
    .any(|head| line.starts_with(head))
    {
        return event(line);
    } else if line.starts_with(b"{\"$set\":") {
        if only_last_updated(line) {
            return Some((Fast::Update(Box::default()), None));
        }
        if seen {
            read_as::<UpdateLine<true>>
        } else {
            read_as::<UpdateLine<false>>
        }
    } else {
        return None;
    };
    read(simdutf8::basic::from_utf8(line).ok()?)
}

/// A stream-json event read typed ([`super::event`]).
fn event(line: &[u8]) -> Parsed {
    let (event, time) = super::event::event(line)?;
    Some((Fast::Event(event), time))
}

/// How an answer delta's line begins.
const DELTA_HEAD: &[u8] = b"{\"type\":\"message\",\"timestamp\":\"";

/// An answer delta written as the Gemini CLI writes it,
/// `{"type":"message","timestamp":"<time>","role":"assistant","content":<string>,"delta":true}`
/// (a time with nothing JSON escapes), known from its bytes: its text is the one JSON string
/// between `"content":` and `,"delta":true}` (read as the whole parse reads it: a slice that is
/// not exactly one string is left to it), its time the one the whole parse reads. Any other
/// spelling is read as JSON.
fn delta(line: &[u8]) -> Parsed {
    let rest = line.strip_prefix(DELTA_HEAD)?;
    let end = rest.iter().position(|&c| c == b'"')?;
    let (time, rest) = rest.split_at(end);
    if time.iter().any(|&c| c < 0x20 || c == b'\\') {
        return None;
    }
    let text = rest
        .strip_prefix(b"\",\"role\":\"assistant\",\"content\":")?
        .strip_suffix(b",\"delta\":true}")?;
    let text = serde_json::from_slice::<String>(text).ok()?;
    let time = crate::time::parse_rfc3339(std::str::from_utf8(time).ok()?);
    Some((Fast::Delta(text), time))
}

/// Whether `line` is `{"$set":{"lastUpdated":"<text>"}}` with a text of printable ASCII and
/// nothing JSON escapes: an update of no field that is read (a third of a recording's lines),
/// known from its bytes. Any other spelling of it is read as JSON.
fn only_last_updated(line: &[u8]) -> bool {
    line.strip_prefix(b"{\"$set\":{\"lastUpdated\":\"")
        .and_then(|rest| rest.strip_suffix(b"\"}}"))
        .is_some_and(|text| {
            text.iter()
                .all(|&c| (0x20..0x7f).contains(&c) && c != b'"' && c != b'\\')
        })
}

/// A line of one kind, read whole (an error: not such a line).
trait Kind: Fields {
    /// The line read, and its time; `None`: not such a line after all.
    fn into_fast(self) -> Parsed;
}

fn read_as<K: Kind>(text: &str) -> Parsed {
    read_line::<K>(text)?.into_fast()
}

/// A message record's line.
#[derive(Default)]
struct MessageLine {
    record: Record,
    has_id: bool,
    has_content: bool,
    timestamp: Option<f64>,
}

impl Fields for MessageLine {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "id" => self.has_id = true,
            "content" => self.has_content = true,
            "timestamp" => {
                self.timestamp = time(map)?;
                return Ok(());
            }
            "type" | "thoughts" | "tokens" | "model" | "toolCalls" => {}
            _ => return Err(not_this()),
        }
        self.record.field(key, map)
    }
}

impl Kind for MessageLine {
    fn into_fast(self) -> Parsed {
        let is_record = match self.record.ty.as_deref()? {
            "user" | "info" | "warning" | "error" => self.has_id && self.has_content,
            "gemini" => self.has_id,
            _ => false,
        };
        is_record.then(|| (Fast::Message(Box::new(self.record)), self.timestamp))
    }
}

/// A metadata line.
#[derive(Default)]
struct MetaLine {
    meta: Meta,
    has_id: bool,
    has_project: bool,
    last_updated: Option<f64>,
}

impl Fields for MetaLine {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "sessionId" => self.has_id = true,
            "projectHash" => self.has_project = true,
            "lastUpdated" => {
                self.last_updated = time(map)?;
                return Ok(());
            }
            "kind" | "startTime" | "directories" => {}
            _ => return Err(not_this()),
        }
        self.meta.field(key, map)
    }
}

impl Kind for MetaLine {
    fn into_fast(self) -> Parsed {
        (self.has_id && self.has_project)
            .then(|| (Fast::Meta(Box::new(self.meta)), self.last_updated))
    }
}

/// An update line, its history read as [`UpdateOf<SEEN>`].
#[derive(Default)]
struct UpdateLine<const SEEN: bool>(Option<Update>);

impl<const SEEN: bool> Fields for UpdateLine<SEEN> {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        if key != "$set" {
            return Err(not_this());
        }
        self.0 = Some(match map.next_value::<Lax<UpdateOf<SEEN>>>()?.0 {
            Some(update) => update.0,
            None => Update {
                not_object: true,
                ..Update::default()
            },
        });
        Ok(())
    }
}

impl<const SEEN: bool> Kind for UpdateLine<SEEN> {
    fn into_fast(self) -> Parsed {
        self.0.map(|u| (Fast::Update(Box::new(u)), None))
    }
}

/// A `$set` history's message: a record, or `None` when it is no map; with `SEEN` (a message
/// of the recording was shown), without its `content` and `thoughts`.
pub(super) struct Msg<const SEEN: bool>(Option<Record>);

impl<const SEEN: bool> Default for Msg<SEEN> {
    fn default() -> Self {
        Msg(None)
    }
}

impl<const SEEN: bool> Read for Msg<SEEN> {
    fn map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Option<Self>, A::Error> {
        let mut record = Record::default();
        while let Some(Key(key)) = map.next_key()? {
            if SEEN && matches!(key.as_ref(), "content" | "thoughts") {
                skip(&mut map)?;
            } else {
                record.field(&key, &mut map)?;
            }
        }
        Ok(Some(Msg(Some(record))))
    }
}

/// A `$set`'s value, its messages read as [`Msg<SEEN>`].
#[derive(Default)]
pub(super) struct UpdateOf<const SEEN: bool>(pub(super) Update);

impl<const SEEN: bool> Fields for UpdateOf<SEEN> {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "messages" => {
                let list = list::<Msg<SEEN>, A>(map)?;
                self.0.messages = list.map(|l| l.into_iter().map(|m| m.0).collect());
            }
            "summary" => self.0.summary = Some(map.next_value()?),
            _ => skip(map)?,
        }
        Ok(())
    }
}

impl Fields for Meta {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "sessionId" => self.session_id = lax(map)?,
            "kind" => self.kind = lax(map)?,
            _ => skip(map)?,
        }
        Ok(())
    }
}
