//! The drop zone: the whole page takes a dropped log (and shows it is ready to), and a log
//! pasted anywhere outside a text field — except a read-only page (a share link, an export),
//! which takes neither (a dropped file is still kept from replacing the page).

use leptos::ev;
use leptos::prelude::*;

use crate::browser::typing_in;

/// The page's `<main>`, taking dropped files and pasted text.
#[component]
pub fn DropZone<C: IntoView + 'static>(
    /// A log dropped on the page.
    on_file: Callback<web_sys::File>,
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
                if let Some(f) = e.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0)) {
                    on_file.run(f);
                }
            }
        >
            {children()}
        </main>
    }
}
