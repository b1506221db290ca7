//! The stream-json events read straight from their bytes besides answer deltas ([`event`]): a
//! run's `init`, its prompt (`message` of role `user`), a `tool_use`, a `tool_result` and its
//! `result`, each only with the fields the Gemini CLI writes there, so that it is no other
//! agent's line and its rows are its whole parse's (`super::super::stream`, whose rows both
//! paths share). A call's `parameters` are kept whole (a [`Value`]): its row reads them by the
//! names of each tool.

use serde::Serialize;
use serde::de::MapAccess;
use serde_json::Value;

use super::read::{Fields, Lax, Read, lax, not_this, skip, time};
use crate::lean::checked::Key;
use crate::lean::lax::{Message, read_line, type_of};

/// A stream-json event read typed ([`crate::LiveEvent::GeminiEvent`]): `init`, a prompt, a
/// `tool_use`, a `tool_result` or a `result`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Event {
    /// `init`: a run begins.
    Init {
        /// `session_id`.
        session_id: Option<String>,
        /// `model`.
        model: Option<String>,
    },
    /// A `message` of role `user`: the run's prompt.
    Prompt {
        /// `content` (a string; none written: empty).
        content: String,
    },
    /// `result`: the run's end.
    Result {
        /// `status` (`success`, `error`).
        status: Option<String>,
        /// An `error` was written (of any type).
        failed: bool,
        /// Its `message`, or itself when a string.
        error: Option<String>,
        /// `stats`, when a map.
        stats: Option<Stats>,
    },
    /// `tool_use`: a tool call.
    ToolUse {
        /// `tool_name`.
        tool_name: Option<String>,
        /// `tool_id`.
        tool_id: Option<String>,
        /// `parameters`, whatever it is (none written: `null`).
        parameters: Value,
    },
    /// `tool_result`.
    ToolResult {
        /// `tool_id`.
        tool_id: Option<String>,
        /// `status` (`success`, `error`).
        status: Option<String>,
        /// `output`.
        output: Option<String>,
        /// `error.message`.
        error: Option<String>,
    },
}

/// A run's figures (`stats` of a `result`), each as `Value`'s `as_f64`, `as_u64` read it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Stats {
    /// `duration_ms`.
    pub(crate) duration_ms: Option<f64>,
    /// `input_tokens`.
    pub(crate) input_tokens: Option<u64>,
    /// `output_tokens`.
    pub(crate) output_tokens: Option<u64>,
    /// `cached`.
    pub(crate) cached: Option<u64>,
    /// `total_tokens`.
    pub(crate) total_tokens: Option<u64>,
    /// `tool_calls`.
    pub(crate) tool_calls: Option<u64>,
    /// The names of `models`, when a map: each once, in the order first written.
    pub(crate) models: Option<Vec<String>>,
    /// Each of `models`' figures, in the same order (a name written twice: its last).
    pub(crate) model_figures: Vec<ModelFigures>,
}

/// One model's figures in a run's `stats.models` (its share of the run's tokens).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ModelFigures {
    /// `input_tokens` (the cached ones among them).
    pub(crate) input_tokens: Option<u64>,
    /// `output_tokens`.
    pub(crate) output_tokens: Option<u64>,
    /// `cached`.
    pub(crate) cached: Option<u64>,
}

impl Fields for ModelFigures {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "input_tokens" => self.input_tokens = lax(map)?,
            "output_tokens" => self.output_tokens = lax(map)?,
            "cached" => self.cached = lax(map)?,
            _ => skip(map)?,
        }
        Ok(())
    }
}

impl Stats {
    /// The figures a whole parse's `stats` holds (`None` when it is no map): written back
    /// as JSON and read by the line's own reader (one reader; a `result` line is one a run).
    pub(crate) fn of_value(stats: Option<&Value>) -> Option<Stats> {
        let text = serde_json::to_string(stats?).ok()?;
        serde_json::from_str::<Lax<Stats>>(&text).ok()?.0
    }
}

impl Fields for Stats {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "duration_ms" => self.duration_ms = lax(map)?,
            "input_tokens" => self.input_tokens = lax(map)?,
            "output_tokens" => self.output_tokens = lax(map)?,
            "cached" => self.cached = lax(map)?,
            "total_tokens" => self.total_tokens = lax(map)?,
            "tool_calls" => self.tool_calls = lax(map)?,
            "models" => {
                let names = lax::<Names, A>(map)?;
                self.model_figures = names.as_ref().map(|n| n.1.clone()).unwrap_or_default();
                self.models = names.map(|n| n.0);
            }
            _ => skip(map)?,
        }
        Ok(())
    }
}

/// A map's keys, each once, in the order first written (as a `Value`'s map keeps them), and
/// each one's figures (a key written twice: its last value's, as a `Value` keeps it).
struct Names(Vec<String>, Vec<ModelFigures>);

impl Read for Names {
    fn map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Option<Names>, A::Error> {
        let mut names = Names(Vec::new(), Vec::new());
        while let Some(Key(key)) = map.next_key()? {
            let figures = lax::<ModelFigures, A>(&mut map)?.unwrap_or_default();
            match names.0.iter().position(|n| *n == key) {
                Some(i) => names.1[i] = figures,
                None => {
                    names.0.push(key.into_owned());
                    names.1.push(figures);
                }
            }
        }
        Ok(Some(names))
    }
}

/// The event of stream-json line `line`, and its time: `init`, a prompt, a `tool_use`, a
/// `tool_result` or a `result`, with no field but those the CLI writes on these events (`type`,
/// `timestamp`; `session_id`, `model`; `role` `user`, a string `content`; `tool_name`,
/// `tool_id`, `parameters`; `status`, `output`, `error`; `stats`), each a field the whole
/// parse's rows read or pass over alike. `None`: read it whole.
pub(super) fn event(line: &[u8]) -> Option<(Box<Event>, Option<f64>)> {
    let read = read_line::<EventLine>(simdutf8::basic::from_utf8(line).ok()?)?;
    let event = match read.ty? {
        // `init`, `tool_use` and `tool_result` are Gemini's by their time
        // (`crate::gemini::detect::is_gemini`).
        Ty::Init if read.seen(TIME) => Event::Init {
            session_id: read.session_id,
            model: read.model,
        },
        Ty::ToolUse if read.seen(TIME) => Event::ToolUse {
            tool_name: read.tool_name,
            tool_id: read.tool_id,
            parameters: read.parameters.map_or(Value::Null, |p| *p),
        },
        Ty::ToolResult if read.seen(TIME) => Event::ToolResult {
            tool_id: read.tool_id,
            status: read.status,
            output: read.output,
            error: Message::of_map_only(read.error),
        },
        // A `result` is Gemini's by its `status` and `stats`.
        Ty::Result if read.seen(STATUS) && read.seen(STATS) => Event::Result {
            failed: read.seen(ERROR),
            status: read.status,
            error: read.error.and_then(|m| m.text),
            stats: read.stats.map(|s| *s),
        },
        // A content of another type than a string shows as JSON: read whole.
        Ty::Message if read.role.as_deref() == Some("user") && !read.seen(ODD_CONTENT) => {
            Event::Prompt {
                content: read.content.unwrap_or_default(),
            }
        }
        _ => return None,
    };
    Some((Box::new(event), read.time))
}

/// The event types read typed.
#[derive(Clone, Copy)]
enum Ty {
    Init,
    Message,
    ToolUse,
    ToolResult,
    Result,
}

/// A line's fields, as [`event`] reads them.
#[derive(Default)]
struct EventLine {
    ty: Option<Ty>,
    /// The fields written of those whose being written counts ([`TIME`], [`STATUS`]…).
    seen: u8,
    time: Option<f64>,
    session_id: Option<String>,
    model: Option<String>,
    role: Option<String>,
    content: Option<String>,
    tool_name: Option<String>,
    tool_id: Option<String>,
    /// (Boxed, as `stats` is: the line is moved whole a few times as it is read.)
    parameters: Option<Box<Value>>,
    status: Option<String>,
    output: Option<String>,
    error: Option<Message>,
    stats: Option<Box<Stats>>,
}

/// `timestamp` written.
const TIME: u8 = 1;
/// `status` written.
const STATUS: u8 = 2;
/// `stats` written.
const STATS: u8 = 4;
/// `error` written.
const ERROR: u8 = 8;
/// A `content` written that is no string.
const ODD_CONTENT: u8 = 16;

impl EventLine {
    fn seen(&self, field: u8) -> bool {
        self.seen & field != 0
    }
}

impl Fields for EventLine {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "type" => {
                self.ty = Some(match &*type_of(map)?.0 {
                    "init" => Ty::Init,
                    "message" => Ty::Message,
                    "tool_use" => Ty::ToolUse,
                    "tool_result" => Ty::ToolResult,
                    "result" => Ty::Result,
                    _ => return Err(not_this()),
                });
            }
            "timestamp" => {
                self.time = time(map)?;
                self.seen |= TIME;
            }
            "session_id" => self.session_id = lax(map)?,
            "model" => self.model = lax(map)?,
            "role" => self.role = lax(map)?,
            "content" => {
                self.content = lax(map)?;
                if self.content.is_none() {
                    self.seen |= ODD_CONTENT;
                } else {
                    self.seen &= !ODD_CONTENT;
                }
            }
            "tool_name" => self.tool_name = lax(map)?,
            "tool_id" => self.tool_id = lax(map)?,
            "parameters" => self.parameters = Some(Box::new(map.next_value()?)),
            "status" => {
                self.status = lax(map)?;
                self.seen |= STATUS;
            }
            "output" => self.output = lax(map)?,
            "stats" => {
                self.stats = lax(map)?;
                self.seen |= STATS;
            }
            // A `tool_result` reads a map's `message`, a `result` a string's too: the type
            // may come after.
            "error" => {
                self.error = lax(map)?;
                self.seen |= ERROR;
            }
            _ => return Err(not_this()),
        }
        Ok(())
    }
}
