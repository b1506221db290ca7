//! A user's own prices (issue 50: `--prices FILE` of `summary`, `usage` and `serve`): models
//! added to the built-in table ([`classifier::prices`]) or priced over it.
//!
//! The file is one JSON object, a model's name to its prices, either per million tokens —
//! `{"my-model": {"input": 3, "output": 15, "cache_read": 0.3, "cache_write": 3.75,
//! "cache_write_1h": 6, "tiers": [{"from": 200000, "input": 6, "output": 22.5}]}}` — or per
//! token as LiteLLM's `model_prices_and_context_window.json` writes them
//! (`input_cost_per_token`, `output_cost_per_token`, `cache_read_input_token_cost`,
//! `cache_creation_input_token_cost`, `cache_creation_input_token_cost_above_1hr`), so a newer
//! copy of that file can be given as it is. Only `input` and `output` are needed; a cache
//! price left out is the input's.

use std::path::Path;
use std::sync::OnceLock;

use classifier::prices::{ModelTokens, Prices, Tier};
use serde_json::{Map, Value};

/// The prices of this process when a user gave their own (`serve --prices`), set once at
/// its start: the server's summaries and index columns are settled with them.
static OWN: OnceLock<Prices> = OnceLock::new();

/// Makes `prices` the ones every summary of this process is settled with ([`settle`]), when
/// they add or override a model (once; a second call changes nothing).
pub fn use_everywhere(prices: Prices) {
    if prices.own_models() > 0 {
        let _ = OWN.set(prices);
    }
}

/// Settles `s`'s cost with the user's prices of this process, if any ([`use_everywhere`]);
/// the fold settled it with the built-in table already.
pub fn settle(s: &mut classifier::Summary) {
    if let Some(p) = OWN.get() {
        s.settle_cost(p);
    }
}

/// The prices this process settles summaries with: the user's ([`use_everywhere`]), else the
/// built-in table.
pub fn current() -> Prices {
    OWN.get().cloned().unwrap_or_default()
}

/// What tells two price tables apart (stored with the estimates made with one:
/// `crate::store::prices_seen`): the built-in table's source and date, and a hash of the
/// user's prices over it.
pub fn fingerprint(prices: &Prices) -> String {
    use sha2::{Digest, Sha256};
    let own = Sha256::digest(format!("{prices:?}").as_bytes());
    let hex: String = own[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{} {} own-{hex}",
        classifier::prices::SOURCE,
        classifier::prices::DATE
    )
}

/// The cost of `tokens` (by model, [`classifier::Summary::settle_cost`]'s rule): their sum
/// when every model has a price (an estimate), else `None` and the models of no price.
pub fn estimate(tokens: &[ModelTokens], prices: &Prices) -> (Option<f64>, Vec<String>) {
    let mut usd = 0.0;
    let mut unpriced: Vec<String> = Vec::new();
    for t in tokens {
        match prices.cost(t) {
            Some(c) => usd += c,
            None if !unpriced.contains(&t.model) => unpriced.push(t.model.clone()),
            None => {}
        }
    }
    let known = !tokens.is_empty() && unpriced.is_empty() && usd.is_finite();
    (known.then_some(usd), unpriced)
}

/// The built-in table with `path`'s models over it; `None`: the built-in table alone.
pub fn load(path: Option<&Path>) -> Result<Prices, String> {
    let Some(path) = path else {
        return Ok(Prices::builtin());
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read --prices {}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("--prices {}: {e}", path.display()))
}

/// The built-in table with the models of `text` (the module's doc) over it.
pub fn parse(text: &str) -> Result<Prices, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let Value::Object(models) = value else {
        return Err("not a JSON object of models".to_owned());
    };
    let mut prices = Prices::builtin();
    for (name, entry) in &models {
        // LiteLLM's file opens with a `sample_spec`; its other entries may be of no price.
        if name == "sample_spec" {
            continue;
        }
        let Value::Object(entry) = entry else {
            return Err(format!("{name}: not an object"));
        };
        match tiers(entry) {
            Some(tiers) => prices = prices.with(name, tiers),
            None if entry.contains_key("input_cost_per_token") => {}
            None => {
                return Err(format!(
                    "{name}: needs \"input\" and \"output\" (dollars per million tokens)"
                ));
            }
        }
    }
    Ok(prices)
}

fn tiers(entry: &Map<String, Value>) -> Option<Vec<Tier>> {
    let per_token = entry.contains_key("input_cost_per_token");
    let first = if per_token {
        let n = |k: &str| entry.get(k).and_then(Value::as_f64).map(|p| p * 1e6);
        Tier {
            from: 0,
            input: n("input_cost_per_token")?,
            output: n("output_cost_per_token")?,
            cache_read: n("cache_read_input_token_cost"),
            cache_write: n("cache_creation_input_token_cost"),
            cache_write_1h: n("cache_creation_input_token_cost_above_1hr"),
        }
    } else {
        tier(entry, 0)?
    };
    let mut all = vec![first];
    if !per_token && let Some(Value::Array(more)) = entry.get("tiers") {
        for t in more {
            let t = t.as_object()?;
            all.push(tier(t, t.get("from")?.as_u64()?)?);
        }
    }
    let finite = |p: Option<f64>| p.is_none_or(|p| p.is_finite() && p >= 0.0);
    all.iter()
        .all(|t| {
            finite(Some(t.input))
                && finite(Some(t.output))
                && finite(t.cache_read)
                && finite(t.cache_write)
                && finite(t.cache_write_1h)
        })
        .then_some(all)
}

fn tier(t: &Map<String, Value>, from: u64) -> Option<Tier> {
    let n = |k: &str| t.get(k).and_then(Value::as_f64);
    Some(Tier {
        from,
        input: n("input")?,
        output: n("output")?,
        cache_read: n("cache_read"),
        cache_write: n("cache_write"),
        cache_write_1h: n("cache_write_1h"),
    })
}

#[cfg(test)]
mod tests {
    use classifier::prices::ModelTokens;

    use super::parse;

    fn cost(file: &str, model: &str, input: u64, output: u64) -> Option<f64> {
        let p = parse(file).unwrap();
        p.cost(&ModelTokens {
            model: model.to_owned(),
            input,
            output,
            ..ModelTokens::default()
        })
    }

    #[test]
    fn issue_50_a_prices_file_adds_and_overrides() {
        for (file, model, want) in [
            (r#"{"mine": {"input": 1, "output": 2}}"#, "mine", Some(3.0)),
            (
                r#"{"gpt-4.1": {"input": 1, "output": 2}}"#,
                "gpt-4.1-2025-04-14",
                Some(3.0),
            ),
            (
                r#"{"mine": {"input": 1, "output": 2}}"#,
                "gpt-4.1",
                Some(10.0),
            ),
            (
                r#"{"sample_spec": {}, "mine": {"input_cost_per_token": 1e-6, "output_cost_per_token": 2e-6}}"#,
                "mine",
                Some(3.0),
            ),
            (r#"{}"#, "nobody", None),
        ] {
            assert_eq!(cost(file, model, 1_000_000, 1_000_000), want, "{file}");
        }
        let tiered = r#"{"mine": {"input": 1, "output": 2, "tiers": [{"from": 100, "input": 10, "output": 20}]}}"#;
        let p = parse(tiered).unwrap();
        assert_eq!(p.tier_from("mine", 150), 100);
    }

    #[test]
    fn issue_50_a_bad_prices_file_says_why() {
        for (file, says) in [
            ("[", "not JSON"),
            ("[]", "not a JSON object"),
            (r#"{"m": 1}"#, "m: not an object"),
            (r#"{"m": {"input": 1}}"#, "needs"),
            (r#"{"m": {"input": -1, "output": 1}}"#, "needs"),
        ] {
            let e = parse(file).unwrap_err();
            assert!(e.contains(says), "{file}: {e}");
        }
    }
}
