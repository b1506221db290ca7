//! What a share link's page says when the link is dead (expired, revoked, unknown: see
//! [`crate::share::link::dead_link`]), in place of its rows.

use leptos::prelude::*;

/// The message, while there is one.
#[component]
pub fn DeadLink(
    /// Why the link shows nothing.
    message: RwSignal<Option<&'static str>>,
) -> impl IntoView {
    move || {
        message
            .get()
            .map(|m| view! { <p class="dead-link" role="alert">{m}</p> })
    }
}
