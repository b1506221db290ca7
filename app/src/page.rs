//! The page: banner, toolbar, the virtualised row list, keyboard, drop zone, live view.
//!
//! All row data lives in one signal holding a [`ViewState`]; every change goes through the
//! reducer ([`apply`], [`prepend`], [`set_filter`]). The list renders only the rows in and
//! near the viewport, positioned by the state's [`crate::layout::HeightIndex`]; after each
//! render the rows are measured and their real heights fed back (the view stays anchored).

use std::sync::Arc;

use leptos::ev;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::live::{Badge, PreviewFrame};
use crate::offline::{FromWorker, Progress};
use crate::row::Row;
use crate::state::{Filter, Row as RowData, ViewState, apply, clear, set_filter};

/// Pixels rendered above and below the viewport.
const OVERSCAN: f64 = 600.0;
/// Most rows rendered at once.
const MAX_WINDOW: usize = 400;
/// Envelopes per history page in the live view.
const PAGE: u32 = 500;

/// One rendered row of the window.
#[derive(Clone)]
struct WinRow {
    pos: usize,
    row: Arc<RowData>,
    open: bool,
    full: bool,
    current: bool,
    generation: u64,
}

impl PartialEq for WinRow {
    fn eq(&self, o: &WinRow) -> bool {
        self.pos == o.pos
            && Arc::ptr_eq(&self.row, &o.row)
            && self.open == o.open
            && self.full == o.full
            && self.current == o.current
            && self.generation == o.generation
    }
}

#[derive(Clone, PartialEq)]
struct Window {
    offset: f64,
    rows: Vec<WinRow>,
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

fn set_hash(seq: Option<u64>) {
    let Some(seq) = seq else { return };
    replace_url(&format!("#{seq}"));
}

/// Removes the `#seq` (it belonged to a log no longer shown).
fn clear_hash() {
    let loc = web_sys::window().map(|w| w.location());
    let path = loc.and_then(|l| Some(l.pathname().ok()? + &l.search().ok()?));
    replace_url(&path.unwrap_or_default());
}

fn replace_url(url: &str) {
    if let Some(h) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url));
    }
}

/// Whether an event's target is a text field (keys belong to it, not to the page).
fn typing_in(target: Option<web_sys::EventTarget>) -> bool {
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

fn hash_seq() -> Option<u64> {
    let hash = web_sys::window()?.location().hash().ok()?;
    hash.trim_start_matches('#').parse().ok()
}

/// Keeps the start page's session list current: asks the server now and every 5 s after,
/// for as long as it answers (on a static host the first ask fails and nothing repeats).
#[cfg(target_arch = "wasm32")]
fn refresh_sessions(sessions: RwSignal<Vec<crate::live::SessionItem>>) {
    leptos::task::spawn_local(async move {
        if let Ok(v) = crate::live::sessions().await {
            let list = crate::live::session_list(&v);
            if sessions.with_untracked(|s| *s != list) {
                sessions.set(list);
            }
            set_timeout(
                move || refresh_sessions(sessions),
                std::time::Duration::from_secs(5),
            );
        }
    });
}

/// The whole page.
#[component]
pub fn Page() -> impl IntoView {
    let state = RwSignal::new(ViewState::default());
    state.update_untracked(|s| s.set_expand(crate::prefs::expand_tool_output()));
    let expand = RwSignal::new(state.with_untracked(|s| s.expand()));
    let scroll_top = RwSignal::new(0.0_f64);
    let viewport_h = RwSignal::new(800.0_f64);
    let follow = RwSignal::new(false);
    let current = RwSignal::new(None::<usize>);
    let levels = RwSignal::new([true; 4]);
    let tool = RwSignal::new(None::<String>);
    let query_input = RwSignal::new(String::new());
    let query = RwSignal::new(String::new());
    let progress = RwSignal::new(None::<Progress>);
    let title = RwSignal::new("hiveterm".to_owned());
    let badges = RwSignal::new(Vec::<Badge>::new());
    let server_in_flight = RwSignal::new(false);
    let conn = RwSignal::new(String::new());
    let dragging = RwSignal::new(false);
    let sessions = RwSignal::new(Vec::<crate::live::SessionItem>::new());
    let pending_seq = RwSignal::new(hash_seq());
    let next_before = RwSignal::new(None::<u64>);
    let loading_older = RwSignal::new(false);
    let preview = RwSignal::new(None::<PreviewFrame>);
    let session = crate::live::session_of_path(
        &web_sys::window()
            .and_then(|w| w.location().pathname().ok())
            .unwrap_or_default(),
    );
    let is_live = session.is_some();
    follow.set(is_live);
    // Offline, this tab's kept log is being looked up (the start page waits for it).
    #[cfg(target_arch = "wasm32")]
    let restoring = RwSignal::new(!is_live && crate::keep::has_tab());
    #[cfg(not(target_arch = "wasm32"))]
    let restoring = RwSignal::new(false);
    let scroller = NodeRef::<html::Div>::new();
    let win = NodeRef::<html::Div>::new();
    let search_box = NodeRef::<html::Input>::new();

    // Filters → reducer.
    Effect::new(move |_| {
        let filter = Filter {
            levels: levels.get(),
            tool: tool.get(),
            query: query.get(),
        };
        state.update(|s| set_filter(s, filter));
        current.set(None);
    });

    // Debounced search (it scans every held row).
    let search_gen = StoredValue::new(0_u64);
    Effect::new(move |_| {
        let q = query_input.get();
        search_gen.update_value(|g| *g += 1);
        let generation = search_gen.get_value();
        set_timeout(
            move || {
                // Only a changed query refilters (and so forgets the current row): the
                // first run, 200 ms after load, must not undo a permalink revealed meanwhile.
                if search_gen.get_value() == generation && query.with_untracked(|v| *v != q) {
                    query.set(q);
                }
            },
            std::time::Duration::from_millis(200),
        );
    });

    let window_rows = Memo::new(move |_| {
        let top = scroll_top.get();
        let vh = viewport_h.get();
        let cur = current.get();
        state.with(|s| {
            let lay = s.layout();
            let len = s.visible_len();
            if len == 0 {
                return Window {
                    offset: 0.0,
                    rows: Vec::new(),
                };
            }
            let start = lay.index_at((top - OVERSCAN).max(0.0));
            let end = (lay.index_at(top + vh + OVERSCAN) + 1)
                .min(len)
                .min(start + MAX_WINDOW);
            let rows = (start..end)
                .filter_map(|n| {
                    let row = s.visible_row(n)?.clone();
                    Some(WinRow {
                        pos: n,
                        open: s.is_open(row.uid),
                        full: s.is_full(row.uid),
                        row,
                        current: cur == Some(n),
                        generation: s.generation(),
                    })
                })
                .collect();
            Window {
                offset: lay.offset(start),
                rows,
            }
        })
    });
    let total_height = Memo::new(move |_| state.with(|s| s.layout().total()));

    let scroll_to_bottom = move || {
        if let Some(el) = scroller.get_untracked() {
            el.set_scroll_top(el.scroll_height());
        }
    };
    // The tail, on a later frame: only if the view still follows it then (a permalink revealed
    // in between stops following, and must not be scrolled away from).
    let follow_tail = move || {
        if follow.get_untracked() {
            scroll_to_bottom();
        }
    };

    // Measure rendered rows; keep the first visible row where it is.
    let measure = move || {
        let (Some(w), Some(sc)) = (win.get_untracked(), scroller.get_untracked()) else {
            return;
        };
        let kids = w.children();
        let mut found = Vec::new();
        for i in 0..kids.length() {
            let Some(el) = kids.item(i) else { continue };
            let Some(pos) = el
                .get_attribute("data-pos")
                .and_then(|p| p.parse::<usize>().ok())
            else {
                continue;
            };
            let h = el.get_bounding_client_rect().height() as f32;
            found.push((pos, h));
        }
        let top = sc.scroll_top() as f64;
        let (changes, delta) = state.with_untracked(|s| {
            let lay = s.layout();
            let anchor = lay.index_at(top);
            let mut delta = 0.0_f64;
            let mut changes = Vec::new();
            for (pos, h) in found {
                let old = lay.height(pos);
                if (old - h).abs() >= 0.5 {
                    if pos < anchor {
                        delta += f64::from(h - old);
                    }
                    changes.push((pos, h));
                }
            }
            (changes, delta)
        });
        if changes.is_empty() {
            return;
        }
        state.update(|s| {
            for (pos, h) in changes {
                s.set_height(pos, h);
            }
        });
        if follow.get_untracked() {
            request_animation_frame(follow_tail);
        } else if delta != 0.0 {
            sc.set_scroll_top((top + delta).round() as i32);
        }
    };
    Effect::new(move |_| {
        window_rows.track();
        request_animation_frame(measure);
    });

    // Follow the tail (the preview row, after the list, is part of it).
    Effect::new(move |_| {
        total_height.track();
        preview.track();
        if follow.get_untracked() {
            request_animation_frame(follow_tail);
        }
    });

    let reveal = move |n: usize| {
        let Some(sc) = scroller.get_untracked() else {
            return;
        };
        let (y, h, seq) = state.with_untracked(|s| {
            (
                s.layout().offset(n),
                f64::from(s.layout().height(n)),
                s.visible_row(n).and_then(|r| r.seq),
            )
        });
        let top = f64::from(sc.scroll_top());
        let vh = f64::from(sc.client_height());
        if y < top || y + h.min(vh / 2.0) > top + vh {
            follow.set(false);
            sc.set_scroll_top((y - vh / 3.0).max(0.0) as i32);
        }
        current.set(Some(n));
        set_hash(seq);
    };

    // A permalink (#seq) is honoured as soon as its row is held.
    Effect::new(move |_| {
        let Some(seq) = pending_seq.get() else { return };
        let found = state.with(|s| s.position_of_seq(seq));
        if let Some(n) = found {
            pending_seq.set(None);
            request_animation_frame(move || reveal(n));
        }
    });

    let load_older = move || {
        #[cfg(target_arch = "wasm32")]
        {
            let Some(id) = crate::live::session_of_path(
                &web_sys::window()
                    .and_then(|w| w.location().pathname().ok())
                    .unwrap_or_default(),
            ) else {
                return;
            };
            let Some(before) = next_before.get_untracked() else {
                return;
            };
            if loading_older.get_untracked() {
                return;
            }
            loading_older.set(true);
            leptos::task::spawn_local(async move {
                if let Ok(page) = crate::live::history(&id, Some(before), PAGE).await {
                    let h0 = state.with_untracked(|s| s.layout().total());
                    state.update(|s| crate::state::prepend(s, &page.envelopes));
                    let h1 = state.with_untracked(|s| s.layout().total());
                    next_before.set(page.next_before);
                    if let Some(sc) = scroller.get_untracked() {
                        sc.set_scroll_top(sc.scroll_top() + (h1 - h0).round() as i32);
                    }
                }
                loading_older.set(false);
            });
        }
        #[cfg(not(target_arch = "wasm32"))]
        let _ = (next_before, loading_older, PAGE);
    };

    let on_scroll = move |_| {
        let Some(sc) = scroller.get_untracked() else {
            return;
        };
        let top = f64::from(sc.scroll_top());
        let vh = f64::from(sc.client_height());
        let sh = f64::from(sc.scroll_height());
        scroll_top.set(top);
        viewport_h.set(vh);
        follow.set(top + vh >= sh - 40.0);
        if is_live && top < 400.0 {
            load_older();
        }
    };

    // Offline: the worker's messages feed the reducer.
    let started_at = StoredValue::new(0.0_f64);
    let on_worker = move |msg: FromWorker| match msg {
        FromWorker::Ready => {}
        // Late rows of a log that was closed.
        _ if progress.with_untracked(Option::is_none) => {}
        FromWorker::Rows {
            envs,
            read,
            total,
            lines,
            done,
        } => {
            if !envs.is_empty() {
                state.update(|s| {
                    for env in &envs {
                        apply(s, env);
                    }
                });
            }
            let elapsed = now_ms() - started_at.get_value();
            progress.update(|p| {
                if let Some(p) = p {
                    p.read = read;
                    p.total = total;
                    p.lines = lines;
                    p.done = done;
                    if p.first_ms.is_none() && !envs.is_empty() {
                        p.first_ms = Some(elapsed);
                    }
                    if done {
                        p.done_ms = Some(elapsed);
                    }
                }
            });
        }
        FromWorker::Error(e) => progress.update(|p| {
            if let Some(p) = p {
                p.error = Some(e);
                p.done = true;
            }
        }),
    };
    #[cfg(target_arch = "wasm32")]
    crate::offline::install(on_worker);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = on_worker;

    let begin = move |name: String, total: f64| {
        state.update(clear);
        current.set(None);
        follow.set(false);
        started_at.set_value(now_ms());
        title.set(name.clone());
        progress.set(Some(Progress {
            name,
            total,
            ..Progress::default()
        }));
        if let Some(sc) = scroller.get_untracked() {
            sc.set_scroll_top(0);
        }
    };
    // A log opened by hand replaces the tab's kept one; its `#seq` belonged to the last log.
    // A restored log (`kept`) keeps the `#seq`, revealed once its row is held.
    let open_blob = move |blob: web_sys::Blob, name: String, kept: bool| {
        restoring.set(false);
        begin(name.clone(), blob.size());
        if !kept {
            pending_seq.set(None);
            clear_hash();
            #[cfg(target_arch = "wasm32")]
            crate::keep::keep(&blob, &name);
        }
        #[cfg(target_arch = "wasm32")]
        crate::offline::read_blob(blob);
    };
    let open_file = move |file: web_sys::File| {
        let name = file.name();
        open_blob(file.into(), name, false);
    };
    let open_text = move |text: String| {
        #[cfg(target_arch = "wasm32")]
        if let Some(blob) = crate::offline::text_blob(&text) {
            open_blob(blob, "pasted log".to_owned(), false);
        }
        #[cfg(not(target_arch = "wasm32"))]
        let _ = text;
    };
    // Close the offline log: back to the start page, and forget the kept copy.
    let close_log = move |_| {
        #[cfg(target_arch = "wasm32")]
        {
            crate::offline::cancel();
            crate::keep::forget();
        }
        state.update(clear);
        current.set(None);
        progress.set(None);
        title.set("hiveterm".to_owned());
        pending_seq.set(None);
        clear_hash();
    };
    // Offline: reopen this tab's kept log (a reload), unless a log was opened meanwhile.
    #[cfg(target_arch = "wasm32")]
    if !is_live {
        crate::keep::restore(move |kept| {
            if progress.with_untracked(Option::is_none)
                && let Some((blob, name)) = kept
            {
                open_blob(blob, name, true);
            }
            restoring.set(false);
        });
    }
    let has_log = Memo::new(move |_| !is_live && progress.with(Option::is_some));

    // Keyboard.
    let toggle_expand = move || {
        let on = !expand.get_untracked();
        expand.set(on);
        crate::prefs::set_expand_tool_output(on);
        state.update(|s| s.set_expand(on));
    };
    let _keys = window_event_listener(ev::keydown, move |e: web_sys::KeyboardEvent| {
        if typing_in(e.target()) {
            if e.key() == "Escape"
                && let Some(el) = search_box.get_untracked()
            {
                let _ = el.blur();
            }
            return;
        }
        if e.ctrl_key() || e.meta_key() || e.alt_key() {
            return;
        }
        let len = state.with_untracked(|s| s.visible_len());
        let cur = current.get_untracked();
        match e.key().as_str() {
            "j" if len > 0 => reveal(cur.map_or(0, |c| (c + 1).min(len - 1))),
            "k" if len > 0 => reveal(cur.map_or(0, |c| c.saturating_sub(1))),
            "n" | "N" => {
                let forward = e.key() == "n";
                if let Some(n) = state.with_untracked(|s| s.next_problem(cur, forward)) {
                    reveal(n);
                }
            }
            "/" => {
                e.prevent_default();
                if let Some(el) = search_box.get_untracked() {
                    let _ = el.focus();
                }
            }
            "e" => toggle_expand(),
            "G" => {
                follow.set(true);
                scroll_to_bottom();
            }
            _ => {}
        }
    });
    let _paste = window_event_listener(ev::paste, move |e: web_sys::ClipboardEvent| {
        if typing_in(e.target()) {
            return;
        }
        if let Some(text) = e.clipboard_data().and_then(|d| d.get_data("text").ok())
            && !text.trim().is_empty()
        {
            e.prevent_default();
            open_text(text);
        }
    });
    let _resize = window_event_listener(ev::resize, move |_| {
        if let Some(sc) = scroller.get_untracked() {
            viewport_h.set(f64::from(sc.client_height()));
        }
    });

    // A row opened or closed by hand (toggle does not bubble: listen in the capture phase).
    Effect::new(move |_| {
        let Some(sc) = scroller.get() else { return };
        let cb = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::Event)>::new(
            move |e: web_sys::Event| {
                let Some(el) = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok())
                else {
                    return;
                };
                let Some(pos) = el
                    .get_attribute("data-pos")
                    .and_then(|p| p.parse::<usize>().ok())
                else {
                    return;
                };
                let open = el.open();
                let uid = state.with_untracked(|s| {
                    s.visible_row(pos)
                        .map(|r| r.uid)
                        .filter(|uid| s.is_open(*uid) != open)
                });
                if let Some(uid) = uid {
                    state.update(|s| s.set_open(uid, open));
                }
            },
        );
        let _ = sc.add_event_listener_with_callback_and_bool(
            "toggle",
            cb.as_ref().unchecked_ref(),
            true,
        );
        cb.forget();
        // "show all" under a cut body: draw that row's whole body.
        let show_all = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::Event)>::new(
            move |e: web_sys::Event| {
                let pos = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .and_then(|el| el.closest(".show-all").ok().flatten())
                    .and_then(|b| b.get_attribute("data-pos"))
                    .and_then(|p| p.parse::<usize>().ok());
                let Some(pos) = pos else { return };
                let uid = state.with_untracked(|s| s.visible_row(pos).map(|r| r.uid));
                if let Some(uid) = uid {
                    state.update(|s| s.show_full(uid));
                }
            },
        );
        let _ = sc.add_event_listener_with_callback("click", show_all.as_ref().unchecked_ref());
        show_all.forget();
        viewport_h.set(f64::from(sc.client_height()));
    });

    // Live view, or the session list on the start page.
    #[cfg(target_arch = "wasm32")]
    {
        if let Some(id) = session.clone() {
            crate::live::connect(crate::live::LiveSignals {
                id,
                state,
                title,
                badges,
                server_in_flight,
                conn,
                next_before,
                pending_seq,
                preview,
            });
        } else {
            refresh_sessions(sessions);
        }
    }

    let in_flight = move || is_live && (server_in_flight.get() || state.with(|s| s.in_flight()));
    let counts = Memo::new(move |_| state.with(|s| s.counts()));
    let tools = Memo::new(move |_| state.with(|s| s.tools().to_vec()));
    let shown = Memo::new(move |_| state.with(|s| (s.visible_len(), s.len())));
    // Offline, the log opens at its top: offer the end only once the reader scrolls.
    let jump_visible = move || {
        let top = scroll_top.get();
        !follow.get()
            && (is_live || top > 0.0)
            && top + viewport_h.get() < total_height.get() - 40.0
    };

    let level_names = ["debug", "info", "warn", "error"];
    let level_toggles = level_names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            view! {
                <label class=format!("chip level-{name}")>
                    <input
                        type="checkbox"
                        checked=move || levels.get()[i]
                        on:change=move |e| {
                            let on = event_target_checked(&e);
                            levels.update(|l| l[i] = on);
                        }
                    />
                    {*name}
                    " "
                    <span class="count">{move || counts.get()[i]}</span>
                </label>
            }
        })
        .collect::<Vec<_>>();

    let progress_view = move || {
        progress.get().map(|p| {
            let pct = if p.total > 0.0 {
                p.read / p.total * 100.0
            } else {
                100.0
            };
            let label = match (&p.error, p.done) {
                (Some(e), _) => format!("error: {e}"),
                (None, true) => format!(
                    "{} lines · {:.1} MB · {:.0} ms",
                    p.lines,
                    p.total / 1e6,
                    p.done_ms.unwrap_or(0.0)
                ),
                (None, false) => format!("{} lines · {:.0}%", p.lines, pct),
            };
            view! {
                <div
                    class="progress"
                    data-done=if p.done { "1" } else { "0" }
                    data-first-ms=p.first_ms.map(|v| format!("{v:.0}")).unwrap_or_default()
                    data-done-ms=p.done_ms.map(|v| format!("{v:.0}")).unwrap_or_default()
                    data-lines=p.lines.to_string()
                >
                    <div class="bar" style:width=format!("{pct:.1}%")></div>
                    <span class="progress-text">{label}</span>
                </div>
            }
        })
    };

    let empty_view = move || {
        (shown.get().1 == 0 && !has_log.get() && !restoring.get() && !is_live).then(|| {
            let list = sessions.get();
            // A page opened with ?token= passes it on to the sessions it links to.
            #[cfg(target_arch = "wasm32")]
            let token = crate::live::page_token();
            #[cfg(not(target_arch = "wasm32"))]
            let token = None::<String>;
            view! {
                <div class="empty">
                    <p class="hint">
                        "Drop a " <code>".jsonl"</code>
                        " log anywhere on this page, paste one, or "
                        <label class="linkish" for="file">"pick a file"</label>
                        ". It is read and classified right here in your browser; nothing is uploaded."
                    </p>
                    <p class="hint">
                        "Claude Code stream-json, Claude Code transcripts (~/.claude/projects/…) and hyperhive event logs all work."
                    </p>
                    {(!list.is_empty()).then(|| view! {
                        <h2>"Sessions on this server"</h2>
                        <ul class="sessions">
                            {list.into_iter().map(|s| {
                                let meta = crate::live::session_meta(&s, crate::row::local_offset_min);
                                let href = crate::live::with_token(&format!("s/{}", s.id), token.as_deref());
                                view! {
                                    <li>
                                        <a href=href>{s.title}</a>
                                        {s.live.then(|| view! { <span class="badge">"live"</span> })}
                                        <span class="session-meta">{meta}</span>
                                    </li>
                                }
                            }).collect::<Vec<_>>()}
                        </ul>
                    })}
                </div>
            }
        })
    };

    view! {
        <main
            class="page"
            class=("dragging", move || dragging.get())
            data-dropzone=""
            on:dragover=move |e: web_sys::DragEvent| {
                e.prevent_default();
                dragging.set(true);
            }
            on:dragleave=move |_| dragging.set(false)
            on:drop=move |e: web_sys::DragEvent| {
                e.prevent_default();
                dragging.set(false);
                if let Some(f) = e.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0)) {
                    open_file(f);
                }
            }
        >
            <header class="banner" class=("in-flight", in_flight)>
                <span class="title">{move || title.get()}</span>
                <button
                    class="close-log"
                    title="close this log (it is kept only for a reload of this tab)"
                    hidden=move || !has_log.get()
                    on:click=close_log
                >"close ✕"</button>
                <span class="conn">{move || conn.get()}</span>
                <span class="badges">
                    {move || badges.get().into_iter().map(|(k, v)| {
                        let text = if matches!(k.as_str(), "status" | "model" | "ended") {
                            v
                        } else {
                            format!("{k} {v}")
                        };
                        view! { <span class=format!("badge badge-{k}") title=k.clone()>{text}</span> }
                    }).collect::<Vec<_>>()}
                </span>
                {progress_view}
            </header>
            <nav class="toolbar">
                {level_toggles}
                <select
                    class="tool-filter"
                    title="filter by tool"
                    on:change=move |e| {
                        let v = event_target_value(&e);
                        tool.set((!v.is_empty()).then_some(v));
                    }
                >
                    <option value="">"all tools"</option>
                    {move || tools.get().into_iter().map(|t| {
                        let sel = tool.get_untracked().as_deref() == Some(t.as_str());
                        view! { <option value=t.clone() selected=sel>{t.clone()}</option> }
                    }).collect::<Vec<_>>()}
                </select>
                <input
                    class="search"
                    type="search"
                    placeholder="search  /"
                    node_ref=search_box
                    prop:value=move || query_input.get()
                    on:input=move |e| query_input.set(event_target_value(&e))
                />
                <button
                    class="prev-problem"
                    title="previous warning/error (N)"
                    on:click=move |_| {
                        let cur = current.get_untracked();
                        if let Some(n) = state.with_untracked(|s| s.next_problem(cur, false)) {
                            reveal(n);
                        }
                    }
                >"▲ N"</button>
                <button
                    class="next-problem"
                    title="next warning/error (n)"
                    on:click=move |_| {
                        let cur = current.get_untracked();
                        if let Some(n) = state.with_untracked(|s| s.next_problem(cur, true)) {
                            reveal(n);
                        }
                    }
                >"▼ n"</button>
                <label class="chip" title="expand tool output (e)">
                    <input
                        type="checkbox"
                        class="expand-all"
                        checked=move || expand.get()
                        on:change=move |_| toggle_expand()
                    />
                    "expand"
                </label>
                <label class="open-file" for="file">"open log…"</label>
                <input
                    id="file"
                    type="file"
                    accept=".jsonl,.json,.ndjson,.log,.txt"
                    on:change=move |e| {
                        let input: web_sys::HtmlInputElement = event_target(&e);
                        if let Some(f) = input.files().and_then(|f| f.get(0)) {
                            open_file(f);
                        }
                        input.set_value("");
                    }
                />
                <span class="shown">
                    {move || {
                        let (v, n) = shown.get();
                        if v == n { format!("{n} rows") } else { format!("{v} of {n} rows") }
                    }}
                </span>
            </nav>
            <div class="live scroller" node_ref=scroller on:scroll=on_scroll tabindex="-1">
                {empty_view}
                <div class="spacer" style:height=move || format!("{}px", total_height.get().ceil())>
                    <div
                        class="window"
                        node_ref=win
                        style:transform=move || format!("translateY({}px)", window_rows.with(|w| w.offset))
                    >
                        <For
                            each=move || window_rows.get().rows
                            key=|w| (w.row.uid, w.pos, w.open, w.full, w.current, w.generation)
                            children=move |w| {
                                let q = query.get_untracked();
                                view! {
                                    <Row row=w.row pos=w.pos open=w.open query=q current=w.current full=w.full />
                                }
                            }
                        />
                    </div>
                </div>
                {move || preview.get().map(|p| {
                    let text = p.shown_text();
                    view! {
                        <div
                            class="row level-debug preview"
                            data-kind=p.kind.clone().unwrap_or_default()
                            data-preview-seq=p.seq.to_string()
                        >
                            <span class="row-glyph">{p.icon()}</span>
                            <span class="preview-text">
                                {p.tool.map(|t| view! { <span class="preview-tool">{t}</span> })}
                                {text}
                            </span>
                        </div>
                    }
                })}
            </div>
            <button
                class="jump"
                style:display=move || if jump_visible() { "block" } else { "none" }
                on:click=move |_| {
                    follow.set(true);
                    scroll_to_bottom();
                }
            >"jump to latest ↓"</button>
        </main>
    }
}
