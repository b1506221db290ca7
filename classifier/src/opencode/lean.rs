//! The lean parse of an OpenCode `run --format json` line's `part` ([`crate::lean`]): the part
//! without what no row ([`super::part`], [`super::tools`], [`super::turn`]) or the summary
//! ([`super::summary`]) reads — its ids, times and snapshot, of a tool's `state` its title and
//! times, and of the state's `metadata` all but a shell's `exit` and an edit's `diff` (the
//! rest repeats the output, a file's diagnostics, the todos…). The equivalence test
//! (`tests/lean.rs`) holds the rows and summary of every fixture to the whole parse's.

use crate::lean::shaped::Shape;

/// What a value of a line's `part` is, for a lean parse.
#[derive(Clone, Copy)]
pub(crate) enum Of {
    /// The part itself.
    Part,
    /// A tool part's `state`.
    State,
    /// A tool state's `metadata`.
    Metadata,
}

/// How top-level field `key` of a line is read lean (`None`: whole).
pub(crate) fn line_field(key: &str) -> Option<Of> {
    (key == "part").then_some(Of::Part)
}

impl Shape for Of {
    fn keeps(self, _ty: Option<&str>, key: &str) -> bool {
        match self {
            Of::Part => !matches!(key, "id" | "messageID" | "sessionID" | "time" | "snapshot"),
            Of::State => matches!(key, "status" | "input" | "output" | "error" | "metadata"),
            Of::Metadata => matches!(key, "exit" | "diff"),
        }
    }

    fn field(self, _ty: Option<&str>, key: &str) -> Option<Of> {
        match (self, key) {
            (Of::Part, "state") => Some(Of::State),
            (Of::State, "metadata") => Some(Of::Metadata),
            _ => None,
        }
    }
}
