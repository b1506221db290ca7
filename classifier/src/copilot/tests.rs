//! Data-driven cases: Copilot CLI lines in, rows out (`icon|level|summary`, one row a line), through
//! every path that must agree (`crate::testing`); and the summary's figures.

use crate::log::LogClassifier;
use crate::testing::check;

fn summary(lines: &[String]) -> serde_json::Value {
    let mut log = LogClassifier::new().with_summary();
    log.feed(lines.join("\n").as_bytes(), |_| {});
    log.finish(|_| {});
    serde_json::to_value(log.summary().expect("a summary")).unwrap()
}

/// A session event of `ty` with `data`.
fn ev(ty: &str, data: &str) -> String {
    format!(
        r#"{{"type":"{ty}","data":{data},"id":"e","timestamp":"2026-12-07T08:59:42.716Z","parentId":null}}"#
    )
}

fn call(id: &str, name: &str, args: &str) -> String {
    format!(r#"{{"toolCallId":"{id}","name":"{name}","arguments":{args},"type":"function"}}"#)
}

fn message(text: &str, calls: &[String]) -> String {
    ev(
        "assistant.message",
        &format!(
            r#"{{"messageId":"m","model":"gpt-4.1","content":"{text}","toolRequests":[{}],"turnId":"0"}}"#,
            calls.join(",")
        ),
    )
}

#[test]
fn a_run_of_tool_calls_and_their_results() {
    let lines = [
        ev(
            "session.start",
            r#"{"sessionId":"s1","copilotVersion":"1.0.102","selectedModel":"gpt-4.1","context":{"cwd":"/w"}}"#,
        ),
        ev("session.tools_updated", r#"{"model":"gpt-4.1"}"#),
        ev(
            "user.message",
            r#"{"content":"Fix it","transformedContent":"<x/>Fix it"}"#,
        ),
        ev("assistant.turn_start", r#"{"turnId":"0"}"#),
        ev(
            "assistant.message_delta",
            r#"{"messageId":"m","deltaContent":"."}"#,
        ),
        message(
            "",
            &[
                call("c1", "bash", r#"{"command":"exit 3","description":"x"}"#),
                call("c2", "view", r#"{"path":"/w/a.rs","view_range":[3,4]}"#),
                call(
                    "c3",
                    "edit",
                    r#"{"path":"/w/a.rs","old_str":"a","new_str":"b"}"#,
                ),
                call("c4", "create", r#"{"path":"/w/b.md","file_text":"x"}"#),
                call("c5", "glob", r#"{"pattern":"**/*.rs"}"#),
                call("c6", "no_such_tool", r#"{"x":1}"#),
            ],
        ),
        ev(
            "tool.execution_start",
            r#"{"toolCallId":"c1","toolName":"bash","arguments":{"command":"exit 3"}}"#,
        ),
        ev(
            "tool.shell_output",
            r#"{"toolCallId":"c1","stream":"stdout","text":"out\n"}"#,
        ),
        ev(
            "tool.execution_complete",
            r#"{"toolCallId":"c1","shellExecution":{"exitCode":3},"success":true,"result":{"content":"out\n<shellId: 0 completed with exit code 3>"}}"#,
        ),
        ev(
            "tool.execution_complete",
            r#"{"toolCallId":"c6","success":false,"error":{"message":"Tool 'no_such_tool' does not exist.","code":"failure"}}"#,
        ),
        ev(
            "tool.execution_complete",
            r#"{"toolCallId":"c2","success":true,"result":{"content":"fn a() {}"}}"#,
        ),
        ev(
            "session.usage_record",
            r#"{"usage":{"model":"gpt-4.1","inputTokens":100,"outputTokens":7,"cacheReadTokens":40,"cacheWriteTokens":0}}"#,
        ),
        ev("assistant.turn_end", r#"{"turnId":"0"}"#),
        ev(
            "session.info",
            r#"{"infoType":"file_created","message":"/w/b.md"}"#,
        ),
        message("Done.", &[]),
        ev("session.shutdown", r#"{"shutdownType":"routine"}"#),
    ];
    check(
        &lines,
        &[
            "|debug|⚙ copilot 1.0.102 · session s1 · gpt-4.1 · /w",
            "◆|info|TURN ← user",
            "🖥️|info|Bash $ exit 3",
            "📖|info|Read /w/a.rs · from 3 · 2L",
            "✏️|info|Edit /w/a.rs · -1 +1",
            "📝|info|Write /w/b.md",
            "📂|info|Glob **/*.rs",
            "🔧|info|no_such_tool x: 1",
            "✗|error|2l · out…",
            "✗|error|Tool 'no_such_tool' does not exist.",
            "←|info|fn a() {}",
            "|debug|⚙ file created · /w/b.md",
            "|info|",
            "✅|info|turn ok",
        ],
    );
    let s = summary(&lines);
    assert_eq!(s["agent"], "copilot");
    assert_eq!(s["agent_version"], "1.0.102");
    assert_eq!(s["tool_calls"]["bash"], 1);
    assert_eq!(s["tool_calls"]["view"], 1);
    assert_eq!(s["tool_errors"], 2);
    assert_eq!(s["input_tokens"], 100);
    assert_eq!(s["cache_read_tokens"], 40);
    assert_eq!(s["models"], serde_json::json!(["gpt-4.1"]));
    assert_eq!(
        s["files_changed"],
        serde_json::json!(["/w/a.rs", "/w/b.md"])
    );
}

#[test]
fn retries_errors_and_the_runs_end() {
    let result = |code: u8| {
        format!(
            r#"{{"type":"result","timestamp":"2026-12-07T08:59:43.181Z","sessionId":"s","exitCode":{code},"usage":{{"premiumRequests":0,"totalApiDurationMs":235,"sessionDurationMs":629}}}}"#
        )
    };
    let prompt = ev("user.message", r#"{"content":"hi"}"#);
    check(
        &[
            prompt.clone(),
            ev(
                "model.call_failure",
                r#"{"model":"gpt-4.1","statusCode":429}"#,
            ),
            ev(
                "assistant.turn_retry",
                r#"{"turnId":"0","model":"gpt-4.1","reason":"rate_limit"}"#,
            ),
            ev(
                "session.info",
                r#"{"infoType":"model_retry","message":"Retrying..."}"#,
            ),
            message("Hello.", &[]),
            ev("assistant.idle", "{}"),
            result(0),
        ],
        &[
            "◆|info|TURN ← user",
            "|warn|⚠ api retry · rate limit · gpt-4.1",
            "|info|",
            "✅|info|turn ok · 629ms",
        ],
    );
    check(
        &[
            prompt.clone(),
            ev(
                "session.error",
                r#"{"errorType":"query","message":"400 Bad request.","statusCode":400}"#,
            ),
            result(1),
        ],
        &[
            "◆|info|TURN ← user",
            "❌|error|turn fail — 400 Bad request.",
            "|debug|⚙ copilot exit 1",
        ],
    );
    // A new run while a turn is open (the last one was killed); an abort; an unknown type.
    check(
        &[
            prompt.clone(),
            ev(
                "session.resume",
                r#"{"selectedModel":"gpt-4.1","context":{"cwd":"/w"}}"#,
            ),
            prompt,
            ev("abort", r#"{"reason":"user initiated"}"#),
            ev("session.compaction_start", "{}"),
        ],
        &[
            "◆|info|TURN ← user",
            "⏹|warn|interrupted by user",
            "|debug|⚙ copilot session resumed · gpt-4.1 · /w",
            "◆|info|TURN ← user",
            "⏹|warn|interrupted by user",
            "|debug|⚙ session.compaction_start",
        ],
    );
}
