//! The fleet table's filters on the start page: agent and status (selects), project and
//! title text (typed, taken 250 ms after the last key), and the sort.

use leptos::prelude::*;

use crate::model::fleet::{AGENTS, Filters, STATUSES, Sort};
use crate::model::summary::agent_label;

/// How long typing must pause before a text filter is taken.
const SETTLE: std::time::Duration = std::time::Duration::from_millis(250);

/// Sets one text field of the filters once `value` is still what was typed after
/// [`SETTLE`].
fn settle(
    filters: RwSignal<Filters>,
    typed: RwSignal<String>,
    value: String,
    set: fn(&mut Filters, String),
) {
    typed.set(value.clone());
    set_timeout(
        move || {
            if typed.get_untracked() == value {
                filters.update(|f| set(f, value));
            }
        },
        SETTLE,
    );
}

/// The filters and the sort.
#[component]
pub fn SessionFilters(
    /// What the table is filtered and sorted by.
    filters: RwSignal<Filters>,
) -> impl IntoView {
    let project = RwSignal::new(String::new());
    let title = RwSignal::new(String::new());
    let is = move |get: fn(&Filters) -> &str, v: &'static str| filters.with(|f| get(f) == v);
    view! {
        <div class="fleet-filters">
            <label>
                "agent "
                <select
                    class="filter-agent"
                    on:change=move |e| {
                        let v = event_target_value(&e);
                        filters.update(|f| f.agent = v);
                    }
                >
                    <option value="" selected=move || is(|f| &f.agent, "")>"all"</option>
                    {AGENTS.map(|a| view! {
                        <option value=a selected=move || is(|f| &f.agent, a)>
                            {agent_label(a, None)}
                        </option>
                    })}
                </select>
            </label>
            <label>
                "status "
                <select
                    class="filter-status"
                    on:change=move |e| {
                        let v = event_target_value(&e);
                        filters.update(|f| f.status = v);
                    }
                >
                    <option value="" selected=move || is(|f| &f.status, "")>"all"</option>
                    {STATUSES.map(|s| s.as_str()).map(|s| view! {
                        <option value=s selected=move || is(|f| &f.status, s)>{s}</option>
                    })}
                </select>
            </label>
            <input
                class="filter-project"
                type="text"
                placeholder="project path"
                prop:value=move || project.get()
                on:input=move |e| {
                    settle(filters, project, event_target_value(&e), |f, v| f.project = v)
                }
            />
            <input
                class="filter-title"
                type="text"
                placeholder="title contains…"
                prop:value=move || title.get()
                on:input=move |e| settle(filters, title, event_target_value(&e), |f, v| f.q = v)
            />
            <label>
                "sort "
                <select
                    class="filter-sort"
                    on:change=move |e| {
                        let v = Sort::parse(&event_target_value(&e)).unwrap_or_default();
                        filters.update(|f| f.sort = v);
                    }
                >
                    {Sort::ALL.map(|s| view! {
                        <option value=s.as_str() selected=move || filters.with(|f| f.sort == s)>
                            {s.as_str()}
                        </option>
                    })}
                </select>
            </label>
        </div>
    }
}
