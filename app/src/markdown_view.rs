//! The one place HTML enters the DOM: a markdown body, rendered and cleaned by the
//! classifier's markdown module (pulldown-cmark + ammonia), set as the `.md` block's HTML.
//! Everything else on the page is text. `scripts/check-no-inner-html.sh` allows this file only.

use leptos::prelude::*;

/// A markdown body as a `<div class="md">`.
#[component]
pub fn Markdown(
    /// Untrusted markdown text.
    body: String,
) -> impl IntoView {
    let html = classifier::markdown::render(&body);
    view! { <div class="md" inner_html=html></div> }
}
