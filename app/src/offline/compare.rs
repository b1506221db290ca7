//! Two logs compared in the browser (issue 48): the page's side of the compare worker
//! ([`crate::worker::compare`], its own wasm, started for the comparison and ended with it).
//! [`compare`] hands it the two `File`s and waits for the compare page's answer — what `GET
//! /api/compare/{a}/{b}` would give for the two runs — telling `progress` the bytes read as it
//! goes; the page's main thread only waits. [`Comparing`]: the two logs being compared, which
//! the page gives way to (`view/offline_compare.rs`).

use std::cell::RefCell;
use std::rc::Rc;

use contract::compare::Comparison;
use js_sys::{Array, Function, Promise};
use leptos::prelude::*;
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::*;
use web_sys::{File, MessageEvent};

use crate::worker::protocol::compare::{FromCompare, ToCompare};
use crate::worker::protocol::port::{post, receive};

/// The two logs being compared (A, B), if any: while they are, the page gives way to their
/// comparison. In context, for the start page's "compare two logs".
#[derive(Clone, Copy)]
pub struct Comparing(RwSignal<Option<(File, File)>, LocalStorage>);

impl Default for Comparing {
    fn default() -> Comparing {
        Comparing::new()
    }
}

impl Comparing {
    /// None yet.
    pub fn new() -> Comparing {
        Comparing(RwSignal::new_local(None))
    }

    /// The two, if any (tracked).
    pub fn get(self) -> Option<(File, File)> {
        self.0.get()
    }

    /// Compares `files` if they are two (A the first by name); `false` if they are not.
    pub fn start(self, mut files: Vec<File>) -> bool {
        if files.len() != 2 {
            return false;
        }
        files.sort_by_key(File::name);
        let b = files.pop();
        let a = files.pop();
        self.0.set(a.zip(b));
        true
    }
}

/// The comparison of the runs of logs `a` and `b`, or why there is none; `progress(read,
/// total)` after each piece of them read.
pub async fn compare(
    a: File,
    b: File,
    progress: impl Fn(f64, f64) + 'static,
) -> Result<Comparison, String> {
    let worker = crate::browser::new_worker("./cmpworker_loader.js")?;
    let names = [a.name(), b.name()];
    let files = Array::of2(&a, &b);
    let got: Rc<RefCell<Option<Result<Comparison, String>>>> = Rc::default();
    let mut done: Option<Function> = None;
    let finished = Promise::new(&mut |resolve, _| done = Some(resolve));
    let done = done.unwrap_or_else(|| Function::new_no_args(""));
    let (w, into, end) = (worker.clone(), got.clone(), done.clone());
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        let result = match receive::<FromCompare>(&ev) {
            Some((FromCompare::Ready, _)) => {
                let msg = ToCompare::Logs {
                    names: names.clone(),
                };
                post(&w, &msg, Some(&files));
                return;
            }
            Some((FromCompare::Read { read, total }, _)) => {
                progress(read, total);
                return;
            }
            Some((FromCompare::Done(c), _)) => Ok(*c),
            Some((FromCompare::Error(e), _)) => Err(e),
            None => return,
        };
        *into.borrow_mut() = Some(result);
        let _ = end.call0(&JsValue::NULL);
    });
    let into = got.clone();
    let on_error = Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| {
        into.borrow_mut()
            .get_or_insert_with(|| Err("the compare worker stopped".to_owned()));
        let _ = done.call0(&JsValue::NULL);
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    let _ = wasm_bindgen_futures::JsFuture::from(finished).await;
    worker.terminate();
    drop((on_message, on_error));
    got.take()
        .unwrap_or_else(|| Err("the compare worker stopped".to_owned()))
}
