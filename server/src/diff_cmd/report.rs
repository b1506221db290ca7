//! `--json`'s object: the summaries, their differences, the first divergence and the aligned
//! steps around the divergences shown.

use std::collections::{BTreeSet, HashMap};

use classifier::Summary;
use classifier::compare::{Alignment, Divergence, Step, StepKind};
use serde::Serialize;

use super::side::Side;

/// How much of the aligned steps the report shows.
#[derive(Clone, Copy)]
pub(super) struct Shown {
    /// Divergences shown with their steps (all are counted).
    pub(super) most: usize,
    /// Aligned steps shown before and after each.
    pub(super) context: usize,
}

/// `--json`'s object.
#[derive(Serialize)]
pub(super) struct Report<'a> {
    a: &'a str,
    b: &'a str,
    /// `null` when the runs take the same steps with the same outcomes.
    pub(super) first_divergence: Option<DivergenceJson>,
    pub(super) divergences: usize,
    summary: Pair<&'a Summary>,
    pub(super) differences: Differences,
    /// The aligned steps around the first `--most` divergences.
    pub(super) steps: Vec<StepPair>,
}

#[derive(Serialize)]
pub(super) struct Pair<T> {
    pub(super) a: T,
    pub(super) b: T,
}

#[derive(Serialize)]
pub(super) struct DivergenceJson {
    pub(super) a: Option<u64>,
    pub(super) b: Option<u64>,
    /// The turn, from 1.
    pub(super) turn: usize,
    pub(super) why: &'static str,
}

#[derive(Serialize)]
pub(super) struct Differences {
    pub(super) turns: Pair<u64>,
    pub(super) turns_ok: Pair<u64>,
    pub(super) turns_failed: Pair<u64>,
    pub(super) tool_calls: Pair<u64>,
    pub(super) tool_errors: Pair<u64>,
    pub(super) errors: Pair<u64>,
    pub(super) input_tokens: Pair<u64>,
    pub(super) output_tokens: Pair<u64>,
    pub(super) cost_usd: Pair<Option<f64>>,
    pub(super) duration_s: Pair<Option<f64>>,
    pub(super) models: Sets,
    pub(super) files_changed: Sets,
}

/// Names in only one run, and in both.
#[derive(Serialize)]
pub(super) struct Sets {
    pub(super) only_a: Vec<String>,
    pub(super) only_b: Vec<String>,
    pub(super) both: Vec<String>,
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
pub(super) struct StepPair {
    /// The turn, from 1.
    pub(super) turn: usize,
    /// Its place among the turn's aligned pairs (the text marks a gap between two not next to
    /// each other).
    #[serde(skip)]
    pub(super) pair: usize,
    pub(super) a: Option<StepJson>,
    pub(super) b: Option<StepJson>,
    /// How the pair differs; `null` when it does not.
    pub(super) why: Option<&'static str>,
}

#[derive(Serialize)]
pub(super) struct StepJson {
    pub(super) seq: u64,
    pub(super) kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) tool: Option<String>,
    pub(super) target: String,
    pub(super) outcome: &'static str,
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

pub(super) fn report<'a>(a: &'a Side, b: &'a Side, aligned: &Alignment, how: Shown) -> Report<'a> {
    let all: Vec<Divergence> = aligned.divergences(&a.run, &b.run).collect();
    let shown = &all[..all.len().min(how.most)];
    let whys: HashMap<(usize, usize), &'static str> = shown
        .iter()
        .map(|d| ((d.turn, d.pair), d.why.name()))
        .collect();
    let steps = around(aligned, shown, how.context)
        .into_iter()
        .map(|(t, p)| {
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
                why: whys.get(&(t, p)).copied(),
            }
        })
        .collect();
    Report {
        a: &a.name,
        b: &b.name,
        first_divergence: all.first().map(|d| DivergenceJson {
            a: seq_of(a, d.a),
            b: seq_of(b, d.b),
            turn: d.turn + 1,
            why: d.why.name(),
        }),
        divergences: all.len(),
        summary: Pair {
            a: &a.summary,
            b: &b.summary,
        },
        differences: differences(&a.summary, &b.summary),
        steps,
    }
}
