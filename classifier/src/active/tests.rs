//! Lines in, the running calls after each line out (`name@ts` joined by `, `; `-` for none).

use super::ActiveTools;
use crate::{ClassifyCtx, classify_log_event, parse_line};

/// Folds `lines` (line `i` at time `i`) and compares the running calls after each.
fn check(lines: &[&str], expect: &[&str]) {
    assert_eq!(lines.len(), expect.len(), "one expectation per line");
    let mut ctx = ClassifyCtx::new();
    let mut active = ActiveTools::default();
    for (i, (line, want)) in lines.iter().zip(expect).enumerate() {
        let ev = parse_line(line.as_bytes());
        let mut env = classify_log_event(&ev, &mut ctx);
        env.ts = Some(i as f64);
        active.apply(&ev, &env);
        // A checkpoint's round trip keeps it.
        active = serde_json::from_str(&serde_json::to_string(&active).unwrap()).unwrap();
        let got: Vec<String> = active
            .calls()
            .iter()
            .map(|c| format!("{}@{}", c.name, c.since.unwrap_or(-1.0)))
            .collect();
        let got = if got.is_empty() {
            "-".to_owned()
        } else {
            got.join(", ")
        };
        assert_eq!(&got, want, "after line {}: {line}", i + 1);
    }
}

#[test]
fn claude_calls_run_until_answered_and_parallel_calls_answer_in_any_order() {
    check(
        &[
            r#"{"type":"system","subtype":"init","session_id":"s","model":"m"}"#,
            r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"two"},{"type":"tool_use","id":"a","name":"Bash","input":{"command":"sleep 9"}},{"type":"tool_use","id":"b","name":"Grep","input":{"pattern":"x"}}]}}"#,
            r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"b","content":"hit"}]}}"#,
            r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"done"}]}}"#,
        ],
        &["-", "Bash@1, Grep@1", "Bash@1", "-"],
    );
}

#[test]
fn a_turn_end_or_an_interruption_answers_what_is_left() {
    check(
        &[
            r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"Bash","input":{"command":"sleep 9"}}]}}"#,
            r#"{"type":"result","subtype":"success","is_error":false,"duration_ms":5,"result":"ok"}"#,
        ],
        &["Bash@0", "-"],
    );
    check(
        &[
            r#"{"kind":"turn_start","from":"operator","body":"go"}"#,
            r#"{"kind":"stream","value":{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"Read","input":{"file_path":"/x"}}]}}}"#,
            r#"{"kind":"turn_end","ok":false,"note":"killed"}"#,
        ],
        &["-", "Read@1", "-"],
    );
}

#[test]
fn codex_exec_items_and_rollout_calls() {
    check(
        &[
            r#"{"type":"thread.started","thread_id":"t"}"#,
            r#"{"type":"turn.started"}"#,
            r#"{"type":"item.started","item":{"id":"item_0","type":"command_execution","command":"/bin/bash -lc 'sleep 5'","aggregated_output":"","exit_code":null,"status":"in_progress"}}"#,
            r#"{"type":"item.completed","item":{"id":"item_0","type":"command_execution","command":"/bin/bash -lc 'sleep 5'","aggregated_output":"","exit_code":0,"status":"completed"}}"#,
            r#"{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}"#,
            r#"{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":1}}"#,
        ],
        &["-", "-", "Bash@2", "-", "Bash@4", "-"],
    );
    check(
        &[
            r#"{"timestamp":"2026-12-02T14:10:08.848Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\": \"echo ok\"}","call_id":"call_1"}}"#,
            r#"{"timestamp":"2026-12-02T14:10:08.900Z","type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch\n*** End Patch","call_id":"call_2"}}"#,
            r#"{"timestamp":"2026-12-02T14:10:09.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_1","output":"ok"}}"#,
            r#"{"timestamp":"2026-12-02T14:10:09.100Z","type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"call_2","output":"done"}}"#,
        ],
        &["Bash@0", "Bash@0, apply_patch@1", "apply_patch@1", "-"],
    );
}

/// Named as the rows name them: Gemini's `run_shell_command` row is a `Bash` row.
#[test]
fn gemini_stream_tools_pair_by_tool_id() {
    check(
        &[
            r#"{"type":"init","timestamp":"2026-12-02T14:10:40.000Z","session_id":"s","model":"gemini"}"#,
            r#"{"type":"tool_use","timestamp":"2026-12-02T14:10:40.611Z","tool_name":"run_shell_command","tool_id":"t1","parameters":{"command":"echo ok"}}"#,
            r#"{"type":"tool_result","timestamp":"2026-12-02T14:10:40.644Z","tool_id":"t1","status":"success","output":"ok"}"#,
        ],
        &["-", "Bash@1", "-"],
    );
}

#[test]
fn unknown_and_hostile_lines_track_nothing() {
    let long = format!(
        r#"{{"type":"assistant","message":{{"content":[{{"type":"tool_use","id":"{}","name":"Bash","input":{{}}}}]}}}}"#,
        "i".repeat(300)
    );
    check(
        &[
            "not json",
            r#"{"type":"assistant","message":{"content":"text only"}}"#,
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash"}]}}"#,
            &long,
            r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":7}]}}"#,
        ],
        &["-", "-", "-", "-", "-"],
    );
}

#[test]
fn at_most_max_active_are_kept_oldest_forgotten_first() {
    let lines: Vec<String> = (0..super::MAX_ACTIVE + 3)
        .map(|i| {
            format!(
                r#"{{"type":"assistant","message":{{"content":[{{"type":"tool_use","id":"c{i}","name":"Read","input":{{"file_path":"/f"}}}}]}}}}"#
            )
        })
        .collect();
    let mut ctx = ClassifyCtx::new();
    let mut active = ActiveTools::default();
    for line in &lines {
        let ev = parse_line(line.as_bytes());
        let env = classify_log_event(&ev, &mut ctx);
        active.apply(&ev, &env);
    }
    assert_eq!(active.calls().len(), super::MAX_ACTIVE);
    assert_eq!(active.calls()[0].id, "c3");
}
