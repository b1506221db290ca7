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
