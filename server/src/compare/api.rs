//! `GET /api/compare/{a}/{b}`: two stored sessions aligned, for the compare page — what
//! `hiveterm diff --json --db` opens with ([`Head`]: the summaries, their differences, the
//! first divergence), then every turn and every aligned pair (not only those around the
//! divergences), up to [`MAX_PAIRS`] pairs: past it, the answer says so (`truncated`).
//!
//! Each session is read as its log (as `diff --db` reads it) and aligned by the classifier
//! ([`classifier::compare::align`], its cells bounded by `MAX_CELLS`), on a blocking thread.

use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use classifier::compare::{Divergence, align};
use serde::Serialize;

use super::report::{DivergenceJson, Head, StepPair, divergence_json, head, step_pair};
use super::{Side, read_session};
use crate::error::{AppError, check_id};
use crate::state::AppState;

/// Most aligned pairs one answer holds (and divergences listed): the first ones, in order.
pub const MAX_PAIRS: usize = 20_000;

/// The answer.
#[derive(Serialize)]
struct Answer<'a> {
    #[serde(flatten)]
    head: Head<'a>,
    /// Each turn pair: where its pairs start in `pairs`, and each side's turn.
    turns: Vec<TurnJson<'a>>,
    /// Every aligned pair, turn after turn (the first [`MAX_PAIRS`]).
    pairs: Vec<StepPair>,
    /// Every divergence within the pairs sent: its index in `pairs`, its seqs, why.
    divergence_list: Vec<ListedDivergence>,
    /// Aligned pairs in all (`pairs` holds the first `max_pairs` of them).
    pairs_total: usize,
    /// Whether `pairs` stops short of `pairs_total`.
    truncated: bool,
    max_pairs: usize,
}

#[derive(Serialize)]
struct TurnJson<'a> {
    /// From 1.
    turn: usize,
    /// Its first pair's index in `pairs` (`pairs.len()` when cut off).
    from: usize,
    /// Its pairs in all.
    pairs: usize,
    a: Option<TurnSide<'a>>,
    b: Option<TurnSide<'a>>,
}

#[derive(Serialize)]
struct TurnSide<'a> {
    /// The seq of its turn-start row, if it has one.
    seq: Option<u64>,
    /// Its prompt's first line.
    prompt: &'a str,
}

#[derive(Serialize)]
struct ListedDivergence {
    /// Its index in `pairs`.
    pair: usize,
    #[serde(flatten)]
    at: DivergenceJson,
}

/// The handler: `404` for a session not stored, `400` for a malformed id.
pub async fn compare(
    State(state): State<AppState>,
    Path((a, b)): Path<(String, String)>,
) -> Result<Response, AppError> {
    check_id(&a)?;
    check_id(&b)?;
    let store = state.store();
    let read = |e: String| {
        if e.starts_with("no session") {
            AppError::NotFound(e)
        } else {
            AppError::Internal(e)
        }
    };
    let sa = read_session(store, &a).await.map_err(read)?;
    let sb = read_session(store, &b).await.map_err(read)?;
    let body = tokio::task::spawn_blocking(move || answer_json(&sa, &sb))
        .await
        .map_err(|e| AppError::Internal(e.to_string()))?;
    Ok((
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response())
}

/// The answer for two runs, as JSON text.
pub fn answer_json(a: &Side, b: &Side) -> String {
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
        .map(|(pair, d)| ListedDivergence {
            pair,
            at: divergence_json(a, b, d),
        })
        .collect();
    let answer = Answer {
        head: head(a, b, &all),
        turns,
        truncated: pairs.len() < total,
        pairs,
        divergence_list,
        pairs_total: total,
        max_pairs: MAX_PAIRS,
    };
    serde_json::to_string(&answer).unwrap_or_default()
}

fn turn_side(s: &Side, i: Option<usize>) -> Option<TurnSide<'_>> {
    let turn = &s.run.turns[i?];
    Some(TurnSide {
        seq: turn.seq.map(|l| s.seq(l)),
        prompt: &turn.prompt,
    })
}
