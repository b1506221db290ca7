//! The compare page's pure parts (`/compare/{a}/{b}`, issue 48): the API's answer typed
//! (`GET /api/compare/{a}/{b}`, docs/API.md), the summary table's lines, how a step reads, and
//! the divergence stepping as a reducer ([`CompareNav`]: the first divergence selected on
//! open, `n`/`N` the next and previous). [`Picks`]: the two sessions picked in the index for
//! "compare".

use serde::Deserialize;

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

/// Two figures, A's and B's.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Pair<T> {
    /// A's.
    pub a: T,
    /// B's.
    pub b: T,
}

/// Names in only one run, and in both.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Sets {
    /// Only in A.
    #[serde(default)]
    pub only_a: Vec<String>,
    /// Only in B.
    #[serde(default)]
    pub only_b: Vec<String>,
    /// In both.
    #[serde(default)]
    pub both: Vec<String>,
}

/// The summaries' figures side by side.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Differences {
    /// Turns.
    pub turns: Pair<u64>,
    /// Tool calls.
    pub tool_calls: Pair<u64>,
    /// Tool calls that failed.
    pub tool_errors: Pair<u64>,
    /// Error rows.
    pub errors: Pair<u64>,
    /// Input tokens.
    pub input_tokens: Pair<u64>,
    /// Output tokens.
    pub output_tokens: Pair<u64>,
    /// Cost in dollars, when known.
    pub cost_usd: Pair<Option<f64>>,
    /// Where each cost comes from: `stated`, `estimated`, `unknown` (issue 50).
    pub cost_source: Pair<Option<String>>,
    /// Duration in seconds, when known.
    pub duration_s: Pair<Option<f64>>,
    /// Models used.
    pub models: Sets,
    /// Files changed.
    pub files_changed: Sets,
}

/// One side's step.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Step {
    /// The session's seq of its row.
    pub seq: u64,
    /// `tool`, `answer`, `error`, `end`.
    pub kind: String,
    /// A tool call's tool.
    #[serde(default)]
    pub tool: Option<String>,
    /// What it acted on.
    #[serde(default)]
    pub target: String,
    /// `ok`, `failed`, `interrupted`, `unknown`.
    pub outcome: String,
}

impl Step {
    /// What the step reads as: the tool and its target, `answer`, `error: …`, `turn ends`.
    pub fn text(&self) -> String {
        match self.kind.as_str() {
            "tool" => {
                let tool = self.tool.as_deref().unwrap_or("tool");
                if self.target.is_empty() {
                    tool.to_owned()
                } else {
                    format!("{tool} {}", self.target)
                }
            }
            "answer" => "answer".to_owned(),
            "error" => format!("error: {}", self.target),
            "end" => "turn ends".to_owned(),
            other => other.to_owned(),
        }
    }

    /// Its outcome's mark: `✓`, `✗`, `⏹`, `?`.
    pub fn mark(&self) -> &'static str {
        match self.outcome.as_str() {
            "ok" => "✓",
            "failed" => "✗",
            "interrupted" => "⏹",
            _ => "?",
        }
    }
}

/// One aligned pair.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct StepPair {
    /// Its turn, from 1.
    pub turn: usize,
    /// A's step, or a gap.
    pub a: Option<Step>,
    /// B's step, or a gap.
    pub b: Option<Step>,
    /// How it differs (`only_a`, `only_b`, `target`, `outcome`), if it does.
    pub why: Option<String>,
}

/// One side of a turn.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct TurnSide {
    /// Its turn-start row's seq.
    pub seq: Option<u64>,
    /// Its prompt's first line.
    #[serde(default)]
    pub prompt: String,
}

/// One turn pair.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct TurnJson {
    /// From 1.
    pub turn: usize,
    /// Its first pair's index in the pairs.
    pub from: usize,
    /// A's turn, or a gap.
    pub a: Option<TurnSide>,
    /// B's.
    pub b: Option<TurnSide>,
}

/// Where two runs first part, or a listed divergence.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct At {
    /// Its index in the pairs (listed divergences only).
    #[serde(default)]
    pub pair: usize,
    /// A's seq.
    pub a: Option<u64>,
    /// B's seq.
    pub b: Option<u64>,
    /// Its turn, from 1.
    pub turn: usize,
    /// Why.
    pub why: String,
}

/// `GET /api/compare/{a}/{b}`'s answer (what the page reads of it).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Comparison {
    /// A's id.
    pub a: String,
    /// B's id.
    pub b: String,
    /// The first divergence, if any.
    pub first_divergence: Option<At>,
    /// How many pairs differ.
    pub divergences: usize,
    /// The summaries' figures.
    pub differences: Differences,
    /// The turns.
    pub turns: Vec<TurnJson>,
    /// Every aligned pair (up to the server's cap).
    pub pairs: Vec<StepPair>,
    /// The divergences within `pairs`.
    pub divergence_list: Vec<At>,
    /// Pairs in all.
    pub pairs_total: usize,
    /// Whether `pairs` stops short.
    pub truncated: bool,
}

impl Comparison {
    /// The summary table: each line's label, A's, B's, and their difference (`B − A` for
    /// counts, empty when the same).
    pub fn summary_lines(&self) -> Vec<[String; 4]> {
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
        let estimated = |s: &Option<String>| s.as_deref() == Some("estimated");
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

    /// The turn whose first pair is `pair`, if one starts there.
    pub fn turn_at(&self, pair: usize) -> Option<&TurnJson> {
        self.turns.iter().find(|t| t.from == pair)
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
        let pairs: Vec<usize> = c.divergence_list.iter().map(|d| d.pair).collect();
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
