//! The table of formats' share of the lean parse ([`crate::lean`]): which agent a line's map
//! is ([`owner`], the order [`super::recognise`] asks them in), and how each agent's fields
//! are read lean ([`Shaped`]: one shape for every agent, so the lean reader is compiled once).
//! Names only the agents' leaf modules (`detect.rs`, `lean.rs`), so the lean parse can ask.

use serde_json::{Map, Value};

use crate::lean::shaped::{Lean, Shape};

/// The agents asked before Gemini CLI, in their order ([`owner`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Agent {
    OpenCode,
    Codex,
    QwenRecord,
    Copilot,
}

/// Which of [`Agent`]'s agents a JSON object is, asked in order: OpenCode first (its
/// `tool_use` lines have a `timestamp`, as Gemini's do); Codex next (its lines have a `type`
/// that Claude Code's may share, `result`, `user`); Qwen Code's session records before
/// Copilot's and Gemini's (its `tool_result` record has a Gemini event's `type` and
/// `timestamp`). `None`: Gemini's, the harness's, Claude Code's or nobody's.
pub(crate) fn owner(map: &Map<String, Value>) -> Option<Agent> {
    if crate::opencode::detect::is_opencode(map) {
        Some(Agent::OpenCode)
    } else if crate::codex::detect::is_codex(map) {
        Some(Agent::Codex)
    } else if crate::qwen::detect::is_record(map) {
        Some(Agent::QwenRecord)
    } else if crate::copilot::detect::is_copilot(map) {
        Some(Agent::Copilot)
    } else {
        None
    }
}

/// What a field of a line is, for a lean parse ([`crate::lean`]), by the agent whose reader
/// reads it: a Claude Code line's `message`, a Codex rollout's `payload`, a Gemini recording's
/// messages and `$set`, an OpenCode line's `part`, a Qwen Code record's message and payloads,
/// a Copilot event's `data`. One shape for them all, so the lean reader is compiled once.
#[derive(Clone, Copy)]
pub(crate) enum Shaped<'a> {
    Claude(crate::stream::lean::Of),
    Codex(crate::codex::lean::Of<'a>),
    Gemini(crate::gemini::lean::Of),
    OpenCode(crate::opencode::lean::Of),
    Qwen(crate::qwen::lean::Of),
    Copilot(crate::copilot::lean::Of),
}

/// Calls `$f` on the shape of each agent, wrapping what it gives back.
macro_rules! each_shape {
    ($self:expr, $of:ident => $f:expr) => {
        match $self {
            Shaped::Claude($of) => $f.map(Shaped::Claude),
            Shaped::Codex($of) => $f.map(Shaped::Codex),
            Shaped::Gemini($of) => $f.map(Shaped::Gemini),
            Shaped::OpenCode($of) => $f.map(Shaped::OpenCode),
            Shaped::Qwen($of) => $f.map(Shaped::Qwen),
            Shaped::Copilot($of) => $f.map(Shaped::Copilot),
        }
    };
}

impl Shape for Shaped<'_> {
    fn keeps(self, ty: Option<&str>, key: &str) -> bool {
        match self {
            Shaped::Claude(of) => of.keeps(ty, key),
            Shaped::Codex(of) => of.keeps(ty, key),
            Shaped::Gemini(of) => of.keeps(ty, key),
            Shaped::OpenCode(of) => of.keeps(ty, key),
            Shaped::Qwen(of) => of.keeps(ty, key),
            Shaped::Copilot(of) => of.keeps(ty, key),
        }
    }

    fn field(self, ty: Option<&str>, key: &str) -> Option<Self> {
        each_shape!(self, of => of.field(ty, key))
    }

    fn element(self) -> Option<Self> {
        each_shape!(self, of => of.element())
    }
}

/// For the lean parse: a Claude Code line's `message`.
pub(crate) fn lean_message() -> Lean<Shaped<'static>> {
    Lean(Shaped::Claude(crate::stream::lean::message()))
}

/// For the lean parse: a Codex rollout line's `payload`, of a line of type `line`.
pub(crate) fn lean_payload(line: &str) -> Lean<Shaped<'_>> {
    Lean(Shaped::Codex(crate::codex::lean::payload(line)))
}

/// For the lean parse: field `key` of a Gemini recording's model message, when it is read lean.
pub(crate) fn lean_gemini_field(key: &str) -> Option<Lean<Shaped<'static>>> {
    crate::gemini::lean::message_field(key).map(|of| Lean(Shaped::Gemini(of)))
}

/// For the lean parse: a Gemini recording's `$set`; `seen`: a message of it was shown.
pub(crate) fn lean_gemini_set(seen: bool) -> Lean<Shaped<'static>> {
    Lean(Shaped::Gemini(crate::gemini::lean::set(seen)))
}

/// For the lean parse: the agent whose fields a line of type `ty` has (`None`: not known
/// from its type). Only a Copilot event is known so.
pub(crate) fn lean_agent_of_type(ty: &str) -> Option<Agent> {
    crate::copilot::detect::is_event_type(ty).then_some(Agent::Copilot)
}

/// For the lean parse: whether top-level field `key` of `agent`'s line is read.
pub(crate) fn lean_keeps(agent: Agent, key: &str) -> bool {
    match agent {
        Agent::QwenRecord => crate::qwen::lean::keeps_line(key),
        Agent::Copilot => crate::copilot::lean::keeps_line(key),
        Agent::OpenCode | Agent::Codex => true,
    }
}

/// For the lean parse: how top-level field `key` of `agent`'s line of type `ty` is read
/// (`None`: whole).
pub(crate) fn lean_field(agent: Agent, ty: &str, key: &str) -> Option<Lean<Shaped<'static>>> {
    let shape = match agent {
        Agent::OpenCode => Shaped::OpenCode(crate::opencode::lean::line_field(key)?),
        Agent::QwenRecord => Shaped::Qwen(crate::qwen::lean::line_field(key)?),
        Agent::Copilot => Shaped::Copilot(crate::copilot::lean::line_field(ty, key)?),
        Agent::Codex => return None,
    };
    Some(Lean(shape))
}
