//! An older page of history put before the rows held: the seams of coalescing and turn
//! pairing where the page meets them. Beside the other reducers ([`crate::model::state`]), it reaches the state's parts.

use std::sync::Arc;

use classifier::TermEnvelope;

use classifier::{RowKind, row_kind};

use crate::model::rows::TurnTime;
use crate::model::state::apply::apply;
use crate::model::state::view_state::ViewState;

/// Prepends an older page of envelopes (in any order; those not older than every held seq are
/// ignored). Coalescing holds across the seam: a page's last row with the same key as the
/// first held row was replaced by it and is dropped.
pub fn prepend(state: &mut ViewState, page: &[TermEnvelope]) {
    let mut page: Vec<&TermEnvelope> = page
        .iter()
        .filter(|e| match (e.seq, state.first_seq) {
            (Some(s), Some(first)) => s < first,
            (None, _) => false,
            (Some(_), None) => state.rows.is_empty(),
        })
        .collect();
    if page.is_empty() {
        return;
    }
    page.sort_by_key(|e| e.seq);
    page.dedup_by_key(|e| e.seq);
    if state.rows.is_empty() {
        for env in page {
            apply(state, env);
        }
        return;
    }
    let mut older = ViewState::new(usize::MAX);
    older.next_uid = state.next_uid;
    older.expand = state.expand;
    for env in &page {
        apply(&mut older, env);
    }
    state.next_uid = older.next_uid;
    // The seam: coalescing.
    if let (Some(last), Some(first)) = (older.rows.back(), state.rows.front())
        && last.msg.coalesce_key.is_some()
        && last.msg.coalesce_key == first.msg.coalesce_key
    {
        older.pop_back();
    }
    // The seam: the first turn end held may pair with the page's oldest open start.
    if let Some(Some(start)) = older.open_turns.front().copied() {
        for (i, row) in state.rows.iter().enumerate() {
            match row_kind(&row.msg) {
                _ if row.parent.is_some() => {}
                RowKind::TurnStart => break,
                k if k.ends_turn() => {
                    if let Some(TurnTime::End { ts, dur: None }) = row.turn.as_deref().copied()
                        && ts >= start
                        && classifier::turn_duration(&row.msg).is_none()
                    {
                        let mut fixed = (**row).clone();
                        fixed.turn = Some(Box::new(TurnTime::End {
                            ts,
                            dur: Some(ts - start),
                        }));
                        state.rows[i] = Arc::new(fixed);
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    // Turns still open in the older page while none was seen held: in flight.
    if state.open_turns.is_empty() && !older.open_turns.is_empty() {
        let held_has_turn = state.rows.iter().any(|r| {
            r.parent.is_none()
                && (matches!(row_kind(&r.msg), RowKind::TurnStart) || row_kind(&r.msg).ends_turn())
        });
        if !held_has_turn {
            state.open_turns = older.open_turns.clone();
        }
    }
    for row in older.rows.iter().rev() {
        state.note_tool(row);
    }
    for (i, c) in older.counts.iter().enumerate() {
        state.counts[i] += c;
    }
    let n = older.rows.len() as u64;
    state.base -= n;
    for (row, h) in older
        .rows
        .into_iter()
        .rev()
        .zip(older.heights.into_iter().rev())
    {
        state.rows.push_front(row);
        state.heights.push_front(h);
    }
    state.first_seq = page.first().and_then(|e| e.seq);
    state.rebuild_blocks();
    state.rebuild_visible();
    state.evict();
}
