//! The fold's share of the cost estimate (issue 50): each Claude Code (or Qwen Code) message's
//! tokens by its model and price tier, a message written over several lines counted once; and
//! at the summary, the tokens by model ([`crate::prices::ModelTokens`]) and the cost settled
//! ([`Summary::settle_cost`]). A Gemini run's `result` gives each model's share; a log whose
//! messages do not name their model (Codex, OpenCode, Copilot, a Gemini recording: their tokens
//! are the session's) is priced by its one model; a log of several such models is `unknown`.

use serde_json::Value;

use super::SummaryFold;
use super::per_file::pick;
use super::report::Summary;
use crate::prices::{CostSource, ModelTokens, Prices};

impl SummaryFold {
    /// Folds in an assistant message's tokens by model; `again`: the same message as the
    /// last one, whose tokens these replace.
    pub(super) fn price_message(
        &mut self,
        model: Option<&Value>,
        usage: Option<&Value>,
        again: bool,
    ) {
        if again && let Some(t) = &self.last_priced {
            ModelTokens::sub_from(&mut self.by_model, t);
        }
        let qwen = self.summary.agent.as_deref() == Some("qwen");
        self.last_priced = model_tokens(model, usage, qwen);
        if let Some(t) = &self.last_priced {
            ModelTokens::add_to(&mut self.by_model, t);
        }
    }

    /// Sets `s`'s tokens by model and its cost (`s`'s tokens and models already set).
    pub(super) fn priced(&self, s: &mut Summary) {
        s.tokens_by_model =
            if let (true, Some(runs)) = (self.by_model.is_empty(), self.gemini.by_model()) {
                // A Gemini run's `result` says each model's share (the router's and the main
                // model's).
                runs.to_vec()
            } else if self.by_model.is_empty() {
                session_tokens(s).into_iter().collect()
            } else {
                let zero = |t: &&ModelTokens| {
                    t.input + t.output + t.cache_read + t.cache_write + t.cache_write_1h == 0
                };
                self.by_model.iter().filter(|t| !zero(t)).cloned().collect()
            };
        s.settle_cost(&Prices::builtin());
    }
}

/// A message's tokens, by its model; `None` without a model or a usage.
fn model_tokens(model: Option<&Value>, usage: Option<&Value>, qwen: bool) -> Option<ModelTokens> {
    let model = model
        .and_then(Value::as_str)
        .filter(|m| !m.is_empty() && !m.starts_with('<'))?;
    usage?.as_object()?;
    let [input, output, read, write, split] = pick(
        usage,
        [
            "input_tokens",
            "output_tokens",
            "cache_read_input_tokens",
            "cache_creation_input_tokens",
            "cache_creation",
        ],
    );
    let n = |v: Option<&Value>| v.and_then(Value::as_u64).unwrap_or(0);
    let [hour] = pick(split, ["ephemeral_1h_input_tokens"]);
    let (read, write, hour) = (n(read), n(write), n(hour));
    let mut t = ModelTokens {
        model: model.to_owned(),
        // Qwen Code counts the cached tokens inside input, as Gemini does.
        input: if qwen {
            n(input).saturating_sub(read)
        } else {
            n(input)
        },
        output: n(output),
        cache_read: read,
        cache_write: write.saturating_sub(hour),
        cache_write_1h: hour,
        tier_from: 0,
    };
    let prompt = t.input + t.cache_read + t.cache_write + t.cache_write_1h;
    t.tier_from = Prices::builtin().tier_from(model, prompt);
    Some(t)
}

/// The session's tokens as one model's, when the log names exactly one; input without the
/// cached part for the agents that count it inside (Codex, Gemini, Qwen Code).
fn session_tokens(s: &Summary) -> Option<ModelTokens> {
    let [model] = s.models.as_slice() else {
        return None;
    };
    if s.input_tokens + s.output_tokens + s.cache_read_tokens + s.cache_creation_tokens == 0 {
        return None;
    }
    let inside = matches!(s.agent.as_deref(), Some("codex" | "gemini" | "qwen"));
    Some(ModelTokens {
        model: model.clone(),
        input: if inside {
            s.input_tokens
                .saturating_sub(s.cache_read_tokens + s.cache_creation_tokens)
        } else {
            s.input_tokens
        },
        output: s.output_tokens,
        cache_read: s.cache_read_tokens,
        cache_write: s.cache_creation_tokens,
        cache_write_1h: 0,
        tier_from: 0,
    })
}

impl Summary {
    /// Writes the cost and where it comes from: a cost the log states is kept (`stated`);
    /// otherwise it is made again from `tokens_by_model` with `prices`: `estimated` when each
    /// model has a price, else `unknown` with the models of no price in `unpriced_models`.
    /// The server calls it again with a user's prices (`--prices FILE`).
    pub fn settle_cost(&mut self, prices: &Prices) {
        let s = self;
        if s.cost_source == Some(CostSource::Stated) {
            return;
        }
        if s.cost_source.is_none() && s.cost_usd.is_some() {
            s.cost_source = Some(CostSource::Stated);
            return;
        }
        s.cost_usd = None;
        s.unpriced_models.clear();
        let mut usd = 0.0;
        for t in &s.tokens_by_model {
            match prices.cost(t) {
                Some(c) => usd += c,
                None if !s.unpriced_models.contains(&t.model) => {
                    s.unpriced_models.push(t.model.clone())
                }
                None => {}
            }
        }
        let any_tokens =
            s.input_tokens + s.output_tokens + s.cache_read_tokens + s.cache_creation_tokens > 0;
        s.cost_source = if !s.tokens_by_model.is_empty() && s.unpriced_models.is_empty() {
            s.cost_usd = Some(usd);
            Some(CostSource::Estimated)
        } else if any_tokens || !s.tokens_by_model.is_empty() {
            if s.unpriced_models.is_empty() {
                // Tokens of no model the fold could split them by: the models the log names.
                s.unpriced_models.clone_from(&s.models);
            }
            Some(CostSource::Unknown)
        } else {
            None
        };
    }
}
