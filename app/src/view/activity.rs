//! A live session's activity, counted up each second (issue 21, points 4 and 5): the tool
//! calls running, after the rows (`⏳ Bash 3s · Grep 1s`), and a compaction in progress, drawn
//! on its own row (`⚙ compact · 12s…`, [`Row`](crate::view::row::Row) asks [`Activity`]).
//!
//! The clock ticks only while there is something to count on a live session that has not
//! ended: an idle tab left open for hours sets no timer. What counts is read in
//! [`crate::live::activity`].

use leptos::prelude::*;

use crate::browser::unix_now;
use crate::live::activity::{RunningTool, compact_text, compacting, tools_text};
use crate::model::state::ViewState;

/// The live activity the rows and the indicator read (a context of a live page).
#[derive(Clone, Copy)]
pub struct Activity {
    /// The tool calls running (the server's state).
    pub running: RwSignal<Vec<RunningTool>>,
    /// The compaction in progress: the compacting row's `uid` and time.
    pub compacting: Memo<Option<(u64, f64)>>,
    /// Unix seconds, set each second while something counts.
    pub now: RwSignal<f64>,
    /// Whether anything counts: the session is live (not ended) and a call runs or it
    /// compacts.
    pub counting: Memo<bool>,
}

impl Activity {
    /// The activity of a live page's `state`, with its `running` calls; `ended`: the session
    /// has ended (nothing runs any more). Starts the clock.
    pub fn new(
        state: RwSignal<ViewState>,
        running: RwSignal<Vec<RunningTool>>,
        ended: Signal<bool>,
    ) -> Activity {
        let compacting = Memo::new(move |_| state.with(compacting));
        let counting = Memo::new(move |_| {
            !ended.get() && (running.with(|r| !r.is_empty()) || compacting.get().is_some())
        });
        let now = RwSignal::new(unix_now());
        let activity = Activity {
            running,
            compacting,
            now,
            counting,
        };
        activity.tick();
        activity
    }

    /// A one-second interval while [`Activity::counting`], cleared as soon as it is not.
    fn tick(self) {
        let handle = StoredValue::new(None::<IntervalHandle>);
        Effect::new(move |_| {
            let on = self.counting.get();
            if let Some(h) = handle.get_value() {
                h.clear();
                handle.set_value(None);
            }
            if on {
                self.now.set(unix_now());
                let now = self.now;
                let h = set_interval_with_handle(
                    move || now.set(unix_now()),
                    std::time::Duration::from_secs(1),
                );
                handle.set_value(h.ok());
            }
        });
        on_cleanup(move || {
            if let Some(h) = handle.get_value() {
                h.clear();
            }
        });
    }

    /// The counting summary of row `uid`, while it is the compaction in progress.
    pub fn compact_summary(&self, uid: u64) -> Option<String> {
        match self.compacting.get() {
            Some((at, since)) if at == uid && self.counting.get() => {
                Some(compact_text(since, self.now.get()))
            }
            _ => None,
        }
    }
}

/// The tool calls running, after the rows (and after the preview row): nothing when none
/// runs or the page is not a live one.
#[component]
pub fn RunningTools() -> impl IntoView {
    let activity = use_context::<Activity>();
    move || {
        let a = activity?;
        if !a.counting.get() {
            return None;
        }
        let parts = a.running.with(|r| tools_text(r, a.now.get()));
        (!parts.is_empty()).then(|| {
            let tools: Vec<_> = parts
                .into_iter()
                .map(|p| view! { <span class="running-tool">{p}</span> })
                .collect();
            view! {
                <div class="row level-debug running-tools" title="tool calls not yet answered">
                    <span class="row-glyph">"⏳"</span>
                    <span class="summary-text">{tools}</span>
                </div>
            }
        })
    }
}
