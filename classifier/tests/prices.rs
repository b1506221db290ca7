//! Issue 50: what a session cost — the cost a log states wins, else the estimate from the
//! price table, else "unknown" with the model named; on hand-made logs of known figures and on
//! the real corpora.

use classifier::prices::Prices;
use classifier::{CostSource, LogClassifier, Summary};

fn read(rel: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn summarize(bytes: &[u8]) -> Summary {
    let mut log = LogClassifier::new().with_summary();
    for chunk in bytes.chunks(1021) {
        log.feed(chunk, |_| {});
    }
    log.finish(|_| {});
    log.summary().expect("made with_summary")
}

fn check(rel: &str, source: CostSource, cost: Option<f64>) -> Summary {
    let s = summarize(&read(rel));
    assert_eq!(s.cost_source, Some(source), "{rel}: {s:?}");
    match (s.cost_usd, cost) {
        (Some(got), Some(want)) => {
            assert!((got - want).abs() <= want * 1e-6, "{rel}: {got} != {want}");
        }
        (got, want) => assert_eq!(got, want, "{rel}"),
    }
    s
}

#[test]
fn issue_50_hand_made_logs_of_the_contract() {
    // 2,000,000 in, 100,000 out, 1,000,000 cache read, 200,000 cache write, in two messages.
    let s = check(
        "tests/prices/claude-sonnet-4-5.transcript.jsonl",
        CostSource::Estimated,
        Some(8.55),
    );
    assert_eq!(
        (
            s.input_tokens,
            s.output_tokens,
            s.cache_read_tokens,
            s.cache_creation_tokens
        ),
        (2_000_000, 100_000, 1_000_000, 200_000)
    );
    assert_eq!(s.agent.as_deref(), Some("claude-code"));
    // 1,000,000 in of which 400,000 cached, 50,000 out.
    let s = check(
        "tests/prices/codex-gpt-4.1.rollout.jsonl",
        CostSource::Estimated,
        Some(1.80),
    );
    assert_eq!((s.input_tokens, s.cache_read_tokens), (1_000_000, 400_000));
    assert_eq!(s.tokens_by_model[0].input, 600_000);
    let json = serde_json::to_string(&s).unwrap();
    assert!(json.contains(r#""cost_source":"estimated""#), "{json}");
}

/// A message written over several lines (its usage on each) counts once.
#[test]
fn issue_50_a_message_written_again_counts_once() {
    let text = String::from_utf8(read("tests/prices/claude-sonnet-4-5.transcript.jsonl")).unwrap();
    let doubled: String = text
        .lines()
        .flat_map(|l| [l, l])
        .map(|l| format!("{l}\n"))
        .collect();
    let s = summarize(doubled.as_bytes());
    assert!((s.cost_usd.unwrap() - 8.55).abs() < 1e-9, "{s:?}");
}

/// The real Claude Code transcripts state their cost: it wins. Without its `cost-state`
/// lines, the estimate of the same tokens is what the log stated (the table has the price
/// Claude Code used).
#[test]
fn issue_50_stated_beats_estimated_on_the_real_corpus() {
    for name in [
        "basic_markdown",
        "file_tools",
        "mcp_tools",
        "tool_errors",
        "api_retry",
        "partial_messages",
    ] {
        let rel = format!("../fixtures/claude-code-2.1.332/{name}.transcript.jsonl");
        let bytes = read(&rel);
        let stated = summarize(&bytes);
        assert_eq!(stated.cost_source, Some(CostSource::Stated), "{name}");
        let text = String::from_utf8(bytes).unwrap();
        let without: String = text
            .lines()
            .filter(|l| !l.contains(r#""type":"cost-state""#))
            .map(|l| format!("{l}\n"))
            .collect();
        let estimated = summarize(without.as_bytes());
        assert_eq!(estimated.cost_source, Some(CostSource::Estimated), "{name}");
        let (a, b) = (stated.cost_usd.unwrap(), estimated.cost_usd.unwrap());
        assert!(
            (a - b).abs() <= a * 0.02,
            "{name}: stated {a}, estimated {b}"
        );
    }
}

/// Codex never states a cost: its gpt-5.5 rollouts are estimated; a model of no price is
/// "unknown", by name.
#[test]
fn issue_50_codex_estimated_and_unknown_named() {
    let s = summarize(&read(
        "../fixtures/codex-0.171.0/codex_apply_patch.session.jsonl",
    ));
    assert_eq!(s.cost_source, Some(CostSource::Estimated), "{s:?}");
    assert!(s.cost_usd.unwrap() > 0.0);
    let s = summarize(&read(
        "../fixtures/codex-0.171.0/codex_code_mode.session.jsonl",
    ));
    assert_eq!(s.cost_source, Some(CostSource::Unknown), "{s:?}");
    assert_eq!(s.cost_usd, None);
    assert!(
        s.unpriced_models.iter().any(|m| m == "gpt-6.2-sol"),
        "{s:?}"
    );
}

#[test]
fn issue_50_user_prices_settle_again() {
    let mut s = summarize(&read("tests/prices/codex-gpt-4.1.rollout.jsonl"));
    let own = Prices::builtin().with(
        "gpt-4.1",
        vec![classifier::prices::Tier {
            from: 0,
            input: 1.0,
            output: 1.0,
            cache_read: Some(0.0),
            cache_write: None,
            cache_write_1h: None,
        }],
    );
    s.settle_cost(&own);
    assert_eq!(s.cost_source, Some(CostSource::Estimated));
    assert!((s.cost_usd.unwrap() - 0.65).abs() < 1e-9, "{s:?}");
    // A stated cost stays.
    let mut stated = summarize(&read(
        "../fixtures/claude-code-2.1.332/basic_markdown.transcript.jsonl",
    ));
    let was = stated.cost_usd;
    stated.settle_cost(&Prices::builtin().with("claude-opus-5-5", Vec::new()));
    assert_eq!(
        (stated.cost_usd, stated.cost_source),
        (was, Some(CostSource::Stated))
    );
}

/// A Gemini CLI stream-json run names two models (the router's and the main one): its
/// `result`'s `stats.models` says each one's share, so the run is estimated model by model
/// (it said "unknown" when only the session's tokens were priced).
#[test]
fn issue_50_a_gemini_run_of_two_models_is_priced_by_each_ones_share() {
    let s = summarize(&read(
        "../fixtures/gemini-0.61.0/gemini.basic_markdown.stream.jsonl",
    ));
    let shares: Vec<(&str, u64, u64, u64)> = s
        .tokens_by_model
        .iter()
        .map(|t| (t.model.as_str(), t.input, t.output, t.cache_read))
        .collect();
    assert_eq!(
        shares,
        [
            ("gemini-3.5-flash-lite", 829, 20, 0),
            ("gemini-3.8-flash", 7915, 419, 0)
        ]
    );
    assert_eq!(s.cost_source, Some(CostSource::Estimated), "{s:?}");
    let prices = Prices::builtin();
    let want: f64 = s
        .tokens_by_model
        .iter()
        .map(|t| prices.cost(t).unwrap())
        .sum();
    assert!((s.cost_usd.unwrap() - want).abs() < 1e-12, "{s:?}");
    // The cached tokens are inside Gemini's input: billed once, at the cache rate.
    let cached = br#"{"type":"result","timestamp":"2026-12-02T14:10:43.629Z","status":"success","stats":{"total_tokens":1100,"input_tokens":1000,"output_tokens":100,"cached":400,"input":1000,"duration_ms":2,"tool_calls":0,"models":{"gemini-3.8-flash":{"total_tokens":1100,"input_tokens":1000,"output_tokens":100,"cached":400,"input":1000}}}}"#;
    let s = summarize(cached);
    let t = &s.tokens_by_model[0];
    assert_eq!((t.input, t.cache_read, t.output), (600, 400, 100), "{s:?}");
}
