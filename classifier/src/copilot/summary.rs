//! A Copilot CLI line's share of the summary: the agent's version (`session.start`'s
//! `copilotVersion`), models (`selectedModel`, each message's `model`), tool calls by
//! Copilot's names (an `assistant.message`'s `toolRequests`), tool errors (a failed result, a command
//! that exited non-zero), files changed (`create` and `edit` paths) and tokens (each
//! `session.usage_record`: only the store has them; the stdout states none). No cost: Copilot
//! writes none in money.

use crate::field::Field;
use serde_json::Value;

use crate::summary::files::Kept;
use crate::summary::report::Summary;

/// Folds in one Copilot line; the tokens it states, if any (in, out, cache read, cache
/// write), for the fold to add.
pub(crate) fn add(value: &Value, summary: &mut Summary, kept: &mut Kept) -> Option<[u64; 4]> {
    let ty = value.field("type").and_then(Value::as_str)?;
    let data = value.field("data")?;
    let s = |k: &str| data.field(k).and_then(Value::as_str);
    let model = |m: Option<&str>, kept: &mut Kept, summary: &mut Summary| {
        if let Some(m) = m.filter(|m| !m.is_empty()) {
            kept.model(summary, m);
        }
    };
    match ty {
        "session.start" => {
            if summary.agent_version.is_none()
                && let Some(v) = s("copilotVersion").filter(|v| !v.is_empty() && v.len() <= 64)
            {
                summary.agent_version = Some(v.to_owned());
            }
            model(s("selectedModel"), kept, summary);
        }
        "session.resume" => model(s("selectedModel"), kept, summary),
        "assistant.message" => {
            model(s("model"), kept, summary);
            let calls = data.field("toolRequests").and_then(Value::as_array);
            for c in calls.map(Vec::as_slice).unwrap_or_default() {
                let name = c.field("name").and_then(Value::as_str).unwrap_or("?");
                kept.tool(summary, name);
                if matches!(name, "create" | "edit")
                    && let Some(path) = c
                        .field("arguments")
                        .and_then(|a| a.field("path"))
                        .and_then(Value::as_str)
                {
                    kept.file(path);
                }
            }
        }
        "tool.execution_complete" => {
            let exit = data
                .field("shellExecution")
                .and_then(|e| e.field("exitCode"))
                .and_then(Value::as_i64);
            if data.field("success").and_then(Value::as_bool) == Some(false)
                || exit.is_some_and(|c| c != 0)
            {
                summary.tool_errors += 1;
            }
        }
        "session.usage_record" => {
            let usage = data.field("usage")?;
            model(usage.field("model").and_then(Value::as_str), kept, summary);
            let n = |k: &str| usage.field(k).and_then(Value::as_u64).unwrap_or(0);
            return Some([
                n("inputTokens"),
                n("outputTokens"),
                n("cacheReadTokens"),
                n("cacheWriteTokens"),
            ]);
        }
        _ => {}
    }
    None
}
