//! Data-driven cases: Qwen Code lines in, rows out (`icon|level|summary`, one row a line), through
//! every path that must agree (`crate::testing`); and the summary's figures.

use crate::log::LogClassifier;
use crate::testing::check;

/// The summary of `lines` as JSON.
fn summary(lines: &[&str]) -> serde_json::Value {
    let mut log = LogClassifier::new().with_summary();
    log.feed(lines.join("\n").as_bytes(), |_| {});
    log.finish(|_| {});
    serde_json::to_value(log.summary().expect("a summary")).unwrap()
}

const HEAD: &str = r#""uuid":"u","parentUuid":null,"sessionId":"s","timestamp":"2026-12-07T08:58:46.629Z","cwd":"/w","version":"0.24.4""#;

fn rec(rest: &str) -> String {
    format!("{{{HEAD},{rest}}}")
}

#[test]
fn session_records_read_as_a_transcript() {
    let prompt = rec(
        r#""type":"user","provenance":"real_user","message":{"role":"user","parts":[{"text":"Run it"}]}"#,
    );
    let snapshot = rec(
        r#""type":"system","provenance":"system","subtype":"attribution_snapshot","systemPayload":{"snapshot":{}}"#,
    );
    let call = rec(
        r#""type":"assistant","provenance":"assistant_output","model":"qwen3-coder-plus","message":{"role":"model","parts":[{"text":"Plan","thought":true},{"functionCall":{"id":"c1","name":"run_shell_command","args":{"command":"exit 3"}}}]},"usageMetadata":{"promptTokenCount":100,"candidatesTokenCount":7,"cachedContentTokenCount":40}"#,
    );
    let telemetry = rec(
        r#""type":"system","provenance":"system","subtype":"ui_telemetry","systemPayload":{"uiEvent":{"event.name":"qwen-code.tool_call"}}"#,
    );
    let failed = rec(
        r#""type":"tool_result","provenance":"tool_result","message":{"role":"user","parts":[{"functionResponse":{"id":"c1","name":"run_shell_command","response":{"error":"Exit Code: 3"}}}]},"toolCallResult":{"callId":"c1","status":"error"}"#,
    );
    let answer = rec(r#""type":"assistant","provenance":"assistant_output","model":"qwen3-coder-plus","message":{"role":"model","parts":[{"text":"Done."}]},"usageMetadata":{"promptTokenCount":200,"candidatesTokenCount":3}"#)
        .replace(r#""uuid":"u""#, r#""uuid":"u2""#);
    let lines = [&*prompt, &snapshot, &call, &telemetry, &failed, &answer];
    check(
        &lines,
        &[
            "◆|info|TURN ← user",
            "💭|debug|Plan",
            "🖥️|info|Bash $ exit 3",
            "✗|error|Exit Code: 3",
            "|info|",
            "✅|info|turn ok",
        ],
    );
    let s = summary(&lines);
    assert_eq!(s["agent"], "qwen");
    assert_eq!(s["agent_version"], "0.24.4");
    assert_eq!(s["tool_calls"]["run_shell_command"], 1);
    assert_eq!(s["tool_errors"], 1);
    assert_eq!(s["input_tokens"], 300);
    assert_eq!(s["output_tokens"], 10);
    assert_eq!(s["models"][0], "qwen3-coder-plus");
}

#[test]
fn api_errors_fail_the_turn_or_are_retried() {
    let prompt = rec(
        r#""type":"user","provenance":"real_user","message":{"role":"user","parts":[{"text":"hi"}]}"#,
    );
    let error = |fields: &str| {
        rec(&format!(
            r#""type":"system","provenance":"system","subtype":"ui_telemetry","systemPayload":{{"uiEvent":{{"event.name":"qwen-code.api_error","model":"m",{fields}}}}}"#
        ))
    };
    let cut = error(r#""error_message":"terminated""#);
    let limited = error(r#""error_message":"slow down","status_code":429"#);
    let fatal = error(r#""error_message":"400 bad request","status_code":400"#);
    check(
        &[&prompt, &cut, &limited, &fatal],
        &[
            "◆|info|TURN ← user",
            "|warn|⚠ api retry · terminated",
            "|warn|⚠ api retry · 429 slow down",
            "✗|error|[API Error: 400 bad request]",
            "❌|error|turn fail — [API Error: 400 bad request]",
        ],
    );
    // A record of a type or subtype not read here: a debug row, never `!`.
    check(
        &[&rec(r#""type":"checkpoint","provenance":"system""#)],
        &["|debug|⚙ checkpoint"],
    );
}

#[test]
fn stream_json_is_named_qwen_and_its_tools_mapped() {
    let init = r#"{"type":"system","subtype":"init","uuid":"s","session_id":"s","cwd":"/w","tools":[],"model":"qwen3-coder-plus","qwen_code_version":"0.24.4"}"#;
    let call = |name: &str, input: &str| {
        format!(
            r#"{{"type":"assistant","uuid":"a","session_id":"s","parent_tool_use_id":null,"message":{{"id":"a","type":"message","role":"assistant","model":"qwen3-coder-plus","content":[{{"type":"tool_use","id":"c","name":"{name}","input":{input}}}],"stop_reason":"tool_use","usage":{{"input_tokens":5,"output_tokens":1}}}}}}"#
        )
    };
    let retry = r#"{"type":"system","subtype":"retry","uuid":"r","session_id":"s","parent_tool_use_id":null,"data":{"reason":"retry"}}"#;
    let failed = r#"{"type":"result","subtype":"error_during_execution","uuid":"e","session_id":"s","is_error":true,"duration_ms":532,"num_turns":1,"usage":{"input_tokens":0,"output_tokens":0},"error":{"message":"[API Error: 401 bad key]"}}"#;
    let lines = [
        init,
        &call(
            "read_file",
            r#"{"file_path":"/w/a.rs","offset":3,"limit":2}"#,
        ),
        &call(
            "edit",
            r#"{"file_path":"/w/a.rs","old_string":"a","new_string":"b"}"#,
        ),
        &call("write_file", r#"{"file_path":"/w/b.md","content":"x"}"#),
        &call("grep_search", r#"{"pattern":"TODO","path":"/w"}"#),
        &call("glob", r#"{"pattern":"**/*.rs"}"#),
        &call(
            "todo_write",
            r#"{"todos":[{"id":"1","content":"x","status":"pending"}]}"#,
        ),
        &call("no_such_tool", r#"{"x":1}"#),
        retry,
        failed,
    ];
    check(
        &lines,
        &[
            "◆|info|TURN ← user",
            "📖|info|Read /w/a.rs · from 3 · 2L",
            "✏️|info|Edit /w/a.rs · -1 +1",
            "📝|info|Write /w/b.md",
            "🔍|info|Grep TODO in /w",
            "📂|info|Glob **/*.rs",
            "🗒️|info|TodoWrite (1 item)",
            "🔧|info|no_such_tool x: 1",
            "|warn|⚠ api retry · response cut off, asked again",
            "❌|error|turn fail · 532ms — [API Error: 401 bad key]",
        ],
    );
    let s = summary(&lines);
    assert_eq!(s["agent"], "qwen");
    assert_eq!(s["agent_version"], "0.24.4");
    assert_eq!(
        s["files_changed"],
        serde_json::json!(["/w/a.rs", "/w/b.md"])
    );
}

#[test]
fn json_output_is_each_of_its_lines() {
    let doc = r#"[{"type":"system","subtype":"init","session_id":"s","model":"qwen3-coder-plus","qwen_code_version":"0.24.4"},{"type":"assistant","session_id":"s","parent_tool_use_id":null,"message":{"id":"a","role":"assistant","model":"qwen3-coder-plus","content":[{"type":"text","text":"Hi"}],"usage":{"input_tokens":9,"output_tokens":2}}},{"type":"result","subtype":"success","session_id":"s","is_error":false,"duration_ms":900,"num_turns":1,"result":"Hi","usage":{"input_tokens":9,"output_tokens":2}}]"#;
    check(
        &[doc],
        &["◆|info|TURN ← user", "|info|", "✅|info|turn ok · 900ms"],
    );
    let s = summary(&[doc]);
    assert_eq!(s["agent"], "qwen");
    assert_eq!(s["input_tokens"], 9);
    // An array that is not Qwen Code's output stays unrecognised.
    check(&[r#"[{"type":"x"}]"#], &[r#"!|warn|[{"type":"x"}]"#]);
}

/// Issue 47 (live runs): Qwen Code's background memory extraction calls the API after a short
/// turn, and only `ui_telemetry` `api_response` records say so; the session file's tokens are
/// the CLI's own `result` figures (`plain_text`: 12,053 + 8,358 in) only with them.
#[test]
fn issue_47_memory_extraction_calls_count_in_the_session_tokens() {
    let prompt = rec(
        r#""type":"user","provenance":"real_user","message":{"role":"user","parts":[{"text":"Hello!"}]}"#,
    );
    let response = |prompt_id: &str, input: u64, output: u64, cached: u64| {
        rec(&format!(
            r#""type":"system","provenance":"system","subtype":"ui_telemetry","systemPayload":{{"uiEvent":{{"event.name":"qwen-code.api_response","model":"qwen3-coder-plus","status_code":200,"input_token_count":{input},"output_token_count":{output},"cached_content_token_count":{cached},"prompt_id":"{prompt_id}"}}}}"#
        ))
    };
    let main = response("s########0", 12053, 17, 6016);
    let answer = rec(
        r#""type":"assistant","provenance":"assistant_output","model":"qwen3-coder-plus","message":{"role":"model","parts":[{"text":"Hello!"}]},"usageMetadata":{"promptTokenCount":12053,"candidatesTokenCount":17,"cachedContentTokenCount":6016}"#,
    );
    let memory = response("s#managed-auto-memory-extractor-c0d91fe9#0", 8358, 10, 4160);
    let lines = [&*prompt, &main, &answer, &memory];
    // The rows are the same: telemetry gives none.
    check(&lines, &["◆|info|TURN ← user", "|info|", "✅|info|turn ok"]);
    for (lines, tokens) in [
        (&lines[..3], [12053, 17, 6016]),
        (&lines[..], [20411, 27, 10176]),
    ] {
        let s = summary(lines);
        let got = ["input_tokens", "output_tokens", "cache_read_tokens"].map(|k| s[k].clone());
        assert_eq!(
            got,
            tokens.map(serde_json::Value::from),
            "{} lines",
            lines.len()
        );
    }
}
