//! [`ClassifyCtx`]: what classifying one event needs to know about the events before it.
//!
//! Which tool each `tool_use` id called, so a `tool_result` can be shown according to its call
//! (a `recv` result as markdown); and where the log is in its turns ([`Turns`]): whether a
//! harness writes the turn rows, how many runs are open, the partial answer streamed so far.
//! It is small, bounded and serialisable, so a server can hand it to a page that resumes
//! mid-log and the page classifies the rest exactly as the server would have.

use std::collections::{HashMap, VecDeque};

use serde::{Deserialize, Serialize};

/// How many unanswered tool calls are remembered; older ones are forgotten first.
pub const MAX_PENDING_TOOLS: usize = 4096;

/// Longest tool-call id or tool name remembered, in bytes; a call with a longer one is not
/// remembered (its result is shown as any tool's would be).
pub const MAX_TOOL_KEY_BYTES: usize = 256;

/// Most bytes of ids and names remembered in all; older calls are forgotten first.
pub const MAX_CTX_BYTES: usize = 512 * 1024;

/// Correlation state carried from one event to the next within one log.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "CtxWire", into = "CtxWire")]
pub struct ClassifyCtx {
    names: HashMap<String, String>,
    order: VecDeque<String>,
    /// Bytes of the ids and names in `names`.
    bytes: usize,
    pub(crate) turns: Turns,
    /// A Codex log's state ([`crate::codex`]).
    pub(crate) codex: crate::codex::state::State,
    /// A Gemini log's state ([`crate::gemini`]).
    pub(crate) gemini: crate::gemini::state::State,
    /// The subagent calls seen, for each envelope's `parent` ([`crate::nest`]).
    pub(crate) nest: crate::nest::Nest,
    /// An OpenCode log's state ([`crate::opencode`]).
    pub(crate) opencode: crate::opencode::state::State,
    /// A JSON document over many lines being read ([`crate::document`]).
    pub(crate) doc: crate::document::Pending,
    /// The line being classified ends with a Gemini answer's growing row, its body known
    /// clean (`crate::gemini::answer`): `crate::classify` takes it and does not scan that body
    /// again. Only while a line is classified; never saved.
    pub(crate) clean_last: bool,
}

/// Where a log is in its turns (the rules are in `stream.rs`'s docs and docs/ROWS.md).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Turns {
    /// A hyperhive `turn_start`/`turn_end` was seen: the harness writes the turn rows, and
    /// the stream's `init` and `result` lines add none.
    pub harness: bool,
    /// Turns opened (by an `init`, a prompt) and not yet ended.
    pub open: u32,
    /// A stream-json prompt opened the open turn; the `init` that follows adds nothing.
    pub awaiting_init: bool,
    /// An `init` opened the open turn and no assistant message has come since: a prompt now
    /// is that turn's, not a new one.
    pub fresh: bool,
    /// Answer text streamed (`stream_event` text deltas) since the last complete assistant
    /// message: what an interrupted turn shows as its partial answer.
    pub partial: String,
}

/// The wire form: calls in the order they were made, oldest first, and the turn state.
#[derive(Serialize, Deserialize)]
struct CtxWire {
    #[serde(default)]
    tools: Vec<(String, String)>,
    #[serde(default)]
    turns: Turns,
    #[serde(default, skip_serializing_if = "crate::codex::state::State::is_empty")]
    codex: crate::codex::state::State,
    #[serde(default, skip_serializing_if = "crate::gemini::state::State::is_empty")]
    gemini: crate::gemini::state::State,
    #[serde(default, skip_serializing_if = "crate::nest::Nest::is_empty")]
    nest: crate::nest::Nest,
    #[serde(
        default,
        skip_serializing_if = "crate::opencode::state::State::is_empty"
    )]
    opencode: crate::opencode::state::State,
    #[serde(default, skip_serializing_if = "crate::document::Pending::is_empty")]
    doc: crate::document::Pending,
}

impl ClassifyCtx {
    /// An empty context, for the start of a log.
    pub fn new() -> ClassifyCtx {
        ClassifyCtx::default()
    }

    /// Remembers that tool call `id` called `name` (within [`MAX_PENDING_TOOLS`],
    /// [`MAX_TOOL_KEY_BYTES`] and [`MAX_CTX_BYTES`]).
    pub fn record_tool_use(&mut self, id: &str, name: &str) {
        if id.len() > MAX_TOOL_KEY_BYTES || name.len() > MAX_TOOL_KEY_BYTES {
            return;
        }
        if let Some(old) = self.names.get_mut(id) {
            self.bytes = self.bytes - old.len() + name.len();
            name.clone_into(old);
            return;
        }
        while (self.order.len() >= MAX_PENDING_TOOLS
            || self.bytes + id.len() + name.len() > MAX_CTX_BYTES)
            && let Some(oldest) = self.order.pop_front()
        {
            if let Some(old) = self.names.remove(&oldest) {
                self.bytes -= oldest.len() + old.len();
            }
        }
        self.bytes += id.len() + name.len();
        self.names.insert(id.to_owned(), name.to_owned());
        self.order.push_back(id.to_owned());
    }

    /// The context the next file of the same session starts with (a subagent's transcript or
    /// recording; `agent`: its id, when the file's name says): nothing of this file but the
    /// subagent calls seen, so its envelopes' `parent` ([`crate::TermEnvelope::parent`]) can
    /// name them ([`crate::LogClassifier::next_file`]).
    #[must_use]
    pub fn next_file(&self, agent: Option<&str>) -> ClassifyCtx {
        ClassifyCtx {
            nest: self.nest.next_file(agent),
            ..ClassifyCtx::default()
        }
    }

    /// The tool that call `id` called, if it is remembered.
    pub fn tool_name(&self, id: &str) -> Option<&str> {
        self.names.get(id).map(String::as_str)
    }

    /// How many calls are remembered.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether no call is remembered.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

impl From<CtxWire> for ClassifyCtx {
    fn from(wire: CtxWire) -> ClassifyCtx {
        let mut ctx = ClassifyCtx::new();
        for (id, name) in wire.tools {
            ctx.record_tool_use(&id, &name);
        }
        ctx.turns = wire.turns;
        ctx.codex = wire.codex;
        ctx.gemini = wire.gemini;
        ctx.nest = wire.nest;
        ctx.opencode = wire.opencode;
        ctx.doc = wire.doc;
        ctx
    }
}

impl From<ClassifyCtx> for CtxWire {
    fn from(mut ctx: ClassifyCtx) -> CtxWire {
        let tools = ctx
            .order
            .drain(..)
            .map(|id| {
                let name = ctx.names.remove(&id).unwrap_or_default();
                (id, name)
            })
            .collect();
        CtxWire {
            tools,
            turns: ctx.turns,
            codex: ctx.codex,
            gemini: ctx.gemini,
            nest: ctx.nest,
            opencode: ctx.opencode,
            doc: ctx.doc,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_ids_and_names_are_not_remembered() {
        let mut ctx = ClassifyCtx::new();
        let long = "i".repeat(MAX_TOOL_KEY_BYTES + 1);
        ctx.record_tool_use(&long, "Read");
        ctx.record_tool_use("id", &long);
        assert!(ctx.is_empty());
        ctx.record_tool_use(&"i".repeat(MAX_TOOL_KEY_BYTES), "Read");
        assert_eq!(ctx.len(), 1);
    }

    #[test]
    fn total_bytes_are_capped_oldest_first() {
        let mut ctx = ClassifyCtx::new();
        let name = "n".repeat(MAX_TOOL_KEY_BYTES);
        for i in 0..MAX_PENDING_TOOLS {
            ctx.record_tool_use(&format!("{i:0>256}"), &name);
        }
        assert!(ctx.bytes <= MAX_CTX_BYTES, "{}", ctx.bytes);
        let kept = ctx.len();
        assert_eq!(kept, MAX_CTX_BYTES / 512);
        let last = format!("{:0>256}", MAX_PENDING_TOOLS - 1);
        assert_eq!(ctx.tool_name(&last), Some(name.as_str()));
        assert_eq!(ctx.tool_name(&format!("{:0>256}", 0)), None);
        // The count bound still holds for small calls, and a round trip keeps the bytes.
        let wire = serde_json::to_string(&ctx).unwrap();
        let back: ClassifyCtx = serde_json::from_str(&wire).unwrap();
        assert_eq!(back, ctx);
    }
}
