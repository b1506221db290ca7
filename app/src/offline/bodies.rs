//! Bodies left in an offline log's file: the worker sends the rows without them
//! ([`crate::worker::protocol::row_batch::strip`]), and a row shown open asks for its body here; the worker
//! re-reads and re-classifies its line from the nearest checkpoint and answers with the
//! body exactly as classified ([`crate::worker::classify::bodies_in`]).
//!
//! [`Bodies`] is the bookkeeping, pure and tested natively: one request per row (asked
//! again while in flight, it waits for the same answer), the rows asked within 60 ms sent as
//! one request (those scrolled past by then left out), answers cached (bounded by [`CACHE_BYTES`], oldest first out)
//! so a row drawn again shows its body at once, everything forgotten when another log
//! opens. [`BodySource`] runs it against the worker, for the rows.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use leptos::prelude::*;

use crate::model::byte_cache::ByteCache;

/// Most bytes of bodies kept for rows drawn again.
pub const CACHE_BYTES: usize = 16 * 1024 * 1024;

/// A row of the log: its `seq` and its place in its envelope.
pub type Key = (u64, u32);

/// Requests, answers and whoever waits for them (`W`: a signal on the page, anything in
/// tests).
#[derive(Debug)]
pub struct Bodies<W> {
    done: ByteCache<Key>,
    asked: HashMap<Key, Vec<W>>,
    queue: Vec<Key>,
}

impl<W> Default for Bodies<W> {
    fn default() -> Bodies<W> {
        Bodies::with_cap(CACHE_BYTES)
    }
}

impl<W> Bodies<W> {
    /// Nothing asked yet; bodies kept up to `cap` bytes.
    pub fn with_cap(cap: usize) -> Bodies<W> {
        Bodies {
            done: ByteCache::new(cap),
            asked: HashMap::new(),
            queue: Vec::new(),
        }
    }

    /// `waiter` wants row `key`'s body: it, when held; else `None`, and the waiter is told
    /// with the answer (the row queued for the next request unless already asked).
    pub fn ask(&mut self, key: Key, waiter: W) -> Option<Arc<str>> {
        if let Some(body) = self.done.get(&key) {
            return Some(body.clone());
        }
        let waiters = self.asked.entry(key).or_default();
        if waiters.is_empty() {
            self.queue.push(key);
        }
        waiters.push(waiter);
        None
    }

    /// The rows to ask the worker for now (each once).
    pub fn take_queue(&mut self) -> Vec<Key> {
        self.take_queue_of(|_| true)
    }

    /// The rows to ask the worker for now, of those someone still waits for (`alive`): a
    /// row scrolled past before its request went out is not asked for (scrolling through a
    /// big log would otherwise queue a re-read per row passed in the worker).
    pub fn take_queue_of(&mut self, alive: impl Fn(&W) -> bool) -> Vec<Key> {
        let queue = std::mem::take(&mut self.queue);
        queue
            .into_iter()
            .filter(|key| {
                let Some(waiters) = self.asked.get_mut(key) else {
                    return false;
                };
                waiters.retain(&alive);
                if waiters.is_empty() {
                    self.asked.remove(key);
                    return false;
                }
                true
            })
            .collect()
    }

    /// The worker's answer for row `key`: the body (now cached) and who waited for it.
    pub fn answer(&mut self, key: Key, body: String) -> (Arc<str>, Vec<W>) {
        let waiters = self.asked.remove(&key).unwrap_or_default();
        let body: Arc<str> = body.into();
        self.done.insert(key, body.clone());
        (body, waiters)
    }

    /// Another log: everything forgotten (its rows are others).
    pub fn clear(&mut self) {
        *self = Bodies::with_cap(self.done.cap());
    }

    /// Bodies held.
    pub fn cached(&self) -> usize {
        self.done.len()
    }

    /// Bytes of bodies held.
    pub fn bytes(&self) -> usize {
        self.done.bytes()
    }
}

/// The offline log's bodies on the page: the bookkeeping above, how to ask the worker
/// (the log's [`crate::offline::reader::Reader`]) and what to do once answers are shown (the
/// row list measures again). Owned by the offline log
/// ([`crate::offline::log_file::LogFile`]), handed to the rows through Leptos's context.
#[derive(Clone, Copy)]
pub struct BodySource(StoredValue<Inner, LocalStorage>);

type Waiter = RwSignal<Option<Arc<str>>>;

/// How the rows asked for go to the worker.
type Send = Rc<dyn Fn(&[Key])>;

struct Inner {
    bodies: Bodies<Waiter>,
    send: Send,
    arrival: Option<Rc<dyn Fn()>>,
}

/// How long the asks wait before they go out together (rows scrolled past by then are
/// not asked for).
const ASK_AFTER: std::time::Duration = std::time::Duration::from_millis(60);

impl BodySource {
    /// Nothing asked yet; requests go to `send`.
    pub fn new(send: impl Fn(&[Key]) + 'static) -> BodySource {
        BodySource(StoredValue::new_local(Inner {
            bodies: Bodies::default(),
            send: Rc::new(send),
            arrival: None,
        }))
    }

    /// Asks for row `key`'s body: `body` is set when it is known — at once when held, else
    /// when the worker answers (the rows asked in one turn go in one request).
    pub fn ask(self, key: Key, body: Waiter) {
        let Some((held, first)) = self.0.try_update_value(|i| {
            let was_empty = i.bodies.queue.is_empty();
            let held = i.bodies.ask(key, body);
            (held, was_empty && !i.bodies.queue.is_empty())
        }) else {
            return;
        };
        match held {
            Some(text) => body.set(Some(text)),
            None if first => set_timeout(move || self.send(), ASK_AFTER),
            None => {}
        }
    }

    fn send(self) {
        let Some((want, send)) = self.0.try_update_value(|i| {
            let want = i.bodies.take_queue_of(|w| !w.is_disposed());
            (want, i.send.clone())
        }) else {
            return;
        };
        if !want.is_empty() {
            send(&want);
        }
    }

    /// The worker's answer: bodies for their waiters.
    pub fn answer(self, found: Vec<(u64, u32, String)>) {
        for (seq, idx, text) in found {
            let Some((text, waiters)) = self
                .0
                .try_update_value(|i| i.bodies.answer((seq, idx), text))
            else {
                return;
            };
            for w in waiters {
                // A row drawn away since has dropped its signal: nothing to set.
                let _ = w.try_set(Some(text.clone()));
            }
        }
        if let Some(f) = self.0.with_value(|i| i.arrival.clone()) {
            f();
        }
    }

    /// Another log opened.
    pub fn clear(self) {
        self.0.update_value(|i| i.bodies.clear());
    }

    /// Calls `f` after answers are shown (the row list measures the rows again).
    pub fn on_arrival(self, f: impl Fn() + 'static) {
        self.0.update_value(|i| i.arrival = Some(Rc::new(f)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_request_per_row_and_answers_kept() {
        let mut b: Bodies<u8> = Bodies::with_cap(10);
        assert_eq!(b.ask((1, 0), 1), None);
        assert_eq!(b.ask((1, 0), 2), None);
        assert_eq!(b.ask((2, 1), 3), None);
        assert_eq!(b.take_queue(), vec![(1, 0), (2, 1)]);
        assert!(b.take_queue().is_empty());
        let (body, waiters) = b.answer((1, 0), "abcdef".into());
        assert_eq!((&*body, waiters), ("abcdef", vec![1, 2]));
        assert_eq!(b.ask((1, 0), 4).as_deref(), Some("abcdef"));
        // Over the cap, the oldest goes.
        let _ = b.answer((2, 1), "ghijkl".into());
        assert_eq!(b.cached(), 1);
        assert_eq!(b.bytes(), 6);
        assert_eq!(b.ask((1, 0), 5), None);
        assert_eq!(b.take_queue(), vec![(1, 0)]);
        b.clear();
        assert_eq!((b.cached(), b.bytes()), (0, 0));
        assert_eq!(b.ask((2, 1), 6), None);
    }

    #[test]
    fn rows_nobody_waits_for_any_more_are_not_asked_for() {
        let mut b: Bodies<u8> = Bodies::default();
        assert_eq!(b.ask((1, 0), 1), None);
        assert_eq!(b.ask((2, 0), 2), None);
        assert_eq!(b.ask((2, 0), 3), None);
        // Waiter 2 went away (its row was scrolled past): row 2 is still wanted by 3.
        assert_eq!(b.take_queue_of(|w| *w != 1 && *w != 2), vec![(2, 0)]);
        // Row 1 was forgotten: asked again, it is queued again.
        assert_eq!(b.ask((1, 0), 4), None);
        assert_eq!(b.take_queue(), vec![(1, 0)]);
        let (_, w) = b.answer((2, 0), "x".into());
        assert_eq!(w, vec![3]);
    }

    #[test]
    fn an_answer_nobody_asked_for_is_kept_once() {
        let mut b: Bodies<u8> = Bodies::default();
        let (_, w) = b.answer((3, 0), "x".into());
        assert!(w.is_empty());
        let _ = b.answer((3, 0), "x".into());
        assert_eq!((b.cached(), b.bytes()), (1, 1));
    }
}
