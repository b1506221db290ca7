//! The browser glue, in one place: the URL (the session or share path, `#seq` permalinks,
//! `?token=`, the origin), the clock and the local time zone, the reader's preferences in
//! `localStorage`, the clipboard, and which element has the keyboard. Components call these
//! and hold no `web_sys::window()` lookups of their own.
//!
//! Everything here compiles natively too (the page's pure parts are tested there); the few
//! answers that need a browser have a native stand-in, each marked `cfg(target_arch)`: these
//! are the only ones in the page.

use wasm_bindgen::JsCast;

use crate::model::nav::SeqRange;

/// Unix seconds now, by the reader's clock (`Date.now()`).
pub fn unix_now() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now() / 1000.0
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64())
    }
}

/// Milliseconds since the page loaded (`performance.now()`).
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// Minutes to add to UTC for local time at `ts` (the browser's zone; UTC natively).
pub fn local_offset_min(ts: f64) -> i64 {
    #[cfg(target_arch = "wasm32")]
    {
        let d = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(ts * 1000.0));
        -(d.get_timezone_offset() as i64)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = ts;
        0
    }
}

fn location() -> Option<web_sys::Location> {
    web_sys::window().map(|w| w.location())
}

/// The page's path (`/s/{id}`, `/p/<token>`, `/`), if any.
pub fn pathname() -> Option<String> {
    location()?.pathname().ok()
}

/// The page's origin (`http://127.0.0.1:8080`), or empty.
pub fn origin() -> String {
    location().and_then(|l| l.origin().ok()).unwrap_or_default()
}

/// The permalink in the URL: `#120` or `#seq=120-180`.
pub fn permalink() -> Option<SeqRange> {
    SeqRange::parse(&location()?.hash().ok()?)
}

/// Shows a permalink in the URL (replacing the history entry: paging through rows is not
/// navigation).
pub fn set_permalink(link: SeqRange) {
    replace_url(&link.hash());
}

/// Leaves a live session's page for the offline page at the root (`/`, its `?token=` kept),
/// as a new history entry: the back button comes back to the session. The log opened there
/// was kept for this tab first, so the root page reopens it (issue 21: a log opened on a live
/// page no longer wipes its rows).
pub fn leave_for_offline() {
    if let Some(l) = location() {
        let search = l.search().unwrap_or_default();
        let _ = l.assign(&format!("/{search}"));
    }
}

/// Removes the permalink (it belonged to a log no longer shown).
pub fn clear_permalink() {
    let path = location().and_then(|l| Some(l.pathname().ok()? + &l.search().ok()?));
    replace_url(&path.unwrap_or_default());
}

/// Replaces the page's address with `url` (no new history entry, nothing loaded).
pub fn replace_url(url: &str) {
    if let Some(h) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url));
    }
}

/// The page's address with `link` as its fragment (what "copy link" copies).
pub fn link_url(link: SeqRange) -> String {
    let Some(l) = location() else {
        return link.hash();
    };
    let base = l.href().unwrap_or_default();
    let base = base.split('#').next().unwrap_or_default();
    format!("{base}{}", link.hash())
}

/// Starts one of the page's workers through its trunk loader next to the page (relative, so
/// `dist/` works under any path): `./worker_loader.js` (the classifier, [`crate::offline::reader`])
/// or `./mdworker_loader.js` (the markdown renderer, [`crate::markdown::render`]).
pub fn new_worker(loader: &str) -> Result<web_sys::Worker, String> {
    let opts = web_sys::WorkerOptions::new();
    opts.set_type(web_sys::WorkerType::Module);
    web_sys::Worker::new_with_options(loader, &opts).map_err(|e| format!("{e:?}"))
}

/// Starts a worker from a classic script: an exported file's (`crate::offline::export`), whose
/// workers are `blob:` URLs, which Chromium does not start as modules from `file://`.
pub fn new_classic_worker(url: &str) -> Result<web_sys::Worker, String> {
    web_sys::Worker::new(url).map_err(|e| format!("{e:?}"))
}

/// Puts `text` on the clipboard (best effort: a page without clipboard access copies
/// nothing, and the link is still in the address bar).
pub fn copy_text(text: &str) {
    if let Some(w) = web_sys::window() {
        let written =
            wasm_bindgen_futures::JsFuture::from(w.navigator().clipboard().write_text(text));
        // Awaited so a refusal is handled here, not an unhandled rejection.
        wasm_bindgen_futures::spawn_local(async move {
            let _ = written.await;
        });
    }
}

/// The page's `?token=`, URL-encoded as it came.
pub fn page_token() -> Option<String> {
    let search = location()?.search().ok()?;
    search
        .trim_start_matches('?')
        .split('&')
        .find_map(|kv| kv.strip_prefix("token=").map(str::to_owned))
}

/// The page's query string (`?token=…&compare=…`), or empty.
pub fn search() -> String {
    location().and_then(|l| l.search().ok()).unwrap_or_default()
}

/// Whether an event's target is a text field (keys belong to it, not to the page).
pub fn typing_in(target: Option<web_sys::EventTarget>) -> bool {
    let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
        return false;
    };
    match el.tag_name().as_str() {
        "TEXTAREA" | "SELECT" => true,
        "INPUT" => !matches!(
            el.get_attribute("type").as_deref(),
            Some("checkbox" | "radio" | "button" | "file")
        ),
        _ => false,
    }
}

/// The `data-pos` of the element an event hit, or of its nearest ancestor matching
/// `selector` that has one.
pub fn pos_of(target: Option<web_sys::EventTarget>, selector: &str) -> Option<usize> {
    target
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|el| el.closest(selector).ok().flatten())
        .and_then(|el| el.get_attribute("data-pos"))
        .and_then(|p| p.parse().ok())
}

/// The `data-pos` of the element matching `selector` that key event `e` presses (Enter or
/// Space on it or inside it, as on a button); its default (a scroll) prevented.
pub fn pressed(e: &web_sys::Event, selector: &str) -> Option<usize> {
    let key = e
        .dyn_ref::<web_sys::KeyboardEvent>()
        .map(web_sys::KeyboardEvent::key);
    if !matches!(key.as_deref(), Some("Enter" | " ")) {
        return None;
    }
    let pos = pos_of(e.target(), selector)?;
    e.prevent_default();
    Some(pos)
}

const EXPAND_KEY: &str = "hiveterm.expand-tool-output";

/// `localStorage` key of a lower scroller limit, for the browser test of a list past it (a
/// list that long takes minutes to make at the real limit).
const MAX_SCROLL_KEY: &str = "hiveterm.test.max-scroll-px";

/// The tallest scroller the page draws ([`crate::model::layout::MAX_SCROLL_PX`], or a lower one a
/// test set).
pub fn max_scroll_px() -> f64 {
    // Whole pixels: parsing an integer costs the page no float-parsing tables.
    let set = local_storage()
        .and_then(|s| s.get_item(MAX_SCROLL_KEY).ok().flatten())
        .and_then(|v| v.parse::<u32>().ok())
        .filter(|v| *v >= 1000);
    set.map_or(crate::model::layout::MAX_SCROLL_PX, |v| {
        f64::from(v).min(crate::model::layout::MAX_SCROLL_PX)
    })
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Whether bodied rows open by default (the expand-tool-output preference). Off by default,
/// and natively.
pub fn expand_tool_output() -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        local_storage()
            .and_then(|s| s.get_item(EXPAND_KEY).ok().flatten())
            .is_some_and(|v| v == "1")
    }
    #[cfg(not(target_arch = "wasm32"))]
    false
}

/// Stores the expand-tool-output preference.
pub fn set_expand_tool_output(on: bool) {
    if let Some(s) = local_storage() {
        let _ = s.set_item(EXPAND_KEY, if on { "1" } else { "0" });
    }
}

/// Scrolls the element with id `id` into the middle of the view, if there is one (the
/// compare page's selected divergence).
pub fn scroll_to_id(id: &str) {
    let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    else {
        return;
    };
    let opts = web_sys::ScrollIntoViewOptions::new();
    opts.set_block(web_sys::ScrollLogicalPosition::Center);
    el.scroll_into_view_with_scroll_into_view_options(&opts);
}
