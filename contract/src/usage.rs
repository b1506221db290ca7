//! Tokens and cost per group of sessions: `GET /api/usage` and `hiveterm usage --json`
//! ([`Usage`] of [`UsageGroup`]s, grouped [`By`]).

use serde::{Deserialize, Serialize};

use crate::index::Tokens;

/// How sessions are grouped (`?by=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum By {
    /// The UTC day the session started (the log's first time, else when it was made).
    #[default]
    Day,
    /// The agent.
    Agent,
    /// The model.
    Model,
    /// The project.
    Project,
}

impl By {
    /// Every grouping.
    pub const ALL: [By; 4] = [By::Day, By::Agent, By::Model, By::Project];

    /// The grouping `?by=` names, if any.
    pub fn parse(s: &str) -> Option<By> {
        By::ALL.into_iter().find(|b| b.name() == s)
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            By::Day => "day",
            By::Agent => "agent",
            By::Model => "model",
            By::Project => "project",
        }
    }
}

/// One group: the sums of its sessions' index fields.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct UsageGroup {
    /// The day (`YYYY-MM-DD`), agent, model or project; `null`: the log does not say.
    pub key: Option<String>,
    /// Sessions in the group.
    pub sessions: u64,
    /// Their tokens.
    pub tokens: Tokens,
    /// The sum of the costs known; `null` when no session's is.
    pub cost: Option<f64>,
    /// Sessions whose cost is unknown (their logs never say, and a model has no price).
    pub cost_unknown: u64,
    /// Of `cost`, what the logs state; `null` when no session's log states one.
    pub cost_stated: Option<f64>,
    /// Of `cost`, what the price table estimates (issue 50); `null` when no session's is.
    pub cost_estimated: Option<f64>,
    /// The models of its sessions the price table has no price for (sorted, each once).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unpriced_models: Vec<String>,
}

impl UsageGroup {
    /// Adds `o` into this one (for the total).
    pub fn add(&mut self, o: &UsageGroup) {
        self.sessions += o.sessions;
        self.tokens.input += o.tokens.input;
        self.tokens.output += o.tokens.output;
        self.tokens.cache_read += o.tokens.cache_read;
        self.tokens.cache_creation += o.tokens.cache_creation;
        let sum = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => Some(a + b),
            (a, b) => a.or(b),
        };
        self.cost = sum(self.cost, o.cost);
        self.cost_stated = sum(self.cost_stated, o.cost_stated);
        self.cost_estimated = sum(self.cost_estimated, o.cost_estimated);
        self.cost_unknown += o.cost_unknown;
        for m in &o.unpriced_models {
            if let Err(at) = self.unpriced_models.binary_search(m) {
                self.unpriced_models.insert(at, m.clone());
            }
        }
    }
}

/// `{"by", "since", "groups", "total"}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    /// How the sessions are grouped.
    pub by: By,
    /// Only sessions that started at or after it (unix seconds), if given.
    pub since: Option<f64>,
    /// The groups, ordered by key, `null` last.
    pub groups: Vec<UsageGroup>,
    /// Every group added up (its `key` is `null`).
    pub total: UsageGroup,
}

impl Usage {
    /// The answer for `groups`, with their total.
    pub fn of(by: By, since: Option<f64>, groups: Vec<UsageGroup>) -> Usage {
        let mut total = UsageGroup::default();
        for g in &groups {
            total.add(g);
        }
        Usage {
            by,
            since,
            groups,
            total,
        }
    }
}
