//! `LogClassifier` parses each line leanly (without the top-level fields no row reads, see
//! `src/lean.rs`); this holds it to the whole parse: for every fixture, every hostile log and
//! a set of hand-made lines, the envelopes and the summary equal those of the public whole
//! path (`LineReader` → `event::line_event` → `classify_log_event`, `SummaryFold::add`).

#![cfg(not(target_arch = "wasm32"))]

mod logs;

use classifier::event::line_event;
use classifier::{
    ClassifyCtx, LineReader, LogClassifier, Summary, SummaryFold, TermEnvelope,
    classify_log_event_at,
};

/// The whole path: every line parsed into a full `serde_json::Value`.
fn whole(input: &[u8]) -> (Vec<TermEnvelope>, Summary) {
    let mut reader = LineReader::new();
    let mut ctx = ClassifyCtx::new();
    let mut fold = SummaryFold::new();
    let mut out = Vec::new();
    let mut step = |line: classifier::Line| {
        let event = line_event(&line);
        let env = classify_log_event_at(&event, &mut ctx, line.number);
        fold.add(&event.event, &env);
        out.push(env);
    };
    reader.push(input, &mut step);
    reader.finish(&mut step);
    // The end of the log: its rows in the last line's envelope.
    let end = ctx.end_of_log();
    if let Some(last) = out.last_mut().filter(|_| !end.is_empty()) {
        let nothing = classifier::LiveEvent::GeminiMeta {
            meta: Box::default(),
        };
        fold.add(
            &nothing,
            &TermEnvelope {
                msgs: end.clone(),
                ..last.clone()
            },
        );
        last.msgs.extend(end);
    }
    (out, fold.summary())
}

/// The lean path, as `hiveterm classify` and the page run it.
fn lean(input: &[u8]) -> (Vec<TermEnvelope>, Summary) {
    let mut log = LogClassifier::new().with_summary();
    let mut out = Vec::new();
    log.feed(input, |e| out.push(e));
    log.finish(|e| out.push(e));
    (out, log.summary().expect("made with_summary"))
}

fn check(input: &[u8], what: &str) {
    let (want_envs, want_summary) = whole(input);
    let (got_envs, got_summary) = lean(input);
    assert_eq!(got_envs.len(), want_envs.len(), "{what}: envelopes");
    for (got, want) in got_envs.iter().zip(&want_envs) {
        assert_eq!(got, want, "{what}");
    }
    assert_eq!(got_summary, want_summary, "{what}: summary");
}

#[test]
fn every_fixture_and_hostile_log_classifies_as_the_whole_parse() {
    for path in logs::every_log() {
        check(&std::fs::read(&path).unwrap(), &path.display().to_string());
    }
}

#[test]
fn lines_that_skip_fields_classify_as_the_whole_parse() {
    let lines = [
        // Transcript user and assistant lines with the fields no row reads.
        r#"{"parentUuid":"p","isSidechain":false,"type":"assistant","message":{"id":"m1","model":"claude-x","content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"a.rs","content":"x"}}],"usage":{"input_tokens":3,"output_tokens":4}},"uuid":"u1","timestamp":"2026-01-01T00:00:00.000Z","sessionId":"s","cwd":"/w","version":"2"}"#,
        r#"{"parentUuid":"u1","isSidechain":true,"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"done","is_error":true}]},"toolUseResult":{"stdout":"done","big":[1,2,{"x":null}]},"uuid":"u2","timestamp":"2026-01-01T00:00:01.500Z","sessionId":"s"}"#,
        r#"{"type":"user","message":{"role":"user","content":"fix the build"},"isMeta":false,"uuid":"u3","sessionId":"s","timestamp":"2026-01-01T00:00:02Z"}"#,
        r#"{"type":"user","message":{"content":"[Request interrupted by user]"},"uuid":"u4","sessionId":"s"}"#,
        r#"{"type":"assistant","isApiErrorMessage":true,"message":{"content":[{"type":"text","text":"API Error: 500"}]},"requestId":"r"}"#,
        r#"{"type":"user","isCompactSummary":true,"message":{"content":"This session is being continued"},"promptId":"p"}"#,
        // Bookkeeping: only the type and the time count.
        r#"{"type":"api-request","timestamp":"2026-01-01T00:00:03Z","params":{"model":"m","betas":["a"]},"tail":["x"]}"#,
        r#"{"attachment":{"type":"date"},"type":"attachment","timestamp":"2026-01-01T00:00:04Z","rendered":[{"content":"x"}]}"#,
        r#"{"type":"cost-state","totalCostUSD":1.5,"modelUsage":{"m":{"costUSD":1}}}"#,
        // The cases left to the whole parse.
        r#"{"type":"queue-operation","content":"x","subtype":"task_started","task_id":"t","description":"d"}"#,
        r#"{"type":"user","toolUseResult":1,"subtype":"task_notification","task_id":"t","status":"completed"}"#,
        r#"{"type":"mode","mode":"x","kind":"note","text":"hello"}"#,
        r#"{"type":"mode","mode":"x","type":"user","message":{"content":"dup"}}"#,
        r#"{"type":"mode","mode":"\ud800"}"#,
        r#"{"type":"user","toolUseResult":1e999,"message":{"content":"x"}}"#,
        r#"{"type":"user","message":{"content":"x"},"uuid":"a"} trailing"#,
        r#"{"type":"nobody-knows","uuid":"u","toolUseResult":{"a":1}}"#,
        r#"{"kind":"turn_start","from":"op","body":"go","type":"api-request","params":1}"#,
        // Gemini recordings: a history before any message shown, then a model message whose
        // calls have fields no row reads, then histories whose rows are decided.
        r#"{"sessionId":"s1","projectHash":"h","startTime":"2026-12-02T14:10:43.422Z","lastUpdated":"2026-12-02T14:10:43.422Z","kind":"main"}"#,
        r#"{"$set":{"messages":[{"id":"u0","timestamp":"2026-12-02T14:10:43.422Z","type":"user","content":[{"text":"<session_context>x"}]},{"id":"g0","type":"gemini","content":"old","tokens":{"input":5,"output":2},"model":"gemini-x","toolCalls":[{"id":"c0","name":"read_file","args":{"file_path":"a"},"status":"success","description":"d","result":[{"functionResponse":{"id":"c0","name":"read_file","response":{"output":"A"}}}]}]}],"lastUpdated":"t"}}"#,
        r#"{"id":"g1","timestamp":"2026-12-02T14:10:44.000Z","type":"gemini","content":"done","thoughts":[{"subject":"s","description":"d"}],"tokens":{"input":7,"output":3},"model":"gemini-x","toolCalls":[{"id":"c1","name":"replace","args":{"file_path":"b.rs","old_string":"a","new_string":"b"},"status":"success","timestamp":"t","description":"edit","displayName":"Edit","renderOutputAsMarkdown":true,"resultDisplay":{"fileDiff":"--- a\n+++ b\n@@ -1 +1 @@\n-a\n+b\n","fileName":"b.rs","originalContent":"a","newContent":"b","diffStat":{"x":1}},"result":[{"functionResponse":{"id":"c1","name":"replace","response":{"output":"ok"}}}]},{"id":"c2","name":"run_shell_command","args":{"command":"false"},"status":"error","resultDisplay":"boom","result":[{"functionResponse":{"id":"c2","name":"run_shell_command","response":{"error":"exit 1"}}}]}]}"#,
        r#"{"$set":{"messages":[{"id":"u0","type":"user","content":[{"text":"<session_context>x"}]},{"id":"g2","type":"gemini","content":"new in a history","tokens":{"input":1,"output":1},"toolCalls":[{"id":"c3","name":"write_file","args":{"file_path":"c.rs","content":"x"},"status":"success","description":"w"}]},{"id":"w1","type":"warning","content":"careful"},{"id":"x","type":"hologram","content":[1]}]}}"#,
        r#"{"$set":{"summary":"{\"response\":\"sub done\"}","messages":[]}}"#,
        // Gemini lines read typed (`gemini/typed.rs`): records, metadata and updates of odd
        // shapes — wrong types, repeated keys, escaped keys, no map where one is expected.
        r#"{"sessionId":"s2","projectHash":"h","lastUpdated":5,"kind":["x"],"directories":["/a"]}"#,
        r#"{"sessionId":"s2","projectHash":"h","startTime":"t","lastUpdated":"2026-12-02T14:10:45.000Z","kind":"main"}"#,
        r#"{"$set":"not a map"}"#,
        r#"{"$set":{"messages":"not a list","summary":{"a":1}}}"#,
        r#"{"$set":{"messages":[5,null,{"id":"u9","type":"user","content":[{"text":"again"}]},{"id":"g9","type":"gemini","content":"a","thoughts":[{"subject":"s"}],"tokens":{"input":3},"toolCalls":[{"id":"c9","name":"write_file","args":{"file_path":"z.rs"},"status":"error"}]}]}}"#,
        r#"{"$set":{"messages":[]},"$set":{"summary":"last wins"}}"#,
        r#"{"id":"u5","type":"user","content":[1,"x",null,{"text":7},{"functionResponse":null},{"functionResponse":5},{"functionResponse":{"id":"c6","name":"n","response":null}},{"functionResponse":{"response":{"output":"o","error":3}}}]}"#,
        r#"{"id":7,"type":"info","content":{"b":1,"a":[2,{"c":null}]}}"#,
        r#"{"id":"w5","type":"warning","content":-5.25e3,"timestamp":7}"#,
        r#"{"id":"g5","type":"gemini","content":"a","thoughts":{"subject":"not a list"},"tokens":[1],"model":5,"toolCalls":{}}"#,
        r#"{"id":"g6","type":"gemini","toolCalls":[5,null,{},{"id":"c7","name":"run_shell_command","args":{"command":"ls"},"status":"success","result":[{"functionResponse":{"id":"c7","response":{"output":"Output: x\nExit Code: 2"}}}],"resultDisplay":"x","agentId":"a1"},{"id":"c8","args":null,"result":"not a list","resultDisplay":{"fileDiff":"@@ -1 +1 @@\n-a\n+b","other":1}}]}"#,
        r#"{"id":"a","id":"g7","type":"user","type":"gemini","content":"x","content":"y"}"#,
        r#"{"id":"g8","typ\u0065":"gemini","content":"line\nbreak \u00e9 \ud83d\ude00","model":"m\"q"}"#,
        r#"{"id":"u6","type":"user","content":"x","isSidechain":true,"agentId":"a"}"#,
        r#"{"id":"u7","type":"user","content":"x","parent_tool_use_id":"c7"}"#,
        // Gemini fields read lean on a line that turns out not to be Gemini's.
        r#"{"id":"g3","type":"gemini","toolCalls":[{"id":"c4","description":"d"}],"message":{"content":"claude's"}}"#,
        r#"{"type":"gemini","toolCalls":[{"id":"c5","description":"d"}]}"#,
        r#"{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[]},"$set":{"messages":[{"id":"m","type":"user","content":"x"}]}}"#,
        r#"{"$set":{"messages":[{"id":"m","type":"user","content":"x"}]},"timestamp":"t","type":"event_msg","payload":{"type":"hologram"}}"#,
        // Codex rollout lines read typed (`codex/fact.rs`), of odd shapes, in a turn.
        r#"{"timestamp":"2026-12-01T10:00:00Z","type":"session_meta","payload":{"id":"s1","cli_version":"9"}}"#,
        r#"{"timestamp":"2026-12-01T10:00:00Z","type":"turn_context","payload":{"model":"m1"}}"#,
        r#"{"timestamp":"2026-12-01T10:00:00Z","type":"turn_context","payload":{"model":7}}"#,
        r#"{"timestamp":"2026-12-01T10:00:00Z","type":"event_msg","payload":{"type":"task_complete","type":"task_started"}}"#,
        r#"{"timestamp":5,"payload":{"info":{"total_token_usage":{"input_tokens":1,"input_tokens":4,"output_tokens":-2}},"type":"token_count"},"type":"event_msg"}"#,
        r#"{"timestamp":"2026-12-01T10:00:01Z","type":"event_msg","payload":{"type":"thread_settings_applied","thread_settings":{"model":"m2"}}}"#,
        r#"{"timestamp":"2026-12-01T10:00:01Z","type":"event_msg","payload":{"type":"item_completed","item":{"type":"AgentMessage","id":"i"}}}"#,
        r#"{"timestamp":"2026-12-01T10:00:01Z","type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"x","command":"ls","exit_code":1,"aggregated_output":"no"}}}"#,
        r#"{"timestamp":"2026-12-01T10:00:02Z","type":"token_usage_record","payload":{"session_id":"s2","thread_id":5,"turn_token_usage":{"input_tokens":5,"cached_input_tokens":2,"output_tokens":1,"reasoning_output_tokens":7},"thread_token_usage":{"input_tokens":50,"output_tokens":10}}}"#,
        r#"{"timestamp":"2026-12-01T10:00:02Z","type":"token_usage_record","payload":{"session_id":"s3","thread_token_usage":{"input_tokens":9,"cache_write_input_tokens":3,"output_tokens":2.5}}}"#,
        r#"{"timestamp":"2026-12-01T10:00:03Z","type":"event_msg","payload":{"type":"task_complete","duration_ms":1500}}"#,
        r#"{"timestamp":"2026-12-01T10:00:03Z","type":"turn_context","payload":{"model":"m3"},"kind":"note"}"#,
        // Codex `exec --json` lines read typed (`codex/exec_line.rs`), and left whole.
        r#"{"type":"thread.started","thread_id":"th1"}"#,
        r#"{"type":"turn.started"}"#,
        r#"{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"/bin/bash -lc 'ls'","aggregated_output":"","exit_code":null,"status":"in_progress"}}"#,
        r#"{"type":"item.started","item":{"id":"item_2","type":"mcp_tool_call","server":"s","tool":"t","arguments":{"a":1}}}"#,
        r#"{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"a\nb\n","exit_code":-2,"status":"failed"}}"#,
        r#"{"type":"item.completed","item":{"id":"item_2","type":"mcp_tool_call","server":"s","tool":"t","result":{"content":[{"type":"text","text":"ok"}]},"status":"completed"}}"#,
        r#"{"type":"item.completed","item":{"id":"item_3","type":"file_change","changes":[{"path":"a.rs","kind":"add"},7],"status":"completed"}}"#,
        r#"{"type":"item.completed","item":{"id":"item_4","type":"agent_message","text":"done","extra":[1]}}"#,
        r#"{"type":"item.completed","item":{"id":"item_5","type":"brand_new","x":1}}"#,
        r#"{"type":"item.updated","item":"no map"}"#,
        r#"{"type":"error","message":"Reconnecting... 1/5"}"#,
        r#"{"type":"turn.failed","error":{"message":"{\"error\":{\"message\":\"bad\"}}"}}"#,
        r#"{"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":4,"output_tokens":2},"usage":{"input_tokens":11}}"#,
        r#"{"type":"turn.started","timestamp":"2026-12-01T10:00:04Z"}"#,
        // Gemini stream-json events read typed (`gemini/typed/event.rs`), and left whole.
        r#"{"type":"init","timestamp":"2026-12-02T14:10:43.426Z","session_id":"92b3","model":"auto"}"#,
        r#"{"type":"message","timestamp":"2026-12-02T14:10:43.428Z","role":"user","content":"Summarise"}"#,
        r#"{"type":"tool_result","timestamp":"2026-12-02T14:10:44Z","tool_id":"t1","status":"success","output":"ok"}"#,
        r#"{"type":"tool_result","timestamp":"2026-12-02T14:10:44Z","tool_id":"t2","status":"error","error":{"type":"x","message":"boom"}}"#,
        r#"{"type":"tool_result","timestamp":5,"tool_id":"t3","status":"error","error":"plain"}"#,
        r#"{"type":"init","timestamp":null,"session_id":5}"#,
        r#"{"type":"tool_use","timestamp":"2026-12-02T14:10:44Z","tool_name":"run_shell_command","tool_id":"t5","parameters":{"command":"printf 'a\n'; exit 3","description":"d","is_background":true}}"#,
        r#"{"type":"tool_use","timestamp":"2026-12-02T14:10:44Z","tool_name":"replace","tool_id":"t6","parameters":{"file_path":"/w/a.rs","instruction":"i","old_string":"a\nb","new_string":"c","allow_multiple":true}}"#,
        r#"{"type":"tool_use","timestamp":"2026-12-02T14:10:44Z","tool_name":"invoke_agent","tool_id":"t7","parameters":{"agent_name":"codebase_investigator","prompt":"look"}}"#,
        r#"{"type":"message","timestamp":"2026-12-02T14:10:44Z","role":"user","content":"sub","parent_tool_use_id":"t7"}"#,
        r#"{"type":"tool_result","timestamp":"2026-12-02T14:10:44Z","tool_id":"t7","status":"success","output":"found"}"#,
        r#"{"type":"tool_use","timestamp":"2026-12-02T14:10:44Z","tool_name":"write_file","tool_id":"t6","parameters":{"file_path":"/w/b.rs","content":"x"}}"#,
        r#"{"type":"tool_use","timestamp":"2026-12-02T14:10:44Z","tool_name":5,"tool_id":null,"parameters":[1,{"a":2}]}"#,
        r#"{"type":"tool_use","timestamp":"2026-12-02T14:10:44Z","parameters":null,"parameters":{"dir_path":"/w/"},"tool_name":"list_directory"}"#,
        r#"{"type":"tool_use","timestamp":"2026-12-02T14:10:44Z"}"#,
        r#"{"type":"tool_use","tool_name":"glob","tool_id":"no time","parameters":{"pattern":"*"}}"#,
        r#"{"type":"tool_use","timestamp":"2026-12-02T14:10:44Z","tool_name":"glob","tool_id":"t8","parameters":{"pattern":"*"},"id":"other"}"#,
        r#"{"type":"tool_use","timestamp":"2026-12-02T14:10:44Z","tool_name":"mcp__github__create_issue","tool_id":"t9","parameters":{"title":"\u00e9 \ud83d\ude00","body":{"deep":[[[]]]}}}"#,
        r#"{"type":"message","timestamp":"2026-12-02T14:10:45Z","role":"user"}"#,
        r#"{"type":"message","timestamp":"2026-12-02T14:10:45Z","role":"user","content":[1,{"a":2}]}"#,
        r#"{"type":"message","timestamp":"2026-12-02T14:10:45Z","role":"user","content":null}"#,
        r#"{"type":"message","timestamp":"2026-12-02T14:10:45Z","role":"user","role":"assistant","content":"x"}"#,
        r#"{"type":"init","session_id":"no time"}"#,
        r#"{"type":"tool_result","timestamp":"2026-12-02T14:10:46Z","tool_id":"t4","id":"r1"}"#,
        r#"{"type":"init","timestamp":"2026-12-02T14:10:47Z","payload":{"a":1}}"#,
        r#"{"type":"result","timestamp":"2026-12-02T14:10:48Z","status":"success","stats":{"total_tokens":9,"input_tokens":8,"output_tokens":1,"cached":0,"duration_ms":203,"tool_calls":2,"models":{"gemini-a":{"total_tokens":4},"auto":{},"gemini-b":{}}}}"#,
        r#"{"type":"message","timestamp":"2026-12-02T14:10:49Z","role":"user","content":"again"}"#,
        r#"{"type":"result","timestamp":"2026-12-02T14:10:50Z","status":"error","error":{"type":"x","message":"[API Error: {\"error\":{\"code\":429,\"message\":\"quota\"}}]"},"stats":{"duration_ms":-1.5,"input_tokens":-3,"output_tokens":2.0,"models":{"b":1,"a":2,"b":3}}}"#,
        r#"{"type":"result","timestamp":"2026-12-02T14:10:51Z","status":"success","error":null,"stats":null}"#,
        r#"{"type":"result","timestamp":"2026-12-02T14:10:52Z","status":5,"error":"plain why","stats":{"models":[1],"duration_ms":"x"}}"#,
        r#"{"type":"result","timestamp":"2026-12-02T14:10:53Z","status":"success","stats":{},"session_id":"s"}"#,
    ];
    let mut log = Vec::new();
    for line in lines {
        log.extend_from_slice(line.as_bytes());
        log.push(b'\n');
        check(line.as_bytes(), line);
    }
    log.extend_from_slice(
        b"{\"type\":\"user\",\"message\":{\"content\":\"x\"},\"uuid\":\"\xff\"}\n",
    );
    log.extend_from_slice(b"\xEF\xBB\xBF{\"type\":\"mode\",\"mode\":\"x\"}\r\n");
    check(&log, "all together");
}

/// Issue 47: OpenCode parts, Qwen Code session records and Copilot CLI events read lean (their
/// agents' fields only, `src/{opencode,qwen,copilot}/lean.rs`), and lines that look like
/// theirs but are another's (or nobody's), classify as the whole parse.
#[test]
fn issue_47_new_agents_lean_lines_classify_as_the_whole_parse() {
    let lines = [
        // OpenCode: a tool part with its metadata, times and ids; a step; oddities.
        r#"{"type":"step_start","timestamp":1796633838937,"sessionID":"ses_a","part":{"id":"p","messageID":"m","sessionID":"ses_a","type":"step-start","snapshot":"s"}}"#,
        r#"{"type":"tool_use","timestamp":1796633839104,"sessionID":"ses_a","part":{"type":"tool","tool":"bash","callID":"c1","state":{"status":"completed","input":{"command":"false"},"output":"x","metadata":{"output":"x","exit":3,"truncated":false},"title":"t","time":{"start":1,"end":2}},"id":"p2","sessionID":"ses_a","messageID":"m"}}"#,
        r#"{"type":"tool_use","timestamp":1796633839200,"sessionID":"ses_a","part":{"type":"tool","tool":"edit","callID":"c2","state":{"status":"completed","input":{"filePath":"/w/a.rs","oldString":"a","newString":"b"},"output":"ok","metadata":{"diff":"--- a\n+++ b\n@@ -1 +1 @@\n-a\n+b\n","filediff":{"before":"a","after":"b"}}}}}"#,
        r#"{"type":"tool_use","timestamp":1796633839300,"sessionID":"ses_a","part":{"type":"tool","tool":"read","callID":"c3","state":{"status":"error","input":{"filePath":"/w/x"},"error":"nope","metadata":5}}}"#,
        r#"{"type":"step_finish","timestamp":1796633839400,"sessionID":"ses_a","part":{"id":"p3","reason":"stop","type":"step-finish","tokens":{"input":3,"output":1,"cache":{"read":2}},"cost":0.5,"time":{"x":1}}}"#,
        r#"{"type":"text","timestamp":1796633839500,"sessionID":"ses_b","part":"not a map"}"#,
        r#"{"type":"text","timestamp":"not a number","sessionID":"ses_b","part":{"type":"text","text":"hi","id":"dropped?"}}"#,
        r#"{"type":"tool_use","timestamp":"2026-12-02T14:10:44Z","part":{"id":"x"},"tool_name":"glob","tool_id":"t8","parameters":{"pattern":"*"}}"#,
        r#"{"part":{"id":"before the type"},"type":"text","timestamp":1,"sessionID":"s"}"#,
        r#"{"type":"text","kind":"note","timestamp":1,"sessionID":"s","part":{"id":"x","text":"y"}}"#,
        // Qwen Code: records with the fields no row reads.
        r#"{"uuid":"u1","parentUuid":null,"sessionId":"s","timestamp":"2026-12-07T08:58:46.629Z","type":"user","provenance":"real_user","cwd":"/w","version":"0.24.4","message":{"role":"user","parts":[{"text":"go"}]}}"#,
        r#"{"uuid":"u2","parentUuid":"u1","sessionId":"s","timestamp":"2026-12-07T08:58:47.222Z","type":"system","provenance":"system","cwd":"/w","subtype":"ui_telemetry","systemPayload":{"uiEvent":{"event.name":"qwen-code.api_response","response_id":"r","input_token_count":5,"output_token_count":2,"cached_content_token_count":1,"prompt_id":"s#managed-auto-memory-extractor-1#0","ttft_ms":4}}}"#,
        r#"{"uuid":"u3","sessionId":"s","timestamp":"2026-12-07T08:58:47.3Z","type":"assistant","provenance":"assistant_output","cwd":"/w","model":"qwen3","message":{"role":"model","parts":[{"text":"hm","thought":true},{"functionCall":{"id":"c1","name":"run_shell_command","args":{"command":"false"}},"thoughtSignature":"x"}]},"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":3},"contextWindowSize":1000}"#,
        r#"{"uuid":"u4","sessionId":"s","timestamp":"2026-12-07T08:58:47.5Z","type":"tool_result","provenance":"tool_result","cwd":"/w","message":{"role":"user","parts":[{"functionResponse":{"id":"c1","name":"run_shell_command","response":{"error":"exit 1"}}}]},"toolCallResult":{"callId":"c1","status":"error","resultDisplay":{"output":"big"}}}"#,
        r#"{"uuid":"u5","sessionId":"s","timestamp":"2026-12-07T08:58:48Z","type":"system","provenance":"system","subtype":"ui_telemetry","systemPayload":{"uiEvent":{"event.name":"qwen-code.api_error","status_code":401,"error_message":"bad key","model":"qwen3","duration_ms":3}}}"#,
        r#"{"uuid":"u6","sessionId":"s","timestamp":"2026-12-07T08:58:49Z","type":"system","provenance":"system","subtype":"attribution_snapshot","systemPayload":{"snapshot":{"fileStates":{}}}}"#,
        r#"{"uuid":"u7","sessionId":"s","type":"assistant","provenance":5,"cwd":"/w","message":{"role":"model","parts":[{"text":"not a record"}]}}"#,
        r#"{"uuid":"u8","type":"assistant","cwd":"/w","provenance":"x","sessionId":"s","message":{"content":"skipped before"}}"#,
        r#"{"type":"system","provenance":"system","subtype":"ui_telemetry","systemPayload":{"uiEvent":{"event.name":"qwen-code.api_error"}}}"#,
        r#"{"type":"tool_result","provenance":"tool_result","sessionId":"s","timestamp":"2026-12-02T14:10:44Z","toolCallResult":"plain","message":{"parts":"none"}}"#,
        // Copilot CLI: events with the data no row reads, and odd ones.
        r#"{"type":"session.start","data":{"sessionId":"s","copilotVersion":"1.0.102","selectedModel":"gpt","context":{"cwd":"/w","gitRoot":"/w"},"startTime":"x"},"id":"e1","timestamp":"2026-12-07T08:59:42.6Z","parentId":null}"#,
        r#"{"type":"system.message","data":{"role":"system","content":"a long system prompt"},"id":"e2","timestamp":"2026-12-07T08:59:42.7Z","parentId":"e1"}"#,
        r#"{"type":"user.message","data":{"content":"go","transformedContent":"<x>go"},"id":"e3","timestamp":"2026-12-07T08:59:42.7Z","parentId":"e2"}"#,
        r#"{"type":"assistant.message","data":{"messageId":"m","model":"gpt","content":"ok","reasoningText":"think","toolRequests":[{"toolCallId":"c1","name":"edit","arguments":{"path":"/w/a","old_str":"a","new_str":"b"},"type":"function"}]},"id":"e4","timestamp":"2026-12-07T08:59:42.8Z","parentId":"e3"}"#,
        r#"{"type":"tool.execution_complete","data":{"toolCallId":"c1","shellExecution":{"exitCode":2,"x":1},"success":true,"result":{"content":"out","detailedContent":"out"},"toolTelemetry":{"a":1}},"ephemeral":true,"id":"e5","timestamp":"2026-12-07T08:59:42.9Z","parentId":"e4"}"#,
        r#"{"type":"tool.execution_complete","data":{"toolCallId":"c2","success":false,"error":{"message":"denied","code":"x"}},"id":"e6","timestamp":"2026-12-07T08:59:43Z"}"#,
        r#"{"type":"session.usage_record","data":{"usage":{"model":"gpt","inputTokens":5,"outputTokens":2}},"id":"e7","timestamp":"2026-12-07T08:59:43Z"}"#,
        r#"{"type":"session.shutdown","data":{"codeChanges":{"a":1},"modelMetrics":{}},"id":"e8","timestamp":"2026-12-07T08:59:44Z"}"#,
        r#"{"type":"session.info","data":{"infoType":"file_created","message":"/w/a"},"ephemeral":true,"id":"e9","timestamp":"2026-12-07T08:59:44Z"}"#,
        r#"{"type":"session.brand_new","data":{"x":1},"id":"e10","timestamp":"2026-12-07T08:59:44Z"}"#,
        r#"{"type":"system.message","data":{"content":"no id: not Copilot's"},"timestamp":"2026-12-07T08:59:45Z","parentId":"e1"}"#,
        r#"{"type":"user.message","data":"not a map","id":"e11","timestamp":"2026-12-07T08:59:45Z"}"#,
        r#"{"type":"assistant.message","data":{"toolRequests":[5,{"name":"view","arguments":{"path":"/w","view_range":[2,4]}}]},"id":"e12","timestamp":"2026-12-07T08:59:46Z"}"#,
    ];
    let mut log = Vec::new();
    for line in lines {
        log.extend_from_slice(line.as_bytes());
        log.push(b'\n');
        check(line.as_bytes(), line);
    }
    check(&log, "all together");
}
