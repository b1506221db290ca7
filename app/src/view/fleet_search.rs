//! One search box across every session on the start page: 3+ characters, 250 ms after the
//! last key, ask `GET /api/search`; the hits grouped by session (its title as the header),
//! each a link to `s/{id}#seq=N`, "more…" while there are more. A refused query shows the
//! server's message. Hits are text: summary and snippet are text nodes.

use leptos::prelude::*;

use crate::browser::page_token;
use crate::live::net;
use crate::live::wire::with_token;
use crate::model::fleet::{Hit, SEARCH_MIN, encode, group_hits, hits_text, refusal, search_url};

/// How long typing must pause before the query is sent.
const SETTLE: std::time::Duration = std::time::Duration::from_millis(250);

/// The search's state: the query answered, its hits, the next page, a refusal.
#[derive(Clone, Copy)]
struct Search {
    typed: RwSignal<String>,
    asked: RwSignal<String>,
    hits: RwSignal<Vec<Hit>>,
    next: RwSignal<Option<String>>,
    message: RwSignal<Option<String>>,
    /// The hits' sessions' titles, by id, as asked for.
    titles: RwSignal<Vec<(String, String)>>,
}

impl Search {
    /// Asks for `q`'s hits after `cursor` (the first page when `None`).
    fn ask(self, q: String, cursor: Option<String>) {
        leptos::task::spawn_local(async move {
            let got = net::search(&search_url(&q, cursor.as_deref())).await;
            if self.typed.get_untracked().trim() != q {
                return;
            }
            match got {
                Ok(page) => {
                    self.message.set(None);
                    self.asked.set(q);
                    if cursor.is_some() {
                        self.hits.update(|h| h.extend(page.hits));
                    } else {
                        self.hits.set(page.hits);
                    }
                    self.next.set(page.next);
                    self.name_sessions();
                }
                Err(e) => {
                    self.hits.set(Vec::new());
                    self.next.set(None);
                    self.message.set(Some(match e.status {
                        0 => e.text,
                        _ => refusal(&e.text),
                    }));
                }
            }
        });
    }

    /// Asks for the titles of the hits' sessions not named yet.
    fn name_sessions(self) {
        let unknown: Vec<String> = self.hits.with_untracked(|hs| {
            let mut ids: Vec<String> = hs.iter().map(|h| h.session.clone()).collect();
            ids.dedup();
            ids.retain(|id| {
                self.titles
                    .with_untracked(|t| !t.iter().any(|(k, _)| k == id))
            });
            ids.sort();
            ids.dedup();
            ids
        });
        for id in unknown {
            // The id until the title is back (and if it never is).
            self.titles.update(|t| t.push((id.clone(), id.clone())));
            leptos::task::spawn_local(async move {
                let got = net::session(&encode(&id)).await;
                let title = got.ok().map(|v| v.title).filter(|t| !t.is_empty());
                if let Some(title) = title {
                    self.titles.update(|t| {
                        if let Some(e) = t.iter_mut().find(|(k, _)| *k == id) {
                            e.1 = title;
                        }
                    });
                }
            });
        }
    }

    /// Takes what was typed once it settles.
    fn typed(self, value: String) {
        self.typed.set(value.clone());
        set_timeout(
            move || {
                if self.typed.get_untracked() != value {
                    return;
                }
                let q = value.trim().to_owned();
                if q.chars().count() < SEARCH_MIN {
                    self.asked.set(String::new());
                    self.hits.set(Vec::new());
                    self.next.set(None);
                    self.message.set(None);
                } else {
                    self.ask(q, None);
                }
            },
            SETTLE,
        );
    }
}

/// The search box and its hits.
#[component]
pub fn FleetSearch() -> impl IntoView {
    let s = Search {
        typed: RwSignal::new(String::new()),
        asked: RwSignal::new(String::new()),
        hits: RwSignal::new(Vec::new()),
        next: RwSignal::new(None),
        message: RwSignal::new(None),
        titles: RwSignal::new(Vec::new()),
    };
    let token = page_token();
    view! {
        <div class="fleet-search">
            <input
                class="fleet-query"
                type="search"
                placeholder="search every session (3+ characters)…"
                prop:value=move || s.typed.get()
                on:input=move |e| s.typed(event_target_value(&e))
            />
            {move || s.message.get().map(|m| view! { <p class="fleet-error">{m}</p> })}
            {move || (!s.asked.with(String::is_empty)).then(|| {
                let n = s.hits.with(Vec::len);
                let more = s.next.with(Option::is_some);
                view! {
                    <p class="fleet-count">
                        {hits_text(n)} {if more { " (more below)" } else { "" }}
                    </p>
                }
            })}
            <div class="fleet-hits">
                {move || {
                    let token = token.clone();
                    s.hits.with(|h| group_hits(h)).into_iter().map(move |(id, hits)| {
                        let page = with_token(&format!("s/{id}"), token.as_deref());
                        let title = move || {
                            s.titles.with(|t| t.iter().find(|(k, _)| *k == id).map(|(_, v)| v.clone()))
                                .unwrap_or_default()
                        };
                        view! {
                            <div class="hit-group">
                                <a class="hit-session" href=page.clone()>{title}</a>
                                <ul>
                                    {hits.into_iter().map(|h| hit_item(h, &page)).collect_view()}
                                </ul>
                            </div>
                        }
                    }).collect_view()
                }}
            </div>
            {move || s.next.with(Option::is_some).then(|| view! {
                <button
                    class="more"
                    on:click=move |_| {
                        s.ask(s.asked.get_untracked(), s.next.get_untracked());
                    }
                >
                    "more…"
                </button>
            })}
        </div>
    }
}

/// One hit: a link to its row, its icon, summary and snippet as text.
fn hit_item(h: Hit, page: &str) -> impl IntoView + use<> {
    let href = format!("{page}#seq={}", h.seq);
    let level = format!("hit level-{}", h.level);
    let snippet = (h.snippet != h.summary).then_some(h.snippet);
    view! {
        <li>
            <a class=level href=href data-seq=h.seq.to_string()>
                <span class="hit-icon">{h.icon.unwrap_or_default()}</span>
                <span class="hit-summary">{h.summary}</span>
                {snippet.map(|s| view! { <span class="hit-snippet">{s}</span> })}
            </a>
        </li>
    }
}
