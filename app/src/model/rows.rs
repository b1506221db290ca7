//! One row as the page holds it, and what is read from it without the rest of the list:
//! its turn time, its shape, whether a filter passes it. What a row *is* (a turn start or
//! end, a tool call and its tool) the classifier says: [`classifier::row_kind`],
//! [`classifier::tool_of`].

use std::sync::Arc;

use classifier::{BodyFormat, Level, TermMsg};

use crate::model::text::contains_ci;

/// A turn boundary's time, drawn in `.turn-time`, never in the summary.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TurnTime {
    /// A turn started at `ts` (unix seconds).
    Start {
        /// When.
        ts: f64,
    },
    /// A turn ended at `ts`, `dur` seconds after the open turn start it pairs with.
    End {
        /// When.
        ts: f64,
        /// Seconds since the paired start, when one was open.
        dur: Option<f64>,
    },
}

/// One row as the page holds it: a [`TermMsg`] with its address and derived facts.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Unique within the page's lifetime; the key for rendering and per-row UI state.
    pub uid: u64,
    /// The envelope's `seq` (`data-seq`).
    pub seq: Option<u64>,
    /// The row's place in its envelope (`data-idx`).
    pub idx: u32,
    /// The envelope's time.
    pub ts: Option<f64>,
    /// The row itself, verbatim from the classifier.
    pub msg: TermMsg,
    /// Turn start/end time, for turn rows with a `ts` (boxed: few rows are turn rows, and
    /// every row would otherwise carry its 32 bytes).
    pub turn: Option<Box<TurnTime>>,
    /// The tool a tool-call row called ([`classifier::tool_of`]), for the tool filter: one
    /// shared name per tool, not a string per row.
    pub tool: Option<Arc<str>>,
    /// The row has a body that was left in the log's file (`msg.body` is `None`): its
    /// line count. Read again when the row is shown open ([`crate::offline::bodies`]).
    pub lazy: Option<u32>,
    /// A subagent's row: the `seq` of the envelope holding the call that started it (the
    /// envelope's `parent`).
    pub parent: Option<u64>,
    /// How deep it is nested (0: the main agent's; [`crate::model::nest`]).
    pub depth: u32,
}

/// Which way a row goes, drawn by its colour (`docs/ROWS.md`, "What the page adds"): a tool
/// call out to a tool (cyan), its result back in (muted). Asked of the classifier
/// ([`classifier::row_kind`]), never read from the icon here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// A tool call.
    Out,
    /// A tool's result.
    In,
}

impl Direction {
    /// The row's class (`dir-out`, `dir-in`).
    pub fn class(self) -> &'static str {
        match self {
            Direction::Out => "dir-out",
            Direction::In => "dir-in",
        }
    }
}

/// A row's direction, when it is a call or a result.
pub fn direction(msg: &TermMsg) -> Option<Direction> {
    match classifier::row_kind(msg) {
        classifier::RowKind::ToolCall => Some(Direction::Out),
        classifier::RowKind::ToolResult => Some(Direction::In),
        _ => None,
    }
}

impl Row {
    /// How the row is laid out, whether its body is held or left in the file.
    pub fn shape(&self) -> Shape {
        shape_with(&self.msg, self.msg.body.is_some() || self.lazy.is_some())
    }

    /// The body's line count, held or not.
    pub fn body_lines(&self) -> usize {
        match (&self.msg.body, self.lazy) {
            (Some(b), _) => b.lines().count(),
            (None, Some(n)) => n as usize,
            (None, None) => 0,
        }
    }
}

/// How a row is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// No body: one line.
    Flat,
    /// Empty summary and a markdown body: the body alone, flat (assistant text).
    FlatMarkdown,
    /// Any other body: a `<details>`.
    Details,
}

/// The layout a row gets (`docs/ROWS.md`, "What the page adds": flat or expandable).
pub fn shape_of(msg: &TermMsg) -> Shape {
    shape_with(msg, msg.body.is_some())
}

fn shape_with(msg: &TermMsg, has_body: bool) -> Shape {
    match (has_body, msg.body_format) {
        (false, _) => Shape::Flat,
        (true, Some(BodyFormat::Markdown)) if msg.summary.trim().is_empty() => Shape::FlatMarkdown,
        (true, _) => Shape::Details,
    }
}

/// Which rows are shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    /// Levels shown, indexed debug, info, warn, error.
    pub levels: [bool; 4],
    /// Only calls of this tool, when set.
    pub tool: Option<String>,
    /// Only rows whose summary or body contains this (case-insensitive), when not empty.
    pub query: String,
}

impl Default for Filter {
    fn default() -> Filter {
        Filter {
            levels: [true; 4],
            tool: None,
            query: String::new(),
        }
    }
}

/// Index of a level in [`Filter::levels`].
pub fn level_index(level: Level) -> usize {
    match level {
        Level::Debug => 0,
        Level::Info => 1,
        Level::Warn => 2,
        Level::Error => 3,
    }
}

impl Filter {
    /// Whether a row passes (a body left in the file never matches the query here: the
    /// worker searches those, [`Filter::passes_with`]).
    pub fn passes(&self, row: &Row) -> bool {
        self.passes_with(row, |_| false)
    }

    /// Whether a row passes, `body_hit` telling whether a body left in the file matches
    /// the query (the worker's search of them).
    pub fn passes_with(&self, row: &Row, body_hit: impl Fn(&Row) -> bool) -> bool {
        if !self.levels[level_index(row.msg.level)] {
            return false;
        }
        if let Some(tool) = &self.tool
            && row.tool.as_deref() != Some(tool.as_str())
        {
            return false;
        }
        if !self.query.is_empty() {
            let body = row.msg.body.as_deref().unwrap_or("");
            return contains_ci(&row.msg.summary, &self.query)
                || contains_ci(body, &self.query)
                || (row.lazy.is_some() && body_hit(row));
        }
        true
    }
}
