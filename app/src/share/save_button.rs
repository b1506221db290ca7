//! "save as one file…" in the banner, on a live session's page and on an offline log's (not
//! in an exported file, nor on a share link's read-only page): its dialog takes the options
//! (title, redact), has a worker of its own make the file (with the notes of what is open) ([`crate::worker::export`]: the
//! offline log's `Blob`, or the session's raw events, with the page's own files), shows a
//! redacted file's redactions for review ([`RedactionReview`]), and hands the file over as
//! a download when the reader accepts. The steps are [`crate::share::save_form`]'s.

use leptos::prelude::*;

use crate::share::redaction_review::RedactionReview;
use crate::share::save_form::{BEST_EFFORT_FILE, NOT_REDACTED, SaveForm, Saved, Step};

/// A live session's raw events, for a save: `url`, with the page's token, under its `name`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Live {
    /// `GET /api/sessions/{id}/events/raw`, with the page's token.
    pub url: String,
    /// The session's id (the file's default name, as `hiveterm share SESSION --export`).
    pub name: String,
}

/// What a save reads.
#[derive(Clone)]
pub enum SaveOf {
    /// A live session's raw events.
    Live(Live),
    /// The offline log in hand: its `Blob` and name, as the offline log keeps them
    /// ([`crate::offline::log_file::LogFile::blob`]); `None` when it is closed.
    Offline(StoredValue<Option<(web_sys::Blob, String)>, LocalStorage>),
}

/// The button and its dialog.
#[component]
pub fn SaveButton(
    /// What a save reads.
    of: SaveOf,
    /// The title shown (a session's is the file's default title).
    title: RwSignal<String>,
    /// Whether the button shows (an offline log is open, or a live session).
    #[prop(into)]
    shown: Signal<bool>,
) -> impl IntoView {
    let step = RwSignal::new(Step::Closed);
    let form = RwSignal::new(SaveForm::default());
    // The worker making a file, and the file made: this button's own.
    let held = StoredValue::new_local(imp::Held::default());
    let of = StoredValue::new_local(of);
    // The notes of what is open go into the file with it.
    let notes = use_context::<crate::notes::handle::NotesHandle>();
    let make = move || {
        let notes = notes
            .map(|h| h.notes.with_untracked(|n| n.list().to_vec()))
            .unwrap_or_default();
        let f = form.get_untracked();
        let (log, own_title) = of.with_value(|o| match o {
            SaveOf::Live(l) => (
                Some(imp::Log::Url(l.url.clone(), l.name.clone())),
                title.get_untracked(),
            ),
            SaveOf::Offline(blob) => (
                blob.get_value().map(|(b, n)| imp::Log::Blob(b, n)),
                String::new(),
            ),
        });
        imp::make(
            held,
            log,
            f.title.trim().to_owned(),
            own_title,
            f.redact,
            notes,
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
            Step::Ready(saved) => Some(view! { <Ready saved step held /> }.into_any()),
        }}
    }
}

/// The file made: its redactions for review, then "save".
#[component]
fn Ready(
    saved: Saved,
    step: RwSignal<Step>,
    held: StoredValue<imp::Held, LocalStorage>,
) -> impl IntoView {
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
                        imp::download(held, &name);
                        step.set(Step::Closed);
                    }
                >{accept}</button>
                <button
                    class="share-cancel"
                    on:click=move |_| {
                        imp::drop_file(held);
                        step.set(Step::Closed);
                    }
                >"cancel (nothing is saved)"</button>
            </div>
        </div>
    }
}

mod imp {
    use super::*;
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    use web_sys::{Blob, MessageEvent, Worker};

    use crate::worker::protocol::port::{post, receive};
    use crate::worker::protocol::{FromWorker, Save, ToWorker};

    /// The log a save reads: a live session's raw events (URL, name), or a `Blob`.
    pub enum Log {
        Url(String, String),
        Blob(Blob, String),
    }

    /// The worker making a file, and the file made.
    #[derive(Default)]
    pub struct Held {
        worker: Option<Worker>,
        /// Its handler: kept until the next save (it may be what stops the worker).
        on_message: Option<Closure<dyn FnMut(MessageEvent)>>,
        file: Option<Blob>,
    }

    fn stop_worker(held: StoredValue<Held, LocalStorage>) {
        if let Some(w) = held.try_update_value(|h| h.worker.take()).flatten() {
            w.terminate();
        }
    }

    pub fn drop_file(held: StoredValue<Held, LocalStorage>) {
        stop_worker(held);
        held.update_value(|h| h.file = None);
    }

    /// The page's `<link href>`s (its stylesheet, its glue and wasm), as written.
    fn links() -> Vec<String> {
        let mut out = Vec::new();
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
                    out.push(href);
                }
            }
        }
        out
    }

    pub fn make(
        held: StoredValue<Held, LocalStorage>,
        log: Option<Log>,
        title: String,
        own_title: String,
        redact: bool,
        notes: Vec<onefile::Note>,
        step: RwSignal<Step>,
    ) {
        drop_file(held);
        let (url, blob, name) = match log {
            Some(Log::Url(url, name)) => (Some(url), None, name),
            Some(Log::Blob(blob, name)) => (None, Some(JsValue::from(blob)), name),
            None => {
                step.set(Step::Options(Some("no log is open".to_owned())));
                return;
            }
        };
        let msg = ToWorker::Save(Save {
            url,
            name: name.clone(),
            title,
            own_title,
            redact,
            links: links(),
            notes,
        });
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
            match receive::<FromWorker>(&ev) {
                Some((FromWorker::Ready, _)) => post(&w, &msg, blob.as_ref()),
                Some((FromWorker::Saving { read, total }, _)) => {
                    step.set(Step::Making(read as f64, total as f64));
                }
                Some((FromWorker::Saved(s), file)) => {
                    let file: Option<Blob> = file.dyn_into().ok();
                    let report = s.redact.then_some(s.report.as_str());
                    let saved =
                        Saved::of(&name, s.rows as f64, s.lines as f64, s.bytes as f64, report);
                    stop_worker(held);
                    held.update_value(|h| h.file = file);
                    step.set(Step::Ready(saved));
                }
                Some((FromWorker::Error { message, .. }, _)) => {
                    stop_worker(held);
                    step.set(Step::Options(Some(format!(
                        "the file was not made: {message}"
                    ))));
                }
                _ => {}
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        held.update_value(|h| {
            h.worker = Some(worker);
            h.on_message = Some(on_message);
        });
    }

    /// Hands the file made to the reader as a download named `name`.
    pub fn download(held: StoredValue<Held, LocalStorage>, name: &str) {
        let Some(file) = held.try_update_value(|h| h.file.take()).flatten() else {
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
