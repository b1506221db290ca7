//! The fleet's table on the start page: one row per session of the index (agent, project,
//! title, started, duration, status, turns, errors, tokens, cost), "more…" while the index
//! has a next page; a tick box on each row picks two sessions for "compare" (issue 48:
//! `/compare/A/B`, [`Picks`]). Every string from a log is a text node.

use leptos::prelude::*;

use crate::browser::{local_offset_min, page_token};
use crate::live::wire::with_token;
use crate::model::compare::Picks;
use crate::model::fleet::{
    IndexRow, cost_text, duration_text, short_project, status_class, tokens_text,
};
use crate::model::summary::{agent_label, grouped};
use crate::model::text::date_time;

/// The sessions' table.
#[component]
pub fn SessionTable(
    /// The rows shown, in the index's order.
    rows: Signal<Vec<IndexRow>>,
    /// The next page's cursor, if any.
    next: Signal<Option<String>>,
    /// Why the index could not be read, while it cannot.
    error: Signal<Option<String>>,
    /// Asks for the next page.
    on_more: Callback<()>,
) -> impl IntoView {
    // A page opened with ?token= passes it on to the sessions it links to.
    let token = page_token();
    // A session page's "compare with…" comes here with that session picked.
    let picks = RwSignal::new(Picks::of_query(&crate::browser::search()));
    let compare_token = token.clone();
    let compare = move || {
        let n = picks.with(Picks::len);
        match picks.with(Picks::url) {
            Some(url) => {
                let href = with_token(&url, compare_token.as_deref());
                view! { <a class="compare-link" href=href>"compare the two picked →"</a> }
                    .into_any()
            }
            None => view! {
                <span class="compare-hint">
                    {format!("tick two sessions to compare them ({n} of 2)")}
                </span>
            }
            .into_any(),
        }
    };
    view! {
        {move || error.get().map(|e| view! { <p class="fleet-error">{e}</p> })}
        <p class="compare-pick">{compare}</p>
        <table class="sessions">
            <thead>
                <tr>
                    <th>"agent"</th>
                    <th>"project"</th>
                    <th>"title"</th>
                    <th>"started"</th>
                    <th class="num">"duration"</th>
                    <th>"status"</th>
                    <th class="num">"turns"</th>
                    <th class="num">"errors"</th>
                    <th class="num">"tokens"</th>
                    <th class="num">"cost"</th>
                    <th title="pick two to compare">"compare"</th>
                </tr>
            </thead>
            <tbody>
                {move || {
                    let token = token.clone();
                    rows.get()
                        .into_iter()
                        .map(move |r| session_row(r, token.as_deref(), picks))
                        .collect_view()
                }}
            </tbody>
        </table>
        {move || rows.with(Vec::is_empty).then(|| view! {
            <p class="fleet-none">"No sessions."</p>
        })}
        {move || next.get().is_some().then(|| view! {
            <button class="more" on:click=move |_| on_more.run(())>"more…"</button>
        })}
    }
}

/// One session's row.
fn session_row(r: IndexRow, token: Option<&str>, picks: RwSignal<Picks>) -> impl IntoView + use<> {
    let page = with_token(&format!("s/{}", r.id), token);
    let agent = r
        .agent
        .as_deref()
        .map(|a| agent_label(a, None))
        .unwrap_or_default();
    let (project, project_full) = match &r.project {
        Some(p) => (short_project(p).to_owned(), p.clone()),
        None => (String::new(), String::new()),
    };
    let started = r
        .started
        .map(|t| date_time(t, local_offset_min(t)))
        .unwrap_or_default();
    let errors = match (r.errors, r.first_error) {
        (0, _) => view! { <span class="zero">"0"</span> }.into_any(),
        (n, Some(seq)) => {
            let href = format!("{page}#seq={seq}");
            view! { <a class="errors" href=href title="first error">{grouped(n)}</a> }.into_any()
        }
        (n, None) => view! { <span class="errors">{grouped(n)}</span> }.into_any(),
    };
    let title = r.title.clone();
    let status = status_class(&r.status);
    view! {
        <tr data-session=r.id.clone()>
            <td class="agent">{agent}</td>
            <td class="project" title=project_full>{project}</td>
            <td class="title"><a href=page.clone() title=title>{r.title}</a></td>
            <td class="started">{started}</td>
            <td class="num">{duration_text(r.duration)}</td>
            <td>
                <span class=status>{r.status}</span>
                {r.live.then(|| view! { <span class="live-dot" title="live">" ●"</span> })}
            </td>
            <td class="num">{grouped(r.turns)}</td>
            <td class="num">{errors}</td>
            <td class="num">{tokens_text(r.tokens)}</td>
            <td class="num cost">{cost_text(r.cost, r.cost_estimated)}</td>
            <td class="pick">{pick_box(r.id.clone(), picks)}</td>
        </tr>
    }
}

/// A row's tick box: picks the session for "compare".
fn pick_box(id: String, picks: RwSignal<Picks>) -> impl IntoView {
    let checked = {
        let id = id.clone();
        move || picks.with(|p| p.has(&id))
    };
    view! {
        <input
            type="checkbox"
            class="compare-box"
            title="pick to compare"
            prop:checked=checked
            on:change=move |_| picks.update(|p| p.toggle(&id))
        />
    }
}
