//! The row list: a virtualised scroller of `<Row>`s (each followed by the notes whose range
//! ends at it, measured with it), the live preview row after them, and "jump to latest". Only the rows in and near the viewport are rendered, placed by the
//! state's [`crate::model::layout::HeightIndex`]; after each render they are measured and their real
//! heights fed back, the reader's first visible row kept in place.
//! The scroller moves only through its [`Navigator`].

use std::sync::Arc;

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::browser;
use crate::live::preview::PreviewFrame;
use crate::markdown::render::Renderer;
use crate::model::layout::ScrollMap;
use crate::model::nav::{Nav, Viewport};
use crate::model::state::Row as RowData;
use crate::notes::handle::NotesHandle;
use crate::notes::model::{Note, key_of};
use crate::notes::view::{NotesUnder, note_range};
use crate::offline::bodies::BodySource;
use crate::view::activity::{Activity, RunningTools};
use crate::view::navigator::Navigator;
use crate::view::preview_row::PreviewRow;
use crate::view::row::Row;

/// One rendered row of the window: the row and the props of its `<Row>`.
#[expect(
    clippy::struct_excessive_bools,
    reason = "the flags are the <Row> props, compared to know when to draw it again"
)]
#[derive(Clone)]
struct WinRow {
    pos: usize,
    row: Arc<RowData>,
    open: bool,
    full: bool,
    current: bool,
    selected: bool,
    generation: u64,
    /// The notes drawn after it (it is the last shown row of their range's last envelope),
    /// and their key ([`key_of`]).
    notes: Vec<Note>,
    notes_key: u64,
    block: Option<(String, bool)>,
}

impl PartialEq for WinRow {
    fn eq(&self, o: &WinRow) -> bool {
        Arc::ptr_eq(&self.row, &o.row)
            && (
                self.pos,
                self.open,
                self.full,
                self.current,
                self.selected,
                self.generation,
                self.notes_key,
            ) == (
                o.pos,
                o.open,
                o.full,
                o.current,
                o.selected,
                o.generation,
                o.notes_key,
            )
            && self.block == o.block
    }
}

#[derive(Clone, PartialEq)]
struct Window {
    offset: f64,
    rows: Vec<WinRow>,
}

/// The list.
#[component]
pub fn RowList<C: IntoView + 'static>(
    /// The rows and the scroller.
    navi: Navigator,
    /// Search text to highlight.
    query: RwSignal<String>,
    /// The live preview row.
    preview: RwSignal<Option<PreviewFrame>>,
    /// Whether this is a live session (it opens at its tail; "jump to latest" from the start).
    is_live: bool,
    /// The reader scrolled near the top (a live view fetches older history).
    on_near_top: Callback<()>,
    /// Shown above the rows (the start page; typed, not boxed into an `AnyView`: smaller).
    children: TypedChildren<C>,
) -> impl IntoView {
    let children = children.into_inner();
    let Navigator {
        state,
        nav,
        scroller,
    } = navi;
    let scroll_top = RwSignal::new(0.0_f64);
    let viewport_h = RwSignal::new(800.0_f64);
    let win = NodeRef::<html::Div>::new();

    let total_height = Memo::new(move |_| state.with(|s| s.layout().total()));
    let max_scroll = browser::max_scroll_px();
    let scroll_map =
        Memo::new(move |_| ScrollMap::new(total_height.get(), viewport_h.get(), max_scroll));

    let notes = use_context::<NotesHandle>().map(|h| h.notes);
    let window_rows = Memo::new(move |_| {
        let (s_top, vh, map) = (scroll_top.get(), viewport_h.get(), scroll_map.get());
        let (cur, sel) = nav.with(|n| (n.current(), n.selection()));
        if let Some(n) = notes {
            n.track();
        }
        state.with(|s| {
            let lay = s.layout();
            let range = lay.window(map.to_content(s_top), vh);
            let offset = map.place(lay.offset(range.start), s_top);
            let rows = range
                .filter_map(|n| {
                    let row = s.visible_row(n)?.clone();
                    // Notes go after the last shown row of their range's last envelope.
                    let last_of_seq =
                        row.seq.is_some() && s.visible_row(n + 1).map(|r| r.seq) != Some(row.seq);
                    let under = match (notes, row.seq) {
                        (Some(ns), Some(q)) if last_of_seq => ns.with_untracked(|ns| ns.under(q)),
                        _ => Vec::new(),
                    };
                    Some(WinRow {
                        notes_key: key_of(&under),
                        notes: under,
                        pos: n,
                        open: s.is_open(row.uid),
                        full: s.is_full(row.uid),
                        current: cur == Some(n),
                        selected: sel.zip(row.seq).is_some_and(|(r, q)| r.contains(q)),
                        generation: s.generation(),
                        block: s.block_of(&row),
                        row,
                    })
                })
                .collect();
            Window { offset, rows }
        })
    });

    // A queued tail frame: the end, if the view still follows it then.
    let tail_frame = move || navi.scroll(nav.with_untracked(Nav::tail_frame));

    // Measure rendered rows; keep the first visible row where it is.
    let measure = move || {
        let (Some(w), Some(sc)) = (win.get_untracked(), scroller.get_untracked()) else {
            return;
        };
        let kids = w.children();
        // A row and the notes after it (the same `data-pos`) are one height.
        let mut found: Vec<(usize, f32)> = Vec::new();
        for i in 0..kids.length() {
            let Some(el) = kids.item(i) else { continue };
            let Some(pos) = el.get_attribute("data-pos").and_then(|p| p.parse().ok()) else {
                continue;
            };
            let h = el.get_bounding_client_rect().height() as f32;
            match found.last_mut() {
                Some((p, total)) if *p == pos => *total += h,
                _ => found.push((pos, h)),
            }
        }
        let top = scroll_map
            .get_untracked()
            .to_content(f64::from(sc.scroll_top()));
        let (changes, shift) = state.with_untracked(|s| s.layout().measured(top, &found));
        if changes.is_empty() {
            return;
        }
        let apply = move || {
            state.update(|s| {
                for (pos, h) in changes {
                    s.set_height(pos, h);
                }
            });
            shift
        };
        if nav.with_untracked(Nav::grew) {
            apply();
            request_animation_frame(tail_frame);
        } else {
            navi.keep_in_place(apply);
        }
    };
    Effect::new(move |_| {
        window_rows.track();
        request_animation_frame(measure);
    });
    // A markdown body's HTML arrived from the worker (its row's height changed): measure
    // again, once per frame however many arrived.
    // So does a body read again from an offline log's file (crate::offline::bodies).
    let queued = std::rc::Rc::new(std::cell::Cell::new(false));
    let remeasure = move || {
        if !queued.replace(true) {
            let queued = queued.clone();
            request_animation_frame(move || {
                queued.set(false);
                measure();
            });
        }
    };
    if let Some(r) = use_context::<Renderer>() {
        r.on_arrival(remeasure.clone());
    }
    if let Some(b) = use_context::<BodySource>() {
        b.on_arrival(remeasure);
    }

    // Follow the tail (the preview row and the running tools, after the list, are part of it).
    let activity = use_context::<Activity>();
    Effect::new(move |_| {
        total_height.track();
        preview.track();
        if let Some(a) = activity {
            a.running.track();
        }
        if nav.with_untracked(Nav::grew) {
            request_animation_frame(tail_frame);
        }
    });

    // A permalink is honoured as soon as its rows are held (revealed once laid out). The
    // reducer is asked on a copy: writing `nav` on every run would run this effect again.
    Effect::new(move |_| {
        state.track();
        let mut probe = nav.get();
        let Some(link) = probe.pending() else { return };
        // An offline log (or an export) is read from its first line; a live view pages back.
        if let Some(n) = state.with_untracked(|s| probe.found(s, !is_live)) {
            nav.set(probe);
            request_animation_frame(move || navi.reveal_permalink(n, link));
        }
    });

    let on_scroll = move |_| {
        let Some(sc) = scroller.get_untracked() else {
            return;
        };
        let vp = Viewport {
            top: f64::from(sc.scroll_top()),
            height: f64::from(sc.client_height()),
        };
        scroll_top.set(vp.top);
        viewport_h.set(vp.height);
        nav.maybe_update(|n| n.scrolled(vp, f64::from(sc.scroll_height())));
        if Nav::wants_older(vp) {
            on_near_top.run(());
        }
    };

    // Listeners on the scroller: a row opened or closed by hand (toggle does not bubble:
    // the capture phase), "show all" under a cut body, a click on a row.
    Effect::new(move |_| {
        let Some(sc) = scroller.get() else { return };
        let on_toggle = move |e: web_sys::Event| {
            let Some(el) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok())
            else {
                return;
            };
            let Some(pos) = el.get_attribute("data-pos").and_then(|p| p.parse().ok()) else {
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
        };
        listen(&sc, "toggle", true, on_toggle);
        let on_click = move |e: web_sys::Event| {
            // A subagent's block opened or closed.
            if let Some(pos) = browser::pos_of(e.target(), ".block-toggle") {
                e.prevent_default();
                state.update(|s| s.toggle_block_at(pos));
                return;
            }
            if let Some(pos) = browser::pos_of(e.target(), ".show-all") {
                let uid = state.with_untracked(|s| s.visible_row(pos).map(|r| r.uid));
                if let Some(uid) = uid {
                    state.update(|s| s.show_full(uid));
                }
                return;
            }
            // A note's range: gone to and selected, as its `#seq=A-B` link.
            if let Some(range) = note_range(e.target()) {
                e.prevent_default();
                navi.goto_range(range);
                browser::set_permalink(range);
                return;
            }
            // A row's link: that row current, its link in the URL and on the clipboard.
            if let Some(pos) = browser::pos_of(e.target(), ".row-link") {
                e.prevent_default();
                navi.click(pos, false);
                navi.copy_link();
                return;
            }
            // Shift-click: the rows from the current one to this one selected (not opened).
            let shift = e
                .dyn_ref::<web_sys::MouseEvent>()
                .is_some_and(web_sys::MouseEvent::shift_key);
            if let Some(pos) = browser::pos_of(e.target(), ".row").filter(|_| shift) {
                e.prevent_default();
                navi.click(pos, true);
            }
        };
        listen(&sc, "click", false, on_click);
        // A subagent's block toggle (a `role="button"` span) pressed from the keyboard.
        let on_key = move |e: web_sys::Event| {
            if let Some(pos) = browser::pressed(&e, ".block-toggle") {
                state.update(|s| s.toggle_block_at(pos));
            }
        };
        listen(&sc, "keydown", false, on_key);
        viewport_h.set(f64::from(sc.client_height()));
    });
    let _resize = window_event_listener(leptos::ev::resize, move |_| {
        if let Some(sc) = scroller.get_untracked() {
            viewport_h.set(f64::from(sc.client_height()));
        }
    });

    // Offline, the log opens at its top: offer the end only once the reader scrolls.
    let jump_visible = move || {
        let top = scroll_top.get();
        !nav.with(Nav::follows)
            && (is_live || top > 0.0)
            && top + viewport_h.get() < scroll_map.with(ScrollMap::spacer) - 40.0
    };

    view! {
        <div class="live scroller" node_ref=scroller on:scroll=on_scroll tabindex="-1">
            {children()}
            <div class="spacer" style:height=move || format!("{}px", scroll_map.with(ScrollMap::spacer).ceil())>
                <div
                    class="window"
                    node_ref=win
                    style:transform=move || format!("translateY({}px)", window_rows.with(|w| w.offset))
                >
                    <For
                        each=move || window_rows.get().rows
                        key=|w| (w.row.uid, w.pos, w.open, w.full, w.current, w.selected, w.generation, w.notes_key)
                        children=move |w| {
                            let q = query.get_untracked();
                            let notes = (!w.notes.is_empty())
                                .then(|| view! { <NotesUnder notes=w.notes pos=w.pos /> });
                            view! {
                                <Row
                                    row=w.row
                                    pos=w.pos
                                    open=w.open
                                    query=q
                                    current=w.current
                                    selected=w.selected
                                    full=w.full
                                    block=w.block
                                />
                                {notes}
                            }
                        }
                    />
                </div>
            </div>
            {move || preview.get().map(|p| view! { <PreviewRow p /> })}
            <RunningTools />
        </div>
        <button
            class="jump"
            style:display=move || if jump_visible() { "block" } else { "none" }
            on:click=move |_| navi.jump_latest()
        >"jump to latest ↓"</button>
    }
}

/// Adds a listener for the page's lifetime.
fn listen(
    el: &web_sys::Element,
    event: &str,
    capture: bool,
    f: impl FnMut(web_sys::Event) + 'static,
) {
    let cb = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::Event)>::new(f);
    let _ =
        el.add_event_listener_with_callback_and_bool(event, cb.as_ref().unchecked_ref(), capture);
    cb.forget();
}
