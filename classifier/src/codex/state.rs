//! [`State`]: what classifying a Codex line needs to know of the lines before it (kept in the
//! [`ClassifyCtx`](crate::ClassifyCtx)), and its bounds. Its data and own bookkeeping only,
//! depending on nothing else of the crate: the modules that classify read and change it.

use serde::{Deserialize, Serialize};

/// Most call or item ids remembered (the oldest are forgotten first).
pub(super) const MAX_REMEMBERED: usize = 64;
/// Most calls remembered as in flight.
pub(super) const MAX_PENDING: usize = 16;

/// Where a rollout is in its turn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Turn {
    /// No turn known to be open.
    #[default]
    Idle,
    /// `task_started` seen, no row of the turn yet.
    Pending,
    /// The turn's start row is shown.
    Open,
}

/// What classifying a Codex line needs to know of the lines before it. Bounded: at most
/// [`MAX_REMEMBERED`] ids of each kind and [`MAX_PENDING`] calls in flight.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct State {
    /// `exec --json`: tool items started and not yet completed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) started: Vec<String>,
    /// Rollout: call ids seen (their `item_completed` mirrors give no row).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) calls: Vec<String>,
    /// Rollout: calls without output yet, with their row's summary.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) pending: Vec<(String, String)>,
    /// Rollout: the turn.
    pub(super) turn: Turn,
    /// Rollout: the model last shown.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub(super) model: String,
    /// Rollout: the current turn's tokens as its end row says them (from the last
    /// `token_usage_record`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) turn_usage: Option<String>,
}

impl State {
    /// Nothing remembered (so a context without Codex lines serialises as before).
    pub(crate) fn is_empty(&self) -> bool {
        *self == State::default()
    }

    pub(super) fn remember_started(&mut self, id: &str) {
        if self.started.len() >= MAX_REMEMBERED {
            self.started.remove(0);
        }
        self.started.push(id.to_owned());
    }

    /// Whether `id` was started (and forgets it).
    pub(super) fn forget_started(&mut self, id: &str) -> bool {
        match self.started.iter().position(|s| s == id) {
            Some(at) => {
                self.started.remove(at);
                true
            }
            None => false,
        }
    }
}
