//! An OpenCode log's state between lines ([`State`]: where it is in its turn) and a turn's
//! figures ([`Figures`]). Depends on no classifier module but the text helpers, so the context
//! can hold it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::field::Field;
use crate::text::push_u64;

/// Longest session id kept.
pub(crate) const MAX_ID_BYTES: usize = 128;

/// An OpenCode log's state, kept in the [`ClassifyCtx`](crate::ClassifyCtx).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct State {
    /// A turn is open: started, not ended.
    pub(crate) open: bool,
    /// A step started and has not finished.
    pub(crate) step: bool,
    /// The open turn's session id (none when longer than [`MAX_ID_BYTES`]).
    pub(crate) session: String,
    /// When the open turn began, unix milliseconds.
    pub(crate) since: Option<u64>,
    /// The open turn's figures so far.
    pub(crate) fig: Figures,
    /// The session whose export row was shown last (the server stores an OpenCode store's
    /// session a message at a time, each line an export of one message: shown once).
    pub(crate) shown: String,
}

impl State {
    /// The end of a turn: nothing of it kept, but the session shown.
    pub(crate) fn reset(&mut self) {
        let shown = std::mem::take(&mut self.shown);
        *self = State {
            shown,
            ..State::default()
        };
    }

    /// Whether nothing is kept (a log that is not OpenCode's).
    pub(crate) fn is_empty(&self) -> bool {
        *self == State::default()
    }
}

/// A turn's figures: its steps' tokens and cost, its steps and tool calls.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Figures {
    pub(crate) input: u64,
    pub(crate) output: u64,
    pub(crate) reasoning: u64,
    pub(crate) cache_read: u64,
    pub(crate) cache_write: u64,
    /// The cost stated, in billionths of a dollar; `None` when no step stated one.
    pub(crate) cost_nanos: Option<u64>,
    pub(crate) steps: u64,
    pub(crate) calls: u64,
}

impl Figures {
    /// A `step-finish` part's `tokens` and `cost`.
    pub(crate) fn of_step(part: &Value) -> Figures {
        let t = part.field("tokens");
        let n = |v: Option<&Value>| v.and_then(Value::as_u64).unwrap_or(0);
        let cache = t.field("cache");
        Figures {
            input: n(t.field("input")),
            output: n(t.field("output")),
            reasoning: n(t.field("reasoning")),
            cache_read: n(cache.field("read")),
            cache_write: n(cache.field("write")),
            cost_nanos: part
                .field("cost")
                .and_then(Value::as_f64)
                .filter(|c| c.is_finite() && *c >= 0.0)
                .map(|c| (c * 1e9).round() as u64),
            steps: 1,
            calls: 0,
        }
    }

    pub(crate) fn add(&mut self, o: &Figures) {
        self.input += o.input;
        self.output += o.output;
        self.reasoning += o.reasoning;
        self.cache_read += o.cache_read;
        self.cache_write += o.cache_write;
        if let Some(c) = o.cost_nanos {
            self.cost_nanos = Some(self.cost_nanos.unwrap_or(0) + c);
        }
        self.steps += o.steps;
        self.calls += o.calls;
    }

    /// The turn end's body: `tokens N in · N out (N reasoning) · N cache read · N cache
    /// write`, `cost $X`, `steps N · tool calls N`.
    pub(crate) fn body(&self) -> String {
        let mut out = String::with_capacity(128);
        let num = |out: &mut String, n: u64, what: &str| {
            push_u64(out, n);
            out.push_str(what);
        };
        out.push_str("tokens ");
        num(&mut out, self.input, " in · ");
        num(&mut out, self.output, " out");
        if self.reasoning > 0 {
            out.push_str(" (");
            num(&mut out, self.reasoning, " reasoning)");
        }
        if self.cache_read > 0 {
            out.push_str(" · ");
            num(&mut out, self.cache_read, " cache read");
        }
        if self.cache_write > 0 {
            out.push_str(" · ");
            num(&mut out, self.cache_write, " cache write");
        }
        if let Some(c) = self.cost_nanos {
            out.push_str(&format!("\ncost ${:.4}", c as f64 / 1e9));
        }
        out.push_str("\nsteps ");
        push_u64(&mut out, self.steps);
        out.push_str(" · tool calls ");
        push_u64(&mut out, self.calls);
        out
    }
}
