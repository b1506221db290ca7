//! The summary fold (issue 10): hand-checked summaries of real fixtures, and the fold in
//! pieces (checkpointed through serde at every split point) equal to the fold of the whole.

use std::collections::BTreeMap;

use classifier::event::line_event;
use classifier::{
    ClassifyCtx, CostSource, LineReader, LiveEvent, LogClassifier, Summary, SummaryFold,
    TermEnvelope, classify_log_event_at,
};

fn fixture(rel: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every line's event and envelope, as `LogClassifier` makes them.
fn steps(log: &[u8]) -> Vec<(LiveEvent, TermEnvelope)> {
    let mut reader = LineReader::new();
    let mut ctx = ClassifyCtx::new();
    let mut out = Vec::new();
    let mut step = |line: classifier::Line| {
        let ev = line_event(&line);
        let env = classify_log_event_at(&ev, &mut ctx, line.number);
        out.push((ev.event, env));
    };
    reader.push(log, &mut step);
    reader.finish(&mut step);
    out
}

fn summarize(rel: &str) -> Summary {
    let mut log = LogClassifier::new().with_summary();
    let bytes = fixture(rel);
    for chunk in bytes.chunks(4093) {
        log.feed(chunk, |_| {});
    }
    log.finish(|_| {});
    log.summary().expect("made with_summary")
}

/// `s` without its tokens by model (issue 50, `tests/prices.rs` checks them).
fn by_model_out(mut s: Summary) -> Summary {
    s.tokens_by_model.clear();
    s
}

fn tools(calls: &[(&str, u64)]) -> BTreeMap<String, u64> {
    calls.iter().map(|(t, n)| ((*t).to_owned(), *n)).collect()
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

/// Checked by hand against the file: two `init`/`result` runs (the second a background task's
/// notification), the main agent's Agent call and the subagent's forwarded Read and Bash,
/// tokens the sum of the two results' usage (577+349 in, 92+17 out), cost the largest
/// (both results say 0.012368: cumulative, not 0.024736).
#[test]
fn subagent_stream() {
    assert_eq!(
        by_model_out(summarize("claude-code-2.1.332/subagent.stream.jsonl")),
        Summary {
            agent: Some("claude-code".to_owned()),
            agent_version: Some("2.1.332".to_owned()),
            turns: 2,
            turns_ok: 2,
            tool_calls: tools(&[("Agent", 1), ("Bash", 1), ("Read", 1)]),
            started_at: Some(1_796_004_934.614),
            ended_at: Some(1_796_004_935.113),
            duration_s: Some(0.499),
            cost_usd: Some(0.012368),
            cost_source: Some(CostSource::Stated),
            input_tokens: 926,
            output_tokens: 109,
            models: strings(&["claude-opus-5-5"]),
            subagents: 1,
            // The forwarded Read and Bash, under the Agent call's envelope (#3), from the
            // first forwarded line to the last.
            by_subagent: vec![classifier::SubagentSummary {
                parent: 3,
                agent_type: Some("general-purpose".to_owned()),
                description: Some("Survey the repo".to_owned()),
                tool_calls: 2,
                tool_errors: 0,
                errors: 0,
                started_at: Some(1_796_004_934.752),
                ended_at: Some(1_796_004_934.978),
                duration_s: Some(0.226),
                // Its `task_notification` says `completed` (its call's result is an async
                // launch's, which says nothing of its end).
                ended: Some(classifier::SubagentEnd::Ok),
                call_id: Some("toolu_01RxUClraJSgxjOUuPo9lzyZxp".to_owned()),
            }],
            ..Summary::default()
        }
    );
}

/// A transcript: one prompt, its turn ended by the final `end_turn` answer; 16 tool calls; one
/// failed tool result (the only error row, line 57); no result line, so tokens from the
/// assistant messages' usage, each message once, and the cost its last `cost-state` line
/// states (issue 45.3: it was `null`, "unknown").
#[test]
fn file_tools_transcript() {
    assert_eq!(
        by_model_out(summarize("claude-code-2.1.332/file_tools.transcript.jsonl")),
        Summary {
            agent: Some("claude-code".to_owned()),
            agent_version: Some("2.1.332".to_owned()),
            turns: 1,
            turns_ok: 1,
            tool_calls: tools(&[
                ("Bash", 3),
                ("Edit", 1),
                ("Glob", 1),
                ("Grep", 3),
                ("Read", 4),
                ("TaskCreate", 1),
                ("TaskUpdate", 2),
                ("Write", 1),
            ]),
            tool_errors: 1,
            errors: 1,
            first_error_seq: Some(57),
            started_at: Some(1_796_004_921.804),
            ended_at: Some(1_796_004_923.178),
            duration_s: Some(1.374),
            input_tokens: 3866,
            output_tokens: 800,
            cost_usd: Some(0.031464),
            cost_source: Some(CostSource::Stated),
            models: strings(&["claude-opus-5-5"]),
            files_changed: strings(&[
                "/home/dev/work/file_tools/src/lib.rs",
                "/home/dev/work/file_tools/docs/CHANGELOG.md",
            ]),
            ..Summary::default()
        }
    );
}

/// A hyperhive log around a run that hit an API 400: the harness's one turn, failed; the
/// stream's init/result add no turn; errors: the API error message row (line 7) and the
/// failed turn; one warning (the harness's stderr note); cost 0 from the result.
#[test]
fn hyperhive_api_fatal_400() {
    assert_eq!(
        by_model_out(summarize("hyperhive/api_fatal_400.events.jsonl")),
        Summary {
            agent: Some("hyperhive".to_owned()),
            agent_version: Some("2.1.332".to_owned()),
            turns: 1,
            turns_failed: 1,
            errors: 2,
            warnings: 1,
            first_error_seq: Some(7),
            started_at: Some(1_796_004_903.959),
            ended_at: Some(1_796_004_906.509),
            duration_s: Some(2.55),
            cost_usd: Some(0.0),
            cost_source: Some(CostSource::Stated),
            models: strings(&["claude-opus-5-5"]),
            ..Summary::default()
        }
    );
}

/// Nine failed tool calls out of twelve, each an error row (the first at line 4); the turn
/// still ended ok; two files changed (an Edit that failed still names its file).
#[test]
fn tool_errors_stream() {
    assert_eq!(
        by_model_out(summarize("claude-code-2.1.332/tool_errors.stream.jsonl")),
        Summary {
            agent: Some("claude-code".to_owned()),
            agent_version: Some("2.1.332".to_owned()),
            turns: 1,
            turns_ok: 1,
            tool_calls: tools(&[
                ("Bash", 2),
                ("Edit", 3),
                ("Read", 4),
                ("TodoWrite", 1),
                ("WebFetch", 1),
                ("Write", 1),
            ]),
            tool_errors: 9,
            errors: 9,
            first_error_seq: Some(4),
            started_at: Some(1_796_004_937.565),
            ended_at: Some(1_796_004_938.473),
            duration_s: Some(0.908),
            cost_usd: Some(0.021136),
            cost_source: Some(CostSource::Stated),
            input_tokens: 2374,
            output_tokens: 582,
            models: strings(&["claude-opus-5-5"]),
            files_changed: strings(&[
                "/home/dev/work/tool_errors/src/main.rs",
                "/home/dev/work/tool_errors/README.md",
            ]),
            ..Summary::default()
        }
    );
}

/// Retries are warnings in a transcript as in stream-json: three, no error.
#[test]
fn api_retry_transcript() {
    let s = summarize("claude-code-2.1.332/api_retry.transcript.jsonl");
    assert_eq!(
        (s.turns, s.turns_ok, s.errors, s.warnings, s.first_error_seq),
        (1, 1, 0, 3, None)
    );
    assert_eq!((s.input_tokens, s.output_tokens), (835, 62));
}

/// Issue 45.3: every Claude Code 2.1.332 transcript ends with a `cost-state` line stating the
/// session's running cost (cumulative over resumed runs: `resume_1_first`'s five lines grow
/// 0.001376 → 0.012276, the totals its five runs' stream `result`s state), and the summary
/// said "unknown". The transcript's cost is its last total; a stream and a transcript of the
/// same run folded together count it once; a transcript's subagent file states none.
#[test]
fn issue_45_a_transcripts_cost_state_is_its_cost_counted_once() {
    for (rel, want) in [
        (
            "claude-code-2.1.332/file_tools.transcript.jsonl",
            Some(0.031464),
        ),
        (
            "claude-code-2.1.332/api_retry.transcript.jsonl",
            Some(0.00458),
        ),
        (
            "claude-code-2.1.332/api_fatal_400.transcript.jsonl",
            Some(0.0),
        ),
        (
            "claude-code-2.1.332/resume_1_first.transcript.jsonl",
            Some(0.012276000000000002),
        ),
        (
            "claude-code-2.1.332/resume_5_after_compact.stream.jsonl",
            Some(0.012276000000000002),
        ),
        (
            "claude-code-2.1.332/subagent.transcript.jsonl",
            Some(0.012368),
        ),
        (
            "claude-code-2.1.332/subagent.subagent-agent-ae89bd37fdd96fc64.transcript.jsonl",
            None,
        ),
    ] {
        // (A subagent's own transcript states none: its cost is an estimate, issue 50.)
        let s = summarize(rel);
        let stated = s
            .cost_usd
            .filter(|_| s.cost_source == Some(CostSource::Stated));
        assert_eq!(stated, want, "{rel}");
    }
    // The stream and the transcript of the same run, one after the other: the cost once.
    let mut both = fixture("claude-code-2.1.332/file_tools.stream.jsonl");
    both.extend(fixture("claude-code-2.1.332/file_tools.transcript.jsonl"));
    let mut log = LogClassifier::new().with_summary();
    log.feed(&both, |_| {});
    log.finish(|_| {});
    assert_eq!(log.summary().unwrap().cost_usd, Some(0.031464));
}

/// Folding the first k lines, checkpointing the fold through JSON, then folding the rest,
/// equals folding the whole log — at every k, for every fixture.
#[test]
fn incremental_fold_equals_the_whole_at_every_split() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut files = Vec::new();
    for sub in ["claude-code-2.1.332", "hyperhive"] {
        for e in std::fs::read_dir(dir.join(sub)).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                continue; // a session's subagents' files (copies of listed fixtures)
            }
            files.push(format!("{sub}/{}", e.file_name().to_string_lossy()));
        }
    }
    files.sort();
    assert!(files.len() >= 20);
    for rel in files {
        let steps = steps(&fixture(&rel));
        let mut whole = SummaryFold::new();
        for (ev, env) in &steps {
            whole.add(ev, env);
        }
        let whole = whole.summary();
        for k in 0..=steps.len() {
            let mut head = SummaryFold::new();
            for (ev, env) in &steps[..k] {
                head.add(ev, env);
            }
            let json = serde_json::to_string(&head).unwrap();
            let mut rest: SummaryFold = serde_json::from_str(&json).unwrap();
            assert_eq!(rest, head, "{rel}: checkpoint at {k}");
            for (ev, env) in &steps[k..] {
                rest.add(ev, env);
            }
            assert_eq!(rest.summary(), whole, "{rel}: split at {k}");
        }
    }
}

/// The JSON keys `docs/CLI.md` documents for `hiveterm summary --json`.
#[test]
fn json_keys() {
    let v = serde_json::to_value(Summary::default()).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    for key in [
        "agent",
        "agent_version",
        "lines_not_understood",
        "turns",
        "turns_ok",
        "turns_failed",
        "turns_interrupted",
        "tool_calls",
        "tool_errors",
        "errors",
        "warnings",
        "first_error_seq",
        "duration_s",
        "cost_usd",
        "input_tokens",
        "output_tokens",
        "cache_read_tokens",
        "cache_creation_tokens",
        "models",
        "subagents",
        "files_changed",
        "started_at",
        "ended_at",
        "agent",
        "agent_version",
        "lines_not_understood",
    ] {
        assert!(keys.contains(&key), "{key} missing from {keys:?}");
    }
    assert_eq!(keys.len(), 23, "{keys:?}");
    assert_eq!(v["first_error_seq"], serde_json::Value::Null);
}

/// Issue 24: a log whose every edit touches a new file. Each path is counted once (a set, not
/// a list searched linearly: 20,000 files in a blink), the whole summary (`hiveterm summary`'s
/// fold, [`LogClassifier::with_whole_summary`]) lists them all and says nothing more, and a
/// summary cut to its first paths counts the rest.
#[test]
fn many_files_changed_are_counted_once_and_a_head_lists_the_first() {
    let mut log = String::new();
    for i in 0..20_000 {
        for path in [format!("/w/src/f{i}.rs"), format!("/w/src/f{}.rs", i / 2)] {
            log.push_str(&format!(
                r#"{{"type":"assistant","message":{{"id":"m{i}","role":"assistant","content":[{{"type":"tool_use","id":"t{i}","name":"Edit","input":{{"file_path":"{path}","old_string":"a","new_string":"b"}}}}]}}}}"#
            ));
            log.push('\n');
        }
    }
    let mut c = LogClassifier::new().with_whole_summary();
    c.feed(log.as_bytes(), |_| {});
    let whole = c.summary().unwrap();
    assert_eq!(whole.files_changed.len(), 20_000);
    assert_eq!(
        whole.files_changed[..3],
        strings(&["/w/src/f0.rs", "/w/src/f1.rs", "/w/src/f2.rs"])
    );
    assert_eq!(
        (whole.files_changed_more, whole.files_changed_total()),
        (0, 20_000)
    );
    assert!(
        !serde_json::to_string(&whole)
            .unwrap()
            .contains("files_changed_more")
    );
    let head = c.summary_head(5).unwrap();
    assert_eq!(head.files_changed, whole.files_changed[..5]);
    assert_eq!(
        (head.files_changed_more, head.files_changed_total()),
        (19_995, 20_000)
    );
    let json = serde_json::to_string(&head).unwrap();
    assert!(json.contains(r#""files_changed_more":19995"#), "{json}");
    let back: Summary = serde_json::from_str(&json).unwrap();
    assert_eq!(back, head);
    assert_eq!(
        Summary {
            files_changed_more: 0,
            files_changed: whole.files_changed.clone(),
            ..head
        },
        whole
    );
}

/// The summary of a log given as lines.
fn summarize_lines(lines: &[&str]) -> Summary {
    let mut log = LogClassifier::new().with_summary();
    log.feed(lines.join("\n").as_bytes(), |_| {});
    log.finish(|_| {});
    log.summary().expect("made with_summary")
}

/// How a subagent ended, after its call and `after` (issue 21: a stream-json block said
/// "… running" after its subagent had finished; the summary says how each ended).
fn check_end(after: &[&str], want: Option<classifier::SubagentEnd>) {
    let call = r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_A","name":"Task","input":{"subagent_type":"general-purpose","description":"look"}}]}}"#;
    let mut lines = vec![call];
    lines.extend_from_slice(after);
    let s = summarize_lines(&lines);
    assert_eq!(s.by_subagent.len(), 1, "{after:?}");
    assert_eq!(s.by_subagent[0].ended, want, "{after:?}");
}

#[test]
fn a_subagent_ends_as_its_result_or_its_task_notification_says() {
    use classifier::SubagentEnd::{Failed, Interrupted, Ok};
    let result = |text: &str, error: bool| {
        format!(
            r#"{{"type":"user","message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"toolu_A","is_error":{error},"content":[{{"type":"text","text":"{text}"}}]}}]}}}}"#
        )
    };
    let notified = |status: &str| {
        format!(
            r#"{{"type":"system","subtype":"task_notification","task_id":"t1","tool_use_id":"toolu_A","status":"{status}"}}"#
        )
    };
    let transcript = |status: &str| {
        format!(
            r#"{{"type":"user","message":{{"role":"user","content":"<task-notification>\n<task-id>t1</task-id>\n<tool-use-id>toolu_A</tool-use-id>\n<status>{status}</status>\n</task-notification>"}},"uuid":"u","timestamp":"2026-11-30T02:15:18.985Z","sessionId":"s"}}"#
        )
    };
    let (done, failed, launched) = (
        result("The report", false),
        result("boom", true),
        result("Async agent launched successfully. agentId: a1", false),
    );
    check_end(&[], None);
    check_end(&[&done], Some(Ok));
    check_end(&[&failed], Some(Failed));
    check_end(&[&launched], None);
    check_end(&[&launched, &notified("completed")], Some(Ok));
    check_end(&[&launched, &notified("failed")], Some(Failed));
    check_end(&[&launched, &notified("killed")], Some(Interrupted));
    check_end(&[&launched, &notified("running")], None);
    check_end(&[&launched, &transcript("completed")], Some(Ok));
    check_end(&[&launched, &transcript("stopped")], Some(Interrupted));
    // Another call's result says nothing of this one.
    check_end(&[&result("x", true).replace("toolu_A", "toolu_B")], None);
}

/// Issue 24: a log with thousands of subagents, each entry found by its call (the fold looked
/// each one up in a list, at every envelope of a subagent), and a fold read back from serde
/// half-way finds them as well.
#[test]
fn thousands_of_subagents_each_get_their_own_share() {
    const N: usize = 3_000;
    // Calls in rounds of 200 (the classifier links a subagent's lines to its last 256 calls),
    // each round's subagents answering in reverse.
    let mut lines = Vec::new();
    for round in 0..N / 200 {
        for i in round * 200..(round + 1) * 200 {
            lines.push(format!(
                r#"{{"type":"assistant","message":{{"role":"assistant","content":[{{"type":"tool_use","id":"toolu_{i}","name":"Task","input":{{"subagent_type":"t{i}","description":"d"}}}}]}}}}"#
            ));
        }
        for i in (round * 200..(round + 1) * 200).rev() {
            lines.push(format!(
                r#"{{"type":"assistant","parent_tool_use_id":"toolu_{i}","message":{{"role":"assistant","content":[{{"type":"tool_use","id":"inner_{i}","name":"Bash","input":{{"command":"ls"}}}}]}}}}"#
            ));
        }
    }
    // The seq of each call.
    let seq_of = |i: usize| (i / 200 * 400 + i % 200 + 1) as u64;
    let log = lines.join("\n");
    let check = |s: &Summary| {
        assert_eq!(s.by_subagent.len(), N);
        for (i, a) in s.by_subagent.iter().enumerate() {
            assert_eq!(a.parent, seq_of(i), "{a:?}");
            assert_eq!(a.agent_type.as_deref(), Some(format!("t{i}").as_str()));
            assert_eq!(a.tool_calls, 1, "{a:?}");
        }
    };
    let whole = summarize_lines(&lines.iter().map(String::as_str).collect::<Vec<_>>());
    check(&whole);
    // The same, with the fold carried through serde after the calls and half the subagents.
    let steps = steps(log.as_bytes());
    let mut fold = SummaryFold::new();
    for (k, (ev, env)) in steps.iter().enumerate() {
        if k == N + 100 {
            fold = serde_json::from_str(&serde_json::to_string(&fold).unwrap()).unwrap();
        }
        fold.add(ev, env);
    }
    check(&fold.summary());
    assert_eq!(fold.summary(), whole);
}

/// Issue 24: `summary_changes` lists only the subagents whose end changed since the ends it
/// was given, and is otherwise `summary_head`.
#[test]
fn summary_changes_lists_the_subagents_whose_end_changed() {
    let call = |id: &str| {
        format!(
            r#"{{"type":"assistant","message":{{"role":"assistant","content":[{{"type":"tool_use","id":"{id}","name":"Task","input":{{"subagent_type":"x","description":"d"}}}}]}}}}"#
        )
    };
    let result = |id: &str| {
        format!(
            r#"{{"type":"user","message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"{id}","content":"done"}}]}}}}"#
        )
    };
    let mut log = LogClassifier::new().with_summary();
    let mut sent = Vec::new();
    let parents = |s: &Summary| s.by_subagent.iter().map(|a| a.parent).collect::<Vec<_>>();
    let mut feed = |line: String| log.feed(format!("{line}\n").as_bytes(), |_| {});
    feed(call("A"));
    feed(call("B"));
    feed(result("B"));
    let s = log.summary_changes(20, &mut sent).unwrap();
    assert_eq!(parents(&s), [2], "only B ended");
    assert_eq!(
        Summary {
            by_subagent: Vec::new(),
            ..log.summary_head(20).unwrap()
        },
        Summary {
            by_subagent: Vec::new(),
            ..s
        }
    );
    assert_eq!(
        parents(&log.summary_changes(20, &mut sent).unwrap()),
        [] as [u64; 0]
    );
    let mut feed = |line: String| log.feed(format!("{line}\n").as_bytes(), |_| {});
    feed(call("C"));
    feed(result("A"));
    assert_eq!(parents(&log.summary_changes(20, &mut sent).unwrap()), [1]);
    assert_eq!(parents(&log.summary_head(20).unwrap()), [1, 2, 4]);
}

/// Issue 45.6: `hiveterm run` writes a turn, notes (`stdout:`, `stderr:`) and a turn end around
/// any command: those name no agent (a Claude Code run was called "hyperhive"); the agent's
/// own lines do, and a line only the hyperhive harness writes still names hyperhive.
#[test]
fn issue_45_6_a_run_is_named_by_its_agents_lines_not_by_run() {
    let turn = r#"{"kind":"turn_start","ts":1.0,"from":"operator","body":"$ claude -p hi"}"#;
    let note = r#"{"kind":"note","ts":1.5,"text":"stderr: warning"}"#;
    let end = r#"{"kind":"turn_end","ts":2.0,"ok":true}"#;
    let init =
        r#"{"type":"system","subtype":"init","model":"claude-x","session_id":"s","cwd":"/w"}"#;
    let codex = r#"{"type":"thread.started","thread_id":"t"}"#;
    let status = r#"{"kind":"status_changed","ts":1.2,"status":"busy"}"#;
    let check = |lines: &[&str], want: Option<&str>| {
        assert_eq!(summarize_lines(lines).agent.as_deref(), want, "{lines:?}");
    };
    check(&[turn, init, note, end], Some("claude-code"));
    check(&[turn, note, codex, end], Some("codex"));
    check(&[turn, note, end], None);
    check(&[note, turn, status, init, end], Some("hyperhive"));
}

/// Issue 45.4: every file of a Codex patch counts in the summary's files changed — 15 of a
/// `codex exec --json` `file_change`, 15 of a rollout's `FileChange` mirror (renames: both
/// names).
#[test]
fn issue_45_every_file_of_a_codex_patch_is_counted() {
    let kinds = ["add", "update", "delete"];
    let changes: Vec<String> = (0..15)
        .map(|i| format!(r#"{{"path":"/w/f{i}.rs","kind":"{}"}}"#, kinds[i % 3]))
        .collect();
    let exec = format!(
        r#"{{"type":"item.completed","item":{{"id":"item_1","type":"file_change","changes":[{}],"status":"completed"}}}}"#,
        changes.join(",")
    );
    let s = summarize_lines(&[r#"{"type":"thread.started","thread_id":"t"}"#, &exec]);
    assert_eq!(s.files_changed_total(), 15, "{s:?}");
    assert_eq!(s.files_changed[14], "/w/f14.rs");
    let mut map = serde_json::Map::new();
    for i in 0..15 {
        let mut c = serde_json::json!({"type": kinds[i % 3]});
        if i == 4 {
            c["move_path"] = serde_json::json!("/w/moved.rs");
        }
        map.insert(format!("/w/f{i}.rs"), c);
    }
    let mirror = serde_json::json!({"timestamp": "2026-12-02T14:10:09.785Z", "type": "event_msg",
        "payload": {"type": "item_completed", "item": {"type": "FileChange", "id": "x",
        "status": "completed", "changes": map}}})
    .to_string();
    let meta = r#"{"timestamp":"2026-12-02T14:10:09.000Z","type":"session_meta","payload":{"id":"s","cli_version":"0.171.0"}}"#;
    let s = summarize_lines(&[meta, &mirror]);
    assert_eq!(s.files_changed_total(), 16, "{s:?}");
}

/// Issue 46.2: the summary fold had no bound: a log of 66,038 `Write` calls made every
/// checkpoint of the server's fold hold every path (526 MB of checkpoints). The fold kept (the
/// server's, the page's) lists the first 256 files, 64 tools and 16 models, each name cut to
/// 256 bytes, counts the others (`files_changed_more`, `tool_calls_more`, `tools_more`,
/// `models_more`), and is a few tens of KB however many; `hiveterm summary`'s keeps them all.
#[test]
fn issue_46_2_the_summary_fold_keeps_the_first_names_and_counts_the_others() {
    use classifier::summary_limits::{FILES_KEPT, MODELS_KEPT, NAME_BYTES, TOOLS_KEPT};
    let long = "x".repeat(10_000);
    let mut log = String::new();
    for i in 0..66_038 {
        let path = format!("/home/dev/work/big/src/module_{}/file_{i:06}.rs", i / 100);
        let tool = if i % 50 == 0 {
            format!("mcp__t{i}__{long}")
        } else {
            "Write".to_owned()
        };
        log.push_str(
            &serde_json::json!({"type": "assistant", "message": {"id": format!("m{i}"),
            "role": "assistant", "model": format!("model-{}-{long}", i % 40),
            "content": [{"type": "tool_use", "id": format!("t{i}"), "name": "Write",
                "input": {"file_path": path}},
                {"type": "tool_use", "id": format!("u{i}"), "name": tool, "input": {}}]}})
            .to_string(),
        );
        log.push('\n');
    }
    let mut bounded = SummaryFold::new();
    let mut whole = SummaryFold::whole();
    for (ev, env) in steps(log.as_bytes()) {
        bounded.add(&ev, &env);
        whole.add(&ev, &env);
    }
    let s = bounded.summary();
    assert_eq!(s.files_changed.len(), FILES_KEPT);
    assert_eq!(s.files_changed_total(), 66_038);
    assert_eq!(
        s.files_changed[1],
        "/home/dev/work/big/src/module_0/file_000001.rs"
    );
    assert_eq!(s.tool_calls.len(), TOOLS_KEPT);
    assert_eq!(s.tool_calls["Write"], 66_038 * 2 - 1321);
    assert_eq!(s.tool_calls_total(), 66_038 * 2);
    assert_eq!(s.tools_more, 1321 - (TOOLS_KEPT as u64 - 1));
    assert!(s.tool_calls.keys().all(|t| t.len() <= NAME_BYTES));
    assert_eq!(
        (s.models.len(), s.models_more),
        (MODELS_KEPT, 40 - MODELS_KEPT as u64)
    );
    assert!(
        s.models
            .iter()
            .all(|m| m.len() <= NAME_BYTES && m.ends_with('…'))
    );
    let json = serde_json::to_string(&s).unwrap();
    assert!(
        json.contains(r#""files_changed_more":65782"#),
        "{}",
        &json[..300]
    );
    // The fold as a checkpoint holds: tens of KB, not the 66,038 paths (4.4 MB).
    let checkpoint = serde_json::to_string(&bounded).unwrap();
    assert!(checkpoint.len() < 200 * 1024, "{} bytes", checkpoint.len());
    let back: SummaryFold = serde_json::from_str(&checkpoint).unwrap();
    assert_eq!(back.summary(), s);
    // `hiveterm summary`'s fold: every file, tool and model, uncut.
    let w = whole.summary();
    assert_eq!((w.files_changed.len(), w.files_changed_more), (66_038, 0));
    assert_eq!((w.tool_calls.len(), w.tool_calls_more), (1322, 0));
    assert_eq!((w.models.len(), w.models_more), (40, 0));
    assert!(w.models[0].len() > 10_000);
}
