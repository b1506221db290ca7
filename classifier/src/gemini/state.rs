//! [`State`]: what classifying a Gemini line needs to know of the lines before it (kept in the
//! [`ClassifyCtx`](crate::ClassifyCtx)), with the data it holds — what a recording showed
//! ([`Seen`]) — and [`digest`], the hash it remembers by. Data only, depending on nothing else
//! of the crate: [`record`](super::record) reads and changes it.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::answer::Answer;

/// What classifying a Gemini line needs to know of the lines before it. Bounded: the answer
/// text of one row and its first bytes ([`TEXT_ROW_BYTES`](super::answer::TEXT_ROW_BYTES)), the last [`MAX_MESSAGES`](super::record::MAX_MESSAGES) messages
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
    /// Stream-json: the answer being written ([`Answer`]).
    #[serde(skip_serializing_if = "Answer::is_empty")]
    pub(super) answer: Answer,
    /// Stream-json: the number of answer rows so far (each its own coalesce key).
    #[serde(skip_serializing_if = "is_zero")]
    pub(super) text_rows: u64,
    /// Stream-json: the row before this line was the answer row being written.
    #[serde(skip_serializing_if = "is_false")]
    pub(super) text_last: bool,
    /// Recording: what each recent message showed ([`record`](super::record)).
    #[serde(skip_serializing_if = "Seen::is_empty")]
    pub(super) seen: Seen,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl State {
    /// Whether a recording's `$set` history is past deciding rows: a message of the recording
    /// was shown ([`record`](super::record) reads a history only before; [`lean`](super::lean)).
    pub(crate) fn history_seen(&self) -> bool {
        self.seen.any
    }

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
    /// Why the open turn failed, when the recording says it did (an `error` record, an
    /// `[API Error: …]`): it ends failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) failed: Option<String>,
    /// The hash of the open turn's prompt's id (0: none): a history rewritten without it
    /// took the prompt back, its request failed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(super) prompt: u64,
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

/// A 64-bit hash of `s`, eight bytes at a time: the same on every platform (wasm too), to
/// remember what was shown without keeping it. (Until 2026-12-04 this was FNV-1a, a byte at a
/// time: hashing every message's text was a tenth of classifying a recording. A context
/// carried from before remembers other hashes; at worst a message it had shown shows again.)
pub(crate) fn digest(s: &str) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let b = s.as_bytes();
    let mix = |h: u64, w: u64| {
        let h = (h ^ w).wrapping_mul(K);
        h ^ (h >> 32)
    };
    let mut h = 0xcbf2_9ce4_8422_2325;
    let words = b.chunks_exact(8);
    let tail = words.remainder();
    for w in words {
        h = mix(h, u64::from_le_bytes(w.try_into().expect("eight bytes")));
    }
    let mut last = [0u8; 8];
    last[..tail.len()].copy_from_slice(tail);
    h = mix(h, u64::from_le_bytes(last));
    // The length last: a text and the same text with NUL bytes after it are padded alike.
    mix(h, b.len() as u64 ^ K)
}

#[cfg(test)]
mod tests {
    use super::digest;

    #[test]
    fn digest_tells_near_texts_apart() {
        let mut seen = std::collections::HashSet::new();
        let texts = [
            "",
            "a",
            "b",
            "ab",
            "ba",
            "a\0",
            "abcdefgh",
            "abcdefghi",
            "abcdefgi",
        ];
        for t in texts {
            assert!(seen.insert(digest(t)), "{t:?}");
        }
        // Every two-character text over a small alphabet, at every length up to 17 bytes: as
        // many hashes as texts.
        let mut texts = std::collections::HashSet::new();
        for a in 0u8..128 {
            for b in [0u8, 1, b'a', 127] {
                for pad in 0..16 {
                    let mut s = "p".repeat(pad);
                    s.push(char::from(a));
                    s.push(char::from(b));
                    texts.insert(s);
                }
            }
        }
        let hashes: std::collections::HashSet<u64> = texts.iter().map(|t| digest(t)).collect();
        assert_eq!(hashes.len(), texts.len());
        assert_ne!(digest("x"), digest("x\0"));
        assert_eq!(digest("same"), digest("same"));
    }
}
