//! What the summary fold keeps of the names a log may hold without end — the files it changed,
//! the tools it called, the models it used — ([`Kept`], issue 46.2): the first few of each,
//! each cut to [`NAME_BYTES`], and how many others there were. A log of 66,038 `Write` calls
//! made every checkpoint of the server's fold hold all 66,038 paths (526 MB of checkpoints,
//! +382 MB for one redacted share); now a fold is a few hundred KB at most, whatever the log.
//!
//! The others are told apart by a 64-bit fingerprint of each ([`Seen`]), at most
//! [`SEEN_KEPT`] of them: up to there the counts are exact; past it, a name whose fingerprint
//! is not kept counts as a new one, so a count past it is an upper bound (said in the summary:
//! `files_changed_at_most`). A fold made [`Kept::whole`] (`hiveterm summary`, which streams the
//! log once and checkpoints nothing) keeps every file and name, uncut.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::report::Summary;
use crate::gemini::state::digest;

/// Files a bounded fold lists (the others are counted).
pub const FILES_KEPT: usize = 256;
/// Tool names a bounded fold counts calls of one by one (the others' calls are counted
/// together).
pub const TOOLS_KEPT: usize = 64;
/// Models a bounded fold lists.
pub const MODELS_KEPT: usize = 16;
/// Longest name a bounded fold keeps, in bytes; a longer one is cut (at a character) and ends
/// with `…`.
pub const NAME_BYTES: usize = 256;
/// Fingerprints kept of the names not listed: past it, counts are upper bounds.
pub const SEEN_KEPT: usize = 4096;

/// Fingerprints of distinct names, at most a cap; how many names were told apart.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Seen {
    /// The fingerprints, as hex (16 digits each, sorted) when serialised.
    #[serde(with = "hex_set")]
    set: HashSet<u64>,
    /// Names counted as distinct.
    count: u64,
    /// A name was counted whose fingerprint could not be kept (the set was full): `count` may
    /// count a name twice.
    at_most: bool,
}

impl Seen {
    /// Counts `name` if its fingerprint is not known; whether it was counted. At most `cap`
    /// fingerprints are kept.
    fn note(&mut self, name: &str, cap: usize) -> bool {
        let h = digest(name);
        if self.set.contains(&h) {
            return false;
        }
        if self.set.len() < cap {
            self.set.insert(h);
        } else {
            self.at_most = true;
        }
        self.count += 1;
        true
    }
}

/// The paths changed: the first ones listed, every one counted once ([`Seen`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub(crate) struct FileIndex {
    list: Vec<String>,
    seen: Seen,
}

/// A fold checkpointed before issue 46.2 wrote its files as the list alone.
impl<'de> Deserialize<'de> for FileIndex {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<FileIndex, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Shape {
            Now {
                #[serde(default)]
                list: Vec<String>,
                #[serde(default)]
                seen: Seen,
            },
            List(Vec<String>),
        }
        Ok(match Shape::deserialize(d)? {
            Shape::Now { list, seen } => FileIndex { list, seen },
            Shape::List(list) => {
                let mut index = FileIndex::default();
                for p in &list {
                    index.add(p, &Limits::BOUNDED);
                }
                index
            }
        })
    }
}

impl FileIndex {
    fn add(&mut self, path: &str, limits: &Limits) {
        if self.seen.note(path, limits.seen) && self.list.len() < limits.files {
            self.list.push(limits.cut(path));
        }
    }

    /// The paths listed, first-seen order.
    pub(crate) fn listed(&self) -> &[String] {
        &self.list
    }

    /// How many distinct paths (an upper bound when [`FileIndex::at_most`]).
    pub(crate) fn count(&self) -> u64 {
        self.seen.count
    }

    /// Whether [`FileIndex::count`] is an upper bound.
    pub(crate) fn at_most(&self) -> bool {
        self.seen.at_most
    }
}

/// How much a fold keeps.
struct Limits {
    files: usize,
    tools: usize,
    models: usize,
    seen: usize,
    name: usize,
}

impl Limits {
    const BOUNDED: Limits = Limits {
        files: FILES_KEPT,
        tools: TOOLS_KEPT,
        models: MODELS_KEPT,
        seen: SEEN_KEPT,
        name: NAME_BYTES,
    };
    const WHOLE: Limits = Limits {
        files: usize::MAX,
        tools: usize::MAX,
        models: usize::MAX,
        seen: usize::MAX,
        name: usize::MAX,
    };

    /// `name`, cut to the longest kept.
    fn cut(&self, name: &str) -> String {
        cut(name, self.name)
    }
}

/// `name` cut to at most `max` bytes (at a character), ending `…` when cut.
pub(crate) fn cut(name: &str, max: usize) -> String {
    if name.len() <= max {
        return name.to_owned();
    }
    let mut end = max.saturating_sub('…'.len_utf8());
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &name[..end])
}

/// What the fold keeps of the files, tools and models (see the module's docs).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Kept {
    /// The files changed.
    files: FileIndex,
    /// The tools not counted one by one.
    tools: Seen,
    /// The models not listed.
    models: Seen,
    /// Every file, tool and model kept, uncut (never serialised: a fold read back is bounded).
    #[serde(skip)]
    whole: bool,
}

impl Kept {
    /// Keeping everything.
    pub(crate) fn whole() -> Kept {
        Kept {
            whole: true,
            ..Kept::default()
        }
    }

    fn limits(&self) -> &'static Limits {
        if self.whole {
            &Limits::WHOLE
        } else {
            &Limits::BOUNDED
        }
    }

    /// A file changed.
    pub(crate) fn file(&mut self, path: &str) {
        let limits = self.limits();
        self.files.add(path, limits);
    }

    /// The files changed.
    pub(crate) fn files(&self) -> &FileIndex {
        &self.files
    }

    /// A call of `name`, counted in `s`: by name while a name is counted or fewer than
    /// [`TOOLS_KEPT`] are, else in `tool_calls_more` (and a new name in `tools_more`).
    pub(crate) fn tool(&mut self, s: &mut Summary, name: &str) {
        let limits = self.limits();
        let kept = if name.len() > limits.name {
            std::borrow::Cow::Owned(limits.cut(name))
        } else {
            std::borrow::Cow::Borrowed(name)
        };
        // (A name is copied only the first time.)
        if let Some(n) = s.tool_calls.get_mut(kept.as_ref()) {
            *n += 1;
        } else if s.tool_calls.len() < limits.tools {
            s.tool_calls.insert(kept.into_owned(), 1);
        } else {
            s.tool_calls_more += 1;
            if self.tools.note(name, limits.seen) {
                s.tools_more += 1;
            }
        }
    }

    /// A model used, listed in `s` if new, while fewer than [`MODELS_KEPT`] are (else counted
    /// in `models_more`).
    pub(crate) fn model(&mut self, s: &mut Summary, model: &str) {
        let limits = self.limits();
        let kept = limits.cut(model);
        if s.models.contains(&kept) {
            return;
        }
        if s.models.len() < limits.models {
            s.models.push(kept);
        } else if self.models.note(model, limits.seen) {
            s.models_more += 1;
        }
    }
}

/// A set of fingerprints as one string of hex, sorted (a checkpoint's bytes do not depend on
/// a hash set's order, and are half those of a JSON array of numbers).
mod hex_set {
    use std::collections::HashSet;

    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(set: &HashSet<u64>, s: S) -> Result<S::Ok, S::Error> {
        let mut v: Vec<u64> = set.iter().copied().collect();
        v.sort_unstable();
        let mut out = String::with_capacity(v.len() * 16);
        for h in v {
            out.push_str(&format!("{h:016x}"));
        }
        s.serialize_str(&out)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<HashSet<u64>, D::Error> {
        let text = String::deserialize(d)?;
        if !text.is_ascii() || text.len() % 16 != 0 {
            return Err(serde::de::Error::custom("not fingerprints"));
        }
        (0..text.len())
            .step_by(16)
            .map(|i| u64::from_str_radix(&text[i..i + 16], 16).map_err(serde::de::Error::custom))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_each_path_once_in_first_seen_order_and_reads_back_as_it_was() {
        let mut ix = Kept::default();
        for p in ["b", "a", "b", "c", "a"] {
            ix.file(p);
        }
        assert_eq!(ix.files().listed(), ["b", "a", "c"]);
        let json = serde_json::to_string(&ix).unwrap();
        let mut back: Kept = serde_json::from_str(&json).unwrap();
        assert_eq!(back, ix);
        back.file("a");
        back.file("d");
        assert_eq!(back.files().listed(), ["b", "a", "c", "d"]);
        assert_eq!(back.files().count(), 4);
        // A fold checkpointed before (the list alone), with a repeat, reads back without it.
        let old: FileIndex = serde_json::from_str(r#"["x","x","y"]"#).unwrap();
        assert_eq!(
            (old.listed(), old.count()),
            (&["x".to_owned(), "y".to_owned()][..], 2)
        );
    }

    #[test]
    fn many_distinct_files_cost_linear_time_and_bounded_room() {
        // 200,000 distinct paths, each added twice: a linear search would take minutes.
        let mut ix = Kept::default();
        for i in 0..200_000 {
            ix.file(&format!("src/f{i}.rs"));
            ix.file(&format!("src/f{}.rs", i / 2));
        }
        // Past SEEN_KEPT fingerprints a repeat counts again: an upper bound, said so.
        let f = ix.files();
        assert_eq!(f.listed().len(), FILES_KEPT);
        assert!((200_000..=400_000).contains(&f.count()), "{}", f.count());
        assert!(f.at_most());
        assert!(serde_json::to_string(&ix).unwrap().len() < 100 * 1024);
        let mut whole = Kept::whole();
        for i in 0..200_000 {
            whole.file(&format!("src/f{i}.rs"));
            whole.file(&format!("src/f{}.rs", i / 2));
        }
        let f = whole.files();
        assert_eq!(
            (f.listed().len(), f.count(), f.at_most()),
            (200_000, 200_000, false)
        );
    }

    #[test]
    fn names_are_cut_at_a_character() {
        for (name, max, want) in [
            ("abc", 3, "abc"),
            ("abcd", 3, "…"),
            ("abcdefgh", 6, "abc…"),
            ("ééééé", 6, "é…"),
        ] {
            assert_eq!(cut(name, max), want, "{name} {max}");
            assert!(cut(name, max).len() <= max.max(3));
        }
    }
}
