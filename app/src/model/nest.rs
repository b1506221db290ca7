//! Subagents nested under their call, as the page shows them (`docs/ROWS.md`, "What the page
//! adds"): each envelope's `parent` names the envelope of the call that started its subagent;
//! that subagent's rows are one block under the call's row — indented one step deeper,
//! collapsible as a whole, summed up in one line on the call's row ([`Block::line`]: agent
//! type, description, tool calls, duration, how it ended). A subagent started by a subagent
//! nests again.
//!
//! Pure: [`Block`] is one block's facts, kept up to date row by row; [`display_order`] is the
//! order the held rows are shown in (each block right after its call's envelope, a closed
//! block's rows left out). The view state ([`crate::model::state`]) holds both.

use std::collections::HashMap;

use classifier::{Level, RowKind, duration, row_kind};

use crate::model::rows::Row;

/// How a subagent's block ended: the classifier's [`classifier::SubagentEnd`], read from its
/// rows (its own turn end) or, where they say nothing, from the log's summary.
pub use classifier::SubagentEnd as End;

/// One subagent's block: the facts its one-line summary shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Block {
    /// How deep its rows are (1 under a main-agent call, 2 under a subagent's call, …).
    pub depth: u32,
    /// The agent type its call asked for (`general-purpose`), when the call row says.
    pub agent: Option<String>,
    /// The call's description, when the call row says.
    pub description: Option<String>,
    /// Its rows held.
    pub rows: u32,
    /// Its tool calls.
    pub tool_calls: u32,
    /// Its error rows.
    pub errors: u32,
    /// The first and last times of its rows.
    pub first_ts: Option<f64>,
    /// See `first_ts`.
    pub last_ts: Option<f64>,
    /// How it ended, once a row says.
    pub end: Option<End>,
}

impl Block {
    /// A block at `depth`, for the call row `call` (when held).
    pub fn new(depth: u32, call: Option<&Row>) -> Block {
        let (agent, description) = call.map(call_words).unwrap_or_default();
        Block {
            depth,
            agent,
            description,
            ..Block::default()
        }
    }

    /// Counts one of its rows in.
    pub fn add(&mut self, row: &Row) {
        self.rows += 1;
        match row_kind(&row.msg) {
            RowKind::ToolCall => self.tool_calls += 1,
            RowKind::TurnOk => self.end = Some(End::Ok),
            RowKind::TurnFail => self.end = Some(End::Failed),
            RowKind::Interrupted => self.end = Some(End::Interrupted),
            _ => {}
        }
        if row.msg.level == Level::Error {
            self.errors += 1;
        }
        if let Some(ts) = row.ts.filter(|t| t.is_finite()) {
            self.first_ts = Some(self.first_ts.map_or(ts, |a| a.min(ts)));
            self.last_ts = Some(self.last_ts.map_or(ts, |b| b.max(ts)));
        }
    }

    /// The one-line summary on its call's row: `general-purpose · Survey the repo · 2 tool
    /// calls · 310ms · ✓ done` (what is not known left out; `running` before it ended).
    pub fn line(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        parts.extend(self.agent.clone());
        parts.extend(self.description.clone());
        parts.push(match self.tool_calls {
            1 => "1 tool call".to_owned(),
            n => format!("{n} tool calls"),
        });
        if self.errors > 0 {
            parts.push(match self.errors {
                1 => "1 error".to_owned(),
                n => format!("{n} errors"),
            });
        }
        if let (Some(a), Some(b)) = (self.first_ts, self.last_ts) {
            parts.push(duration(b - a));
        }
        parts.push(
            match self.end {
                Some(End::Ok) => "✓ done",
                Some(End::Failed) => "✗ failed",
                Some(End::Interrupted) => "⏹ interrupted",
                None if self.errors > 0 => "✗ errors",
                None => "… running",
            }
            .to_owned(),
        );
        parts.retain(|p| !p.is_empty());
        parts.join(" · ")
    }
}

/// The agent type and description a subagent call row names: `Agent Survey the repo
/// [general-purpose]` → (`general-purpose`, `Survey the repo`); any other call: the words after
/// the tool's name as the description.
pub fn call_words(call: &Row) -> (Option<String>, Option<String>) {
    let s = call.msg.summary.trim();
    let rest = s.split_once(' ').map_or("", |(_, r)| r).trim();
    let (desc, agent) = match rest.strip_suffix(']').and_then(|r| r.rsplit_once(" [")) {
        Some((d, a)) => (d.trim(), Some(a.trim().to_owned())),
        None => match rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            Some(a) => ("", Some(a.to_owned())),
            None => (rest, None),
        },
    };
    let desc = (!desc.is_empty()).then(|| desc.to_owned());
    (agent.filter(|a| !a.is_empty()), desc)
}

/// The order `rows` (held, oldest first, by `seq`) are shown in, as indices: each row in
/// turn, and after the last row of an envelope that started subagents, their blocks (when
/// `open(call seq)`), nested the same way. A row whose parent is not held is shown where it
/// is, as the main agent's.
pub fn display_order<'a>(
    rows: impl ExactSizeIterator<Item = &'a Row>,
    open: impl Fn(u64) -> bool,
) -> Vec<usize> {
    let rows: Vec<(Option<u64>, Option<u64>)> = rows.map(|r| (r.seq, r.parent)).collect();
    let held: std::collections::HashSet<u64> = rows.iter().filter_map(|r| r.0).collect();
    let mut children: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut top = Vec::new();
    for (i, (_, parent)) in rows.iter().enumerate() {
        match parent.filter(|p| held.contains(p)) {
            Some(p) => children.entry(p).or_default().push(i),
            None => top.push(i),
        }
    }
    let mut out = Vec::with_capacity(rows.len());
    // Depth first, without recursion: a stack of the rows still to emit, next on top.
    let mut stack: Vec<usize> = top.into_iter().rev().collect();
    while let Some(i) = stack.pop() {
        out.push(i);
        let seq = rows[i].0;
        let last_of_envelope = rows.get(i + 1).is_none_or(|next| next.0 != seq);
        if let Some(seq) = seq.filter(|_| last_of_envelope)
            && open(seq)
            && let Some(kids) = children.get(&seq)
        {
            stack.extend(kids.iter().rev());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use classifier::TermMsg;

    fn row(seq: u64, parent: Option<u64>, msg: TermMsg) -> Row {
        Row {
            uid: seq * 10,
            seq: Some(seq),
            idx: 0,
            ts: Some(seq as f64),
            msg,
            turn: None,
            tool: None,
            lazy: None,
            parent,
            depth: 0,
        }
    }

    fn text(seq: u64, parent: Option<u64>) -> Row {
        row(seq, parent, TermMsg::new(Level::Info, format!("r{seq}")))
    }

    fn order(rows: &[Row], closed: &[u64]) -> Vec<u64> {
        display_order(rows.iter(), |s| !closed.contains(&s))
            .into_iter()
            .map(|i| rows[i].seq.unwrap())
            .collect()
    }

    #[test]
    fn blocks_go_under_their_call_and_nest_again() {
        // 3 starts a subagent (its rows 5, 6, and 9 from its own file at the end), 6 starts
        // one in turn (7); 4 and 8 are the main agent's.
        let rows = vec![
            text(1, None),
            text(3, None),
            text(4, None),
            text(5, Some(3)),
            text(6, Some(3)),
            text(7, Some(6)),
            text(8, None),
            text(9, Some(3)),
        ];
        let cases: &[(&[u64], &[u64])] = &[
            (&[], &[1, 3, 5, 6, 7, 9, 4, 8]),
            (&[3], &[1, 3, 4, 8]),
            (&[6], &[1, 3, 5, 6, 9, 4, 8]),
            (&[3, 6], &[1, 3, 4, 8]),
        ];
        for (closed, want) in cases {
            assert_eq!(order(&rows, closed), *want, "closed {closed:?}");
        }
        // A parent not held (an older page not loaded): shown where it is.
        assert_eq!(order(&rows[3..], &[]), vec![5, 6, 7, 8, 9]);
        // An envelope of two rows: its block after the second.
        let mut two = text(3, None);
        two.idx = 1;
        let rows = [text(3, None), two, text(4, Some(3))];
        let got: Vec<(u64, u32)> = display_order(rows.iter(), |_| true)
            .into_iter()
            .map(|i| (rows[i].seq.unwrap(), rows[i].idx))
            .collect();
        assert_eq!(got, vec![(3, 0), (3, 1), (4, 0)]);
    }

    #[test]
    fn a_block_sums_itself_up_in_one_line() {
        let call = row(
            3,
            None,
            TermMsg::new(Level::Info, "Agent Survey the repo [general-purpose]").icon("🤖"),
        );
        let mut b = Block::new(1, Some(&call));
        assert_eq!(
            b.line(),
            "general-purpose · Survey the repo · 0 tool calls · … running"
        );
        b.add(&row(
            5,
            Some(3),
            TermMsg::new(Level::Info, "Read a.rs").icon("📖"),
        ));
        b.add(&row(
            6,
            Some(3),
            TermMsg::new(Level::Info, "8l · x…").icon("←"),
        ));
        b.add(&row(
            7,
            Some(3),
            TermMsg::new(Level::Info, "Bash $ ls").icon("🖥\u{fe0f}"),
        ));
        assert_eq!(
            b.line(),
            "general-purpose · Survey the repo · 2 tool calls · 2.0s · … running"
        );
        b.add(&row(
            8,
            Some(3),
            TermMsg::new(Level::Info, "turn ok").icon("✅"),
        ));
        assert_eq!(
            b.line(),
            "general-purpose · Survey the repo · 2 tool calls · 3.0s · ✓ done"
        );
        let mut failed = Block::new(1, None);
        failed.add(&row(
            9,
            Some(3),
            TermMsg::new(Level::Error, "boom").icon("✗"),
        ));
        assert_eq!(failed.line(), "0 tool calls · 1 error · 0ms · ✗ errors");
        for (summary, agent, desc) in [
            (
                "Agent Survey the repo [general-purpose]",
                Some("general-purpose"),
                Some("Survey the repo"),
            ),
            ("Task [Explore]", Some("Explore"), None),
            ("invoke_agent generalist", None, Some("generalist")),
            ("Agent", None, None),
        ] {
            let r = row(1, None, TermMsg::new(Level::Info, summary).icon("🤖"));
            assert_eq!(
                call_words(&r),
                (agent.map(str::to_owned), desc.map(str::to_owned)),
                "{summary}"
            );
        }
    }
}
