//! A comparison link's page (`/p/<token>/compare`, issue 48: `hiveterm share --compare A B`):
//! what the link is (`…/api/share`: its title, and the line a session's link shows), then the
//! compare page of its comparison (`…/api/compare`), read-only — its steps' `#seq` are text,
//! not links to the sessions (the link grants the comparison, not their rows), and there is no
//! way to the index. A dead link (`410`/`404`) says so in place of the comparison.

use leptos::prelude::*;

use crate::browser::local_offset_min;
use crate::live::net::{Failure, get_json_at};
use crate::model::compare::Comparison;
use crate::share::link::{LinkText, ShareInfo, compare_share_url, compare_url, dead_link};
use crate::view::compare_page::{Links, compare_view};

/// What a failed read says: a dead link's message, else the failure.
fn why(e: &Failure) -> String {
    dead_link(e.status).map_or_else(|| e.to_string(), str::to_owned)
}

/// The page of the comparison link whose path up to its token is `base`.
#[component]
pub fn SharedComparePage(
    /// `/p/<token>` (below a proxy's prefix, if any).
    base: String,
) -> impl IntoView {
    let info = RwSignal::new(None::<Result<ShareInfo, String>>);
    let url = compare_share_url(&base);
    leptos::task::spawn_local(async move {
        let got = get_json_at::<ShareInfo>(&url).await;
        info.set(Some(got.map_err(|e| why(&e))));
    });
    move || match info.get() {
        None => view! { <p class="cmp-wait">"opening the link…"</p> }.into_any(),
        Some(Err(m)) => view! { <p class="dead-link" role="alert">{m}</p> }.into_any(),
        Some(Ok(i)) => {
            let title = i.title().unwrap_or("shared comparison").to_owned();
            let line = format!("comparison · {}", i.line(local_offset_min));
            let url = compare_url(&base);
            let load = async move { get_json_at::<Comparison>(&url).await.map_err(|e| why(&e)) };
            view! {
                <p class="cmp-share">{line}</p>
                {compare_view(title, None, Links::None, load)}
            }
            .into_any()
        }
    }
}
