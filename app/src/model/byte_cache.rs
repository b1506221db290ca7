//! A cache of text answers bounded by their bytes, oldest first out: the page keeps the
//! bodies re-read from an offline log's file ([`crate::offline::bodies`]) and the HTML the markdown
//! worker rendered ([`crate::markdown::render`]) in one of these each. Pure; tested natively.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::sync::Arc;

/// Answers by key, up to `cap` bytes of text (the newest one is kept even when alone over).
#[derive(Debug)]
pub struct ByteCache<K> {
    held: HashMap<K, Arc<str>>,
    order: VecDeque<K>,
    bytes: usize,
    cap: usize,
}

impl<K: Copy + Eq + Hash> ByteCache<K> {
    /// Empty, holding up to `cap` bytes.
    pub fn new(cap: usize) -> ByteCache<K> {
        ByteCache {
            held: HashMap::new(),
            order: VecDeque::new(),
            bytes: 0,
            cap,
        }
    }

    /// The text held for `key`.
    pub fn get(&self, key: &K) -> Option<&Arc<str>> {
        self.held.get(key)
    }

    /// Keeps `text` for `key` (a key already held keeps its first text), then lets the
    /// oldest go while over the cap.
    pub fn insert(&mut self, key: K, text: Arc<str>) {
        if self.held.contains_key(&key) {
            return;
        }
        self.bytes += text.len();
        self.held.insert(key, text);
        self.order.push_back(key);
        while self.bytes > self.cap && self.order.len() > 1 {
            if let Some(old) = self.order.pop_front()
                && let Some(t) = self.held.remove(&old)
            {
                self.bytes -= t.len();
            }
        }
    }

    /// Texts held.
    pub fn len(&self) -> usize {
        self.held.len()
    }

    /// Whether nothing is held.
    pub fn is_empty(&self) -> bool {
        self.held.is_empty()
    }

    /// Bytes of text held.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The cap it was made with.
    pub fn cap(&self) -> usize {
        self.cap
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_goes_past_the_cap_and_a_key_is_kept_once() {
        let mut c: ByteCache<u8> = ByteCache::new(5);
        c.insert(1, "ab".into());
        c.insert(1, "abcdef".into());
        assert_eq!(
            (c.len(), c.bytes(), c.get(&1).map(|t| &**t)),
            (1, 2, Some("ab"))
        );
        c.insert(2, "cd".into());
        c.insert(3, "ef".into());
        assert_eq!((c.len(), c.bytes(), c.get(&1)), (2, 4, None));
        c.insert(4, "0123456789".into());
        assert_eq!(
            (c.len(), c.bytes()),
            (1, 10),
            "the newest stays alone over the cap"
        );
        assert!(c.get(&4).is_some() && !c.is_empty());
    }
}
