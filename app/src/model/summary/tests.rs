use super::*;

/// The summary JSON (as `hiveterm summary --json` prints it: every key; `json` gives the
/// ones that are not zero or empty) → the header's strings.
fn check(json: &str, expect: &[(&str, &str)]) {
    let mut full = serde_json::to_value(Summary::default()).unwrap();
    let given: serde_json::Value = serde_json::from_str(json).unwrap();
    for (k, v) in given.as_object().unwrap() {
        full[k] = v.clone();
    }
    let v = SummaryView::parse(&full.to_string()).expect("a summary");
    let got: Vec<(&str, String)> = expect
        .iter()
        .map(|(k, _)| {
            let value = match *k {
                "outcome" => v.outcome.as_str().to_owned(),
                "icon" => v.outcome.icon().to_owned(),
                "turns" => v.turns.clone(),
                "duration" => v.duration.clone().unwrap_or_default(),
                "tools" => v.tools_line(),
                "tool_calls" => v.tool_calls.to_string(),
                "tokens" => v.tokens.clone().unwrap_or_default(),
                "cost" => v.cost.clone().unwrap_or_default(),
                "line" => v.line(),
                "agent" => v.agent.clone().unwrap_or_default(),
                "first_error_seq" => format!("{:?}", v.first_error_seq),
                "models" => v.models.join(", "),
                "files" => v.files.join(", "),
                other => panic!("no key {other}"),
            };
            (*k, value)
        })
        .collect();
    let want: Vec<(&str, String)> = expect.iter().map(|(k, w)| (*k, (*w).to_owned())).collect();
    assert_eq!(got, want, "{json}");
}

#[test]
fn a_failed_run() {
    check(
        r#"{"turns":3,"turns_ok":1,"turns_failed":1,"turns_interrupted":1,
            "tool_calls":{"Bash":20,"Read":10,"Edit":5,"Grep":4,"Write":2,"Glob":2,"Task":1,"WebFetch":1},
            "tool_errors":2,"errors":2,"warnings":5,"first_error_seq":41,
            "started_at":1764468000.0,"ended_at":1764468723.5,"duration_s":723.5,
            "cost_usd":0.05123,"input_tokens":12345,"output_tokens":678,
            "cache_read_tokens":90000,"cache_creation_tokens":0,
            "models":["claude-opus-4","claude-haiku-4"],"subagents":1,
            "files_changed":["src/a.rs","src/b.rs"]}"#,
        &[
            ("outcome", "failed"),
            ("icon", icon::TURN_FAIL),
            ("turns", "3 turns · 1 ok · 1 failed · 1 interrupted"),
            ("duration", "12m 04s"),
            (
                "tools",
                "Bash 20 · Read 10 · Edit 5 · Grep 4 · Glob 2 · Write 2 · 2 other tools: 2",
            ),
            ("tool_calls", "45"),
            ("tokens", "12,345 in · 678 out · 90,000 cache read"),
            ("cost", "$0.0512"),
            ("first_error_seq", "Some(41)"),
            ("models", "claude-opus-4, claude-haiku-4"),
            ("files", "src/a.rs, src/b.rs"),
            (
                "line",
                "3 turns · 1 ok · 1 failed · 1 interrupted · 12m 04s · 45 tool calls · 2 errors · 5 warnings · $0.0512",
            ),
        ],
    );
}

/// Issue 50: an estimate is marked as one in the header.
#[test]
fn issue_50_an_estimated_cost_is_marked() {
    check(
        r#"{"turns":1,"turns_ok":1,"tool_calls":{},"errors":0,"warnings":0,
            "cost_usd":8.55,"cost_source":"estimated","input_tokens":2000000}"#,
        &[
            ("cost", "≈ $8.55 est."),
            (
                "line",
                "1 turn · 1 ok · 0 tool calls · 0 errors · 0 warnings · ≈ $8.55 est.",
            ),
        ],
    );
    check(
        r#"{"turns":1,"turns_ok":1,"tool_calls":{},"errors":0,"warnings":0,
            "cost_usd":0.5,"cost_source":"stated"}"#,
        &[("cost", "$0.5000")],
    );
}

#[test]
fn a_clean_run_and_an_empty_log() {
    check(
        r#"{"turns":1,"turns_ok":1,"tool_calls":{"Read":1},"errors":0,"warnings":1,
            "duration_s":4.25,"cost_usd":12.5,"input_tokens":1234567}"#,
        &[
            ("outcome", "ok"),
            ("turns", "1 turn · 1 ok"),
            ("tools", "Read 1"),
            ("tokens", "1,234,567 in"),
            ("cost", "$12.50"),
            (
                "line",
                "1 turn · 1 ok · 4.3s · 1 tool call · 0 errors · 1 warning · $12.50",
            ),
        ],
    );
    check(
        "{}",
        &[
            ("outcome", "open"),
            ("icon", icon::TURN_START),
            ("duration", ""),
            ("tools", ""),
            ("tokens", ""),
            ("cost", ""),
            ("first_error_seq", "None"),
            ("line", "0 turns · 0 tool calls · 0 errors · 0 warnings"),
        ],
    );
    check(
        r#"{"turns":2,"turns_interrupted":1}"#,
        &[("outcome", "interrupted"), ("icon", icon::INTERRUPTED)],
    );
}

#[test]
fn not_a_summary_is_none() {
    assert_eq!(SummaryView::parse("not json"), None);
    assert_eq!(SummaryView::parse(r#"{"turns":"three"}"#), None);
}

#[test]
fn numbers_are_grouped() {
    for (n, want) in [
        (0, "0"),
        (999, "999"),
        (1000, "1,000"),
        (12_345, "12,345"),
        (1_000_000, "1,000,000"),
    ] {
        assert_eq!(grouped(n), want);
    }
    assert_eq!(count(1, "error"), "1 error");
    assert_eq!(count(2, "error"), "2 errors");
}

/// A script of (time, what) → the gate's answers: "env", "end" (a turn-end envelope),
/// "fire", "fetched".
fn gate(steps: &[(f64, &str)], expect: &[Refresh]) {
    let mut g = SummaryGate::default();
    let got: Vec<Refresh> = steps
        .iter()
        .map(|(t, what)| match *what {
            "env" => g.envelope(*t, false),
            "end" => g.envelope(*t, true),
            "fire" => g.fire(),
            "fetched" => g.fetched(*t),
            other => panic!("no step {other}"),
        })
        .collect();
    assert_eq!(got, expect);
}

#[test]
fn refreshes_are_throttled_to_one_a_second() {
    use Refresh::{Hold, Now, Wait};
    gate(
        &[
            (0.0, "env"),
            (10.0, "env"),
            (50.0, "fetched"),
            (60.0, "env"),
            (1050.0, "fire"),
            (1100.0, "fetched"),
            (3000.0, "env"),
        ],
        &[Now, Hold, Wait(1000.0), Hold, Now, Hold, Now],
    );
}

#[test]
fn a_turn_end_is_fetched_at_once_or_right_after_the_fetch_in_flight() {
    use Refresh::{Hold, Now, Wait};
    gate(
        &[
            (0.0, "env"),
            (20.0, "fetched"),
            (30.0, "env"),
            (40.0, "end"),
            (60.0, "env"),
            (70.0, "end"),
            (80.0, "fetched"),
            (90.0, "fetched"),
            (1020.0, "fire"),
        ],
        &[Now, Hold, Wait(990.0), Now, Hold, Hold, Now, Hold, Hold],
    );
}

#[test]
fn the_agent_is_named_and_lines_not_understood_counted() {
    check(
        r#"{"agent":"codex","agent_version":"0.171.0","turns":1,"turns_ok":1,"lines_not_understood":2}"#,
        &[
            ("agent", "Codex 0.171.0"),
            (
                "line",
                "1 turn · 1 ok · 0 tool calls · 0 errors · 0 warnings · 2 lines not understood · Codex 0.171.0",
            ),
            ("cost", ""),
        ],
    );
    check(r#"{"agent":"gemini"}"#, &[("agent", "Gemini CLI")]);
    check(
        r#"{"agent":"claude-code","agent_version":"2.1.332"}"#,
        &[("agent", "Claude Code 2.1.332")],
    );
    check(
        r#"{"agent":"some-new-agent"}"#,
        &[("agent", "some-new-agent")],
    );
    check(
        r#"{"turns":1}"#,
        &[
            ("agent", ""),
            ("line", "1 turn · 0 tool calls · 0 errors · 0 warnings"),
        ],
    );
}

/// Issue 24: the header lists the first [`FILES_SHOWN`] files and "and N more" — of a summary
/// cut short (a chunk's: `files_changed_more`) as of a whole one (the last chunk's), where a
/// click lists them all.
#[test]
fn files_listed_are_the_first_few_and_a_count_of_the_rest() {
    let view = |files: usize, more: u64| {
        let s = Summary {
            files_changed: (0..files).map(|i| format!("f{i}")).collect(),
            files_changed_more: more,
            ..Summary::default()
        };
        SummaryView::parse(&serde_json::to_string(&s).unwrap()).unwrap()
    };
    let cut = view(FILES_SHOWN, 66_018);
    assert_eq!(cut.files_total, 66_038);
    let (shown, more) = cut.files_listed(false);
    assert_eq!((shown.len(), more), (FILES_SHOWN, 66_018));
    assert_eq!(
        cut.files_listed(true).1,
        66_018,
        "a cut summary cannot list the rest"
    );
    let whole = view(66_038, 0);
    assert_eq!(whole.files_listed(false).0.len(), FILES_SHOWN);
    assert_eq!(whole.files_listed(false).1, 66_018);
    assert_eq!(whole.files_listed(true), (&whole.files[..], 0));
    let few = view(3, 0);
    assert_eq!(few.files_listed(false), (&few.files[..], 0));
}

/// Issue 24: a chunk's summary lists only the subagents whose end changed; the view keeps the
/// ends the chunks before told, in their order, with the changed ones replaced and new ones
/// after.
#[test]
fn a_chunks_subagent_ends_add_to_those_before() {
    let view = |ends: &[(u64, End)]| SummaryView {
        subagent_ends: ends.to_vec(),
        ..SummaryView::of(&Summary::default())
    };
    let before = view(&[(1, End::Ok), (5, End::Failed)]);
    let after = view(&[(5, End::Ok), (9, End::Interrupted)]).after(Some(&before));
    assert_eq!(
        after.subagent_ends,
        vec![(1, End::Ok), (5, End::Ok), (9, End::Interrupted)]
    );
    assert_eq!(
        view(&[]).after(Some(&before)).subagent_ends,
        before.subagent_ends
    );
    assert_eq!(
        view(&[(2, End::Ok)]).after(None).subagent_ends,
        vec![(2, End::Ok)]
    );
    assert_eq!(
        view(&[(2, End::Ok)]).after(Some(&view(&[]))).subagent_ends,
        vec![(2, End::Ok)]
    );
}
