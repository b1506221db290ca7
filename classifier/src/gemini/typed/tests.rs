//! The line read by [`fast`] is what the readers of a [`Value`] read from the line's whole
//! parse ([`Record::of_value`], [`Update::of_value`], [`Meta::of_value`]): on every recording
//! line of the fixtures and on lines of every odd shape.

use super::*;

/// `line`, read both ways: the same record and time, or `fast` declines (`expect_fast`
/// false) and the line is left to the whole parse.
fn check(line: &str, expect_fast: bool) {
    let value: Value = serde_json::from_str(line).expect("test lines are JSON");
    let got = fast(line.as_bytes(), false);
    assert_eq!(got.is_some(), expect_fast, "{line}");
    let Some((read, ts)) = got else {
        return;
    };
    let map = value.as_object().expect("an object");
    assert!(crate::gemini::detect::is_gemini(map), "{line}: is Gemini's");
    assert!(!crate::codex::detect::is_codex(map), "{line}: not Codex's");
    assert_eq!(ts, crate::gemini::detect::timestamp(map), "{line}: time");
    match read {
        Fast::Message(record) => {
            assert!(
                crate::gemini::detect::is_message_record(map),
                "{line}: a record"
            );
            assert_eq!(*record, Record::of_value(&value), "{line}");
        }
        Fast::Meta(meta) => {
            assert!(
                map.contains_key("projectHash") && !map.contains_key("$set"),
                "{line}"
            );
            assert_eq!(*meta, Meta::of_value(&value), "{line}");
        }
        Fast::Delta(text) => {
            // A stream-json answer delta: its rows read only its `content` string.
            assert!(!super::super::is_record_line(map), "{line}: not a record");
            assert_eq!(map["type"], "message", "{line}");
            assert_eq!(map["role"], "assistant", "{line}");
            assert_eq!(Some(text.as_str()), map["content"].as_str(), "{line}");
        }
        Fast::Event(event) => {
            assert!(!super::super::is_record_line(map), "{line}: not a record");
            let s = |k: &str| map.get(k).and_then(Value::as_str).map(str::to_owned);
            let want = match map["type"].as_str() {
                Some("init") => Event::Init {
                    session_id: s("session_id"),
                    model: s("model"),
                },
                Some("message") => {
                    assert_eq!(map["role"], "user", "{line}");
                    Event::Prompt {
                        content: s("content").unwrap_or_default(),
                    }
                }
                Some("tool_use") => Event::ToolUse {
                    tool_name: s("tool_name"),
                    tool_id: s("tool_id"),
                    parameters: map.get("parameters").cloned().unwrap_or(Value::Null),
                },
                Some("tool_result") => Event::ToolResult {
                    tool_id: s("tool_id"),
                    status: s("status"),
                    output: s("output"),
                    error: map
                        .get("error")
                        .and_then(|e| e.get("message"))
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                },
                Some("result") => Event::Result {
                    status: s("status"),
                    failed: map.contains_key("error"),
                    error: map.get("error").and_then(|e| {
                        e.get("message")
                            .and_then(Value::as_str)
                            .or_else(|| e.as_str())
                            .map(str::to_owned)
                    }),
                    stats: map.get("stats").and_then(Value::as_object).map(|st| {
                        let n = |k: &str| st.get(k).and_then(Value::as_u64);
                        Stats {
                            duration_ms: st.get("duration_ms").and_then(Value::as_f64),
                            input_tokens: n("input_tokens"),
                            output_tokens: n("output_tokens"),
                            cached: n("cached"),
                            total_tokens: n("total_tokens"),
                            tool_calls: n("tool_calls"),
                            models: st
                                .get("models")
                                .and_then(Value::as_object)
                                .map(|m| m.keys().cloned().collect()),
                            model_figures: st
                                .get("models")
                                .and_then(Value::as_object)
                                .into_iter()
                                .flat_map(|m| m.values())
                                .map(|f| {
                                    let n = |k: &str| f.get(k).and_then(Value::as_u64);
                                    super::event::ModelFigures {
                                        input_tokens: n("input_tokens"),
                                        output_tokens: n("output_tokens"),
                                        cached: n("cached"),
                                    }
                                })
                                .collect(),
                        }
                    }),
                },
                _ => panic!("{line}: not an event read typed"),
            };
            assert_eq!(*event, want, "{line}");
        }
        Fast::Update(update) => {
            assert_eq!(map.len(), 1, "{line}: $set alone");
            assert_eq!(*update, Update::of_value(&map["$set"], false), "{line}");
            // Once a message was shown, the history's texts are left out, and only they.
            let Some((Fast::Update(lean), _)) = fast(line.as_bytes(), true) else {
                panic!("{line}: read lean too");
            };
            let strip = |u: &Update| {
                let mut u = u.clone();
                for m in u.messages.iter_mut().flatten().flatten() {
                    m.content = Content::Nothing;
                    m.thoughts = None;
                }
                u
            };
            assert_eq!(*lean, strip(&update), "{line}: lean");
            assert_eq!(
                *lean,
                Update::of_value(&map["$set"], true),
                "{line}: lean, whole"
            );
        }
    }
}

#[test]
fn records_of_every_shape_read_alike() {
    let fast_lines = [
        r#"{"id":"u","timestamp":"2026-12-02T14:10:43.422Z","type":"user","content":[{"text":"hi"},{"text":"there"}]}"#,
        r#"{"id":"u","type":"user","content":"plain"}"#,
        r#"{"id":"u","type":"user","content":null}"#,
        r#"{"id":"u","type":"user","content":5}"#,
        r#"{"id":"u","type":"user","content":-5.25e3}"#,
        r#"{"id":"u","type":"user","content":true}"#,
        r#"{"id":"u","type":"user","content":{"b":1,"a":[2,{"c":null}]}}"#,
        r#"{"id":"u","type":"user","content":[1,"x",null,{"text":7},{"functionResponse":null},{"functionResponse":5},{"functionResponse":{"id":"c","name":"n","response":null}},{"functionResponse":{"response":{"output":"o","error":3}}}]}"#,
        r#"{"id":7,"type":"info","content":"not a string id"}"#,
        r#"{"id":"w","type":"warning","content":"x","timestamp":7}"#,
        r#"{"id":"e","type":"error","content":"x","timestamp":"not a time"}"#,
        r#"{"id":"g","type":"gemini"}"#,
        r#"{"id":"g","type":"gemini","content":"a","thoughts":{"subject":"not a list"},"tokens":[1],"model":5,"toolCalls":{}}"#,
        r#"{"id":"g","type":"gemini","content":"a","thoughts":[1,null,{"subject":"s"},{"description":"d","timestamp":"t"}],"tokens":{"input":-1,"output":2.5,"cached":3,"thoughts":18446744073709551615,"total":9},"model":"m"}"#,
        r#"{"id":"g","type":"gemini","content":"a","toolCalls":[5,null,{},{"id":"c","name":"run_shell_command","args":{"command":"ls"},"status":"success","result":[{"functionResponse":{"id":"c","response":{"output":"Output: x\nExit Code: 2"}}}],"resultDisplay":"x","agentId":"a1","extra":{"deep":[1,2,3]}}]}"#,
        r#"{"id":"g","type":"gemini","toolCalls":[{"id":"c","args":null,"result":"not a list","resultDisplay":{"fileDiff":"@@ -1 +1 @@\n-a\n+b","other":1}},{"id":"d","args":[1],"result":[{"text":"t"},{"functionResponse":{"response":"s"}}],"resultDisplay":{"fileDiff":5}},{"resultDisplay":null}]}"#,
        // A field written twice keeps its last value, as a map does.
        r#"{"id":"a","id":"b","type":"user","type":"gemini","content":"x","content":"y"}"#,
        r#"{"id":"g","type":"gemini","toolCalls":[{"id":"c","id":"d","status":"x","status":"success"}]}"#,
        // Escaped keys and strings.
        r#"{"id":"g","typ\u0065":"gemini","content":"line\nbreak \u00e9 \ud83d\ude00","model":"m\"q"}"#,
        // Metadata lines and updates.
        r#"{"sessionId":"s","projectHash":"h","startTime":"2026-12-02T14:10:43.422Z","lastUpdated":"2026-12-02T14:10:43.422Z","kind":"main"}"#,
        r#"{"sessionId":"s","projectHash":"h","lastUpdated":5,"kind":["x"],"directories":["/a"]}"#,
        r#"{"sessionId":7,"projectHash":null}"#,
        r#"{"$set":{"lastUpdated":"2026-12-02T14:10:43.422Z"}}"#,
        r#"{"$set":"not a map"}"#,
        r#"{"$set":{"messages":"not a list","summary":{"a":1}}}"#,
        r#"{"$set":{"summary":"{\"response\":\"done\"}","sessionId":"s"}}"#,
        r#"{"$set":{"messages":[5,null,{"id":"u","type":"user","content":[{"text":"<session_context>x"}]},{"id":"g","type":"gemini","content":"a","thoughts":[{"subject":"s"}],"tokens":{"input":3},"toolCalls":[{"id":"c","name":"n"}]}]}}"#,
        r#"{"$set":{"messages":[]},"$set":{"summary":"last wins"}}"#,
    ];
    for line in fast_lines {
        check(line, true);
    }
    let whole_lines = [
        // Another agent's field, or not a record.
        r#"{"id":"u","type":"user","content":"x","message":{"content":"claude"}}"#,
        r#"{"id":"u","type":"user","content":"x","isSidechain":true,"agentId":"a"}"#,
        r#"{"id":"u","type":"user","content":"x","parent_tool_use_id":"t"}"#,
        r#"{"id":"e","type":"error","content":"x","severity":"error"}"#,
        r#"{"id":"u","type":"user"}"#,
        r#"{"id":"i","type":"init","content":"x"}"#,
        r#"{"id":"x","type":"hologram","content":"x"}"#,
        r#"{"id":"x","type":5,"content":"x"}"#,
        r#"{"id":"x","content":"x"}"#,
        r#"{"id":"g","type":"gemini","$set":{}}"#,
        r#"{"id":"g","type":"gemini","projectHash":"h","sessionId":"s"}"#,
        r#" {"id":"g","type":"gemini"}"#,
        r#"{"type":"gemini","id":"g"}"#,
        r#"{"sessionId":"s","kind":"main"}"#,
        r#"{"sessionId":"s","projectHash":"h","type":"user"}"#,
        r#"{"sessionId":"s","projectHash":"h","timestamp":"2026-12-02T14:10:43.422Z"}"#,
        r#"{"$set":{},"type":"user"}"#,
        r#"{"$set":{},"lastUpdated":"2026-12-02T14:10:43.422Z"}"#,
    ];
    for line in whole_lines {
        check(line, false);
    }
}

#[test]
fn not_json_is_left_to_the_whole_parse() {
    for line in [
        &b"{\"id\":\"g\",\"type\":\"gemini\"} x"[..],
        b"{\"id\":\"g\",\"type\":\"gemini\"",
        b"{\"id\":\"\xff\",\"type\":\"gemini\"}",
        b"{\"id\":\"g\",\"type\":\"gemini\",\"content\":1e999}",
        b"{\"id\":\"g\",\"type\":\"gemini\",\"content\":\"\\ud800\"}",
    ] {
        assert!(
            fast(line, false).is_none(),
            "{}",
            String::from_utf8_lossy(line)
        );
    }
}

/// Real recordings: every model and user message, with thoughts, tool calls, diffs, errors.
const RECORDINGS: &[&str] = &[
    include_str!("../../../../fixtures/gemini-0.61.0/gemini.failing_command.session.jsonl"),
    include_str!("../../../../fixtures/gemini-0.61.0/gemini.file_edit.session.jsonl"),
    include_str!("../../../../fixtures/gemini-0.61.0/gemini.file_read.session.jsonl"),
    include_str!("../../../../fixtures/gemini-0.61.0/gemini.reasoning.session.jsonl"),
    include_str!("../../../../fixtures/gemini-0.61.0/gemini.resume_1_first.session.jsonl"),
    include_str!("../../../../fixtures/gemini-0.61.0/gemini.shell_command.session.jsonl"),
    include_str!("../../../../fixtures/gemini-0.61.0/gemini.subagent.session.jsonl"),
    include_str!(
        "../../../../fixtures/gemini-0.61.0/gemini.subagent.subagent-3379175b.session.jsonl"
    ),
];

/// A stream-json answer delta is read from its bytes only as the Gemini CLI writes it; any
/// other spelling (or a text that is not one JSON string) is left to the whole parse.
#[test]
fn answer_deltas_read_alike() {
    let head =
        r#"{"type":"message","timestamp":"2026-12-02T14:11:05.466Z","role":"assistant","content":"#;
    let tail = r#","delta":true}"#;
    for (text, is_fast) in [
        (r#""Hi""#, true),
        (r#""""#, true),
        (r#""\"x\" \\ \n \u00e9 \ud83d\ude00 é 😀""#, true),
        (r#""a","role":"user""#, false),
        (r#""a" "#, true),
        (r#"["Hi"]"#, false),
        (r#""\ud800""#, false),
        (r#""tab	in""#, false),
        (r#""a"#, false),
    ] {
        let line = format!("{head}{text}{tail}");
        assert_eq!(fast(line.as_bytes(), false).is_some(), is_fast, "{line}");
        if is_fast {
            check(&line, true);
        }
    }
    let t = r#""timestamp":"2026-12-02T14:11:05.466Z""#;
    for line in [
        format!(r#"{{"type":"message",{t},"content":"Hi","role":"assistant","delta":true}}"#),
        format!(r#"{{"type":"message",{t},"role":"user","content":"Hi","delta":true}}"#),
        format!(r#"{{"type":"message",{t},"role":"assistant","content":"Hi"}}"#),
        format!(r#"{{"type":"message",{t},"role":"assistant","content":"Hi","delta":true,"x":1}}"#),
        r#"{"type":"message","timestamp":"2026-12-02T14:11:05.466Z\n","role":"assistant","content":"Hi","delta":true}"#.to_owned(),
        r#"{"type":"message","timestamp":"nope","role":"assistant","content":"Hi","delta":true}"#.to_owned(),
    ] {
        // Read as JSON (whatever it says, the same as the whole parse's), or left to it.
        if fast(line.as_bytes(), false).is_some() {
            check(&line, true);
        }
    }
}

#[test]
fn stream_events_read_alike() {
    let t = r#""timestamp":"2026-12-02T14:10:43.426Z""#;
    for (line, is_fast) in [
        (
            format!(r#"{{"type":"init",{t},"session_id":"92b3","model":"auto"}}"#),
            true,
        ),
        (
            r#"{"type":"init","timestamp":null,"session_id":5,"model":"m","model":7}"#.to_owned(),
            true,
        ),
        (
            format!(
                r#"{{"type":"message",{t},"role":"user","content":"Summarise \"it\" \u00e9"}}"#
            ),
            true,
        ),
        (format!(r#"{{"type":"message",{t},"role":"user"}}"#), true),
        (
            format!(
                r#"{{"type":"tool_result",{t},"tool_id":"t1","status":"success","output":"ok"}}"#
            ),
            true,
        ),
        (
            format!(
                r#"{{"type":"tool_result",{t},"tool_id":"t2","status":"error","error":{{"type":"x","message":"boom"}}}}"#
            ),
            true,
        ),
        (
            format!(r#"{{"type":"tool_result",{t},"status":"error","error":"plain","output":5}}"#),
            true,
        ),
        (
            format!(
                r#"{{"type":"tool_use",{t},"tool_name":"replace","tool_id":"r1","parameters":{{"file_path":"a","old_string":"x\ny","new_string":"\u00e9"}}}}"#
            ),
            true,
        ),
        (
            format!(r#"{{"type":"tool_use",{t},"tool_name":7,"tool_id":["x"],"parameters":5}}"#),
            true,
        ),
        (format!(r#"{{"type":"tool_use",{t}}}"#), true),
        (
            format!(
                r#"{{"type":"tool_use",{t},"parameters":{{"a":1}},"parameters":null,"tool_name":"glob","tool_name":"grep_search"}}"#
            ),
            true,
        ),
        // The time makes `init`, `tool_use` and `tool_result` Gemini's; a content that is no
        // string shows as JSON; any other field or role: read whole.
        (r#"{"type":"init","session_id":"s"}"#.to_owned(), false),
        (
            r#"{"type":"tool_use","tool_name":"glob","parameters":{}}"#.to_owned(),
            false,
        ),
        (
            format!(r#"{{"type":"tool_use",{t},"tool_name":"glob","id":"x"}}"#),
            false,
        ),
        (r#"{"type":"tool_result","tool_id":"t"}"#.to_owned(), false),
        (
            format!(r#"{{"type":"message",{t},"role":"user","content":null}}"#),
            false,
        ),
        (
            format!(r#"{{"type":"message",{t},"role":"user","content":["x"]}}"#),
            false,
        ),
        (
            format!(r#"{{"type":"message",{t},"role":"model","content":"x"}}"#),
            false,
        ),
        (format!(r#"{{"type":"message",{t},"content":"x"}}"#), false),
        (
            format!(r#"{{"type":"message",{t},"role":"user","content":"x","delta":true}}"#),
            false,
        ),
        (
            format!(r#"{{"type":"tool_result",{t},"tool_id":"t","id":"r1"}}"#),
            false,
        ),
        (
            format!(r#"{{"type":"init",{t},"payload":{{"a":1}}}}"#),
            false,
        ),
        (
            format!(r#"{{"type":"init",{t},"type":"result","status":"success","stats":{{}}}}"#),
            true,
        ),
        (
            format!(
                r#"{{"type":"result",{t},"status":"success","stats":{{"total_tokens":9222,"input_tokens":8744,"output_tokens":439,"cached":0,"input":8744,"duration_ms":203,"tool_calls":0,"models":{{"gemini-a":{{"total_tokens":849}},"gemini-b":{{}}}}}}}}"#
            ),
            true,
        ),
        (
            format!(
                r#"{{"type":"result",{t},"status":"error","error":{{"type":"x","message":"[API Error: {{\"error\":{{\"code\":429,\"message\":\"quota\"}}}}]"}},"stats":{{"duration_ms":-1.5,"input_tokens":-3,"output_tokens":2.0,"models":{{"b":1,"a":2,"b":3}}}}}}"#
            ),
            true,
        ),
        (
            format!(r#"{{"type":"result",{t},"status":"success","error":null,"stats":null}}"#),
            true,
        ),
        (
            format!(
                r#"{{"type":"result",{t},"status":5,"error":"plain why","stats":{{"models":[1],"duration_ms":"x","tool_calls":18446744073709551615}}}}"#
            ),
            true,
        ),
        (
            format!(
                r#"{{"type":"result",{t},"status":"success","error":{{"message":7}},"stats":{{"models":{{}}}}}}"#
            ),
            true,
        ),
        (format!(r#"{{"type":"result",{t},"stats":{{}}}}"#), false),
        (
            format!(r#"{{"type":"result",{t},"status":"success"}}"#),
            false,
        ),
        (
            format!(r#"{{"type":"result",{t},"status":"success","stats":{{}},"session_id":"s"}}"#),
            true,
        ),
    ] {
        check(&line, is_fast);
    }
}

#[test]
fn real_records_read_alike() {
    let mut read = 0;
    for line in RECORDINGS.iter().flat_map(|r| r.lines()) {
        if fast(line.as_bytes(), false).is_some() {
            read += 1;
            check(line, true);
        } else {
            assert!(!line.starts_with("{\"id\":"), "{line}: a record read whole");
        }
    }
    assert!(
        read > 60,
        "the recordings hold records, metadata, updates: {read}"
    );
}

/// An update of `lastUpdated` alone, known from its bytes when its text needs no escape, reads
/// as the whole parse's update with every character in its text (escaped, quoted, control,
/// non-ASCII: read as JSON) and with the field spelled otherwise.
#[test]
fn a_last_updated_update_reads_alike_whatever_its_text() {
    for c in (0u8..0x80).map(char::from).chain(['é', '\u{2028}', '😀']) {
        let text = serde_json::to_string(&format!("2026-12-02T14:10:43.{c}Z")).unwrap();
        check(&format!(r#"{{"$set":{{"lastUpdated":{text}}}}}"#), true);
    }
    for line in [
        r#"{"$set":{"lastUpdated":""}}"#,
        r#"{"$set":{"lastUpdated":"x","lastUpdated":"y"}}"#,
        r#"{"$set":{"lastUpdated":5}}"#,
        r#"{"$set":{"lastUpdated":"x"} }"#,
        r#"{"$set":{"lastUpdated" :"x"}}"#,
        r#"{"$set":{"lastUpdated":"x\/"}}"#,
        r#"{"$set":{"lastUpdated":"x","summary":"done"}}"#,
    ] {
        check(line, true);
    }
    // Not JSON: left to the whole parse, never read from the bytes.
    assert!(fast(br#"{"$set":{"lastUpdated":"x"}}}"#, false).is_none());
    assert!(fast(b"{\"$set\":{\"lastUpdated\":\"x\xff\"}}", false).is_none());
}
