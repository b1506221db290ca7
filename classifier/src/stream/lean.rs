//! The lean parse of a Claude Code line's `message` ([`crate::lean`]): the message without what
//! no row or summary reads — of its `usage`, all but the four token counts (the server's tool
//! use, the cache's split by lifetime, the service tier…), and of its content blocks a thinking
//! block's `signature` and a redacted thinking block's `data` (opaque, often kilobytes).
//!
//! In a transcript the `message` comes before the line's `type`, so it is read this way before
//! the line is known to be a `user` or `assistant` line; a line that turns out to be anything
//! else is parsed again, whole ([`crate::lean`]). The equivalence test (`tests/lean.rs`) holds
//! the rows and summary of every fixture to the whole parse's.

use crate::lean::shaped::Shape;

/// What a value of a line's `message` is, for a lean parse.
#[derive(Clone, Copy)]
pub(crate) enum Of {
    /// The `message` itself: every field, its `usage` and `content` lean.
    Message,
    /// The message's `usage`: the token counts the turn rows and the summary add.
    Usage,
    /// The message's `content`, or one of its blocks.
    Blocks,
}

/// The token counts of a `usage` that are read (`summary::Tokens`, `stream::turns`).
const USAGE_KEYS: &[&str] = &[
    "input_tokens",
    "output_tokens",
    "cache_read_input_tokens",
    "cache_creation_input_tokens",
];

/// A line's `message`, read lean.
pub(crate) fn message() -> Of {
    Of::Message
}

impl Shape for Of {
    fn keeps(self, ty: Option<&str>, key: &str) -> bool {
        match (self, ty) {
            (Of::Message, _) => true,
            (Of::Usage, _) => USAGE_KEYS.contains(&key),
            (Of::Blocks, Some("thinking")) => key != "signature",
            (Of::Blocks, Some("redacted_thinking")) => key != "data",
            (Of::Blocks, _) => true,
        }
    }

    fn field(self, _ty: Option<&str>, key: &str) -> Option<Of> {
        match (self, key) {
            (Of::Message, "usage") => Some(Of::Usage),
            (Of::Message, "content") => Some(Of::Blocks),
            _ => None,
        }
    }

    fn element(self) -> Option<Of> {
        match self {
            Of::Blocks => Some(Of::Blocks),
            Of::Message | Of::Usage => None,
        }
    }
}
