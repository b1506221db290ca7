//! Two runs side by side: `GET /api/compare/{a}/{b}` ([`Comparison`], the compare page's)
//! and `hiveterm diff --json` ([`Report`]): the summaries, their differences
//! ([`Differences`]), the first divergence ([`Divergence`]) and the aligned steps
//! ([`StepPair`] of [`Step`]s). [`make`]: those answers made from two runs (pure: the
//! server's, `hiveterm diff`'s and the page's compare worker's one way).

use classifier::{CostSource, Summary};
use serde::{Deserialize, Serialize};

pub mod make;

/// Two values, A's and B's.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Pair<T> {
    /// A's.
    pub a: T,
    /// B's.
    pub b: T,
}

/// Names in only one run, and in both.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Sets {
    /// Only in A.
    pub only_a: Vec<String>,
    /// Only in B.
    pub only_b: Vec<String>,
    /// In both.
    pub both: Vec<String>,
}

/// The summaries' figures side by side.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Differences {
    /// Turns.
    pub turns: Pair<u64>,
    /// Turns that ended ok.
    pub turns_ok: Pair<u64>,
    /// Turns that failed.
    pub turns_failed: Pair<u64>,
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
    /// Cost in US dollars, when known.
    pub cost_usd: Pair<Option<f64>>,
    /// Where each cost comes from (issue 50).
    pub cost_source: Pair<Option<CostSource>>,
    /// Duration in seconds, when known.
    pub duration_s: Pair<Option<f64>>,
    /// Models used.
    pub models: Sets,
    /// Files changed.
    pub files_changed: Sets,
}

/// Where two runs part: the first divergence, or one of those listed (`pair` set).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Divergence {
    /// Its index in the answer's `pairs` (listed divergences only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair: Option<usize>,
    /// A's seq there.
    pub a: Option<u64>,
    /// B's seq there.
    pub b: Option<u64>,
    /// Its turn, from 1.
    pub turn: usize,
    /// Why (`only_a`, `only_b`, `target`, `outcome`).
    pub why: String,
}

/// One side's step: `{"seq", "kind", "tool", "target", "outcome"}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The session's seq of its row.
    pub seq: u64,
    /// `tool`, `answer`, `error`, `end`.
    pub kind: String,
    /// A tool call's tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
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

/// One aligned pair of steps.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StepPair {
    /// Its turn, from 1.
    pub turn: usize,
    /// Its place among the turn's aligned pairs (not on the wire: `hiveterm diff`'s text
    /// marks a gap between two not next to each other).
    #[serde(skip)]
    pub pair: usize,
    /// A's step, or a gap.
    pub a: Option<Step>,
    /// B's step, or a gap.
    pub b: Option<Step>,
    /// How the pair differs; `null` when it does not.
    pub why: Option<String>,
}

/// One side of a turn pair.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TurnSide {
    /// The seq of its turn-start row, if it has one.
    pub seq: Option<u64>,
    /// Its prompt's first line.
    #[serde(default)]
    pub prompt: String,
}

/// One turn pair of the compare answer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TurnPair {
    /// From 1.
    pub turn: usize,
    /// Its first pair's index in `pairs` (`pairs.len()` when cut off).
    pub from: usize,
    /// Its pairs in all.
    #[serde(default)]
    pub pairs: usize,
    /// A's turn, or a gap.
    pub a: Option<TurnSide>,
    /// B's turn, or a gap.
    pub b: Option<TurnSide>,
}

/// What both answers open with: the runs' names, the first divergence, how many, the
/// summaries and their differences.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Head {
    /// A's name (a session id or a log's path).
    pub a: String,
    /// B's.
    pub b: String,
    /// `null` when the runs take the same steps with the same outcomes.
    pub first_divergence: Option<Divergence>,
    /// How many aligned pairs differ.
    pub divergences: usize,
    /// The runs' summaries.
    pub summary: Pair<Summary>,
    /// Their figures side by side.
    pub differences: Differences,
}

/// `hiveterm diff --json`: the head, and the aligned steps around the first divergences.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The runs, their summaries, the first divergence.
    #[serde(flatten)]
    pub head: Head,
    /// The aligned steps around the first `--most` divergences.
    pub steps: Vec<StepPair>,
}

/// `GET /api/compare/{a}/{b}`: the head's fields, then every turn and every aligned pair
/// (up to `max_pairs`), the divergences among them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Comparison {
    /// A's session id.
    pub a: String,
    /// B's.
    pub b: String,
    /// The first divergence, if any.
    pub first_divergence: Option<Divergence>,
    /// How many aligned pairs differ.
    pub divergences: usize,
    /// The runs' summaries.
    pub summary: Pair<Summary>,
    /// Their figures side by side.
    pub differences: Differences,
    /// Each turn pair: where its pairs start in `pairs`, and each side's turn.
    pub turns: Vec<TurnPair>,
    /// Every aligned pair, turn after turn (the first `max_pairs`).
    pub pairs: Vec<StepPair>,
    /// Every divergence within `pairs` (`pair` set).
    pub divergence_list: Vec<Divergence>,
    /// Aligned pairs in all.
    pub pairs_total: usize,
    /// Whether `pairs` stops short of `pairs_total`.
    pub truncated: bool,
    /// The most pairs an answer holds.
    pub max_pairs: usize,
}

impl Comparison {
    /// The answer of `head` and the rest.
    pub fn of(head: Head, turns: Vec<TurnPair>, pairs: Vec<StepPair>) -> Comparison {
        Comparison {
            a: head.a,
            b: head.b,
            first_divergence: head.first_divergence,
            divergences: head.divergences,
            summary: head.summary,
            differences: head.differences,
            turns,
            pairs,
            ..Comparison::default()
        }
    }

    /// The turn whose first pair is `pair`, if one starts there.
    pub fn turn_at(&self, pair: usize) -> Option<&TurnPair> {
        self.turns.iter().find(|t| t.from == pair)
    }
}
