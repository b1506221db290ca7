//! An `opencode export <id>` document (`{"info": <session>, "messages": [{"info", "parts"}…]}`)
//! → its rows, all on the line that completes it: `⚙ opencode session <id> · <version> ·
//! <directory>` (debug, the title as its body; once a session: a document of the session
//! shown last, one message of a store's session, has none), then each message in order — a user message
//! opens a turn with its prompt (its text parts; `synthetic` ones and other parts are rows of
//! their own after it), an assistant message's parts are read as stdout's are
//! ([`super::part`]), and its `error` fails the turn ([`super::turn::error`]).

use serde_json::{Map, Value};

use super::state::MAX_ID_BYTES;
use super::{part, turn};
use crate::ctx::ClassifyCtx;
use crate::field::Field;
use crate::msg::{Level, TermMsg};
use crate::text::one_line;

/// The rows of an export document.
pub(super) fn rows(doc: &Map<String, Value>, ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    let info = doc.field("info");
    let s = |k: &str| info.field(k).and_then(Value::as_str).unwrap_or("");
    let session = s("id");
    let mut head = format!("⚙ opencode session {}", one_line(session, 80));
    for k in ["version", "directory"] {
        let v = s(k);
        if !v.trim().is_empty() {
            head.push_str(" · ");
            head.push_str(&one_line(v, 200));
        }
    }
    let mut row = TermMsg::new(Level::Debug, head);
    let title = s("title");
    if !title.trim().is_empty() {
        row = row.body(title);
    }
    // Once per session: a store's session is read a message at a time, each an export.
    let shown = &mut ctx.opencode.shown;
    if shown.is_empty() || shown != session {
        rows.push(row);
        shown.clear();
        if session.len() <= MAX_ID_BYTES {
            shown.push_str(session);
        }
    }
    let messages = doc.field("messages").and_then(Value::as_array);
    for m in messages.into_iter().flatten() {
        message(m, session, ctx, rows);
    }
}

/// One message's rows.
fn message(m: &Value, session: &str, ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    let info = m.field("info");
    let time = |k: &str| info.field("time").field(k).and_then(Value::as_f64);
    let parts = m.field("parts").and_then(Value::as_array);
    let parts = parts.map_or(&[][..], Vec::as_slice);
    match info.field("role").and_then(Value::as_str) {
        Some("user") => {
            let is_prompt = |p: &Value| {
                p.field("type").and_then(Value::as_str) == Some("text")
                    && p.field("synthetic").and_then(Value::as_bool) != Some(true)
            };
            let texts: Vec<&str> = parts
                .iter()
                .filter(|p| is_prompt(p))
                .filter_map(|p| p.field("text").and_then(Value::as_str))
                .collect();
            turn::prompt(&texts.join("\n\n"), session, time("created"), ctx, rows);
            for p in parts.iter().filter(|p| !is_prompt(p)) {
                if p.field("type").and_then(Value::as_str) == Some("text") {
                    let text = p.field("text").and_then(Value::as_str).unwrap_or("");
                    rows.push(TermMsg::new(Level::Debug, "⚙ context").body(text));
                } else {
                    part::rows(p, None, ctx, rows);
                }
            }
        }
        Some("assistant") => {
            let at = time("completed").or_else(|| time("created"));
            turn::line_opens(session, time("created"), ctx, rows);
            for p in parts {
                if p.is_object() {
                    part::rows(p, at, ctx, rows);
                }
            }
            if let Some(err) = info.field("error") {
                turn::error(Some(err), at, ctx, rows);
            }
        }
        Some(other) => rows.push(part::other_row(&format!("{other} message"))),
        None => rows.push(part::other_row("message without a role")),
    }
}
