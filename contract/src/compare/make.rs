//! The answers made from two runs (issue 48), pure so that every place that compares makes
//! them the same way: `hiveterm diff --json` ([`report`]), `GET /api/compare/{a}/{b}` and
//! `hiveterm diff -o` ([`comparison`]), and the page's compare worker, which aligns two
//! dropped logs in the browser ([`comparison`] too). A run read is a [`Side`]: its name,
//! summary and steps (the classifier's [`classifier::compare`]); where it comes from (a log,
//! a stored session) is the caller's I/O.

use std::collections::{BTreeSet, HashMap};

use classifier::compare::{Alignment, Divergence, Run, RunFold, Step, StepKind, align};
use classifier::{LogClassifier, Summary};

use super::{
    Comparison, Differences, Divergence as DivergenceJson, Head, Pair, Report, Sets,
    Step as StepJson, StepPair, TurnPair as TurnJson, TurnSide,
};

/// Most aligned pairs one [`comparison`] holds (and divergences listed): the first ones, in
/// order.
pub const MAX_PAIRS: usize = 20_000;

/// One run read: its name, summary and steps; for a stored session, the session's seq of each
/// line of the log it was read as.
#[derive(Debug, Clone, Default)]
pub struct Side {
    /// A log's name or a session's id.
    pub name: String,
    /// Its postmortem summary (every file and tool, `SummaryFold::whole`).
    pub summary: Summary,
    /// Its turns of steps.
    pub run: Run,
    seqs: Option<Vec<u64>>,
}

impl Side {
    /// A log read: its steps numbered by its lines.
    pub fn of_log(name: String, summary: Summary, run: Run) -> Side {
        Side {
            name,
            summary,
            run,
            seqs: None,
        }
    }

    /// A stored session read as its log: `seqs[i]` the session's seq of the log's line `i + 1`.
    pub fn of_session(name: String, summary: Summary, run: Run, seqs: Vec<u64>) -> Side {
        Side {
            seqs: Some(seqs),
            ..Side::of_log(name, summary, run)
        }
    }

    /// The seq a user finds the step at: the log's line, or the session's seq.
    pub fn seq(&self, line: u64) -> u64 {
        self.seqs
            .as_ref()
            .and_then(|s| s.get((line as usize).wrapping_sub(1)).copied())
            .unwrap_or(line)
    }
}

/// A log read into a [`Side`] a chunk at a time, as `hiveterm diff` reads a log's path (one
/// file: its subagents' files beside it are the caller's): classified with its whole
/// summary, folded into its steps. The page's compare worker reads each dropped log with it.
pub struct LogReader {
    log: LogClassifier,
    fold: RunFold,
}

impl Default for LogReader {
    fn default() -> LogReader {
        LogReader::new()
    }
}

impl LogReader {
    /// A reader of one log (lines up to `classifier::MAX_LINE_BYTES`).
    pub fn new() -> LogReader {
        LogReader {
            log: LogClassifier::new().with_whole_summary(),
            fold: RunFold::new(),
        }
    }

    /// The log's next bytes.
    pub fn feed(&mut self, chunk: &[u8]) {
        let fold = &mut self.fold;
        self.log.feed(chunk, |env| fold.add(&env));
    }

    /// The log read, named `name`.
    pub fn finish(mut self, name: String) -> Side {
        let fold = &mut self.fold;
        self.log.finish(|env| fold.add(&env));
        Side::of_log(
            name,
            self.log.summary().unwrap_or_default(),
            self.fold.finish(),
        )
    }
}

/// How much of the aligned steps a [`report`] shows.
#[derive(Debug, Clone, Copy)]
pub struct Shown {
    /// Divergences shown with their steps (all are counted).
    pub most: usize,
    /// Aligned steps shown before and after each.
    pub context: usize,
}

/// Names in only one run, and in both, of `a` and `b`.
fn sets(a: &[String], b: &[String]) -> Sets {
    let (sa, sb): (BTreeSet<&String>, BTreeSet<&String>) = (a.iter().collect(), b.iter().collect());
    let only = |x: &[String], other: &BTreeSet<&String>| {
        x.iter().filter(|n| !other.contains(n)).cloned().collect()
    };
    Sets {
        only_a: only(a, &sb),
        only_b: only(b, &sa),
        both: a.iter().filter(|n| sb.contains(n)).cloned().collect(),
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
        models: sets(&a.models, &b.models),
        files_changed: sets(&a.files_changed, &b.files_changed),
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

/// A divergence as JSON: its seqs in the runs, its turn (from 1), why.
pub fn divergence_json(a: &Side, b: &Side, d: &Divergence) -> DivergenceJson {
    DivergenceJson {
        pair: None,
        a: d.a.map(|l| a.seq(l)),
        b: d.b.map(|l| b.seq(l)),
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

/// `hiveterm diff --json`'s object: the head, and the aligned steps around the first
/// `how.most` divergences.
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

/// The compare page's answer for two runs (`GET /api/compare/{a}/{b}`, a comparison's one
/// file, two logs compared in the browser): the head, then every turn and every aligned pair
/// up to [`MAX_PAIRS`], the divergences among them listed.
pub fn comparison(a: &Side, b: &Side) -> Comparison {
    let aligned = align(&a.run, &b.run);
    let all: Vec<Divergence> = aligned.divergences(&a.run, &b.run).collect();
    let mut turns = Vec::with_capacity(aligned.turns.len());
    let mut pairs = Vec::new();
    let mut index = Vec::with_capacity(aligned.turns.len());
    let mut total = 0;
    for (t, tp) in aligned.turns.iter().enumerate() {
        index.push(total);
        total += tp.pairs.len();
        turns.push(TurnJson {
            turn: t + 1,
            from: index[t].min(MAX_PAIRS),
            pairs: tp.pairs.len(),
            a: turn_side(a, tp.a),
            b: turn_side(b, tp.b),
        });
    }
    let mut whys = all.iter().peekable();
    'turns: for (t, tp) in aligned.turns.iter().enumerate() {
        for p in 0..tp.pairs.len() {
            if pairs.len() >= MAX_PAIRS {
                break 'turns;
            }
            let why = whys
                .next_if(|d| (d.turn, d.pair) == (t, p))
                .map(|d| d.why.name());
            pairs.push(step_pair(a, b, &aligned, (t, p), why));
        }
    }
    let divergence_list = all
        .iter()
        .map(|d| (index[d.turn] + d.pair, d))
        .take_while(|&(i, _)| i < pairs.len())
        .map(|(pair, d)| DivergenceJson {
            pair: Some(pair),
            ..divergence_json(a, b, d)
        })
        .collect();
    let truncated = pairs.len() < total;
    Comparison {
        divergence_list,
        pairs_total: total,
        truncated,
        max_pairs: MAX_PAIRS,
        ..Comparison::of(head(a, b, &all), turns, pairs)
    }
}

fn turn_side(s: &Side, i: Option<usize>) -> Option<TurnSide> {
    let turn = &s.run.turns[i?];
    Some(TurnSide {
        seq: turn.seq.map(|l| s.seq(l)),
        prompt: turn.prompt.clone(),
    })
}
