//! The rows both Codex formats make, built from the crate's own row makers: the Bash row and
//! the tool result rows of Claude Code logs, the `💭` row, the flat markdown row, the
//! `⚠ api retry` / `✗ api error` rows, and the generic row of an item nobody knows.

use crate::field::Field;
use serde_json::{Map, Value};

use serde::de::MapAccess;

use super::fact::Usage;
use crate::ctx::ClassifyCtx;
use crate::kind::icon;
use crate::lean::lax::{Fields, Message, lax, read_line, skip};
use crate::msg::{BodyFormat, Level, TermMsg};
use crate::text::{fold_whitespace, one_line, preview, push_u64};
use crate::time::millis;

/// Longest error text in a one-line summary.
const ERROR_CHARS: usize = 200;
/// The summary prefix of an API error row (also how the summary tells it from a tool error).
pub(crate) const API_ERROR: &str = "✗ api error";

/// The Bash row of a shell command (`🖥️ Bash $ <cmd>`), as Claude Code's Bash calls show.
pub(crate) fn bash_row(cmd: &str) -> TermMsg {
    crate::tools::bash_row(cmd)
}

/// A tool's result: the tool result row of Claude Code logs (`← text`, `Nl · …` with a
/// body), an error when `failed`; an exit code other than 0 leads the summary (`exit 3 · …`).
pub(crate) fn result_row(
    text: &str,
    exit: Option<i64>,
    failed: bool,
    ctx: &mut ClassifyCtx,
) -> TermMsg {
    let failed = failed || exit.is_some_and(|c| c != 0);
    let text = if failed && text.trim().is_empty() {
        "failed"
    } else {
        text
    };
    let mut row = crate::stream::result_text_row(text, failed, None, ctx);
    if let Some(code) = exit.filter(|c| *c != 0) {
        row.summary = format!("exit {code} · {}", row.summary);
    }
    row
}

/// The agent's text: a flat markdown row (none when blank).
pub(crate) fn text_row(text: &str) -> Option<TermMsg> {
    (!text.trim().is_empty())
        .then(|| TermMsg::new(Level::Info, "").body_as(text, BodyFormat::Markdown))
}

/// Reasoning: `💭 <summary>` (debug), the raw reasoning as its body when the log has it.
pub(crate) fn reasoning_row(summary: &str, raw: &str) -> TermMsg {
    let summary = summary.trim();
    let raw = raw.trim();
    let head = match (summary.is_empty(), raw.is_empty()) {
        (false, _) => summary.to_owned(),
        (true, false) => "reasoning …".to_owned(),
        (true, true) => "thinking … (encrypted)".to_owned(),
    };
    let row = TermMsg::new(Level::Debug, head).icon(icon::THINKING);
    if raw.is_empty() { row } else { row.body(raw) }
}

/// `Reconnecting... 1/2 (why)` → `⚠ api retry · 1/2 · why` (warn); any other API error →
/// `✗ api error · <message>` (error), the whole message as the body when cut.
pub(crate) fn api_error_row(message: &str) -> TermMsg {
    if let Some(rest) = message
        .strip_prefix("Reconnecting...")
        .or_else(|| message.strip_prefix("Reconnecting…"))
    {
        let rest = rest.trim();
        let (count, why) = match rest.split_once(' ') {
            Some((n, why)) if n.contains('/') => (n, why.trim()),
            _ => ("", rest),
        };
        let why = why
            .strip_prefix('(')
            .and_then(|w| w.strip_suffix(')'))
            .unwrap_or(why);
        let mut summary = "⚠ api retry".to_owned();
        for part in [count, why] {
            if !part.is_empty() {
                summary.push_str(" · ");
                summary.push_str(&one_line(part, ERROR_CHARS));
            }
        }
        return TermMsg::new(Level::Warn, summary);
    }
    let why = error_message(message);
    let one = one_line(&why, ERROR_CHARS);
    let row = TermMsg::new(Level::Error, [API_ERROR, " · ", &one].concat());
    if one == why.trim() {
        row
    } else {
        row.body(message)
    }
}

/// The message of an error: the `error.message` of a JSON error body
/// (`{"error": {"message": …}}`), else the text itself.
///
/// The body is read field by field ([`ErrorBody`]), as its whole parse would answer: a body that
/// is not JSON to its end is the text itself.
pub(crate) fn error_message(text: &str) -> String {
    if text.trim_start().starts_with('{')
        && let Some(body) = read_line::<ErrorBody>(text)
        && let Some(m) = body.error.and_then(|e| e.text).or(body.message)
    {
        return m;
    }
    text.to_owned()
}

/// The fields of a JSON error body [`error_message`] reads: `error` (its `message`, or itself
/// when a string) and `message` (a string), the last of each when written twice.
#[derive(Default)]
struct ErrorBody {
    error: Option<Message>,
    message: Option<String>,
}

impl Fields for ErrorBody {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "error" => self.error = lax(map)?,
            "message" => self.message = lax(map)?,
            _ => skip(map)?,
        }
        Ok(())
    }
}

/// A shape this module does not know, inside a line it does: `⚙ <what> · <preview>` (info),
/// the raw JSON as the body. Visible, never dropped.
pub(crate) fn generic_row(what: &str, value: &Value) -> TermMsg {
    let salient = ["text", "message", "command", "query", "name", "path"]
        .iter()
        .find_map(|k| value.get(*k).and_then(Value::as_str))
        .map(preview)
        .unwrap_or_default();
    let summary = if salient.is_empty() {
        format!("⚙ {what}")
    } else {
        format!("⚙ {what} · {salient}")
    };
    TermMsg::new(Level::Info, summary).body(value.to_string())
}

/// A debug row `⚙ <what>` with `text` as its body (none when blank).
pub(crate) fn debug_row(what: &str, text: &str) -> TermMsg {
    let row = TermMsg::new(Level::Debug, format!("⚙ {what}"));
    if text.trim().is_empty() {
        row
    } else {
        row.body(text)
    }
}

/// Token figures of a Codex `usage` object for a turn end's body:
/// `tokens <label>N in (C cached) · N out (R reasoning)`; `None` without figures.
pub(crate) fn usage_line(label: &str, usage: Option<&Usage>) -> Option<String> {
    let u = usage?;
    if u.input.is_none() && u.output.is_none() {
        return None;
    }
    let mut s = String::with_capacity(96);
    s.push_str("tokens");
    s.push_str(label);
    s.push(' ');
    push_u64(&mut s, u.input.unwrap_or(0));
    s.push_str(" in");
    if let Some(c) = u.cached.filter(|c| *c > 0) {
        s.push_str(" (");
        push_u64(&mut s, c);
        s.push_str(" cached)");
    }
    s.push_str(" · ");
    push_u64(&mut s, u.output.unwrap_or(0));
    s.push_str(" out");
    if let Some(r) = u.reasoning.filter(|r| *r > 0) {
        s.push_str(" (");
        push_u64(&mut s, r);
        s.push_str(" reasoning)");
    }
    Some(s)
}

/// A plan (`todo_list` item, `update_plan` call): `📋 plan · D/N done` is not a tool call
/// row here but the plan's state, updated in place (coalesce key), its items as a markdown
/// checklist.
pub(crate) fn plan_row(items: &[(String, bool)], key: &str) -> TermMsg {
    let done = items.iter().filter(|(_, d)| *d).count();
    let body: Vec<String> = items
        .iter()
        .map(|(t, d)| format!("- [{}] {}", if *d { "x" } else { " " }, fold_whitespace(t)))
        .collect();
    let row = TermMsg::new(Level::Info, format!("plan · {done}/{} done", items.len()))
        .coalesce(format!("codex-plan:{key}"));
    if body.is_empty() {
        row
    } else {
        row.body_as(body.join("\n"), BodyFormat::Markdown)
    }
}

/// A turn end's figures: time (and time to first token), then tokens of the turn.
pub(crate) fn figures(p: &Map<String, Value>, usage: Option<String>) -> String {
    let n = |k: &str| p.field(k).and_then(Value::as_f64);
    let mut out = Vec::new();
    match (
        n("duration_ms").and_then(millis),
        n("time_to_first_token_ms").and_then(millis),
    ) {
        (Some(d), Some(f)) => out.push(format!("time {d} (first token {f})")),
        (Some(d), None) => out.push(format!("time {d}")),
        _ => {}
    }
    out.extend(usage);
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `error_message` answered when it parsed the whole body into a `Value`.
    fn by_whole_parse(text: &str) -> String {
        if text.trim_start().starts_with('{')
            && let Ok(v) = serde_json::from_str::<Value>(text)
            && let Some(m) = v
                .field("error")
                .and_then(|e| e.field("message").or(Some(e)))
                .and_then(Value::as_str)
                .or_else(|| v.field("message").and_then(Value::as_str))
        {
            return m.to_owned();
        }
        text.to_owned()
    }

    /// The body read field by field answers as its whole parse did, on every body of up to
    /// three fields of these keys and values (duplicates, nesting, odd types, broken JSON).
    #[test]
    fn an_error_body_reads_as_its_whole_parse() {
        let keys = ["\"error\"", "\"message\"", "\"code\"", "\"mess\\u0061ge\""];
        let values = [
            "\"boom\"",
            "{\"message\":\"deep\"}",
            "{\"message\":3}",
            "{\"message\":\"a\",\"message\":null}",
            "{\"type\":\"x\"}",
            "{}",
            "null",
            "1e999",
            "[\"x\"]",
            "\"\\ud800\"",
            "\"a\\u0000b\"",
            "{\"message\":\"x\"",
        ];
        let fields: Vec<String> = keys
            .iter()
            .flat_map(|k| values.iter().map(move |v| format!("{k}:{v}")))
            .collect();
        let mut n = 0;
        let mut check = |body: String| {
            for text in [body.clone(), format!("  {body} "), format!("{body}x")] {
                assert_eq!(error_message(&text), by_whole_parse(&text), "{text}");
                n += 1;
            }
        };
        check("{}".to_owned());
        for a in &fields {
            check(format!("{{{a}}}"));
            for b in &fields {
                check(format!("{{{a},{b}}}"));
                for c in fields.iter().step_by(5) {
                    check(format!("{{{a},{b},{c}}}"));
                }
            }
        }
        for odd in [
            "{",
            "{\"error\"}",
            "[1]",
            "not json",
            "",
            "{\"error\":{\"message\":\"m\"}} {}",
        ] {
            check(odd.to_owned());
        }
        assert!(n > 20_000, "{n}");
    }
}
