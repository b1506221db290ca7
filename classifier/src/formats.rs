//! The table of agent formats (issue 47): the one place the classifier's shared layer reaches
//! an agent. Each agent is a folder of its own (`codex/`, `gemini/`, `opencode/`, `qwen/`,
//! `copilot/`; Claude Code's is `stream/`, the harness's `hyperhive.rs`) and gives the table:
//!
//! - how it knows its lines ([`recognise`]: each agent's `detect.rs`, asked in the order below;
//!   [`typed`]: the lines an agent reads typed straight from their bytes);
//! - its lines read into the shared row vocabulary ([`rows`]: an event of its
//!   [`LiveEvent`] variants → [`TermMsg`]s, made with the shared makers of `kind.rs`,
//!   `tools/`, `stream/`'s results and turns);
//! - its own state, in the [`ClassifyCtx`] (`ctx.rs`: each agent's `state.rs`, saved and
//!   restored with a checkpoint as the context is), and what it tells the lean parse
//!   ([`lean_hints`]);
//! - which agent a line's map is, and how the lean parse reads each agent's fields ([`lean`]).
//!
//! Static dispatch only: a `match` per line, no trait objects (the page's classify worker
//! carries this code; docs/FORMATS.md, "Adding an agent").

use serde_json::Value;

use crate::ctx::ClassifyCtx;
use crate::event::live::{LiveEvent, LogEvent};
use crate::field::Field;
use crate::hyperhive::under_harness;
use crate::lean::Hints;
use crate::msg::{Level, TermMsg};

use self::lean::{Agent, owner};

pub(crate) mod lean;

/// The event of a JSON line: the first agent (in this order) that knows its shape, else a
/// hyperhive event (`kind`), a Claude Code line (`type`), else unrecognised. Never fails.
pub(crate) fn recognise(value: Value) -> LogEvent {
    let Value::Object(map) = &value else {
        if crate::qwen::detect::is_json_output(&value) {
            return LogEvent::at(None, LiveEvent::Qwen { value });
        }
        return LogEvent::at(None, LiveEvent::Unrecognised { value });
    };
    match owner(map) {
        Some(Agent::OpenCode) => {
            let ts = crate::opencode::detect::timestamp(map);
            return LogEvent::at(ts, LiveEvent::OpenCode { value });
        }
        Some(Agent::Codex) => {
            let ts = crate::time::rfc3339(map.field("timestamp"));
            return LogEvent::at(ts, LiveEvent::Codex { value });
        }
        Some(Agent::QwenRecord) => {
            let ts = crate::time::rfc3339(map.field("timestamp"));
            return LogEvent::at(ts, LiveEvent::Qwen { value });
        }
        Some(Agent::Copilot) => {
            let ts = crate::time::rfc3339(map.field("timestamp"));
            return LogEvent::at(ts, LiveEvent::Copilot { value });
        }
        None => {}
    }
    if crate::gemini::detect::is_gemini(map) {
        let ts = crate::gemini::detect::timestamp(map);
        if crate::gemini::detect::is_message_record(map) {
            let record = Box::new(crate::gemini::typed::Record::of_value(&value));
            return LogEvent::at(ts, LiveEvent::GeminiRecord { record });
        }
        return LogEvent::at(ts, LiveEvent::Gemini { value });
    }
    if let Some(kind) = map.field("kind") {
        let ts = map.field("ts").and_then(Value::as_f64);
        let kind = kind.as_str().map(str::to_owned);
        return LogEvent::at(ts, crate::hyperhive::event(kind.as_deref(), value));
    }
    if map.field("type").is_some_and(Value::is_string) {
        let ts = crate::time::rfc3339(map.field("timestamp"));
        return LogEvent::at(ts, LiveEvent::Stream { value });
    }
    LogEvent::at(None, LiveEvent::Unrecognised { value })
}

/// The event of a line an agent reads typed from its bytes, without a whole parse (the
/// classifier's lean parse only; `None`: the line is parsed and [`recognise`]d).
pub(crate) fn typed(line: &[u8], hints: Hints) -> Option<LogEvent> {
    use crate::gemini::typed::Fast;
    if let Some((fact, ts)) = crate::codex::fact::fast(line) {
        return Some(LogEvent::at(ts, LiveEvent::CodexFact { fact }));
    }
    if let Some(exec) = crate::codex::exec_line::fast(line) {
        return Some(LogEvent::at(None, LiveEvent::CodexExec { exec }));
    }
    let (line, ts) = crate::gemini::typed::fast(line, hints.gemini_history_seen)?;
    let event = match line {
        Fast::Message(record) => LiveEvent::GeminiRecord { record },
        Fast::Meta(meta) => LiveEvent::GeminiMeta { meta },
        Fast::Update(update) => LiveEvent::GeminiUpdate { update },
        Fast::Delta(text) => LiveEvent::GeminiDelta { text },
        Fast::Event(event) => LiveEvent::GeminiEvent { event },
    };
    Some(LogEvent::at(ts, event))
}

/// What the lines classified so far tell the lean parse of the next ([`crate::lean`]).
pub(crate) fn lean_hints(ctx: &ClassifyCtx) -> Hints {
    Hints {
        gemini_history_seen: ctx.gemini.history_seen(),
    }
}

/// The rows of one event on its own, by the agent whose it is. An agent run under a harness
/// leaves the turn rows to it ([`under_harness`]); Claude Code's and Qwen Code's own rules
/// say so for theirs.
pub(crate) fn rows(event: &LiveEvent, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    match event {
        LiveEvent::TurnStart { from, body } => crate::hyperhive::turn_start(from, body, ctx),
        LiveEvent::TurnEnd { ok, note } => crate::hyperhive::turn_end(*ok, note.as_deref(), ctx),
        LiveEvent::Note { text } => vec![crate::hyperhive::note(text)],
        LiveEvent::Stream { value } => crate::stream::classify_value(value, ctx),
        LiveEvent::Codex { value } => under_harness(crate::codex::classify(value, ctx), ctx),
        LiveEvent::CodexFact { fact } => under_harness(crate::codex::classify_fact(fact, ctx), ctx),
        LiveEvent::CodexExec { exec } => under_harness(crate::codex::classify_exec(exec, ctx), ctx),
        LiveEvent::Gemini { value } => under_harness(crate::gemini::classify(value, ctx), ctx),
        LiveEvent::GeminiRecord { record } => {
            under_harness(crate::gemini::classify_record(record, ctx), ctx)
        }
        LiveEvent::GeminiMeta { meta } => {
            under_harness(crate::gemini::classify_meta(meta, ctx), ctx)
        }
        LiveEvent::GeminiUpdate { update } => {
            under_harness(crate::gemini::classify_update(update, ctx), ctx)
        }
        LiveEvent::GeminiEvent { event } => {
            under_harness(crate::gemini::classify_event(event, ctx), ctx)
        }
        LiveEvent::GeminiDelta { text } => {
            under_harness(crate::gemini::classify_delta(text, ctx), ctx)
        }
        LiveEvent::OpenCode { value } => under_harness(crate::opencode::classify(value, ctx), ctx),
        LiveEvent::Qwen { value } => crate::qwen::classify(value, ctx),
        LiveEvent::Copilot { value } => under_harness(crate::copilot::classify(value, ctx), ctx),
        LiveEvent::StatusChanged { .. }
        | LiveEvent::ModelChanged { .. }
        | LiveEvent::EffortChanged { .. }
        | LiveEvent::TokenUsageChanged { .. }
        | LiveEvent::TurnStateChanged { .. } => Vec::new(),
        LiveEvent::Unrecognised { value } => vec![crate::stream::unrecognised(value)],
        LiveEvent::Unreadable { error, preview, .. } => vec![
            TermMsg::new(Level::Error, format!("unreadable line · {error}"))
                .icon(crate::kind::icon::ERROR)
                .body(preview.clone()),
        ],
    }
}
