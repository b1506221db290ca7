//! `hiveterm diff --json`'s object: the summaries, their differences, the first divergence
//! ([`Head`], which the compare API's answer holds too) and the aligned steps around the
//! divergences shown; an aligned pair as JSON ([`step_pair`]).

use std::collections::{BTreeSet, HashMap};

use classifier::Summary;
use classifier::compare::{Alignment, Divergence, Step, StepKind};
use serde::Serialize;

use super::Side;

/// How much of the aligned steps the report shows.
#[derive(Clone, Copy)]
pub struct Shown {
    /// Divergences shown with their steps (all are counted).
    pub most: usize,
    /// Aligned steps shown before and after each.
    pub context: usize,
}

/// `--json`'s object.
#[derive(Serialize)]
pub struct Report<'a> {
    /// The runs, their summaries, the first divergence.
    #[serde(flatten)]
    pub head: Head<'a>,
    /// The aligned steps around the first `--most` divergences.
    pub steps: Vec<StepPair>,
}

/// What both answers open with: the runs' names, the first divergence, how many, the
/// summaries and their differences.
#[derive(Serialize)]
pub struct Head<'a> {
    a: &'a str,
    b: &'a str,
    /// `null` when the runs take the same steps with the same outcomes.
    pub first_divergence: Option<DivergenceJson>,
    /// How many aligned pairs differ.
    pub divergences: usize,
    summary: Pair<&'a Summary>,
    /// The summaries' figures side by side.
    pub differences: Differences,
}

#[derive(Serialize)]
pub struct Pair<T> {
    pub a: T,
    pub b: T,
}

#[derive(Serialize)]
pub struct DivergenceJson {
    pub a: Option<u64>,
    pub b: Option<u64>,
    /// The turn, from 1.
    pub turn: usize,
    pub why: &'static str,
}

#[derive(Serialize)]
pub struct Differences {
    pub turns: Pair<u64>,
    pub turns_ok: Pair<u64>,
    pub turns_failed: Pair<u64>,
    pub tool_calls: Pair<u64>,
    pub tool_errors: Pair<u64>,
    pub errors: Pair<u64>,
    pub input_tokens: Pair<u64>,
    pub output_tokens: Pair<u64>,
    pub cost_usd: Pair<Option<f64>>,
    /// Where each side's cost comes from (issue 50: `stated`, `estimated`, `unknown`).
    pub cost_source: Pair<Option<classifier::CostSource>>,
    pub duration_s: Pair<Option<f64>>,
    pub models: Sets,
    pub files_changed: Sets,
}

/// Names in only one run, and in both.
#[derive(Serialize)]
pub struct Sets {
    pub only_a: Vec<String>,
    pub only_b: Vec<String>,
    pub both: Vec<String>,
}

impl Sets {
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

#[derive(Serialize)]
pub struct StepPair {
    /// The turn, from 1.
    pub turn: usize,
    /// Its place among the turn's aligned pairs (the text marks a gap between two not next to
    /// each other).
    #[serde(skip)]
    pub pair: usize,
    /// A's step, or a gap.
    pub a: Option<StepJson>,
    /// B's step, or a gap.
    pub b: Option<StepJson>,
    /// How the pair differs; `null` when it does not.
    pub why: Option<&'static str>,
}

#[derive(Serialize)]
pub struct StepJson {
    pub seq: u64,
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    pub target: String,
    pub outcome: &'static str,
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
        kind,
        tool,
        target: s.target.clone(),
        outcome: s.outcome.name(),
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
        a: seq_of(a, d.a),
        b: seq_of(b, d.b),
        turn: d.turn + 1,
        why: d.why.name(),
    }
}

/// The head of both answers, `all` being every divergence.
pub fn head<'a>(a: &'a Side, b: &'a Side, all: &[Divergence]) -> Head<'a> {
    Head {
        a: &a.name,
        b: &b.name,
        first_divergence: all.first().map(|d| divergence_json(a, b, d)),
        divergences: all.len(),
        summary: Pair {
            a: &a.summary,
            b: &b.summary,
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
        why,
    }
}

/// `--json`'s object: the head, and the aligned steps around the first `how.most`
/// divergences.
pub fn report<'a>(a: &'a Side, b: &'a Side, aligned: &Alignment, how: Shown) -> Report<'a> {
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
