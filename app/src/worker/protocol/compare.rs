//! The page and the compare worker (`src/bin/cmpworker.rs`, [`crate::worker::compare`]): two
//! logs sent to be compared (their `File`s attached, an `Array` of two), the bytes read as it
//! goes, then the compare page's answer ([`Comparison`], as `GET /api/compare/{a}/{b}` gives
//! it) or why there is none.

use contract::compare::Comparison;
use serde::{Deserialize, Serialize};

/// Page → compare worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToCompare {
    /// Compare the two attached logs (A, then B), named `names`.
    Logs {
        /// A's and B's names (their files').
        names: [String; 2],
    },
}

/// Compare worker → page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FromCompare {
    /// The worker listens: messages sent before this are lost.
    Ready,
    /// Bytes of the two logs read so far, of `total`.
    Read {
        /// Read.
        read: f64,
        /// Both logs' bytes.
        total: f64,
    },
    /// The two runs aligned.
    Done(Box<Comparison>),
    /// Why there is no comparison (a log could not be read).
    Error(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worker::protocol::{decode, encode};

    #[test]
    fn issue_48_the_compare_workers_messages_are_pinned_both_ways() {
        let to = ToCompare::Logs {
            names: ["a.jsonl".into(), "b.jsonl".into()],
        };
        assert_eq!(encode(&to), r#"{"logs":{"names":["a.jsonl","b.jsonl"]}}"#);
        assert_eq!(decode::<ToCompare>(&encode(&to)), Some(to));
        assert_eq!(encode(&FromCompare::Ready), r#""ready""#);
        let read = FromCompare::Read {
            read: 3.0,
            total: 10.0,
        };
        assert_eq!(encode(&read), r#"{"read":{"read":3.0,"total":10.0}}"#);
        let done = FromCompare::Done(Box::new(Comparison {
            a: "a.jsonl".into(),
            divergences: 2,
            ..Comparison::default()
        }));
        assert_eq!(decode::<FromCompare>(&encode(&done)), Some(done));
        let err = FromCompare::Error("cannot read a.jsonl".into());
        assert_eq!(decode::<FromCompare>(&encode(&err)), Some(err));
        assert_eq!(decode::<FromCompare>(r#"{"nope":1}"#), None);
    }
}
