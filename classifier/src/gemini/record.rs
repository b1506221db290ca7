//! A Gemini chat recording (`~/.gemini/tmp/<project>/chats/session-*.jsonl`) → rows.
//!
//! The file is a log of updates to one document: metadata lines, `{"$set": …}` updates and
//! message records, a record whose `id` was seen before replacing that message (the model's
//! message is written when its text is done, and again with `toolCalls` once the tools ran).
//! Every message shows once, in its final state, on every path:
//!
//! - A message written again shows only what is new in it: thoughts past those shown, tool
//!   calls (with their results) not shown, and its text when the text changed. Its text row
//!   has the coalesce key `gemini-msg:<id>`, so a changed text written right after replaces
//!   the old one; written after other rows, the new text is a row of its own. Nothing shows
//!   twice. What was shown is remembered for the last [`MAX_MESSAGES`] messages.
//! - A `user` message's `functionResponse` parts repeat results already shown with their calls:
//!   only results not shown yet (a file cut before the call) give a row.
//! - The client's `<session_context>` message is a debug row (`⚙ session context`, the text
//!   as its body), not a prompt; the turn starts at the real prompt (`◆ TURN ← user`).
//! - The turn's end is not written in the file: it is shown when it is known, at the next
//!   prompt, at the metadata line of a resumed run, at a subagent's `$set.summary`, at a
//!   `$set.messages` history without its prompt (the CLI took back a prompt whose request
//!   failed), or at the end of the log (`ClassifyCtx::end_of_log`): `✅ turn ok` when the last
//!   model message called no tool, `❌ turn fail — <why>` when the recording says it failed (an
//!   `error` record, an `[API Error: …]`, the prompt taken back), else `⏹ interrupted` (a run
//!   cut: at the end of the log it stays open, nothing says how it ended).
//! - Metadata: `⚙ gemini session <id> · <kind>` (debug), `… resumed` when the session id
//!   comes again. `$set`: no row, but for `summary` (a subagent's result, info, markdown) and
//!   `messages` when no message has been shown yet (a file that starts with the history): its
//!   messages as above.

use crate::field::Field;
use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::ctx::ClassifyCtx;
use crate::kind::{interrupted_row, turn_fail_row, turn_ok_row, turn_start_row};
use crate::msg::{BodyFormat, Level, TermMsg};
use crate::text::{preview, truncate_chars};

use super::state::{Seen, Shown, digest};
use super::stream::one_line;
use super::tools::{call_row, file_diff, result_row, shell_exit, unwrap_context, with_diff};
use super::typed::{Call, Content, FunctionResponse, Meta, Record, Response, Thought, Update};

/// Messages whose rows are remembered.
pub(crate) const MAX_MESSAGES: usize = 64;
/// Tool results remembered as shown.
pub(crate) const MAX_RESULTS: usize = 256;

impl Seen {
    fn shown_result(&self, id: u64) -> bool {
        self.results.contains(&id)
    }

    fn add_result(&mut self, id: u64) {
        if self.results.len() >= MAX_RESULTS {
            self.results.pop_front();
        }
        self.results.push_back(id);
    }
}

/// Classifies one recording line.
pub(super) fn classify(map: &Map<String, Value>, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let mut rows = Vec::new();
    if let Some(set) = map.field("$set") {
        set_rows(&Update::of_value(set, ctx.gemini.seen.any), ctx, &mut rows);
    } else if map.has("projectHash") {
        metadata(&Meta::of_value(map), ctx, &mut rows);
    } else {
        message(&Record::of_map(map), ctx, &mut rows);
    }
    rows
}

/// A metadata line: `⚙ gemini session <id> · <kind>`, or `… resumed`.
pub(super) fn metadata(meta: &Meta, ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    let id = meta.session_id.as_deref().unwrap_or("");
    close_turn(ctx, rows);
    let seen = &mut ctx.gemini.seen;
    // Room for the id, ` resumed` or a kind, at once.
    let mut summary = String::with_capacity(64 + id.len().min(160));
    summary.push_str("⚙ gemini session ");
    summary.push_str(&truncate_chars(id, 40));
    if !id.is_empty() && seen.session == id {
        summary.push_str(" resumed");
    } else {
        seen.session = truncate_chars(id, 80);
        if let Some(kind) = meta.kind.as_deref() {
            summary.push_str(" · ");
            summary.push_str(&truncate_chars(kind, 20));
        }
    }
    rows.push(TermMsg::new(Level::Debug, summary));
}

/// An update: its history's messages while none was shown, and a subagent's result.
pub(super) fn set_rows(set: &Update, ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    if set.not_object {
        rows.push(TermMsg::new(Level::Warn, "$set line: not an object"));
        return;
    }
    // A history rewritten without the open turn's prompt: the CLI took the prompt back, its
    // request failed (a fatal API error).
    if ctx.gemini.turn_open
        && ctx.gemini.seen.any
        && ctx.gemini.seen.prompt != 0
        && let Some(messages) = &set.messages
        && !messages
            .iter()
            .flatten()
            .any(|m| digest(m.id()) == ctx.gemini.seen.prompt)
    {
        ctx.gemini.seen.answered = false;
        let seen = &mut ctx.gemini.seen;
        seen.failed.get_or_insert_with(|| WITHDRAWN.to_owned());
        close_turn(ctx, rows);
    }
    if !ctx.gemini.seen.any
        && let Some(messages) = &set.messages
    {
        for m in messages {
            match m {
                Some(m) => message(m, ctx, rows),
                None => rows.push(TermMsg::new(
                    Level::Warn,
                    "$set line: a message is not an object",
                )),
            }
        }
    }
    if let Some(s) = &set.summary {
        let text = match s {
            Value::String(s) => serde_json::from_str::<Value>(s)
                .ok()
                .and_then(|v| {
                    v.field("response")
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                })
                .unwrap_or_else(|| s.clone()),
            other => other.to_string(),
        };
        rows.push(
            TermMsg::new(Level::Info, format!("⚙ result · {}", preview(&text)))
                .body_as(text, BodyFormat::Markdown),
        );
        ctx.gemini.seen.answered = true;
        close_turn(ctx, rows);
    }
}

/// Why a turn whose prompt the CLI took back from the history failed.
const WITHDRAWN: &str = "the request failed (its prompt was taken back from the history)";

/// Ends the open turn, as far as the file tells: `✅ turn ok` when its last model message
/// called no tool, `❌ turn fail — <why>` when the recording says it failed, else `⏹
/// interrupted` (a prompt left without an answer, a call never answered or cancelled).
pub(super) fn close_turn(ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    if std::mem::take(&mut ctx.gemini.turn_open) {
        let seen = &mut ctx.gemini.seen;
        seen.prompt = 0;
        rows.push(match seen.failed.take() {
            Some(why) => turn_fail_row(Some(&why)),
            None if seen.answered => turn_ok_row(),
            None => interrupted_row(),
        });
    }
}

/// Classifies a message record.
pub(super) fn message(record: &Record, ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    let id = digest(record.id());
    let ty = record.ty();
    let seen = &mut ctx.gemini.seen;
    seen.any = true;
    let at = match seen.messages.iter().position(|m| m.id == id) {
        Some(at) => at,
        None => {
            if seen.messages.len() >= MAX_MESSAGES {
                seen.messages.pop_front();
            }
            seen.messages.push_back(Shown {
                id,
                text: digest(""),
                ..Shown::default()
            });
            seen.messages.len() - 1
        }
    };
    let text = content_text(&record.content);
    let hash = digest(&text);
    let new_text = hash != seen.messages[at].text;
    seen.messages[at].text = hash;
    match ty {
        "user" => {
            if new_text && !text.trim().is_empty() {
                user_text(&text, ctx, rows);
                if ctx.gemini.turn_open {
                    ctx.gemini.seen.prompt = id;
                }
            }
            if let Content::Parts(parts) = &record.content {
                for fr in parts.iter().filter_map(|p| p.function_response.as_ref()) {
                    response_part(fr, ctx, rows);
                }
            }
        }
        "gemini" => gemini(record, at, &text, new_text, ctx, rows),
        "info" | "warning" | "error" if new_text => {
            if ctx.gemini.turn_open && (ty == "error" || is_api_error(&text)) {
                ctx.gemini.seen.failed = Some(super::run_end::why_text(Some(&text)));
            }
            let (level, mark) = match ty {
                "info" => (Level::Info, "⚙"),
                "warning" => (Level::Warn, "⚠"),
                _ => (Level::Error, "✗"),
            };
            rows.push(one_line(level, mark, &text));
        }
        "info" | "warning" | "error" => {}
        // Not a record's type (`is_message_record` lets none through): its fields as read.
        _ => rows.push(crate::stream::unrecognised(
            &serde_json::to_value(record).unwrap_or(Value::Null),
        )),
    }
}

fn user_text(text: &str, ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    if text.trim_start().starts_with("<session_context>") {
        rows.push(TermMsg::new(Level::Debug, "⚙ session context").body(text));
        return;
    }
    close_turn(ctx, rows);
    ctx.gemini.turn_open = true;
    ctx.gemini.seen.answered = false;
    ctx.gemini.seen.failed = None;
    rows.push(turn_start_row("user", text));
}

/// A `functionResponse` part whose result was not shown with its call.
fn response_part(fr: &FunctionResponse, ctx: &mut ClassifyCtx, rows: &mut Vec<TermMsg>) {
    let id = fr.id.as_deref().unwrap_or("");
    if ctx.gemini.seen.shown_result(digest(id)) {
        return;
    }
    ctx.gemini.seen.add_result(digest(id));
    let name = fr.name.as_deref().unwrap_or("");
    let (text, error) = response_text(name, fr.response.as_ref(), None, false);
    rows.push(result_row(id, &text, error, ctx));
}

/// The text of a tool's response and whether it failed: an `error`, or a shell command's
/// output with its exit code (not 0: an error), else the output (or the display string).
fn response_text(
    name: &str,
    response: Option<&Response>,
    display: Option<&str>,
    failed: bool,
) -> (String, bool) {
    let display = display.filter(|d| !d.trim().is_empty());
    if let Some(err) = response.and_then(|r| r.error.as_deref()) {
        return (err.to_owned(), true);
    }
    let output = response
        .and_then(|r| r.output.as_deref())
        .map(unwrap_context)
        .unwrap_or("");
    if name == "run_shell_command" {
        let exit = shell_exit(output).filter(|c| *c != 0);
        let mut text = match display {
            Some(d) => d.to_owned(),
            None => output.strip_prefix("Output: ").unwrap_or(output).to_owned(),
        };
        if let Some(code) = exit
            && display.is_some()
        {
            text.push_str(&format!("\nExit Code: {code}"));
        }
        return (text, failed || exit.is_some());
    }
    let text = if output.trim().is_empty() {
        display.unwrap_or("")
    } else {
        output
    };
    (text.to_owned(), failed)
}

fn gemini(
    record: &Record,
    at: usize,
    text: &str,
    new_text: bool,
    ctx: &mut ClassifyCtx,
    rows: &mut Vec<TermMsg>,
) {
    if !ctx.gemini.turn_open {
        ctx.gemini.turn_open = true;
        rows.push(turn_start_row("user", ""));
    }
    if let Some(thoughts) = &record.thoughts {
        let from = ctx.gemini.seen.messages[at].thoughts.min(thoughts.len());
        for t in &thoughts[from..] {
            rows.push(thought_row(t));
        }
        ctx.gemini.seen.messages[at].thoughts = thoughts.len();
    }
    if new_text && !text.trim().is_empty() {
        rows.push(
            TermMsg::new(Level::Info, "")
                .body_as(text, BodyFormat::Markdown)
                .coalesce(format!("gemini-msg:{}", truncate_chars(record.id(), 80))),
        );
    }
    let calls = record.tool_calls.as_deref();
    ctx.gemini.seen.answered = calls.is_none_or(<[Call]>::is_empty);
    if is_api_error(text) {
        ctx.gemini.seen.failed = Some(super::run_end::why_text(Some(text)));
    }
    for call in calls.into_iter().flatten() {
        let cid = call.id.as_deref().unwrap_or("");
        let h = digest(cid);
        if ctx.gemini.seen.messages[at].calls.contains(&h) {
            continue;
        }
        ctx.gemini.seen.messages[at].calls.push(h);
        let name = call.name.as_deref().unwrap_or("tool");
        ctx.record_tool_use(cid, name);
        let args = call.args.as_ref().unwrap_or(&Value::Null);
        rows.push(with_diff(
            call_row(name, args),
            file_diff(call.display.file_diff.as_deref()),
        ));
        let status = call.status.as_deref();
        let response = call.response();
        if response.is_none() && !matches!(status, Some("success" | "error")) {
            continue;
        }
        ctx.gemini.seen.add_result(h);
        let display = call.display.text.as_deref();
        let (text, error) = response_text(name, response, display, status == Some("error"));
        rows.push(result_row(cid, &text, error, ctx));
    }
}

/// A message that is the CLI's report of a failed API call (`[API Error: …]`).
fn is_api_error(text: &str) -> bool {
    text.trim_start().starts_with("[API Error")
}

/// `💭 <subject> — <description>` (debug).
fn thought_row(t: &Thought) -> TermMsg {
    fn get(s: Option<&str>) -> &str {
        s.unwrap_or("").trim()
    }
    let text = match (get(t.subject.as_deref()), get(t.description.as_deref())) {
        ("", "") => "thinking …".to_owned(),
        (s, "") => s.to_owned(),
        ("", d) => d.to_owned(),
        (s, d) => format!("{s} — {d}"),
    };
    TermMsg::new(Level::Debug, text).icon(crate::kind::icon::THINKING)
}

/// A message's text: a string, or its `text` parts joined by a blank line (borrowed when
/// there is one).
fn content_text(content: &Content) -> Cow<'_, str> {
    match content {
        Content::Text(s) | Content::Json(s) => Cow::Borrowed(s),
        Content::Parts(parts) => {
            let texts: Vec<&str> = parts.iter().filter_map(|p| p.text.as_deref()).collect();
            match texts.as_slice() {
                [] => Cow::Borrowed(""),
                [one] => Cow::Borrowed(one),
                _ => Cow::Owned(texts.join("\n\n")),
            }
        }
        Content::Nothing => Cow::Borrowed(""),
    }
}
