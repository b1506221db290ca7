//! The report for a human: the summaries side by side, then the aligned steps around each
//! divergence shown.

use std::fmt::Write as _;

use classifier::compare::Alignment;
use classifier::{Summary, duration};

use hiveterm::compare::Side;
use hiveterm::compare::report::Shown;
use hiveterm::compare::report::{Pair, StepJson, report};

/// Widest cell of the text's columns, in characters.
const CELL: usize = 42;

fn cell(s: &str) -> String {
    let mut c: String = s.chars().take(CELL).collect();
    if s.chars().count() > CELL {
        c.pop();
        c.push('…');
    }
    format!("{c:<CELL$}")
}

pub(super) fn text(a: &Side, b: &Side, aligned: &Alignment, how: Shown) -> String {
    let rep = report(a, b, aligned, how);
    let diffs = &rep.head.differences;
    let mut out = String::new();
    let row = |out: &mut String, what: &str, x: String, y: String, delta: String| {
        let _ = writeln!(out, "{what:<15} {} {} {delta}", cell(&x), cell(&y));
    };
    row(&mut out, "", "A".into(), "B".into(), "B − A".into());
    row(
        &mut out,
        "run",
        a.name.clone(),
        b.name.clone(),
        String::new(),
    );
    let agent = |sum: &Summary| sum.agent.clone().unwrap_or_else(|| "unknown".into());
    row(
        &mut out,
        "agent",
        agent(&a.summary),
        agent(&b.summary),
        String::new(),
    );
    let turns = |sum: &Summary| {
        format!(
            "{} ({} ok, {} failed, {} interrupted)",
            sum.turns, sum.turns_ok, sum.turns_failed, sum.turns_interrupted
        )
    };
    row(
        &mut out,
        "turns",
        turns(&a.summary),
        turns(&b.summary),
        delta(&diffs.turns),
    );
    for (what, pair) in [
        ("tool calls", &diffs.tool_calls),
        ("tool errors", &diffs.tool_errors),
        ("errors", &diffs.errors),
        ("input tokens", &diffs.input_tokens),
        ("output tokens", &diffs.output_tokens),
    ] {
        row(
            &mut out,
            what,
            pair.a.to_string(),
            pair.b.to_string(),
            delta(pair),
        );
    }
    // An estimate (issue 50) is marked as one.
    let cost = |usd: Option<f64>, source| match usd {
        None => "unknown".into(),
        Some(usd) if source == Some(classifier::CostSource::Estimated) => {
            format!("≈ ${usd:.4} est.")
        }
        Some(usd) => format!("${usd:.4}"),
    };
    row(
        &mut out,
        "cost",
        cost(diffs.cost_usd.a, diffs.cost_source.a),
        cost(diffs.cost_usd.b, diffs.cost_source.b),
        String::new(),
    );
    let secs = |took: Option<f64>| took.map_or("unknown".into(), duration);
    row(
        &mut out,
        "duration",
        secs(diffs.duration_s.a),
        secs(diffs.duration_s.b),
        String::new(),
    );
    for (what, sets) in [
        ("models", &diffs.models),
        ("files changed", &diffs.files_changed),
    ] {
        let side = |only: &[String]| {
            let mut said = format!("{} only here", only.len());
            if let Some(first) = only.first() {
                let _ = write!(
                    said,
                    " ({first}{})",
                    if only.len() > 1 { ", …" } else { "" }
                );
            }
            said
        };
        row(
            &mut out,
            what,
            side(&sets.only_a),
            side(&sets.only_b),
            format!("{} in both", sets.both.len()),
        );
    }
    out.push('\n');
    match &rep.head.first_divergence {
        None => out.push_str("no divergence: the same steps with the same outcomes\n"),
        Some(first) => {
            let seq = |at: Option<u64>| at.map_or("-".into(), |at| format!("#{at}"));
            let _ = writeln!(
                out,
                "first divergence: turn {}, A {} / B {}: {} ({} in all)",
                first.turn,
                seq(first.a),
                seq(first.b),
                first.why.replace('_', " "),
                rep.head.divergences
            );
        }
    }
    let mut last: Option<(usize, usize)> = None;
    for step in &rep.steps {
        if last.is_none_or(|(turn, _)| turn != step.turn) {
            let _ = writeln!(out, "\nturn {}", step.turn);
        } else if last.is_some_and(|(_, pair)| pair + 1 != step.pair) {
            out.push_str("   ⋮\n");
        }
        last = Some((step.turn, step.pair));
        let show = |side: &Option<StepJson>| match side {
            None => cell("—"),
            Some(st) => {
                let what = match (&st.tool, st.kind.as_str()) {
                    (Some(t), _) => format!("{t} {}", st.target),
                    (None, "error") => format!("error: {}", st.target),
                    (None, "end") => "turn end".to_owned(),
                    (None, k) => k.to_owned(),
                };
                let mark = st.mark();
                cell(&format!("#{} {mark} {what}", st.seq))
            }
        };
        let mark = if step.why.is_some() { ">" } else { " " };
        let _ = writeln!(out, "{mark} {} {}", show(&step.a), show(&step.b).trim_end());
    }
    out
}

fn delta(p: &Pair<u64>) -> String {
    match p.b.cmp(&p.a) {
        std::cmp::Ordering::Equal => String::new(),
        std::cmp::Ordering::Greater => format!("+{}", p.b - p.a),
        std::cmp::Ordering::Less => format!("-{}", p.a - p.b),
    }
}
