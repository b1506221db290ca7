//! The banner: the log's or session's title, "close" for an offline log, the connection (or
//! what a share link is), the server's badges, the reading progress, "compare with…" (the
//! index with this session picked) and "share…" on a live session's page, "save as one
//! file…" on a live session's and an offline log's; it shimmers while a turn is in flight.

use leptos::prelude::*;

use crate::browser::page_token;
use crate::live::wire::{Badge, with_token};
use crate::model::compare::pick_url;
use crate::offline::progress::Progress;
use crate::share::button::ShareButton;
use crate::share::save_button::{SaveButton, SaveOf};

/// The banner.
#[component]
pub fn Banner(
    /// The title.
    title: RwSignal<String>,
    /// Whether an offline log is open (offers "close").
    has_log: Memo<bool>,
    /// Closes the offline log.
    on_close: Callback<()>,
    /// The connection's state (live).
    conn: RwSignal<String>,
    /// The server's badges (live).
    badges: RwSignal<Vec<Badge>>,
    /// Reading an offline log.
    progress: RwSignal<Option<Progress>>,
    /// Whether a turn is in flight.
    #[prop(into)]
    in_flight: Signal<bool>,
    /// The live session the share button shares (none: no button).
    share: Option<String>,
    /// Whether "save as one file…" shows, and for a live session what it reads.
    #[prop(into)]
    save_shown: Signal<bool>,
    /// What a save reads: the live session, or the offline log in hand.
    save_of: SaveOf,
) -> impl IntoView {
    view! {
        <header class="banner" class=("in-flight", move || in_flight.get())>
            <span class="title">{move || title.get()}</span>
            <button
                class="close-log"
                title="close this log (it is kept only for a reload of this tab)"
                hidden=move || !has_log.get()
                on:click=move |_| on_close.run(())
            >"close ✕"</button>
            <span class="conn">{move || conn.get()}</span>
            <span class="badges">
                {move || badges.get().into_iter().map(|(k, v)| {
                    let text = match k.as_str() {
                        "status" | "model" | "ended" => v,
                        "turn_state" => format!("turn {v}"),
                        _ => format!("{k} {v}"),
                    };
                    view! { <span class=format!("badge badge-{k}") title=k.clone()>{text}</span> }
                }).collect::<Vec<_>>()}
            </span>
            {move || progress.get().map(|p| view! { <ProgressBar p /> })}
            <SaveButton of=save_of title shown=save_shown />
            {share.clone().map(|session| {
                let href = with_token(&pick_url(&session), page_token().as_deref());
                view! {
                    <a class="compare-with" href=href title="pick a session to compare this one with">
                        "compare with…"
                    </a>
                }
            })}
            {share.map(|session| view! { <ShareButton session /> })}
        </header>
    }
}

/// How far reading an offline log got (its figures in `data-*` for the tests).
#[component]
fn ProgressBar(p: Progress) -> impl IntoView {
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
    let ms = |v: Option<f64>| v.map(|v| format!("{v:.0}")).unwrap_or_default();
    let phases: Vec<String> = p.phases.iter().map(|ms| format!("{ms:.1}")).collect();
    let phases = phases.join(" ");
    view! {
        <div
            class="progress"
            data-done=if p.done { "1" } else { "0" }
            data-first-ms=ms(p.first_ms)
            data-done-ms=ms(p.done_ms)
            data-lines=p.lines.to_string()
            data-phases=phases
        >
            <div class="bar" style:width=format!("{pct:.1}%")></div>
            <span class="progress-text">{label}</span>
        </div>
    }
}
