//! What [`fast`] reads of a line is what [`Exec::of_map`] reads of its whole parse: on every
//! `exec --json` line of the fixtures and on lines of every odd shape; a line [`fast`]
//! declines is left to the whole parse.

use super::*;

/// `line`, read both ways: the same [`Exec`], or `fast` declines (`expect_fast` false).
fn check(line: &str, expect_fast: bool) {
    let value: Value = serde_json::from_str(line).expect("test lines are JSON");
    let got = fast(line.as_bytes());
    assert_eq!(got.is_some(), expect_fast, "{line}");
    let Some(exec) = got else {
        return;
    };
    let map = value.as_object().expect("an object");
    assert!(crate::codex::detect::is_codex(map), "{line}: is Codex's");
    let ty = map.get("type").and_then(Value::as_str).expect("a type");
    assert_eq!(Some(*exec), Exec::of_map(ty, map), "{line}");
}

#[test]
fn exec_lines_of_every_shape_read_alike() {
    let fast_lines = [
        r#"{"type":"thread.started","thread_id":"01a2"}"#,
        r#"{"type":"thread.started","thread_id":7}"#,
        r#"{"type":"thread.started"}"#,
        r#"{"type":"turn.started"}"#,
        r#"{"type":"turn.completed","usage":{"input_tokens":14143,"cached_input_tokens":7040,"cache_write_input_tokens":0,"output_tokens":39,"reasoning_output_tokens":0}}"#,
        r#"{"type":"turn.completed","usage":{"input_tokens":-1,"output_tokens":2.5,"cached_input_tokens":18446744073709551615,"x":[1]}}"#,
        r#"{"type":"turn.completed","usage":[1,2]}"#,
        r#"{"type":"turn.completed","usage":null}"#,
        r#"{"type":"turn.failed","error":{"message":"stream disconnected","code":5}}"#,
        r#"{"type":"turn.failed","error":"plain"}"#,
        r#"{"type":"turn.failed","error":{"message":3}}"#,
        r#"{"type":"turn.failed"}"#,
        r#"{"type":"error","message":"Reconnecting... 1/5"}"#,
        r#"{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"**2** files"}}"#,
        r#"{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":5}}"#,
        r#"{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"/bin/bash -lc 'ls'","aggregated_output":"","exit_code":null,"status":"in_progress"}}"#,
        r#"{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"a\nb\n","exit_code":-2,"status":"failed"}}"#,
        r#"{"type":"item.completed","item":{"id":"item_1","type":"command_execution","exit_code":1.0,"status":"declined"}}"#,
        r#"{"type":"item.completed","item":{"id":"item_1","type":"command_execution","exit_code":9223372036854775808}}"#,
        r#"{"type":"item.updated","item":{"id":"item_1","type":"command_execution","aggregated_output":"partial"}}"#,
        r#"{"type":"item.completed","item":{"id":"item_2","type":"reasoning","text":"**Thinking**"}}"#,
        r#"{"type":"item.completed","item":{"id":"i","type":"file_change","changes":[{"path":"a.rs","kind":"add"},{"path":"b.rs","kind":"delete"},{"path":"c.rs","kind":"update"},7,{"kind":"add"}],"status":"completed"}}"#,
        r#"{"type":"item.completed","item":{"id":"i","type":"file_change","changes":{"a.rs":1},"status":"failed"}}"#,
        r#"{"type":"item.completed","item":{"id":"i","type":"error","message":"rate limited"}}"#,
        r#"{"type":"item.completed","item":{"type":"error","new_field":{"deep":[1,{"a":null}]}}}"#,
        r#"{"type":"item.completed","item":"not a map"}"#,
        r#"{"type":"item.completed"}"#,
        r#"{"type":"item.completed","item":null,"thread_id":"t"}"#,
        // Written twice: the last one.
        r#"{"type":"turn.started","type":"turn.completed","usage":{"output_tokens":1},"usage":{"output_tokens":2}}"#,
        r#"{"type":"item.completed","item":{"id":"a","id":"b","type":"reasoning","text":"x","text":"y"}}"#,
        r#"{"type":"item.completed","item":{"type":"agent_message","text":"x"},"item":{"type":"reasoning","text":"y"}}"#,
        // An item on a line of another type is not read.
        r#"{"type":"turn.started","item":{"type":"agent_message"}}"#,
        "{\"type\":\"item.completed\",\"item\":{\"id\":\"i\",\"type\":\"agent_message\",\"text\":\"\\u00e9\\ud83e\\udd80 \\\"q\\\"\"}}",
    ];
    for line in fast_lines {
        check(line, true);
    }
    let whole_lines = [
        // Another field on the line: read whole.
        r#"{"type":"turn.started","timestamp":"2026-12-01T10:00:00Z"}"#,
        r#"{"type":"turn.started","payload":{"a":1}}"#,
        r#"{"type":"error","message":"x","severity":"error"}"#,
        // Not Codex's, or not a type read typed.
        r#"{"type":"error","message":5}"#,
        r#"{"type":"error"}"#,
        r#"{"type":"thread.forked","thread_id":"t"}"#,
        r#"{"type":"turn.started ","thread_id":"t"}"#,
        r#"{"type":5}"#,
        r#"{"thread_id":"t","type":"thread.started"}"#,
        // Items whose rows read their JSON, or of kinds not read typed.
        r#"{"type":"item.completed","item":{"id":"m","type":"mcp_tool_call","server":"s","tool":"t","arguments":{"a":1},"status":"completed"}}"#,
        r#"{"type":"item.started","item":{"id":"w","type":"web_search","query":"q"}}"#,
        r#"{"type":"item.updated","item":{"id":"p","type":"todo_list","items":[{"text":"a","completed":true}]}}"#,
        r#"{"type":"item.completed","item":{"id":"n","type":"brand_new","x":1}}"#,
        r#"{"type":"item.completed","item":{"id":"n","text":"no type"}}"#,
        r#"{"type":"item.completed","item":{"id":"n","type":7}}"#,
        r#"{"type":"item.completed","item":{"type":"mcp_tool_call"},"item":{"type":"reasoning","text":"y"}}"#,
    ];
    for line in whole_lines {
        check(line, false);
    }
}

/// The `exec --json` output of every fixture run.
const STREAMS: &[&str] = &[
    include_str!("../../../../fixtures/codex-0.171.0/codex_api_fatal_400.stream.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_api_fatal_401.stream.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_api_retry.stream.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_apply_patch.stream.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_basic_markdown.stream.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_code_mode.stream.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_failing_command.stream.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_file_read.stream.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_interrupted_stream.stream.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_plain_text.stream.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_reasoning.stream.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_resume_1_first.stream.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_resume_2_by_id.stream.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_resume_3_last.stream.jsonl"),
    include_str!("../../../../fixtures/codex-0.171.0/codex_shell_command.stream.jsonl"),
];

#[test]
fn every_exec_line_of_the_fixtures_reads_alike() {
    let (mut lines, mut read) = (0, 0);
    for line in STREAMS.iter().flat_map(|s| s.lines()) {
        let Ok(Value::Object(map)) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let ty = map.get("type").and_then(Value::as_str).unwrap_or("");
        if !crate::codex::detect::is_codex(&map) || ExecType::of(ty).is_none() {
            assert!(fast(line.as_bytes()).is_none(), "{line}");
            continue;
        }
        lines += 1;
        if let Some(exec) = fast(line.as_bytes()) {
            read += 1;
            assert_eq!(Some(&*exec), Exec::of_map(ty, &map).as_ref(), "{line}");
        }
    }
    assert!(lines > 50, "{lines}");
    // Nearly every exec line is read typed.
    assert!(read * 10 >= lines * 9, "{read} of {lines}");
}
