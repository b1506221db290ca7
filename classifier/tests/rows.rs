//! One case per row of the taxonomy in `docs/ROWS.md` (formats: `docs/FORMATS.md`): a line in,
//! its rows out, written as `level icon summary` with indented `body`/`coalesce` lines.
//! Tool-call summaries have their own table in `src/tools.rs`.

use classifier::{ClassifyCtx, Line, TermMsg, classify_line};

fn render(msgs: &[TermMsg]) -> String {
    let mut out = String::new();
    for m in msgs {
        out.push_str(&format!(
            "{} {} {}\n",
            m.level.as_str(),
            m.icon.as_deref().unwrap_or("·"),
            m.summary
        ));
        if let Some(body) = &m.body {
            let fmt = m
                .body_format
                .map(|f| format!("{f:?}").to_lowercase())
                .unwrap_or("plain".into());
            out.push_str(&format!("  body {fmt}: {body}\n"));
        }
        if let Some(k) = &m.coalesce_key {
            out.push_str(&format!("  coalesce: {k}\n"));
        }
    }
    out
}

/// Classifies `lines` (one JSON value per line) with one context; compares the last line's rows.
fn check_after(lines: &[&str], expect: &str) {
    let mut ctx = ClassifyCtx::new();
    let mut last = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        last = classify_line(&Line::whole(i as u64 + 1, line.as_bytes()), &mut ctx).msgs;
    }
    let got = render(&last);
    let want = if expect.is_empty() {
        String::new()
    } else {
        format!("{expect}\n")
    };
    assert_eq!(got, want, "\ninput: {}", lines.last().unwrap());
}

fn check(line: &str, expect: &str) {
    check_after(&[line], expect);
}

// Hyperhive harness events.

#[test]
fn turn_start() {
    check(
        r#"{"kind":"turn_start","ts":1,"from":"operator","body":"fix the build"}"#,
        "info ◆ TURN ← operator\n  body plain: fix the build",
    );
    check(
        r#"{"kind":"turn_start","ts":1,"from":"alice","body":""}"#,
        "info ◆ TURN ← alice",
    );
}

#[test]
fn turn_end() {
    check(r#"{"kind":"turn_end","ts":2,"ok":true}"#, "info ✅ turn ok");
    check(
        r#"{"kind":"turn_end","ts":2,"ok":false,"note":"claude exited 1"}"#,
        "error ❌ turn fail — claude exited 1",
    );
    check(
        r#"{"kind":"turn_end","ts":2,"ok":false}"#,
        "error ❌ turn fail",
    );
}

#[test]
fn notes() {
    check(
        r#"{"kind":"note","ts":1,"text":"stderr: warning: unused variable"}"#,
        "warn · stderr: warning: unused variable",
    );
    check(
        r#"{"kind":"note","ts":1,"text":"operator: /compact"}"#,
        "info · operator: /compact",
    );
    check(
        r#"{"kind":"note","ts":1,"text":"harness: agent container up"}"#,
        "debug · harness: agent container up",
    );
    check(
        r#"{"kind":"note","ts":1,"text":"two\nlines"}"#,
        "debug · two\n  body plain: two\nlines",
    );
}

#[test]
fn agent_state_events_have_no_rows() {
    for line in [
        r#"{"kind":"status_changed","ts":1,"status":"busy"}"#,
        r#"{"kind":"model_changed","ts":1,"model":"claude-opus-5-5"}"#,
        r#"{"kind":"effort_changed","ts":1,"effort":"high"}"#,
        r#"{"kind":"token_usage_changed","ts":1,"usage":{"input_tokens":3}}"#,
        r#"{"kind":"turn_state_changed","ts":1,"state":"thinking"}"#,
    ] {
        check(line, "");
    }
}

#[test]
fn unknown_hyperhive_kind_is_unrecognised() {
    check(
        r#"{"kind":"teleport","ts":1}"#,
        r#"warn ! {"kind":"teleport","ts":1}"#,
    );
    check(
        r#"{"kind":"turn_end","ts":1,"ok":"yes"}"#,
        r#"warn ! {"kind":"turn_end","ts":1,"ok":"yes"}"#,
    );
}

#[test]
fn stream_inside_hyperhive_event() {
    check(
        r#"{"kind":"stream","ts":1,"value":{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]}}}"#,
        "info · \n  body markdown: hi",
    );
}

// Assistant content.

#[test]
fn assistant_text_is_flat_markdown() {
    check(
        r#"{"type":"assistant","message":{"content":[{"type":"text","text":"**bold**"}]}}"#,
        "info · \n  body markdown: **bold**",
    );
    check(
        r#"{"type":"assistant","message":{"content":[{"type":"text","text":"  \n"}]}}"#,
        "",
    );
}

#[test]
fn assistant_text_and_tool_use_give_two_rows() {
    check(
        r#"{"type":"assistant","message":{"content":[{"type":"text","text":"Reading."},{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/a/b.rs"}}]}}"#,
        "info · \n  body markdown: Reading.\ninfo 📖 Read /a/b.rs",
    );
}

#[test]
fn thinking() {
    check(
        r#"{"type":"assistant","message":{"content":[{"type":"thinking","thinking":"Let me look.","signature":"x"}]}}"#,
        "debug 💭 Let me look.",
    );
    check(
        r#"{"type":"assistant","message":{"content":[{"type":"thinking","thinking":"","signature":"x"}]}}"#,
        "debug 💭 thinking …",
    );
    check(
        r#"{"type":"assistant","message":{"content":[{"type":"redacted_thinking","data":"x"}]}}"#,
        "debug 💭 thinking … (redacted)",
    );
}

#[test]
fn thinking_token_tick_coalesces() {
    check(
        r#"{"type":"system","subtype":"thinking_tokens","estimated_tokens":20,"estimated_tokens_delta":10}"#,
        "debug 🧠 thinking… ~20 tokens\n  coalesce: thinking-tok",
    );
}

#[test]
fn api_error_message_is_an_error_row() {
    check(
        r#"{"type":"assistant","message":{"content":[{"type":"text","text":"API Error: 400 bad"}]},"is_api_error_message":true}"#,
        "error ✗ API Error: 400 bad",
    );
}

// Tool results.

const RECV_CALL: &str = r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"r1","name":"mcp__hyperhive__recv","input":{}}]}}"#;
const READ_CALL: &str = r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"r1","name":"Read","input":{"file_path":"x"}}]}}"#;

#[test]
fn tool_result_short() {
    check_after(
        &[
            READ_CALL,
            r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"r1","content":"  ok \n"}]}}"#,
        ],
        "info ← ok",
    );
    check(
        r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"r9","content":""}]}}"#,
        "info ← (no output)",
    );
}

#[test]
fn tool_result_long() {
    check(
        r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"r9","content":"first\nsecond\nthird"}]}}"#,
        "info ← 3l · first…\n  body plain: first\nsecond\nthird",
    );
    let long = "x".repeat(121);
    check(
        &format!(
            r#"{{"type":"user","message":{{"content":[{{"type":"tool_result","tool_use_id":"r9","content":"{long}"}}]}}}}"#
        ),
        &format!("info ← 1l · {}…\n  body plain: {long}", "x".repeat(100)),
    );
}

#[test]
fn tool_result_content_blocks() {
    check(
        r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"r9","content":[{"type":"text","text":"a"},{"type":"image","source":{}}]}]}}"#,
        "info ← 2l · a…\n  body plain: a\n[image]",
    );
}

#[test]
fn tool_result_recv_is_markdown() {
    check_after(
        &[
            RECV_CALL,
            r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"r1","content":"from alice: **ship it**"}]}}"#,
        ],
        "info ← recv ← from alice: **ship it**\n  body markdown: from alice: **ship it**",
    );
}

#[test]
fn tool_result_before_its_call_is_plain() {
    check(
        r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"r1","content":"from alice"}]}}"#,
        "info ← from alice",
    );
}

#[test]
fn tool_result_error_strips_wrapper() {
    check(
        r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"r9","is_error":true,"content":"<tool_use_error>File does not exist.</tool_use_error>"}]}}"#,
        "error ✗ File does not exist.",
    );
    check(
        r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"r9","is_error":true,"content":"<tool_use_error>Bad\ninput</tool_use_error>"}]}}"#,
        "error ✗ 2l · Bad…\n  body plain: Bad\ninput",
    );
}

#[test]
fn recv_error_stays_an_error() {
    check_after(
        &[
            RECV_CALL,
            r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"r1","is_error":true,"content":"broker down"}]}}"#,
        ],
        "error ✗ broker down",
    );
}

// User text.

#[test]
fn transcript_prompt_starts_a_turn() {
    check(
        r#"{"type":"user","message":{"role":"user","content":"Remember 7."},"uuid":"u","sessionId":"s","timestamp":"2026-11-30T02:15:29.614Z"}"#,
        "info ◆ TURN ← user\n  body plain: Remember 7.",
    );
}

#[test]
fn claude_code_user_messages() {
    check(
        r#"{"type":"user","message":{"content":"<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args></command-args>"}}"#,
        "info · operator: /compact",
    );
    check(
        r#"{"type":"user","message":{"content":"<local-command-stdout>Compacted </local-command-stdout>"}}"#,
        "debug · ⚙ command output · Compacted",
    );
    check(
        r#"{"type":"user","isMeta":true,"message":{"content":"<system-reminder>\nx\n</system-reminder>"}}"#,
        "",
    );
    check(
        r#"{"type":"user","isCompactSummary":true,"message":{"content":"Summary: 7"}}"#,
        "debug · ⚙ compact summary\n  body markdown: Summary: 7",
    );
    check(
        r#"{"type":"user","isSynthetic":true,"message":{"content":[{"type":"text","text":"Resume."}]}}"#,
        "debug · Resume.",
    );
}

// System lines.

#[test]
fn dropped_lines() {
    for line in [
        r#"{"type":"rate_limit_event","rate_limit_info":{}}"#,
        r#"{"type":"stream_event","event":{"type":"content_block_delta"}}"#,
    ] {
        check(line, "");
    }
}

#[test]
fn plugin_install_and_status_ticks() {
    check(
        r#"{"type":"system","subtype":"plugin_install","status":"started"}"#,
        "debug · ⚙ plugin install · loading…\n  coalesce: plugin-install",
    );
    check(
        r#"{"type":"system","subtype":"plugin_install","status":"completed"}"#,
        "debug · ⚙ plugin install · ✓ done\n  coalesce: plugin-install",
    );
    // Each plugin's rows share one key, by its name (or id); different plugins' differ, so
    // two interleaved installs keep both final states.
    check(
        r#"{"type":"system","subtype":"plugin_install","name":"fmt","status":"started"}"#,
        "debug · ⚙ plugin install fmt · loading…\n  coalesce: plugin-install:fmt",
    );
    check(
        r#"{"type":"system","subtype":"plugin_install","name":"lint","status":"completed"}"#,
        "debug · ⚙ plugin install lint · ✓ done\n  coalesce: plugin-install:lint",
    );
    check(
        r#"{"type":"system","subtype":"plugin_install","plugin_id":"p-9","status":"failed"}"#,
        "warn · ⚙ plugin install · ✗ failed\n  coalesce: plugin-install:p-9",
    );
    check(
        r#"{"type":"system","subtype":"status","status":"compacting"}"#,
        "debug · ⚙ status · compacting\n  coalesce: status",
    );
}

#[test]
fn commands_changed_lists_commands() {
    check(
        r#"{"type":"system","subtype":"commands_changed","commands":[{"name":"review","aliases":["r"]},"/fix"]}"#,
        "debug · ⚙ commands changed · 2 available\n  body plain: /review (r)\n/fix",
    );
}

#[test]
fn compact_boundary() {
    check(
        r#"{"type":"system","subtype":"compact_boundary","compact_metadata":{"trigger":"auto","pre_tokens":52000,"post_tokens":3100,"duration_ms":2500}}"#,
        "debug · ⚙ compact · auto · 52000→3100 tokens · 2.5s",
    );
    check(
        r#"{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"manual","preTokens":300,"durationMs":133}}"#,
        "debug · ⚙ compact · manual · 300 tokens before · 133ms",
    );
    check(
        r#"{"type":"system","subtype":"compact_boundary"}"#,
        "debug · ⚙ compact",
    );
}

#[test]
fn api_retry_and_error() {
    check(
        r#"{"type":"system","subtype":"api_retry","attempt":1,"max_retries":5,"retry_delay_ms":517,"error_status":529,"error":"overloaded"}"#,
        "warn · ⚠ api retry · 1/5 · 529 overloaded · in 517ms",
    );
    check(
        r#"{"type":"system","subtype":"api_error","error":{"message":"529 {}","status":529,"formatted":"529 Overloaded"},"retryInMs":517,"retryAttempt":1,"maxRetries":5}"#,
        "warn · ⚠ api retry · 1/5 · 529 Overloaded · in 517ms\n  body plain: 529 {}",
    );
    // A transcript retry is the same warn row as stream-json's (issue 10).
    check(
        r#"{"type":"system","subtype":"api_error","error":{"status":500},"retryAttempt":3}"#,
        "warn · ⚠ api retry · attempt 3 · 500",
    );
    check(
        r#"{"type":"system","subtype":"api_error","error":"boom"}"#,
        "error · ✗ api error · boom",
    );
}

#[test]
fn unknown_system_subtype_is_a_debug_note() {
    check(
        r#"{"type":"system","subtype":"context_window_exceeded"}"#,
        "debug · ⚙ context_window_exceeded",
    );
}

#[test]
fn task_events() {
    check(
        r#"{"type":"system","subtype":"task_started","task_id":"a1","description":"Survey","subagent_type":"general-purpose"}"#,
        "info ⌁ task a1 started · Survey [general-purpose]",
    );
    check(
        r#"{"type":"system","subtype":"task_notification","task_id":"a1","status":"completed","output_file":"/t/a1.out","summary":"3 TODOs"}"#,
        "info ⌁ task a1 ✓ completed · 3 TODOs · → /t/a1.out",
    );
    check(
        r#"{"type":"system","subtype":"task_notification","task_id":"a1","status":"failed","output_file":"/t/a1.out","summary":"crashed"}"#,
        "error ⌁ task a1 ✗ failed · crashed · → /t/a1.out",
    );
    check(
        r#"{"type":"system","subtype":"task_notification","task_id":"a1","status":"stopped"}"#,
        "info ⌁ task a1 ◌ stopped",
    );
}

// Unrecognised and malformed.

#[test]
fn unrecognised_shapes() {
    check(
        r#"{"type":"hologram","x":1}"#,
        r#"warn ! {"type":"hologram","x":1}"#,
    );
    check(r#"[1,2]"#, "warn ! [1,2]");
    check(r#"{"hello":"world"}"#, r#"warn ! {"hello":"world"}"#);
}

#[test]
fn wrong_field_types_are_rows_not_unrecognised() {
    check(
        r#"{"type":"assistant","message":{"content":null}}"#,
        "warn · assistant line: message content is null, expected a list of blocks",
    );
    check(
        r#"{"type":"assistant","message":{"content":7}}"#,
        "warn · assistant line: message content is a number, expected a list of blocks",
    );
    check(
        r#"{"type":"assistant","message":{"content":"plain"}}"#,
        "info · \n  body markdown: plain",
    );
    check(
        r#"{"type":"user","message":{"content":null}}"#,
        "warn · user line: message content is null, expected text or a list of blocks",
    );
    check(
        r#"{"type":"assistant","message":{"content":[{"type":"text","text":5}]}}"#,
        "warn · assistant line: text block's text is a number",
    );
}

#[test]
fn transcript_bookkeeping_is_quiet() {
    for ty in [
        "file-history-snapshot",
        "queue-operation",
        "attachment",
        "api-request",
        "last-prompt",
        "cost-state",
        "tools-used",
        "mode",
        "atis-latch",
    ] {
        check(&format!(r#"{{"type":"{ty}","sessionId":"s"}}"#), "");
    }
    check(
        r#"{"type":"summary","summary":"Fixed the build","leafUuid":"x"}"#,
        "debug · ⚙ summary · Fixed the build",
    );
}

#[test]
fn unreadable_lines_are_error_rows() {
    let mut ctx = ClassifyCtx::new();
    let env = classify_line(&Line::whole(3, &b"{not json"[..]), &mut ctx);
    assert_eq!(env.seq, Some(3));
    assert_eq!(env.msgs.len(), 1);
    assert_eq!(env.msgs[0].level, classifier::Level::Error);
    assert!(
        env.msgs[0]
            .summary
            .starts_with("unreadable line · not JSON"),
        "{}",
        env.msgs[0].summary
    );
}

#[test]
fn escape_sequences_never_reach_rows() {
    check(
        r#"{"kind":"note","ts":1,"text":"stderr: \u001b[31mred\u001b[0m"}"#,
        "warn · stderr: red",
    );
}

// How a turn ends and starts in a raw Claude Code log (issue 10; rules in src/stream/turns.rs).

/// A hyperhive harness around the stream: its turn events are the only turn rows.
const HARNESS: &str = r#"{"kind":"turn_start","ts":1,"from":"operator","body":"go"}"#;

fn wrapped(line: &str) -> String {
    format!(r#"{{"kind":"stream","ts":2,"value":{line}}}"#)
}

/// `result` → its row without a harness, and no row inside one (raw line and hyperhive
/// `stream` wrapper both).
fn check_result(result: &str, expect: &str) {
    check(result, expect);
    check_after(&[HARNESS, result], "");
    check_after(&[HARNESS, &wrapped(result)], "");
}

#[test]
fn every_result_subtype_is_a_turn_end() {
    // Real (file_tools.stream.jsonl, trimmed).
    check_result(
        r#"{"type":"result","subtype":"success","is_error":false,"duration_ms":20512,"duration_api_ms":18870,"num_turns":17,"result":"Done","total_cost_usd":0.031464,"usage":{"input_tokens":4210,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1210},"permission_denials":[]}"#,
        "info ✅ turn ok · 21s\n  body plain: time 21s (API 19s)\nturns 17\ncost $0.031464\ntokens 4210 in · 1210 out · 0 cache read · 0 cache write",
    );
    // Real: an API failure is subtype success with is_error true (api_fatal_400).
    check_result(
        r#"{"type":"result","subtype":"success","is_error":true,"duration_ms":528,"num_turns":1,"result":"API Error: 400 messages.0.content: mock says this request is invalid\nmore","total_cost_usd":0}"#,
        "error ❌ turn fail · 528ms — API Error: 400 messages.0.content: mock says this request is invalid\n  body plain: time 528ms\nturns 1\ncost $0",
    );
    // Schema: every error_* subtype.
    check_result(
        r#"{"type":"result","subtype":"error_max_turns","is_error":true,"num_turns":12}"#,
        "error ❌ turn fail — max turns (12)\n  body plain: turns 12",
    );
    check_result(
        r#"{"type":"result","subtype":"error_during_execution","is_error":true,"errors":["Tool crashed\nstack"]}"#,
        "error ❌ turn fail — Tool crashed",
    );
    check_result(
        r#"{"type":"result","subtype":"error_during_execution","is_error":false,"errors":[]}"#,
        "error ❌ turn fail — error during execution",
    );
    check_result(
        r#"{"type":"result","subtype":"error_max_budget_usd","is_error":true,"total_cost_usd":2.5}"#,
        "error ❌ turn fail — max budget ($2.5)\n  body plain: cost $2.5",
    );
    check_result(
        r#"{"type":"result","subtype":"error_max_structured_output_retries","is_error":true}"#,
        "error ❌ turn fail — structured output retries used up",
    );
    check_result(
        r#"{"type":"result","subtype":"error_rate_limited","is_error":true}"#,
        "error ❌ turn fail — rate limited",
    );
    check_result(
        r#"{"type":"result","subtype":"success","is_error":true,"api_error_status":529}"#,
        "error ❌ turn fail — API error 529",
    );
    check_result(
        r#"{"type":"result","subtype":"success","is_error":false,"permission_denials":[{"tool_name":"Bash"},{"tool_name":"Write"}]}"#,
        "info ✅ turn ok\n  body plain: permission denials 2 (Bash, Write)",
    );
    check_result(r#"{"type":"result"}"#, "info ✅ turn ok");
}

const INIT: &str = r#"{"type":"system","subtype":"init","session_id":"s","model":"m"}"#;
const PROMPT: &str =
    r#"{"type":"user","message":{"role":"user","content":"fix it"},"session_id":"s"}"#;
const RESULT: &str = r#"{"type":"result","subtype":"success","is_error":false}"#;

#[test]
fn stream_json_turn_starts() {
    // No user message: the init opens the turn.
    check(INIT, "info ◆ TURN ← user");
    check_after(&[HARNESS, INIT], "");
    check_after(&[HARNESS, &wrapped(INIT)], "");
    // A prompt before the init opens it; the init adds nothing.
    check(PROMPT, "info ◆ TURN ← user\n  body plain: fix it");
    check_after(&[PROMPT, INIT], "");
    // A prompt right after the init is that turn's prompt, not a second start.
    check_after(
        &[INIT, PROMPT],
        "info · prompt ← user\n  body plain: fix it",
    );
    // The next run opens the next turn.
    check_after(&[INIT, RESULT, INIT], "info ◆ TURN ← user");
    check_after(
        &[PROMPT, INIT, RESULT, PROMPT],
        "info ◆ TURN ← user\n  body plain: fix it",
    );
    // A run opened while one is open (a background task's notification) is the task's.
    check_after(&[INIT, INIT], "info ◆ TURN ← task");
    check_after(&[INIT, INIT, RESULT, RESULT, INIT], "info ◆ TURN ← user");
}

#[test]
fn interruptions() {
    for text in [
        "[Request interrupted by user]",
        "[Request interrupted by user for tool use]",
    ] {
        let stream = format!(
            r#"{{"type":"user","message":{{"role":"user","content":[{{"type":"text","text":"{text}"}}]}},"session_id":"s"}}"#
        );
        check(&stream, "warn ⏹ interrupted by user");
        let transcript = format!(
            r#"{{"type":"user","message":{{"role":"user","content":"{text}"}},"sessionId":"s","uuid":"u"}}"#
        );
        check(&transcript, "warn ⏹ interrupted by user");
    }
    let delta = |t: &str| {
        format!(
            r#"{{"type":"stream_event","event":{{"type":"content_block_delta","index":0,"delta":{{"type":"text_delta","text":"{t}"}}}},"session_id":"s"}}"#
        )
    };
    let stop = r#"{"type":"user","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user]"}]}}"#;
    check_after(
        &[INIT, &delta("Half "), &delta("an answer"), stop],
        "info · (interrupted)\n  body markdown: Half an answer\nwarn ⏹ interrupted by user",
    );
    let fail = r#"{"type":"result","subtype":"error_during_execution","is_error":true}"#;
    check_after(&[INIT, &delta("Half")], "");
    check_after(
        &[INIT, &delta("Half"), fail],
        "info · (interrupted)\n  body markdown: Half\nerror ❌ turn fail — error during execution",
    );
    // The complete message came: nothing was cut.
    let complete = r#"{"type":"assistant","message":{"content":[{"type":"text","text":"Half"}]},"session_id":"s"}"#;
    check_after(
        &[INIT, &delta("Half"), complete, fail],
        "error ❌ turn fail — error during execution",
    );
    // Under a harness, its turn end shows the cut answer too.
    check_after(
        &[
            HARNESS,
            &wrapped(&delta("Half")),
            r#"{"kind":"turn_end","ts":3,"ok":false,"note":"killed"}"#,
        ],
        "info · (interrupted)\n  body markdown: Half\nerror ❌ turn fail — killed",
    );
    // A subagent's forwarded deltas are not the main answer.
    let sub = r#"{"type":"stream_event","parent_tool_use_id":"toolu_1","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"sub"}}}"#;
    check_after(&[INIT, sub, RESULT], "info ✅ turn ok");
}

#[test]
fn transcript_turn_ends_at_the_answer_that_ends_it() {
    let prompt =
        r#"{"type":"user","message":{"role":"user","content":"hi"},"sessionId":"s","uuid":"u1"}"#;
    let thinking = r#"{"type":"assistant","message":{"id":"m1","content":[{"type":"thinking","thinking":"hm"}],"stop_reason":"end_turn"},"sessionId":"s","uuid":"u2"}"#;
    let answer = r#"{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"Hello"}],"stop_reason":"end_turn"},"sessionId":"s","uuid":"u3"}"#;
    let tool = r#"{"type":"assistant","message":{"id":"m0","content":[{"type":"text","text":"Looking"}],"stop_reason":"tool_use"},"sessionId":"s","uuid":"u4"}"#;
    let failed = r#"{"type":"assistant","message":{"content":[{"type":"text","text":"API Error: 400 bad"}],"stop_reason":"stop_sequence"},"isApiErrorMessage":true,"sessionId":"s","uuid":"u5"}"#;
    check_after(&[prompt, thinking], "debug 💭 hm");
    check_after(
        &[prompt, thinking, answer],
        "info · \n  body markdown: Hello\ninfo ✅ turn ok",
    );
    check_after(&[prompt, tool], "info · \n  body markdown: Looking");
    check_after(
        &[prompt, failed],
        "error ✗ API Error: 400 bad\nerror ❌ turn fail — API Error: 400 bad",
    );
    // No open turn (ended already, or no prompt): no second end.
    check_after(&[prompt, answer, answer], "info · \n  body markdown: Hello");
    check(answer, "info · \n  body markdown: Hello");
    // Stream-json assistant lines never end a turn (their result does).
    let stream_answer = r#"{"type":"assistant","message":{"content":[{"type":"text","text":"Hello"}],"stop_reason":"end_turn"},"session_id":"s"}"#;
    check_after(&[PROMPT, stream_answer], "info · \n  body markdown: Hello");
}

/// Issue 45.4: a Codex patch of 15 files named 3 (`apply_patch a, b, c (+12 more)`) and no
/// body listed the rest. A `codex exec --json` `file_change` (no diff) lists every file with
/// its kind in its body; a rollout's `apply_patch` diff names every file in its `*** … File:`
/// lines.
#[test]
fn issue_45_a_codex_patch_lists_every_changed_file() {
    let kinds = ["add", "update", "delete"];
    let changes: Vec<String> = (0..15)
        .map(|i| format!(r#"{{"path":"/w/f{i}.rs","kind":"{}"}}"#, kinds[i % 3]))
        .collect();
    let line = format!(
        r#"{{"type":"item.started","item":{{"id":"item_1","type":"file_change","changes":[{}],"status":"in_progress"}}}}"#,
        changes.join(",")
    );
    let body: Vec<String> = (0..15)
        .map(|i| format!("{} /w/f{i}.rs", kinds[i % 3]))
        .collect();
    check(
        &line,
        &format!(
            "info ✏\u{fe0f} apply_patch +/w/f0.rs, /w/f1.rs, -/w/f2.rs (+12 more)\n  body plain: {}",
            body.join("\n")
        ),
    );
    // A rollout's patch: the diff, every file's header in it.
    let mut patch = String::from("*** Begin Patch\n");
    for i in 0..15 {
        patch.push_str(&match i % 3 {
            0 => format!("*** Add File: f{i}.rs\n+x\n"),
            1 => format!("*** Update File: f{i}.rs\n@@\n-a\n+b\n"),
            _ => format!("*** Delete File: f{i}.rs\n"),
        });
    }
    patch.push_str("*** End Patch");
    let line = serde_json::json!({"timestamp": "2026-12-02T14:10:09.785Z", "type": "response_item",
        "payload": {"type": "custom_tool_call", "call_id": "c1", "name": "apply_patch",
        "input": patch}})
    .to_string();
    let mut ctx = ClassifyCtx::new();
    let msgs = classify_line(&Line::whole(1, line.as_bytes()), &mut ctx).msgs;
    assert_eq!(
        msgs[0].summary,
        "apply_patch +f0.rs, f1.rs, -f2.rs (+12 more) · -5 +10"
    );
    let body = msgs[0].body.as_deref().unwrap();
    for i in 0..15 {
        let kind = ["Add", "Update", "Delete"][i % 3];
        let header = format!("*** {kind} File: f{i}.rs");
        assert!(body.lines().any(|l| l == header), "{header}: {body}");
    }
}
