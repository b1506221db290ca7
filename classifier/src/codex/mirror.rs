//! The rollout's `event_msg` `item_completed` mirrors ([`mirror`]: no row, but for code
//! mode's nested commands and patches, which nothing else records) and the calls a rollout
//! has made ([`State`]'s bookkeeping: which ids are calls, which are still in flight).

use crate::field::Field;
use serde_json::{Map, Value};

use super::rows::{bash_row, result_row};
use super::shell::{files_summary, unwrap_argv, unwrap_command};
use super::state::{MAX_PENDING, MAX_REMEMBERED, State};
use super::turn::open;
use crate::ctx::ClassifyCtx;
use crate::msg::{BodyFormat, Level, TermMsg};

/// An `item_completed`: a mirror (no row), unless it is a command or patch no call named.
pub(crate) fn mirror(item: &Map<String, Value>, ctx: &mut ClassifyCtx) -> Vec<TermMsg> {
    let s = |k: &str| item.field(k).and_then(Value::as_str);
    let id = s("id").unwrap_or("");
    match s("type").unwrap_or("") {
        "CommandExecution" if !ctx.codex.is_call(id) => {
            let cmd = match item.field("command") {
                Some(Value::String(c)) => unwrap_command(c).into_owned(),
                other => unwrap_argv(&strings(other)),
            };
            let exit = item.field("exit_code").and_then(Value::as_i64);
            let failed = matches!(s("status"), Some("failed" | "declined"));
            let out = s("aggregated_output").unwrap_or("");
            let result = result_row(out, exit, failed, ctx);
            open(ctx, vec![bash_row(&cmd), result])
        }
        "FileChange" if !ctx.codex.is_call(id) => {
            let (call, diff) = file_changes(item.field("changes"));
            let row = TermMsg::new(Level::Info, call).icon("✏\u{fe0f}");
            let row = if diff.is_empty() {
                row
            } else {
                row.body_as(diff, BodyFormat::Diff)
            };
            let failed = !matches!(s("status"), Some("completed") | None);
            let text = match (s("stdout"), s("stderr")) {
                (_, Some(e)) if failed && !e.trim().is_empty() => e,
                (Some(o), _) if !o.trim().is_empty() => o,
                _ if failed => "patch failed",
                _ => "applied",
            };
            let result = result_row(text, None, failed, ctx);
            open(ctx, vec![row, result])
        }
        _ => Vec::new(),
    }
}

/// A `FileChange`'s `changes` map as a summary and a diff (`*** Add File` + its lines,
/// `*** Update File` + its unified diff, `*** Delete File`).
fn file_changes(changes: Option<&Value>) -> (String, String) {
    let mut files = Vec::new();
    let mut diff = Vec::new();
    let (mut removed, mut added) = (0, 0);
    for (path, c) in changes.and_then(Value::as_object).into_iter().flatten() {
        let cs = |k: &str| c.field(k).and_then(Value::as_str);
        match cs("type") {
            Some("add") => {
                files.push(format!("+{path}"));
                diff.push(format!("*** Add File: {path}"));
                for l in cs("content").unwrap_or("").lines() {
                    added += 1;
                    diff.push(format!("+{l}"));
                }
            }
            Some("delete") => {
                files.push(format!("-{path}"));
                diff.push(format!("*** Delete File: {path}"));
            }
            _ => {
                let to = cs("move_path");
                files.push(match to {
                    Some(to) => format!("{path} → {to}"),
                    None => path.clone(),
                });
                diff.push(format!("*** Update File: {path}"));
                if let Some(to) = to {
                    diff.push(format!("*** Move to: {to}"));
                }
                for l in cs("unified_diff").unwrap_or("").lines() {
                    if l.starts_with('+') {
                        added += 1;
                    } else if l.starts_with('-') {
                        removed += 1;
                    }
                    diff.push(l.to_owned());
                }
            }
        }
    }
    (
        files_summary(files.into_iter(), Some((removed, added))),
        diff.join("\n"),
    )
}

/// A list of strings (an argv); non-strings left out.
pub(crate) fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|w| w.as_str().map(str::to_owned))
        .collect()
}

impl State {
    /// A call was made: remembered for its output and its mirror.
    pub(crate) fn call(&mut self, id: &str, summary: &str) {
        push_capped(&mut self.calls, id.to_owned(), MAX_REMEMBERED);
        push_capped(
            &mut self.pending,
            (id.to_owned(), crate::text::truncate_chars(summary, 120)),
            MAX_PENDING,
        );
    }

    /// Whether `id` is a call's.
    fn is_call(&self, id: &str) -> bool {
        !id.is_empty() && self.calls.iter().any(|c| c == id)
    }

    /// A call's output came: no longer in flight. Returns the call row's summary.
    pub(crate) fn answered(&mut self, id: &str) -> Option<String> {
        let at = self.pending.iter().position(|(c, _)| c == id)?;
        Some(self.pending.remove(at).1)
    }
}

/// Pushes `v`, forgetting the oldest beyond `cap`.
fn push_capped<T>(list: &mut Vec<T>, v: T, cap: usize) {
    if list.len() >= cap {
        list.remove(0);
    }
    list.push(v);
}
