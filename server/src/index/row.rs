//! A session's index columns ([`Index`]) from its fold, its status, and an index entry
//! ([`Entry`]) as `GET /api/sessions` lists it.

use classifier::prices::ModelTokens;
pub use contract::{CostSource, SessionEntry, Status, Tokens};
use serde_json::Value;

use super::log::*;
use crate::fold::SessionFold;
use crate::hub::SessionInfo;

/// Longest agent name, agent version or model kept in the index, in characters (then `…`):
/// they come from the log, and a 60,000-character model name on every session made a list
/// of 1,000 sessions 62 MB (issue 46.6). Cut when the columns are made (stored cut) and
/// again in the answer (a row stored before the cap).
pub const MAX_NAME_CHARS: usize = 200;

/// `s` cut to `max` characters (with `…`).
fn capped(s: Option<&str>, max: usize) -> Option<String> {
    s.map(|s| cut(s, max))
}

/// A session's index columns, as the fold says them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Index {
    pub agent: Option<String>,
    pub agent_version: Option<String>,
    pub project: Option<String>,
    pub model: Option<String>,
    /// The log's first and last times (unix seconds).
    pub started_at: Option<f64>,
    pub ended_at: Option<f64>,
    /// How the log says the session stands: `in flight`, `ok`, `failed`, `interrupted`, or
    /// `None` (no turn ended, none open).
    pub outcome: Option<String>,
    pub turns: u64,
    pub errors: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cache_read_tokens: u64,
    pub cache_creation_tokens: u64,
    /// US dollars: stated by the log, or estimated (`cost_estimated`); `None`: unknown.
    pub cost: Option<f64>,
    /// `cost` is an estimate from the price table (issue 50), not what the log states.
    pub cost_estimated: bool,
    /// The seq of the first envelope with an error row.
    pub first_error: Option<u64>,
    /// What an estimate is made of: the tokens by model and price tier (the summary's
    /// `tokens_by_model`), kept so a stored estimate can be made again with another price
    /// table without folding the session again (`crate::store::prices_seen`).
    pub tokens_by_model: Vec<ModelTokens>,
    /// With a cost unknown: the models of no price (the summary's `unpriced_models`).
    pub unpriced_models: Vec<String>,
}

impl Index {
    /// The columns of a session whose events folded into `fold`.
    pub fn of(fold: &SessionFold) -> Index {
        let mut s = fold.summary.summary_head(0);
        crate::prices::settle(&mut s);
        let model = s.models.first().cloned().or_else(|| {
            fold.badges
                .model
                .as_ref()
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
        let outcome = if fold.index.in_flight {
            Some(
                match fold.badges.turn.at_end {
                    Some(true) => IN_FLIGHT_OK,
                    Some(false) => IN_FLIGHT_FAILED,
                    None => "in flight",
                }
                .to_owned(),
            )
        } else {
            fold.index.last_end.clone()
        };
        Index {
            agent: capped(s.agent.as_deref(), MAX_NAME_CHARS),
            agent_version: capped(s.agent_version.as_deref(), MAX_NAME_CHARS),
            project: capped(fold.index.project.as_deref(), MAX_TEXT_CHARS),
            model: capped(model.as_deref(), MAX_NAME_CHARS),
            started_at: s.started_at,
            ended_at: s.ended_at,
            outcome,
            turns: s.turns,
            errors: s.errors,
            input_tokens: s.input_tokens,
            output_tokens: s.output_tokens,
            cache_read_tokens: s.cache_read_tokens,
            cache_creation_tokens: s.cache_creation_tokens,
            cost: s.cost_usd.filter(|c| c.is_finite()),
            cost_estimated: s.cost_source == Some(classifier::CostSource::Estimated),
            first_error: s.first_error_seq,
            tokens_by_model: s.tokens_by_model,
            unpriced_models: s.unpriced_models,
        }
    }

    /// Seconds from the log's first time to its last.
    pub fn duration(&self) -> Option<f64> {
        self.started_at
            .zip(self.ended_at)
            .map(|(a, b)| ((b - a) * 1000.0).round() / 1000.0)
    }
}

/// A session's status: how its log says it stands (`outcome`), whether it has ended, and
/// its error rows (see the module's doc).
pub fn status(outcome: Option<&str>, ended: bool, errors: u64) -> Status {
    match outcome {
        Some("in flight" | IN_FLIGHT_OK | IN_FLIGHT_FAILED) if !ended => Status::InFlight,
        Some(IN_FLIGHT_OK) => Status::Ok,
        Some(IN_FLIGHT_FAILED) => Status::Failed,
        Some("in flight") => Status::Interrupted,
        Some("ok") => Status::Ok,
        Some("failed") => Status::Failed,
        Some(_) => Status::Interrupted,
        None if !ended => Status::Live,
        None if errors > 0 => Status::Failed,
        None => Status::Ok,
    }
}

/// The `outcome` of a turn in flight that the log's end ends ok, or failed (a Gemini
/// recording's: its turns' ends are not written; `crate::badges::Turn::at_end`): the session's
/// status while it is live is `in flight`, once ended `ok` or `failed` (issue 45).
pub const IN_FLIGHT_OK: &str = "in flight, ok at its end";
pub const IN_FLIGHT_FAILED: &str = "in flight, failed at its end";

/// [`status`] as SQL over a `sessions` row (both backends).
pub const STATUS_SQL: &str = "(CASE WHEN outcome LIKE 'in flight%' AND ended IS NULL THEN 'in flight' \
     WHEN outcome = 'in flight, ok at its end' THEN 'ok' \
     WHEN outcome = 'in flight, failed at its end' THEN 'failed' \
     WHEN outcome = 'in flight' THEN 'interrupted' \
     WHEN outcome IS NOT NULL THEN outcome \
     WHEN ended IS NULL THEN 'live' \
     WHEN errors > 0 THEN 'failed' ELSE 'ok' END)";

/// What a session's row should say once its events folded into `fold`: its title ([`title`],
/// `given` the title its client gave) and its index columns.
pub fn row_of(id: &str, given: &str, fold: &SessionFold) -> (String, Index) {
    (title(given, id, &fold.index), Index::of(fold))
}

/// A session as the index lists it: its row and its index columns.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub info: SessionInfo,
    pub index: Index,
}

impl Entry {
    /// The session's status.
    pub fn status(&self) -> Status {
        status(
            self.index.outcome.as_deref(),
            self.info.ended.is_some(),
            self.index.errors,
        )
    }

    /// Its entry in `GET /api/sessions` (docs/API.md), the contract's.
    pub fn to_entry(&self) -> SessionEntry {
        let (i, x) = (&self.info, &self.index);
        SessionEntry {
            id: i.id.clone(),
            title: cut(&i.title, MAX_TEXT_CHARS),
            source: i.source.clone(),
            started: i.started,
            ended: i.ended,
            live: i.live,
            last_seq: i.last_seq,
            agent: capped(x.agent.as_deref(), MAX_NAME_CHARS),
            agent_version: capped(x.agent_version.as_deref(), MAX_NAME_CHARS),
            project: capped(x.project.as_deref(), MAX_TEXT_CHARS),
            model: capped(x.model.as_deref(), MAX_NAME_CHARS),
            status: self.status(),
            started_at: x.started_at,
            ended_at: x.ended_at,
            duration: x.duration(),
            turns: x.turns,
            errors: x.errors,
            first_error: x.first_error,
            tokens: Tokens {
                input: x.input_tokens,
                output: x.output_tokens,
                cache_read: x.cache_read_tokens,
                cache_creation: x.cache_creation_tokens,
            },
            cost: x.cost,
            cost_source: match (x.cost, x.cost_estimated) {
                (None, _) => CostSource::Unknown,
                (Some(_), false) => CostSource::Stated,
                (Some(_), true) => CostSource::Estimated,
            },
            unpriced_models: x.unpriced_models.clone(),
        }
    }
}
