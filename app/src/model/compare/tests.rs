//! The compare page's pure parts (issue 48).

use super::*;

fn answer() -> Comparison {
    let none = classifier::Summary::default();
    serde_json::from_value(serde_json::json!({
        "a": "failing", "b": "passing",
        "first_divergence": {"a": 3, "b": 3, "turn": 1, "why": "only_a"},
        "divergences": 2,
        "summary": {"a": none, "b": none},
        "differences": {
            "turns": {"a": 1, "b": 1}, "turns_ok": {"a": 1, "b": 1},
            "turns_failed": {"a": 0, "b": 0},
            "tool_calls": {"a": 5, "b": 1}, "tool_errors": {"a": 4, "b": 0},
            "errors": {"a": 4, "b": 0},
            "input_tokens": {"a": 1000, "b": 800}, "output_tokens": {"a": 10, "b": 10},
            "cost_usd": {"a": null, "b": null}, "duration_s": {"a": 12.0, "b": 12.0},
            "models": {"only_a": [], "only_b": [], "both": ["gemini-2.5-pro"]},
            "files_changed": {"only_a": ["x.rs"], "only_b": [], "both": ["y.rs", "z.rs"]}
        },
        "turns": [{"turn": 1, "from": 0, "pairs": 4, "a": {"seq": 1, "prompt": "go"}, "b": null}],
        "pairs": [
            {"turn": 1, "a": {"seq": 2, "kind": "tool", "tool": "Bash", "target": "ls", "outcome": "ok"},
             "b": {"seq": 2, "kind": "tool", "tool": "Bash", "target": "ls", "outcome": "ok"}, "why": null},
            {"turn": 1, "a": {"seq": 3, "kind": "tool", "tool": "Bash", "target": "make", "outcome": "failed"},
             "b": null, "why": "only_a"},
            {"turn": 1, "a": {"seq": 4, "kind": "answer", "target": "", "outcome": "ok"},
             "b": {"seq": 3, "kind": "answer", "target": "", "outcome": "ok"}, "why": null},
            {"turn": 1, "a": {"seq": 5, "kind": "end", "target": "", "outcome": "failed"},
             "b": {"seq": 4, "kind": "end", "target": "", "outcome": "ok"}, "why": "outcome"}
        ],
        "divergence_list": [
            {"pair": 1, "a": 3, "b": 3, "turn": 1, "why": "only_a"},
            {"pair": 3, "a": 5, "b": 4, "turn": 1, "why": "outcome"}
        ],
        "pairs_total": 4, "truncated": false, "max_pairs": 20000
    }))
    .unwrap()
}

#[test]
fn issue_48_the_route_names_two_sessions() {
    let check = |path: &str, want: Option<(&str, &str)>| {
        let got = route(path);
        let want = want.map(|(a, b)| (a.to_owned(), b.to_owned()));
        assert_eq!(got, want, "{path}");
    };
    check("/compare/a/b", Some(("a", "b")));
    check("/compare/run-1/run.2/", Some(("run-1", "run.2")));
    check("/compare/a", None);
    check("/compare/a/b/c", None);
    check("/compare//b", None);
    check("/s/a", None);
    check("/", None);
    assert_eq!(page_url("a", "b"), "/compare/a/b");
    assert_eq!(api_url("a", "b"), "/api/compare/a/b");
    assert_eq!(step_link("a", 7), "/s/a#7");
}

#[test]
fn issue_48_the_first_divergence_is_selected_and_n_steps_through() {
    let c = answer();
    let mut nav = CompareNav::open(&c);
    assert_eq!(nav.selected(), Some(1));
    assert_eq!(nav.position(), Some((1, 2)));
    assert!(!nav.step(Move::Prev), "N on the first stays");
    assert!(nav.step(CompareNav::key("n").unwrap()));
    assert_eq!(nav.selected(), Some(3));
    assert!(!nav.step(Move::Next), "n on the last stays");
    assert!(nav.step(CompareNav::key("N").unwrap()));
    assert_eq!(nav.selected(), Some(1));
    nav.select(3);
    assert_eq!(nav.selected(), Some(3));
    nav.select(0);
    assert_eq!(
        nav.selected(),
        Some(3),
        "a pair that agrees is not a divergence"
    );
    assert_eq!(CompareNav::key("j"), None);
}

#[test]
fn issue_48_no_divergence_selects_nothing() {
    let mut c = answer();
    c.divergence_list.clear();
    let mut nav = CompareNav::open(&c);
    assert_eq!(nav.selected(), None);
    assert!(!nav.step(Move::Next));
    assert_eq!(nav.position(), None);
}

#[test]
fn issue_48_the_summary_table_says_each_difference() {
    let lines = answer().summary_lines();
    let line = |label: &str| lines.iter().find(|l| l[0] == label).unwrap().clone();
    assert_eq!(line("turns")[3], "");
    assert_eq!(line("tool calls")[1..], ["5", "1", "−4"]);
    assert_eq!(line("tool errors")[3], "−4");
    assert_eq!(
        line("files changed")[1..],
        ["1 only in A", "0 only in B", "2 in both"]
    );
    assert_eq!(line("tokens")[3], "−200");
    assert_eq!(
        line("models")[1..],
        ["gemini-2.5-pro", "gemini-2.5-pro", ""]
    );
    assert_eq!(line("duration")[3], "");
}

#[test]
fn issue_48_steps_read_as_their_rows() {
    let c = answer();
    assert_eq!(c.pairs[0].a.as_ref().unwrap().text(), "Bash ls");
    let failed = c.pairs[1].a.as_ref().unwrap();
    assert_eq!((failed.text().as_str(), failed.mark()), ("Bash make", "✗"));
    assert_eq!(c.pairs[2].b.as_ref().unwrap().text(), "answer");
    assert_eq!(c.pairs[3].b.as_ref().unwrap().text(), "turn ends");
    assert_eq!(c.turn_at(0).unwrap().turn, 1);
    assert!(c.turn_at(1).is_none());
}

#[test]
fn issue_48_two_sessions_picked_in_the_index() {
    let mut p = Picks::default();
    assert_eq!(p.url(), None);
    p.toggle("a");
    p.toggle("b");
    assert_eq!(p.url().as_deref(), Some("/compare/a/b"));
    p.toggle("c");
    assert!(!p.has("a") && p.has("b") && p.has("c"));
    assert_eq!(p.url().as_deref(), Some("/compare/b/c"));
    p.toggle("b");
    assert_eq!((p.len(), p.url()), (1, None));
}

#[test]
fn issue_48_a_session_page_leads_to_the_index_with_it_picked() {
    assert_eq!(pick_url("run-1"), "/?compare=run-1");
    let mut p = Picks::of_query("?token=t&compare=run-1");
    assert!(p.has("run-1") && p.len() == 1);
    p.toggle("run-2");
    assert_eq!(p.url().as_deref(), Some("/compare/run-1/run-2"));
    assert!(Picks::of_query("?compare=").is_empty());
    assert!(Picks::of_query("").is_empty());
}
