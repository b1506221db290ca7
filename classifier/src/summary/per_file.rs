//! [`FileFold`]: the part of a [`super::SummaryFold`] that belongs to the file being read, for
//! a session whose files' lines are folded interleaved; and [`Tokens`], which it holds.

use serde::{Deserialize, Serialize};

/// Token counts from one `usage` object.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Tokens {
    pub(super) input: u64,
    pub(super) output: u64,
    pub(super) cache_read: u64,
    pub(super) cache_creation: u64,
}

/// What a [`super::SummaryFold`] knows of the file whose lines it is reading (the last
/// assistant message's id and counted usage, so the message's other lines replace rather than
/// add; a JSON document over many lines being read). A server that folds a session's files'
/// lines interleaved, as they were written (a main log and its subagents' files), keeps one
/// for each file and swaps it in before a line of another file
/// ([`super::SummaryFold::swap_file`]): the summary is then the one of the files read one
/// after the other.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FileFold {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) last_message: Option<(String, Tokens)>,
    #[serde(skip_serializing_if = "crate::gemini::document::Pending::is_empty")]
    pub(super) doc: crate::gemini::document::Pending,
}
