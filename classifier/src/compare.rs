//! Two runs side by side (`hiveterm diff`, the compare page): each log's envelopes folded into
//! a [`Run`] (its turns, each a list of [`Step`]s: a tool call with what it acted on and how it
//! ended, an answer, an error, the turn's end), then two runs aligned turn by turn and, within
//! a turn, step by step ([`align`]): matching steps face each other, a step only one run took
//! faces a gap, and the first pair that differs in kind, target or outcome is the first
//! [`Divergence`].
//!
//! Steps are read from rows, not from any agent's lines, so two agents' runs of the same task
//! compare (the classifier already names their tools alike: `Bash`, `Read`, `Edit`…). A
//! subagent's rows (an envelope with a `parent`) are its call's business: the call is the step.
//!
//! Contents: `steps` (envelopes → [`Run`]), `align` (two runs → [`Alignment`] and its
//! divergences).

mod align;
mod steps;
#[cfg(test)]
mod tests;

pub use self::align::{
    Alignment, Divergence, MAX_CELLS, Pair, TurnPair, Why, align, align_steps, score,
};
pub use self::steps::{Outcome, Run, RunFold, Step, StepKind, TARGET_CHARS, Turn};
