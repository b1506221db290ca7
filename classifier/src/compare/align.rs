//! Two [`Run`]s → their [`Alignment`]: turn `i` faces turn `i`; within a turn, the steps are
//! aligned to score most ([`score`]) by dynamic programming, up to [`MAX_CELLS`]; past it
//! (two turns of thousands of steps each), position by position.

use super::steps::{Run, Step, StepKind};

/// Most cells (steps of A + 1) × (steps of B + 1) one turn's alignment may take: 16 MB of
/// scores. Past it, steps face each other in order.
pub const MAX_CELLS: usize = 4_000_000;

/// One aligned pair: a step of A, of B, or both (indices into their turn's steps).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pair {
    /// A's step, or a gap.
    pub a: Option<usize>,
    /// B's step, or a gap.
    pub b: Option<usize>,
}

/// One aligned pair of turns (indices into the runs' turns) and their steps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnPair {
    /// A's turn, or a gap (B took more turns).
    pub a: Option<usize>,
    /// B's turn, or a gap.
    pub b: Option<usize>,
    /// The steps, aligned.
    pub pairs: Vec<Pair>,
}

/// Two runs aligned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alignment {
    /// Turn by turn.
    pub turns: Vec<TurnPair>,
}

/// Why an aligned pair differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// Only A took the step.
    OnlyA,
    /// Only B took the step.
    OnlyB,
    /// The same kind of step on different targets (another command, another file).
    Target,
    /// The same step, ended otherwise (a command that failed in one).
    Outcome,
}

impl Why {
    /// Its name on the wire: `only_a`, `only_b`, `target`, `outcome`.
    pub fn name(self) -> &'static str {
        match self {
            Why::OnlyA => "only_a",
            Why::OnlyB => "only_b",
            Why::Target => "target",
            Why::Outcome => "outcome",
        }
    }
}

/// An aligned pair that differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Divergence {
    /// Which turn pair.
    pub turn: usize,
    /// Which pair of it.
    pub pair: usize,
    /// A's step's seq; for a gap, the seq of A's next step in the turn (where the step would
    /// go), else its last; `None` when A has no such turn.
    pub a: Option<u64>,
    /// B's, the same way.
    pub b: Option<u64>,
    /// How it differs.
    pub why: Why,
}

/// What facing `a` with `b` is worth: 2 for the same step (kind and target), 1 for the same
/// kind on another target, `None` when they cannot face each other (another kind of step).
pub fn score(a: &Step, b: &Step) -> Option<u32> {
    let same_kind = match (&a.kind, &b.kind) {
        (StepKind::Tool(x), StepKind::Tool(y)) => x == y,
        (x, y) => x == y,
    };
    if !same_kind {
        None
    } else if a.target == b.target {
        Some(2)
    } else {
        Some(1)
    }
}

/// The steps of two turns aligned: the order of each kept, every step once, the sum of
/// [`score`] over facing pairs the most any alignment gets (past [`MAX_CELLS`], in order).
pub fn align_steps(xs: &[Step], ys: &[Step]) -> Vec<Pair> {
    let (rows, cols) = (xs.len(), ys.len());
    if (rows + 1).saturating_mul(cols + 1) > MAX_CELLS {
        return in_order(rows, cols);
    }
    // best[i * width + j]: the most the first i of A and first j of B score.
    let width = cols + 1;
    let at = |i: usize, j: usize| i * width + j;
    let mut best = vec![0u32; (rows + 1) * width];
    for i in 1..=rows {
        for j in 1..=cols {
            let mut most = best[at(i - 1, j)].max(best[at(i, j - 1)]);
            if let Some(s) = score(&xs[i - 1], &ys[j - 1]) {
                most = most.max(best[at(i - 1, j - 1)] + s);
            }
            best[at(i, j)] = most;
        }
    }
    let mut out = Vec::with_capacity(rows.max(cols));
    let (mut i, mut j) = (rows, cols);
    while i > 0 || j > 0 {
        let here = best[at(i, j)];
        let diagonal = i > 0
            && j > 0
            && score(&xs[i - 1], &ys[j - 1]).is_some_and(|s| best[at(i - 1, j - 1)] + s == here);
        if diagonal {
            out.push(Pair {
                a: Some(i - 1),
                b: Some(j - 1),
            });
            i -= 1;
            j -= 1;
        } else if j > 0 && (i == 0 || best[at(i, j - 1)] == here) {
            out.push(Pair {
                a: None,
                b: Some(j - 1),
            });
            j -= 1;
        } else {
            out.push(Pair {
                a: Some(i - 1),
                b: None,
            });
            i -= 1;
        }
    }
    out.reverse();
    out
}

/// Position by position, the longer's rest facing gaps.
fn in_order(n: usize, m: usize) -> Vec<Pair> {
    (0..n.max(m))
        .map(|k| Pair {
            a: (k < n).then_some(k),
            b: (k < m).then_some(k),
        })
        .collect()
}

/// Two runs aligned: turn `i` with turn `i`, the steps within each by [`align_steps`].
pub fn align(a: &Run, b: &Run) -> Alignment {
    let turns = (0..a.turns.len().max(b.turns.len()))
        .map(|k| {
            let (ta, tb) = (a.turns.get(k), b.turns.get(k));
            let pairs = align_steps(
                ta.map_or(&[][..], |t| &t.steps),
                tb.map_or(&[][..], |t| &t.steps),
            );
            TurnPair {
                a: ta.map(|_| k),
                b: tb.map(|_| k),
                pairs,
            }
        })
        .collect();
    Alignment { turns }
}

impl Alignment {
    /// Every pair that differs, in order.
    pub fn divergences<'r>(
        &'r self,
        a: &'r Run,
        b: &'r Run,
    ) -> impl Iterator<Item = Divergence> + 'r {
        self.turns.iter().enumerate().flat_map(move |(t, tp)| {
            let sa = tp.a.map_or(&[][..], |i| &a.turns[i].steps[..]);
            let sb = tp.b.map_or(&[][..], |i| &b.turns[i].steps[..]);
            tp.pairs.iter().enumerate().filter_map(move |(p, pair)| {
                let why = match (pair.a, pair.b) {
                    (Some(_), None) => Why::OnlyA,
                    (None, Some(_)) => Why::OnlyB,
                    (Some(x), Some(y)) if sa[x].target != sb[y].target => Why::Target,
                    (Some(x), Some(y)) if sa[x].outcome != sb[y].outcome => Why::Outcome,
                    _ => return None,
                };
                Some(Divergence {
                    turn: t,
                    pair: p,
                    a: seq_at(&tp.pairs[p..], sa, |q| q.a),
                    b: seq_at(&tp.pairs[p..], sb, |q| q.b),
                    why,
                })
            })
        })
    }

    /// The first pair that differs; `None` when the runs took the same steps with the same
    /// outcomes.
    pub fn first_divergence(&self, a: &Run, b: &Run) -> Option<Divergence> {
        self.divergences(a, b).next()
    }
}

/// The seq of the first step of one side from `rest` on; else that turn's last step's.
fn seq_at(rest: &[Pair], steps: &[Step], side: impl Fn(&Pair) -> Option<usize>) -> Option<u64> {
    rest.iter()
        .find_map(side)
        .or_else(|| steps.len().checked_sub(1))
        .and_then(|i| steps.get(i))
        .map(|s| s.seq)
}
