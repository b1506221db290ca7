//! The compare page's pure parts (`/compare/{a}/{b}`, issue 48): the API's answer typed
//! (`GET /api/compare/{a}/{b}`, docs/API.md), the summary table's lines, how a step reads, and
//! the divergence stepping as a reducer ([`CompareNav`]: the first divergence selected on
//! open, `n`/`N` the next and previous). [`Picks`]: the two sessions picked in the index for
//! "compare".

use crate::model::fleet::{cost_text, duration_text, tokens_text};
use crate::model::summary::grouped;

#[cfg(test)]
mod tests;

/// The two session ids of a compare page's path (`/compare/A/B`), if it is one.
pub fn route(path: &str) -> Option<(String, String)> {
    let rest = path.strip_prefix("/compare/")?;
    let mut parts = rest.trim_end_matches('/').split('/');
    let (a, b) = (parts.next()?, parts.next()?);
    (parts.next().is_none() && !a.is_empty() && !b.is_empty()).then(|| (a.to_owned(), b.to_owned()))
}

/// The compare page of two sessions.
pub fn page_url(a: &str, b: &str) -> String {
    format!("/compare/{a}/{b}")
}

/// The API's answer for two sessions.
pub fn api_url(a: &str, b: &str) -> String {
    format!("/api/compare/{a}/{b}")
}

/// The index with session `id` picked for "compare" (a session page's "compare with…").
pub fn pick_url(id: &str) -> String {
    format!("/?compare={id}")
}

/// A step's row in its session's page (the page's `#seq` permalink).
pub fn step_link(session: &str, seq: u64) -> String {
    format!("/s/{session}#{seq}")
}

/// The API's answer and its parts: the contract's (`GET /api/compare/{a}/{b}`).
pub use contract::compare::{
    Comparison, Differences, Divergence as At, Pair, Sets, Step, StepPair, TurnPair as TurnJson,
    TurnSide,
};

/// How a comparison reads on the page.
pub trait SummaryLines {
    /// The summary table: each line's label, A's, B's, and their difference (`B − A` for
    /// counts, empty when the same).
    fn summary_lines(&self) -> Vec<[String; 4]>;
}

impl SummaryLines for Comparison {
    fn summary_lines(&self) -> Vec<[String; 4]> {
        let d = &self.differences;
        let count = |label: &str, p: &Pair<u64>| {
            [
                label.to_owned(),
                grouped(p.a),
                grouped(p.b),
                signed(p.b as i128 - p.a as i128),
            ]
        };
        let tokens = Pair {
            a: d.input_tokens.a + d.output_tokens.a,
            b: d.input_tokens.b + d.output_tokens.b,
        };
        let files = &d.files_changed;
        let models = &d.models;
        let differs = |x: &str, y: &str| if x == y { "" } else { "≠" }.to_owned();
        let estimated =
            |s: &Option<classifier::CostSource>| *s == Some(classifier::CostSource::Estimated);
        let cost = [
            cost_text(d.cost_usd.a, estimated(&d.cost_source.a)),
            cost_text(d.cost_usd.b, estimated(&d.cost_source.b)),
        ];
        let time = [duration_text(d.duration_s.a), duration_text(d.duration_s.b)];
        let joined = |own: &[String]| {
            let mut all: Vec<&str> = models.both.iter().map(String::as_str).collect();
            all.extend(own.iter().map(String::as_str));
            if all.is_empty() {
                "—".to_owned()
            } else {
                all.join(", ")
            }
        };
        let (ma, mb) = (joined(&models.only_a), joined(&models.only_b));
        vec![
            count("turns", &d.turns),
            count("tool calls", &d.tool_calls),
            count("tool errors", &d.tool_errors),
            count("errors", &d.errors),
            [
                "files changed".to_owned(),
                format!("{} only in A", files.only_a.len()),
                format!("{} only in B", files.only_b.len()),
                format!("{} in both", files.both.len()),
            ],
            [
                "tokens".to_owned(),
                tokens_text(tokens.a),
                tokens_text(tokens.b),
                signed(tokens.b as i128 - tokens.a as i128),
            ],
            [
                "cost".to_owned(),
                cost[0].clone(),
                cost[1].clone(),
                differs(&cost[0], &cost[1]),
            ],
            [
                "duration".to_owned(),
                time[0].clone(),
                time[1].clone(),
                differs(&time[0], &time[1]),
            ],
            [
                "models".to_owned(),
                ma.clone(),
                mb.clone(),
                differs(&ma, &mb),
            ],
        ]
    }
}

/// A difference, signed; empty for none.
fn signed(d: i128) -> String {
    match d {
        0 => String::new(),
        d if d > 0 => format!("+{}", grouped(d as u64)),
        d => format!("−{}", grouped(d.unsigned_abs() as u64)),
    }
}

/// Where the reader is among the divergences: a reducer. Opened on the first; `n` the
/// next, `N` the previous (each stops at the ends).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompareNav {
    /// The divergences' pair indexes, in order.
    pairs: Vec<usize>,
    /// The selected one (an index into `pairs`).
    current: Option<usize>,
}

/// A move among the divergences.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// `n`.
    Next,
    /// `N`.
    Prev,
}

impl CompareNav {
    /// Opened on a comparison's divergences: the first selected (none when none).
    pub fn open(c: &Comparison) -> CompareNav {
        let pairs: Vec<usize> = c.divergence_list.iter().filter_map(|d| d.pair).collect();
        let current = (!pairs.is_empty()).then_some(0);
        CompareNav { pairs, current }
    }

    /// The key's move (`n`, `N`), if it is one.
    pub fn key(key: &str) -> Option<Move> {
        match key {
            "n" => Some(Move::Next),
            "N" => Some(Move::Prev),
            _ => None,
        }
    }

    /// After a move; whether the selection changed.
    pub fn step(&mut self, to: Move) -> bool {
        let Some(i) = self.current else {
            return false;
        };
        let next = match to {
            Move::Next => (i + 1).min(self.pairs.len() - 1),
            Move::Prev => i.saturating_sub(1),
        };
        self.current = Some(next);
        next != i
    }

    /// Selects the divergence at pair `pair`, if it is one (a click).
    pub fn select(&mut self, pair: usize) {
        if let Some(i) = self.pairs.iter().position(|&p| p == pair) {
            self.current = Some(i);
        }
    }

    /// The selected divergence's pair index.
    pub fn selected(&self) -> Option<usize> {
        self.pairs.get(self.current?).copied()
    }

    /// `k of N` for the bar: the selected divergence (from 1) and how many are listed.
    pub fn position(&self) -> Option<(usize, usize)> {
        Some((self.current? + 1, self.pairs.len()))
    }
}

/// The sessions picked in the index to compare: at most two, the oldest pick dropped for a
/// third.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Picks(Vec<String>);

impl Picks {
    /// The picks a page's query string (`?compare=ID`, [`pick_url`]) starts with.
    pub fn of_query(search: &str) -> Picks {
        let id = search
            .trim_start_matches('?')
            .split('&')
            .find_map(|kv| kv.strip_prefix("compare="))
            .filter(|id| !id.is_empty());
        Picks(id.into_iter().map(str::to_owned).collect())
    }

    /// Picks `id`, or unpicks it if picked.
    pub fn toggle(&mut self, id: &str) {
        if let Some(i) = self.0.iter().position(|p| p == id) {
            self.0.remove(i);
        } else {
            if self.0.len() == 2 {
                self.0.remove(0);
            }
            self.0.push(id.to_owned());
        }
    }

    /// Whether `id` is picked.
    pub fn has(&self, id: &str) -> bool {
        self.0.iter().any(|p| p == id)
    }

    /// How many are picked.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The compare page of the two picked, in the order picked.
    pub fn url(&self) -> Option<String> {
        match self.0.as_slice() {
            [a, b] => Some(page_url(a, b)),
            _ => None,
        }
    }
}
