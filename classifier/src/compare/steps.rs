//! A log's envelopes → its [`Run`]: turns of steps.

use std::collections::VecDeque;

use crate::kind::{RowKind, row_kind, tool_of};
use crate::msg::{BodyFormat, Level, TermEnvelope, TermMsg};
use crate::text::truncate_chars;

/// Longest target (a command, a path, an error's summary) a step keeps, in characters.
pub const TARGET_CHARS: usize = 200;

/// What a step is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepKind {
    /// A tool call, by the tool's name as the classifier writes it for every agent (`Bash`,
    /// `Read`, `Edit`…).
    Tool(String),
    /// The model's answer text (its words are not compared).
    Answer,
    /// An error row no tool call's result explains (an API error, a refused request).
    Error,
    /// The turn's end; its [`Outcome`] says how it ended.
    End,
}

/// How a step ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// A tool call's good result; a turn that ended ok; an answer or error (nothing to end).
    Ok,
    /// A tool call whose result was an error; a failed turn.
    Failed,
    /// A turn the user stopped.
    Interrupted,
    /// A tool call whose result the log does not hold (yet).
    Unknown,
}

impl Outcome {
    /// Its name on the wire and in text: `ok`, `failed`, `interrupted`, `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Failed => "failed",
            Outcome::Interrupted => "interrupted",
            Outcome::Unknown => "unknown",
        }
    }
}

/// One step of a turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The seq of the envelope holding its row (as `hiveterm classify` numbers the log).
    pub seq: u64,
    /// What it is.
    pub kind: StepKind,
    /// What it acted on: a tool call's arguments as its row sums them up (its command, path
    /// or pattern), an error's summary; empty for an answer and a turn's end. At most
    /// [`TARGET_CHARS`] characters.
    pub target: String,
    /// How it ended.
    pub outcome: Outcome,
}

/// One turn: from a prompt (or the log's start) to its end.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Turn {
    /// The seq of its turn-start row; `None` for rows before any (or after an end without a
    /// new start).
    pub seq: Option<u64>,
    /// Its prompt's first line, cut to [`TARGET_CHARS`].
    pub prompt: String,
    /// Its steps in order, its end last when the log holds it.
    pub steps: Vec<Step>,
}

/// A log's turns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Run {
    /// In order.
    pub turns: Vec<Turn>,
}

impl Run {
    /// Every step, turn after turn.
    pub fn steps(&self) -> impl Iterator<Item = &Step> {
        self.turns.iter().flat_map(|t| &t.steps)
    }
}

/// Folds envelopes, in order, into a [`Run`]. It keeps a step per tool call, answer, error
/// and turn end (its target cut): a few hundred bytes a step, whatever the bodies.
#[derive(Debug, Default)]
pub struct RunFold {
    run: Run,
    /// The current turn's tool calls waiting for a result, oldest first (index into its steps).
    pending: VecDeque<usize>,
    /// The current turn has ended: the next step begins another.
    ended: bool,
    /// The coalesce key of the last answer row, while it is the last row.
    answer_key: Option<String>,
}

impl RunFold {
    /// An empty run.
    pub fn new() -> RunFold {
        RunFold::default()
    }

    /// The next envelope of the log.
    pub fn add(&mut self, env: &TermEnvelope) {
        if env.parent.is_some() {
            return;
        }
        let seq = env.seq.unwrap_or(0);
        for msg in &env.msgs {
            self.row(seq, msg);
        }
    }

    /// The run so far.
    pub fn run(&self) -> &Run {
        &self.run
    }

    /// The run.
    pub fn finish(self) -> Run {
        self.run
    }

    fn row(&mut self, seq: u64, msg: &TermMsg) {
        let key = std::mem::take(&mut self.answer_key);
        match row_kind(msg) {
            RowKind::TurnStart => {
                let prompt = msg
                    .body
                    .as_deref()
                    .unwrap_or("")
                    .lines()
                    .next()
                    .unwrap_or("");
                self.pending.clear();
                self.ended = false;
                self.run.turns.push(Turn {
                    seq: Some(seq),
                    prompt: cut(prompt),
                    steps: Vec::new(),
                });
            }
            RowKind::TurnOk => self.end(seq, Outcome::Ok),
            RowKind::TurnFail => self.end(seq, Outcome::Failed),
            RowKind::Interrupted => self.end(seq, Outcome::Interrupted),
            RowKind::ToolCall => {
                let tool = tool_of(msg).unwrap_or("").to_owned();
                let args = msg
                    .summary
                    .split_once(char::is_whitespace)
                    .map_or("", |x| x.1);
                let turn = self.turn();
                turn.steps.push(Step {
                    seq,
                    kind: StepKind::Tool(tool),
                    target: cut(args.trim()),
                    outcome: Outcome::Unknown,
                });
                let at = turn.steps.len() - 1;
                self.pending.push_back(at);
            }
            RowKind::ToolResult => {
                self.resolve(Outcome::Ok);
            }
            _ if msg.level == Level::Error => self.error(seq, msg),
            _ if is_answer(msg) => {
                let same = key.is_some() && key == msg.coalesce_key;
                let turn = self.turn();
                if !(same
                    && turn
                        .steps
                        .last()
                        .is_some_and(|s| s.kind == StepKind::Answer))
                {
                    turn.steps.push(Step {
                        seq,
                        kind: StepKind::Answer,
                        target: String::new(),
                        outcome: Outcome::Ok,
                    });
                }
                self.answer_key = msg.coalesce_key.clone();
            }
            _ => {}
        }
    }

    /// An error row: the oldest call waiting for a result failed, else a step of its own.
    fn error(&mut self, seq: u64, msg: &TermMsg) {
        if !self.resolve(Outcome::Failed) {
            let target = cut(&msg.summary);
            self.turn().steps.push(Step {
                seq,
                kind: StepKind::Error,
                target,
                outcome: Outcome::Ok,
            });
        }
    }

    /// The turn steps go into: the last, or a new one after an ended turn (or at the start).
    fn turn(&mut self) -> &mut Turn {
        if self.ended || self.run.turns.is_empty() {
            self.ended = false;
            self.pending.clear();
            self.run.turns.push(Turn::default());
        }
        let last = self.run.turns.len() - 1;
        &mut self.run.turns[last]
    }

    /// The oldest call waiting for a result ends so; whether there was one.
    fn resolve(&mut self, outcome: Outcome) -> bool {
        let Some(at) = self.pending.pop_front() else {
            return false;
        };
        if let Some(step) = self.run.turns.last_mut().and_then(|t| t.steps.get_mut(at)) {
            step.outcome = outcome;
        }
        true
    }

    fn end(&mut self, seq: u64, outcome: Outcome) {
        if self.ended {
            // A second end of the same turn (a `result` after an interruption): one step.
            return;
        }
        self.turn().steps.push(Step {
            seq,
            kind: StepKind::End,
            target: String::new(),
            outcome,
        });
        self.pending.clear();
        self.ended = true;
    }
}

/// The model's words: a flat markdown row (no icon, info).
fn is_answer(msg: &TermMsg) -> bool {
    msg.icon.is_none() && msg.level == Level::Info && msg.body_format == Some(BodyFormat::Markdown)
}

fn cut(s: &str) -> String {
    truncate_chars(s, TARGET_CHARS)
}
