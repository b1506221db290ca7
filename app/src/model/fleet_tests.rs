use serde_json::{Value, json};

use super::*;

fn typed<T: serde::de::DeserializeOwned>(v: Value) -> T {
    serde_json::from_value(v).unwrap()
}

#[test]
fn the_index_parses_into_rows() {
    let v = json!({"sessions": [
        {"id": "run-1", "title": "Fix the login bug", "source": "run", "started": 1764468000.12,
         "live": true, "last_seq": 812, "agent": "claude-code", "project": "/home/dev/work/app",
         "status": "in flight", "started_at": 1764468001.5, "duration": 238.7, "turns": 3,
         "errors": 1, "first_error": 57,
         "tokens": {"input": 2374, "output": 582, "cache_read": 10, "cache_creation": 0},
         "cost": 0.1234},
        {"id": "bare", "title": "", "started": 5.0, "agent": null, "project": null,
         "first_error": null, "cost": null},
        {"title": "no id"}
    ], "next": "1764468000.12~run-1"});
    let page = parse_index(typed(v));
    assert_eq!(page.next.as_deref(), Some("1764468000.12~run-1"));
    assert_eq!(page.rows.len(), 2);
    let r = &page.rows[0];
    assert_eq!(r.id, "run-1");
    assert_eq!(r.agent.as_deref(), Some("claude-code"));
    assert_eq!(r.project.as_deref(), Some("/home/dev/work/app"));
    assert_eq!((r.status.as_str(), r.live), ("in flight", true));
    assert_eq!(r.started, Some(1764468001.5), "the log's own time first");
    assert_eq!((r.turns, r.errors, r.first_error), (3, 1, Some(57)));
    assert_eq!(r.tokens, 2374 + 582 + 10);
    assert_eq!(r.cost, Some(0.1234));
    let b = &page.rows[1];
    assert_eq!(b.title, "bare", "no title: the id");
    assert!(!b.live);
    assert_eq!(
        (b.agent.clone(), b.project.clone(), b.cost),
        (None, None, None)
    );
    assert_eq!(b.started, Some(5.0), "else the server's");
    assert_eq!((b.first_error, b.tokens), (None, 0));
    assert_eq!(
        parse_index(typed(json!({"sessions": []}))),
        IndexPage::default()
    );
}

#[test]
fn figures_are_written_short() {
    assert_eq!(cost_text(Some(0.0123), false), "$0.0123");
    assert_eq!(cost_text(Some(12.5), false), "$12.50");
    assert_eq!(cost_text(Some(0.0), false), "$0.0000");
    assert_eq!(cost_text(None, false), "unknown");
    // Issue 50: an estimate is marked as one.
    assert_eq!(cost_text(Some(1.8), true), "≈ $1.80 est.");
    assert_eq!(duration_text(None), "—");
    assert_eq!(duration_text(Some(4.24)), "4.2s");
    assert_eq!(duration_text(Some(-1.0)), "—");
    assert_eq!(tokens_text(0), "—");
    assert_eq!(tokens_text(812), "812");
    assert_eq!(tokens_text(9_999), "9,999");
    assert_eq!(tokens_text(12_345), "12.3k");
    assert_eq!(tokens_text(4_100_000), "4.1M");
    assert_eq!(short_project("/home/dev/work/app"), "app");
    assert_eq!(short_project("/home/dev/work/app/"), "app");
    assert_eq!(short_project(r"C:\src\tool"), "tool");
    assert_eq!(short_project("/"), "/");
    assert_eq!(short_project("plain"), "plain");
    assert_eq!(status_class("in flight"), "status status-in-flight");
    assert_eq!(hits_text(1), "1 hit");
    assert_eq!(hits_text(1234), "1,234 hits");
}

#[test]
fn filters_make_the_query() {
    let mut f = Filters::default();
    assert_eq!(index_url(&f, None), "api/sessions?limit=50&sort=newest");
    f.agent = "codex".into();
    f.status = "in flight".into();
    f.project = " /home/a b/x&y ".into();
    f.q = "50% off".into();
    f.sort = Sort::Errors;
    assert_eq!(
        index_url(&f, Some("1.5~run-1")),
        "api/sessions?limit=50&sort=errors&agent=codex&status=in%20flight\
         &project=%2Fhome%2Fa%20b%2Fx%26y&q=50%25%20off&cursor=1.5~run-1"
    );
    assert_eq!(search_url("rm -rf", None), "api/search?q=rm%20-rf&limit=50");
    assert_eq!(
        search_url("ä#?", Some("a.b+c")),
        "api/search?q=%C3%A4%23%3F&limit=50&cursor=a.b%2Bc"
    );
    for s in Sort::ALL {
        assert_eq!(Sort::parse(s.as_str()), Some(s));
    }
    assert_eq!(Sort::parse("bogus"), None);
}

fn row(id: &str) -> IndexRow {
    parse_index(typed(json!({"sessions": [{"id": id}]})))
        .rows
        .remove(0)
}

#[test]
fn more_pages_leave_out_what_the_first_holds() {
    let all = joined(&[row("a"), row("b")], &[row("b"), row("c")]);
    let ids: Vec<_> = all.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["a", "b", "c"]);
}

#[test]
fn hits_parse_and_group_by_session_in_order() {
    let v = json!({"hits": [
        {"session": "s1", "seq": 9, "row": 0, "ts": 3.0, "icon": "✗", "level": "error",
         "summary": "Bash: rm -rf build", "in": "summary", "snippet": "rm -rf build"},
        {"session": "s2", "seq": 4, "row": 1, "icon": null, "level": "info",
         "summary": "<b>x</b>", "snippet": "<b>x</b>"},
        {"session": "s1", "seq": 2, "row": 0, "level": "warn", "summary": "s", "snippet": "t"},
        {"seq": 1}
    ], "next": null});
    let page = parse_hits(typed(v));
    assert_eq!(page.next, None);
    assert_eq!(page.hits.len(), 3);
    assert_eq!(page.hits[0].icon.as_deref(), Some("✗"));
    assert_eq!(page.hits[1].icon, None);
    assert_eq!(
        page.hits[1].snippet, "<b>x</b>",
        "text as it is: the view escapes it"
    );
    let groups = group_hits(&page.hits);
    let shape: Vec<_> = groups
        .iter()
        .map(|(s, hs)| (s.as_str(), hs.iter().map(|h| h.seq).collect::<Vec<_>>()))
        .collect();
    assert_eq!(shape, [("s1", vec![9, 2]), ("s2", vec![4])]);
    assert_eq!(
        parse_hits(typed(json!({"hits": [], "next": "c"})))
            .next
            .as_deref(),
        Some("c")
    );
}

#[test]
fn a_refusal_says_the_servers_message() {
    assert_eq!(
        refusal(r#"{"error": "q must be at least 3 characters"}"#),
        "q must be at least 3 characters"
    );
    assert_eq!(refusal(" bad gateway \n"), "bad gateway");
}
