//! The usage page's table: a line a group — sessions, tokens (input, output, cache read,
//! cache write), then the cost: stated, estimated (`≈`), the sessions of unknown cost with
//! their models of no price, and the sum — and the total under them; the current row
//! (`j`/`k`) marked. Its lines are `model::usage::UsageLine`s, drawn as text.

use leptos::prelude::*;

use crate::model::usage::{Usage, UsageLine};

/// The id of the table's row `i` (scrolled to when it is current).
pub fn row_id(i: usize) -> String {
    format!("usage-row-{i}")
}

/// The table of `usage`, its row `current` marked.
#[component]
pub fn UsageTable(
    /// The answer.
    usage: Usage,
    /// The current row, if any.
    #[prop(into)]
    current: Signal<Option<usize>>,
) -> impl IntoView {
    let by = usage.by;
    let (lines, total) = UsageLine::all(&usage);
    if lines.is_empty() {
        return view! { <p class="usage-none">"No sessions yet."</p> }.into_any();
    }
    let rows = lines
        .into_iter()
        .enumerate()
        .map(|(i, l)| {
            let here = move || current.get() == Some(i);
            view! {
                <tr id=row_id(i) class:current=here aria-current=move || here().then_some("true")>
                    {cells(l)}
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="usage-table">
            <thead>
                <tr>
                    <th scope="col" rowspan="2">{by.name()}</th>
                    <th scope="col" rowspan="2" class="num">"sessions"</th>
                    <th scope="colgroup" colspan="4" class="group">"tokens"</th>
                    <th scope="colgroup" colspan="4" class="group">"cost"</th>
                </tr>
                <tr>
                    <th scope="col" class="num">"input"</th>
                    <th scope="col" class="num">"output"</th>
                    <th scope="col" class="num">"cache read"</th>
                    <th scope="col" class="num">"cache write"</th>
                    <th scope="col" class="num">"stated"</th>
                    <th scope="col" class="num">"estimated"</th>
                    <th scope="col">"unknown"</th>
                    <th scope="col" class="num">"sum"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
            <tfoot>
                <tr class="total">{cells(total)}</tr>
            </tfoot>
        </table>
    }
    .into_any()
}

/// A line's cells: its key as the row's heading.
fn cells(l: UsageLine) -> impl IntoView {
    let [input, output, read, write] = l.tokens;
    view! {
        <th scope="row" class="key" title=l.title>{l.key}</th>
        <td class="num">{l.sessions}</td>
        <td class="num">{input}</td>
        <td class="num">{output}</td>
        <td class="num">{read}</td>
        <td class="num">{write}</td>
        <td class="num stated">{l.stated}</td>
        <td class="num estimated">{l.estimated}</td>
        <td class="unknown">{l.unknown}</td>
        <td class="num cost">{l.cost}</td>
    }
}
