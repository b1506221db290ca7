//! The page: a thin component that makes the shared signals and composes the parts —
//! [`Banner`], [`Toolbar`], [`SummaryHeader`], [`RowList`] (with the [`StartPage`] above its
//! rows) inside the [`DropZone`] — and starts the live view ([`Live`]) or the offline one ([`LogFile`]).
//!
//! Under a share link (`/p/<token>`) it is read-only: the live view reads the link's reads,
//! the summary header opens first, and there is no ingest (no drop, paste or "open log…"), no
//! session list and no share button; a dead link shows [`DeadLink`]'s message. An exported
//! file ([`crate::offline::export`]) is a read-only document too: no ingest, and no "close" for the
//! log it carries.
//!
//! Notes ([`crate::notes`]) are handed down by context: the rows draw them, `a` and
//! "note…" open the editor on the current row or the selected range, the summary header
//! counts and steps through them.
//!
//! All row data lives in one signal holding a [`ViewState`] (the row reducer,
//! [`crate::model::state`]); where the reader is lives in one holding a [`crate::model::nav::Nav`] (the
//! navigation reducer). Components read them; changes go through the reducers.

use leptos::ev;
use leptos::html;
use leptos::prelude::*;

use crate::browser;
use crate::live::view::Live;
use crate::markdown::render::Renderer;
use crate::model::nav::Key;
use crate::model::state::ViewState;
use crate::notes::handle::NotesHandle;
use crate::notes::view::NoteEditor;
use crate::offline::log_file::LogFile;
use crate::share::dead_link::DeadLink;
use crate::share::link::Source;
use crate::share::save_button::{self, SaveOf};
use crate::view::activity::Activity;
use crate::view::banner::Banner;
use crate::view::drop_zone::DropZone;
use crate::view::navigator::Navigator;
use crate::view::row_list::RowList;
use crate::view::start_page::{Fleet, StartPage};
use crate::view::summary_header::SummaryHeader;
use crate::view::toolbar::{Controls, Toolbar};

/// The whole page.
#[component]
pub fn Page() -> impl IntoView {
    // An exported file (crate::offline::export) is never a live session, whatever its path.
    let exported = crate::offline::export::embedded();
    // What this page reads live: a session (`/s/{id}`) or a share link (`/p/<token>`), if
    // either.
    let source = if exported {
        None
    } else {
        browser::pathname().and_then(|path| Source::of_path(&path, browser::page_token()))
    };
    let is_live = source.is_some();
    let shared = source.as_ref().is_some_and(Source::is_share);
    // Nothing to open, drop or paste in a share link's page or an exported file.
    let read_only = shared || exported;
    let share = source.as_ref().and_then(|s| s.session()).map(str::to_owned);
    // "save as one file": a live session's raw events, or the offline log in hand; not in an
    // exported file (read-only) nor under a share link.
    let save_live = source.as_ref().and_then(|s| {
        Some(save_button::Live {
            url: s.raw_url()?,
            name: s.session()?.to_owned(),
        })
    });
    let state = RwSignal::new(ViewState::default());
    let navi = Navigator::new(state, is_live);
    let controls = Controls::new(state, navi.nav);
    let title = RwSignal::new("hiveterm".to_owned());
    // The notes of what is shown (a session's, a link's, an offline log's, an export's).
    let notes = NotesHandle::new();
    provide_context(notes);
    let log = LogFile::new(navi, title, is_live, notes);
    let save_of = save_live.map_or(SaveOf::Offline(log.blob), SaveOf::Live);
    // The rows' two sources of what they draw late: markdown HTML (the markdown worker) and
    // an offline log's bodies (its worker), handed down by context.
    provide_context(Renderer::new(crate::offline::export::mdworker_url()));
    provide_context(log.bodies);
    let live = source.map(|s| Live::new(s, navi, title, notes));
    let fleet = Fleet::new();
    match live.clone() {
        Some(l) => l.connect(),
        None if exported => {
            crate::offline::embedded::load(log);
        }
        None => fleet.start(),
    }
    // Offline, the worker searches the bodies left in the log's file.
    if !is_live {
        Effect::new(move |_| log.search_bodies(controls.query.get()));
    }
    let search_box = NodeRef::<html::Input>::new();
    let write_note = Callback::new(move |()| {
        if notes.can_write_untracked()
            && let Some(range) = navi.link()
        {
            notes.editing.set(Some(range));
        }
    });
    listen_keys(navi, controls, search_box, write_note);

    let (conn, badges, server_in_flight, preview, dead) = match &live {
        Some(l) => (l.conn, l.badges, l.server_in_flight, l.preview, l.dead),
        None => Default::default(),
    };
    if let Some(l) = &live {
        let ended = Signal::derive(move || badges.with(|b| b.iter().any(|(k, _)| k == "ended")));
        provide_context(Activity::new(state, l.running, ended));
    }
    let summary = live.as_ref().map_or(log.summary, |l| l.summary);
    // The blocks' lines say how each subagent ended where only the summary knows (its call's
    // result, a task notification).
    Effect::new(move |_| {
        let ends = summary
            .with(|v| v.as_ref().map(|v| v.subagent_ends.clone()))
            .unwrap_or_default();
        if !state.with_untracked(|s| s.has_subagent_ends(&ends)) {
            state.update(|s| s.set_subagent_ends(&ends));
        }
    });
    let live_for_jump = live.clone();
    let on_first_error = Callback::new(move |seq| match &live_for_jump {
        Some(l) => l.goto(seq),
        None => navi.goto(seq),
    });
    let live_for_note = live.clone();
    let on_note = Callback::new(move |range| {
        crate::browser::set_permalink(range);
        match &live_for_note {
            Some(l) => l.goto_range(range),
            None => navi.goto_range(range),
        }
    });
    let in_flight = move || {
        is_live
            && badges.with(|b| {
                crate::live::wire::shimmers(
                    server_in_flight.get(),
                    state.with(ViewState::turns_in_flight),
                    b,
                )
            })
    };
    let has_log = Memo::new(move |_| !is_live && log.is_open());
    // An export's log is the document itself: not to be closed.
    let closable = Memo::new(move |_| !exported && has_log.get());
    let save_shown = move || !exported && !shared && (is_live || has_log.get());
    let start_shown = move || {
        !is_live && state.with(ViewState::is_empty) && !has_log.get() && !log.restoring.get()
    };
    let on_near_top = Callback::new(move |()| {
        if let Some(l) = &live {
            l.load_older();
        }
    });

    view! {
        <DropZone
            on_files=Callback::new(move |f| log.open_files(f))
            on_text=Callback::new(move |t| log.open_text(t))
            read_only
        >
            <Banner
                title
                has_log=closable
                on_close=Callback::new(move |()| log.close())
                conn
                badges
                progress=log.progress
                in_flight
                share
                save_shown=Signal::derive(save_shown)
                save_of
            />
            <Toolbar
                controls
                state=state.read_only()
                search_box
                on_problem=Callback::new(move |forward| {
                    navi.key(if forward { Key::NextProblem } else { Key::PrevProblem });
                })
                on_files=Callback::new(move |f| log.open_files(f))
                read_only
                on_note=write_note
                note_shown=Signal::derive(move || notes.can_write())
                hidden=Signal::derive(start_shown)
            />
            <NoteEditor />
            <DeadLink message=dead />
            <SummaryHeader summary on_first_error on_note open=shared />
            <RowList navi query=controls.query preview is_live on_near_top>
                <StartPage shown=Signal::derive(start_shown) fleet />
            </RowList>
        </DropZone>
    }
}

/// The page's keys (outside text fields, without modifiers): `j` `k` `n` `N` `G` `c` move
/// through the rows, `/` searches, `e` expands tool output, `a` writes a note on the
/// current row or the selected range; Escape leaves the search box.
fn listen_keys(
    navi: Navigator,
    controls: Controls,
    search_box: NodeRef<html::Input>,
    write_note: Callback<()>,
) {
    let keys = window_event_listener(ev::keydown, move |e: web_sys::KeyboardEvent| {
        if browser::typing_in(e.target()) {
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
        match Key::of(&e.key()) {
            Some(Key::Search) => {
                e.prevent_default();
                if let Some(el) = search_box.get_untracked() {
                    let _ = el.focus();
                }
            }
            Some(Key::Expand) => controls.toggle_expand(),
            Some(Key::Note) => {
                e.prevent_default();
                write_note.run(());
            }
            Some(key) => {
                navi.key(key);
            }
            None => {}
        }
    });
    on_cleanup(move || keys.remove());
}
