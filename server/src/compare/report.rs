//! `hiveterm diff --json`'s object: the summaries, their differences, the first divergence
//! ([`Head`], which the compare API's answer holds too) and the aligned steps around the
//! divergences shown; an aligned pair as JSON ([`step_pair`]). Made by the contract's pure
//! [`contract::compare::make`] (the page's compare worker makes its answer there too); named
//! here for the server's callers.

/// The answers' types: the contract's.
pub use contract::compare::{
    Differences, Divergence as DivergenceJson, Head, Pair, Report, Sets, Step as StepJson, StepPair,
};

/// What makes them: the contract's.
pub use contract::compare::make::{Shown, divergence_json, head, report, step_pair};
