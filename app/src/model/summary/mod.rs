//! The summary header's display model, pure and tested natively: a log's
//! [`classifier::Summary`] (the JSON the worker sends with its rows and the server answers at
//! `GET /api/sessions/{id}/summary`: the keys of `hiveterm summary --json`, docs/CLI.md) →
//! the strings the header shows. The header itself is [`crate::view::summary_header`].
//!
//! Also the live view's refresh rule ([`SummaryGate`]): the summary is fetched again as
//! envelopes arrive, at most once per [`REFRESH_EVERY_MS`], and at once on a turn's end.

use classifier::{Summary, icon};

use crate::model::nest::End;

/// Tools named in the header, the most called first; the rest are counted together.
pub const TOP_TOOLS: usize = 6;

/// Shortest interval between two summary fetches of a live view.
pub const REFRESH_EVERY_MS: f64 = 1000.0;

/// How the log's turns ended, as a whole (the header's colour and icon).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// No turn ended (none started, or one is still running).
    Open,
    /// Every turn that ended, ended well.
    Ok,
    /// A turn was interrupted by the user, none failed.
    Interrupted,
    /// A turn failed.
    Failed,
}

impl Outcome {
    /// The class suffix (`outcome-…`).
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Open => "open",
            Outcome::Ok => "ok",
            Outcome::Interrupted => "interrupted",
            Outcome::Failed => "failed",
        }
    }

    /// The classifier's icon of that ending (none while open).
    pub fn icon(self) -> &'static str {
        match self {
            Outcome::Open => icon::TURN_START,
            Outcome::Ok => icon::TURN_OK,
            Outcome::Interrupted => icon::INTERRUPTED,
            Outcome::Failed => icon::TURN_FAIL,
        }
    }
}

/// What the header shows.
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryView {
    /// The agent that wrote the log and its version (`Codex 0.171.0`), when the log says.
    pub agent: Option<String>,
    /// Lines of no known shape or not JSON (each still one visible row).
    pub not_understood: u64,
    /// How the turns ended.
    pub outcome: Outcome,
    /// `3 turns · 2 ok · 1 failed · 1 interrupted` (the zero counts left out).
    pub turns: String,
    /// First to last event (`12m 03s`), if the log has times.
    pub duration: Option<String>,
    /// Tool calls in all.
    pub tool_calls: u64,
    /// The most called tools and their counts, most first (ties by name).
    pub top_tools: Vec<(String, u64)>,
    /// The other tools: how many, and their calls.
    pub other_tools: Option<(usize, u64)>,
    /// Tool results that were errors.
    pub tool_errors: u64,
    /// Error rows.
    pub errors: u64,
    /// Warning rows.
    pub warnings: u64,
    /// The seq of the first error row's envelope.
    pub first_error_seq: Option<u64>,
    /// `12,345 in · 678 out · 90,000 cache read · 1,234 cache write`, if any were counted.
    pub tokens: Option<String>,
    /// `$0.0512` (four decimals under a dollar, else two), if the log says.
    pub cost: Option<String>,
    /// Models used, in first-seen order.
    pub models: Vec<String>,
    /// Subagents started.
    pub subagents: u64,
    /// Files written or edited, in first-seen order: all of them, or the first few of a
    /// summary cut short (`files_changed_more`).
    pub files: Vec<String>,
    /// How many files were changed, listed or not.
    pub files_total: u64,
    /// How each subagent ended, by its call's envelope, where the log says.
    pub subagent_ends: Vec<(u64, End)>,
}

/// Changed files the open header lists before "and N more".
pub const FILES_SHOWN: usize = 20;

impl SummaryView {
    /// The files to list: the first [`FILES_SHOWN`], or every one the summary has when `all`;
    /// and how many more the log changed than that.
    pub fn files_listed(&self, all: bool) -> (&[String], u64) {
        let n = if all {
            self.files.len()
        } else {
            self.files.len().min(FILES_SHOWN)
        };
        (&self.files[..n], self.files_total - n as u64)
    }
}

/// `n` with thousands separators: `12,345`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n thing` or `n things`.
pub fn count(n: u64, thing: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{} {thing}{s}", grouped(n))
}

/// An agent's name as a reader knows it (`codex` → `Codex`), with its version.
pub fn agent_label(agent: &str, version: Option<&str>) -> String {
    let name = match agent {
        "claude-code" => "Claude Code",
        "codex" => "Codex",
        "gemini" => "Gemini CLI",
        "qwen" => "Qwen Code",
        "copilot" => "Copilot CLI",
        other => other,
    };
    match version {
        Some(v) => format!("{name} {v}"),
        None => name.to_owned(),
    }
}

/// A cost in dollars: four decimals under a dollar, else two.
pub fn dollars(usd: f64) -> String {
    if usd < 1.0 {
        format!("${usd:.4}")
    } else {
        format!("${usd:.2}")
    }
}

impl SummaryView {
    /// The model of a summary.
    pub fn of(s: &Summary) -> SummaryView {
        let outcome = if s.turns_failed > 0 {
            Outcome::Failed
        } else if s.turns_interrupted > 0 {
            Outcome::Interrupted
        } else if s.turns_ok > 0 {
            Outcome::Ok
        } else {
            Outcome::Open
        };
        let mut turns = count(s.turns, "turn");
        for (n, what) in [
            (s.turns_ok, "ok"),
            (s.turns_failed, "failed"),
            (s.turns_interrupted, "interrupted"),
        ] {
            if n > 0 {
                turns.push_str(&format!(" · {} {what}", grouped(n)));
            }
        }
        let mut tools: Vec<(String, u64)> =
            s.tool_calls.iter().map(|(k, v)| (k.clone(), *v)).collect();
        tools.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let rest = tools.split_off(tools.len().min(TOP_TOOLS));
        let other_tools =
            (!rest.is_empty()).then(|| (rest.len(), rest.iter().map(|(_, n)| n).sum()));
        let token_parts: Vec<String> = [
            (s.input_tokens, "in"),
            (s.output_tokens, "out"),
            (s.cache_read_tokens, "cache read"),
            (s.cache_creation_tokens, "cache write"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{} {what}", grouped(*n)))
        .collect();
        SummaryView {
            agent: s
                .agent
                .as_deref()
                .map(|a| agent_label(a, s.agent_version.as_deref())),
            not_understood: s.lines_not_understood,
            outcome,
            turns,
            duration: s.duration_s.map(classifier::duration),
            tool_calls: s.tool_calls.values().sum(),
            top_tools: tools,
            other_tools,
            tool_errors: s.tool_errors,
            errors: s.errors,
            warnings: s.warnings,
            first_error_seq: s.first_error_seq,
            tokens: (!token_parts.is_empty()).then(|| token_parts.join(" · ")),
            cost: s.cost_usd.filter(|c| c.is_finite()).map(|c| {
                // Issue 50: a cost the log does not state is the price table's estimate.
                if s.cost_source == Some(classifier::CostSource::Estimated) {
                    format!("≈ {} est.", dollars(c))
                } else {
                    dollars(c)
                }
            }),
            models: s.models.clone(),
            subagents: s.subagents,
            files: s.files_changed.clone(),
            files_total: s.files_changed_total(),
            subagent_ends: s
                .by_subagent
                .iter()
                .filter_map(|a| Some((a.parent, a.ended?)))
                .collect(),
        }
    }

    /// This view of a summary that lists only the subagents whose end changed (a chunk's but
    /// the last, from the worker: issue 24), with the ends `before` knew of the others.
    pub fn after(mut self, before: Option<&SummaryView>) -> SummaryView {
        let Some(before) = before.filter(|b| !b.subagent_ends.is_empty()) else {
            return self;
        };
        let changed: std::collections::HashMap<u64, End> =
            self.subagent_ends.iter().copied().collect();
        let mut ends: Vec<(u64, End)> = before
            .subagent_ends
            .iter()
            .map(|&(seq, end)| (seq, changed.get(&seq).copied().unwrap_or(end)))
            .collect();
        let known: std::collections::HashSet<u64> = ends.iter().map(|(s, _)| *s).collect();
        ends.extend(
            self.subagent_ends
                .iter()
                .copied()
                .filter(|(s, _)| !known.contains(s)),
        );
        self.subagent_ends = ends;
        self
    }

    /// The model of the summary JSON the worker or the server sent; `None` if it is not one.
    pub fn parse(json: &str) -> Option<SummaryView> {
        serde_json::from_str::<Summary>(json)
            .ok()
            .map(|s| SummaryView::of(&s))
    }

    /// The tools line: `Bash 20 · Read 10 · … · 3 other tools: 4`.
    pub fn tools_line(&self) -> String {
        let mut parts: Vec<String> = self
            .top_tools
            .iter()
            .map(|(t, n)| format!("{t} {}", grouped(*n)))
            .collect();
        if let Some((tools, calls)) = self.other_tools {
            parts.push(format!(
                "{}: {}",
                count(tools as u64, "other tool"),
                grouped(calls)
            ));
        }
        parts.join(" · ")
    }

    /// The collapsed header's line: turns, duration, tool calls, errors and warnings, the lines
    /// not understood (when any), cost, the agent.
    pub fn line(&self) -> String {
        let mut parts = vec![self.turns.clone()];
        parts.extend(self.duration.clone());
        parts.push(count(self.tool_calls, "tool call"));
        parts.push(count(self.errors, "error"));
        parts.push(count(self.warnings, "warning"));
        if self.not_understood > 0 {
            parts.push(format!(
                "{} not understood",
                count(self.not_understood, "line")
            ));
        }
        parts.extend(self.cost.clone());
        parts.extend(self.agent.clone());
        parts.join(" · ")
    }
}

/// When a live view fetches the summary again.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Refresh {
    /// Fetch now.
    Now,
    /// Arm a timer for this many ms, then call [`SummaryGate::fire`].
    Wait(f64),
    /// Nothing (a fetch or a timer is on its way and will see this envelope).
    Hold,
}

/// Throttles a live view's summary fetches: one at a time, at most one per
/// [`REFRESH_EVERY_MS`], except that a turn's end is fetched as soon as the fetch in flight
/// (if any) is answered; an envelope arriving meanwhile is seen by the next fetch.
#[expect(
    clippy::struct_excessive_bools,
    reason = "four independent facts about one fetch loop, each tested step by step"
)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SummaryGate {
    last_ms: Option<f64>,
    fetching: bool,
    timer: bool,
    dirty: bool,
    urgent: bool,
}

impl SummaryGate {
    /// An envelope arrived at `now` (ms); `turn_end`: it ends a turn.
    pub fn envelope(&mut self, now: f64, turn_end: bool) -> Refresh {
        self.dirty = true;
        self.urgent |= turn_end;
        if self.fetching {
            return Refresh::Hold;
        }
        let due = self.last_ms.map_or(0.0, |t| t + REFRESH_EVERY_MS - now);
        if self.urgent || due <= 0.0 {
            return self.start();
        }
        if self.timer {
            return Refresh::Hold;
        }
        self.timer = true;
        Refresh::Wait(due)
    }

    /// The timer fired.
    pub fn fire(&mut self) -> Refresh {
        self.timer = false;
        if self.fetching || !self.dirty {
            return Refresh::Hold;
        }
        self.start()
    }

    /// The fetch was answered at `now` (or failed): a turn's end seen meanwhile is fetched
    /// now, other envelopes after the interval.
    pub fn fetched(&mut self, now: f64) -> Refresh {
        self.fetching = false;
        self.last_ms = Some(now);
        if !self.dirty {
            return Refresh::Hold;
        }
        if self.urgent {
            return self.start();
        }
        if self.timer {
            return Refresh::Hold;
        }
        self.timer = true;
        Refresh::Wait(REFRESH_EVERY_MS)
    }

    fn start(&mut self) -> Refresh {
        self.fetching = true;
        self.dirty = false;
        self.urgent = false;
        Refresh::Now
    }
}

#[cfg(test)]
mod tests;
