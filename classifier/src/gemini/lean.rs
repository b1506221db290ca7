//! The lean parse of a Gemini chat recording's lines ([`crate::lean`]): a model message's tool
//! calls without what no row or summary reads (their `description`, `displayName`, of a
//! `resultDisplay` all but its `fileDiff` — a file's whole old and new contents —, of a
//! `result` all but the function's `response`), its `tokens` and `thoughts` without their
//! unread counts and times, and of a `$set` update only its `messages` and `summary` (its
//! `lastUpdated`, `sessionId`… are read by nothing), the history without the messages whose
//! rows were already decided.
//!
//! A `$set`'s `messages` are read by the rows only while no message was shown yet
//! ([`record`](super::record)), and by the summary only for the model's messages (their
//! tokens and calls, once per id). So once a message was shown (`State::history_seen`), a history's
//! other messages keep only their `id` and `type`. The equivalence test (`tests/lean.rs`)
//! holds the rows and summary of every fixture to the whole parse's.

use crate::lean::shaped::Shape;

/// What a value of a recording line is, for a lean parse.
#[derive(Clone, Copy)]
pub(crate) enum Of {
    /// A message record's `toolCalls`, or one of them.
    Calls,
    /// A tool call's `resultDisplay`: a string, or a map of which only `fileDiff` is read.
    Display,
    /// A tool call's `result`, or one of its parts: only the `response` of a
    /// `functionResponse` is read.
    Results,
    /// A `functionResponse` in a tool call's `result`.
    Response,
    /// A model message's `tokens`: the counts the summary adds.
    Tokens,
    /// A model message's `thoughts`, or one of them: its subject and description.
    Thoughts,
    /// A `$set` update's value (its `messages` and `summary`); `true` once a message was shown.
    Set(bool),
    /// A `$set` update's `messages`, or one of them.
    Message(bool),
}

/// The fields of a tool call that a row or the summary reads.
const CALL_KEYS: &[&str] = &[
    "id",
    "name",
    "args",
    "status",
    "result",
    "resultDisplay",
    "agentId",
];

/// A `$set` update's value, read lean; `seen`: a message of the recording was shown.
pub(crate) fn set(seen: bool) -> Of {
    Of::Set(seen)
}

/// Field `key` of a model message read lean (its `toolCalls`, `tokens`, `thoughts`), or `None`
/// when it is read whole.
pub(crate) fn message_field(key: &str) -> Option<Of> {
    Of::Message(false).field(Some("gemini"), key)
}

impl Shape for Of {
    fn keeps(self, ty: Option<&str>, key: &str) -> bool {
        match self {
            Of::Calls => CALL_KEYS.contains(&key),
            Of::Display => key == "fileDiff",
            Of::Results => key == "functionResponse",
            Of::Response => key == "response",
            Of::Tokens => matches!(key, "input" | "output" | "cached" | "thoughts"),
            Of::Thoughts => matches!(key, "subject" | "description"),
            // Of an update, rows read only the history and a subagent's result (`lastUpdated`,
            // `sessionId`, … never).
            Of::Set(_) => matches!(key, "messages" | "summary"),
            // Only the model's messages count once the history's rows are decided.
            Of::Message(true) => match ty {
                Some("gemini") | None => true,
                Some(_) => key == "id",
            },
            Of::Message(false) => true,
        }
    }

    fn field(self, ty: Option<&str>, key: &str) -> Option<Of> {
        match (self, ty, key) {
            (Of::Calls, _, "resultDisplay") => Some(Of::Display),
            (Of::Calls, _, "result") => Some(Of::Results),
            (Of::Results, _, "functionResponse") => Some(Of::Response),
            (Of::Message(_), Some("gemini"), "tokens") => Some(Of::Tokens),
            (Of::Message(_), Some("gemini"), "thoughts") => Some(Of::Thoughts),
            (Of::Set(seen), _, "messages") => Some(Of::Message(seen)),
            (Of::Message(_), Some("gemini"), "toolCalls") => Some(Of::Calls),
            _ => None,
        }
    }

    fn element(self) -> Option<Of> {
        match self {
            Of::Calls | Of::Message(_) | Of::Results | Of::Thoughts => Some(self),
            Of::Display | Of::Set(_) | Of::Response | Of::Tokens => None,
        }
    }
}
