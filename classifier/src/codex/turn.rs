//! A rollout's turn ([`Turn`]): its `◆ TURN ← user` row, shown once, by the user's prompt
//! ([`prompt`]) or, bodiless, before the first row of a turn a task opened ([`open`]).

use super::state::Turn;
use crate::ctx::ClassifyCtx;
use crate::kind::turn_start_row;
use crate::msg::TermMsg;

/// The user's prompt: a turn starts (or, mid-turn, `prompt ← user`).
pub(super) fn prompt(ctx: &mut ClassifyCtx, text: &str) -> Vec<TermMsg> {
    if ctx.codex.turn == Turn::Open {
        let mut row = turn_start_row("user", text);
        row.icon = None;
        row.summary = "prompt ← user".to_owned();
        return vec![row];
    }
    ctx.codex.turn = Turn::Open;
    vec![turn_start_row("user", text)]
}

/// `rows` of a turn that a task opened: its bodiless start row first when none was shown.
pub(super) fn open(ctx: &mut ClassifyCtx, mut rows: Vec<TermMsg>) -> Vec<TermMsg> {
    if ctx.codex.turn == Turn::Pending {
        ctx.codex.turn = Turn::Open;
        rows.insert(0, turn_start_row("user", ""));
    }
    rows
}
