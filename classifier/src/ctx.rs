//! [`ClassifyCtx`]: what classifying one event needs to know about the events before it.
//!
//! Today that is only which tool each `tool_use` id called, so a `tool_result` can be shown
//! according to its call (a `recv` result as markdown). It is small, bounded and serialisable,
//! so a server can hand it to a page that resumes mid-log and the page classifies the rest
//! exactly as the server would have.

use std::collections::{HashMap, VecDeque};

use serde::{Deserialize, Serialize};

/// How many unanswered tool calls are remembered; older ones are forgotten first.
pub const MAX_PENDING_TOOLS: usize = 4096;

/// Correlation state carried from one event to the next within one log.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "CtxWire", into = "CtxWire")]
pub struct ClassifyCtx {
    names: HashMap<String, String>,
    order: VecDeque<String>,
}

/// The wire form: calls in the order they were made, oldest first.
#[derive(Serialize, Deserialize)]
struct CtxWire {
    #[serde(default)]
    tools: Vec<(String, String)>,
}

impl ClassifyCtx {
    /// An empty context, for the start of a log.
    pub fn new() -> ClassifyCtx {
        ClassifyCtx::default()
    }

    /// Remembers that tool call `id` called `name`.
    pub fn record_tool_use(&mut self, id: &str, name: &str) {
        if let Some(old) = self.names.get_mut(id) {
            name.clone_into(old);
            return;
        }
        if self.order.len() >= MAX_PENDING_TOOLS
            && let Some(oldest) = self.order.pop_front()
        {
            self.names.remove(&oldest);
        }
        self.names.insert(id.to_owned(), name.to_owned());
        self.order.push_back(id.to_owned());
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
        CtxWire { tools }
    }
}
