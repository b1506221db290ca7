//! The toolbar: level toggles with their counts, the tool filter, search, previous/next
//! problem, expand tool output, "open log…" (not on a share link's read-only page), and how
//! many rows are shown.

use leptos::html;
use leptos::prelude::*;

use crate::model::nav::Nav;
use crate::model::state::{Filter, ViewState};

/// The level names, in [`Filter::levels`] order.
const LEVELS: [&str; 4] = ["debug", "info", "warn", "error"];

/// How long the search box waits for more typing before it searches (each search scans
/// every held row).
const SEARCH_PAUSE: std::time::Duration = std::time::Duration::from_millis(200);

/// What the toolbar controls: the filter's parts and expanding tool output.
#[derive(Clone, Copy)]
pub struct Controls {
    /// Levels shown (debug, info, warn, error).
    pub levels: RwSignal<[bool; 4]>,
    /// The tool filter (`None`: all tools).
    pub tool: RwSignal<Option<String>>,
    /// The search box's text.
    pub query_input: RwSignal<String>,
    /// The search in force (the box's text after a pause).
    pub query: RwSignal<String>,
    /// Whether tool output is expanded (kept in the reader's preferences).
    pub expand: RwSignal<bool>,
    state: RwSignal<ViewState>,
}

impl Controls {
    /// The controls of `state`'s filter; every change goes through the navigation reducer
    /// ([`Nav::filter`]: only a changed filter refilters and forgets the current row).
    pub fn new(state: RwSignal<ViewState>, nav: RwSignal<Nav>) -> Controls {
        let expand = crate::browser::expand_tool_output();
        state.update_untracked(|s| s.set_expand(expand));
        let c = Controls {
            levels: RwSignal::new([true; 4]),
            tool: RwSignal::new(None),
            query_input: RwSignal::new(String::new()),
            query: RwSignal::new(String::new()),
            expand: RwSignal::new(expand),
            state,
        };
        Effect::new(move |_| {
            let filter = Filter {
                levels: c.levels.get(),
                tool: c.tool.get(),
                query: c.query.get(),
            };
            state.update(|s| nav.update_untracked(|n| n.filter(s, filter)));
            nav.notify();
        });
        // The search, after a pause in typing.
        let search_gen = StoredValue::new(0_u64);
        Effect::new(move |_| {
            let q = c.query_input.get();
            search_gen.update_value(|g| *g += 1);
            let generation = search_gen.get_value();
            set_timeout(
                move || {
                    if search_gen.get_value() == generation {
                        c.query.set(q);
                    }
                },
                SEARCH_PAUSE,
            );
        });
        c
    }

    /// Toggles expanding tool output (`e`), and remembers it.
    pub fn toggle_expand(self) {
        let on = !self.expand.get_untracked();
        self.expand.set(on);
        crate::browser::set_expand_tool_output(on);
        self.state.update(|s| s.set_expand(on));
    }
}

/// The toolbar.
#[component]
pub fn Toolbar(
    /// The filter and expand controls.
    controls: Controls,
    /// The rows (read for counts, tools and how many are shown).
    state: ReadSignal<ViewState>,
    /// The search box (`/` focuses it).
    search_box: NodeRef<html::Input>,
    /// The previous (`false`) or next (`true`) warning or error.
    on_problem: Callback<bool>,
    /// Logs picked with "open log…" (several: one session's files).
    on_files: Callback<Vec<web_sys::File>>,
    /// A read-only page (a share link, an export): no "open log…".
    #[prop(optional)]
    read_only: bool,
    /// "note…": write a note on the current row or the selected range (`a`).
    on_note: Callback<()>,
    /// Whether notes can be written here.
    #[prop(into)]
    note_shown: Signal<bool>,
    /// Hidden (the start page, before any log or session is open: it has no rows to filter;
    /// its "open log…" input stays in the page for the start page's "pick a file").
    #[prop(into)]
    hidden: Signal<bool>,
) -> impl IntoView {
    let Controls {
        levels,
        tool,
        query_input,
        expand,
        ..
    } = controls;
    let counts = Memo::new(move |_| state.with(ViewState::counts));
    let tools = Memo::new(move |_| state.with(|s| s.tools().to_vec()));
    let shown = Memo::new(move |_| state.with(|s| (s.visible_len(), s.len())));
    let level_toggles = LEVELS
        .iter()
        .enumerate()
        .map(|(i, name)| {
            view! {
                <label class=format!("chip level-{name}")>
                    <input
                        type="checkbox"
                        checked=move || levels.get()[i]
                        on:change=move |e| {
                            let on = event_target_checked(&e);
                            levels.update(|l| l[i] = on);
                        }
                    />
                    {*name}
                    " "
                    <span class="count">{move || counts.get()[i]}</span>
                </label>
            }
        })
        .collect::<Vec<_>>();

    view! {
        <nav class="toolbar" hidden=move || hidden.get()>
            {level_toggles}
            <select
                class="tool-filter"
                title="filter by tool"
                on:change=move |e| {
                    let v = event_target_value(&e);
                    tool.set((!v.is_empty()).then_some(v));
                }
            >
                <option value="">"all tools"</option>
                {move || tools.get().into_iter().map(|t| {
                    let sel = tool.get_untracked().as_deref() == Some(t.as_str());
                    view! { <option value=t.clone() selected=sel>{t.clone()}</option> }
                }).collect::<Vec<_>>()}
            </select>
            <input
                class="search"
                type="search"
                placeholder="search  /"
                node_ref=search_box
                prop:value=move || query_input.get()
                on:input=move |e| query_input.set(event_target_value(&e))
            />
            <button
                class="prev-problem"
                title="previous warning/error (N)"
                on:click=move |_| on_problem.run(false)
            >"▲ N"</button>
            <button
                class="next-problem"
                title="next warning/error (n)"
                on:click=move |_| on_problem.run(true)
            >"▼ n"</button>
            <label class="chip" title="expand tool output (e)">
                <input
                    type="checkbox"
                    class="expand-all"
                    checked=move || expand.get()
                    on:change=move |_| controls.toggle_expand()
                />
                "expand"
            </label>
            <button
                class="note-open"
                title="write a note on the current row or the selected range (a)"
                hidden=move || !note_shown.get()
                on:click=move |_| on_note.run(())
            >"note…"</button>
            {(!read_only).then(|| view! {
                <label class="open-file" for="file">"open log…"</label>
                <input
                    id="file"
                    type="file"
                    multiple
                    accept=".jsonl,.json,.ndjson,.log,.txt"
                    on:change=move |e| {
                        let input: web_sys::HtmlInputElement = event_target(&e);
                        if let Some(list) = input.files() {
                            let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
                            if !files.is_empty() {
                                on_files.run(files);
                            }
                        }
                        input.set_value("");
                    }
                />
            })}
            <span class="shown">
                {move || {
                    let (v, n) = shown.get();
                    if v == n { format!("{n} rows") } else { format!("{v} of {n} rows") }
                }}
            </span>
        </nav>
    }
}
