//! Partial messages (`stream_event` lines): the text an agent is writing, before the complete
//! message arrives.
//!
//! History never shows them ([`crate::classify`] gives no row); a live page may show a preview
//! row that grows as deltas arrive and is replaced by the complete message. [`Preview`] folds
//! events into that preview. It has no clock: the page decides how often to re-render (the
//! debounced, at most every 300 ms).

use crate::field::Field;
use serde_json::Value;

use crate::event::live::LiveEvent;

/// What the agent is writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreviewKind {
    /// Answer text (markdown).
    Text,
    /// Thinking.
    Thinking,
    /// A tool call's input JSON.
    ToolInput,
}

/// The partial message being written, folded from `stream_event` lines.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Preview {
    kind: Option<PreviewKind>,
    text: String,
    tool: Option<String>,
}

/// Longest preview kept; past it, the preview stops growing (the complete message will come).
pub const MAX_PREVIEW_BYTES: usize = 256 * 1024;

impl Preview {
    /// An empty preview.
    pub fn new() -> Preview {
        Preview::default()
    }

    /// Folds one event in. Returns whether the preview changed.
    ///
    /// A content block start begins a new preview; deltas grow it; a block stop or any
    /// complete assistant/user message or turn boundary clears it. Other events leave it.
    pub fn apply(&mut self, event: &LiveEvent) -> bool {
        match event {
            LiveEvent::Stream { value } => match value.field("type").and_then(Value::as_str) {
                Some("stream_event") => self.apply_stream_event(value.field("event")),
                Some("assistant" | "user" | "result") => self.clear(),
                _ => false,
            },
            LiveEvent::TurnStart { .. } | LiveEvent::TurnEnd { .. } => self.clear(),
            _ => false,
        }
    }

    fn apply_stream_event(&mut self, event: Option<&Value>) -> bool {
        let Some(event) = event else { return false };
        match event.field("type").and_then(Value::as_str) {
            Some("content_block_start") => {
                let block = event.field("content_block");
                let ty = block.and_then(|b| b.field("type")).and_then(Value::as_str);
                self.text.clear();
                self.tool = None;
                self.kind = match ty {
                    Some("text") => Some(PreviewKind::Text),
                    Some("thinking") => Some(PreviewKind::Thinking),
                    Some("tool_use" | "server_tool_use" | "mcp_tool_use") => {
                        self.tool = block
                            .and_then(|b| b.field("name"))
                            .and_then(Value::as_str)
                            .map(str::to_owned);
                        Some(PreviewKind::ToolInput)
                    }
                    _ => None,
                };
                true
            }
            Some("content_block_delta") => {
                let delta = event.field("delta");
                let piece = delta.and_then(|d| {
                    ["text", "thinking", "partial_json"]
                        .iter()
                        .find_map(|k| d.get(*k).and_then(Value::as_str))
                });
                match piece {
                    Some(p) if self.kind.is_some() && !p.is_empty() => {
                        if self.text.len() + p.len() > MAX_PREVIEW_BYTES {
                            return false;
                        }
                        self.text.push_str(p);
                        true
                    }
                    _ => false,
                }
            }
            Some("content_block_stop" | "message_stop") => self.clear(),
            _ => false,
        }
    }

    fn clear(&mut self) -> bool {
        let changed = self.kind.is_some() || !self.text.is_empty();
        *self = Preview::default();
        changed
    }

    /// What is being written, if anything.
    pub fn kind(&self) -> Option<PreviewKind> {
        self.kind
    }

    /// The text so far (sanitised when shown: call [`crate::sanitize`] or render as markdown).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The tool whose input is being written, for [`PreviewKind::ToolInput`].
    pub fn tool(&self) -> Option<&str> {
        self.tool.as_deref()
    }

    /// Whether nothing is being written.
    pub fn is_empty(&self) -> bool {
        self.kind.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::parse_line;

    fn fold(lines: &[&str]) -> Preview {
        let mut p = Preview::new();
        for l in lines {
            p.apply(&parse_line(l.as_bytes()).event);
        }
        p
    }

    const START_TEXT: &str = r#"{"type":"stream_event","event":{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}}"#;
    const DELTA_A: &str = r#"{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Read"}}}"#;
    const DELTA_B: &str = r#"{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ing."}}}"#;
    const STOP: &str = r#"{"type":"stream_event","event":{"type":"content_block_stop","index":0}}"#;
    const FINAL: &str =
        r#"{"type":"assistant","message":{"content":[{"type":"text","text":"Reading."}]}}"#;

    #[test]
    fn grows_with_deltas() {
        let p = fold(&[START_TEXT, DELTA_A, DELTA_B]);
        assert_eq!((p.kind(), p.text()), (Some(PreviewKind::Text), "Reading."));
    }

    #[test]
    fn cleared_by_stop_or_final_message() {
        assert!(fold(&[START_TEXT, DELTA_A, STOP]).is_empty());
        assert!(fold(&[START_TEXT, DELTA_A, FINAL]).is_empty());
    }

    #[test]
    fn delta_without_start_is_ignored() {
        assert!(fold(&[DELTA_A]).is_empty());
    }

    #[test]
    fn tool_input_and_thinking() {
        let p = fold(&[
            r#"{"type":"stream_event","event":{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"t","name":"Read","input":{}}}}"#,
            r#"{"type":"stream_event","event":{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"file_p"}}}"#,
        ]);
        assert_eq!(
            (p.kind(), p.tool(), p.text()),
            (Some(PreviewKind::ToolInput), Some("Read"), "{\"file_p")
        );
        let p = fold(&[
            r#"{"type":"stream_event","event":{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}}"#,
            r#"{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Hm"}}}"#,
        ]);
        assert_eq!((p.kind(), p.text()), (Some(PreviewKind::Thinking), "Hm"));
    }
}
