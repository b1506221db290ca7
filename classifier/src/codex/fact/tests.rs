//! The fact read by [`fast`] is what [`Fact::of_payload`] reads from the line's whole parse:
//! on every rollout line of the fixtures and on lines of every odd shape; a line [`fast`]
//! declines is left to the whole parse.

use super::*;

/// `line`, read both ways: the same fact and time, or `fast` declines (`expect_fast` false).
fn check(line: &str, expect_fast: bool) {
    let value: Value = serde_json::from_str(line).expect("test lines are JSON");
    let got = fast(line.as_bytes());
    assert_eq!(got.is_some(), expect_fast, "{line}");
    let map = value.as_object().expect("an object");
    let whole = match (map.get("type").and_then(Value::as_str), map.get("payload")) {
        (Some(ty), Some(Value::Object(p))) => Fact::of_payload(ty, p),
        _ => None,
    };
    let Some((fact, ts)) = got else {
        return;
    };
    assert!(crate::codex::detect::is_codex(map), "{line}: is Codex's");
    assert_eq!(
        ts,
        crate::time::rfc3339(map.get("timestamp")),
        "{line}: time"
    );
    assert_eq!(Some(*fact), whole, "{line}");
}

#[test]
fn facts_of_every_shape_read_alike() {
    let t = r#""timestamp":"2026-12-01T10:00:00.5Z""#;
    let fast_lines = [
        format!(
            r#"{{{t},"type":"token_usage_record","payload":{{"thread_id":"th","turn_token_usage":{{"input_tokens":5,"cached_input_tokens":2,"output_tokens":1,"reasoning_output_tokens":7,"total_tokens":9}},"thread_token_usage":{{"input_tokens":50,"cache_write_input_tokens":3,"output_tokens":10}}}}}}"#
        ),
        format!(
            r#"{{{t},"type":"token_usage_record","payload":{{"session_id":"s","thread_id":5,"turn_token_usage":[1],"thread_token_usage":{{"input_tokens":-1,"output_tokens":2.5,"cached_input_tokens":18446744073709551615}}}}}}"#
        ),
        format!(
            r#"{{{t},"type":"token_usage_record","payload":{{"session_id":"s","thread_token_usage":null}}}}"#
        ),
        format!(r#"{{{t},"type":"token_usage_record","payload":{{}}}}"#),
        format!(
            r#"{{{t},"ordinal":3,"type":"turn_context","payload":{{"cwd":"/x","model":"gpt","sandbox":{{"a":[1,2]}}}},"metadata":{{"m":1}}}}"#
        ),
        format!(r#"{{{t},"type":"turn_context","payload":{{"model":7}}}}"#),
        format!(
            r#"{{{t},"type":"turn_context","payload":{{"model":"a","model":"b","type":"x"}}}}"#
        ),
        format!(
            r#"{{{t},"type":"event_msg","payload":{{"type":"token_count","info":{{"total_token_usage":{{"input_tokens":1,"output_tokens":2}},"last_token_usage":{{}}}},"rate_limits":null}}}}"#
        ),
        format!(r#"{{{t},"type":"event_msg","payload":{{"type":"token_count","info":null}}}}"#),
        format!(
            r#"{{{t},"type":"event_msg","payload":{{"type":"token_count","info":{{"total_token_usage":5}}}}}}"#
        ),
        format!(
            r#"{{{t},"type":"event_msg","payload":{{"type":"thread_settings_applied","thread_settings":{{"model":"m","effort":"x"}}}}}}"#
        ),
        format!(
            r#"{{{t},"type":"event_msg","payload":{{"type":"thread_settings_applied","thread_settings":"m"}}}}"#
        ),
        format!(
            r#"{{{t},"type":"event_msg","payload":{{"type":"task_started","turn_id":"u","model_context_window":1}}}}"#
        ),
        format!(r#"{{{t},"type":"event_msg","payload":{{"type":"turn_started"}}}}"#),
        format!(
            r#"{{{t},"type":"event_msg","payload":{{"type":"item_completed","item":{{"type":"AgentMessage","id":"i","content":[{{"text":"hi"}}]}}}}}}"#
        ),
        format!(r#"{{{t},"type":"event_msg","payload":{{"type":"item_completed","item":5}}}}"#),
        format!(r#"{{{t},"type":"event_msg","payload":{{"type":"item_completed"}}}}"#),
        // The payload before the line's type, and the payload's type after its fields.
        format!(
            r#"{{{t},"payload":{{"info":{{"total_token_usage":{{"input_tokens":1}}}},"type":"token_count"}},"type":"event_msg"}}"#
        ),
        // A field written twice keeps its last value.
        format!(
            r#"{{{t},"type":"event_msg","payload":{{"type":"token_count","info":{{"total_token_usage":{{"input_tokens":1,"input_tokens":4}}}},"info":{{}}}}}}"#
        ),
        r#"{"timestamp":5,"type":"event_msg","payload":{"type":"turn_started"}}"#.to_owned(),
        r#"{"timestamp":"x","timestamp":"2026-12-01T10:00:00Z","type":"event_msg","payload":{"type":"turn_started"}}"#
            .to_owned(),
        // Escaped keys and strings.
        format!(r#"{{{t},"typ\u0065":"turn_context","payload":{{"mod\u0065l":"m\"\u00e9"}}}}"#),
    ];
    for line in &fast_lines {
        check(line, true);
    }
    let whole_lines = [
        // Lines of rows.
        format!(
            r#"{{{t},"type":"response_item","payload":{{"type":"message","role":"user","content":[]}}}}"#
        ),
        format!(
            r#"{{{t},"type":"event_msg","payload":{{"type":"task_complete","duration_ms":5}}}}"#
        ),
        format!(
            r#"{{{t},"type":"event_msg","payload":{{"type":"item_completed","item":{{"type":"CommandExecution","id":"c"}}}}}}"#
        ),
        format!(
            r#"{{{t},"type":"event_msg","payload":{{"type":"item_completed","item":{{"type":"FileChange"}}}}}}"#
        ),
        format!(r#"{{{t},"type":"event_msg","payload":{{"type":5}}}}"#),
        format!(r#"{{{t},"type":"event_msg","payload":{{"turn_id":"u"}}}}"#),
        format!(r#"{{{t},"type":"session_meta","payload":{{"id":"s"}}}}"#),
        // Not a rollout line's own fields, no time, no payload, a payload that is no map.
        format!(r#"{{{t},"type":"turn_context","payload":{{"model":"m"}},"kind":"note"}}"#),
        format!(
            r#"{{{t},"type":"turn_context","payload":{{"model":"m"}},"subtype":"task_started"}}"#
        ),
        r#"{"type":"turn_context","payload":{"model":"m"}}"#.to_owned(),
        format!(r#"{{{t},"type":"turn_context"}}"#),
        format!(r#"{{{t},"type":"turn_context","payload":[1]}}"#),
        format!(r#"{{{t},"type":7,"payload":{{}}}}"#),
        format!(r#"{{{t},"type":"turn_context","payload":{{}},"type":"response_item"}}"#),
        // A type that is no string stops the read (the whole parse decides).
        format!(
            r#"{{{t},"type":"event_msg","payload":{{"type":"item_completed","item":{{"type":7}}}}}}"#
        ),
        // A first type of rows stops the read (the whole parse keeps the last).
        format!(
            r#"{{{t},"type":"event_msg","payload":{{"type":"task_complete","type":"task_started"}}}}"#
        ),
        // Written otherwise than a rollout writes it.
        format!(r#" {{{t},"type":"turn_context","payload":{{}}}}"#),
    ];
    for line in &whole_lines {
        check(line, false);
    }
    // Not JSON: the whole parse's error row.
    for bad in [
        r#"{"timestamp":"t","type":"turn_context","payload":{"model":1e999}}"#,
        r#"{"timestamp":"t","type":"turn_context","payload":{"x":[1,}}"#,
        r#"{"timestamp":"t","type":"turn_context","payload":{}} trailing"#,
        r#"{"timestamp":"t","type":"turn_context","payload":{"x":"\ud800"}}"#,
    ] {
        assert!(fast(bad.as_bytes()).is_none(), "{bad}");
    }
}

/// Every rollout line of the fixtures.
const ROLLOUTS: &[&str] = &[
    include_str!("../../../../fixtures/codex-0.171.0/codex_api_fatal_400.session.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_api_fatal_401.session.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_api_retry.session.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_apply_patch.session.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_basic_markdown.session.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_code_mode.session.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_failing_command.session.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_file_read.session.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_interrupted_stream.session.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_plain_text.session.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_reasoning.session.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_resume_1_first.session.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_shell_command.session.jsonl"),
];

#[test]
fn every_rollout_line_of_the_fixtures_reads_alike() {
    let mut facts = 0;
    for file in ROLLOUTS {
        for line in file.lines().filter(|l| !l.trim().is_empty()) {
            let value: Value = serde_json::from_str(line).expect("fixture lines are JSON");
            let map = value.as_object().expect("an object");
            let whole = match (map.get("type").and_then(Value::as_str), map.get("payload")) {
                (Some(ty), Some(Value::Object(p))) => Fact::of_payload(ty, p),
                _ => None,
            };
            check(line, whole.is_some());
            facts += usize::from(whole.is_some());
        }
    }
    assert!(facts > 100, "{facts} facts read");
}
