//! The server's API as the page calls it (`docs/API.md`): JSON over HTTP with `fetch`, and
//! the SSE stream with `EventSource`, through `web-sys`. A live view's reads go where its
//! [`Source`] says (a session's, with the page's `?token=`; a share link's, without); the
//! session list and writes carry the page's `?token=` when it has one. What the answers mean
//! is parsed in [`crate::live::wire`] and [`crate::share::link`].
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
use crate::live::wire::{HistoryPage, STREAM_EVENTS, StreamMsg, with_token};
use crate::share::link::{ShareInfo, Source};

/// Why a call failed: the server's status and answer, or (status 0) no answer at all.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// The HTTP status; 0 when the server did not answer (or the answer did not parse).
    pub status: u16,
    /// What went wrong: the answer's body, or the browser's error.
    pub text: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.status {
            0 => f.write_str(&self.text),
            s => write!(f, "{s} {}", self.text),
        }
    }
}

fn failed(e: JsValue) -> Failure {
    Failure {
        status: 0,
        text: format!("{e:?}"),
    }
}

/// Sends `init` (a GET when `None`) to `url` as it is and parses the JSON answer.
async fn call<T: DeserializeOwned>(
    url: &str,
    init: Option<&web_sys::RequestInit>,
) -> Result<T, Failure> {
    let window = web_sys::window().ok_or_else(|| failed("no window".into()))?;
    let asked = match init {
        Some(init) => window.fetch_with_str_and_init(url, init),
        None => window.fetch_with_str(url),
    };
    let resp: web_sys::Response = JsFuture::from(asked)
        .await
        .map_err(failed)?
        .unchecked_into();
    let text = JsFuture::from(resp.text().map_err(failed)?)
        .await
        .map_err(failed)?
        .as_string()
        .unwrap_or_default();
    if !resp.ok() {
        return Err(Failure {
            status: resp.status(),
            text,
        });
    }
    serde_json::from_str(&text).map_err(|e| Failure {
        status: 0,
        text: e.to_string(),
    })
}

/// GETs `url` as it is (a [`Source`]'s URL) and parses its JSON body.
pub async fn get_json_at<T: DeserializeOwned>(url: &str) -> Result<T, Failure> {
    call(url, None).await
}

/// GETs `url` (with the page's `?token=`) and parses its JSON body.
pub async fn get_json<T: DeserializeOwned>(url: &str) -> Result<T, Failure> {
    call(&with_token(url, page_token().as_deref()), None).await
}

/// A write to the server's `/api` (`method` with a JSON `body`), with the page's `?token=`
/// (the server's token, when it has one) and a JSON `Content-Type` (the perimeter refuses a
/// write without one: `docs/API.md`, "Perimeter").
pub async fn write_json<T: DeserializeOwned>(
    method: &str,
    url: &str,
    body: Option<&str>,
) -> Result<T, Failure> {
    write_at(method, &with_token(url, page_token().as_deref()), body).await
}

/// A write to `url` as it is (a [`Source`]'s URL, which carries the page's token when it
/// should), as [`write_json`].
pub async fn write_at<T: DeserializeOwned>(
    method: &str,
    url: &str,
    body: Option<&str>,
) -> Result<T, Failure> {
    let headers = web_sys::Headers::new().map_err(failed)?;
    headers
        .set("content-type", "application/json")
        .map_err(failed)?;
    let init = web_sys::RequestInit::new();
    init.set_method(method);
    init.set_headers(&headers);
    if let Some(body) = body {
        init.set_body(&JsValue::from_str(body));
    }
    call(url, Some(&init)).await
}

/// A page of `limit` envelopes older than `before` (the newest when `None`).
pub async fn history(
    from: &Source,
    before: Option<u64>,
    limit: u32,
) -> Result<HistoryPage, Failure> {
    call(&from.history_url(before, limit), None).await
}

/// The state object (badges, title, turn in flight).
pub async fn state(from: &Source) -> Result<Value, Failure> {
    call(&from.state_url(), None).await
}

/// The postmortem summary (`GET …/summary`: the keys of `hiveterm summary --json`).
pub async fn summary(from: &Source) -> Result<classifier::Summary, Failure> {
    call(&from.summary_url(), None).await
}

/// What a share link shows (`GET /p/<token>/api/share`); a session has no such read.
pub async fn share(from: &Source) -> Result<ShareInfo, Failure> {
    let url = from.share_url().ok_or_else(|| Failure {
        status: 0,
        text: "not a share link".into(),
    })?;
    call(&url, None).await
}

/// The session list (`GET /api/sessions`), or an error on a static host. Asked for relative
/// to the start page (at `/` that is `/api/sessions`), so a page in a static host's
/// subfolder asks for nothing outside it.
pub async fn sessions() -> Result<Value, Failure> {
    get_json("api/sessions").await
}

/// Follows the SSE stream after seq `after`, calling `on` with each message, for as long as
/// the page lives. The browser's `EventSource` reconnects by itself and resumes with
/// `Last-Event-ID` (but not after an answer other than `200`: then it stays closed).
pub fn stream(from: &Source, after: u64, on: impl Fn(StreamMsg) + 'static) -> Result<(), String> {
    let es = web_sys::EventSource::new(&from.stream_url(after)).map_err(|e| format!("{e:?}"))?;
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
