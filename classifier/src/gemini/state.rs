//! [`State`]: what classifying a Gemini line needs to know of the lines before it (kept in the
//! [`ClassifyCtx`](crate::ClassifyCtx)), with the data it holds — what a recording showed
//! ([`Seen`]), a JSON document being read ([`Pending`]) — and [`fnv`], the hash it remembers
//! by. Data only, depending on nothing else of the crate: [`record`](super::record) and
//! [`document`](super::document) read and change it.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

/// What classifying a Gemini line needs to know of the lines before it. Bounded: the answer
/// text of one row ([`TEXT_ROW_BYTES`](super::stream::TEXT_ROW_BYTES)), the last [`MAX_MESSAGES`](super::record::MAX_MESSAGES) messages
/// and [`MAX_RESULTS`](super::record::MAX_RESULTS) results of a recording.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct State {
    /// A turn is open (a prompt came, its end did not).
    #[serde(skip_serializing_if = "is_false")]
    pub(super) turn_open: bool,
    /// Stream-json: an `init` came and its prompt has not.
    #[serde(skip_serializing_if = "is_false")]
    pub(super) awaiting_prompt: bool,
    /// Stream-json: the answer text of the row being written (its deltas so far).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub(super) text: String,
    /// Stream-json: the number of answer rows so far (each its own coalesce key).
    #[serde(skip_serializing_if = "is_zero")]
    pub(super) text_rows: u64,
    /// Stream-json: the row before this line was the answer row being written.
    #[serde(skip_serializing_if = "is_false")]
    pub(super) text_last: bool,
    /// Recording: what each recent message showed ([`record`](super::record)).
    #[serde(skip_serializing_if = "Seen::is_empty")]
    pub(super) seen: Seen,
    /// A JSON document over many lines being read ([`document`](super::document)).
    #[serde(skip_serializing_if = "Pending::is_empty")]
    pub(crate) doc: Pending,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl State {
    /// Nothing remembered (so a context without Gemini lines serialises as before).
    pub(crate) fn is_empty(&self) -> bool {
        *self == State::default()
    }
}

/// What the recording showed so far.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Seen {
    /// The session id of the last metadata line.
    pub(super) session: String,
    /// The last messages shown, oldest first.
    pub(super) messages: VecDeque<Shown>,
    /// Hashes of the call ids whose results were shown, oldest first.
    pub(super) results: VecDeque<u64>,
    /// The last model message called no tool: the open turn looks answered.
    pub(super) answered: bool,
    /// A message was shown.
    pub(super) any: bool,
}

impl Seen {
    /// Nothing remembered.
    pub(crate) fn is_empty(&self) -> bool {
        *self == Seen::default()
    }
}

/// What one message showed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Shown {
    pub(super) id: u64,
    pub(super) text: u64,
    pub(super) thoughts: usize,
    pub(super) calls: Vec<u64>,
}

/// The lines of the document being read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Pending {
    /// Its text so far, lines joined by `\n` (empty: none open).
    pub(super) text: String,
    /// How many lines.
    pub(super) lines: u32,
}

impl Pending {
    /// Nothing open.
    pub(crate) fn is_empty(&self) -> bool {
        self.text.is_empty()
    }
}

/// 64-bit FNV-1a of `s`: the same on every platform (wasm too), to remember what was shown
/// without keeping it.
pub(crate) fn fnv(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
