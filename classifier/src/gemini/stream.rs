//! `gemini -p … --output-format stream-json` events, and the `-o json` document, → rows.
//!
//! - `init` opens a run: a debug row `⚙ gemini session <id> · model <m>`; the turn starts at the
//!   prompt that follows (`message` role `user`: `◆ TURN ← user` with the prompt). Anything
//!   else first after an `init` opens the turn without a prompt.
//! - Assistant `message` deltas are a markdown row per paragraph of the answer, the last one
//!   growing ([`super::answer`]): each delta's rows carry their paragraph's text so far and the
//!   coalesce key `gemini-text:<n>`, so the page and the server keep only the last of each (the
//!   envelopes keep each). The text of one row is bounded ([`TEXT_ROW_BYTES`]); past it the
//!   paragraph goes on in a new row. A delta that starts the answer again (the client retries
//!   a stream that broke off and prints the answer from the start) gives
//!   `⚠ answer restarted (stream retried)` and a new row.
//! - `tool_use` → the tool's row ([`super::tools`]), `tool_result` → its result row (an error
//!   row for `status: "error"`, with `error.message`).
//! - `error` → a warn (`severity: warning`) or error row `⚠ …` / `✗ …`.
//! - `result` → `✅ turn ok` / `❌ turn fail — <why>` with the run's figures as its body.
//! - A new run (`init` or prompt) while a turn is open: the last run stopped without a
//!   `result` (Ctrl+C exits 0 without one): `⏹ interrupted by user` first.
//! - The `-o json` document (`session_id` with `response` or `error`) is a whole run:
//!   turn start, the answer, `✅ turn ok` with its figures (or `❌ turn fail — <error>`).

use crate::field::Field;
use serde_json::{Map, Value};

use crate::ctx::ClassifyCtx;
use crate::kind::{interrupted_row, timed, turn_fail_row, turn_ok_row, turn_start_row};
use crate::msg::{BodyFormat, Level, TermMsg};
use crate::text::truncate_chars;

use super::answer::{TEXT_ROW_BYTES, cut};
use super::run_end::{Why, error_text, figures, json_figures, why, why_text, with_figures};
use super::tools::{call_row, result_row};
use super::typed::Stats;

/// Shortest delta taken as the answer printed again from its start.
const RESTART_MIN_BYTES: usize = 8;

/// Classifies one stream-json event (or the `-o json` document).
pub(super) fn classify(map: &Map<String, Value>, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let s = |k: &str| map.field(k).and_then(Value::as_str);
    let ty = s("type");
    let mut rows = Vec::new();
    let answer = ty == Some("message") && s("role") == Some("assistant");
    if !answer {
        ctx.gemini.text_last = false;
    }
    match ty {
        Some("init") => init(s("session_id"), s("model"), ctx, &mut rows),
        Some("message") if s("role") == Some("user") => {
            prompt(&content_text(map.field("content")), ctx, &mut rows);
        }
        Some("message") => delta(&content_text(map.field("content")), ctx, &mut rows),
        Some("tool_use") => tool_use(
            s("tool_name"),
            s("tool_id"),
            map.field("parameters").unwrap_or(&Value::Null),
            ctx,
            &mut rows,
        ),
        Some("tool_result") => {
            let msg = map
                .field("error")
                .and_then(|e| e.field("message"))
                .and_then(Value::as_str);
            tool_result(s("tool_id"), s("status"), s("output"), msg, ctx, &mut rows);
        }
        Some("error") => {
            let text = s("message").unwrap_or("(no message)");
            let (level, mark) = match s("severity") {
                Some("warning" | "warn" | "info") => (Level::Warn, "⚠"),
                _ => (Level::Error, "✗"),
            };
            rows.push(one_line(level, mark, text));
        }
        Some("result") => {
            let error = map.field("error");
            let stats = Stats::of_value(map.field("stats"));
            let why = error.is_some().then(|| error_text(error));
            result(s("status"), why, stats.as_ref(), ctx, &mut rows);
        }
        None => document(map, ctx, &mut rows),
        Some(_) => rows.push(crate::stream::unrecognised(&Value::Object(map.clone()))),
    }
    rows
}

/// An `init` (of a session and model): a new run.
pub(super) fn init(
    session_id: Option<&str>,
    model: Option<&str>,
    ctx: &mut ClassifyCtx,
    rows: &mut Vec<TermMsg>,
) {
    interrupted(ctx, rows);
    ctx.gemini.awaiting_prompt = true;
    let mut summary = String::with_capacity(128);
    summary.push_str("⚙ gemini session");
    if let Some(id) = session_id {
        summary.push(' ');
        summary.push_str(&truncate_chars(id, 40));
    }
    if let Some(m) = model {
        summary.push_str(" · model ");
        summary.push_str(&truncate_chars(m, 60));
    }
    rows.push(TermMsg::new(Level::Debug, summary));
}

/// A run's prompt (a `message` of role `user`): its turn starts.
pub(super) fn prompt(content: &str, ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    if !ctx.gemini.awaiting_prompt {
        interrupted(ctx, rows);
    }
    ctx.gemini.awaiting_prompt = false;
    ctx.gemini.turn_open = true;
    rows.push(turn_start_row("user", content));
}

/// A `tool_use`: a call of tool `name` (none: `tool`) with `parameters`, remembered by its
/// `tool_id`.
pub(super) fn tool_use(
    name: Option<&str>,
    tool_id: Option<&str>,
    parameters: &Value,
    ctx: &mut ClassifyCtx,
    rows: &mut Vec<TermMsg>,
) {
    open_turn(ctx, rows);
    let name = name.unwrap_or("tool");
    if let Some(id) = tool_id {
        ctx.record_tool_use(id, name);
    }
    rows.push(call_row(name, parameters));
}

/// A `tool_result` of call `tool_id`: its result row, an error row for `status: "error"`
/// (with `error.message`, `msg`).
pub(super) fn tool_result(
    tool_id: Option<&str>,
    status: Option<&str>,
    output: Option<&str>,
    msg: Option<&str>,
    ctx: &mut ClassifyCtx,
    rows: &mut Vec<TermMsg>,
) {
    let error = status == Some("error");
    let text = match (error, msg, output) {
        (true, Some(m), _) => m,
        (_, _, Some(o)) => o,
        (_, Some(m), None) => m,
        (false, None, None) => "",
        (true, None, None) => "failed",
    };
    rows.push(result_row(tool_id.unwrap_or(""), text, error, ctx));
}

/// A run's `result` (of `status`; `error` when one is written, with its message if it has
/// one): `✅ turn ok` or `❌ turn fail — <why>`, with the run's figures.
pub(super) fn result(
    status: Option<&str>,
    error: Option<Why<'_>>,
    stats: Option<&Stats>,
    ctx: &mut ClassifyCtx,
    rows: &mut Vec<TermMsg>,
) {
    ctx.gemini.turn_open = false;
    ctx.gemini.awaiting_prompt = false;
    let row = if status == Some("error") || error.is_some() {
        turn_fail_row(Some(&why_text(error.and_then(|w| w.0))))
    } else {
        turn_ok_row()
    };
    let ms = stats.and_then(|st| st.duration_ms);
    rows.push(with_figures(timed(row, ms), figures(stats)));
}

/// A turn stopped with no `result` when a new run starts while it is open.
fn interrupted(ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    if std::mem::take(&mut ctx.gemini.turn_open) {
        let mut row = interrupted_row();
        if !ctx.gemini.answer.text.is_empty() {
            row = row.body("the run stopped without a result line, while the answer streamed");
        }
        rows.push(row);
    }
    ctx.gemini.answer.start();
}

/// An assistant `message` (an answer delta) of text `piece`: the turn opened if it is not,
/// then the answer's rows.
pub(super) fn delta(piece: &str, ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    open_turn(ctx, rows);
    delta_rows(piece, ctx, rows);
}

/// Opens the turn of a run whose prompt the stream did not carry.
fn open_turn(ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    if ctx.gemini.awaiting_prompt || !ctx.gemini.turn_open {
        ctx.gemini.awaiting_prompt = false;
        if !ctx.gemini.turn_open {
            ctx.gemini.turn_open = true;
            rows.push(turn_start_row("user", ""));
        }
    }
}

/// One answer delta: the growing row, and the rows of the paragraphs it ends
/// ([`super::answer`]); a new answer after any other line, or when printed again from its start.
fn delta_rows(piece: &str, ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    let g = &mut ctx.gemini;
    let restart =
        g.text_last && piece.trim().len() >= RESTART_MIN_BYTES && g.answer.restarts_with(piece);
    if restart {
        rows.push(TermMsg::new(
            Level::Warn,
            "⚠ answer restarted (stream retried): printed again from its start",
        ));
    }
    if !g.text_last || restart {
        g.answer.start();
        g.text_rows += 1;
    } else if g.answer.text.len() + piece.len() > TEXT_ROW_BYTES {
        g.answer.new_row();
        g.text_rows += 1;
    }
    g.text_last = true;
    for text in g.answer.push(cut(piece, TEXT_ROW_BYTES)) {
        rows.push(answer_row(text, g.text_rows));
        g.text_rows += 1;
    }
    rows.push(answer_row(g.answer.text.clone(), g.text_rows));
    ctx.clean_last = ctx.gemini.answer.clean;
}

/// An answer row: `text` as markdown, its coalesce key the row's number.
fn answer_row(text: String, n: u64) -> TermMsg {
    TermMsg::new(Level::Info, "")
        .body_as(text, BodyFormat::Markdown)
        .coalesce(text_key(n))
}

/// `gemini-text:<n>`, the coalesce key of the answer's row `n`.
fn text_key(n: u64) -> String {
    const HEAD: &str = "gemini-text:";
    let mut key = String::with_capacity(HEAD.len() + 20);
    key.push_str(HEAD);
    crate::text::push_u64(&mut key, n);
    key
}

/// The text of a `content` (a string; anything else as JSON).
fn content_text(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// `⚠ text` / `✗ text` on one line, the whole text as the body when cut.
pub(super) fn one_line(level: Level, mark: &str, text: &str) -> TermMsg {
    let p = truncate_chars(text.trim().lines().next().unwrap_or(""), 200);
    let row = TermMsg::new(level, format!("{mark} {p}"));
    if p.len() == text.trim().len() {
        row
    } else {
        row.body(text)
    }
}

/// The `-o json` document: one whole run.
fn document(map: &Map<String, Value>, ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    interrupted(ctx, rows);
    ctx.gemini.awaiting_prompt = false;
    let mut summary = "⚙ gemini session".to_owned();
    if let Some(id) = map.field("session_id").and_then(Value::as_str) {
        summary.push(' ');
        summary.push_str(&truncate_chars(id, 40));
    }
    summary.push_str(" · json output");
    rows.push(TermMsg::new(Level::Debug, summary));
    rows.push(turn_start_row("user", ""));
    if let Some(text) = map.field("response").and_then(Value::as_str)
        && !text.trim().is_empty()
    {
        rows.push(TermMsg::new(Level::Info, "").body_as(text, BodyFormat::Markdown));
    }
    if let Some(err) = map.field("error") {
        rows.push(with_figures(
            turn_fail_row(Some(&why(Some(err)))),
            String::new(),
        ));
        return;
    }
    rows.push(with_figures(
        turn_ok_row(),
        json_figures(map.field("stats")),
    ));
}
