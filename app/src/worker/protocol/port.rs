//! The messages on a real port (in a browser; it compiles natively, unused): one JS object `{msg, data}` — `msg` the
//! message's JSON ([`super::encode`]), `data` its attachment, if any — posted to a
//! `Worker` (by the page) or to the page (by a worker's global scope), and read back
//! ([`super::decode`]). A `Uint8Array` attached is transferred, not copied.

use js_sys::{Array, Object, Reflect, Uint8Array};
use serde::Serialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, Worker};

use super::{decode, encode};

/// Where a message can be posted: a worker (from the page), or the page (from a worker's
/// global scope).
pub trait Target {
    /// `postMessage(msg, transfer)`.
    fn post(&self, msg: &JsValue, transfer: &Array) -> Result<(), JsValue>;
}

impl Target for Worker {
    fn post(&self, msg: &JsValue, transfer: &Array) -> Result<(), JsValue> {
        self.post_message_with_transfer(msg, transfer)
    }
}

impl Target for DedicatedWorkerGlobalScope {
    fn post(&self, msg: &JsValue, transfer: &Array) -> Result<(), JsValue> {
        self.post_message_with_transfer(msg, transfer)
    }
}

/// The worker's own global scope (inside a worker only).
pub fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// `msg` and its attachment as the one JS object posted.
pub fn envelope<T: Serialize>(msg: &T, data: Option<&JsValue>) -> Object {
    let o = Object::new();
    let _ = Reflect::set(&o, &"msg".into(), &encode(msg).into());
    if let Some(d) = data {
        let _ = Reflect::set(&o, &"data".into(), d);
    }
    o
}

/// Posts `msg` with its attachment to `to`; a `Uint8Array`'s buffer is transferred.
pub fn post<T: Serialize>(to: &impl Target, msg: &T, data: Option<&JsValue>) {
    let transfer = Array::new();
    if let Some(bytes) = data.and_then(|d| d.dyn_ref::<Uint8Array>()) {
        transfer.push(&bytes.buffer());
    }
    let _ = to.post(&envelope(msg, data), &transfer);
}

/// Posts `msg` from a worker to the page.
pub fn reply<T: Serialize>(msg: &T, data: Option<&JsValue>) {
    post(&scope(), msg, data);
}

/// The message an event carries and its attachment (`undefined` if none); `None` when it
/// is not one of `T`'s.
pub fn receive<T: DeserializeOwned>(ev: &MessageEvent) -> Option<(T, JsValue)> {
    let data = ev.data();
    let json = Reflect::get(&data, &"msg".into()).ok()?.as_string()?;
    let msg = decode(&json)?;
    let att = Reflect::get(&data, &"data".into()).unwrap_or(JsValue::UNDEFINED);
    Some((msg, att))
}
