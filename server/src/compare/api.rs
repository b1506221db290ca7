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
use contract::compare::{Comparison, TurnPair as TurnJson, TurnSide};

use super::report::{divergence_json, head, step_pair};
use super::{Side, read_session};
use crate::error::{AppError, check_id};
use crate::state::AppState;

/// Most aligned pairs one answer holds (and divergences listed): the first ones, in order.
pub const MAX_PAIRS: usize = 20_000;

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
        .map(|(pair, d)| contract::compare::Divergence {
            pair: Some(pair),
            ..divergence_json(a, b, d)
        })
        .collect();
    let truncated = pairs.len() < total;
    let answer = Comparison {
        divergence_list,
        pairs_total: total,
        truncated,
        max_pairs: MAX_PAIRS,
        ..Comparison::of(head(a, b, &all), turns, pairs)
    };
    serde_json::to_string(&answer).unwrap_or_default()
}

fn turn_side(s: &Side, i: Option<usize>) -> Option<TurnSide> {
    let turn = &s.run.turns[i?];
    Some(TurnSide {
        seq: turn.seq.map(|l| s.seq(l)),
        prompt: turn.prompt.clone(),
    })
}
