//! A Copilot CLI line → its rows (the table is `docs/ROWS.md`, "GitHub Copilot CLI"). The turn
//! state is the log's one `Turns` (`ctx.turns.open`): a prompt opens a turn, the run's end, an
//! error, an abort or the next prompt ends it; the calls are remembered by id in the context,
//! so a result is shown according to its call.

use crate::field::Field;
use serde_json::Value;

use crate::ctx::ClassifyCtx;
use crate::kind::{interrupted_row, timed, turn_fail_row, turn_ok_row, turn_start_row};
use crate::msg::{BodyFormat, Level, TermMsg};
use crate::text::preview;
use crate::time::millis;

/// The rows of one Copilot line (see the module's docs).
pub(crate) fn classify(value: &Value, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let ty = value.field("type").and_then(Value::as_str).unwrap_or("");
    let empty = Value::Null;
    let data = value.field("data").unwrap_or(&empty);
    let s = |k: &str| data.field(k).and_then(Value::as_str);
    let mut rows = Vec::new();
    match ty {
        "session.start" | "session.resume" => {
            // A run that stopped with its turn open (killed, Ctrl+C) before this one.
            interrupt(ctx, &mut rows);
            let mut summary = if ty == "session.start" {
                let version = s("copilotVersion").unwrap_or("?");
                format!(
                    "⚙ copilot {version} · session {}",
                    s("sessionId").unwrap_or("?")
                )
            } else {
                "⚙ copilot session resumed".to_owned()
            };
            if let Some(model) = s("selectedModel") {
                summary.push_str(&format!(" · {model}"));
            }
            if let Some(cwd) = data.field("context").and_then(|c| c.field("cwd")) {
                summary.push_str(&format!(" · {}", cwd.as_str().unwrap_or("?")));
            }
            rows.push(TermMsg::new(Level::Debug, summary));
        }
        "user.message" => {
            end(ctx, &mut rows);
            ctx.turns.open = 1;
            rows.push(turn_start_row("user", s("content").unwrap_or("")));
        }
        "assistant.message" => assistant(data, ctx, &mut rows),
        "tool.execution_start" => {
            // Shown with the message that asked for it, unless that message was not seen.
            let id = s("toolCallId").unwrap_or("");
            if ctx.tool_name(id).is_none() {
                call(id, s("toolName"), data.field("arguments"), ctx, &mut rows);
            }
        }
        "tool.execution_complete" => rows.push(result(data, ctx)),
        "assistant.turn_retry" => {
            let mut summary = "⚠ api retry".to_owned();
            for part in [s("reason"), s("model")].into_iter().flatten() {
                summary.push_str(&format!(" · {}", part.replace('_', " ")));
            }
            rows.push(TermMsg::new(Level::Warn, summary));
        }
        "session.error" => {
            let mut why = s("message").unwrap_or("error").trim().to_owned();
            if let Some(code) = data.field("statusCode").and_then(Value::as_u64)
                && !why.starts_with(&code.to_string())
            {
                why = format!("{code} {why}");
            }
            if ctx.turns.open > 0 {
                ctx.turns.open = 0;
                rows.push(turn_fail_row(Some(&why)));
            } else {
                let kind = s("errorType").unwrap_or("session");
                let row = TermMsg::new(Level::Error, format!("✗ {kind} error · {}", preview(&why)));
                rows.push(row.icon(crate::kind::icon::ERROR).body(why));
            }
        }
        "abort" => {
            if ctx.turns.open > 0 {
                ctx.turns.open = 0;
                rows.push(interrupted_row());
            } else {
                rows.push(TermMsg::new(Level::Warn, "⏹ aborted"));
            }
        }
        "session.shutdown" => end(ctx, &mut rows),
        "session.info" => match s("infoType") {
            Some("model_retry") => {}
            kind => {
                let mut summary = format!("⚙ {}", kind.unwrap_or("info").replace('_', " "));
                if let Some(m) = s("message") {
                    summary.push_str(&format!(" · {}", preview(m)));
                }
                rows.push(TermMsg::new(Level::Debug, summary));
            }
        },
        "session.warning" => {
            let text = s("message").unwrap_or("warning");
            rows.push(TermMsg::new(Level::Warn, format!("⚠ {}", preview(text))));
        }
        "result" => run_end(value, ctx, &mut rows),
        _ if super::detect::is_quiet(ty) => {}
        other => rows.push(TermMsg::new(Level::Debug, format!("⚙ {}", preview(other)))),
    }
    rows
}

/// The open turn ends, well (the run ended, the next prompt came).
fn end(ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    if ctx.turns.open > 0 {
        ctx.turns.open = 0;
        rows.push(turn_ok_row());
    }
}

/// The open turn was cut off (a new run began with it still open).
fn interrupt(ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    if ctx.turns.open > 0 {
        ctx.turns.open = 0;
        rows.push(interrupted_row());
    }
}

fn assistant(data: &Value, ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    if let Some(r) = data.field("reasoningText").and_then(Value::as_str)
        && !r.trim().is_empty()
    {
        rows.push(TermMsg::new(Level::Debug, r.trim()).icon(crate::kind::icon::THINKING));
    }
    if let Some(text) = data.field("content").and_then(Value::as_str)
        && !text.trim().is_empty()
    {
        rows.push(TermMsg::new(Level::Info, "").body_as(text, BodyFormat::Markdown));
    }
    let calls = data.field("toolRequests").and_then(Value::as_array);
    for c in calls.map(Vec::as_slice).unwrap_or_default() {
        let id = c.field("toolCallId").and_then(Value::as_str).unwrap_or("");
        let name = c.field("name").and_then(Value::as_str);
        call(id, name, c.field("arguments"), ctx, rows);
    }
}

/// A call's row, its name remembered for its result.
fn call(
    id: &str,
    name: Option<&str>,
    args: Option<&Value>,
    ctx: &mut ClassifyCtx,
    rows: &mut Vec<TermMsg>,
) {
    let name = name.unwrap_or("?");
    if !id.is_empty() {
        ctx.record_tool_use(id, name);
    }
    rows.push(super::tools::call_row(name, args.unwrap_or(&Value::Null)));
}

/// A call's result: its text (`result.content`), an error when the call failed
/// (`success: false`, its `error.message`) or its command exited non-zero.
fn result(data: &Value, ctx: &mut ClassifyCtx) -> TermMsg {
    let id = data.field("toolCallId").and_then(Value::as_str);
    let exit = data
        .field("shellExecution")
        .and_then(|e| e.field("exitCode"))
        .and_then(Value::as_i64);
    let failed = data.field("success").and_then(Value::as_bool) == Some(false)
        || exit.is_some_and(|code| code != 0);
    let text = data
        .field("result")
        .and_then(|r| r.field("content"))
        .and_then(Value::as_str)
        .or_else(|| data.field("error")?.field("message")?.as_str())
        .unwrap_or("");
    crate::stream::result_text_row(text, failed, id, ctx)
}

/// The `result` line of `--output-format json`: the run's end. It ends the open turn (`exitCode`
/// 0 well, any other failed) with the run's time and figures; after an error that ended it, a
/// debug row with them.
fn run_end(value: &Value, ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    let code = value.field("exitCode").and_then(Value::as_i64).unwrap_or(0);
    let usage = value.field("usage");
    let n = |k: &str| usage.and_then(|u| u.field(k)).and_then(Value::as_f64);
    let mut figures = Vec::new();
    match (
        n("sessionDurationMs").and_then(millis),
        n("totalApiDurationMs").and_then(millis),
    ) {
        (Some(w), Some(a)) => figures.push(format!("time {w} (API {a})")),
        (Some(w), None) => figures.push(format!("time {w}")),
        _ => {}
    }
    if let Some(p) = n("premiumRequests") {
        figures.push(format!("premium requests {p}"));
    }
    let changes = usage.and_then(|u| u.field("codeChanges"));
    let lines = |k: &str| {
        changes
            .and_then(|c| c.field(k))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    if lines("linesAdded") + lines("linesRemoved") > 0 {
        figures.push(format!(
            "lines +{} -{}",
            lines("linesAdded"),
            lines("linesRemoved")
        ));
    }
    let row = if ctx.turns.open == 0 {
        TermMsg::new(Level::Debug, format!("⚙ copilot exit {code}"))
    } else {
        ctx.turns.open = 0;
        let row = if code == 0 {
            turn_ok_row()
        } else {
            turn_fail_row(Some(&format!("exit {code}")))
        };
        timed(row, n("sessionDurationMs"))
    };
    rows.push(if figures.is_empty() {
        row
    } else {
        row.body(figures.join("\n"))
    });
}
