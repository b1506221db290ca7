//! The lean parse of a Qwen Code session record ([`crate::lean`]): of the record, only the
//! fields [`super::record::to_stream`], [`super::detect::is_record`] and the summary
//! ([`super::side_call_tokens`]) read — not its `parentUuid`, `cwd`, `contextWindowSize`… —;
//! of a `tool_result`'s `toolCallResult` only its `status` (its `resultDisplay` repeats the
//! output); of a `system` record's `systemPayload` only a `uiEvent`'s name, prompt, token
//! counts, status, error and model (an `attribution_snapshot`'s files never); of a message's
//! parts their texts, thoughts, calls and responses. A line is read so once its `provenance`
//! shows it is a record (`crate::lean`). The equivalence test (`tests/lean.rs`) holds the
//! rows and summary of every fixture to the whole parse's.

use crate::lean::shaped::Shape;

/// What a value of a session record is, for a lean parse.
#[derive(Clone, Copy)]
pub(crate) enum Of {
    /// The record's `message`.
    Message,
    /// A message's `parts`, or one of them.
    Parts,
    /// A part's `functionResponse`.
    Response,
    /// A `system` record's `systemPayload`.
    Payload,
    /// A payload's `uiEvent`.
    UiEvent,
    /// A `tool_result`'s `toolCallResult`: its `status`.
    CallResult,
}

/// The top-level fields of a record that are read.
const RECORD_KEYS: &[&str] = &[
    "type",
    "subtype",
    "kind",
    "timestamp",
    "sessionId",
    "version",
    "provenance",
    "uuid",
    "model",
    "message",
    "usageMetadata",
    "toolCallResult",
    "systemPayload",
];

/// The fields of a `uiEvent` that are read (an API error's row, a side call's tokens).
const UI_EVENT_KEYS: &[&str] = &[
    "event.name",
    "prompt_id",
    "input_token_count",
    "output_token_count",
    "cached_content_token_count",
    "status_code",
    "error_message",
    "model",
];

/// Whether top-level field `key` of a record is read.
pub(crate) fn keeps_line(key: &str) -> bool {
    RECORD_KEYS.contains(&key)
}

/// How top-level field `key` of a record is read lean (`None`: whole).
pub(crate) fn line_field(key: &str) -> Option<Of> {
    match key {
        "message" => Some(Of::Message),
        "systemPayload" => Some(Of::Payload),
        "toolCallResult" => Some(Of::CallResult),
        _ => None,
    }
}

impl Shape for Of {
    fn keeps(self, _ty: Option<&str>, key: &str) -> bool {
        match self {
            Of::Message => true,
            Of::Parts => matches!(
                key,
                "text" | "thought" | "functionCall" | "functionResponse"
            ),
            Of::Response => matches!(key, "id" | "response"),
            Of::Payload => key == "uiEvent",
            Of::UiEvent => UI_EVENT_KEYS.contains(&key),
            Of::CallResult => key == "status",
        }
    }

    fn field(self, _ty: Option<&str>, key: &str) -> Option<Of> {
        match (self, key) {
            (Of::Message, "parts") => Some(Of::Parts),
            (Of::Parts, "functionResponse") => Some(Of::Response),
            (Of::Payload, "uiEvent") => Some(Of::UiEvent),
            _ => None,
        }
    }

    fn element(self) -> Option<Of> {
        matches!(self, Of::Parts).then_some(self)
    }
}
