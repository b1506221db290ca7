//! Markdown bodies rendered off the page's wasm: the page does not link the markdown renderer
//! (pulldown-cmark + ammonia, most of a 500 KB budget); the worker does
//! ([`crate::worker::markdown`]), and answers each body with its cleaned HTML.
//!
//! The markdown worker (its own wasm, `src/bin/mdworker.rs`, built small) is started on the
//! first markdown body a page shows, live or offline, and kept for the page's lifetime (the
//! worker that classifies an offline log is busy for seconds at a time and is stopped when
//! another log is opened). The page sends it [`ToMarkdown::Render`] (a body, as drawn: the
//! cut part of a huge one) and it answers [`FromMarkdown::Rendered`]:
//! `classifier::markdown::render(text)`.
//!
//! [`Renders`] is the bookkeeping, pure and tested natively: one request per distinct body
//! (asked again while in flight, it waits for the same answer), requests held until the
//! worker listens, answers cached per body (bounded by [`CACHE_BYTES`], oldest first out) so
//! a row drawn again — scrolled back to, made current, reopened — shows its HTML at once.
//! [`Renderer`] runs it against the worker; [`crate::markdown::view`] is the one place the
//! answer is set as HTML.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{MessageEvent, Worker};

use crate::model::byte_cache::ByteCache;
use crate::worker::protocol::port::{post, receive};
use crate::worker::protocol::{FromMarkdown, ToMarkdown};

/// Most bytes of rendered HTML kept for rows drawn again.
pub const CACHE_BYTES: usize = 8 * 1024 * 1024;

/// A body's identity: its hash and length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key(u64, usize);

impl Key {
    /// The key of `body`.
    pub fn of(body: &str) -> Key {
        let mut h = DefaultHasher::new();
        body.hash(&mut h);
        Key(h.finish(), body.len())
    }
}

/// What to do about a body asked for.
#[derive(Debug, Clone, PartialEq)]
pub enum Ask {
    /// Rendered before: its HTML.
    Ready(Arc<str>),
    /// Send this request to the worker now.
    Send(u64, String),
    /// Nothing now: it is in flight, or held until the worker listens.
    Wait,
}

/// Requests, answers and whoever waits for them (`W`: a signal on the page, anything in
/// tests).
#[derive(Debug)]
pub struct Renders<W> {
    ready: bool,
    next_id: u64,
    done: ByteCache<Key>,
    in_flight: HashMap<Key, u64>,
    asked: HashMap<u64, (Key, Vec<W>)>,
    held: Vec<(u64, String)>,
}

impl<W> Default for Renders<W> {
    fn default() -> Renders<W> {
        Renders::with_cap(CACHE_BYTES)
    }
}

impl<W> Renders<W> {
    /// Nothing asked yet; answers kept up to `cap` bytes of HTML.
    pub fn with_cap(cap: usize) -> Renders<W> {
        Renders {
            ready: false,
            next_id: 1,
            done: ByteCache::new(cap),
            in_flight: HashMap::new(),
            asked: HashMap::new(),
            held: Vec::new(),
        }
    }

    /// `waiter` wants `body` rendered.
    pub fn ask(&mut self, body: &str, waiter: W) -> Ask {
        let key = Key::of(body);
        if let Some(html) = self.done.get(&key) {
            return Ask::Ready(html.clone());
        }
        if let Some(id) = self.in_flight.get(&key) {
            if let Some((_, waiters)) = self.asked.get_mut(id) {
                waiters.push(waiter);
            }
            return Ask::Wait;
        }
        let id = self.next_id;
        self.next_id += 1;
        self.in_flight.insert(key, id);
        self.asked.insert(id, (key, vec![waiter]));
        if self.ready {
            Ask::Send(id, body.to_owned())
        } else {
            self.held.push((id, body.to_owned()));
            Ask::Wait
        }
    }

    /// The worker listens: the requests held until now, to send.
    pub fn ready(&mut self) -> Vec<(u64, String)> {
        self.ready = true;
        std::mem::take(&mut self.held)
    }

    /// Whether requests go out at once.
    pub fn is_ready(&self) -> bool {
        self.ready
    }

    /// The worker answered request `id`: the HTML (now cached) and who waited for it. An
    /// unknown id (answered twice, or never asked) gives nothing.
    pub fn answer(&mut self, id: u64, html: String) -> Option<(Arc<str>, Vec<W>)> {
        let (key, waiters) = self.asked.remove(&id)?;
        self.in_flight.remove(&key);
        let html: Arc<str> = html.into();
        self.done.insert(key, html.clone());
        Some((html, waiters))
    }

    /// Bodies whose HTML is kept.
    pub fn cached(&self) -> usize {
        self.done.len()
    }

    /// Requests asked and not answered.
    pub fn pending(&self) -> usize {
        self.asked.len()
    }
}

type Waiter = RwSignal<Option<Arc<str>>>;
type Backend = Rc<dyn Fn(u64, String)>;

/// Where requests go: the worker (started on the first), or a backend set by hand.
enum Sink {
    /// No worker yet: started (from `url`, else next to the page) on the first request.
    None {
        url: Option<String>,
    },
    Worker {
        worker: Worker,
        // Kept alive as long as the worker: it is the worker's message listener.
        _on_message: Closure<dyn FnMut(MessageEvent)>,
    },
    Broken,
    Backend(Backend),
}

struct Inner {
    renders: Renders<Waiter>,
    sink: Sink,
    arrival: Option<Rc<dyn Fn()>>,
}

/// The page's markdown renderer: [`Renders`] run against the markdown worker. Made by the
/// page and handed to the rows through Leptos's context ([`crate::markdown::view`] asks
/// it; the row list hears when answers arrive).
#[derive(Clone, Copy)]
pub struct Renderer(StoredValue<Inner, LocalStorage>);

impl Renderer {
    /// Renders in the markdown worker, started on the first body (`url`: an exported
    /// file's `blob:` URL of it, a classic script; else `./mdworker_loader.js`, next to the
    /// page wherever it is served).
    pub fn new(url: Option<String>) -> Renderer {
        Renderer::with_sink(Sink::None { url })
    }

    /// Renders with `backend` instead of the worker (a test): it gets each request and
    /// answers through [`Renderer::answer`].
    pub fn with_backend(backend: impl Fn(u64, String) + 'static) -> Renderer {
        let r = Renderer::with_sink(Sink::Backend(Rc::new(backend)));
        r.flush();
        r
    }

    fn with_sink(sink: Sink) -> Renderer {
        Renderer(StoredValue::new_local(Inner {
            renders: Renders::default(),
            sink,
            arrival: None,
        }))
    }

    /// Asks for `body`'s HTML: `html` is set when it is known — at once when it was
    /// rendered before, else when the worker answers (the first ask starts the worker).
    pub fn ask(self, body: &str, html: Waiter) {
        let broken = self.0.with_value(|i| matches!(i.sink, Sink::Broken));
        if broken {
            return;
        }
        match self.0.try_update_value(|i| i.renders.ask(body, html)) {
            Some(Ask::Ready(h)) => html.set(Some(h)),
            Some(Ask::Send(id, text)) => self.send(id, text),
            Some(Ask::Wait) => self.start(),
            None => {}
        }
    }

    /// Calls `f` after each answer is shown (the row list measures the rows again).
    pub fn on_arrival(self, f: impl Fn() + 'static) {
        self.0.update_value(|i| i.arrival = Some(Rc::new(f)));
    }

    /// The answer to request `id`.
    pub fn answer(self, id: u64, html: String) {
        let Some(Some((html, waiters))) = self.0.try_update_value(|i| i.renders.answer(id, html))
        else {
            return;
        };
        for w in waiters {
            // A row drawn away since has dropped its signal: nothing to set.
            let _ = w.try_set(Some(html.clone()));
        }
        if let Some(f) = self.0.with_value(|i| i.arrival.clone()) {
            f();
        }
    }

    fn send(self, id: u64, text: String) {
        let backend = self.0.with_value(|i| match &i.sink {
            Sink::Backend(b) => Some(b.clone()),
            Sink::Worker { worker, .. } => {
                post(
                    worker,
                    &ToMarkdown::Render {
                        id,
                        text: text.clone(),
                    },
                    None,
                );
                None
            }
            Sink::None { .. } | Sink::Broken => None,
        });
        if let Some(b) = backend {
            b(id, text);
        }
    }

    /// Sends what was held until the sink listens.
    fn flush(self) {
        let held = self
            .0
            .try_update_value(|i| i.renders.ready())
            .unwrap_or_default();
        for (id, text) in held {
            self.send(id, text);
        }
    }

    /// Starts the worker, unless there is one (or a backend).
    fn start(self) {
        let Some(url) = self.0.with_value(|i| match &i.sink {
            Sink::None { url } => Some(url.clone()),
            _ => None,
        }) else {
            return;
        };
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            match receive::<FromMarkdown>(&ev) {
                Some((FromMarkdown::Ready, _)) => self.flush(),
                Some((FromMarkdown::Rendered { id, html }, _)) => self.answer(id, html),
                None => {}
            }
        });
        let worker = match url {
            Some(url) => crate::browser::new_classic_worker(&url),
            None => crate::browser::new_worker("./mdworker_loader.js"),
        };
        let sink = match worker {
            Ok(w) => {
                w.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
                Sink::Worker {
                    worker: w,
                    _on_message: on_message,
                }
            }
            // No worker (the browser refused it): bodies stay plain text.
            Err(_) => Sink::Broken,
        };
        self.0.update_value(|i| i.sink = sink);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(steps: &[(&str, &str)], expect: &[&str]) {
        // A tiny script: ("ask", body) asks with waiter = body; ("ready", "") the worker
        // listens; ("answer", id) answers id with "<p>{id}</p>". Each step's outcome is
        // written down and compared.
        let mut r: Renders<String> = Renders::with_cap(64);
        let mut got = Vec::new();
        for (op, arg) in steps {
            let out = match *op {
                "ask" => format!("{:?}", r.ask(arg, (*arg).to_owned())),
                "ready" => format!("{:?}", r.ready()),
                "answer" => {
                    let id: u64 = arg.parse().unwrap();
                    format!("{:?}", r.answer(id, format!("<p>{id}</p>")))
                }
                _ => unreachable!(),
            };
            got.push(out);
        }
        assert_eq!(got, expect);
    }

    #[test]
    fn requests_wait_for_the_worker_then_go_once_per_body() {
        check(
            &[
                ("ask", "*a*"),
                ("ask", "*a*"),
                ("ask", "*b*"),
                ("ready", ""),
                ("ask", "*c*"),
                ("ask", "*c*"),
            ],
            &[
                "Wait",
                "Wait",
                "Wait",
                r#"[(1, "*a*"), (2, "*b*")]"#,
                r#"Send(3, "*c*")"#,
                "Wait",
            ],
        );
    }

    #[test]
    fn an_answer_reaches_every_waiter_and_is_cached() {
        check(
            &[
                ("ready", ""),
                ("ask", "x"),
                ("ask", "x"),
                ("answer", "1"),
                ("ask", "x"),
                ("answer", "1"),
                ("answer", "9"),
            ],
            &[
                "[]",
                r#"Send(1, "x")"#,
                "Wait",
                r#"Some(("<p>1</p>", ["x", "x"]))"#,
                r#"Ready("<p>1</p>")"#,
                "None",
                "None",
            ],
        );
    }

    #[test]
    fn the_cache_drops_the_oldest_past_its_bytes() {
        let mut r: Renders<()> = Renders::with_cap(10);
        r.ready();
        for (i, body) in ["a", "b", "c"].iter().enumerate() {
            assert_eq!(r.ask(body, ()), Ask::Send(i as u64 + 1, (*body).to_owned()));
            r.answer(i as u64 + 1, "12345".to_owned());
        }
        assert_eq!(r.cached(), 2);
        assert_eq!(r.ask("a", ()), Ask::Send(4, "a".to_owned()));
        assert_eq!(r.ask("c", ()), Ask::Ready("12345".into()));
        assert_eq!(r.pending(), 1);
    }

    #[test]
    fn one_answer_bigger_than_the_cache_is_still_kept() {
        let mut r: Renders<()> = Renders::with_cap(4);
        r.ready();
        r.ask("big", ());
        let (html, _) = r.answer(1, "0123456789".to_owned()).unwrap();
        assert_eq!(&*html, "0123456789");
        assert_eq!(r.ask("big", ()), Ask::Ready(html));
    }

    #[test]
    fn keys_tell_bodies_apart() {
        assert_eq!(Key::of("**hi**"), Key::of("**hi**"));
        assert_ne!(Key::of("**hi**"), Key::of("**hi** "));
        assert_ne!(Key::of(""), Key::of("a"));
    }
}
