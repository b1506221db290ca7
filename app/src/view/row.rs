//! `<Row>`: one row, exactly the layout contract of `docs/ROWS.md` ("What the page adds").
//!
//! - Flat `<div class="row level-…">` or expandable `<details class="row level-…">`; the
//!   level class is the only colour input.
//! - The icon in a fixed-width `.row-glyph` cell; no icon, no cell.
//! - The summary in `.summary-text` (its `::before` is the caret of a `<details>`).
//! - Turn times in `.turn-time`, after the summary, never inside it.
//! - A tool call is `.dir-out`, a result `.dir-in` (the colour carries the direction); a
//!   subagent's row is `.nested` with `--depth`; a call row that started a subagent ends with
//!   its block's `.block-toggle` (the block's one-line summary).
//! - Bodies: markdown in `.md` (through [`crate::markdown::view`]: plain text, `.md.pending`,
//!   until the worker's HTML for it is here; a closed row's is not asked for), a diff as
//!   coloured `+`/`-` lines, anything else as preformatted text. An empty-summary markdown
//!   row is flat.
//! - A body left in an offline log's file (`lazy`) is asked for when the row is shown open
//!   ([`crate::offline::bodies`]) or while a search is on, and drawn as an empty `.body.pending`
//!   until it is here.
//! - Every row carries `data-seq`, `data-idx` and `data-pos` (its place in the shown list).
//! - A row with a `seq` ends with its permalink, an empty `<a class="row-link">` (drawn by
//!   the CSS, so it adds no text to the row).

use leptos::prelude::*;

use crate::browser::local_offset_min;
use crate::markdown::view::Markdown;
use crate::model::state::{Row as RowData, Shape, TurnTime, direction};
use crate::model::text::{body_cut, clock, highlight, show_all_label};
use crate::offline::bodies::BodySource;
use crate::view::activity::Activity;
use classifier::duration;
use classifier::{BodyFormat, RowKind, row_kind};

/// The text of a row's `.turn-time`: `HH:MM:SS`, and ` · <duration>` on a turn end.
pub fn turn_time_text(turn: TurnTime) -> String {
    match turn {
        TurnTime::Start { ts } => clock(ts, local_offset_min(ts)),
        TurnTime::End { ts, dur } => {
            let t = clock(ts, local_offset_min(ts));
            match dur {
                Some(d) => format!("{t} · {}", duration(d)),
                None => t,
            }
        }
    }
}

/// Text with `<mark>` around each match of `query`.
fn marked(text: &str, query: &str) -> Vec<AnyView> {
    highlight(text, query)
        .into_iter()
        .map(|(piece, hit)| {
            let piece = piece.to_owned();
            if hit {
                view! { <mark>{piece}</mark> }.into_any()
            } else {
                piece.into_any()
            }
        })
        .collect()
}

/// The class of one line of a diff body.
pub fn diff_class(line: &str) -> &'static str {
    if line.starts_with("+++") || line.starts_with("---") || line.starts_with("@@") {
        "diff-meta"
    } else if line.starts_with('+') {
        "diff-add"
    } else if line.starts_with('-') {
        "diff-del"
    } else {
        "diff-ctx"
    }
}

/// The part of a body that is drawn, and the "show all" control after it when that is not
/// all of it (`full`: the reader asked for all). A huge tool output would otherwise cost
/// seconds of layout each time its row scrolls into the window.
fn cut_body(body: String, full: bool, pos: &str) -> (String, Option<AnyView>) {
    match body_cut(&body).filter(|_| !full) {
        None => (body, None),
        Some(cut) => {
            let label = show_all_label(&body);
            let pos = pos.to_owned();
            let button = view! {
                <button class="show-all" data-pos=pos>{label}</button>
            };
            let mut shown = body;
            shown.truncate(cut);
            (shown, Some(button.into_any()))
        }
    }
}

fn body_view(body: String, format: Option<BodyFormat>, query: &str, open: bool) -> AnyView {
    match format {
        Some(BodyFormat::Markdown) => view! { <Markdown body=body shown=open /> }.into_any(),
        Some(BodyFormat::Diff) => {
            let lines: Vec<AnyView> = body
                .lines()
                .map(|line| {
                    let class = diff_class(line);
                    let parts = marked(line, query);
                    view! { <span class=class>{parts}"\n"</span> }.into_any()
                })
                .collect();
            view! { <pre class="body diff">{lines}</pre> }.into_any()
        }
        None => {
            let parts = marked(&body, query);
            view! { <pre class="body plain">{parts}</pre> }.into_any()
        }
    }
}

/// The row's body: at once when held, else asked for (when `shown`) and set on arrival.
fn body_signal(row: &RowData, shown: bool) -> RwSignal<Option<std::sync::Arc<str>>> {
    let body = RwSignal::new(row.msg.body.as_deref().map(std::sync::Arc::from));
    if let (None, Some(_), Some(seq), true) = (&row.msg.body, row.lazy, row.seq, shown)
        && let Some(b) = use_context::<BodySource>()
    {
        b.ask((seq, row.idx), body);
    }
    body
}

/// A body not here yet: an empty block of its estimated height (`lines` lines), so the
/// rows around it do not move when it comes.
fn pending_body(lines: usize) -> AnyView {
    let h = format!("{}px", lines.max(1) as f32 * crate::model::state::LINE_PX);
    view! { <pre class="body pending" style:height=h></pre> }.into_any()
}

/// One row.
#[expect(
    clippy::fn_params_excessive_bools,
    reason = "a component's flags are its props, each set by name where it is used"
)]
#[component]
pub fn Row(
    /// The row.
    row: std::sync::Arc<RowData>,
    /// Its place in the shown list.
    pos: usize,
    /// Whether a bodied row is open.
    open: bool,
    /// Search text to highlight (empty: none).
    #[prop(optional, into)]
    query: String,
    /// Whether this is the reader's current row (`j`/`k`).
    #[prop(optional)]
    current: bool,
    /// Whether the whole body is drawn, however big (the reader asked for it).
    #[prop(optional)]
    full: bool,
    /// Whether the row is in the selected range (a `#seq=a-b` link, a shift-click).
    #[prop(optional)]
    selected: bool,
    /// The subagent block this call row started: its one-line summary and whether it is open.
    #[prop(default = None)]
    block: Option<(String, bool)>,
) -> impl IntoView {
    let msg = &row.msg;
    let class = format!(
        "row level-{}{}{}{}{}",
        msg.level.as_str(),
        direction(msg).map_or(String::new(), |d| format!(" {}", d.class())),
        if row.depth > 0 { " nested" } else { "" },
        if current { " current" } else { "" },
        if selected { " selected" } else { "" }
    );
    let depth = (row.depth > 0).then(|| format!("--depth:{}", row.depth.min(8)));
    let seq = row.seq.map(|s| s.to_string()).unwrap_or_default();
    let idx = row.idx.to_string();
    let pos = pos.to_string();
    let glyph = msg
        .icon
        .clone()
        .map(|icon| view! { <span class="row-glyph">{icon}</span> });
    // A compaction in progress counts up on its row (`⚙ compact · 12s…`), live.
    let activity = (row_kind(msg) == RowKind::Compacting)
        .then(use_context::<Activity>)
        .flatten();
    let summary = match activity {
        Some(a) => {
            let (uid, stored) = (row.uid, msg.summary.clone());
            (move || a.compact_summary(uid).unwrap_or_else(|| stored.clone())).into_any()
        }
        None => marked(&msg.summary, &query).into_any(),
    };
    // A subagent's block under this call: its summary, a button that opens or closes it —
    // inline text (a `<button>` is one box: a long one went to a line of its own, issue 45),
    // focusable, Enter or Space toggles it (`row_list`).
    let block = block.map(|(line, open)| {
        view! {
            <span
                class="block-toggle"
                role="button"
                tabindex="0"
                data-pos=pos.clone()
                aria-expanded=if open { "true" } else { "false" }
                title="show or hide the subagent's rows"
            >
                {if open { "▾ ⌁ " } else { "▸ ⌁ " }}
                {line}
            </span>
        }
    });
    let turn_time = row
        .turn
        .as_deref()
        .copied()
        .map(|t| view! { <span class="turn-time">{turn_time_text(t)}</span> });
    let link = row.seq.map(|s| {
        view! {
            <a
                class="row-link"
                href=format!("#{s}")
                data-pos=pos.clone()
                title="link to this row (c copies it)"
                aria-label="link to this row"
            ></a>
        }
    });
    let lines = row.body_lines();
    match row.shape() {
        Shape::Flat => view! {
            <div class=class style=depth data-seq=seq data-idx=idx data-pos=pos>
                {glyph}
                <span class="summary-text">{summary}</span>
                {turn_time}
                {block}
                {link}
            </div>
        }
        .into_any(),
        Shape::FlatMarkdown => {
            let text = body_signal(&row, true);
            let at = pos.clone();
            let body = move || match text.get() {
                Some(t) => {
                    let (body, show_all) = cut_body(t.to_string(), full, &at);
                    view! { <Markdown body=body />{show_all} }.into_any()
                }
                None => pending_body(lines),
            };
            view! {
                <div class=class style=depth data-seq=seq data-idx=idx data-pos=pos>
                    {glyph}
                    {turn_time}
                    {body}
                    {block}
                    {link}
                </div>
            }
            .into_any()
        }
        Shape::Details => {
            // Searched, a closed row's body is there too (hidden, as it always was).
            let text = body_signal(&row, open || !query.is_empty());
            let (at, format) = (pos.clone(), msg.body_format);
            let body = move || match text.get() {
                Some(t) => {
                    let (body, show_all) = cut_body(t.to_string(), full, &at);
                    let body = body_view(body, format, &query, open);
                    view! { {body}{show_all} }.into_any()
                }
                None => pending_body(lines.min(crate::model::state::BODY_MAX_LINES)),
            };
            view! {
                <details class=class style=depth data-seq=seq data-idx=idx data-pos=pos open=open>
                    <summary>
                        {glyph}
                        <span class="summary-text">{summary}</span>
                        {turn_time}
                        {block}
                        {link}
                    </summary>
                    {body}
                </details>
            }
            .into_any()
        }
    }
}
