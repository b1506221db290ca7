//! The header's badges (`GET …/state`): what a session's events say about the agent now.
//!
//! [`Fold::apply`] folds one event (and the rows it classified to) into the badges; the
//! writer applies every event as it is stored and checkpoints the result beside the
//! classifier context, so the badges are never recomputed from the whole log.

use classifier::{Level, LiveEvent, LogEvent, RowKind, TermEnvelope, row_kind};
use serde_json::Value;

/// The badges (and their turn bookkeeping, `contract::state::Turn`): the contract's (docs/API.md, `GET …/state`),
/// folded here ([`Fold`]).
pub use contract::state::Badges;

/// Folding events into the [`Badges`].
pub trait Fold {
    /// Folds in one event at time `ts` that classified to `env` (whose `ts` is `ts`).
    fn apply(&mut self, event: &LogEvent, ts: f64, env: &TermEnvelope);
}

impl Fold for Badges {
    fn apply(&mut self, event: &LogEvent, ts: f64, env: &TermEnvelope) {
        for msg in &env.msgs {
            match msg.level {
                Level::Error => self.errors += 1,
                Level::Warn => self.warnings += 1,
                Level::Debug | Level::Info => {}
            }
        }
        self.active_tools.apply(event, env);
        match &event.event {
            LiveEvent::StatusChanged { status } => self.status = Some(capped(status)),
            LiveEvent::ModelChanged { model } => self.model = Some(capped(model)),
            LiveEvent::EffortChanged { effort } => self.effort = Some(capped(effort)),
            LiveEvent::TokenUsageChanged { usage } => self.usage = Some(capped(usage)),
            LiveEvent::TurnStateChanged { state } => self.turn_state = Some(capped(state)),
            LiveEvent::Stream { value } => self.stream(value),
            _ => {}
        }
        // Turns are the main agent's turn rows, whatever the format (docs/ROWS.md): a
        // hyperhive `turn_start`/`turn_end`, a Claude Code `init` or prompt and its `result`,
        // a transcript's prompts, Codex's and Gemini's turns; an interruption ends one too.
        if env.parent.is_some() {
            return;
        }
        for msg in &env.msgs {
            match row_kind(msg) {
                RowKind::TurnStart => {
                    let from = match &event.event {
                        LiveEvent::TurnStart { from, .. } => Some(capped_str(from)),
                        _ => None,
                    };
                    self.start_turn(ts, from);
                }
                kind @ (RowKind::TurnOk | RowKind::TurnFail | RowKind::Interrupted) => {
                    self.turn.in_flight = false;
                    if kind != RowKind::Interrupted {
                        self.turn.last_ok = Some(kind == RowKind::TurnOk);
                    }
                }
                _ => {}
            }
        }
    }
}

/// The steps of [`Fold::apply`].
trait Steps {
    fn start_turn(&mut self, ts: f64, from: Option<String>);
    fn stream(&mut self, value: &Value);
}

impl Steps for Badges {
    fn start_turn(&mut self, ts: f64, from: Option<String>) {
        self.turn.in_flight = true;
        self.turn.since = Some(ts);
        self.turn.from = from;
        self.turn.count += 1;
    }

    /// A Claude Code line: `system/init` names the model; assistant messages carry model and
    /// usage; `result` lines carry cost, duration and usage (the turns are the rows'); a
    /// transcript's `cost-state` lines the cost.
    fn stream(&mut self, value: &Value) {
        let str_of = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
        match value.get("type").and_then(Value::as_str) {
            Some("system") if value.get("subtype").and_then(Value::as_str) == Some("init") => {
                if let Some(model) = str_of(value, "model") {
                    self.model = Some(Value::String(capped_str(&model)));
                }
            }
            Some("assistant") => {
                let Some(message) = value.get("message") else {
                    return;
                };
                if let Some(model) = str_of(message, "model")
                    && !model.starts_with('<')
                {
                    self.model = Some(Value::String(capped_str(&model)));
                }
                if let Some(usage) = message.get("usage").filter(|u| u.is_object()) {
                    self.usage = Some(capped(usage));
                }
            }
            Some("result") => {
                self.results += 1;
                if let Some(cost) = value.get("total_cost_usd").and_then(Value::as_f64)
                    && cost.is_finite()
                {
                    self.cost_usd = self.cost_usd.max(cost);
                }
                // A sum saturates: two `1e308`s made it infinite, which JSON stores as null
                // and the checkpoint could not be read back.
                if let Some(ms) = value.get("duration_ms").and_then(Value::as_f64)
                    && ms.is_finite()
                    && ms >= 0.0
                {
                    self.duration_ms = (self.duration_ms + ms).min(f64::MAX);
                }
                if let Some(usage) = value.get("usage").filter(|u| u.is_object()) {
                    self.usage = Some(capped(usage));
                }
            }
            // A transcript states its running cost here only (issue 45): cumulative as
            // `result`'s, so the largest of both is the session's, counted once.
            Some("cost-state") => {
                if let Some(cost) = value.get("totalCostUSD").and_then(Value::as_f64)
                    && cost.is_finite()
                {
                    self.cost_usd = self.cost_usd.max(cost);
                }
            }
            _ => {}
        }
    }
}

/// Longest badge string kept, in characters; longer ones are cut with `…`.
pub const MAX_BADGE_CHARS: usize = 200;
/// Largest badge value kept whole, as JSON; a larger one is replaced by a note of its size.
pub const MAX_BADGE_JSON: usize = 4096;

/// A badge string, cut to [`MAX_BADGE_CHARS`].
fn capped_str(s: &str) -> String {
    match s.char_indices().nth(MAX_BADGE_CHARS) {
        None => s.to_owned(),
        Some((at, _)) => format!("{}…", &s[..at]),
    }
}

/// A badge value as kept: a string cut to [`MAX_BADGE_CHARS`], any other value over
/// [`MAX_BADGE_JSON`] bytes of JSON replaced by a string saying so (a badge of any size
/// would be kept in memory and in every checkpoint).
fn capped(v: &Value) -> Value {
    match v {
        Value::String(s) => Value::String(capped_str(s)),
        Value::Null | Value::Bool(_) | Value::Number(_) => v.clone(),
        _ => {
            let len = serde_json::to_vec(v).map_or(usize::MAX, |j| j.len());
            if len <= MAX_BADGE_JSON {
                v.clone()
            } else {
                Value::String(format!("(a {len}-byte value)"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use classifier::{ClassifyCtx, classify_log_event, parse_line};

    fn fold(lines: &[&str]) -> Badges {
        let mut ctx = ClassifyCtx::new();
        let mut badges = Badges::default();
        for (i, line) in lines.iter().enumerate() {
            let ev = parse_line(line.as_bytes());
            let env = classify_log_event(&ev, &mut ctx);
            let mut env = env;
            env.ts = Some(i as f64);
            badges.apply(&ev, i as f64, &env);
        }
        badges
    }

    #[test]
    fn hyperhive_turn_and_state_events() {
        let b = fold(&[
            r#"{"kind":"turn_start","ts":1,"from":"operator","body":"go"}"#,
            r#"{"kind":"status_changed","ts":1,"status":"busy"}"#,
            r#"{"kind":"model_changed","ts":1,"model":"m1"}"#,
            r#"{"kind":"effort_changed","ts":1,"effort":"high"}"#,
            r#"{"kind":"token_usage_changed","ts":1,"usage":{"input_tokens":5}}"#,
            r#"{"kind":"turn_state_changed","ts":1,"state":"running"}"#,
        ]);
        assert!(b.turn.in_flight);
        assert_eq!(b.turn.from.as_deref(), Some("operator"));
        assert_eq!(b.turn.count, 1);
        assert_eq!(b.status, Some(Value::from("busy")));
        assert_eq!(b.model, Some(Value::from("m1")));
        assert_eq!(b.effort, Some(Value::from("high")));
        assert_eq!(b.usage, Some(serde_json::json!({"input_tokens": 5})));
        assert_eq!(b.turn_state, Some(Value::from("running")));
    }

    #[test]
    fn turn_end_failed_counts_an_error() {
        let b = fold(&[
            r#"{"kind":"turn_start","ts":1,"from":"operator","body":"go"}"#,
            r#"{"kind":"note","ts":2,"text":"stderr: oops"}"#,
            r#"{"kind":"turn_end","ts":3,"ok":false,"note":"exit 1"}"#,
        ]);
        assert!(!b.turn.in_flight);
        assert_eq!(b.turn.last_ok, Some(false));
        assert_eq!((b.errors, b.warnings), (1, 1));
    }

    #[test]
    fn raw_stream_json_init_and_results() {
        let b = fold(&[
            r#"{"type":"system","subtype":"init","model":"claude-x"}"#,
            r#"{"type":"result","subtype":"success","is_error":false,"total_cost_usd":0.5,"duration_ms":1000,"usage":{"output_tokens":3}}"#,
            r#"{"type":"system","subtype":"init","model":"claude-x"}"#,
            r#"{"type":"result","subtype":"success","is_error":true,"total_cost_usd":0.75,"duration_ms":500}"#,
        ]);
        assert_eq!(b.model, Some(Value::from("claude-x")));
        assert_eq!(b.turn.count, 2);
        assert!(!b.turn.in_flight);
        assert_eq!(b.turn.last_ok, Some(false));
        assert_eq!(b.results, 2);
        assert!((b.cost_usd - 0.75).abs() < 1e-9);
        assert!((b.duration_ms - 1500.0).abs() < 1e-9);
        assert_eq!(b.usage, Some(serde_json::json!({"output_tokens": 3})));
    }

    /// Regression: the cost badge summed `total_cost_usd`, which Claude Code reports
    /// cumulative within a session (a run with a background task's extra result showed its
    /// cost twice). The session's cost is the largest.
    #[test]
    fn cost_badge_is_the_largest_cumulative_total_cost_not_the_sum() {
        for (costs, want) in [
            (&[0.5, 0.75][..], 0.75),
            (&[0.75, 0.5], 0.75),
            (&[0.1, 0.1, 0.1], 0.1),
            (&[], 0.0),
        ] {
            let lines: Vec<String> = costs
                .iter()
                .map(|c| format!(r#"{{"type":"result","subtype":"success","total_cost_usd":{c}}}"#))
                .collect();
            let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
            let b = fold(&lines);
            assert_eq!(b.cost_usd, want, "{costs:?}");
            assert_eq!(b.results, costs.len() as u64);
        }
    }

    /// Issue 45.3: a Claude Code 2.1.332 transcript states its cost only in `cost-state`
    /// lines (running totals, resumed runs included); the header said nothing. With a stream's
    /// `result` of the same run, the cost is counted once.
    #[test]
    fn issue_45_cost_badge_reads_a_transcripts_cost_state_once() {
        let state = |c: f64| format!(r#"{{"type":"cost-state","totalCostUSD":{c}}}"#);
        let result = |c: f64| format!(r#"{{"type":"result","total_cost_usd":{c}}}"#);
        for (lines, want) in [
            (
                vec![state(0.001376), state(0.003288), state(0.012276)],
                0.012276,
            ),
            (vec![state(0.012276), result(0.012276)], 0.012276),
            (vec![result(0.5), state(0.25)], 0.5),
            (vec![state(0.0)], 0.0),
        ] {
            let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
            assert_eq!(fold(&lines).cost_usd, want, "{lines:?}");
        }
    }

    #[test]
    fn unreadable_line_counts_an_error() {
        let b = fold(&["not json"]);
        assert_eq!(b.errors, 1);
    }

    /// Issue 21, point 4: a transcript has no `init` and no `result`; its prompts are its
    /// turns, as the summary counts them (the turns badge said nothing).
    #[test]
    fn transcript_prompts_count_turns() {
        let b = fold(&[
            r#"{"type":"user","message":{"role":"user","content":"first"},"uuid":"u1","timestamp":"2026-11-30T02:15:18.985Z","sessionId":"s"}"#,
            r#"{"type":"assistant","message":{"role":"assistant","model":"claude-x","content":[{"type":"text","text":"ok"}]},"uuid":"a1","timestamp":"2026-11-30T02:15:19.985Z","sessionId":"s"}"#,
            r#"{"type":"user","message":{"role":"user","content":"second"},"uuid":"u2","timestamp":"2026-11-30T02:15:20.985Z","sessionId":"s"}"#,
        ]);
        assert_eq!(b.turn.count, 2);
    }

    /// A prompt echoed before its `init` (stream-json with `--replay-user-messages`) and the
    /// `init` are one turn, not two.
    #[test]
    fn an_echoed_prompt_and_its_init_are_one_turn() {
        let b = fold(&[
            r#"{"type":"user","message":{"role":"user","content":"go"}}"#,
            r#"{"type":"system","subtype":"init","model":"claude-x"}"#,
            r#"{"type":"result","subtype":"success","is_error":false}"#,
        ]);
        assert_eq!(b.turn.count, 1);
        assert!(!b.turn.in_flight);
    }

    /// Codex's and Gemini's turns start and end the turn badge as Claude Code's do.
    #[test]
    fn codex_turns_are_counted_and_end() {
        let b = fold(&[
            r#"{"type":"thread.started","thread_id":"t"}"#,
            r#"{"type":"turn.started"}"#,
            r#"{"type":"item.started","item":{"id":"i0","type":"command_execution","command":"sleep 9","aggregated_output":"","exit_code":null,"status":"in_progress"}}"#,
        ]);
        assert_eq!(b.turn.count, 1);
        assert!(b.turn.in_flight);
        assert_eq!(b.active_tools.calls().len(), 1);
        assert_eq!(b.active_tools.calls()[0].since, Some(2.0));
        let b = fold(&[
            r#"{"type":"thread.started","thread_id":"t"}"#,
            r#"{"type":"turn.started"}"#,
            r#"{"type":"turn.failed","error":{"message":"boom"}}"#,
        ]);
        assert!(!b.turn.in_flight);
        assert_eq!(b.turn.last_ok, Some(false));
    }
}
