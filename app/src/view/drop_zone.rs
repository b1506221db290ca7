//! The drop zone: the whole page takes a dropped log (and shows it is ready to), and a log
//! pasted anywhere outside a text field — except a read-only page (a share link, an export),
//! which takes neither (a dropped file is still kept from replacing the page).

use leptos::ev;
use leptos::prelude::*;

use crate::browser::typing_in;

/// The page's `<main>`, taking dropped files and pasted text.
#[component]
pub fn DropZone<C: IntoView + 'static>(
    /// Logs dropped on the page (several: one session's files).
    on_files: Callback<Vec<web_sys::File>>,
    /// A log pasted on the page.
    on_text: Callback<String>,
    /// A read-only page: drops and pastes are ignored.
    #[prop(optional)]
    read_only: bool,
    /// The page (typed, not boxed into an `AnyView`: smaller).
    children: TypedChildren<C>,
) -> impl IntoView {
    let children = children.into_inner();
    let dragging = RwSignal::new(false);
    let _paste = window_event_listener(ev::paste, move |e: web_sys::ClipboardEvent| {
        if read_only || typing_in(e.target()) {
            return;
        }
        if let Some(text) = e.clipboard_data().and_then(|d| d.get_data("text").ok())
            && !text.trim().is_empty()
        {
            e.prevent_default();
            on_text.run(text);
        }
    });
    view! {
        <main
            class="page"
            class=("dragging", move || dragging.get())
            data-dropzone=""
            on:dragover=move |e: web_sys::DragEvent| {
                e.prevent_default();
                dragging.set(!read_only);
            }
            on:dragleave=move |_| dragging.set(false)
            on:drop=move |e: web_sys::DragEvent| {
                e.prevent_default();
                dragging.set(false);
                if read_only {
                    return;
                }
                if let Some(list) = e.data_transfer().and_then(|d| d.files()) {
                    let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
                    if !files.is_empty() {
                        on_files.run(files);
                    }
                }
            }
        >
            {children()}
        </main>
    }
}
