use super::*;

#[test]
fn prompts_make_one_line_titles_and_injected_blocks_none() {
    assert_eq!(
        prompt_title("\n  Fix the   build\nthen more").as_deref(),
        Some("Fix the build")
    );
    assert_eq!(prompt_title("<environment_context>\n<cwd>/x</cwd>"), None);
    assert_eq!(
        prompt_title("<user_instructions>do</user_instructions>"),
        None
    );
    assert_eq!(
        prompt_title("<b is less than c").as_deref(),
        Some("<b is less than c")
    );
    let long = "é".repeat(300);
    assert_eq!(
        prompt_title(&long).unwrap().chars().count(),
        TITLE_CHARS + 1
    );
}

#[test]
fn placeholders() {
    for t in [
        "",
        "s1",
        "/home/u/.claude/projects/x/a.jsonl",
        "a.jsonl",
        "standard input",
    ] {
        assert!(is_placeholder(t, "s1"), "{t}");
    }
    for t in ["my build", "Fix the login bug", "deploy/v2 rollout plan"] {
        assert!(!is_placeholder(t, "s1"), "{t}");
    }
}

#[test]
fn days_and_times() {
    assert_eq!(parse_since("1970-01-01"), Some(0.0));
    assert_eq!(parse_since("2026-12-02"), Some(1_796_169_600.0));
    assert_eq!(parse_since("1796169600"), Some(1_796_169_600.0));
    assert_eq!(parse_since("2026-12-02T00:00:00Z"), Some(1_796_169_600.0));
    assert_eq!(parse_since("yesterday"), None);
}

#[test]
fn cursors_read_back() {
    for (sort, text) in [
        (Sort::Newest, "12.5~run-1"),
        (Sort::Cost, "-1~12.5~a~b"),
        (Sort::Errors, "3~1796169600.123~x"),
    ] {
        let c = Cursor::parse(sort, text).unwrap();
        assert_eq!(c.to_text(), text);
    }
    assert_eq!(Cursor::parse(Sort::Cost, "12.5~run"), None);
    assert_eq!(Cursor::parse(Sort::Newest, "inf~x"), None);
}

/// Issue 45: a turn in flight that the end of the log ends (a Gemini recording's answered or
/// failed last turn) is `in flight` while the session is live, then `ok` or `failed` once it
/// ended — never `interrupted`; [`STATUS_SQL`] says what [`status`] says, for every outcome.
#[test]
fn issue_45_a_turn_the_logs_end_ends_is_its_status_once_ended() {
    let cases = [
        (Some(IN_FLIGHT_OK), false, "in flight"),
        (Some(IN_FLIGHT_OK), true, "ok"),
        (Some(IN_FLIGHT_FAILED), false, "in flight"),
        (Some(IN_FLIGHT_FAILED), true, "failed"),
        (Some("in flight"), true, "interrupted"),
        (Some("in flight"), false, "in flight"),
    ];
    for (outcome, ended, want) in cases {
        assert_eq!(
            status(outcome, ended, 0).as_str(),
            want,
            "{outcome:?} {ended}"
        );
    }
    let conn = rusqlite::Connection::open_in_memory().unwrap();
    let outcomes = [
        None,
        Some("in flight"),
        Some(IN_FLIGHT_OK),
        Some(IN_FLIGHT_FAILED),
        Some("ok"),
        Some("failed"),
        Some("interrupted"),
    ];
    for outcome in outcomes {
        for ended in [false, true] {
            for errors in [0u64, 1] {
                let sql = format!(
                    "SELECT {STATUS_SQL} FROM (SELECT ?1 AS outcome, ?2 AS ended, ?3 AS errors)"
                );
                let got: String = conn
                    .query_row(
                        &sql,
                        rusqlite::params![outcome, ended.then_some(1.0), errors as i64],
                        |r| r.get(0),
                    )
                    .unwrap();
                assert_eq!(
                    got,
                    status(outcome, ended, errors).as_str(),
                    "{outcome:?} {ended}"
                );
            }
        }
    }
}

/// Issue 47: a Qwen Code session file, an OpenCode export message line (as `serve --agents`
/// stores them) and a Copilot CLI `events.jsonl` give the index their project, as Claude Code's
/// and Codex's logs do.
#[test]
fn issue_47_every_agents_log_names_its_project() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let cases = [
        (
            "qwen-0.24.4/qwen.file_edit.session.jsonl",
            "/home/dev/work/file_edit",
        ),
        (
            "copilot-1.0.102/copilot.file_edit.events.jsonl",
            "/home/dev/work/file_edit",
        ),
        ("claude-code-2.1.332/tool_errors.transcript.jsonl", ""),
    ];
    let opencode = r#"{"timestamp":1,"info":{"id":"ses_a","version":"1.18.33","directory":"/w/x"},"messages":[]}"#;
    let fold = |text: &str| {
        let mut fold = IndexFold::default();
        let env = classifier::TermEnvelope {
            ts: None,
            seq: Some(1),
            parent: None,
            msgs: Vec::new(),
        };
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            fold.add(&classifier::parse_line(line.as_bytes()), &env);
        }
        fold.project
    };
    assert_eq!(fold(opencode).as_deref(), Some("/w/x"));
    for (file, want) in cases {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let got = fold(&text);
        if want.is_empty() {
            assert!(got.is_some(), "{file}: no project");
        } else {
            assert_eq!(got.as_deref(), Some(want), "{file}");
        }
    }
}
