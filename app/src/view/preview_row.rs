//! The partial message being written (a live agent's streaming answer), drawn after the rows.

use leptos::prelude::*;

use crate::live::preview::{PreviewFrame, PreviewText};

/// The partial message being written, after the list.
#[component]
pub fn PreviewRow(p: PreviewFrame) -> impl IntoView {
    let text = p.shown_text();
    view! {
        <div
            class="row level-debug preview"
            data-kind=p.kind.map_or("", |k| k.as_str())
            data-preview-seq=p.seq.to_string()
        >
            <span class="row-glyph">{p.icon()}</span>
            <span class="preview-text">
                {p.tool.map(|t| view! { <span class="preview-tool">{t}</span> })}
                {text}
            </span>
        </div>
    }
}
