//! How a Gemini run ended: why it failed (`error`, an `[API Error: <JSON>]` read for its code
//! and message) and its figures (a stream-json `result`'s [`Stats`], the `-o json` document's
//! `stats`), the body of its `✅ turn ok` / `❌ turn fail` row ([`super::stream`]).

use crate::field::Field;
use serde_json::Value;

use super::typed::Stats;
use crate::msg::TermMsg;
use crate::text::{push_u64, truncate_chars};
use crate::time::millis;

/// Longest `<why>` of a failed turn.
const WHY_CHARS: usize = 160;

/// Why a run failed, from its `error` {`type`, `message`}: an `[API Error: <JSON>]` message as
/// `API error <code>: <its message>`.
pub(super) fn why(err: Option<&Value>) -> String {
    why_text(error_text(err).0)
}

/// An `error` written, and its message if it has one.
pub(super) struct Why<'a>(pub(super) Option<&'a str>);

/// An `error`'s message: its `message` when a map, itself when a string.
pub(super) fn error_text(err: Option<&Value>) -> Why<'_> {
    Why(err
        .and_then(|e| e.field("message"))
        .and_then(Value::as_str)
        .or_else(|| err.and_then(Value::as_str)))
}

/// [`why`] of an error's message (`None`: it has none).
pub(super) fn why_text(msg: Option<&str>) -> String {
    let msg = msg.unwrap_or("error");
    let inner = msg
        .trim()
        .strip_prefix("[API Error: ")
        .and_then(|r| r.strip_suffix(']'))
        .unwrap_or(msg.trim());
    let api = serde_json::from_str::<Value>(inner).ok();
    let api = api.as_ref().and_then(|v| v.field("error"));
    let why = match api {
        Some(e) => {
            let m = e.field("message").and_then(Value::as_str).unwrap_or("");
            match e.field("code").and_then(Value::as_i64) {
                Some(code) => format!("API error {code}: {m}"),
                None => format!("API error: {m}"),
            }
        }
        None => msg.trim().lines().next().unwrap_or("error").to_owned(),
    };
    truncate_chars(&why, WHY_CHARS)
}

pub(super) fn with_figures(row: TermMsg, figures: String) -> TermMsg {
    if figures.is_empty() {
        row
    } else {
        row.body(figures)
    }
}

/// A stream-json `result`'s figures, one a line: `time`, `tokens … in · … out · … cache read
/// · … total`, `tool calls N`, `models a, b`.
pub(super) fn figures(stats: Option<&Stats>) -> String {
    let Some(st) = stats else {
        return String::new();
    };
    let mut out = String::with_capacity(128);
    let line = |out: &mut String, head: &str| {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(head);
    };
    if let Some(ms) = st.duration_ms
        && let Some(d) = millis(ms)
    {
        line(&mut out, "time ");
        out.push_str(&d);
    }
    let tokens = [
        (st.input_tokens, " in"),
        (st.output_tokens, " out"),
        (st.cached, " cache read"),
        (st.total_tokens, " total"),
    ];
    let mut first = true;
    for (n, label) in tokens {
        let Some(n) = n else { continue };
        if first {
            line(&mut out, "tokens ");
            first = false;
        } else {
            out.push_str(" · ");
        }
        push_u64(&mut out, n);
        out.push_str(label);
    }
    if let Some(t) = st.tool_calls {
        line(&mut out, "tool calls ");
        push_u64(&mut out, t);
    }
    if let Some(models) = &st.models
        && !models.is_empty()
    {
        line(&mut out, "models ");
        for (i, m) in models.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(m);
        }
    }
    out
}

/// The `-o json` document's figures: API time, tokens summed over its models, tool calls,
/// models, lines changed.
pub(super) fn json_figures(stats: Option<&Value>) -> String {
    let Some(st) = stats else {
        return String::new();
    };
    let mut out = Vec::new();
    let t = super::summary::json_tokens(st);
    let mut api_ms = 0.0;
    let mut names = Vec::new();
    if let Some(models) = st.field("models").and_then(Value::as_object) {
        for (name, m) in models {
            names.push(name.as_str());
            api_ms += m
                .pointer("/api/totalLatencyMs")
                .and_then(Value::as_f64)
                .unwrap_or(0.0);
        }
    }
    if let Some(d) = millis(api_ms).filter(|_| api_ms > 0.0) {
        out.push(format!("API time {d}"));
    }
    out.push(format!(
        "tokens {} in · {} out · {} cache read · {} thoughts",
        t.input, t.output, t.cached, t.thoughts
    ));
    if let Some(calls) = st.pointer("/tools/totalCalls").and_then(Value::as_u64) {
        let fail = st
            .pointer("/tools/totalFail")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        out.push(format!("tool calls {calls} ({fail} failed)"));
    }
    if !names.is_empty() {
        out.push(format!("models {}", names.join(", ")));
    }
    let lines = |k: &str| st.pointer(&format!("/files/{k}")).and_then(Value::as_u64);
    if let (Some(a), Some(r)) = (lines("totalLinesAdded"), lines("totalLinesRemoved"))
        && a + r > 0
    {
        out.push(format!("lines +{a} -{r}"));
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `figures` as it was first written, a `format!`ed line per figure: the reference.
    fn figures_by_format(st: &Stats) -> String {
        let mut out = Vec::new();
        if let Some(ms) = st.duration_ms
            && let Some(d) = millis(ms)
        {
            out.push(format!("time {d}"));
        }
        let tokens: Vec<String> = [
            (st.input_tokens, "in"),
            (st.output_tokens, "out"),
            (st.cached, "cache read"),
            (st.total_tokens, "total"),
        ]
        .iter()
        .filter_map(|(n, label)| n.map(|v| format!("{v} {label}")))
        .collect();
        if !tokens.is_empty() {
            out.push(format!("tokens {}", tokens.join(" · ")));
        }
        if let Some(t) = st.tool_calls {
            out.push(format!("tool calls {t}"));
        }
        if let Some(models) = &st.models
            && !models.is_empty()
        {
            out.push(format!("models {}", models.join(", ")));
        }
        out.join("\n")
    }

    /// Every figure present or not (durations of no text included), with every list of models.
    #[test]
    fn figures_are_the_formatted_lines() {
        let models = [
            None,
            Some(vec![]),
            Some(vec!["gemini-3".to_owned()]),
            Some(vec!["a".to_owned(), "b".to_owned()]),
        ];
        for mask in 0..128u32 {
            let has = |bit: u32| mask & (1 << bit) != 0;
            let n = |bit: u32, v: u64| has(bit).then_some(v);
            for models in &models {
                let st = Stats {
                    duration_ms: has(0).then_some(if has(6) { 1234.0 } else { -1.0 }),
                    input_tokens: n(1, 0),
                    output_tokens: n(2, 42),
                    cached: n(3, u64::MAX),
                    total_tokens: n(4, 1_000_000),
                    tool_calls: n(5, 7),
                    models: models.clone(),
                    model_figures: Vec::new(),
                };
                assert_eq!(figures(Some(&st)), figures_by_format(&st), "{st:?}");
            }
        }
        assert_eq!(figures(None), "");
    }
}
