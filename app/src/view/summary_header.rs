//! The summary header above the rows: what happened, at a glance — how the turns ended, how
//! long it took, the agent, tool calls by tool, errors and warnings, tokens, cost, models, subagents,
//! files changed — and "first error", which goes to that row the way a `#seq` link does, and
//! "N notes", stepping through the notes ([`NotesStepper`]).
//! Collapsible (one line when closed); not made of `.row` elements. Its strings come from
//! [`crate::model::summary`]; every figure carries `data-k` (its `hiveterm summary --json` key).

use leptos::prelude::*;

use crate::model::nav::SeqRange;
use crate::model::summary::{Outcome, SummaryView, count, grouped};
use crate::notes::view::NotesStepper;

/// The header; hidden until there is a summary.
#[component]
pub fn SummaryHeader(
    /// The summary shown.
    #[prop(into)]
    summary: Signal<Option<SummaryView>>,
    /// Open at first (a shared postmortem opens with it).
    #[prop(optional)]
    open: bool,
    /// "first error": go to the row of this seq.
    on_first_error: Callback<u64>,
    /// A note stepped to: go to its range.
    on_note: Callback<SeqRange>,
) -> impl IntoView {
    let outcome = move || summary.with(|v| v.as_ref().map_or(Outcome::Open, |v| v.outcome));
    let first = move || summary.with(|v| v.as_ref().and_then(|v| v.first_error_seq));
    let files_open = RwSignal::new(false);
    view! {
        <details
            class=move || format!("summary-header outcome-{}", outcome().as_str())
            hidden=move || summary.with(Option::is_none)
            open=open
        >
            <summary>
                <span class="sh-icon">{move || outcome().icon()}</span>
                <span class="sh-line">
                    {move || summary.with(|v| v.as_ref().map(SummaryView::line).unwrap_or_default())}
                </span>
                {move || first().map(|seq| view! {
                    <button
                        class="first-error"
                        data-seq=seq.to_string()
                        title="go to the first error row"
                        on:click=move |e| {
                            // Inside <summary>: go, without opening or closing the header.
                            e.prevent_default();
                            on_first_error.run(seq);
                        }
                    >"first error ↓"</button>
                })}
                <NotesStepper on_goto=on_note />
            </summary>
            {move || summary.get().map(|v| view! { <Figures v files_open /> })}
        </details>
    }
}

/// The open header's figures.
#[component]
fn Figures(v: SummaryView, files_open: RwSignal<bool>) -> impl IntoView {
    let or_none = |s: Option<String>| s.unwrap_or_else(|| "—".to_owned());
    let models = if v.models.is_empty() {
        "—".to_owned()
    } else {
        v.models.join(", ")
    };
    let tools = v.tools_line();
    let total = v.files_total;
    // "and N more" lists them all, when this summary has them (the last chunk's, the
    // server's); a summary cut short has only the first few.
    let all = RwSignal::new(false);
    let can_show_all = v.files.len() > crate::model::summary::FILES_SHOWN;
    let fv = v.clone();
    let list = move || {
        let (shown, more) = fv.files_listed(all.get());
        let items = shown
            .iter()
            .map(|f| view! { <li>{f.clone()}</li> })
            .collect::<Vec<_>>();
        let more = (more > 0).then(|| {
            let text = format!("and {} more", grouped(more));
            if can_show_all && !all.get() {
                view! {
                    <li class="sh-more">
                        <button type="button" data-k="files_more" on:click=move |_| all.set(true)>{text}</button>
                    </li>
                }
                .into_any()
            } else {
                view! { <li class="sh-more" data-k="files_more">{text}</li> }.into_any()
            }
        });
        view! { {items} {more} }
    };
    view! {
        <dl class="sh-figures">
            <dt>"agent"</dt>
            <dd data-k="agent">{or_none(v.agent.clone())}</dd>
            <dt>"turns"</dt>
            <dd data-k="turns">{v.turns.clone()}</dd>
            <dt>"duration"</dt>
            <dd data-k="duration">{or_none(v.duration.clone())}</dd>
            <dt>"tool calls"</dt>
            <dd>
                <span data-k="tool_calls">{grouped(v.tool_calls)}</span>
                {(!tools.is_empty()).then(|| view! { " — " <span data-k="tools">{tools}</span> })}
                {(v.tool_errors > 0).then(|| view! {
                    " · " <span class="sh-bad" data-k="tool_errors">{count(v.tool_errors, "error")}</span>
                })}
            </dd>
            <dt>"problems"</dt>
            <dd>
                <span class=("sh-bad", v.errors > 0) data-k="errors">{count(v.errors, "error")}</span>
                " · "
                <span class=("sh-warn", v.warnings > 0) data-k="warnings">{count(v.warnings, "warning")}</span>
                {(v.not_understood > 0).then(|| view! {
                    " · " <span class="sh-warn" data-k="lines_not_understood">
                        {format!("{} not understood", count(v.not_understood, "line"))}
                    </span>
                })}
            </dd>
            <dt>"tokens"</dt>
            <dd data-k="tokens">{or_none(v.tokens.clone())}</dd>
            <dt>"cost"</dt>
            // No line of the log says what it cost (Codex and Gemini never do): unknown, not $0.
            <dd data-k="cost">{v.cost.clone().unwrap_or_else(|| "unknown".to_owned())}</dd>
            <dt>"models"</dt>
            <dd data-k="models">{models}</dd>
            <dt>"subagents"</dt>
            <dd data-k="subagents">{grouped(v.subagents)}</dd>
            <dt>"files changed"</dt>
            <dd>
                {if total == 0 {
                    view! { <span data-k="files_changed">"0"</span> }.into_any()
                } else {
                    view! {
                        <details
                            class="sh-files"
                            prop:open=move || files_open.get()
                            on:toggle=move |e| {
                                let open = event_target::<web_sys::HtmlDetailsElement>(&e).open();
                                files_open.set(open);
                            }
                        >
                            <summary data-k="files_changed">{grouped(total)}</summary>
                            <ul>{list}</ul>
                        </details>
                    }
                    .into_any()
                }}
            </dd>
        </dl>
    }
}
