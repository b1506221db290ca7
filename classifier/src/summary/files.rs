//! [`FileIndex`]: the files a log changed, in first-seen order, with a set beside the list,
//! so that adding a path costs the same whether the log changed ten files or a hundred
//! thousand (issue 24: a list searched linearly made the summary of a log that touched 66,038
//! files quadratic), and a summary can list only the first few.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

/// The paths changed, first-seen order, each once. Serialised as the list alone; the set is
/// rebuilt from it when read back (a fold resumed from a checkpoint).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(from = "Vec<String>", into = "Vec<String>")]
pub(crate) struct FileIndex {
    list: Vec<String>,
    seen: HashSet<Box<str>>,
}

/// Equal lists are equal indexes: the set is derived from the list.
impl PartialEq for FileIndex {
    fn eq(&self, other: &FileIndex) -> bool {
        self.list == other.list
    }
}

impl From<Vec<String>> for FileIndex {
    fn from(list: Vec<String>) -> FileIndex {
        let mut index = FileIndex::default();
        for p in &list {
            index.add(p);
        }
        index
    }
}

impl From<FileIndex> for Vec<String> {
    fn from(index: FileIndex) -> Vec<String> {
        index.list
    }
}

impl FileIndex {
    /// Adds `path` unless it is there.
    pub(crate) fn add(&mut self, path: &str) {
        if !self.seen.contains(path) {
            self.seen.insert(Box::from(path));
            self.list.push(path.to_owned());
        }
    }

    /// Every path, first-seen order.
    pub(crate) fn all(&self) -> &[String] {
        &self.list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_each_path_once_in_first_seen_order_and_reads_back_as_it_was() {
        let mut ix = FileIndex::default();
        for p in ["b", "a", "b", "c", "a"] {
            ix.add(p);
        }
        assert_eq!(ix.all(), ["b", "a", "c"]);
        let json = serde_json::to_string(&ix).unwrap();
        assert_eq!(json, r#"["b","a","c"]"#);
        let mut back: FileIndex = serde_json::from_str(&json).unwrap();
        assert_eq!(back, ix);
        back.add("a");
        back.add("d");
        assert_eq!(back.all(), ["b", "a", "c", "d"]);
        // A list with a repeat (written by hand) reads back without it.
        let dup: FileIndex = serde_json::from_str(r#"["x","x"]"#).unwrap();
        assert_eq!(dup.all(), ["x"]);
    }

    #[test]
    fn many_distinct_files_cost_linear_time() {
        // 200,000 distinct paths, each added twice: a linear search would take minutes.
        let mut ix = FileIndex::default();
        for i in 0..200_000 {
            ix.add(&format!("src/f{i}.rs"));
            ix.add(&format!("src/f{}.rs", i / 2));
        }
        assert_eq!(ix.all().len(), 200_000);
    }
}
