//! The frames of a session's live stream (`GET …/events/stream`) that are not envelopes or
//! [`crate::State`]s: the partial message being written ([`Preview`]). The stream's
//! `message` frames are the classifier's `TermEnvelope`s, its `notes` frames
//! [`crate::NotesFrame`]s; the index stream's `session` frames [`crate::SessionEntry`]s.

use serde::{Deserialize, Serialize};

/// What a partial message is writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PreviewKind {
    /// The answer's text.
    Text,
    /// Its thinking.
    Thinking,
    /// A tool call's input.
    ToolInput,
}

impl PreviewKind {
    /// Its name on the wire (`text`, `thinking`, `tool_input`).
    pub fn as_str(self) -> &'static str {
        match self {
            PreviewKind::Text => "text",
            PreviewKind::Thinking => "thinking",
            PreviewKind::ToolInput => "tool_input",
        }
    }
}

/// An `event: preview` frame: `{"seq", "kind", "tool", "text"}`, `kind` null when nothing
/// is being written.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Preview {
    /// The event that last changed it.
    pub seq: u64,
    /// What is being written; `None`: nothing.
    pub kind: Option<PreviewKind>,
    /// The tool whose input is being written.
    pub tool: Option<String>,
    /// Everything written so far (sanitised).
    pub text: String,
}
