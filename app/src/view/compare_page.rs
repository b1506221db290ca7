//! The compare page (`/compare/{a}/{b}`, issue 48): two stored sessions side by side — the
//! summary table first (each figure with its difference), then the two runs' steps aligned in
//! two columns, one scroll, a gap where only one run took a step, divergences marked; the
//! first divergence selected on open, `n`/`N` the next and previous
//! ([`crate::model::compare::CompareNav`]). Each step links to its row in its session's page.
//! Everything from a log is a text node. The same view shows a comparison's one file
//! ([`EmbeddedComparePage`], `hiveterm diff -o`), its steps not linked.

use leptos::ev;
use leptos::prelude::*;

use crate::browser::{page_token, scroll_to_id};
use crate::live::net;
use crate::live::wire::with_token;
use crate::model::compare::{
    CompareNav, Comparison, Move, Step, StepPair, SummaryLines, step_link,
};

/// What the page holds: the answer, or why there is none.
#[derive(Clone, PartialEq)]
enum Got {
    Waiting,
    Failed(String),
    Ready(Box<Comparison>),
}

/// Where a step's seq links to: its row in its session's page (with the page's token), or
/// nowhere (a comparison's one file, two logs compared offline).
#[derive(Clone)]
pub enum Links {
    /// `/s/{id}#{seq}`.
    Sessions(Option<String>),
    /// No link: the seq is text.
    None,
}

impl Links {
    fn href(&self, id: &str, seq: u64) -> Option<String> {
        match self {
            Links::Sessions(token) => Some(with_token(&step_link(id, seq), token.as_deref())),
            Links::None => None,
        }
    }
}

/// The compare page of sessions `a` and `b`.
#[component]
pub fn ComparePage(
    /// A's id.
    a: String,
    /// B's id.
    b: String,
) -> impl IntoView {
    let title = format!("{a} ↔ {b}");
    let token = page_token();
    let home = Some(with_token("/", token.as_deref()));
    let load = async move { net::compare(&a, &b).await.map_err(|e| e.to_string()) };
    compare_view(title, home, Links::Sessions(token), load)
}

/// The compare page of a comparison's one file (`hiveterm diff A B -o FILE.html`): the
/// answer embedded in the file, read with no request.
#[component]
pub fn EmbeddedComparePage(
    /// The file's title.
    title: String,
) -> impl IntoView {
    let load = async move {
        let bytes = crate::offline::embedded::read_all().await?;
        serde_json::from_slice::<Comparison>(&bytes)
            .map_err(|e| format!("cannot read the comparison: {e}"))
    };
    compare_view(title, None, Links::None, load)
}

/// A comparison's page, `load`ed: the header (`home`: the index's link, if there is one), then
/// the answer's summary, bar and aligned steps, the first divergence selected, `n`/`N`.
pub fn compare_view(
    title: String,
    home: Option<String>,
    links: Links,
    load: impl std::future::Future<Output = Result<Comparison, String>> + 'static,
) -> impl IntoView {
    let got = RwSignal::new(Got::Waiting);
    let nav = RwSignal::new(CompareNav::default());
    let title = RwSignal::new(title);
    let show = move |n: &CompareNav| {
        if let Some(p) = n.selected() {
            scroll_to_id(&format!("pair-{p}"));
        }
    };
    leptos::task::spawn_local(async move {
        match load.await {
            Ok(c) => {
                let n = CompareNav::open(&c);
                nav.set(n.clone());
                got.set(Got::Ready(Box::new(c)));
                // After the rows are drawn.
                request_animation_frame(move || show(&n));
            }
            Err(e) => got.set(Got::Failed(e)),
        }
    });
    let moved = move |to: Move| {
        let mut n = nav.get_untracked();
        if n.step(to) {
            show(&n);
            nav.set(n);
        }
    };
    let keys = window_event_listener(ev::keydown, move |e: web_sys::KeyboardEvent| {
        if e.ctrl_key() || e.meta_key() || e.alt_key() || crate::browser::typing_in(e.target()) {
            return;
        }
        if let Some(to) = CompareNav::key(&e.key()) {
            e.prevent_default();
            moved(to);
        }
    });
    on_cleanup(move || keys.remove());
    Effect::new(move || {
        let t = title.get();
        if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            doc.set_title(&format!("hiveterm · {t}"));
        }
    });
    let home = match home {
        Some(href) => view! { <a class="cmp-home" href=href>"hiveterm"</a> }.into_any(),
        None => view! { <span class="cmp-home">"hiveterm"</span> }.into_any(),
    };
    view! {
        <main class="compare">
            <header class="cmp-head">
                {home}
                " · compare "
                <span class="cmp-title">{title}</span>
            </header>
            {move || match got.get() {
                Got::Waiting => view! { <p class="cmp-wait">"aligning…"</p> }.into_any(),
                Got::Failed(e) => view! { <p class="cmp-error">{e}</p> }.into_any(),
                Got::Ready(c) => body(*c, nav, moved, links.clone()).into_any(),
            }}
        </main>
    }
}

/// The summary table, the divergences' bar and the aligned steps.
fn body(
    c: Comparison,
    nav: RwSignal<CompareNav>,
    moved: impl Fn(Move) + Copy + Send + Sync + 'static,
    links: Links,
) -> impl IntoView {
    let lines = c.summary_lines();
    let bar = move || match nav.with(CompareNav::position) {
        Some((k, n)) => format!("divergence {k} of {n}"),
        None => "no divergence: the same steps with the same outcomes".to_owned(),
    };
    let more = c.truncated.then(|| {
        format!(
            "the first {} of {} aligned pairs are shown",
            c.pairs.len(),
            c.pairs_total
        )
    });
    let link = move |id: &str, seq: u64| links.href(id, seq);
    let rows = c
        .pairs
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let head = c.turn_at(i).map(|t| {
                let prompt = |s: &Option<crate::model::compare::TurnSide>| {
                    s.as_ref()
                        .map_or_else(|| "(no such turn)".to_owned(), |s| s.prompt.clone())
                };
                view! {
                    <div class="cmp-turn">
                        <span class="cmp-side">{format!("turn {} · {}", t.turn, prompt(&t.a))}</span>
                        <span class="cmp-why"></span>
                        <span class="cmp-side">{prompt(&t.b)}</span>
                    </div>
                }
            });
            (head, pair_row(i, p, (&c.a, &c.b), nav, &link))
        })
        .collect_view();
    view! {
        <table class="cmp-summary">
            <thead>
                <tr><th></th><th>{format!("A · {}", c.a)}</th><th>{format!("B · {}", c.b)}</th><th>"difference"</th></tr>
            </thead>
            <tbody>
                {lines.into_iter().map(|[label, a, b, d]| view! {
                    <tr><th>{label}</th><td>{a}</td><td>{b}</td><td class="cmp-diff">{d}</td></tr>
                }).collect_view()}
            </tbody>
        </table>
        <div class="cmp-bar">
            <button class="cmp-prev" title="previous divergence (N)" on:click=move |_| moved(Move::Prev)>"↑ N"</button>
            <button class="cmp-next" title="next divergence (n)" on:click=move |_| moved(Move::Next)>"n ↓"</button>
            <span class="cmp-pos">{bar}</span>
            {more.map(|m| view! { <span class="cmp-more">{m}</span> })}
        </div>
        <div class="cmp-steps">{rows}</div>
    }
}

/// One aligned pair: A's step, why it differs, B's step.
fn pair_row(
    index: usize,
    pair: &StepPair,
    (id_a, id_b): (&str, &str),
    nav: RwSignal<CompareNav>,
    link: &dyn Fn(&str, u64) -> Option<String>,
) -> impl IntoView + use<> {
    let why = pair.why.clone();
    let class = move || {
        let mut c = String::from("cmp-pair");
        if let Some(w) = &why {
            c.push_str(" diverges ");
            c.push_str(w);
        }
        if nav.with(|n| n.selected() == Some(index)) {
            c.push_str(" selected");
        }
        c
    };
    let why_text = pair
        .why
        .clone()
        .map(|w| w.replace('_', " "))
        .unwrap_or_default();
    view! {
        <div class=class id=format!("pair-{index}") on:click=move |_| nav.update(|n| n.select(index))>
            {side(pair.a.as_ref(), id_a, link)}
            <span class="cmp-why">{why_text}</span>
            {side(pair.b.as_ref(), id_b, link)}
        </div>
    }
}

/// One side's step (a link to its row), or a gap.
fn side(
    step: Option<&Step>,
    id: &str,
    link: &dyn Fn(&str, u64) -> Option<String>,
) -> impl IntoView + use<> {
    match step {
        None => view! { <span class="cmp-side gap"></span> }.into_any(),
        Some(s) => {
            let class = format!("cmp-side {} {}", s.kind, s.outcome);
            let seq = format!("#{}", s.seq);
            let seq = match link(id, s.seq) {
                Some(href) => {
                    view! { <a class="cmp-seq" href=href title="its row in the session">{seq}</a> }
                        .into_any()
                }
                None => view! { <span class="cmp-seq">{seq}</span> }.into_any(),
            };
            view! {
                <span class=class>
                    {seq}
                    <span class="cmp-mark">{s.mark()}</span>
                    <span class="cmp-text">{s.text()}</span>
                </span>
            }
            .into_any()
        }
    }
}
