//! `hiveterm diff --json`'s object: the summaries, their differences, the first divergence
//! ([`Head`], which the compare API's answer holds too) and the aligned steps around the
//! divergences shown; an aligned pair as JSON ([`step_pair`]).

use std::collections::{BTreeSet, HashMap};

use classifier::Summary;
use classifier::compare::{Alignment, Divergence, Step, StepKind};

use super::Side;

/// How much of the aligned steps the report shows.
#[derive(Clone, Copy)]
pub struct Shown {
    /// Divergences shown with their steps (all are counted).
    pub most: usize,
    /// Aligned steps shown before and after each.
    pub context: usize,
}

/// The answers' types: the contract's.
pub use contract::compare::{
    Differences, Divergence as DivergenceJson, Head, Pair, Report, Sets, Step as StepJson, StepPair,
};

/// Names in only one run, and in both, of `a` and `b`.
trait SetsOf {
    fn of(a: &[String], b: &[String]) -> Sets;
}

impl SetsOf for Sets {
    fn of(a: &[String], b: &[String]) -> Sets {
        let (sa, sb): (BTreeSet<&String>, BTreeSet<&String>) =
            (a.iter().collect(), b.iter().collect());
        let only = |x: &[String], other: &BTreeSet<&String>| {
            x.iter().filter(|n| !other.contains(n)).cloned().collect()
        };
        Sets {
            only_a: only(a, &sb),
            only_b: only(b, &sa),
            both: a.iter().filter(|n| sb.contains(n)).cloned().collect(),
        }
    }
}

fn step_json(side: &Side, s: &Step) -> StepJson {
    let (kind, tool) = match &s.kind {
        StepKind::Tool(t) => ("tool", Some(t.clone())),
        StepKind::Answer => ("answer", None),
        StepKind::Error => ("error", None),
        StepKind::End => ("end", None),
    };
    StepJson {
        seq: side.seq(s.seq),
        kind: kind.to_owned(),
        tool,
        target: s.target.clone(),
        outcome: s.outcome.name().to_owned(),
    }
}

fn differences(a: &Summary, b: &Summary) -> Differences {
    let p = |f: fn(&Summary) -> u64| Pair { a: f(a), b: f(b) };
    Differences {
        turns: p(|s| s.turns),
        turns_ok: p(|s| s.turns_ok),
        turns_failed: p(|s| s.turns_failed),
        tool_calls: p(Summary::tool_calls_total),
        tool_errors: p(|s| s.tool_errors),
        errors: p(|s| s.errors),
        input_tokens: p(|s| s.input_tokens),
        output_tokens: p(|s| s.output_tokens),
        cost_usd: Pair {
            a: a.cost_usd,
            b: b.cost_usd,
        },
        cost_source: Pair {
            a: a.cost_source,
            b: b.cost_source,
        },
        duration_s: Pair {
            a: a.duration_s,
            b: b.duration_s,
        },
        models: Sets::of(&a.models, &b.models),
        files_changed: Sets::of(&a.files_changed, &b.files_changed),
    }
}

/// Each shown divergence's pair with `context` pairs either side (each pair once), in order.
fn around(aligned: &Alignment, shown: &[Divergence], context: usize) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for d in shown {
        let pairs = aligned.turns[d.turn].pairs.len();
        let from = d.pair.saturating_sub(context);
        let to = (d.pair + context + 1).min(pairs);
        for p in from..to {
            if out.last().is_none_or(|&last| last < (d.turn, p)) {
                out.push((d.turn, p));
            }
        }
    }
    out
}

fn seq_of(side: &Side, line: Option<u64>) -> Option<u64> {
    line.map(|l| side.seq(l))
}

/// The first divergence as JSON: its seqs in the runs, its turn (from 1), why.
pub fn divergence_json(a: &Side, b: &Side, d: &Divergence) -> DivergenceJson {
    DivergenceJson {
        pair: None,
        a: seq_of(a, d.a),
        b: seq_of(b, d.b),
        turn: d.turn + 1,
        why: d.why.name().to_owned(),
    }
}

/// The head of both answers, `all` being every divergence.
pub fn head(a: &Side, b: &Side, all: &[Divergence]) -> Head {
    Head {
        a: a.name.clone(),
        b: b.name.clone(),
        first_divergence: all.first().map(|d| divergence_json(a, b, d)),
        divergences: all.len(),
        summary: Pair {
            a: a.summary.clone(),
            b: b.summary.clone(),
        },
        differences: differences(&a.summary, &b.summary),
    }
}

/// Aligned pair `p` of turn pair `t`, as JSON.
pub fn step_pair(
    a: &Side,
    b: &Side,
    aligned: &Alignment,
    (t, p): (usize, usize),
    why: Option<&'static str>,
) -> StepPair {
    let tp = &aligned.turns[t];
    let pair = tp.pairs[p];
    let step = |side: &Side, turn: Option<usize>, i: Option<usize>| {
        Some(step_json(side, &side.run.turns[turn?].steps[i?]))
    };
    StepPair {
        turn: t + 1,
        pair: p,
        a: step(a, tp.a, pair.a),
        b: step(b, tp.b, pair.b),
        why: why.map(str::to_owned),
    }
}

/// `--json`'s object: the head, and the aligned steps around the first `how.most`
/// divergences.
pub fn report(a: &Side, b: &Side, aligned: &Alignment, how: Shown) -> Report {
    let all: Vec<Divergence> = aligned.divergences(&a.run, &b.run).collect();
    let shown = &all[..all.len().min(how.most)];
    let whys: HashMap<(usize, usize), &'static str> = shown
        .iter()
        .map(|d| ((d.turn, d.pair), d.why.name()))
        .collect();
    let steps = around(aligned, shown, how.context)
        .into_iter()
        .map(|at| step_pair(a, b, aligned, at, whys.get(&at).copied()))
        .collect();
    Report {
        head: head(a, b, &all),
        steps,
    }
}
