//! Where an OpenCode log's turns start and end, and the figures of the turn.
//!
//! stdout has no prompt: a run's first line opens its turn (`◆ TURN ← user`, no body); an
//! export opens one at each user message, the prompt as its body. A `step-finish` of reason
//! `stop` ends it ok (`✅ turn ok · <time>`, its tokens, cost, steps and calls as the body), of
//! any other reason but `tool-calls` failed; an `error` line (or an export message's `error`)
//! fails it (`❌ turn fail — API error 401: …`, after a `✗ api error` row), but an abort
//! (`MessageAbortedError`) is `⏹ interrupted by user`. A line of another session, or a prompt,
//! while a turn is open (the run was cut) first shows `⏹ interrupted by user`.

use serde_json::Value;

use crate::ctx::ClassifyCtx;
use crate::field::Field;
use crate::kind::{interrupted_row, timed, turn_fail_row, turn_ok_row, turn_start_row};
use crate::msg::{Level, TermMsg};
use crate::text::one_line;

use super::state::{Figures, MAX_ID_BYTES, State};

/// Longest `<why>` of an error row's summary.
const WHY_CHARS: usize = 160;

fn state(ctx: &mut ClassifyCtx) -> &mut State {
    &mut ctx.opencode
}

/// A stdout line of `session` at `ts` (ms): a line of another session while a turn is open
/// shows it interrupted; a line while none is open opens one (`◆ TURN ← user`, no prompt).
pub(super) fn line_opens(
    session: &str,
    ts: Option<f64>,
    ctx: &mut ClassifyCtx,
    rows: &mut Vec<TermMsg>,
) {
    let st = state(ctx);
    if st.open && !st.session.is_empty() && !session.is_empty() && st.session != session {
        rows.push(interrupted_row());
        st.reset();
    }
    if !st.open {
        open(st, session, ts);
        rows.push(turn_start_row("user", ""));
    }
}

/// A prompt (an export's user message) at `ts` (ms): the open turn, if any, was cut.
pub(super) fn prompt(
    text: &str,
    session: &str,
    ts: Option<f64>,
    ctx: &mut ClassifyCtx,
    rows: &mut Vec<TermMsg>,
) {
    let st = state(ctx);
    if st.open {
        rows.push(interrupted_row());
    }
    open(st, session, ts);
    rows.push(turn_start_row("user", text));
}

fn open(st: &mut State, session: &str, ts: Option<f64>) {
    *st = State {
        open: true,
        session: if session.len() <= MAX_ID_BYTES {
            session.to_owned()
        } else {
            String::new()
        },
        since: ts.filter(|t| t.is_finite() && *t >= 0.0).map(|t| t as u64),
        shown: std::mem::take(&mut st.shown),
        ..State::default()
    };
}

/// A `step-start`: a second one before the first finished is a retry of a cut stream.
pub(super) fn step_start(ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    let st = state(ctx);
    if st.step {
        rows.push(TermMsg::new(
            Level::Warn,
            "⚠ api retry · the model's answer was cut off; asked again",
        ));
    }
    st.step = true;
}

/// A tool call made in the open turn.
pub(super) fn call(ctx: &mut ClassifyCtx) {
    state(ctx).fig.calls += 1;
}

/// A `step-finish` part at `ts` (ms): its figures added to the turn's; `stop` ends the turn
/// ok, any other reason but `tool-calls` ends it failed.
pub(super) fn step_finish(
    part: &Value,
    ts: Option<f64>,
    ctx: &mut ClassifyCtx,
    rows: &mut Vec<TermMsg>,
) {
    let st = state(ctx);
    st.step = false;
    let mut step = Figures::of_step(part);
    step.calls = 0;
    st.fig.add(&step);
    let reason = part.field("reason").and_then(Value::as_str).unwrap_or("");
    let row = match reason {
        "tool-calls" => return,
        "stop" => turn_ok_row(),
        "" => turn_fail_row(Some("the model's step ended with no reason")),
        "length" => turn_fail_row(Some("the answer hit the output token limit (length)")),
        other => turn_fail_row(Some(&format!("the model stopped: {other}"))),
    };
    end(row, ts, ctx, rows);
}

/// An `error` (a line's, or an export message's) at `ts` (ms): the `✗ api error` row and the
/// turn's end (`⏹` for an abort).
pub(super) fn error(
    err: Option<&Value>,
    ts: Option<f64>,
    ctx: &mut ClassifyCtx,
    rows: &mut Vec<TermMsg>,
) {
    let name = err.field("name").and_then(Value::as_str).unwrap_or("error");
    let data = err.field("data");
    let message = data
        .field("message")
        .and_then(Value::as_str)
        .or_else(|| err.and_then(Value::as_str))
        .unwrap_or("");
    if name == "MessageAbortedError" {
        rows.push(interrupted_row());
        state(ctx).reset();
        return;
    }
    let code = data.field("statusCode").and_then(Value::as_u64);
    let why = match (name, code) {
        ("APIError", Some(c)) => format!("API error {c}: {message}"),
        ("APIError", None) => format!("API error: {message}"),
        (n, _) if message.is_empty() => n.to_owned(),
        (n, _) => format!("{n}: {message}"),
    };
    let one = one_line(&why, WHY_CHARS);
    let mut row = TermMsg::new(Level::Error, format!("✗ api error · {one}"));
    if one != why.trim() {
        row = row.body(why.clone());
    }
    rows.push(row);
    end(turn_fail_row(Some(&one)), ts, ctx, rows);
}

/// Ends the open turn with `row` (timed from its start to `ts`, its figures as the body).
fn end(row: TermMsg, ts: Option<f64>, ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    let st = state(ctx).clone();
    state(ctx).reset();
    let ms = st
        .since
        .zip(ts.filter(|t| t.is_finite()))
        .map(|(a, b)| b - a as f64)
        .filter(|ms| *ms > 0.0);
    let row = if st.fig.steps > 0 {
        row.body(st.fig.body())
    } else {
        row
    };
    rows.push(timed(row, ms));
}
