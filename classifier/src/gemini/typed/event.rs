//! The stream-json events read straight from their bytes besides answer deltas ([`event`]): a
//! run's `init`, its prompt (`message` of role `user`) and a `tool_result`, each only with the
//! fields the Gemini CLI writes there, so that it is no other agent's line and its rows are its
//! whole parse's (`super::super::stream`, whose rows both paths share).

use serde::Serialize;
use serde::de::MapAccess;

use super::line::{Fast, Parsed, not_this, time};
use super::read::{Fields, lax, skip};
use crate::lean::checked::Key;
use crate::lean::lax::read_line;

/// A stream-json event read typed ([`crate::LiveEvent::GeminiEvent`]).
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

/// The event of stream-json line `line`, and its time: `init`, a prompt or a `tool_result`,
/// with only the fields the CLI writes there (`type` and `timestamp`; `session_id`, `model`;
/// `role` `user`, a string `content`; `tool_id`, `status`, `output`, `error`). `None`: read it
/// whole.
pub(super) fn event(line: &[u8]) -> Parsed {
    let read = read_line::<EventLine>(std::str::from_utf8(line).ok()?)?;
    let event = match read.ty? {
        // `init` and `tool_result` are Gemini's by their time (`crate::gemini::is_gemini`).
        Ty::Init if read.has_time => Event::Init {
            session_id: read.session_id,
            model: read.model,
        },
        Ty::ToolResult if read.has_time => Event::ToolResult {
            tool_id: read.tool_id,
            status: read.status,
            output: read.output,
            error: read.error.and_then(|e| e.message),
        },
        // A content of another type than a string shows as JSON: read whole.
        Ty::Message if read.role.as_deref() == Some("user") && !read.odd_content => Event::Prompt {
            content: read.content.unwrap_or_default(),
        },
        _ => return None,
    };
    Some((Fast::Event(Box::new(event)), read.time))
}

/// The event types read typed.
#[derive(Clone, Copy)]
enum Ty {
    Init,
    Message,
    ToolResult,
}

/// A line's fields, as [`event`] reads them.
#[derive(Default)]
struct EventLine {
    ty: Option<Ty>,
    time: Option<f64>,
    has_time: bool,
    session_id: Option<String>,
    model: Option<String>,
    role: Option<String>,
    content: Option<String>,
    /// A `content` written that is no string.
    odd_content: bool,
    tool_id: Option<String>,
    status: Option<String>,
    output: Option<String>,
    error: Option<Failure>,
}

impl Fields for EventLine {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "type" => {
                self.ty = Some(match &*map.next_value::<Key<'de>>()?.0 {
                    "init" => Ty::Init,
                    "message" => Ty::Message,
                    "tool_result" => Ty::ToolResult,
                    _ => return Err(not_this()),
                });
            }
            "timestamp" => {
                self.time = time(map)?;
                self.has_time = true;
            }
            "session_id" => self.session_id = lax(map)?,
            "model" => self.model = lax(map)?,
            "role" => self.role = lax(map)?,
            "content" => {
                self.content = lax(map)?;
                self.odd_content = self.content.is_none();
            }
            "tool_id" => self.tool_id = lax(map)?,
            "status" => self.status = lax(map)?,
            "output" => self.output = lax(map)?,
            "error" => self.error = lax(map)?,
            _ => return Err(not_this()),
        }
        Ok(())
    }
}

/// A failed tool's `error`: its `message`.
#[derive(Default)]
struct Failure {
    message: Option<String>,
}

impl Fields for Failure {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "message" => self.message = lax(map)?,
            _ => skip(map)?,
        }
        Ok(())
    }
}
