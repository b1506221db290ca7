//! The start page: how to open a log and, when a hiveterm server serves the page, the fleet's
//! index: one search box across every session ([`FleetSearch`]), the filters
//! ([`SessionFilters`]) and the sessions' table ([`SessionTable`]), kept live by the index's
//! stream (`GET /api/index/stream`: each changed session put in its place, through
//! `model::fleet_live`) and read again when the stream (re)opens and every minute (none of
//! it on a static host).

use leptos::prelude::*;

use crate::live::net;
use crate::model::fleet::{
    Filters, IndexPage, IndexRow, TABLE_PAGE, index_url, index_url_of, joined,
};
use crate::model::fleet_live::{IndexMsg, Reads, upsert};
use crate::offline::compare::Comparing;
use crate::view::compare_logs::CompareLogs;
use crate::view::fleet_search::FleetSearch;
use crate::view::session_filters::SessionFilters;
use crate::view::session_table::SessionTable;

/// How often the rows shown are asked for again, whatever the stream said (a stream that
/// dropped and has not reconnected yet leaves nothing stale for longer).
const REFRESH: std::time::Duration = std::time::Duration::from_secs(60);

/// The most sessions one read of the index answers (the server's largest page).
const MOST: u32 = 1000;

/// The index as the start page holds it: the filters, the rows shown (the first page and
/// those after it, "more…"), kept live by the index's stream.
#[derive(Clone, Copy)]
pub struct Fleet {
    /// Whether a server answered the index (else the page is on a static host).
    pub served: RwSignal<bool>,
    /// What the reader filters and sorts by.
    pub filters: RwSignal<Filters>,
    /// The rows shown, in the index's order.
    rows: RwSignal<Vec<IndexRow>>,
    /// The cursor of the page after the last shown.
    pub next: RwSignal<Option<String>>,
    /// Why the last ask failed, while it does.
    pub error: RwSignal<Option<String>>,
    /// The reads of the index under way and the stream's rows received meanwhile.
    reads: StoredValue<Reads>,
    /// Whether the stream is followed (from the first answer on).
    following: StoredValue<bool>,
}

impl Fleet {
    /// An empty index, not asked for yet.
    pub fn new() -> Fleet {
        Fleet {
            served: RwSignal::new(false),
            filters: RwSignal::new(Filters::default()),
            rows: RwSignal::new(Vec::new()),
            next: RwSignal::new(None),
            error: RwSignal::new(None),
            reads: StoredValue::new(Reads::default()),
            following: StoredValue::new(false),
        }
    }

    /// The rows shown.
    pub fn rows(self) -> Signal<Vec<IndexRow>> {
        self.rows.into()
    }

    /// Asks for the first page now; once a server answered, follows the index's stream
    /// (each changed session put into the rows; read again when it (re)opens or says
    /// `reset`) and reads the rows shown again every [`REFRESH`]. On a static host the first
    /// ask fails and nothing more is asked. The rows are read again at once whenever the
    /// filters change (the pages after the first dropped).
    pub fn start(self) {
        self.read(TABLE_PAGE);
        Effect::new(move |seen: Option<()>| {
            self.filters.track();
            if seen.is_some() {
                self.read(TABLE_PAGE);
            }
        });
    }

    /// Reads the index again: the first `limit` rows (those shown), replacing them, with
    /// the stream's rows received meanwhile put over them; the first answer starts the
    /// stream and the refresh.
    fn read(self, limit: u32) {
        let sent = self.filters.get_untracked();
        self.reads.update_value(Reads::begin);
        leptos::task::spawn_local(async move {
            let got = net::index_page(&index_url_of(&sent, None, limit)).await;
            let mut since = Vec::new();
            self.reads.update_value(|r| since = r.end());
            // An answer for filters no longer set is dropped.
            if self.filters.get_untracked() != sent {
                return;
            }
            match got {
                Ok(page) => {
                    // Set only when it changes: the fleet's section is drawn anew when `served`
                    // is set, and with it the search box (a query being typed was lost, and
                    // its pending ask read a disposed signal: the page panicked).
                    set_if_changed(self.served, true);
                    set_if_changed(self.error, None);
                    let mut rows = page.rows;
                    let complete = page.next.is_none();
                    for row in since {
                        upsert(&mut rows, row, &sent, complete);
                    }
                    set_if_changed(self.next, page.next);
                    set_if_changed(self.rows, rows);
                    if !self.following.get_value() {
                        self.following.set_value(true);
                        self.follow();
                    }
                }
                Err(e) if self.served.get_untracked() => self.error.set(Some(e.to_string())),
                Err(_) => {}
            }
        });
    }

    /// Reads the rows shown again, as many as are shown.
    fn reread(self) {
        let shown = self.rows.with_untracked(Vec::len);
        let limit = u32::try_from(shown).unwrap_or(MOST).clamp(TABLE_PAGE, MOST);
        self.read(limit);
    }

    /// Follows the index's stream, and reads the rows again every [`REFRESH`].
    fn follow(self) {
        let on = move |msg: IndexMsg| match msg {
            IndexMsg::Session(row) => self.changed(*row),
            IndexMsg::Open | IndexMsg::Reset => self.reread(),
            IndexMsg::Error => {}
        };
        if let Err(e) = net::index_stream(on) {
            leptos::logging::warn!("the index's stream: {e}");
        }
        fn again(fleet: Fleet) {
            set_timeout(
                move || {
                    fleet.reread();
                    again(fleet);
                },
                REFRESH,
            );
        }
        again(self);
    }

    /// A session's entry changed: put into the rows (and kept for the reads under way).
    fn changed(self, row: IndexRow) {
        self.reads.update_value(|r| r.seen(&row));
        let f = self.filters.get_untracked();
        let complete = self.next.with_untracked(Option::is_none);
        let mut rows = self.rows.get_untracked();
        if upsert(&mut rows, row, &f, complete) {
            self.rows.set(rows);
        }
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
                    self.rows.update(|rows| *rows = joined(rows, &page.rows));
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
    // Memos: the page (and the fleet's section) is drawn anew only when these change, not each
    // time what they are made of is set — that drew the search box anew under a query being
    // typed, and its pending ask read a disposed signal (the page panicked).
    let shown = Memo::new(move |_| shown.get());
    let served = Memo::new(move |_| fleet.served.get());
    // Two logs compared in the browser (the page gives way to them), where the page can.
    let comparing = use_context::<Comparing>();

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
                    {comparing.map(|comparing| view! { <CompareLogs comparing /> })}
                    <p class="hint">
                        "Claude Code stream-json and transcripts (~/.claude/projects/…), Codex exec --json and rollouts (~/.codex/sessions/…, .jsonl.zst too), Gemini CLI stream-json and chat recordings (~/.gemini/tmp/…/chats/), OpenCode run --format json and exports, Qwen Code stream-json and session files (~/.qwen/projects/…/chats/), Copilot CLI JSON output and events.jsonl (~/.copilot/session-state/…) and hyperhive event logs all work."
                    </p>
                    {move || served.get().then(|| view! {
                        <section class="fleet">
                            <h2>
                                "Sessions on this server "
                                <a class="usage-link" href=usage_href()>"what they cost →"</a>
                            </h2>
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

/// The usage page's address, with the page's `?token=`.
fn usage_href() -> String {
    crate::live::wire::with_token(
        crate::model::usage::PATH,
        crate::browser::page_token().as_deref(),
    )
}
