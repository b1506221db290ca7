//! The start page's "compare two logs" (issue 48): two logs dropped on it, or picked with its
//! file picker, are compared in the browser ([`crate::view::offline_compare`]); anything but
//! two is said so. A drop here is not the page's (which opens one session's files).

use leptos::prelude::*;
use web_sys::File;

use crate::offline::compare::Comparing;

/// The files of a list (a picker's, a drop's).
fn files_of(list: Option<web_sys::FileList>) -> Vec<File> {
    list.map(|l| (0..l.length()).filter_map(|i| l.get(i)).collect())
        .unwrap_or_default()
}

/// "Compare two logs": a drop target and a file picker.
#[component]
pub fn CompareLogs(
    /// Where the two go.
    comparing: Comparing,
) -> impl IntoView {
    let said = RwSignal::new(false);
    let dragging = RwSignal::new(false);
    let take = move |files: Vec<File>| said.set(!comparing.start(files));
    view! {
        <p
            class="hint compare-logs"
            class=("dragging", move || dragging.get())
            data-compare-drop=""
            on:dragover=move |e: web_sys::DragEvent| {
                e.prevent_default();
                e.stop_propagation();
                dragging.set(true);
            }
            on:dragleave=move |_| dragging.set(false)
            on:drop=move |e: web_sys::DragEvent| {
                e.prevent_default();
                e.stop_propagation();
                dragging.set(false);
                take(files_of(e.data_transfer().and_then(|d| d.files())));
            }
        >
            "Or compare two runs: drop two logs here, or "
            <label class="linkish" for="compare-files">"pick two files"</label>
            " — their summaries side by side, then their steps aligned, divergences marked ("
            <kbd>"n"</kbd>" / "<kbd>"N"</kbd>"), as " <code>"hiveterm diff A B"</code>" shows them."
            <input
                type="file"
                id="compare-files"
                multiple
                hidden
                on:change=move |e| {
                    let input: web_sys::HtmlInputElement = event_target(&e);
                    take(files_of(input.files()));
                    input.set_value("");
                }
            />
            {move || said.get().then(|| view! { <span class="compare-said">" Two logs, please: A and B."</span> })}
        </p>
    }
}
