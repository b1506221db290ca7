//! Subagents nested under the call that started them: each envelope's `parent`
//! (docs/FORMATS.md, "Subagents").
//!
//! A subagent's envelope carries `parent`, the `seq` of the envelope that holds the tool call
//! that started it (Claude Code's `Task`/`Agent`, Gemini's `invoke_agent`); the main agent's
//! carry none, the call's own result line ("Async agent launched…") included. What says a line
//! is a subagent's, first match wins:
//! 1. a Claude Code line with `parent_tool_use_id` (stream-json): that call (`null`: the main
//!    agent's);
//! 2. a `user`/`assistant` line with `isSidechain: false`: the main agent's;
//! 3. a `user`/`assistant` line with `agentId` (a subagent's transcript): the call that started
//!    that agent — bound by the call's result (`agentId: <id>` in its text), a `task_started`
//!    line (`task_id` and `tool_use_id`), a Gemini recording's `invoke_agent` call's own
//!    `agentId`, or else the oldest call not yet bound;
//! 4. a `user`/`assistant` line with `isSidechain: true` and no `agentId` (older transcripts,
//!    the subagent's lines in the main file): the latest call;
//! 5. any other line: the file's own parent — set for a subagent's file
//!    ([`crate::LogClassifier::next_file`]), none in the main file.
//!
//! The calls are remembered in the [`crate::ClassifyCtx`] ([`MAX_CALLS`], oldest forgotten
//! first), so a server classifying stored lines and a page resuming mid-log find the same.

use crate::field::Field;
use std::collections::VecDeque;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::event::live::LiveEvent;

/// How many subagent calls are remembered.
pub const MAX_CALLS: usize = 256;

/// Longest call or subagent id remembered, in bytes (as the context's tool ids).
const MAX_TOOL_KEY_BYTES: usize = 256;

/// The subagent calls seen so far, and the parent of the file being read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Nest {
    /// Subagent calls, oldest first.
    calls: VecDeque<Call>,
    /// The parent of every line of this file that says nothing itself (a subagent's file).
    file: Option<u64>,
}

/// One subagent call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Call {
    /// The call's tool-use id.
    id: String,
    /// The seq of the envelope holding it.
    seq: u64,
    /// The subagent it started, once known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    agent: Option<String>,
}

impl Nest {
    /// Whether nothing is remembered (the wire leaves it out).
    pub(crate) fn is_empty(&self) -> bool {
        self.calls.is_empty() && self.file.is_none()
    }

    /// The same calls, for the next file of the session: a subagent's (its id from the file's
    /// name, when known), whose lines that say nothing themselves are that subagent's.
    pub(crate) fn next_file(&self, agent: Option<&str>) -> Nest {
        let mut next = Nest {
            calls: self.calls.clone(),
            file: None,
        };
        next.file = agent.and_then(|a| next.agent(a));
        next
    }

    fn call(&self, id: &str) -> Option<u64> {
        self.calls
            .iter()
            .rev()
            .find(|c| same_id(&c.id, id))
            .map(|c| c.seq)
    }

    /// The call that started subagent `agent`: the one bound to it, or else the oldest call not
    /// yet bound, which is bound to it now.
    fn agent(&mut self, agent: &str) -> Option<u64> {
        if let Some(c) = self
            .calls
            .iter()
            .find(|c| c.agent.as_deref().is_some_and(|a| same_id(a, agent)))
        {
            return Some(c.seq);
        }
        if agent.len() > MAX_TOOL_KEY_BYTES {
            return None;
        }
        let c = self.calls.iter_mut().find(|c| c.agent.is_none())?;
        c.agent = Some(agent.to_owned());
        Some(c.seq)
    }

    fn bind(&mut self, id: &str, agent: &str) {
        if agent.len() > MAX_TOOL_KEY_BYTES
            || self
                .calls
                .iter()
                .any(|c| c.agent.as_deref().is_some_and(|a| same_id(a, agent)))
        {
            return;
        }
        if let Some(c) = self.calls.iter_mut().rev().find(|c| same_id(&c.id, id)) {
            c.agent = Some(agent.to_owned());
        }
    }

    fn add(&mut self, id: &str, seq: u64) {
        if id.len() > MAX_TOOL_KEY_BYTES || self.call(id).is_some() {
            return;
        }
        if self.calls.len() >= MAX_CALLS {
            self.calls.pop_front();
        }
        self.calls.push_back(Call {
            id: id.to_owned(),
            seq,
            agent: None,
        });
    }
}

/// Whether two ids are the same, their last bytes compared first: ids of one kind have one
/// length and differ at the end, so a search of the [`MAX_CALLS`] remembered calls compares
/// one byte of most instead of calling `memcmp` for each (1 % of classifying a transcript of
/// many tool calls).
fn same_id(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().last() == b.as_bytes().last() && a == b
}

/// The `parent` of the envelope at `seq` holding `event`; learns the subagent calls it makes
/// and the subagents they started.
pub(crate) fn link(event: &LiveEvent, nest: &mut Nest, seq: u64) -> Option<u64> {
    if let LiveEvent::GeminiRecord { record } = event {
        let n = &record.nest;
        let parent = parent(
            n.parent_tool_use_id.as_ref(),
            record.ty.as_deref(),
            n.is_sidechain,
            n.agent_id.as_deref(),
            nest,
        );
        learn_calls(record, nest, seq);
        return parent;
    }
    if let LiveEvent::GeminiEvent { event } = event {
        if let crate::gemini::typed::Event::ToolUse {
            tool_name: Some(name),
            tool_id: Some(id),
            ..
        } = &**event
            && name == "invoke_agent"
        {
            nest.add(id, seq);
        }
        return nest.file;
    }
    let obj = match event {
        LiveEvent::Stream { value } | LiveEvent::Gemini { value } => value.as_object(),
        _ => None,
    };
    let Some(obj) = obj else {
        return nest.file;
    };
    let parent = parent_of(obj, nest);
    learn(obj, nest, seq);
    parent
}

fn parent_of(obj: &Map<String, Value>, nest: &mut Nest) -> Option<u64> {
    let s = |k: &str| obj.field(k).and_then(Value::as_str);
    parent(
        obj.field("parent_tool_use_id"),
        s("type"),
        obj.field("isSidechain").and_then(Value::as_bool),
        s("agentId"),
        nest,
    )
}

/// The parent of a line with these fields (`parent_tool_use_id` as written; `type`,
/// `isSidechain`, `agentId`).
fn parent(
    parent_tool_use_id: Option<&Value>,
    ty: Option<&str>,
    sidechain: Option<bool>,
    agent: Option<&str>,
    nest: &mut Nest,
) -> Option<u64> {
    if let Some(p) = parent_tool_use_id {
        return p.as_str().and_then(|id| nest.call(id));
    }
    if !matches!(ty, Some("user" | "assistant")) {
        return nest.file;
    }
    match sidechain {
        Some(false) => None,
        sidechain => match agent {
            Some(agent) => nest.agent(agent),
            None if sidechain == Some(true) => {
                nest.file.or_else(|| nest.calls.back().map(|c| c.seq))
            }
            None => nest.file,
        },
    }
}

/// The subagent calls a line makes, and which subagent a call started.
fn learn(obj: &Map<String, Value>, nest: &mut Nest, seq: u64) {
    let s = |k: &str| obj.field(k).and_then(Value::as_str);
    match s("type") {
        Some("assistant") => {
            for b in blocks(obj) {
                let name = b.field("name").and_then(Value::as_str);
                if b.field("type").and_then(Value::as_str) == Some("tool_use")
                    && matches!(name, Some("Task" | "Agent"))
                    && let Some(id) = b.field("id").and_then(Value::as_str)
                {
                    nest.add(id, seq);
                }
            }
        }
        Some("user") => {
            for b in blocks(obj) {
                if b.field("type").and_then(Value::as_str) != Some("tool_result") {
                    continue;
                }
                let Some(id) = b.field("tool_use_id").and_then(Value::as_str) else {
                    continue;
                };
                if nest.call(id).is_some()
                    && let Some(agent) = agent_in(b.field("content"))
                {
                    nest.bind(id, agent);
                }
            }
        }
        // Gemini: a recording's answer with its tool calls (not read as a record: an update
        // or metadata line that says `gemini`).
        Some("gemini") => learn_calls(&crate::gemini::typed::Record::of_map(obj), nest, seq),
        Some("tool_use") if s("tool_name") == Some("invoke_agent") => {
            if let Some(id) = s("tool_id") {
                nest.add(id, seq);
            }
        }
        _ if s("subtype") == Some("task_started") => {
            if let (Some(task), Some(id)) = (s("task_id"), s("tool_use_id")) {
                nest.bind(id, task);
            }
        }
        _ => {}
    }
}

/// The subagent calls of a Gemini recording's answer (`invoke_agent`), and the subagent each
/// ran (its recording's `sessionId`, its file's name).
fn learn_calls(record: &crate::gemini::typed::Record, nest: &mut Nest, seq: u64) {
    if record.ty.as_deref() != Some("gemini") {
        return;
    }
    for c in record.tool_calls.iter().flatten() {
        if c.name.as_deref() == Some("invoke_agent")
            && let Some(id) = c.id.as_deref()
        {
            nest.add(id, seq);
            if let Some(agent) = c.agent_id.as_deref() {
                nest.bind(id, agent);
            }
        }
    }
}

fn blocks(obj: &Map<String, Value>) -> &[Value] {
    obj.field("message")
        .and_then(|m| m.field("content"))
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The subagent id a `Task`/`Agent` call's result names (`agentId: <id>`).
fn agent_in(content: Option<&Value>) -> Option<&str> {
    let found = |t: &str| -> Option<(usize, usize)> {
        let at = t.find("agentId: ")? + "agentId: ".len();
        let len = t[at..]
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_')
            .unwrap_or(t.len() - at);
        (len > 0).then_some((at, len))
    };
    match content? {
        Value::String(t) => found(t).map(|(a, l)| &t[a..a + l]),
        Value::Array(parts) => parts.iter().find_map(|p| {
            let t = p.field("text")?.as_str()?;
            found(t).map(|(a, l)| &t[a..a + l])
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::same_id;
    use crate::lines::Line;
    use crate::{ClassifyCtx, classify_line};

    #[test]
    fn ids_are_the_same_only_when_every_byte_is() {
        let ids = [
            "",
            "a",
            "b",
            "ab",
            "ba",
            "bb",
            "aab",
            "toolu_01x",
            "toolu_02x",
            "é",
            "è",
        ];
        for a in ids {
            for b in ids {
                assert_eq!(same_id(a, b), a == b, "{a:?} {b:?}");
            }
        }
    }

    /// Two `invoke_agent` calls in one Gemini record, each naming the subagent it ran: a
    /// subagent's file nests under its own call, whichever file comes first (regression: the
    /// oldest call not yet bound was taken, the first file read getting the first call).
    #[test]
    fn a_gemini_subagents_file_nests_under_the_call_naming_it() {
        let calls = r#"{"id":"m1","timestamp":"2026-12-02T14:11:07.812Z","type":"gemini","content":"","toolCalls":[{"id":"c1","name":"invoke_agent","args":{},"status":"success","agentId":"alpha"},{"id":"c2","name":"invoke_agent","args":{},"status":"success","agentId":"beta"}]}"#;
        let mut ctx = ClassifyCtx::new();
        classify_line(
            &Line::whole(1, b"{\"sessionId\":\"s\",\"kind\":\"main\"}".to_vec()),
            &mut ctx,
        );
        classify_line(
            &Line::whole(2, b"{\"$set\":{\"lastUpdated\":\"x\"}}".to_vec()),
            &mut ctx,
        );
        classify_line(&Line::whole(3, calls.as_bytes().to_vec()), &mut ctx);
        let line = br#"{"id":"u","timestamp":"2026-12-02T14:11:07.837Z","type":"user","content":[{"text":"go"}]}"#;
        for agent in ["beta", "alpha"] {
            let mut sub = ctx.next_file(Some(agent));
            let env = classify_line(&Line::whole(4, line.to_vec()), &mut sub);
            assert_eq!(env.parent, Some(3), "{agent}");
        }
        // Two calls in one record share its envelope; a second record shows them apart.
        let later = calls
            .replace("m1", "m2")
            .replace("c1", "c3")
            .replace("c2", "c4");
        let later = later.replace("alpha", "gamma").replace("beta", "delta");
        classify_line(&Line::whole(5, later.into_bytes()), &mut ctx);
        for (agent, parent) in [("delta", 5), ("alpha", 3), ("gamma", 5)] {
            let mut sub = ctx.next_file(Some(agent));
            let env = classify_line(&Line::whole(6, line.to_vec()), &mut sub);
            assert_eq!(env.parent, Some(parent), "{agent}");
        }
    }
}
