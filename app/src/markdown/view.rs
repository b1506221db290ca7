//! The one place HTML enters the DOM: a markdown body, rendered and cleaned by the
//! classifier's markdown module (pulldown-cmark + ammonia) in the worker
//! ([`crate::markdown::render`]), set as the `.md` block's HTML. Until that HTML is here the body
//! shows as escaped plain text (`.md.pending`). Everything else on the page is text.
//! `scripts/check-no-inner-html.sh` allows this file only.

use std::sync::Arc;

use leptos::prelude::*;

use crate::markdown::render::Renderer;

/// A markdown body as a `<div class="md">`: plain text until its HTML is rendered, which is
/// asked for only once the body is `shown` (a closed row's body is not rendered), of the
/// page's [`Renderer`] (in context; without one the body stays plain text).
#[component]
pub fn Markdown(
    /// Untrusted markdown text.
    body: String,
    /// Whether the body is shown (a flat row, an open one).
    #[prop(default = true)]
    shown: bool,
) -> impl IntoView {
    let html = RwSignal::new(None::<Arc<str>>);
    if shown && let Some(r) = use_context::<Renderer>() {
        r.ask(&body, html);
    }
    move || match html.get() {
        Some(h) => view! { <div class="md" inner_html=h></div> }.into_any(),
        None => view! { <div class="md pending">{body.clone()}</div> }.into_any(),
    }
}
