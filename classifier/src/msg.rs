//! The wire types: one row ([`TermMsg`]) and the envelope that carries a source event's rows.
//!
//! Their JSON shape is the contract of `docs/FORMATS.md` ("Rows on the wire": six fields,
//! optional ones left out when absent, no kind tag). Besides these, serde is derived only on
//! the other wire types: [`crate::ClassifyCtx`] (handed from a server to a page that resumes
//! mid-log) and [`crate::LiveEvent`] (serialise only, to the hyperhive event-log shape).

use serde::{Deserialize, Serialize};

/// How loud a row is. It alone drives the row's colour.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Muted: thinking, ticks, ambient harness chatter, unknown system subtypes.
    Debug,
    /// Default foreground: turns, assistant text, tool calls and their results.
    #[default]
    Info,
    /// Amber with a left rule: stderr, unrecognised shapes, API retries.
    Warn,
    /// Red with a left rule: failed turns, tool errors, hard API errors, unreadable lines.
    Error,
}

impl Level {
    /// The lowercase wire name (`"debug"`, …), also the CSS class suffix.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Debug => "debug",
            Level::Info => "info",
            Level::Warn => "warn",
            Level::Error => "error",
        }
    }
}

/// How a row's body is to be rendered. A body without a format is plain text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BodyFormat {
    /// Markdown, rendered through [`crate::markdown`].
    Markdown,
    /// A line diff: lines starting `+` were added, `-` removed.
    Diff,
}

/// One terminal row. The same six fields for every row.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TermMsg {
    /// Glyph in the row's fixed-width prefix cell, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
    /// Severity; drives colour.
    pub level: Level,
    /// The one-line summary (may be empty for a flat markdown row).
    pub summary: String,
    /// Expandable body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// How to render `body`; absent means plain text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_format: Option<BodyFormat>,
    /// Consecutive rows with the same key replace each other while the previous is still last.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coalesce_key: Option<String>,
}

impl TermMsg {
    /// A row with a level and summary and nothing else.
    pub fn new(level: Level, summary: impl Into<String>) -> TermMsg {
        TermMsg {
            level,
            summary: summary.into(),
            ..TermMsg::default()
        }
    }

    /// Sets the icon.
    pub fn icon(mut self, icon: impl Into<String>) -> TermMsg {
        self.icon = Some(icon.into());
        self
    }

    /// Sets a plain-text body.
    pub fn body(mut self, body: impl Into<String>) -> TermMsg {
        self.body = Some(body.into());
        self
    }

    /// Sets a body with a format.
    pub fn body_as(mut self, body: impl Into<String>, format: BodyFormat) -> TermMsg {
        self.body = Some(body.into());
        self.body_format = Some(format);
        self
    }

    /// Sets the coalesce key.
    pub fn coalesce(mut self, key: impl Into<String>) -> TermMsg {
        self.coalesce_key = Some(key.into());
        self
    }
}

/// The rows of one source event, as they travel (SSE frame, history page, `hiveterm classify`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TermEnvelope {
    /// Unix seconds of the event, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ts: Option<f64>,
    /// The event's position in its log.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    /// Zero or more rows.
    pub msgs: Vec<TermMsg>,
}
