use super::*;

/// The answer of docs/API.md's example, by agent, with a project-less group.
const ANSWER: &str = r#"{"by": "agent", "since": null,
 "groups": [
   {"key": "claude-code", "sessions": 2,
    "tokens": {"input": 2374, "output": 582, "cache_read": 0, "cache_creation": 0},
    "cost": 0.5, "cost_unknown": 1, "cost_stated": 0.5, "cost_estimated": null,
    "unpriced_models": ["claude-local-7"]},
   {"key": "codex", "sessions": 2,
    "tokens": {"input": 43071, "output": 602, "cache_read": 21376, "cache_creation": 0},
    "cost": 0.1167, "cost_unknown": 0, "cost_stated": null, "cost_estimated": 0.1167,
    "unpriced_models": []},
   {"key": null, "sessions": 1,
    "tokens": {"input": 0, "output": 0, "cache_read": 0, "cache_creation": 0},
    "cost": null, "cost_unknown": 1, "cost_stated": null, "cost_estimated": null,
    "unpriced_models": []}],
 "total": {"key": null, "sessions": 5,
    "tokens": {"input": 45445, "output": 1184, "cache_read": 21376, "cache_creation": 0},
    "cost": 0.6167, "cost_unknown": 2, "cost_stated": 0.5, "cost_estimated": 0.1167,
    "unpriced_models": ["claude-local-7"]}}"#;

fn answer() -> Usage {
    serde_json::from_str(ANSWER).unwrap()
}

#[test]
fn the_route_and_urls() {
    assert!(route("/usage"));
    assert!(route("/usage/"));
    assert!(!route("/"));
    assert!(!route("/usage/x"));
    assert_eq!(api_url(By::Model), "api/usage?by=model");
    assert_eq!(page_url(By::Project, None), "/usage?by=project");
    assert_eq!(page_url(By::Day, Some("t0k")), "/usage?by=day&token=t0k");
    assert_eq!(by_of_search("?token=x&by=agent"), By::Agent);
    assert_eq!(by_of_search("?by=week"), By::Day);
    assert_eq!(by_of_search(""), By::Day);
    for by in By::ALL {
        assert_eq!(By::parse(by.name()), Some(by));
    }
}

#[test]
fn issue_50_stated_and_estimated_apart_unknown_named() {
    let (lines, total) = UsageLine::all(&answer());
    assert_eq!(lines.len(), 3);
    let claude = &lines[0];
    assert_eq!(claude.key, "claude-code");
    assert_eq!(claude.sessions, "2");
    assert_eq!(claude.tokens, ["2,374", "582", "—", "—"].map(str::to_owned));
    assert_eq!(claude.stated, "$0.5000");
    assert_eq!(claude.estimated, "—");
    assert_eq!(claude.unknown, "1 · claude-local-7");
    assert_eq!(claude.cost, "$0.5000");
    let codex = &lines[1];
    assert_eq!(codex.stated, "—");
    assert_eq!(codex.estimated, "≈ $0.1167");
    assert_eq!(codex.unknown, "—");
    assert_eq!(codex.cost, "≈ $0.1167", "an estimate is marked as one");
    assert_eq!(codex.tokens[0], "43.1k");
    let none = &lines[2];
    assert_eq!(none.key, "(unknown)");
    assert_eq!(none.cost, "unknown");
    assert_eq!(none.unknown, "1", "no model to name");
    assert_eq!(total.key, "total");
    assert_eq!(total.stated, "$0.5000");
    assert_eq!(total.estimated, "≈ $0.1167");
    assert_eq!(total.cost, "≈ $0.6167");
    assert_eq!(total.unknown, "2 · claude-local-7");
}

#[test]
fn a_project_reads_as_its_last_component() {
    let g = UsageGroup {
        key: Some("/home/dev/work/app".into()),
        cost: Some(12.5),
        cost_stated: Some(12.5),
        ..UsageGroup::default()
    };
    let line = UsageLine::of(By::Project, &g);
    assert_eq!(line.key, "app");
    assert_eq!(line.title.as_deref(), Some("/home/dev/work/app"));
    assert_eq!(line.cost, "$12.50");
    let by_day = UsageLine::of(By::Day, &g);
    assert_eq!(by_day.key, "/home/dev/work/app");
    assert_eq!(by_day.title, None);
}

#[test]
fn an_answer_missing_the_new_fields_still_reads() {
    // A server from before `unpriced_models`.
    let u: Usage = serde_json::from_str(
        r#"{"by":"day","groups":[{"key":"2026-12-07","sessions":1,"tokens":{"input":1,"output":2,"cache_read":0,"cache_creation":0},"cost":null,"cost_unknown":1}],"total":{"sessions":1}}"#,
    )
    .unwrap();
    let (lines, _) = UsageLine::all(&u);
    assert_eq!(lines[0].unknown, "1");
    assert_eq!(lines[0].cost, "unknown");
}

#[test]
fn keys_group_and_move() {
    assert_eq!(Key::of("a"), Some(Key::Group(By::Agent)));
    assert_eq!(Key::of("m"), Some(Key::Group(By::Model)));
    assert_eq!(Key::of("p"), Some(Key::Group(By::Project)));
    assert_eq!(Key::of("d"), Some(Key::Group(By::Day)));
    assert_eq!(Key::of("j"), Some(Key::Down));
    assert_eq!(Key::of("ArrowUp"), Some(Key::Up));
    assert_eq!(Key::of("x"), None);
    assert_eq!(Key::of("another"), None);
    let mut nav = UsageNav::default();
    assert!(!nav.press(Key::Up, 0));
    assert_eq!(nav.current, None);
    assert!(!nav.press(Key::Down, 3));
    assert_eq!(nav.current, Some(0));
    nav.press(Key::Down, 3);
    nav.press(Key::Down, 3);
    nav.press(Key::Down, 3);
    assert_eq!(nav.current, Some(2), "stays on the last row");
    nav.press(Key::Up, 3);
    assert_eq!(nav.current, Some(1));
    assert!(!nav.press(Key::Group(By::Day), 3), "already by day");
    assert!(nav.press(Key::Group(By::Model), 3));
    assert_eq!(
        nav,
        UsageNav {
            by: By::Model,
            current: None
        }
    );
    nav.press(Key::Up, 4);
    assert_eq!(nav.current, Some(3), "up from none is the last row");
}
