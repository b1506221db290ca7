use serde_json::json;

use super::*;
use crate::model::state::apply;
use classifier::{Level, TermEnvelope, TermMsg};

#[test]
fn elapsed_counts_whole_seconds_and_never_backwards() {
    for (since, now, want) in [
        (10.0, 10.0, "0s"),
        (10.0, 10.9, "0s"),
        (10.0, 22.4, "12s"),
        (10.0, 69.9, "59s"),
        (10.0, 75.0, "1m 05s"),
        (0.0, 7380.0, "2h 03m"),
        (10.0, 5.0, "0s"),
    ] {
        assert_eq!(elapsed(since, now), want, "{since} → {now}");
    }
}

#[test]
fn running_tools_are_read_from_the_state() {
    let state = |v| serde_json::from_value::<contract::State>(v).unwrap();
    let tools = running_tools(&state(json!({"active_tools": [
        {"id": "a", "name": "Bash", "since": 100.0},
        {"id": "b", "name": "Grep"},
    ]})));
    assert_eq!(
        tools,
        vec![
            RunningTool {
                name: "Bash".into(),
                since: Some(100.0)
            },
            RunningTool {
                name: "Grep".into(),
                since: None
            },
        ]
    );
    assert_eq!(tools_text(&tools, 103.5), ["Bash 3s", "Grep"]);
    assert!(running_tools(&state(json!({}))).is_empty());
}

fn env(seq: u64, ts: f64, msg: TermMsg) -> TermEnvelope {
    TermEnvelope {
        ts: Some(ts),
        seq: Some(seq),
        parent: None,
        msgs: vec![msg],
    }
}

/// The compacting status row, as the classifier makes it from Claude Code's
/// `{"type":"system","subtype":"status","status":"compacting"}`.
fn compacting_row() -> TermMsg {
    let line = br#"{"type":"system","subtype":"status","status":"compacting","session_id":"s"}"#;
    let mut ctx = classifier::ClassifyCtx::new();
    let env = classifier::classify_log_event(&classifier::parse_line(line), &mut ctx);
    env.msgs.into_iter().next().unwrap()
}

#[test]
fn a_compaction_counts_while_its_row_is_the_newest() {
    let mut state = ViewState::new(1000);
    assert_eq!(compacting(&state), None);
    apply(
        &mut state,
        &env(1, 50.0, TermMsg::new(Level::Info, "hello")),
    );
    assert_eq!(compacting(&state), None);
    apply(&mut state, &env(2, 100.0, compacting_row()));
    let (uid, since) = compacting(&state).expect("compacting");
    assert_eq!(since, 100.0);
    assert_eq!(compact_text(since, 112.2), "⚙ compact · 12s…");
    assert!(state.rows().any(|r| r.uid == uid));
    // The next status row replaces it: the compaction is over.
    let done = TermMsg::new(Level::Debug, "⚙ status · compact success").coalesce("status");
    apply(&mut state, &env(3, 101.0, done));
    assert_eq!(compacting(&state), None);
    // A compacting row followed by any other row is over too.
    apply(&mut state, &env(4, 102.0, compacting_row()));
    assert!(compacting(&state).is_some());
    apply(
        &mut state,
        &env(5, 103.0, TermMsg::new(Level::Info, "text")),
    );
    assert_eq!(compacting(&state), None);
}
