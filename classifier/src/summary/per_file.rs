//! [`FileFold`]: the part of a [`super::SummaryFold`] that belongs to the file being read, for
//! a session whose files' lines are folded interleaved; and [`Tokens`], which it holds (read
//! from a `usage` object), with [`pick`], the summary's reader of a few keys of an object.

use serde::{Deserialize, Serialize};
use serde_json::Value;

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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) last_priced: Option<crate::prices::ModelTokens>,
    #[serde(skip_serializing_if = "crate::document::Pending::is_empty")]
    pub(super) doc: crate::document::Pending,
}

impl Tokens {
    pub(super) fn of(usage: Option<&Value>) -> Option<Tokens> {
        usage?.as_object()?;
        let [input, output, cache_read, cache_creation] = pick(
            usage,
            [
                "input_tokens",
                "output_tokens",
                "cache_read_input_tokens",
                "cache_creation_input_tokens",
            ],
        )
        .map(|v| v.and_then(Value::as_u64).unwrap_or(0));
        Some(Tokens {
            input,
            output,
            cache_read,
            cache_creation,
        })
    }

    pub(super) fn add(&mut self, o: Tokens) {
        self.input += o.input;
        self.output += o.output;
        self.cache_read += o.cache_read;
        self.cache_creation += o.cache_creation;
    }

    pub(super) fn sub(&mut self, o: Tokens) {
        self.input = self.input.saturating_sub(o.input);
        self.output = self.output.saturating_sub(o.output);
        self.cache_read = self.cache_read.saturating_sub(o.cache_read);
        self.cache_creation = self.cache_creation.saturating_sub(o.cache_creation);
    }
}

/// The values of `keys` in the object `v` (`None` for a missing key, or when `v` is not an
/// object), found in one pass over its entries: the objects read here are small, and a scan
/// comparing keys costs less than hashing each key for a lookup.
pub(super) fn pick<'a, const N: usize>(
    v: Option<&'a Value>,
    keys: [&str; N],
) -> [Option<&'a Value>; N] {
    let mut out = [None; N];
    if let Some(obj) = v.and_then(Value::as_object) {
        for (k, val) in obj {
            if let Some(i) = keys.iter().position(|want| *want == k.as_str()) {
                out[i] = Some(val);
            }
        }
    }
    out
}
