//! The reducer, natively: one small case per rule.

use super::*;
use classifier::{BodyFormat, Level, TermEnvelope, TermMsg};
use std::sync::Arc;

fn msg(level: Level, summary: &str) -> TermMsg {
    TermMsg::new(level, summary)
}

fn env(seq: u64, ts: f64, msgs: Vec<TermMsg>) -> TermEnvelope {
    TermEnvelope {
        ts: Some(ts),
        seq: Some(seq),
        parent: None,
        msgs,
    }
}

fn one(seq: u64, m: TermMsg) -> TermEnvelope {
    env(seq, seq as f64, vec![m])
}

fn tick(seq: u64, n: u32) -> TermEnvelope {
    one(
        seq,
        msg(Level::Debug, &format!("thinking… ~{n} tokens"))
            .icon("🧠")
            .coalesce("thinking-tok"),
    )
}

fn summaries(s: &ViewState) -> Vec<String> {
    (0..s.visible_len())
        .map(|n| s.visible_row(n).unwrap().msg.summary.clone())
        .collect()
}

fn run(envs: &[TermEnvelope]) -> ViewState {
    let mut s = ViewState::default();
    for e in envs {
        apply(&mut s, e);
    }
    s
}

#[test]
fn appends_rows_in_order_with_address() {
    let s = run(&[
        env(1, 1.0, vec![msg(Level::Info, "a"), msg(Level::Info, "b")]),
        one(2, msg(Level::Info, "c")),
    ]);
    assert_eq!(summaries(&s), ["a", "b", "c"]);
    let r = s.visible_row(1).unwrap();
    assert_eq!((r.seq, r.idx), (Some(1), 1));
    assert_eq!(s.seq_range(), (Some(1), Some(2)));
}

#[test]
fn empty_envelope_adds_nothing() {
    let s = run(&[env(1, 1.0, vec![])]);
    assert!(s.is_empty());
    assert_eq!(s.seq_range(), (Some(1), Some(1)));
}

#[test]
fn coalescing_replaces_last_row_with_same_key() {
    let s = run(&[tick(1, 10), tick(2, 20), tick(3, 30)]);
    assert_eq!(summaries(&s), ["thinking… ~30 tokens"]);
}

#[test]
fn coalescing_stops_when_row_is_no_longer_last() {
    let s = run(&[tick(1, 10), one(2, msg(Level::Info, "x")), tick(3, 30)]);
    assert_eq!(
        summaries(&s),
        ["thinking… ~10 tokens", "x", "thinking… ~30 tokens"]
    );
}

#[test]
fn coalescing_needs_the_same_key() {
    let other = one(2, msg(Level::Debug, "⚙ status").coalesce("status"));
    let s = run(&[tick(1, 10), other]);
    assert_eq!(s.len(), 2);
}

#[test]
fn rows_without_key_never_coalesce() {
    let s = run(&[one(1, msg(Level::Info, "x")), one(2, msg(Level::Info, "x"))]);
    assert_eq!(s.len(), 2);
}

#[test]
fn coalesced_row_gets_a_new_uid() {
    let a = run(&[tick(1, 10)]);
    let b = run(&[tick(1, 10), tick(2, 20)]);
    assert_ne!(a.visible_row(0).unwrap().uid, b.visible_row(0).unwrap().uid);
}

#[test]
fn coalescing_within_one_envelope() {
    let t = |n: u32| {
        msg(Level::Debug, &format!("~{n}"))
            .icon("🧠")
            .coalesce("thinking-tok")
    };
    let s = run(&[env(1, 1.0, vec![t(1), t(2)])]);
    assert_eq!(summaries(&s), ["~2"]);
}

#[test]
fn repeated_seq_is_ignored() {
    let s = run(&[
        one(1, msg(Level::Info, "a")),
        one(2, msg(Level::Info, "b")),
        one(2, msg(Level::Info, "b again")),
        one(1, msg(Level::Info, "a again")),
        one(3, msg(Level::Info, "c")),
    ]);
    assert_eq!(summaries(&s), ["a", "b", "c"]);
}

#[test]
fn envelopes_without_seq_always_append() {
    let e = TermEnvelope {
        ts: None,
        seq: None,
        parent: None,
        msgs: vec![msg(Level::Info, "x")],
    };
    let s = run(&[e.clone(), e]);
    assert_eq!(s.len(), 2);
}

#[test]
fn turn_start_gets_its_time() {
    let s = run(&[one(1, msg(Level::Info, "TURN ← operator").icon("◆"))]);
    assert_eq!(
        s.visible_row(0).unwrap().turn.as_deref().copied(),
        Some(TurnTime::Start { ts: 1.0 })
    );
    assert!(s.in_flight());
}

#[test]
fn turn_end_pairs_with_last_open_start() {
    let s = run(&[
        env(1, 100.0, vec![msg(Level::Info, "TURN ← a").icon("◆")]),
        env(2, 150.0, vec![msg(Level::Info, "x")]),
        env(3, 190.5, vec![msg(Level::Info, "turn ok").icon("✅")]),
    ]);
    assert_eq!(
        s.visible_row(2).unwrap().turn.as_deref().copied(),
        Some(TurnTime::End {
            ts: 190.5,
            dur: Some(90.5)
        })
    );
    assert!(!s.in_flight());
    assert_eq!(s.visible_row(1).unwrap().turn.as_deref().copied(), None);
}

#[test]
fn failed_turn_end_pairs_too() {
    let s = run(&[
        env(1, 10.0, vec![msg(Level::Info, "TURN ← a").icon("◆")]),
        env(
            2,
            12.0,
            vec![msg(Level::Error, "turn fail — exit 1").icon("❌")],
        ),
    ]);
    assert_eq!(
        s.visible_row(1).unwrap().turn.as_deref().copied(),
        Some(TurnTime::End {
            ts: 12.0,
            dur: Some(2.0)
        })
    );
}

#[test]
fn turn_end_without_start_has_no_duration() {
    let s = run(&[env(3, 5.0, vec![msg(Level::Info, "turn ok").icon("✅")])]);
    assert_eq!(
        s.visible_row(0).unwrap().turn.as_deref().copied(),
        Some(TurnTime::End { ts: 5.0, dur: None })
    );
}

#[test]
fn second_end_does_not_reuse_a_closed_start() {
    let s = run(&[
        env(1, 10.0, vec![msg(Level::Info, "TURN ← a").icon("◆")]),
        env(2, 12.0, vec![msg(Level::Info, "turn ok").icon("✅")]),
        env(3, 15.0, vec![msg(Level::Info, "turn ok").icon("✅")]),
    ]);
    assert_eq!(
        s.visible_row(2).unwrap().turn.as_deref().copied(),
        Some(TurnTime::End {
            ts: 15.0,
            dur: None
        })
    );
}

#[test]
fn turn_rows_without_ts_have_no_time() {
    let e = TermEnvelope {
        ts: None,
        seq: Some(1),
        parent: None,
        msgs: vec![msg(Level::Info, "TURN ← a").icon("◆")],
    };
    assert_eq!(
        run(&[e]).visible_row(0).unwrap().turn.as_deref().copied(),
        None
    );
}

#[test]
fn ack_until_check_mark_is_not_a_turn_end() {
    let s = run(&[one(1, msg(Level::Info, "ack_until* ≤4").icon("✅"))]);
    assert_eq!(s.visible_row(0).unwrap().turn.as_deref().copied(), None);
    assert_eq!(
        s.visible_row(0).unwrap().tool.as_deref(),
        Some("ack_until*")
    );
}

#[test]
fn shapes() {
    let md = |s: &str| msg(Level::Info, s).body_as("hi", BodyFormat::Markdown);
    assert_eq!(shape_of(&msg(Level::Info, "x")), Shape::Flat);
    assert_eq!(shape_of(&md("")), Shape::FlatMarkdown);
    assert_eq!(shape_of(&md("  ")), Shape::FlatMarkdown);
    assert_eq!(shape_of(&md("send* → bob · 1L")), Shape::Details);
    assert_eq!(
        shape_of(&msg(Level::Info, "").body("plain")),
        Shape::Details
    );
    assert_eq!(
        shape_of(&msg(Level::Info, "Edit f").body_as("+a", BodyFormat::Diff)),
        Shape::Details
    );
}

fn mixed() -> ViewState {
    run(&[
        one(1, msg(Level::Debug, "thinking").icon("💭")),
        one(2, msg(Level::Info, "Read a.rs").icon("📖")),
        one(3, msg(Level::Warn, "stderr: careful")),
        one(4, msg(Level::Error, "boom").icon("✗")),
        one(
            5,
            msg(Level::Info, "run* $ cargo test")
                .icon("🖥️")
                .body("ok\nFAILED x"),
        ),
        one(6, msg(Level::Info, "Read b.rs").icon("📖")),
    ])
}

#[test]
fn level_filter_hides_levels() {
    let mut s = mixed();
    set_filter(
        &mut s,
        Filter {
            levels: [false, true, false, false],
            ..Filter::default()
        },
    );
    assert_eq!(
        summaries(&s),
        ["Read a.rs", "run* $ cargo test", "Read b.rs"]
    );
    assert_eq!(s.len(), 6);
}

#[test]
fn tool_filter_shows_calls_of_one_tool() {
    let mut s = mixed();
    set_filter(
        &mut s,
        Filter {
            tool: Some("Read".into()),
            ..Filter::default()
        },
    );
    assert_eq!(summaries(&s), ["Read a.rs", "Read b.rs"]);
    assert_eq!(s.tools(), ["Read", "run*"]);
}

#[test]
fn the_rows_of_one_tool_share_its_name() {
    let s = mixed();
    let reads: Vec<&Arc<str>> = s
        .rows()
        .filter_map(|r| r.tool.as_ref())
        .filter(|t| &***t == "Read")
        .collect();
    assert_eq!(reads.len(), 2);
    assert!(Arc::ptr_eq(reads[0], reads[1]));
}

#[test]
fn search_matches_summary_and_body_ignoring_case() {
    let mut s = mixed();
    set_filter(
        &mut s,
        Filter {
            query: "failed".into(),
            ..Filter::default()
        },
    );
    assert_eq!(summaries(&s), ["run* $ cargo test"]);
    set_filter(
        &mut s,
        Filter {
            query: "READ".into(),
            ..Filter::default()
        },
    );
    assert_eq!(summaries(&s), ["Read a.rs", "Read b.rs"]);
}

#[test]
fn filter_applies_to_rows_appended_later() {
    let mut s = mixed();
    set_filter(
        &mut s,
        Filter {
            levels: [false, false, false, true],
            ..Filter::default()
        },
    );
    apply(&mut s, &one(7, msg(Level::Info, "hidden")));
    apply(&mut s, &one(8, msg(Level::Error, "shown")));
    assert_eq!(summaries(&s), ["boom", "shown"]);
}

#[test]
fn clearing_a_filter_shows_everything_again() {
    let mut s = mixed();
    set_filter(
        &mut s,
        Filter {
            query: "zzz".into(),
            ..Filter::default()
        },
    );
    assert_eq!(s.visible_len(), 0);
    set_filter(&mut s, Filter::default());
    assert_eq!(s.visible_len(), 6);
}

#[test]
fn coalescing_a_hidden_last_row_keeps_visible_list_right() {
    let mut s = run(&[one(1, msg(Level::Info, "x")), tick(2, 1)]);
    set_filter(
        &mut s,
        Filter {
            levels: [false, true, true, true],
            ..Filter::default()
        },
    );
    apply(&mut s, &tick(3, 2));
    assert_eq!(summaries(&s), ["x"]);
    assert_eq!(s.len(), 2);
    assert_eq!(s.layout().len(), 1);
}

#[test]
fn counts_follow_coalescing() {
    let s = run(&[tick(1, 1), tick(2, 2), one(3, msg(Level::Error, "e"))]);
    assert_eq!(s.counts(), [1, 0, 0, 1]);
}

#[test]
fn next_problem_walks_warnings_and_errors() {
    let s = mixed();
    assert_eq!(s.next_problem(None, true), Some(2));
    assert_eq!(s.next_problem(Some(2), true), Some(3));
    assert_eq!(s.next_problem(Some(3), true), None);
    assert_eq!(s.next_problem(None, false), Some(3));
    assert_eq!(s.next_problem(Some(3), false), Some(2));
    assert_eq!(s.next_problem(Some(2), false), None);
}

#[test]
fn position_of_seq_finds_first_row_of_envelope() {
    let s = run(&[
        env(1, 1.0, vec![msg(Level::Info, "a")]),
        env(5, 2.0, vec![msg(Level::Info, "b"), msg(Level::Info, "c")]),
    ]);
    assert_eq!(s.position_of_seq(5), Some(1));
    assert_eq!(s.position_of_seq(1), Some(0));
    assert_eq!(s.position_of_seq(3), None);
    assert_eq!(s.position_of_seq(9), None);
}

#[test]
fn prepend_adds_an_older_page_in_front() {
    let mut s = run(&[one(10, msg(Level::Info, "new"))]);
    // History pages come newest first.
    prepend(
        &mut s,
        &[one(9, msg(Level::Info, "b")), one(8, msg(Level::Info, "a"))],
    );
    assert_eq!(summaries(&s), ["a", "b", "new"]);
    assert_eq!(s.seq_range(), (Some(8), Some(10)));
}

#[test]
fn prepend_ignores_envelopes_already_held() {
    let mut s = run(&[one(5, msg(Level::Info, "x")), one(6, msg(Level::Info, "y"))]);
    prepend(
        &mut s,
        &[
            one(6, msg(Level::Info, "dup")),
            one(5, msg(Level::Info, "dup")),
            one(4, msg(Level::Info, "w")),
        ],
    );
    assert_eq!(summaries(&s), ["w", "x", "y"]);
}

#[test]
fn prepend_into_empty_view_then_live_continues() {
    let mut s = ViewState::default();
    prepend(
        &mut s,
        &[one(2, msg(Level::Info, "b")), one(1, msg(Level::Info, "a"))],
    );
    apply(&mut s, &one(2, msg(Level::Info, "b again")));
    apply(&mut s, &one(3, msg(Level::Info, "c")));
    assert_eq!(summaries(&s), ["a", "b", "c"]);
}

#[test]
fn prepend_coalesces_across_the_seam() {
    let mut s = run(&[tick(3, 30), one(4, msg(Level::Info, "x"))]);
    prepend(&mut s, &[tick(2, 20), tick(1, 10)]);
    assert_eq!(summaries(&s), ["thinking… ~30 tokens", "x"]);
}

#[test]
fn prepend_pairs_a_held_turn_end_with_an_older_start() {
    let mut s = run(&[
        env(5, 50.0, vec![msg(Level::Info, "x")]),
        env(6, 70.0, vec![msg(Level::Info, "turn ok").icon("✅")]),
    ]);
    prepend(
        &mut s,
        &[env(4, 40.0, vec![msg(Level::Info, "TURN ← a").icon("◆")])],
    );
    assert_eq!(
        s.visible_row(2).unwrap().turn.as_deref().copied(),
        Some(TurnTime::End {
            ts: 70.0,
            dur: Some(30.0)
        })
    );
}

#[test]
fn prepend_keeps_filters() {
    let mut s = run(&[one(5, msg(Level::Error, "e"))]);
    set_filter(
        &mut s,
        Filter {
            levels: [false, false, false, true],
            ..Filter::default()
        },
    );
    prepend(
        &mut s,
        &[
            one(4, msg(Level::Info, "i")),
            one(3, msg(Level::Error, "old e")),
        ],
    );
    assert_eq!(summaries(&s), ["old e", "e"]);
}

#[test]
fn bounds_drop_the_oldest_rows() {
    let mut s = ViewState::new(10);
    for i in 1..=25 {
        apply(&mut s, &one(i, msg(Level::Info, &i.to_string())));
    }
    assert!(s.len() <= 10, "{}", s.len());
    assert_eq!(summaries(&s).last().map(String::as_str), Some("25"));
    let first: u64 = summaries(&s)[0].parse().unwrap();
    assert_eq!(s.seq_range(), (Some(first), Some(25)));
    assert_eq!(s.layout().len(), s.visible_len());
    assert_eq!(s.counts()[1], s.len());
}

#[test]
fn bounds_hold_with_a_tiny_limit() {
    let mut s = ViewState::new(0);
    apply(&mut s, &one(1, msg(Level::Info, "a")));
    apply(&mut s, &one(2, msg(Level::Info, "b")));
    assert_eq!(summaries(&s), ["b"]);
}

#[test]
fn heights_start_estimated_and_take_measurements() {
    let mut s = run(&[one(1, msg(Level::Info, "a")), one(2, msg(Level::Info, "b"))]);
    assert_eq!(s.layout().total(), f64::from(2.0 * LINE_PX));
    assert!(s.set_height(1, 45.0));
    assert!(!s.set_height(1, 45.2));
    assert_eq!(s.layout().offset(2), f64::from(LINE_PX + 45.0));
    assert!(!s.set_height(7, 10.0));
}

#[test]
fn measured_heights_survive_a_filter_change() {
    let mut s = run(&[one(1, msg(Level::Info, "a")), one(2, msg(Level::Warn, "b"))]);
    s.set_height(1, 60.0);
    set_filter(
        &mut s,
        Filter {
            levels: [true, false, true, true],
            ..Filter::default()
        },
    );
    assert_eq!(s.layout().total(), 60.0);
}

#[test]
fn open_rows_are_estimated_taller() {
    let body = (0..10)
        .map(|i| format!("line {i}"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut s = run(&[one(1, msg(Level::Info, "run* $ x").icon("🖥️").body(body))]);
    let closed = s.layout().total();
    s.set_expand(true);
    assert!(s.layout().total() > closed);
}

#[test]
fn expand_preference_and_hand_toggles() {
    let mut s = run(&[one(1, msg(Level::Info, "x").body("b"))]);
    let uid = s.visible_row(0).unwrap().uid;
    assert!(!s.is_open(uid));
    s.set_open(uid, true);
    assert!(s.is_open(uid));
    s.set_expand(false);
    assert!(!s.is_open(uid), "expand/collapse all resets hand toggles");
    s.set_expand(true);
    assert!(s.is_open(uid));
    s.set_open(uid, false);
    assert!(!s.is_open(uid));
}

#[test]
fn whole_body_on_request_kept_per_row_and_through_expand_all() {
    let mut s = run(&[
        one(1, msg(Level::Info, "a").body("big")),
        one(2, msg(Level::Info, "b").body("big")),
    ]);
    let (a, b) = (s.visible_row(0).unwrap().uid, s.visible_row(1).unwrap().uid);
    assert!(!s.is_full(a) && !s.is_full(b));
    s.show_full(a);
    assert!(s.is_full(a) && !s.is_full(b));
    s.set_expand(true);
    assert!(s.is_full(a), "expand/collapse all leaves it");
}

#[test]
fn evicted_rows_forget_their_whole_body_request() {
    let mut s = ViewState::new(10);
    apply(&mut s, &one(1, msg(Level::Info, "first").body("big")));
    let uid = s.visible_row(0).unwrap().uid;
    s.show_full(uid);
    for seq in 2..=12 {
        apply(&mut s, &one(seq, msg(Level::Info, "more")));
    }
    assert!(s.visible_row(0).unwrap().uid != uid, "evicted");
    assert!(!s.is_full(uid));
}

#[test]
fn clear_keeps_filter_and_preference() {
    let mut s = mixed();
    s.set_expand(true);
    set_filter(
        &mut s,
        Filter {
            query: "read".into(),
            ..Filter::default()
        },
    );
    clear(&mut s);
    assert!(s.is_empty());
    assert!(s.expand());
    assert_eq!(s.filter().query, "read");
    apply(&mut s, &one(1, msg(Level::Info, "Read z")));
    apply(&mut s, &one(2, msg(Level::Info, "other")));
    assert_eq!(summaries(&s), ["Read z"]);
}

#[test]
fn in_flight_follows_turns() {
    let mut s = run(&[one(1, msg(Level::Info, "TURN ← a").icon("◆"))]);
    assert!(s.in_flight());
    apply(&mut s, &one(2, msg(Level::Info, "turn ok").icon("✅")));
    assert!(!s.in_flight());
}

#[test]
fn rows_whose_body_stayed_in_the_file_keep_their_shape_and_height() {
    let whole = vec![
        one(1, msg(Level::Info, "3l · out").body("a\nb\nc")),
        env(
            2,
            2.0,
            vec![
                msg(Level::Info, ""),
                msg(Level::Info, "").body_as("x\ny", BodyFormat::Markdown),
            ],
        ),
    ];
    let mut meta = whole.clone();
    let lazy = crate::worker::protocol::row_batch::strip(&mut meta);
    assert_eq!(lazy, vec![(1, 0, 3), (2, 1, 2)]);
    let held = run(&whole);
    let mut s = ViewState::default();
    s.set_expand(true);
    let mut h = held.clone();
    h.set_expand(true);
    for e in meta {
        apply_lazy(&mut s, e, &lazy);
    }
    for n in 0..3 {
        let (a, b) = (s.visible_row(n).unwrap(), h.visible_row(n).unwrap());
        assert_eq!(a.shape(), b.shape(), "row {n}");
        assert_eq!(s.estimate(a), h.estimate(b), "row {n}");
        assert_eq!(a.msg.body, None);
    }
    assert_eq!(s.visible_row(0).unwrap().lazy, Some(3));
    assert_eq!(s.visible_row(1).unwrap().lazy, None);
    assert_eq!(s.layout().total(), h.layout().total());
}

#[test]
fn a_search_shows_the_rows_the_worker_found_in_bodies_left_in_the_file() {
    let mut meta = vec![
        one(1, msg(Level::Info, "first").body("needle here")),
        one(2, msg(Level::Info, "second").body("hay")),
        one(3, msg(Level::Info, "needle in the summary")),
    ];
    let lazy = crate::worker::protocol::row_batch::strip(&mut meta);
    let mut s = ViewState::default();
    for e in meta {
        apply_lazy(&mut s, e, &lazy);
    }
    set_filter(
        &mut s,
        Filter {
            query: "NEEDLE".into(),
            ..Filter::default()
        },
    );
    assert_eq!(summaries(&s), ["needle in the summary"]);
    assert!(s.add_body_hits(&[(1, 0)]));
    assert_eq!(summaries(&s), ["first", "needle in the summary"]);
    // A hit not held (yet) changes nothing now, and shows its row when it comes.
    assert!(!s.add_body_hits(&[(4, 0)]));
    let mut more = vec![one(4, msg(Level::Info, "fourth").body("x"))];
    let lazy = crate::worker::protocol::row_batch::strip(&mut more);
    apply_lazy(&mut s, more.remove(0), &lazy);
    assert_eq!(summaries(&s), ["first", "needle in the summary", "fourth"]);
    // Another query forgets the hits.
    set_filter(
        &mut s,
        Filter {
            query: "second".into(),
            ..Filter::default()
        },
    );
    assert_eq!(summaries(&s), ["second"]);
    set_filter(
        &mut s,
        Filter {
            query: "needle".into(),
            ..Filter::default()
        },
    );
    assert_eq!(summaries(&s), ["needle in the summary"]);
}

// Issue 21: subagents nested, turn times, turns in flight, direction.

fn sub(seq: u64, parent: u64, m: TermMsg) -> TermEnvelope {
    TermEnvelope {
        parent: Some(parent),
        ..one(seq, m)
    }
}

fn call(summary: &str) -> TermMsg {
    msg(Level::Info, summary).icon("🤖")
}

#[test]
fn a_subagents_rows_are_one_block_under_its_call() {
    let envs = [
        one(3, call("Agent Survey the repo [general-purpose]")),
        one(4, msg(Level::Info, "main goes on")),
        sub(5, 3, msg(Level::Info, "Read README.md").icon("📖")),
        sub(6, 3, msg(Level::Info, "8l · # tinycalc…").icon("←")),
        one(7, msg(Level::Info, "main again")),
        // The subagent's own transcript, read after the main file: still under its call.
        sub(9, 3, call("Task Look deeper [Explore]")),
        sub(10, 9, msg(Level::Info, "Grep TODO").icon("🔍")),
        sub(11, 3, msg(Level::Info, "turn ok").icon("✅")),
    ];
    // Closed by default (the expand preference): the call and the main agent's rows.
    let mut s = run(&envs);
    assert_eq!(
        summaries(&s),
        [
            "Agent Survey the repo [general-purpose]",
            "main goes on",
            "main again"
        ]
    );
    let call_row = s.visible_row(0).unwrap().clone();
    assert_eq!(
        s.block_of(&call_row),
        Some((
            "general-purpose · Survey the repo · 2 tool calls · 6.0s · ✓ done".to_owned(),
            false
        ))
    );
    assert_eq!(s.block_of(s.visible_row(1).unwrap()), None);
    s.set_block_open(3, true);
    let open = [
        "Agent Survey the repo [general-purpose]",
        "Read README.md",
        "8l · # tinycalc…",
        "Task Look deeper [Explore]",
        "turn ok",
        "main goes on",
        "main again",
    ];
    assert_eq!(summaries(&s), open);
    let depths: Vec<u32> = (0..s.visible_len())
        .map(|n| s.visible_row(n).unwrap().depth)
        .collect();
    assert_eq!(depths, [0, 1, 1, 1, 1, 0, 0]);
    // The nested subagent's block opens on its own, one step deeper.
    s.set_block_open(9, true);
    assert_eq!(summaries(&s)[4], "Grep TODO");
    assert_eq!(s.visible_row(4).unwrap().depth, 2);
    // The expand preference opens every block.
    let mut e = ViewState::default();
    e.set_expand(true);
    for env in &envs {
        apply(&mut e, env);
    }
    assert_eq!(e.visible_len(), 8);
    // A permalink finds its row wherever it is shown.
    assert_eq!(e.position_of_seq(4), Some(6));
    assert_eq!(e.position_of_seq(10), Some(4));
    assert_eq!(e.position_from(8), Some(3));
    // Closing the block hides its rows, the nested ones too.
    e.set_block_open(3, false);
    assert_eq!(e.visible_len(), 3);
}

#[test]
fn nested_rows_of_a_batch_are_shown_once_it_is_settled() {
    let mut s = ViewState::default();
    s.set_expand(true);
    for e in [
        one(1, call("Agent a [x]")),
        sub(2, 1, msg(Level::Info, "in")),
        one(3, msg(Level::Info, "main")),
    ] {
        apply_lazy(&mut s, e, &[]);
    }
    s.settle();
    assert_eq!(summaries(&s), ["Agent a [x]", "in", "main"]);
    // A subagent's tick does not replace the main agent's with the same key, nor the reverse.
    let mut t = run(&[tick(1, 1)]);
    apply(
        &mut t,
        &sub(
            2,
            1,
            msg(Level::Debug, "thinking… ~2 tokens")
                .icon("🧠")
                .coalesce("thinking-tok"),
        ),
    );
    assert_eq!(t.len(), 2);
}

#[test]
fn a_turn_end_that_says_its_own_duration_shows_that_not_the_gap() {
    // Stored stream-json: the init and the result came in one batch (the same arrival time);
    // the result says 310ms.
    let s = run(&[
        env(1, 100.0, vec![msg(Level::Info, "TURN ← user").icon("◆")]),
        env(
            2,
            100.0,
            vec![msg(Level::Info, "turn ok · 310ms").icon("✅")],
        ),
    ]);
    assert_eq!(
        s.visible_row(1).unwrap().turn.as_deref().copied(),
        Some(TurnTime::End {
            ts: 100.0,
            dur: None
        })
    );
    assert!(!s.in_flight());
}

#[test]
fn overlapping_runs_pair_first_in_first_out_and_both_keep_the_banner_busy() {
    let mut s = run(&[
        env(1, 0.0, vec![msg(Level::Info, "TURN ← user").icon("◆")]),
        env(2, 5.0, vec![msg(Level::Info, "TURN ← task").icon("◆")]),
    ]);
    assert_eq!(s.turns_in_flight(), 2);
    apply(
        &mut s,
        &env(3, 8.0, vec![msg(Level::Info, "turn ok").icon("✅")]),
    );
    assert!(s.in_flight());
    apply(
        &mut s,
        &env(4, 9.0, vec![msg(Level::Info, "turn ok").icon("✅")]),
    );
    assert!(!s.in_flight());
    let durs: Vec<Option<f64>> = [2, 3]
        .iter()
        .map(
            |&n| match s.visible_row(n).unwrap().turn.as_deref().copied() {
                Some(TurnTime::End { dur, .. }) => dur,
                _ => None,
            },
        )
        .collect();
    assert_eq!(durs, [Some(8.0), Some(4.0)]);
}

#[test]
fn an_interruption_ends_its_turn_with_its_time() {
    let s = run(&[
        env(1, 10.0, vec![msg(Level::Info, "TURN ← user").icon("◆")]),
        env(
            2,
            13.0,
            vec![msg(Level::Warn, "interrupted by user").icon("⏹")],
        ),
    ]);
    assert_eq!(
        s.visible_row(1).unwrap().turn.as_deref().copied(),
        Some(TurnTime::End {
            ts: 13.0,
            dur: Some(3.0)
        })
    );
    assert!(!s.in_flight());
}

#[test]
fn a_subagents_turns_are_not_the_sessions() {
    let mut s = run(&[
        env(1, 0.0, vec![msg(Level::Info, "TURN ← user").icon("◆")]),
        one(2, call("Agent a [x]")),
        sub(3, 2, msg(Level::Info, "TURN ← agent").icon("◆")),
        sub(4, 2, msg(Level::Info, "turn ok").icon("✅")),
    ]);
    assert_eq!(s.turns_in_flight(), 1);
    apply(
        &mut s,
        &env(5, 6.0, vec![msg(Level::Info, "turn ok").icon("✅")]),
    );
    assert!(!s.in_flight());
    assert_eq!(
        s.rows().last().unwrap().turn.as_deref().copied(),
        Some(TurnTime::End {
            ts: 6.0,
            dur: Some(6.0)
        })
    );
}

#[test]
fn a_call_goes_out_and_its_result_comes_in() {
    for (m, want) in [
        (
            msg(Level::Info, "Read a.rs").icon("📖"),
            Some(Direction::Out),
        ),
        (msg(Level::Info, "ok").icon("←"), Some(Direction::In)),
        (msg(Level::Info, "8l · out…").icon("←"), Some(Direction::In)),
        (msg(Level::Error, "boom").icon("✗"), None),
        (
            msg(Level::Info, "").body_as("text", BodyFormat::Markdown),
            None,
        ),
        (msg(Level::Info, "turn ok").icon("✅"), None),
    ] {
        assert_eq!(direction(&m), want, "{m:?}");
    }
    assert_ne!(Direction::Out.class(), Direction::In.class());
}

#[test]
fn a_conversation_reset_folds_the_rows_before_it_away() {
    let mut s = run(&[
        one(1, msg(Level::Info, "TURN ← user").icon("◆")),
        one(2, msg(Level::Info, "old answer")),
        one(3, msg(Level::Info, "⚙ conversation reset")),
        one(4, msg(Level::Info, "new")),
    ]);
    assert_eq!(summaries(&s), ["⚙ conversation reset", "new"]);
    let reset = s.visible_row(0).unwrap().clone();
    assert_eq!(
        s.block_of(&reset),
        Some(("earlier conversation · 2 rows".to_owned(), false))
    );
    s.toggle_block_at(0);
    assert_eq!(
        summaries(&s),
        ["TURN ← user", "old answer", "⚙ conversation reset", "new"]
    );
    // The toggle is on the reset row wherever it is shown.
    let at = s.position_of_seq(3).unwrap();
    s.toggle_block_at(at);
    assert_eq!(s.visible_len(), 2);
    // A debug row of the same words is no reset.
    let t = run(&[
        one(1, msg(Level::Info, "x")),
        one(2, msg(Level::Debug, "⚙ conversation reset")),
    ]);
    assert_eq!(t.visible_len(), 2);
}

/// Regression (issue 21): a stream-json subagent has no turn rows of its own, so its block
/// said "… running" after it had finished; the log's summary says how it ended, and the
/// block's line says so too (its own turn end, when it has one, still wins).
#[test]
fn a_blocks_end_comes_from_the_summary_when_its_rows_say_nothing() {
    use crate::model::nest::End;
    let envs = [
        one(3, call("Agent Survey the repo [general-purpose]")),
        sub(5, 3, msg(Level::Info, "Read README.md").icon("📖")),
        one(7, call("Agent Other [Explore]")),
        sub(8, 7, msg(Level::Info, "turn fail").icon("❌")),
    ];
    let mut s = run(&envs);
    let line = |s: &ViewState, n: usize| s.block_of(s.visible_row(n).unwrap()).unwrap().0;
    assert!(line(&s, 0).ends_with("… running"), "{}", line(&s, 0));
    s.set_subagent_ends(&[(3, End::Ok), (7, End::Ok)]);
    assert!(s.has_subagent_ends(&[(3, End::Ok), (7, End::Ok)]));
    assert!(line(&s, 0).ends_with("✓ done"), "{}", line(&s, 0));
    assert!(line(&s, 1).ends_with("✗ failed"), "{}", line(&s, 1));
    s.set_subagent_ends(&[(3, End::Interrupted)]);
    assert!(line(&s, 0).ends_with("⏹ interrupted"), "{}", line(&s, 0));
    s.set_subagent_ends(&[]);
    assert!(line(&s, 0).ends_with("… running"), "{}", line(&s, 0));
}

/// Regression (issue 24): every new summary of a log with subagents set their ends, and that
/// built the shown list again from every row held: a 1 GB Gemini recording (900,000 rows,
/// 12,000 subagents, a summary per chunk) spent 8 of its 11 s to open there. The ends change
/// the block lines only; the shown list, its order and its heights stay as they are.
#[test]
fn a_subagents_end_does_not_build_the_shown_list_again() {
    use crate::model::nest::End;
    let envs = [
        one(3, call("Agent Survey the repo [general-purpose]")),
        sub(5, 3, msg(Level::Info, "Read README.md").icon("📖")),
        one(7, msg(Level::Info, "after")),
    ];
    let mut s = run(&envs);
    let before = (s.generation(), s.visible_len(), s.layout().total());
    s.set_subagent_ends(&[(3, End::Ok)]);
    assert_eq!(
        (s.generation(), s.visible_len(), s.layout().total()),
        before
    );
    let line = s.block_of(s.visible_row(0).unwrap()).unwrap().0;
    assert!(line.ends_with("✓ done"), "{line}");
}

/// Regression (issue 24): a log read in bulk built its shown list again after every chunk
/// that held a subagent's row, a pass over every row held each time (2.5 s of the 7 s a
/// 1.16 GB transcript with 6,600 subagents took to open). Settled in bulk, the list is built
/// again a few times only, and at the end it is the list settled chunk by chunk.
#[test]
fn a_log_read_in_bulk_builds_its_shown_list_a_few_times() {
    // 400 chunks of 10 envelopes: a call, its subagent's rows, the main agent's.
    let mut envs = Vec::new();
    for c in 0..400u64 {
        let at = c * 10 + 1;
        envs.push(one(at, call("Agent Look [general-purpose]")));
        for k in 1..9 {
            envs.push(if k % 2 == 0 {
                sub(at + k, at, msg(Level::Info, "Read a.rs").icon("📖"))
            } else {
                one(at + k, msg(Level::Info, "main goes on"))
            });
        }
        envs.push(one(at + 9, msg(Level::Warn, "last")));
    }
    let chunks: Vec<&[TermEnvelope]> = envs.chunks(10).collect();
    let (mut each, mut bulk) = (ViewState::default(), ViewState::default());
    let (mut each_builds, mut bulk_builds) = (0, 0);
    for (i, chunk) in chunks.iter().enumerate() {
        let done = i + 1 == chunks.len();
        for (s, builds, settle) in [
            (&mut each, &mut each_builds, None),
            (&mut bulk, &mut bulk_builds, Some(done)),
        ] {
            let g = s.generation();
            for e in *chunk {
                apply_lazy(s, e.clone(), &[]);
            }
            match settle {
                None => s.settle(),
                Some(done) => s.settle_bulk(done),
            }
            *builds += usize::from(s.generation() != g);
        }
    }
    assert_eq!(each_builds, 400);
    assert!(bulk_builds <= 40, "{bulk_builds} builds");
    let shown = |s: &ViewState| -> Vec<u64> {
        (0..s.visible_len())
            .map(|n| s.visible_row(n).unwrap().seq.unwrap())
            .collect()
    };
    assert_eq!(shown(&bulk), shown(&each));
    assert_eq!(bulk.layout().total(), each.layout().total());
    // Closed blocks: the 1,600 subagent rows are under their calls.
    assert_eq!(bulk.visible_len(), 2400);
}

/// The worker takes out the rows the page would replace at once (`row_batch::push_kept`):
/// every run of three envelopes (none, one or two rows each, of growing rows, a plain one, a
/// turn start with a key, a subagent's) ends in the same page as the envelopes with rows
/// sent whole.
#[test]
fn rows_the_worker_drops_as_replaced_leave_the_same_page() {
    use crate::worker::protocol::row_batch::{push_kept, strip};
    let rows = [
        msg(Level::Info, "").body("a").coalesce("k1"),
        msg(Level::Info, "").body("a b").coalesce("k1"),
        msg(Level::Info, "").coalesce("k2"),
        msg(Level::Info, "plain"),
        msg(Level::Info, "TURN ← go").icon("◆").coalesce("k1"),
    ];
    let mut contents: Vec<Vec<TermMsg>> = vec![vec![]];
    for a in &rows {
        contents.push(vec![a.clone()]);
        for b in &rows {
            contents.push(vec![a.clone(), b.clone()]);
        }
    }
    let page = |envs: Vec<TermEnvelope>| {
        let mut envs = envs;
        let lazy = strip(&mut envs);
        let mut s = ViewState::default();
        for e in envs {
            apply_lazy(&mut s, e, &lazy);
        }
        s.settle();
        let rows: Vec<Row> = s
            .rows()
            .map(|r| Row {
                uid: 0,
                ..Row::clone(r)
            })
            .collect();
        let visible: Vec<_> = (0..s.visible_len())
            .map(|n| s.visible_row(n).map(|r| (r.seq, r.idx)))
            .collect();
        (rows, visible, s.tools().to_vec(), s.turns_in_flight())
    };
    let mut dropped = 0;
    for (i, a) in contents.iter().enumerate() {
        for (j, b) in contents.iter().enumerate() {
            for (k, c) in contents.iter().enumerate() {
                let parent = |n: usize| (n % 2 == 1).then_some(1);
                let envs: Vec<TermEnvelope> = [(a, i), (b, j), (c, k)]
                    .into_iter()
                    .enumerate()
                    .map(|(n, (msgs, at))| TermEnvelope {
                        parent: parent(at + n),
                        ..env(n as u64 + 2, n as f64, msgs.clone())
                    })
                    .collect();
                let mut fewer = Vec::new();
                for e in envs.iter().cloned() {
                    push_kept(&mut fewer, e);
                }
                let envs: Vec<TermEnvelope> =
                    envs.into_iter().filter(|e| !e.msgs.is_empty()).collect();
                dropped += envs.iter().map(|e| e.msgs.len()).sum::<usize>()
                    - fewer.iter().map(|e| e.msgs.len()).sum::<usize>();
                assert_eq!(page(fewer), page(envs.clone()), "{envs:?}");
            }
        }
    }
    assert!(dropped > 1000, "{dropped}");
}
