//! The start page: how to open a log and, when a hiveterm server serves the page, the fleet's
//! index: one search box across every session ([`FleetSearch`]), the filters
//! ([`SessionFilters`]) and the sessions' table ([`SessionTable`]), its first page kept
//! current while the server answers (none of it on a static host).

use leptos::prelude::*;

use crate::live::net;
use crate::model::fleet::{Filters, IndexPage, IndexRow, index_url, joined};
use crate::view::fleet_search::FleetSearch;
use crate::view::session_filters::SessionFilters;
use crate::view::session_table::SessionTable;

/// How often the first page of the index is asked for again.
const REFRESH: std::time::Duration = std::time::Duration::from_secs(5);

/// The index as the start page holds it: the filters, the first page (refreshed) and the
/// pages after it ("more…").
#[derive(Clone, Copy)]
pub struct Fleet {
    /// Whether a server answered the index (else the page is on a static host).
    pub served: RwSignal<bool>,
    /// What the reader filters and sorts by.
    pub filters: RwSignal<Filters>,
    /// The first page.
    first: RwSignal<Vec<IndexRow>>,
    /// The pages after it, as asked for.
    more: RwSignal<Vec<IndexRow>>,
    /// The cursor of the page after the last shown.
    pub next: RwSignal<Option<String>>,
    /// Why the last ask failed, while it does.
    pub error: RwSignal<Option<String>>,
}

impl Fleet {
    /// An empty index, not asked for yet.
    pub fn new() -> Fleet {
        Fleet {
            served: RwSignal::new(false),
            filters: RwSignal::new(Filters::default()),
            first: RwSignal::new(Vec::new()),
            more: RwSignal::new(Vec::new()),
            next: RwSignal::new(None),
            error: RwSignal::new(None),
        }
    }

    /// The rows shown: the first page, then the pages after it.
    pub fn rows(self) -> Signal<Vec<IndexRow>> {
        Signal::derive(move || self.first.with(|f| self.more.with(|m| joined(f, m))))
    }

    /// Asks for the first page now and every [`REFRESH`] after, for as long as the server
    /// answers (on a static host the first ask fails and nothing repeats); and again at once
    /// whenever the filters change (the pages after it dropped).
    pub fn start(self) {
        self.load_first(true);
        Effect::new(move |seen: Option<()>| {
            self.filters.track();
            if seen.is_some() {
                self.more.set(Vec::new());
                self.next.set(None);
                self.load_first(false);
            }
        });
    }

    fn load_first(self, repeat: bool) {
        let sent = self.filters.get_untracked();
        leptos::task::spawn_local(async move {
            let got = net::index_page(&index_url(&sent, None)).await;
            // An answer for filters no longer set is dropped.
            let current = self.filters.get_untracked() == sent;
            match got {
                Ok(page) if current => {
                    self.served.set(true);
                    self.error.set(None);
                    if self.more.with_untracked(Vec::is_empty) {
                        set_if_changed(self.next, page.next);
                    }
                    set_if_changed(self.first, page.rows);
                }
                Err(e) if current && self.served.get_untracked() => {
                    self.error.set(Some(e.to_string()));
                }
                _ => {}
            }
            if repeat && (self.served.get_untracked() || !current) {
                set_timeout(move || self.load_first(true), REFRESH);
            }
        });
    }

    /// Asks for the page after the last shown.
    pub fn load_more(self) {
        let Some(cursor) = self.next.get_untracked() else {
            return;
        };
        let sent = self.filters.get_untracked();
        leptos::task::spawn_local(async move {
            let got: Result<IndexPage, _> = net::index_page(&index_url(&sent, Some(&cursor))).await;
            if self.filters.get_untracked() != sent
                || self.next.get_untracked().as_deref() != Some(cursor.as_str())
            {
                return;
            }
            match got {
                Ok(page) => {
                    self.more.update(|m| m.extend(page.rows));
                    self.next.set(page.next);
                }
                Err(e) => self.error.set(Some(e.to_string())),
            }
        });
    }
}

/// Sets `s` to `v` unless it holds that already (so nothing redraws for a refresh that
/// changed nothing).
fn set_if_changed<T: PartialEq + Send + Sync + 'static>(s: RwSignal<T>, v: T) {
    if s.with_untracked(|old| *old != v) {
        s.set(v);
    }
}

impl Default for Fleet {
    fn default() -> Fleet {
        Fleet::new()
    }
}

/// The start page, while `shown`.
#[component]
pub fn StartPage(
    /// Whether nothing else is shown.
    #[prop(into)]
    shown: Signal<bool>,
    /// The server's index.
    fleet: Fleet,
) -> impl IntoView {
    let rows = fleet.rows();
    let next = Signal::derive(move || fleet.next.get());
    let error = Signal::derive(move || fleet.error.get());
    let on_more = Callback::new(move |()| fleet.load_more());
    move || {
        shown.get().then(|| {
            view! {
                <div class="empty">
                    <p class="hint">
                        "Drop a " <code>".jsonl"</code>
                        " log anywhere on this page, paste one, or "
                        <label class="linkish" for="file">"pick a file"</label>
                        ". It is read and classified right here in your browser; nothing is uploaded."
                    </p>
                    <p class="hint">
                        "Claude Code stream-json and transcripts (~/.claude/projects/…), Codex exec --json and rollouts (~/.codex/sessions/…, .jsonl.zst too), Gemini CLI stream-json and chat recordings (~/.gemini/tmp/…/chats/) and hyperhive event logs all work."
                    </p>
                    {move || fleet.served.get().then(|| view! {
                        <section class="fleet">
                            <h2>"Sessions on this server"</h2>
                            <FleetSearch />
                            <SessionFilters filters=fleet.filters />
                            <SessionTable rows next error on_more />
                        </section>
                    })}
                </div>
            }
        })
    }
}
