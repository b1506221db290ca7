//! The price arithmetic of each provider's token kinds on hand-made usage (issue 50).

use super::{ModelTokens, Prices, Tier, plain_name};

fn check_name(input: &str, expect: &str) {
    assert_eq!(plain_name(input), expect, "{input}");
}

#[test]
fn issue_50_names_are_made_plain() {
    for (input, expect) in [
        ("claude-sonnet-4-5", "claude-sonnet-4-5"),
        ("claude-sonnet-4-5-20250929", "claude-sonnet-4-5"),
        ("anthropic/claude-sonnet-4-5", "claude-sonnet-4-5"),
        (
            "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
            "claude-sonnet-4-5",
        ),
        ("claude-haiku-4-5@20251001", "claude-haiku-4-5"),
        ("claude-sonnet-4.5", "claude-sonnet-4-5"),
        ("claude-opus-4-6[1m]", "claude-opus-4-6"),
        ("gpt-4.1-2025-04-14", "gpt-4.1"),
        ("openai/gpt-5.5", "gpt-5.5"),
        ("GPT-4.1", "gpt-4.1"),
        ("gemini-2.5-pro", "gemini-2.5-pro"),
        ("models/gemini-2.5-pro", "gemini-2.5-pro"),
        ("qwen3-coder-plus", "qwen3-coder-plus"),
        ("", ""),
    ] {
        check_name(input, expect);
    }
}

fn tokens(
    model: &str,
    [input, output, cache_read, cache_write, hour, tier]: [u64; 6],
) -> ModelTokens {
    ModelTokens {
        model: model.to_owned(),
        input,
        output,
        cache_read,
        cache_write,
        cache_write_1h: hour,
        tier_from: tier,
    }
}

fn check(prices: &Prices, t: &ModelTokens, expect: Option<f64>) {
    let got = prices.cost(t);
    match (got, expect) {
        (Some(g), Some(e)) => assert!((g - e).abs() < 1e-9, "{t:?}: {g} != {e}"),
        _ => assert_eq!(got, expect, "{t:?}"),
    }
}

#[test]
fn issue_50_each_providers_token_kinds() {
    let p = Prices::builtin();
    for (model, counts, expect) in [
        // Anthropic: input excludes the cache; reads at $0.30, writes at $3.75 (5 minutes)
        // and $6 (1 hour) a million: the contract's $8.55.
        (
            "claude-sonnet-4-5",
            [2_000_000, 100_000, 1_000_000, 200_000, 0, 0],
            Some(8.55),
        ),
        ("claude-sonnet-4-5", [0, 0, 0, 0, 1_000_000, 0], Some(6.0)),
        (
            "claude-sonnet-4-5-20250929",
            [1_000_000, 0, 0, 0, 0, 0],
            Some(3.0),
        ),
        // The real fixtures' model: 270 in, 597 out is the $0.01302 its transcript states.
        ("claude-opus-5-5", [270, 597, 0, 0, 0, 0], Some(0.01302)),
        // OpenAI (made the Anthropic way by the fold: 1,000,000 in of which 400,000 cached):
        // 600,000 × $2 + 400,000 × $0.50 + 50,000 × $8 = $1.80.
        ("gpt-4.1", [600_000, 50_000, 400_000, 0, 0, 0], Some(1.80)),
        // Tiers: Gemini 2.5 Pro above 200k prompt tokens: $2.50 in, $15 out.
        (
            "gemini-2.5-pro",
            [1_000_000, 1_000_000, 0, 0, 0, 0],
            Some(11.25),
        ),
        (
            "gemini-2.5-pro",
            [1_000_000, 1_000_000, 0, 0, 0, 200_000],
            Some(17.5),
        ),
        (
            "gemini-2.5-pro",
            [1_000_000, 0, 0, 0, 0, 250_000],
            Some(2.5),
        ),
        // Qwen's tiers from 32k and 128k.
        ("qwen3-coder-plus", [1_000_000, 0, 0, 0, 0, 0], Some(1.0)),
        (
            "qwen3-coder-plus",
            [1_000_000, 0, 0, 0, 0, 32_000],
            Some(1.8),
        ),
        // No price: none (the summary says "unknown", naming the model).
        ("gpt-6.2-sol", [1, 1, 0, 0, 0, 0], None),
        ("", [1, 1, 0, 0, 0, 0], None),
    ] {
        check(&p, &tokens(model, counts), expect);
    }
}

#[test]
fn issue_50_tier_of_a_request() {
    let p = Prices::builtin();
    for (model, prompt, expect) in [
        ("gemini-2.5-pro", 200_000, 200_000),
        ("gemini-2.5-pro", 199_999, 0),
        ("gpt-5.5", 300_000, 272_000),
        ("claude-sonnet-4-5", 3_000_000, 0),
        ("qwen3-coder-plus", 100_000, 32_000),
        ("no-such-model", 1_000_000, 0),
    ] {
        assert_eq!(p.tier_from(model, prompt), expect, "{model} {prompt}");
    }
}

#[test]
fn issue_50_own_prices_override_and_add() {
    let tier = |input, output| Tier {
        from: 0,
        input,
        output,
        cache_read: None,
        cache_write: None,
        cache_write_1h: None,
    };
    let p = Prices::builtin()
        .with("claude-sonnet-4-5", vec![tier(1.0, 2.0)])
        .with("my-local-model", vec![tier(0.5, 0.5)]);
    assert_eq!(p.own_models(), 2);
    // Cache prices not given are the input's.
    check(
        &p,
        &tokens(
            "claude-sonnet-4-5-20250929",
            [1_000_000, 1_000_000, 1_000_000, 1_000_000, 0, 0],
        ),
        Some(5.0),
    );
    check(
        &p,
        &tokens("my-local-model", [1_000_000, 1_000_000, 0, 0, 0, 0]),
        Some(1.0),
    );
    check(
        &p,
        &tokens("gpt-4.1", [1_000_000, 0, 0, 0, 0, 0]),
        Some(2.0),
    );
}

#[test]
fn issue_50_the_table_is_sorted_and_dated() {
    let names: Vec<&str> = super::table::MODELS.iter().map(|(n, _)| *n).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(names, sorted);
    for (name, tiers) in super::table::MODELS {
        assert_eq!(plain_name(name), *name);
        assert_eq!(tiers[0][0], 0, "{name}");
        assert!(tiers.windows(2).all(|w| w[0][0] < w[1][0]), "{name}");
    }
    assert_eq!(super::DATE.len(), 10);
    assert!(super::SOURCE.contains("litellm"));
}
