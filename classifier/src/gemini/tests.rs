//! Data-driven cases: lines in, rows out (`icon|level|summary`, one row a line), through
//! every path that must agree (`crate::testing`).

use crate::msg::TermEnvelope;
use crate::testing::{check, envs, rows};

const INIT: &str =
    r#"{"type":"init","timestamp":"2026-12-02T14:10:19.633Z","session_id":"s1","model":"auto"}"#;
const PROMPT: &str =
    r#"{"type":"message","timestamp":"2026-12-02T14:10:19.634Z","role":"user","content":"hi"}"#;

fn delta(text: &str) -> String {
    format!(
        r#"{{"type":"message","timestamp":"2026-12-02T14:10:19.634Z","role":"assistant","content":{},"delta":true}}"#,
        serde_json::Value::String(text.to_owned())
    )
}

#[test]
fn stream_turn() {
    check(
        &[
            INIT,
            PROMPT,
            &delta("Hel"),
            r#"{"type":"result","timestamp":"2026-12-02T14:10:19.743Z","status":"success","stats":{"duration_ms":72,"input_tokens":5,"output_tokens":2,"cached":0,"total_tokens":7,"tool_calls":0,"models":{"m":{}}}}"#,
        ],
        &[
            "|debug|⚙ gemini session s1 · model auto",
            "◆|info|TURN ← user",
            "|info|",
            "✅|info|turn ok · 72ms",
        ],
    );
    let e = envs(&[
        INIT,
        PROMPT,
        r#"{"type":"result","timestamp":"2026-12-02T14:10:19.743Z","status":"success","stats":{"duration_ms":72,"input_tokens":5,"output_tokens":2,"cached":0,"total_tokens":7,"tool_calls":0,"models":{"m":{}}}}"#,
    ]);
    assert_eq!(
        e[2].msgs[0].body.as_deref(),
        Some("time 72ms\ntokens 5 in · 2 out · 0 cache read · 7 total\ntool calls 0\nmodels m")
    );
}

/// The body and coalesce key of each row of an envelope of answer rows.
fn answer_rows(env: &TermEnvelope) -> Vec<(String, String)> {
    env.msgs
        .iter()
        .map(|m| (m.body.clone().unwrap(), m.coalesce_key.clone().unwrap()))
        .collect()
}

/// Deltas make one row that grows: each row holds the text so far, one key per answer.
#[test]
fn deltas_grow_one_row() {
    let lines = [
        INIT.to_owned(),
        PROMPT.to_owned(),
        delta("Hel"),
        delta("lo"),
        delta(" you"),
    ];
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let e = envs(&lines);
    let bodies: Vec<_> = e[2..].iter().flat_map(answer_rows).collect();
    assert_eq!(
        bodies,
        [
            ("Hel".to_owned(), "gemini-text:1".to_owned()),
            ("Hello".to_owned(), "gemini-text:1".to_owned()),
            ("Hello you".to_owned(), "gemini-text:1".to_owned()),
        ]
    );
}

/// A growing row is sanitized as a whole at every delta, though its clean pieces are scanned
/// once: an escape sequence split over two deltas, a bidirectional control, a C1 control, and
/// clean text after them, in one paragraph and the next (regression: the growing row's text
/// is not scanned again when all its pieces were clean).
#[test]
fn a_growing_row_is_sanitized_whole() {
    let pieces = [
        "clean ",
        "red \u{1b}",
        "[31mtext",
        " more",
        "\n\nnext ",
        "par",
        "\u{202e}bidi",
        " \u{85}c1",
        " end",
    ];
    let mut lines = vec![INIT.to_owned(), PROMPT.to_owned()];
    lines.extend(pieces.iter().map(|p| delta(p)));
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let e = envs(&lines);
    let got: Vec<String> = e[2..]
        .iter()
        .map(|env| env.msgs.last().unwrap().body.clone().unwrap())
        .collect();
    // Each delta's last row: its paragraph so far, sanitized whole.
    let mut text = String::new();
    let want: Vec<String> = pieces
        .iter()
        .map(|p| {
            text.push_str(p);
            let para = text.rsplit("\n\n").next().unwrap().to_owned();
            let mut para = if para.is_empty() { text.clone() } else { para };
            crate::text::sanitize(&mut para);
            para
        })
        .collect();
    assert_eq!(got, want);
    assert!(
        got.iter()
            .all(|b| !b.contains('\u{1b}') && !b.contains('\u{202e}'))
    );
    assert_eq!(got[2], "clean red text");
}

/// A paragraph of the answer is a row: the delta that ends one gives its last state (the same
/// key) and the next one's first (a new key); the last paragraph grows.
#[test]
fn each_paragraph_of_an_answer_is_a_row() {
    let lines = [
        PROMPT.to_owned(),
        delta("One.\n"),
        delta("\nTw"),
        delta("o.\n\n```\na\n\nb\n```\n\nThree"),
    ];
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let e = envs(&lines);
    let rows = |i: usize| answer_rows(&e[i]);
    let row = |body: &str, n: u32| (body.to_owned(), format!("gemini-text:{n}"));
    assert_eq!(rows(1), [row("One.\n", 1)]);
    assert_eq!(rows(2), [row("One.\n", 1), row("Tw", 2)]);
    assert_eq!(
        rows(3),
        [
            row("Two.\n", 2),
            row("```\na\n\nb\n```\n", 3),
            row("Three", 4)
        ]
    );
}

/// Regression (a Gemini stream-json log of long answers was classified at five times the
/// floor, its rows 32 times its size): every delta's row held the whole answer so far. Now a
/// delta's rows hold at most its paragraph.
#[test]
fn a_deltas_rows_hold_its_paragraph_not_the_answer() {
    let mut lines = vec![PROMPT.to_owned()];
    for i in 0..2000 {
        lines.push(delta(&format!("word{i} ")));
        if i % 10 == 9 {
            lines.push(delta("\n\n"));
        }
    }
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let e = envs(&lines);
    let longest = e[1..]
        .iter()
        .flat_map(|e| &e.msgs)
        .map(|m| m.body.as_ref().map_or(0, String::len))
        .max();
    assert!(longest.is_some_and(|n| n < 100), "{longest:?}");
    // The whole answer is there, a paragraph a row.
    let keys: std::collections::BTreeSet<_> = e[1..]
        .iter()
        .flat_map(|e| &e.msgs)
        .filter_map(|m| m.coalesce_key.clone())
        .collect();
    assert_eq!(keys.len(), 200);
}

/// A tool call ends the answer row; the next delta starts a new one. A delta that prints the
/// answer again from its start (a retried stream) is a warning and a new row.
#[test]
fn answer_rows_split_at_tools_and_retries() {
    let tool = r#"{"type":"tool_use","timestamp":"2026-12-02T14:10:40.611Z","tool_name":"run_shell_command","tool_id":"t1","parameters":{"command":"echo ok"}}"#;
    let res = r#"{"type":"tool_result","timestamp":"2026-12-02T14:10:40.644Z","tool_id":"t1","status":"success","output":"ok"}"#;
    let a = delta("This answer broke off wi");
    let lines = [
        PROMPT,
        &delta("One."),
        tool,
        res,
        &a,
        &a,
        &delta("th more."),
    ];
    check(
        &lines,
        &[
            "◆|info|TURN ← user",
            "|info|",
            "🖥\u{fe0f}|info|Bash $ echo ok",
            "←|info|ok",
            "|info|",
            "|warn|⚠ answer restarted (stream retried): printed again from its start",
            "|info|",
            "|info|",
        ],
    );
    let e = envs(&lines);
    let key = |i: usize| e[i].msgs.last().unwrap().coalesce_key.clone().unwrap();
    assert_eq!(
        [key(1), key(4), key(5), key(6)],
        [
            "gemini-text:1",
            "gemini-text:2",
            "gemini-text:3",
            "gemini-text:3"
        ]
    );
    assert_eq!(
        e[6].msgs[0].body.as_deref(),
        Some("This answer broke off with more.")
    );
}

/// An answer longer than a row holds goes on in a new row.
#[test]
fn a_long_answer_is_bounded_per_row() {
    let d: Vec<String> = "wxyz"
        .chars()
        .map(|c| delta(&c.to_string().repeat(5000)))
        .collect();
    let lines = [PROMPT, &d[0], &d[1], &d[2], &d[3]];
    let e = envs(&lines);
    let keys: Vec<_> = e[1..]
        .iter()
        .map(|e| e.msgs[0].coalesce_key.clone().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "gemini-text:1",
            "gemini-text:1",
            "gemini-text:1",
            "gemini-text:2"
        ]
    );
}

#[test]
fn stream_errors_and_failures() {
    check(
        &[
            r#"{"type":"tool_result","timestamp":"t","tool_id":"r1","status":"error","output":"File not found.","error":{"type":"file_not_found","message":"File not found: /x"}}"#,
            r#"{"type":"error","timestamp":"t","severity":"warning","message":"Loop detected"}"#,
            r#"{"type":"error","timestamp":"t","severity":"error","message":"Quota exceeded"}"#,
            r#"{"type":"result","timestamp":"t","status":"error","error":{"type":"unknown","message":"[API Error: {\"error\":{\"code\":400,\"message\":\"Bad request.\",\"status\":\"INVALID_ARGUMENT\"}}]"},"stats":{}}"#,
        ],
        &[
            "✗|error|File not found: /x",
            "|warn|⚠ Loop detected",
            "|error|✗ Quota exceeded",
            "❌|error|turn fail — API error 400: Bad request.",
        ],
    );
}

/// A run that stopped without a `result` (Ctrl+C) shows `⏹` when the next run starts.
#[test]
fn an_unfinished_run_is_interrupted() {
    check(
        &[INIT, PROMPT, &delta("Sentence 1 o"), INIT, PROMPT],
        &[
            "|debug|⚙ gemini session s1 · model auto",
            "◆|info|TURN ← user",
            "|info|",
            "⏹|warn|interrupted by user",
            "|debug|⚙ gemini session s1 · model auto",
            "◆|info|TURN ← user",
        ],
    );
}

/// Every line type with missing or mistyped fields is a row (or, for bookkeeping, none);
/// never a panic, never the unrecognised `!` row for a known type.
#[test]
fn missing_and_mistyped_fields() {
    for line in [
        r#"{"type":"init","timestamp":5}"#,
        r#"{"type":"init","timestamp":"t","session_id":7,"model":null}"#,
        r#"{"type":"message","role":"user"}"#,
        r#"{"type":"message","role":"assistant","content":42}"#,
        r#"{"type":"message","role":7,"content":null}"#,
        r#"{"type":"tool_use","timestamp":"t"}"#,
        r#"{"type":"tool_use","timestamp":"t","tool_name":5,"tool_id":[],"parameters":"ls"}"#,
        r#"{"type":"tool_result","timestamp":"t"}"#,
        r#"{"type":"tool_result","timestamp":"t","tool_id":1,"status":"error","error":"x"}"#,
        r#"{"type":"error","severity":null}"#,
        r#"{"type":"result","status":7,"stats":null}"#,
        r#"{"type":"result","status":"error","stats":{"models":5}}"#,
        r#"{"sessionId":5,"projectHash":null}"#,
        r#"{"$set":7}"#,
        r#"{"$set":{"messages":[5,{"id":1,"type":"gemini","content":null}]}}"#,
        r#"{"$set":{"summary":{"a":1}}}"#,
        r#"{"id":"m","type":"user","content":5}"#,
        r#"{"id":"m","type":"gemini","content":null,"thoughts":"x","toolCalls":{}}"#,
        r#"{"id":"g","type":"gemini","content":"","toolCalls":[5,{"name":3,"args":"x","result":7}]}"#,
        r#"{"id":"g","type":"gemini","thoughts":[5,{"subject":3}],"toolCalls":[{"id":"c","name":"replace","args":null,"status":"error"}]}"#,
        r#"{"id":"w","type":"warning","content":["a",{"text":5}]}"#,
        r#"{"id":"e","type":"error","content":"boom"}"#,
        r#"{"session_id":"s","response":5,"stats":"x"}"#,
        r#"{"session_id":"s","error":"plain"}"#,
    ] {
        for r in rows(&[line]) {
            assert!(!r.starts_with("!|"), "{line}: {r}");
        }
    }
}

const META: &str = r#"{"sessionId":"s1","projectHash":"h","startTime":"2026-12-02T14:11:05.398Z","lastUpdated":"2026-12-02T14:11:05.398Z","kind":"main"}"#;
const CONTEXT: &str = r#"{"$set":{"messages":[{"id":"ctx","timestamp":"2026-12-02T14:11:05.399Z","type":"user","content":[{"text":"<session_context>\nThis is the Gemini CLI.\n</session_context>"}]}],"lastUpdated":"2026-12-02T14:11:05.399Z"}}"#;
const USER: &str = r#"{"id":"u1","timestamp":"2026-12-02T14:11:05.448Z","type":"user","content":[{"text":"How many files?"}]}"#;
const SET: &str = r#"{"$set":{"lastUpdated":"2026-12-02T14:11:05.448Z"}}"#;
const FIRST: &str = r#"{"id":"g1","timestamp":"2026-12-02T14:11:05.550Z","type":"gemini","content":"Listing.","thoughts":[{"subject":"Plan","description":"List them."}],"tokens":{"input":10,"output":2},"model":"m"}"#;
const AGAIN: &str = r#"{"id":"g1","timestamp":"2026-12-02T14:11:05.550Z","type":"gemini","content":"Listing.","thoughts":[{"subject":"Plan","description":"List them."}],"tokens":{"input":10,"output":2},"model":"m","toolCalls":[{"id":"c1","name":"run_shell_command","args":{"command":"ls src"},"result":[{"functionResponse":{"id":"c1","name":"run_shell_command","response":{"output":"<untrusted_context>\nOutput: a.rs\nExit Code: 2\n</untrusted_context>"}}}],"status":"success","resultDisplay":"a.rs"}]}"#;
const RESPONSE: &str = r#"{"id":"u2","timestamp":"2026-12-02T14:11:05.650Z","type":"user","content":[{"functionResponse":{"id":"c1","name":"run_shell_command","response":{"output":"a.rs"}}}]}"#;
const ANSWER: &str = r#"{"id":"g2","timestamp":"2026-12-02T14:11:05.675Z","type":"gemini","content":"One file.","thoughts":[],"tokens":{"input":20,"output":3},"model":"m"}"#;

/// A recording: the context message is not the prompt; a message written again shows only its
/// new tool call; the answer's turn ends when the next prompt shows it.
#[test]
fn recording_shows_each_message_once() {
    check(
        &[
            META,
            CONTEXT,
            USER,
            SET,
            FIRST,
            SET,
            AGAIN,
            RESPONSE,
            SET,
            ANSWER,
            SET,
            USER.replace("u1", "u3").as_str(),
        ],
        &[
            "|debug|⚙ gemini session s1 · main",
            "|debug|⚙ session context",
            "◆|info|TURN ← user",
            "💭|debug|Plan — List them.",
            "|info|",
            "🖥\u{fe0f}|info|Bash $ ls src",
            "✗|error|2l · a.rs…",
            "|info|",
            "✅|info|turn ok",
            "◆|info|TURN ← user",
        ],
    );
}

/// A message rewritten with a new text right after replaces its text row (same key); a
/// resumed run's metadata ends the open turn; `$set.messages` repeats nothing already shown.
#[test]
fn recording_rewrites_and_resumes() {
    let changed = FIRST.replace("Listing.", "Listing the files.");
    let e = envs(&[META, USER, FIRST, SET, &changed, META, CONTEXT]);
    let key = |i: usize| e[i].msgs.last().and_then(|m| m.coalesce_key.clone());
    assert_eq!(key(2), key(4));
    assert_eq!(e[4].msgs.len(), 1, "{:?}", e[4]);
    assert_eq!(e[5].msgs[0].summary, "turn ok");
    assert_eq!(e[5].msgs[1].summary, "⚙ gemini session s1 resumed");
    assert!(e[6].msgs.is_empty());
}

/// A turn left with no answer (a run cut) is interrupted when the next run shows it; a
/// subagent's summary ends its turn.
#[test]
fn recording_turn_ends() {
    check(
        &[META, USER, META],
        &[
            "|debug|⚙ gemini session s1 · main",
            "◆|info|TURN ← user",
            "⏹|warn|interrupted by user",
            "|debug|⚙ gemini session s1 resumed",
        ],
    );
    check(
        &[
            USER,
            FIRST,
            r#"{"$set":{"summary":"{\n  \"response\": \"REPORT: done.\"\n}"}}"#,
        ],
        &[
            "◆|info|TURN ← user",
            "💭|debug|Plan — List them.",
            "|info|",
            "|info|⚙ result · REPORT: done.",
            "✅|info|turn ok",
        ],
    );
}

/// Issue 45: a recording writes no turn end. Its last turn ends with the file as the next
/// prompt would end it: ok after an answer (a model message with no call) whatever follows
/// it (`$set` lines); failed when the CLI took the prompt back from the history (a fatal API
/// error: the real `api_fatal_400` recording) or recorded an error; a turn cut (a prompt
/// with nothing after it, a call not answered) stays open: nothing says how it ended.
#[test]
fn issue_45_a_recordings_last_turn_ends_with_the_file() {
    let start = ["|debug|⚙ gemini session s1 · main", "◆|info|TURN ← user"];
    let with = |rest: &[&'static str]| [&start[..], rest].concat();
    let error = r#"{"id":"e1","timestamp":"2026-12-02T14:11:05.700Z","type":"error","content":"[API Error: {\"error\":{\"code\":400,\"message\":\"Bad.\"}}]"}"#;
    let api_error = ANSWER.replace("One file.", "[API Error: quota]");
    let cases: &[(&[&str], Vec<&str>)] = &[
        (
            &[META, USER, ANSWER, SET],
            with(&["|info|", "✅|info|turn ok"]),
        ),
        (
            &[META, USER, FIRST, SET, AGAIN, RESPONSE, SET, ANSWER, SET],
            with(&[
                "💭|debug|Plan — List them.",
                "|info|",
                "🖥\u{fe0f}|info|Bash $ ls src",
                "✗|error|2l · a.rs…",
                "|info|",
                "✅|info|turn ok",
            ]),
        ),
        (
            &[META, USER, SET, CONTEXT],
            with(&[
                "❌|error|turn fail — the request failed (its prompt was taken back from the history)",
            ]),
        ),
        (
            &[META, USER, SET, error],
            with(&[
                "|error|✗ [API Error: {\"error\":{\"code\":400,\"message\":\"Bad.\"}}]",
                "❌|error|turn fail — API error 400: Bad.",
            ]),
        ),
        (
            &[META, USER, &api_error, SET],
            with(&["|info|", "❌|error|turn fail — [API Error: quota]"]),
        ),
        (&[META, USER, SET], with(&[])),
        (
            &[META, USER, FIRST, SET, AGAIN],
            with(&[
                "💭|debug|Plan — List them.",
                "|info|",
                "🖥\u{fe0f}|info|Bash $ ls src",
                "✗|error|2l · a.rs…",
            ]),
        ),
    ];
    for (lines, want) in cases {
        check(lines, want);
    }
}

/// The `-o json` document, pretty over many lines, split at every line: the lines before the
/// last are one open document (a debug row with one key), the last gives the run's rows. The
/// compact one-line form gives the same rows.
#[test]
fn a_json_document_over_many_lines() {
    let doc = serde_json::json!({
        "session_id": "s9",
        "response": "Hello **there**",
        "stats": {"models": {"m": {"api": {"totalLatencyMs": 15}, "tokens": {"prompt": 8, "candidates": 2, "cached": 1, "thoughts": 3}}},
                  "tools": {"totalCalls": 0, "totalFail": 0}, "files": {"totalLinesAdded": 0, "totalLinesRemoved": 0}}
    });
    let pretty = serde_json::to_string_pretty(&doc).unwrap();
    let lines: Vec<&str> = pretty.lines().collect();
    let e = envs(&lines);
    assert_eq!(e.len(), lines.len());
    let run = [
        "|debug|⚙ gemini session s9 · json output",
        "◆|info|TURN ← user",
        "|info|",
        "✅|info|turn ok",
    ];
    for (i, env) in e.iter().enumerate().take(lines.len() - 1) {
        assert_eq!(env.msgs.len(), 1);
        assert_eq!(
            env.msgs[0].summary,
            format!(
                "⚙ JSON document · {} so far",
                if i == 0 {
                    "1 line".to_owned()
                } else {
                    format!("{} lines", i + 1)
                }
            )
        );
        assert_eq!(env.msgs[0].coalesce_key.as_deref(), Some("json-doc"));
    }
    let last: Vec<String> = e[lines.len() - 1]
        .msgs
        .iter()
        .skip(1)
        .map(|m| {
            format!(
                "{}|{}|{}",
                m.icon.clone().unwrap_or_default(),
                m.level.as_str(),
                m.summary
            )
        })
        .collect();
    assert_eq!(last, run);
    let compact = doc.to_string();
    check(&[&compact], &run);
    let end = e[lines.len() - 1]
        .msgs
        .last()
        .unwrap()
        .body
        .clone()
        .unwrap();
    assert_eq!(
        end,
        "API time 15ms\ntokens 8 in · 2 out · 1 cache read · 3 thoughts\ntool calls 0 (0 failed)\nmodels m"
    );
    // The fatal error document.
    check(
        &[
            "{",
            r#"  "session_id": "s","#,
            r#"  "error": {"type": "Error", "message": "{\"error\":{\"code\":400,\"message\":\"Bad.\"}}", "code": 400}"#,
            "}",
        ],
        &[
            "|debug|⚙ JSON document · 1 line so far",
            "|debug|⚙ JSON document · 2 lines so far",
            "|debug|⚙ JSON document · 3 lines so far",
            "|debug|⚙ JSON document · 4 lines",
            "|debug|⚙ gemini session s · json output",
            "◆|info|TURN ← user",
            "❌|error|turn fail — API error 400: Bad.",
        ],
    );
}

/// Every fixture line is Gemini's: no `!` row anywhere.
#[test]
fn real_lines_are_gemini() {
    for log in [
        include_str!("../../../fixtures/gemini-0.61.0/gemini.failing_command.stream.jsonl"),
        include_str!("../../../fixtures/gemini-0.61.0/gemini.failing_command.session.jsonl"),
        include_str!("../../../fixtures/gemini-0.61.0/gemini.subagent.session.jsonl"),
    ] {
        let lines: Vec<&str> = log.lines().collect();
        let got = rows(&lines);
        assert!(got.iter().all(|r| !r.starts_with("!|")), "{got:#?}");
    }
}

/// What the page reads back: every stream-json `tool_use` is exactly one tool-call row naming
/// the built-in it maps to (or its own name), every `result` one turn end, every prompt one
/// turn start; in a recording each tool call is one tool-call row, however often its message
/// is written.
#[test]
fn rows_read_back_as_what_made_them() {
    use crate::kind::{RowKind, row_kind, tool_of};
    let mapped = |n: &str| {
        match n {
            "run_shell_command" => "Bash",
            "read_file" => "Read",
            "write_file" => "Write",
            "replace" => "Edit",
            "glob" | "list_directory" => "Glob",
            "grep_search" => "Grep",
            "invoke_agent" => "Task",
            other => other,
        }
        .to_owned()
    };
    let streams = [
        include_str!("../../../fixtures/gemini-0.61.0/gemini.failing_command.stream.jsonl"),
        include_str!("../../../fixtures/gemini-0.61.0/gemini.file_read.stream.jsonl"),
        include_str!("../../../fixtures/gemini-0.61.0/gemini.file_edit.stream.jsonl"),
        include_str!("../../../fixtures/gemini-0.61.0/gemini.subagent.stream.jsonl"),
        include_str!("../../../fixtures/gemini-0.61.0/gemini.api_fatal_400.stream.jsonl"),
    ];
    for log in streams {
        let lines: Vec<&str> = log.lines().collect();
        for (line, env) in lines.iter().zip(envs(&lines)) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let got: Vec<(RowKind, Option<String>)> = env
                .msgs
                .iter()
                .map(|m| (row_kind(m), tool_of(m).map(str::to_owned)))
                .filter(|(k, _)| !matches!(k, RowKind::Other | RowKind::ToolResult))
                .collect();
            let want = match (v["type"].as_str(), v["role"].as_str()) {
                (Some("tool_use"), _) => {
                    vec![(
                        RowKind::ToolCall,
                        Some(mapped(v["tool_name"].as_str().unwrap())),
                    )]
                }
                (Some("message"), Some("user")) => vec![(RowKind::TurnStart, None)],
                (Some("result"), _) if v["status"] == "success" => vec![(RowKind::TurnOk, None)],
                (Some("result"), _) => vec![(RowKind::TurnFail, None)],
                _ => vec![],
            };
            assert_eq!(got, want, "{line}");
        }
    }
    let rec = include_str!("../../../fixtures/gemini-0.61.0/gemini.failing_command.session.jsonl");
    let lines: Vec<&str> = rec.lines().collect();
    let calls: Vec<String> = envs(&lines)
        .iter()
        .flat_map(|e| e.msgs.iter().filter_map(|m| tool_of(m).map(str::to_owned)))
        .collect();
    assert_eq!(calls, ["Bash", "Read", "Edit", "Edit", "no_such_tool"]);
}

/// Issue 45: a subagent's call is named as Claude Code's are — its task (the prompt's first
/// line) and its agent, the prompt as its body — not its raw arguments, in a recording and in
/// stream-json alike; the page's block reads both from it.
#[test]
fn issue_45_a_subagent_call_names_its_agent_and_task() {
    let record = r#"{"id":"g9","timestamp":"2026-12-02T14:11:07.812Z","type":"gemini","content":"","toolCalls":[{"id":"c9","name":"invoke_agent","args":{"agent_name":"generalist","prompt":"Survey the repo.\nReport briefly."},"status":"success","result":[]}]}"#;
    let stream = r#"{"type":"tool_use","timestamp":"2026-12-02T14:11:07.812Z","tool_name":"invoke_agent","tool_id":"c9","parameters":{"agent_name":"generalist","prompt":"Survey the repo.\nReport briefly."}}"#;
    for line in [record, stream] {
        let env = envs(&[line]);
        let call = env[0]
            .msgs
            .iter()
            .find(|m| m.icon.as_deref() == Some("🤖"))
            .unwrap_or_else(|| panic!("{line}: {env:?}"));
        assert_eq!(
            call.summary, "Task Survey the repo. Report briefly. [generalist]",
            "{line}"
        );
        assert_eq!(
            call.body.as_deref(),
            Some("Survey the repo.\nReport briefly.")
        );
        assert_eq!(crate::kind::row_kind(call), crate::kind::RowKind::ToolCall);
    }
}
