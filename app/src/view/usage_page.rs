//! The usage page (`/usage`, issue 50): what the sessions on this server cost, grouped by day,
//! agent, model or project (`GET /api/usage`): the cost the logs state and the price table's
//! estimate in columns apart, the sessions of unknown cost with their models of no price, and
//! the tokens ([`UsageTable`]). The grouping is in the address (`?by=`); `d` `a` `m` `p` group
//! by, `j`/`k` move through the rows ([`UsageNav`]). Everything from a log is a text node.

use leptos::ev;
use leptos::prelude::*;

use crate::browser::{page_token, replace_url, scroll_to_id};
use crate::live::net;
use crate::live::wire::with_token;
use crate::model::usage::{By, Key, Usage, UsageNav, by_key, by_of_search, page_url};
use crate::view::usage_table::{UsageTable, row_id};

/// What the page holds: the answer, or why there is none.
#[derive(Clone, PartialEq)]
enum Got {
    Waiting,
    Failed(String),
    Ready(Usage),
}

/// The usage page.
#[component]
pub fn UsagePage() -> impl IntoView {
    let token = page_token();
    let nav = RwSignal::new(UsageNav {
        by: by_of_search(&crate::browser::search()),
        current: None,
    });
    let got = RwSignal::new(Got::Waiting);
    let by = Memo::new(move |_| nav.with(|n| n.by));
    {
        let token = token.clone();
        Effect::new(move |_| {
            let asked = by.get();
            replace_url(&page_url(asked, token.as_deref()));
            leptos::task::spawn_local(async move {
                let answer = net::usage(asked).await;
                // An answer for another grouping than the one now shown is dropped.
                if by.get_untracked() == asked {
                    got.set(match answer {
                        Ok(u) => Got::Ready(u),
                        Err(e) => Got::Failed(e.to_string()),
                    });
                }
            });
        });
    }
    let rows = move || match &*got.read_untracked() {
        Got::Ready(u) => u.groups.len(),
        _ => 0,
    };
    let keys = window_event_listener(ev::keydown, move |e: web_sys::KeyboardEvent| {
        if e.ctrl_key() || e.meta_key() || e.alt_key() || crate::browser::typing_in(e.target()) {
            return;
        }
        let Some(key) = Key::of(&e.key()) else {
            return;
        };
        e.prevent_default();
        let mut n = nav.get_untracked();
        n.press(key, rows());
        if let Some(i) = n.current {
            scroll_to_id(&row_id(i));
        }
        nav.set(n);
    });
    on_cleanup(move || keys.remove());
    if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
        doc.set_title("hiveterm · usage");
    }
    let current = Signal::derive(move || nav.with(|n| n.current));
    let tabs = By::ALL
        .into_iter()
        .map(|b| {
            let href = page_url(b, token.as_deref());
            let shown = move || by.get() == b;
            view! {
                <a
                    class="usage-by"
                    class:chosen=shown
                    aria-current=move || shown().then_some("page")
                    href=href
                    title=format!("group by {} ({})", b.name(), by_key(b))
                    on:click=move |e| {
                        e.prevent_default();
                        nav.update(|n| {
                            n.press(Key::Group(b), 0);
                        });
                    }
                >
                    {b.name()}
                </a>
            }
        })
        .collect_view();
    view! {
        <main class="usage">
            <header class="usage-head">
                <a class="usage-home" href=with_token("/", token.as_deref())>"hiveterm"</a>
                " · usage: what the sessions cost"
            </header>
            <nav class="usage-tabs" aria-label="group by">"by " {tabs}</nav>
            {move || match got.get() {
                Got::Waiting => view! { <p class="usage-wait">"adding up…"</p> }.into_any(),
                Got::Failed(e) => view! { <p class="usage-error">{e}</p> }.into_any(),
                Got::Ready(u) => view! { <UsageTable usage=u current /> }.into_any(),
            }}
            <p class="usage-note">
                "stated: the cost the logs state · estimated (≈): tokens × the price table of "
                {classifier::prices::DATE} " (" {classifier::prices::SOURCE}
                "), for the sessions whose logs state none · unknown: sessions whose log states no cost and whose model has no price, named · keys: d a m p group by, j k move"
            </p>
        </main>
    }
}
