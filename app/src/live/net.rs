//! The server's API as the page calls it (`docs/API.md`): JSON over HTTP and the SSE stream,
//! through `gloo-net` (its `http` requests and its `EventSource`), as the design names. A
//! live view's reads go where its [`Source`] says (a session's, with the page's `?token=`; a
//! share link's, without); the session list and writes carry the page's `?token=` when it has
//! one. What the answers mean is parsed in [`crate::live::wire`] and [`crate::share::link`].

use futures_util::StreamExt;
use gloo_net::eventsource::futures::EventSource;
use gloo_net::http::{Method, RequestBuilder};
use serde::de::DeserializeOwned;

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

fn failed(e: &gloo_net::Error) -> Failure {
    Failure {
        status: 0,
        text: e.to_string(),
    }
}

/// A GET of `url` as it is, its JSON answer parsed.
async fn get<T: DeserializeOwned>(url: &str) -> Result<T, Failure> {
    let sent = RequestBuilder::new(url).send().await;
    answer(sent.map_err(|e| failed(&e))?).await
}

/// GETs `url` as it is (a [`Source`]'s URL) and parses its JSON body.
pub async fn get_json_at<T: DeserializeOwned>(url: &str) -> Result<T, Failure> {
    get(url).await
}

/// GETs `url` (with the page's `?token=`) and parses its JSON body.
pub async fn get_json<T: DeserializeOwned>(url: &str) -> Result<T, Failure> {
    get(&with_token(url, page_token().as_deref())).await
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
    let method: Method = method.parse().map_err(|_| Failure {
        status: 0,
        text: format!("not an HTTP method: {method}"),
    })?;
    let request = RequestBuilder::new(url)
        .method(method)
        .header("content-type", "application/json");
    let sent = match body {
        Some(body) => request.body(body).map_err(|e| failed(&e))?.send().await,
        None => request.send().await,
    };
    answer(sent.map_err(|e| failed(&e))?).await
}

/// An answer's JSON, or what went wrong.
async fn answer<T: DeserializeOwned>(resp: gloo_net::http::Response) -> Result<T, Failure> {
    let text = resp.text().await.map_err(|e| failed(&e))?;
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

/// A page of `limit` envelopes older than `before` (the newest when `None`).
pub async fn history(
    from: &Source,
    before: Option<u64>,
    limit: u32,
) -> Result<HistoryPage, Failure> {
    get(&from.history_url(before, limit)).await
}

/// The state object (badges, title, turn in flight).
pub async fn state(from: &Source) -> Result<contract::State, Failure> {
    get(&from.state_url()).await
}

/// The postmortem summary (`GET …/summary`: the keys of `hiveterm summary --json`).
pub async fn summary(from: &Source) -> Result<classifier::Summary, Failure> {
    get(&from.summary_url()).await
}

/// What a share link shows (`GET /p/<token>/api/share`); a session has no such read.
pub async fn share(from: &Source) -> Result<ShareInfo, Failure> {
    let url = from.share_url().ok_or_else(|| Failure {
        status: 0,
        text: "not a share link".into(),
    })?;
    get(&url).await
}

/// A page of the sessions' index (`GET /api/sessions?…`, `url` relative to the start page,
/// from [`crate::model::fleet::index_url`]), with the page's `?token=`.
pub async fn index_page(url: &str) -> Result<crate::model::fleet::IndexPage, Failure> {
    get_json::<contract::SessionsPage>(url)
        .await
        .map(crate::model::fleet::parse_index)
}

/// Two sessions side by side (`GET /api/compare/{a}/{b}`, with the page's `?token=`).
pub async fn compare(a: &str, b: &str) -> Result<crate::model::compare::Comparison, Failure> {
    get_json(&crate::model::compare::api_url(a, b)).await
}

/// What the sessions cost, grouped by `by` (`GET /api/usage?by=`, with the page's `?token=`).
pub async fn usage(by: crate::model::usage::By) -> Result<crate::model::usage::Usage, Failure> {
    get_json(&crate::model::usage::api_url(by)).await
}

/// One session of the index (`GET /api/sessions/{id}`, `id` URL-encoded).
pub async fn session(id: &str) -> Result<contract::SessionEntry, Failure> {
    get_json(&format!("api/sessions/{id}")).await
}

/// A page of hits across every session (`GET /api/search?…`, from
/// [`crate::model::fleet::search_url`]), with the page's `?token=`; a refused query is a
/// [`Failure`] with the server's status and answer.
pub async fn search(url: &str) -> Result<crate::model::fleet::HitPage, Failure> {
    get_json::<contract::HitsPage>(url)
        .await
        .map(crate::model::fleet::parse_hits)
}

/// Follows the index's stream (`GET /api/index/stream`, with the page's `?token=`), calling
/// `on` with each event, for as long as the page lives (the browser reconnects by itself;
/// each (re)connection is an [`IndexMsg::Open`]).
///
/// [`IndexMsg::Open`]: crate::model::fleet_live::IndexMsg::Open
pub fn index_stream(
    on: impl Fn(crate::model::fleet_live::IndexMsg) + 'static,
) -> Result<(), String> {
    use crate::model::fleet_live::{INDEX_EVENTS, IndexMsg};
    let url = with_token("api/index/stream", page_token().as_deref());
    let mut es = EventSource::new(&url).map_err(|e| e.to_string())?;
    let on = std::rc::Rc::new(on);
    for name in INDEX_EVENTS {
        let mut events = es.subscribe(name).map_err(|e| e.to_string())?;
        let on = on.clone();
        wasm_bindgen_futures::spawn_local(async move {
            while let Some(item) = events.next().await {
                if let Ok((_, ev)) = item
                    && let Some(msg) = IndexMsg::parse(name, ev.data().as_string().as_deref())
                {
                    on(msg);
                }
            }
        });
    }
    std::mem::forget(es);
    Ok(())
}

/// Follows the SSE stream after seq `after`, calling `on` with each message, for as long as
/// the page lives. The browser's `EventSource` reconnects by itself and resumes with
/// `Last-Event-ID` (but not after an answer other than `200`: then it stays closed). Each
/// event the page listens to (`open` and `error` included, so a reconnect is seen) is one
/// subscription of the one `EventSource`, read by a task of its own.
pub fn stream(from: &Source, after: u64, on: impl Fn(StreamMsg) + 'static) -> Result<(), String> {
    let mut es = EventSource::new(&from.stream_url(after)).map_err(|e| e.to_string())?;
    let on = std::rc::Rc::new(on);
    for name in STREAM_EVENTS {
        let mut events = es.subscribe(name).map_err(|e| e.to_string())?;
        let on = on.clone();
        wasm_bindgen_futures::spawn_local(async move {
            // An `Err` is the source closed for good, which its `error` event said already.
            while let Some(item) = events.next().await {
                if let Ok((_, ev)) = item
                    && let Some(msg) = StreamMsg::parse(name, ev.data().as_string().as_deref())
                {
                    on(msg);
                }
            }
        });
    }
    // The source lives as long as the page (dropping it would close it).
    std::mem::forget(es);
    Ok(())
}
