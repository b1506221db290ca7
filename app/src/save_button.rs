//! "save as one file…" in the banner, on a live session's page and on an offline log's (not
//! in an exported file, nor on a share link's read-only page): its dialog takes the options
//! (title, redact), has a worker of its own make the file ([`crate::worker_export`]: the
//! offline log's `Blob`, or the session's raw events, with the page's own files), shows a
//! redacted file's redactions for review ([`RedactionReview`]), and hands the file over as
//! a download when the reader accepts. The steps are [`crate::save_file`]'s.

use leptos::prelude::*;

use crate::redaction_review::RedactionReview;
use crate::save_file::{BEST_EFFORT_FILE, NOT_REDACTED, SaveForm, Saved, Step};

/// What a save reads: the live session's raw events (`url`, with the page's token) under
/// its `name`, or (`None`) the offline log in hand ([`set_log`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Live {
    /// `GET /api/sessions/{id}/events/raw`, with the page's token.
    pub url: String,
    /// The session's id (the file's default name, as `hiveterm share SESSION --export`).
    pub name: String,
}

/// The offline log in hand (opened, kept), for a save; `None` when it is closed.
pub fn set_log(log: Option<(web_sys::Blob, String)>) {
    imp::set_log(log);
}

/// The button and its dialog.
#[component]
pub fn SaveButton(
    /// A live session's (else the offline log in hand).
    live: Option<Live>,
    /// The title shown (a session's is the file's default title).
    title: RwSignal<String>,
    /// Whether the button shows (an offline log is open, or a live session).
    #[prop(into)]
    shown: Signal<bool>,
) -> impl IntoView {
    let step = RwSignal::new(Step::Closed);
    let form = RwSignal::new(SaveForm::default());
    let live = StoredValue::new(live);
    let make = move || {
        let f = form.get_untracked();
        let (url, default_title) = live.with_value(|l| match l {
            Some(l) => (Some((l.url.clone(), l.name.clone())), title.get_untracked()),
            None => (None, String::new()),
        });
        imp::make(
            url,
            f.title.trim().to_owned(),
            default_title,
            f.redact,
            step,
        );
    };
    view! {
        <button
            class="save-open"
            title="save these rows as one HTML file that opens anywhere, with no server"
            hidden=move || !shown.get()
            on:click=move |_| {
                if step.with_untracked(|s| *s == Step::Closed) {
                    step.set(Step::Options(None));
                }
            }
        >"save as one file…"</button>
        {move || match step.get() {
            Step::Closed => None,
            Step::Options(error) => Some(view! {
                <div class="share-dialog save-dialog" role="dialog" aria-label="save as one file">
                    <p class="share-what">
                        "One HTML file of these rows and their summary, made here in the browser: it opens from disk, a mail or any static host, with no server and no network request."
                    </p>
                    <label class="share-opt">
                        "title "
                        <input
                            type="text"
                            class="save-title"
                            placeholder="the log's name"
                            maxlength="200"
                            prop:value=move || form.with(|f| f.title.clone())
                            on:input=move |e| {
                                let t = event_target_value(&e);
                                form.update(|f| f.title = t);
                            }
                        />
                    </label>
                    <label class="share-opt">
                        <input
                            type="checkbox"
                            class="save-redact"
                            prop:checked=move || form.with(|f| f.redact)
                            on:change=move |e| {
                                let on = event_target_checked(&e);
                                form.update(|f| f.redact = on);
                            }
                        />
                        "redact secrets"
                    </label>
                    <p class="share-note">
                        {move || if form.with(|f| f.redact) { BEST_EFFORT_FILE } else { NOT_REDACTED }}
                    </p>
                    {error.map(|e| view! { <p class="share-error">{e}</p> })}
                    <div class="share-actions">
                        <button class="save-make" on:click=move |_| make()>"make the file"</button>
                        <button class="share-cancel" on:click=move |_| step.set(Step::Closed)>"cancel"</button>
                    </div>
                </div>
            }.into_any()),
            Step::Making(read, total) => Some(view! {
                <div class="share-dialog save-dialog" role="dialog">
                    <p class="save-making">{Step::making(read, total)}</p>
                </div>
            }.into_any()),
            Step::Ready(saved) => Some(view! { <Ready saved step /> }.into_any()),
        }}
    }
}

/// The file made: its redactions for review, then "save".
#[component]
fn Ready(saved: Saved, step: RwSignal<Step>) -> impl IntoView {
    let name = saved.name.clone();
    let review = match saved.report.clone() {
        Some(report) => {
            view! { <RedactionReview report unit="line" note=BEST_EFFORT_FILE /> }.into_any()
        }
        None => view! { <p class="share-note">{NOT_REDACTED}</p> }.into_any(),
    };
    let accept = if saved.report.is_some() {
        "the redactions look right: save the file"
    } else {
        "save the file"
    };
    view! {
        <div class="share-dialog share-review save-ready" role="dialog" aria-label="save the file">
            <p class="save-figures">{format!("{} — {}", saved.name, saved.figures())}</p>
            {review}
            <div class="share-actions">
                <button
                    class="share-accept save-accept"
                    on:click=move |_| {
                        imp::download(&name);
                        step.set(Step::Closed);
                    }
                >{accept}</button>
                <button
                    class="share-cancel"
                    on:click=move |_| {
                        imp::drop_file();
                        step.set(Step::Closed);
                    }
                >"cancel (nothing is saved)"</button>
            </div>
        </div>
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    use super::*;

    pub fn set_log(_: Option<(web_sys::Blob, String)>) {}
    pub fn make(_: Option<(String, String)>, _: String, _: String, _: bool, _: RwSignal<Step>) {}
    pub fn download(_: &str) {}
    pub fn drop_file() {}
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use super::*;
    use js_sys::{Array, Object, Reflect};
    use std::cell::RefCell;
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    use web_sys::{Blob, MessageEvent, Worker};

    /// The offline log in hand, the worker making a file, and the file made.
    #[derive(Default)]
    struct Held {
        log: Option<(Blob, String)>,
        worker: Option<Worker>,
        /// Its handler: kept until the next save (it may be what stops the worker).
        on_message: Option<Closure<dyn FnMut(MessageEvent)>>,
        file: Option<Blob>,
    }

    thread_local! {
        static HELD: RefCell<Held> = RefCell::new(Held::default());
    }

    pub fn set_log(log: Option<(Blob, String)>) {
        HELD.with(|h| h.borrow_mut().log = log);
    }

    fn stop_worker() {
        if let Some(w) = HELD.with(|h| h.borrow_mut().worker.take()) {
            w.terminate();
        }
    }

    pub fn drop_file() {
        stop_worker();
        HELD.with(|h| h.borrow_mut().file = None);
    }

    /// The page's `<link href>`s (its stylesheet, its glue and wasm), as written.
    fn links() -> Array {
        let out = Array::new();
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return out;
        };
        if let Ok(list) = doc.query_selector_all("link[href]") {
            for i in 0..list.length() {
                if let Some(href) = list
                    .item(i)
                    .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
                    .and_then(|e| e.get_attribute("href"))
                {
                    out.push(&href.into());
                }
            }
        }
        out
    }

    fn get(data: &JsValue, k: &str) -> JsValue {
        Reflect::get(data, &k.into()).unwrap_or(JsValue::UNDEFINED)
    }

    pub fn make(
        live: Option<(String, String)>,
        title: String,
        own_title: String,
        redact: bool,
        step: RwSignal<Step>,
    ) {
        drop_file();
        let msg = Object::new();
        let set = |k: &str, v: JsValue| {
            let _ = Reflect::set(&msg, &k.into(), &v);
        };
        let name = match &live {
            Some((url, name)) => {
                set("url", url.as_str().into());
                name.clone()
            }
            None => match HELD.with(|h| h.borrow().log.clone()) {
                Some((blob, name)) => {
                    set("log", blob.into());
                    name
                }
                None => {
                    step.set(Step::Options(Some("no log is open".to_owned())));
                    return;
                }
            },
        };
        set("kind", "save".into());
        set("name", name.as_str().into());
        set("title", title.into());
        set("own_title", own_title.into());
        set("redact", redact.into());
        set("links", links().into());
        // A worker of its own (the page's reads its log's rows and bodies meanwhile).
        let worker = match crate::browser::new_worker("./worker_loader.js") {
            Ok(w) => w,
            Err(e) => {
                step.set(Step::Options(Some(format!("cannot start a worker: {e}"))));
                return;
            }
        };
        step.set(Step::Making(0.0, 0.0));
        let w = worker.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            let data = ev.data();
            match get(&data, "kind").as_string().as_deref() {
                Some("ready") => {
                    let _ = w.post_message(&msg);
                }
                Some("saving") => {
                    let (read, total) = (get(&data, "read"), get(&data, "total"));
                    step.set(Step::Making(
                        read.as_f64().unwrap_or(0.0),
                        total.as_f64().unwrap_or(0.0),
                    ));
                }
                Some("saved") => {
                    let file: Option<Blob> = get(&data, "file").dyn_into().ok();
                    let report = get(&data, "redact")
                        .as_bool()
                        .unwrap_or(false)
                        .then(|| get(&data, "report").as_string())
                        .flatten();
                    let n = |k: &str| get(&data, k).as_f64().unwrap_or(0.0);
                    let saved =
                        Saved::of(&name, n("rows"), n("lines"), n("bytes"), report.as_deref());
                    stop_worker();
                    HELD.with(|h| h.borrow_mut().file = file);
                    step.set(Step::Ready(saved));
                }
                Some("error") => {
                    stop_worker();
                    let e = get(&data, "message").as_string().unwrap_or_default();
                    step.set(Step::Options(Some(format!("the file was not made: {e}"))));
                }
                _ => {}
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        HELD.with(|h| {
            let mut h = h.borrow_mut();
            h.worker = Some(worker);
            h.on_message = Some(on_message);
        });
    }

    /// Hands the file made to the reader as a download named `name`.
    pub fn download(name: &str) {
        let Some(file) = HELD.with(|h| h.borrow_mut().file.take()) else {
            return;
        };
        let Ok(url) = web_sys::Url::create_object_url_with_blob(&file) else {
            return;
        };
        if let Some(a) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.create_element("a").ok())
            .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok())
        {
            a.set_href(&url);
            a.set_download(name);
            a.click();
        }
        // Revoked once the browser has taken it.
        let revoke = Closure::once_into_js(move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        });
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(
                revoke.unchecked_ref(),
                60_000,
            );
        }
    }
}
