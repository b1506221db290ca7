//! Data-driven cases: lines in, rows out (`level [icon] summary`), each line classified both
//! by the whole parse and by [`crate::LogClassifier`]'s lean one, which must agree.

use crate::ctx::ClassifyCtx;
use crate::event::parse_line;
use crate::{LogClassifier, TermEnvelope, TermMsg};

fn render(m: &TermMsg) -> String {
    format!(
        "{} [{}] {}",
        m.level.as_str(),
        m.icon.as_deref().unwrap_or(""),
        m.summary
    )
}

/// The rows of `lines` (one log), after checking both parses agree.
fn rows_of(lines: &[&str]) -> Vec<TermMsg> {
    let mut ctx = ClassifyCtx::default();
    let mut whole = Vec::new();
    for line in lines {
        whole.extend(crate::classify_log_event(&parse_line(line.as_bytes()), &mut ctx).msgs);
    }
    let mut log = LogClassifier::new();
    let mut lean: Vec<TermEnvelope> = Vec::new();
    log.feed(lines.join("\n").as_bytes(), |e| lean.push(e));
    log.finish(|e| lean.push(e));
    assert_eq!(lean.len(), lines.len(), "one envelope per line");
    let lean: Vec<TermMsg> = lean.into_iter().flat_map(|e| e.msgs).collect();
    assert_eq!(whole, lean, "lean and whole parse differ for {lines:?}");
    whole
}

#[track_caller]
fn check(lines: &[&str], expect: &[&str]) {
    let got: Vec<String> = rows_of(lines).iter().map(render).collect();
    assert_eq!(got, expect, "{lines:?}");
}

#[test]
fn exec_events() {
    check(
        &[
            r#"{"type":"thread.started","thread_id":"t1"}"#,
            r#"{"type":"turn.started"}"#,
            r#"{"type":"item.started","item":{"id":"item_0","type":"command_execution","command":"/bin/bash -lc 'echo ok'","aggregated_output":"","exit_code":null,"status":"in_progress"}}"#,
            r#"{"type":"item.completed","item":{"id":"item_0","type":"command_execution","command":"/bin/bash -lc 'echo ok'","aggregated_output":"ok\n","exit_code":0,"status":"completed"}}"#,
            r#"{"type":"turn.completed","usage":{"input_tokens":10,"output_tokens":2}}"#,
        ],
        &[
            "debug [] ⚙ codex thread t1",
            "info [◆] TURN ← user",
            "info [🖥\u{fe0f}] Bash $ echo ok",
            "info [←] ok",
            "info [✅] turn ok",
        ],
    );
    // Completed without a start seen (a stream read from its middle): call and result.
    check(
        &[
            r#"{"type":"item.completed","item":{"id":"item_0","type":"command_execution","command":"/bin/bash -lc \"printf 'a\\\\n'; exit 3\"","aggregated_output":"","exit_code":3,"status":"failed"}}"#,
        ],
        &[
            "info [🖥\u{fe0f}] Bash $ printf 'a\\n'; exit 3",
            "error [✗] exit 3 · failed",
        ],
    );
    check(
        &[
            r#"{"type":"error","message":"Reconnecting... 1/5 (stream disconnected)"}"#,
            r#"{"type":"error","message":"{\"error\": {\"message\": \"bad input\"}}"}"#,
            r#"{"type":"turn.failed","error":{"message":"{\"error\": {\"message\": \"bad input\"}}"}}"#,
        ],
        &[
            "warn [] ⚠ api retry · 1/5 · stream disconnected",
            "error [] ✗ api error · bad input",
            "error [❌] turn fail — bad input",
        ],
    );
}

#[test]
fn exec_items_of_every_kind() {
    check(
        &[
            r#"{"type":"item.started","item":{"id":"a","type":"mcp_tool_call","server":"gh","tool":"get_issue","arguments":{"n":1},"status":"in_progress"}}"#,
            r#"{"type":"item.completed","item":{"id":"a","type":"mcp_tool_call","server":"gh","tool":"get_issue","arguments":{"n":1},"result":{"content":[{"type":"text","text":"open"}]},"status":"completed"}}"#,
            r#"{"type":"item.completed","item":{"id":"b","type":"web_search","query":"rust zstd"}}"#,
            r#"{"type":"item.updated","item":{"id":"c","type":"todo_list","items":[{"text":"one","completed":true},{"text":"two","completed":false}]}}"#,
            r#"{"type":"item.completed","item":{"id":"d","type":"error","message":"model fell back"}}"#,
            r#"{"type":"item.completed","item":{"id":"e","type":"hologram","text":"new kind"}}"#,
            r#"{"type":"item.completed","item":{"id":"f","type":"file_change","changes":[{"path":"/a.rs","kind":"add"}],"status":"failed"}}"#,
        ],
        &[
            "info [🔧] gh:get_issue n: 1",
            "info [←] open",
            "info [🔎] WebSearch \"rust zstd\"",
            "info [] plan · 1/2 done",
            "warn [] ⚠ model fell back",
            "info [] ⚙ hologram item · new kind",
            "info [✏\u{fe0f}] apply_patch +/a.rs",
            "error [✗] patch failed",
        ],
    );
}

#[test]
fn malformed_lines_become_rows() {
    check(
        &[
            r#"{"type":"item.completed"}"#,
            r#"{"type":"item.started","item":"x"}"#,
            r#"{"type":"item.completed","item":{}}"#,
            r#"{"type":"item.completed","item":{"type":"command_execution","command":7,"exit_code":"x"}}"#,
            r#"{"type":"turn.failed","error":5}"#,
            r#"{"type":"turn.completed","usage":"lots"}"#,
            r#"{"type":"thread.frozen"}"#,
        ],
        &[
            "warn [] item.completed line: no item",
            "warn [] item.started line: no item",
            "info [] ⚙ ? item",
            "info [🖥\u{fe0f}] Bash()",
            "info [←] (no output)",
            "error [❌] turn fail",
            "info [✅] turn ok",
            "warn [!] {\"type\":\"thread.frozen\"}",
        ],
    );
    let ts = r#""timestamp":"2026-12-02T14:10:17.301Z""#;
    let lines: Vec<String> = [
        r#""type":"response_item","payload":{}"#,
        r#""type":"response_item","payload":{"type":"function_call","arguments":"not json"}"#,
        r#""type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":5}"#,
        r#""type":"response_item","payload":{"type":"message","role":"user","content":"hi"}"#,
        r#""type":"event_msg","payload":{"type":"task_complete","error":"boom"}"#,
        r#""type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"exec-1","command":"oops"}}"#,
        r#""type":"event_msg","payload":{"type":"turn_aborted","reason":7}"#,
        r#""type":"session_meta","payload":{"cli_version":1}"#,
        r#""type":"mystery","payload":{}"#,
    ]
    .iter()
    .map(|l| format!("{{{ts},{l}}}"))
    .collect();
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let got: Vec<String> = rows_of(&lines).iter().map(render).collect();
    assert_eq!(
        got,
        [
            "info [] ⚙ ? item",
            "info [🔧] ?",
            "info [✏\u{fe0f}] apply_patch · -0 +0",
            "info [◆] TURN ← user",
            "error [❌] turn fail — boom",
            "info [🖥\u{fe0f}] Bash $ oops",
            "info [←] (no output)",
            "warn [⏹] interrupted by user",
            "debug [] ⚙ codex ?",
            r#"warn [!] {"timestamp":"2026-12-02T14:10:17.301Z","type":"mystery","payload":{}}"#,
        ],
        "{lines:?}"
    );
}

#[test]
fn rollout_turns_and_mirrors() {
    let lines = [
        r#"{"timestamp":"2026-12-02T14:10:17.301Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t"}}"#,
        r#"{"timestamp":"2026-12-02T14:10:17.302Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n</environment_context>"}]}}"#,
        r#"{"timestamp":"2026-12-02T14:10:17.303Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"List files"}]}}"#,
        r#"{"timestamp":"2026-12-02T14:10:17.304Z","type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage","id":"u","content":[{"type":"text","text":"List files"}]}}}"#,
        r#"{"timestamp":"2026-12-02T14:10:17.305Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\": \"ls\"}","call_id":"c1"}}"#,
        r#"{"timestamp":"2026-12-02T14:10:17.306Z","type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"c1","command":["/bin/bash","-lc","ls"],"aggregated_output":"a\n","exit_code":0,"status":"completed"}}}"#,
        r#"{"timestamp":"2026-12-02T14:10:17.307Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"Chunk ID: 1\nWall time: 0 seconds\nProcess exited with code 2\nOutput:\nnope\n"}}"#,
        r#"{"timestamp":"2026-12-02T14:10:17.308Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\": \"sleep 9\"}","call_id":"c2"}}"#,
        r#"{"timestamp":"2026-12-02T14:10:17.309Z","type":"event_msg","payload":{"type":"turn_aborted","reason":"interrupted","duration_ms":1500}}"#,
    ];
    let rows = rows_of(&lines);
    let got: Vec<String> = rows.iter().map(render).collect();
    assert_eq!(
        got,
        [
            "debug [] ⚙ environment context",
            "info [◆] TURN ← user",
            "info [🖥\u{fe0f}] Bash $ ls",
            "error [✗] exit 2 · nope",
            "info [🖥\u{fe0f}] Bash $ sleep 9",
            "warn [⏹] interrupted by user",
        ]
    );
    assert_eq!(
        rows[5].body.as_deref(),
        Some("in flight: Bash $ sleep 9\ntime 1.5s")
    );
    // A turn whose first row is not a prompt opens with a bodiless start.
    check(
        &[
            r#"{"timestamp":"2026-12-02T14:10:17.301Z","type":"event_msg","payload":{"type":"task_started"}}"#,
            r#"{"timestamp":"2026-12-02T14:10:17.302Z","type":"event_msg","payload":{"type":"task_complete","duration_ms":250}}"#,
        ],
        &["info [◆] TURN ← user", "info [✅] turn ok · 250ms"],
    );
}

#[test]
fn commands_are_unwrapped_as_typed() {
    use super::shell::{unwrap_argv, unwrap_command};
    for (wrapped, typed) in [
        ("/bin/bash -lc 'echo ok'", "echo ok"),
        (
            r#"/bin/bash -lc "grep -n -A3 '#\\[test\\]' src/lib.rs""#,
            r"grep -n -A3 '#\[test\]' src/lib.rs",
        ),
        (r#"bash -c "echo \"hi\" \$HOME""#, r#"echo "hi" $HOME"#),
        ("sh -c 'it'\\''s'", "it's"),
        ("/bin/zsh -l -c 'ls'", "ls"),
        ("ls -la", "ls -la"),
        ("/bin/bash -lc 'unterminated", "/bin/bash -lc 'unterminated"),
        ("/bin/bash -lc a b", "/bin/bash -lc a b"),
    ] {
        assert_eq!(unwrap_command(wrapped), typed, "{wrapped}");
    }
    let argv = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(unwrap_argv(&argv(&["bash", "-lc", "a && b"])), "a && b");
    assert_eq!(
        unwrap_argv(&argv(&["rg", "-n", "two words", "it's"])),
        r"rg -n 'two words' 'it'\''s'"
    );
}

/// The split as it was written first, a character at a time: the reference
/// [`super::shell::split_words`] is held to.
fn split_words_by_chars(s: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => word.push(c),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            c @ ('$' | '`' | '"' | '\\') => word.push(c),
                            '\n' => {}
                            c => {
                                word.push('\\');
                                word.push(c);
                            }
                        },
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next()? {
                    '\n' => {}
                    c => word.push(c),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Some(words)
}

/// The byte-wise split is the character-wise one on every string of up to five pieces from
/// the shell's own bytes, plain text and a multi-byte character; with a limit of words, it is
/// `None` exactly when the whole split has more.
#[test]
fn split_words_is_the_character_split() {
    use super::shell::split_words;
    let pieces = [
        " ", "\t", "\n", "'", "\"", "\\", "$", "`", "a", "bc", "é", "\r", "-lc",
    ];
    let mut texts = vec![String::new()];
    for _ in 0..5 {
        let mut next = Vec::new();
        for t in &texts {
            for p in pieces {
                next.push(format!("{t}{p}"));
            }
        }
        texts.extend(next);
        texts.sort();
        texts.dedup();
    }
    assert!(texts.len() > 300_000, "{}", texts.len());
    for t in &texts {
        let want = split_words_by_chars(t);
        assert_eq!(split_words(t, usize::MAX), want, "{t:?}");
        for max in 0..4 {
            let capped = want.clone().filter(|w| w.len() <= max);
            assert_eq!(split_words(t, max), capped, "{t:?} at most {max}");
        }
    }
}

#[test]
fn summary_tokens_are_the_logs_own_totals() {
    let summary = |log: &[u8]| {
        let mut c = LogClassifier::new().with_summary();
        c.feed(log, |_| {});
        c.finish(|_| {});
        c.summary().expect("a summary")
    };
    // Three runs of one thread: each `turn.completed` is the thread's running total, so the
    // log's tokens are the last one's, not their sum.
    let streams = [
        &include_bytes!("../../../fixtures/codex-0.171.0/codex_resume_1_first.stream.jsonl")[..],
        include_bytes!("../../../fixtures/codex-0.171.0/codex_resume_2_by_id.stream.jsonl"),
        include_bytes!("../../../fixtures/codex-0.171.0/codex_resume_3_last.stream.jsonl"),
    ]
    .concat();
    let s = summary(&streams);
    assert_eq!(s.agent.as_deref(), Some("codex"));
    assert_eq!((s.input_tokens, s.output_tokens), (28528, 72));
    assert_eq!((s.turns, s.turns_ok), (3, 3));
    assert_eq!(s.cost_usd, None);
    // The rollout of the same thread says the same.
    let s = summary(include_bytes!(
        "../../../fixtures/codex-0.171.0/codex_resume_1_first.session.jsonl"
    ));
    assert_eq!((s.input_tokens, s.output_tokens), (28528, 72));
    assert_eq!(s.cache_read_tokens, 14208);
    assert_eq!(s.agent_version.as_deref(), Some("0.171.0"));
    assert_eq!(s.models, ["gpt-5.5"]);
    assert_eq!((s.turns, s.turns_ok), (3, 3));
    assert_eq!(s.tool_calls.get("Bash"), Some(&1));
    // Patches: calls by the name the rows give, files as the log names them.
    let s = summary(include_bytes!(
        "../../../fixtures/codex-0.171.0/codex_failing_command.session.jsonl"
    ));
    assert_eq!(s.tool_calls.get("apply_patch"), Some(&2));
    assert_eq!(s.tool_errors, 4);
    assert_eq!(s.lines_not_understood, 0);
}
