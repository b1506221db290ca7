//! The server's API as the page calls it (`docs/API.md`): JSON over HTTP with `fetch`, and
//! the SSE stream with `EventSource`, through `web-sys`. Every URL carries the page's
//! `?token=` when it has one. What the answers mean is parsed in [`crate::live`].
//!
//! Not `gloo-net`, which the design names: measured, it costs the page bundle about 8 KB
//! gzipped more than these calls, and the bundle is at its budget (ARCHITECTURE.md, "The
//! page bundle").

use serde::de::DeserializeOwned;
use serde_json::Value;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::browser::page_token;
use crate::live::{HistoryPage, STREAM_EVENTS, StreamMsg, with_token};

/// GETs `url` and parses its JSON body; an error says why (the status and body when the
/// server answered with one).
pub async fn get_json<T: DeserializeOwned>(url: &str) -> Result<T, String> {
    let url = with_token(url, page_token().as_deref());
    let window = web_sys::window().ok_or("no window")?;
    let err = |e: JsValue| format!("{e:?}");
    let resp: web_sys::Response = JsFuture::from(window.fetch_with_str(&url))
        .await
        .map_err(err)?
        .unchecked_into();
    let text = JsFuture::from(resp.text().map_err(err)?)
        .await
        .map_err(err)?
        .as_string()
        .unwrap_or_default();
    if !resp.ok() {
        return Err(format!("{} {}", resp.status(), text));
    }
    serde_json::from_str(&text).map_err(|e| e.to_string())
}

/// A page of `limit` envelopes older than `before` (the newest when `None`).
pub async fn history(id: &str, before: Option<u64>, limit: u32) -> Result<HistoryPage, String> {
    let mut url = format!("/api/sessions/{id}/events/history?limit={limit}");
    if let Some(b) = before {
        url.push_str(&format!("&before={b}"));
    }
    get_json(&url).await
}

/// The session's state object (badges, title, turn in flight).
pub async fn state(id: &str) -> Result<Value, String> {
    get_json(&format!("/api/sessions/{id}/state")).await
}

/// The session's postmortem summary (`GET …/summary`: the keys of `hiveterm summary --json`).
pub async fn summary(id: &str) -> Result<classifier::Summary, String> {
    get_json(&format!("/api/sessions/{id}/summary")).await
}

/// The session list (`GET /api/sessions`), or an error on a static host. Asked for relative
/// to the start page (at `/` that is `/api/sessions`), so a page in a static host's
/// subfolder asks for nothing outside it.
pub async fn sessions() -> Result<Value, String> {
    get_json("api/sessions").await
}

/// Follows the session's SSE stream after seq `after`, calling `on` with each message, for
/// as long as the page lives. The browser's `EventSource` reconnects by itself and resumes
/// with `Last-Event-ID`.
pub fn stream(id: &str, after: u64, on: impl Fn(StreamMsg) + 'static) -> Result<(), String> {
    let url = with_token(
        &format!("/api/sessions/{id}/events/stream?after={after}"),
        page_token().as_deref(),
    );
    let es = web_sys::EventSource::new(&url).map_err(|e| format!("{e:?}"))?;
    let on = std::rc::Rc::new(on);
    for name in STREAM_EVENTS {
        let o = on.clone();
        let listener = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
            let data = ev
                .dyn_ref::<web_sys::MessageEvent>()
                .and_then(|m| m.data().as_string());
            if let Some(msg) = StreamMsg::parse(name, data.as_deref()) {
                o(msg);
            }
        });
        es.add_event_listener_with_callback(name, listener.as_ref().unchecked_ref())
            .map_err(|e| format!("{e:?}"))?;
        // The source and its listeners live as long as the page.
        listener.forget();
    }
    std::mem::forget(es);
    Ok(())
}
