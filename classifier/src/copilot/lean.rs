//! The lean parse of a Copilot CLI session event ([`crate::lean`]): of its `data`, only the
//! fields the rows ([`super::rows`]) and the summary ([`super::summary`]) read of an event of
//! its type — none of a quiet event's (the system prompt of `system.message`, a shutdown's
//! figures, the deltas, the model-call bookkeeping) — and of the line, not its `parentId` and
//! `ephemeral`, which nothing reads. An event of a type not named here keeps all its `data`.
//! The equivalence test (`tests/lean.rs`) holds the rows and summary of every fixture to the
//! whole parse's.

use crate::lean::shaped::Shape;

/// What a value of a Copilot event is, for a lean parse.
#[derive(Clone, Copy)]
pub(crate) enum Of {
    /// An event's `data`: the fields named are kept.
    Data(&'static [&'static str]),
    /// `assistant.message`'s `toolRequests`, or one of them.
    Requests,
    /// A map of which one field is read (`context`'s `cwd`, `shellExecution`'s `exitCode`,
    /// `result`'s `content`, `error`'s `message`).
    Only(&'static str),
}

/// Whether top-level field `key` of a session event is read.
pub(crate) fn keeps_line(key: &str) -> bool {
    !matches!(key, "parentId" | "ephemeral")
}

/// How field `key` of a session event of type `ty` is read lean (`None`: whole).
pub(crate) fn line_field(ty: &str, key: &str) -> Option<Of> {
    (key == "data")
        .then(|| data_keys(ty))
        .flatten()
        .map(Of::Data)
}

/// The fields of a `data` that an event of type `ty` has read (`None`: a type not known here,
/// every field).
fn data_keys(ty: &str) -> Option<&'static [&'static str]> {
    Some(match ty {
        "session.start" => &["copilotVersion", "sessionId", "selectedModel", "context"],
        "session.resume" => &["selectedModel", "context"],
        "user.message" => &["content"],
        "assistant.message" => &["reasoningText", "content", "toolRequests", "model"],
        "tool.execution_start" => &["toolCallId", "toolName", "arguments"],
        "tool.execution_complete" => {
            &["toolCallId", "shellExecution", "success", "result", "error"]
        }
        "assistant.turn_retry" => &["reason", "model"],
        "session.error" => &["message", "statusCode", "errorType"],
        "session.info" | "session.warning" => &["infoType", "message"],
        "session.usage_record" => &["usage"],
        "session.shutdown" | "abort" => &[],
        t if super::detect::is_quiet(t) => &[],
        _ => return None,
    })
}

impl Shape for Of {
    fn keeps(self, _ty: Option<&str>, key: &str) -> bool {
        match self {
            Of::Data(keys) => keys.contains(&key),
            Of::Requests => matches!(key, "toolCallId" | "name" | "arguments"),
            Of::Only(only) => key == only,
        }
    }

    fn field(self, _ty: Option<&str>, key: &str) -> Option<Of> {
        match (self, key) {
            (Of::Data(_), "toolRequests") => Some(Of::Requests),
            (Of::Data(_), "context") => Some(Of::Only("cwd")),
            (Of::Data(_), "shellExecution") => Some(Of::Only("exitCode")),
            (Of::Data(_), "result") => Some(Of::Only("content")),
            (Of::Data(_), "error") => Some(Of::Only("message")),
            _ => None,
        }
    }

    fn element(self) -> Option<Of> {
        matches!(self, Of::Requests).then_some(self)
    }
}
