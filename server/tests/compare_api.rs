//! `GET /api/compare/{a}/{b}` and `/compare/{a}/{b}` (issue 48): two stored sessions aligned
//! for the compare page, through the real router, on the backend `HIVETERM_TEST_DB` picks.

mod common;

use std::process::Command;

use common::{TestDb, call, call_json, spawn_server};
use serde_json::Value;

const FAILING: &str = "gemini-0.61.0/gemini.failing_command.stream.jsonl";
const PASSING: &str = "gemini-0.61.0/gemini.shell_command.stream.jsonl";

/// `hiveterm diff A B --json` on the two fixtures' logs.
fn diff_logs(a: &str, b: &str) -> Value {
    let path = |rel: &str| common::repo().join("fixtures").join(rel);
    let out = Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .arg("diff")
        .arg(path(a))
        .arg(path(b))
        .arg("--json")
        .output()
        .unwrap();
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

async fn stored(db: &TestDb) -> std::net::SocketAddr {
    let addr = spawn_server(db.state.clone()).await;
    for (id, rel) in [("failing", FAILING), ("passing", PASSING)] {
        let path = format!("/api/sessions/{id}/events");
        let (status, v) = call_json(addr, "POST", &path, common::fixture(rel)).await;
        assert!(status.is_success(), "{v}");
    }
    addr
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_48_the_api_aligns_every_step_of_two_stored_sessions() {
    let db = TestDb::new();
    let addr = stored(&db).await;
    let (status, v) = call_json(addr, "GET", "/api/compare/failing/passing", vec![]).await;
    assert_eq!(status, 200, "{v}");
    let logs = diff_logs(FAILING, PASSING);
    // The same head as `hiveterm diff --json` (the seqs are the sessions', which are the
    // logs' lines here).
    for key in ["first_divergence", "divergences", "differences"] {
        assert_eq!(v[key], logs[key], "{key}");
    }
    assert_eq!(v["summary"]["a"]["tool_errors"], 4);
    let pairs = v["pairs"].as_array().unwrap();
    assert_eq!(v["pairs_total"], pairs.len());
    assert_eq!(v["truncated"], false);
    // Every aligned pair, not only those around the divergences: each step of each run once.
    let seqs = |side: &str| -> Vec<u64> {
        pairs
            .iter()
            .filter_map(|p| p[side]["seq"].as_u64())
            .collect()
    };
    let (a, b) = (seqs("a"), seqs("b"));
    assert!(a.windows(2).all(|w| w[0] < w[1]), "{a:?}");
    assert!(b.windows(2).all(|w| w[0] < w[1]), "{b:?}");
    assert!(pairs.len() >= logs["steps"].as_array().unwrap().len());
    assert!(
        pairs.iter().any(|p| p["why"].is_null()),
        "a pair that agrees"
    );
    // The list of divergences points into the pairs, the first being the first divergence.
    let list = v["divergence_list"].as_array().unwrap();
    assert_eq!(list.len() as u64, v["divergences"].as_u64().unwrap());
    for d in list {
        let p = &pairs[d["pair"].as_u64().unwrap() as usize];
        assert_eq!(p["why"], d["why"], "{d}");
        assert_eq!(p["turn"], d["turn"], "{d}");
    }
    assert_eq!(list[0]["a"], v["first_divergence"]["a"]);
    assert_eq!(list[0]["b"], v["first_divergence"]["b"]);
    // Turns say where their pairs start.
    let turns = v["turns"].as_array().unwrap();
    assert_eq!(turns[0]["from"], 0);
    let counted: u64 = turns.iter().map(|t| t["pairs"].as_u64().unwrap()).sum();
    assert_eq!(counted, pairs.len() as u64);
    assert_eq!(v["max_pairs"], hiveterm::compare::api::MAX_PAIRS);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_48_a_session_with_itself_has_no_divergence() {
    let db = TestDb::new();
    let addr = stored(&db).await;
    let (status, v) = call_json(addr, "GET", "/api/compare/passing/passing", vec![]).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["first_divergence"], Value::Null);
    assert_eq!(v["divergence_list"], serde_json::json!([]));
    assert!(
        v["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["why"].is_null())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_48_unknown_and_malformed_sessions_and_the_page_route() {
    let db = TestDb::new();
    let addr = stored(&db).await;
    let (status, v) = call_json(addr, "GET", "/api/compare/failing/nope", vec![]).await;
    assert_eq!(
        (status.as_u16(), v["error"].as_str()),
        (404, Some("no session nope"))
    );
    let (status, _) = call_json(addr, "GET", "/api/compare/failing/.bad", vec![]).await;
    assert_eq!(status, 400);
    // The page's route: `index.html` when built; without a built page, a note linking the API.
    let (status, body) = call(addr, "GET", "/compare/failing/passing", vec![]).await;
    assert_eq!(status, 200);
    let body = String::from_utf8(body).unwrap();
    assert!(body.contains("/api/compare/failing/passing"), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_48_the_api_asks_for_the_token() {
    let config = hiveterm::Config {
        token: Some("secret".into()),
        ..Default::default()
    };
    let db = TestDb::with(config, 4);
    let addr = spawn_server(db.state.clone()).await;
    let (status, _) = call(addr, "GET", "/api/compare/a/b", vec![]).await;
    assert_eq!(status, 401);
    let (status, _) = call(addr, "GET", "/api/compare/a/b?token=secret", vec![]).await;
    assert_eq!(status, 404);
}

/// Past `MAX_PAIRS` aligned pairs, the answer holds the first ones and says so; the turns
/// and divergences past the cut are counted, not listed.
#[test]
fn issue_48_the_pairs_sent_are_capped_and_the_answer_says_so() {
    use classifier::compare::{Outcome, Run, Step, StepKind, Turn};
    use hiveterm::compare::{Side, api::MAX_PAIRS, api::answer_json};
    let steps = |n: usize, tool: &str| -> Vec<Step> {
        (0..n as u64)
            .map(|i| Step {
                seq: i + 1,
                kind: StepKind::Tool(tool.into()),
                target: format!("{i}"),
                outcome: Outcome::Ok,
            })
            .collect()
    };
    let run = |tool: &str, extra: usize| Run {
        turns: vec![
            Turn {
                seq: None,
                prompt: "go".into(),
                steps: steps(MAX_PAIRS + 5, "Bash"),
            },
            Turn {
                seq: None,
                prompt: "again".into(),
                steps: steps(extra, tool),
            },
        ],
    };
    let side = |name: &str, run: Run| Side::of_log(name.into(), Default::default(), run);
    let a = side("a", run("Read", 3));
    let b = side("b", run("Bash", 3));
    let v: Value = serde_json::from_str(&answer_json(&a, &b)).unwrap();
    assert_eq!(v["pairs"].as_array().unwrap().len(), MAX_PAIRS);
    assert_eq!(v["truncated"], true);
    assert_eq!(
        v["pairs_total"].as_u64(),
        Some(2 * 3 + MAX_PAIRS as u64 + 5)
    );
    // The second turn's divergences (Read faces no Bash) are counted, past the cut.
    assert!(
        v["divergences"].as_u64().unwrap() >= 3,
        "{}",
        v["divergences"]
    );
    assert_eq!(v["divergence_list"], serde_json::json!([]));
    assert_eq!(v["turns"][1]["from"], MAX_PAIRS);
    assert_eq!(v["first_divergence"]["turn"], 2);
}
