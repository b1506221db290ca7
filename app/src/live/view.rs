//! A live session on the page: its state badges, its newest history page, older pages as
//! the reader scrolls up or a permalink asks for them, then its SSE stream from the head of
//! that first page. Every envelope goes through the row reducer; `preview` frames go to the
//! preview row through its [`PreviewGate`]; the summary header's summary is fetched at the
//! start and again as envelopes arrive, through its [`SummaryGate`].
//!
//! The same view reads a share link ([`Source::Share`], read-only): what the link is comes
//! first (`…/api/share`: its title, snapshot or live), then the same reads under the link; a
//! snapshot has no stream (its history is all of it), a live share follows its stream; a dead
//! link (`410`/`404`, at the start or when its stream drops) puts its message in [`Live::dead`]
//! (and shows no notes). Its notes are read once the first page is here, and again on each
//! `notes` frame of the stream ([`NotesHandle`]).

use std::cell::RefCell;
use std::rc::Rc;

use contract::State;
use leptos::prelude::*;

use crate::browser::{local_offset_min, now_ms};
use crate::live::activity::{RunningTool, running_tools};
use crate::live::net;
use crate::live::preview::{PreviewFrame, PreviewGate, replaces_preview};
use crate::live::wire::{
    Badge, FIRST_PAGE, OLDER_PAGE, SEEK_PAGE, StreamMsg, badges, turn_in_flight,
};
use crate::model::nav::MAX_SEEK_PAGES;
use crate::model::state::{apply, clear, prepend};
use crate::model::summary::{Refresh, SummaryGate, SummaryView};
use crate::notes::handle::NotesHandle;
use crate::share::link::{LinkText, Source, dead_link};
use crate::view::navigator::Navigator;
use classifier::{RowKind, TermEnvelope, row_kind};

/// Whether an envelope ends a turn (ok, failed or interrupted): the summary is fetched at once.
fn ends_turn(env: &TermEnvelope) -> bool {
    env.msgs.iter().any(|m| {
        matches!(
            row_kind(m),
            RowKind::TurnOk | RowKind::TurnFail | RowKind::Interrupted
        )
    })
}

/// The signals the live view writes.
#[derive(Clone)]
pub struct Live {
    /// Where the reads go: a session, or a share link.
    pub source: Source,
    /// The rows and the scroller.
    pub navi: Navigator,
    /// Banner title.
    pub title: RwSignal<String>,
    /// Banner badges.
    pub badges: RwSignal<Vec<Badge>>,
    /// The server's turn-in-flight.
    pub server_in_flight: RwSignal<bool>,
    /// The tool calls running, by the server's state.
    pub running: RwSignal<Vec<RunningTool>>,
    /// Connection status text.
    pub conn: RwSignal<String>,
    /// The preview row (throttled).
    pub preview: RwSignal<Option<PreviewFrame>>,
    /// `before` of the next older history page; `None` at the start of the session.
    pub next_before: RwSignal<Option<u64>>,
    /// An older page is being fetched.
    pub loading: RwSignal<bool>,
    /// The session's summary (the header), fetched again as envelopes arrive.
    pub summary: RwSignal<Option<SummaryView>>,
    /// A share link that is dead (expired, revoked, unknown): what the page says instead.
    pub dead: RwSignal<Option<&'static str>>,
    /// The notes of what it reads: read at the start and again on each `notes` frame.
    pub notes: NotesHandle,
    /// A share link's line (snapshot or live, made, expiry), shown as the connection.
    share_line: StoredValue<String>,
    summary_gate: StoredValue<SummaryGate>,
}

impl Live {
    /// New signals for the session or share link `source`.
    pub fn new(
        source: Source,
        navi: Navigator,
        title: RwSignal<String>,
        notes: NotesHandle,
    ) -> Live {
        Live {
            notes,
            source,
            navi,
            title,
            badges: RwSignal::new(Vec::new()),
            server_in_flight: RwSignal::new(false),
            running: RwSignal::new(Vec::new()),
            conn: RwSignal::new(String::new()),
            preview: RwSignal::new(None),
            next_before: RwSignal::new(None),
            loading: RwSignal::new(false),
            summary: RwSignal::new(None),
            dead: RwSignal::new(None),
            share_line: StoredValue::new(String::new()),
            summary_gate: StoredValue::new(SummaryGate::default()),
        }
    }

    fn show_state(&self, v: &State) {
        // A share's title is the link's (`…/api/share`), not its stream's state frames'.
        let t = &v.session.title;
        if !t.is_empty() && !self.source.is_share() {
            self.title.set(t.clone());
        }
        self.badges.set(badges(v));
        self.server_in_flight.set(turn_in_flight(v));
        let running = running_tools(v);
        if self.running.with_untracked(|r| *r != running) {
            self.running.set(running);
        }
    }

    /// The one way history is paged back: fetches up to `limit` envelopes before the oldest
    /// held, puts them before the rows (the current row and the view stay where they were),
    /// and answers whether a page came.
    async fn page_back(&self, limit: u32) -> bool {
        let Some(before) = self.next_before.get_untracked() else {
            return false;
        };
        let Ok(page) = net::history(&self.source, Some(before), limit).await else {
            return false;
        };
        let state = self.navi.state;
        let size = move || state.with_untracked(|s| (s.layout().total(), s.visible_len()));
        self.navi.keep_in_place(|| {
            let (h0, n0) = size();
            state.update(|s| prepend(s, &page.envelopes));
            let (h1, n1) = size();
            self.navi.nav.update(|n| n.prepended(n1.saturating_sub(n0)));
            h1 - h0
        });
        self.next_before.set(page.next_before);
        true
    }

    /// The reader scrolled near the top: the next older page, unless one is on its way.
    pub fn load_older(&self) {
        if self.loading.get_untracked() || self.next_before.with_untracked(Option::is_none) {
            return;
        }
        self.loading.set(true);
        let me = self.clone();
        leptos::task::spawn_local(async move {
            me.page_back(OLDER_PAGE).await;
            me.loading.set(false);
        });
    }

    /// Loads the state and the newest history page, pages back until a permalink's row is
    /// held, then follows the stream from the first page's head (a share link: what it is
    /// first, and no stream for a snapshot).
    pub fn connect(self) {
        self.title.set(self.source.first_title());
        self.conn.set("loading…".into());
        leptos::task::spawn_local(async move {
            let mut follows = true;
            let mut comments = false;
            if self.source.is_share() {
                match net::share(&self.source).await {
                    Ok(info) => {
                        comments = info.comments;
                        if let Some(t) = info.title() {
                            self.title.set(t.to_owned());
                        }
                        follows = info.live;
                        self.share_line.set_value(info.line(local_offset_min));
                        self.conn.set(self.share_line.get_value());
                    }
                    Err(e) => return self.failed(&e),
                }
            }
            self.summary_due(true);
            if let Ok(v) = net::state(&self.source).await {
                self.show_state(&v);
            }
            let first = match net::history(&self.source, None, FIRST_PAGE).await {
                Ok(p) => p,
                Err(e) => return self.failed(&e),
            };
            let head = first.head.unwrap_or(0);
            self.navi.state.update(|s| prepend(s, &first.envelopes));
            self.next_before.set(first.next_before);
            self.notes.live(self.source.clone(), comments);
            // A permalink to an older row: page back until it is held.
            self.seek().await;
            if follows {
                self.follow(head);
            } else {
                self.conn.set(self.share_line.get_value());
            }
        });
    }

    /// A read failed: a dead share link says so; anything else is shown as the connection.
    fn failed(&self, e: &net::Failure) {
        match dead_link(e.status).filter(|_| self.source.is_share()) {
            Some(why) => {
                // A dead link shows nothing any more: not the rows it showed, not their title.
                self.title.set("hiveterm".to_owned());
                self.conn.set(String::new());
                self.badges.set(Vec::new());
                self.server_in_flight.set(false);
                self.preview.set(None);
                self.summary.set(None);
                self.navi.state.update(clear);
                self.notes.reload();
                self.dead.set(Some(why));
            }
            None => self.conn.set(format!("cannot load: {e}")),
        }
    }

    /// A share link's stream dropped: asks whether the link is still alive (a revoked or
    /// expired link's stream ends, and the browser does not reconnect to a `410`).
    fn recheck_share(&self) {
        let me = self.clone();
        leptos::task::spawn_local(async move {
            if let Err(e) = net::share(&me.source).await
                && dead_link(e.status).is_some()
            {
                me.failed(&e);
            }
        });
    }

    fn connected(&self) -> String {
        let line = self.share_line.get_value();
        if line.is_empty() {
            "● connected".to_owned()
        } else {
            format!("● connected · {line}")
        }
    }

    /// Pages back until a pending permalink's row is held (or the session's start).
    async fn seek(&self) {
        self.loading.set(true);
        for _ in 0..MAX_SEEK_PAGES {
            let seek = self.navi.state.with_untracked(|s| {
                self.navi
                    .nav
                    .with_untracked(|n| n.seek_before(s, self.next_before.get_untracked()))
            });
            if seek.is_none() || !self.page_back(SEEK_PAGE).await {
                break;
            }
        }
        self.loading.set(false);
    }

    /// Goes to envelope `seq` (the summary's "first error"), paging back to it if it is
    /// older than the rows held.
    pub fn goto(&self, seq: u64) {
        self.navi.goto(seq);
        if self.loading.get_untracked() {
            return;
        }
        let me = self.clone();
        leptos::task::spawn_local(async move { me.seek().await });
    }

    /// Goes to a range (a note's), paging back to its first row if it is older than the
    /// rows held.
    pub fn goto_range(&self, range: crate::model::nav::SeqRange) {
        self.navi.goto_range(range);
        if self.loading.get_untracked() {
            return;
        }
        let me = self.clone();
        leptos::task::spawn_local(async move { me.seek().await });
    }

    /// Fetches the summary again when the gate says so (now, or after its timer).
    fn refresh_summary(&self, r: Refresh) {
        match r {
            Refresh::Hold => {}
            Refresh::Wait(ms) => {
                let me = self.clone();
                set_timeout(
                    move || {
                        let r = me.gate(SummaryGate::fire);
                        me.refresh_summary(r);
                    },
                    std::time::Duration::from_millis(ms.max(0.0) as u64),
                );
            }
            Refresh::Now => {
                let me = self.clone();
                leptos::task::spawn_local(async move {
                    if let Ok(s) = net::summary(&me.source).await {
                        let v = SummaryView::of(&s);
                        if me.summary.with_untracked(|old| old.as_ref() != Some(&v)) {
                            me.summary.set(Some(v));
                        }
                    }
                    let r = me.gate(|g| g.fetched(now_ms()));
                    me.refresh_summary(r);
                });
            }
        }
    }

    fn gate(&self, f: impl FnOnce(&mut SummaryGate) -> Refresh) -> Refresh {
        self.summary_gate
            .try_update_value(f)
            .unwrap_or(Refresh::Hold)
    }

    /// An envelope (or the page's start): the summary is due again.
    fn summary_due(&self, turn_end: bool) {
        let r = self.gate(|g| g.envelope(now_ms(), turn_end));
        self.refresh_summary(r);
    }

    fn follow(self, head: u64) {
        let gate = Rc::new(RefCell::new(PreviewGate::default()));
        let (state, conn, preview) = (self.navi.state, self.conn, self.preview);
        let source = self.source.clone();
        let me = self.clone();
        let opened = net::stream(&source, head, move |m| match m {
            StreamMsg::Envelope(env) => {
                me.summary_due(ends_turn(&env));
                if replaces_preview(&env)
                    && let Some(seq) = env.seq
                    && gate.borrow_mut().row(seq)
                {
                    preview.set(None);
                }
                state.update(|s| apply(s, &env));
            }
            StreamMsg::Preview(f) => {
                let action = gate.borrow_mut().frame(f, crate::browser::now_ms());
                crate::live::preview::show(gate.clone(), preview, action);
            }
            StreamMsg::State(v) => self.show_state(&v),
            StreamMsg::Notes(change) => self.notes.apply(change),
            StreamMsg::Open => {
                // The server sends the current preview after the backlog.
                let action = gate.borrow_mut().clear();
                crate::live::preview::show(gate.clone(), preview, action);
                conn.set(self.connected());
                // Notes made while the stream was away (or before it opened).
                self.notes.reload();
            }
            StreamMsg::Error => {
                conn.set("reconnecting…".into());
                if self.source.is_share() {
                    self.recheck_share();
                }
            }
        });
        if let Err(e) = opened {
            conn.set(format!("cannot stream: {e}"));
        }
    }
}
