//! Two logs compared offline (issue 48): picked or dropped on the start page
//! ([`crate::view::compare_logs::CompareLogs`]), read and aligned in the compare worker
//! ([`crate::offline::compare`]), shown by the compare page's own view
//! ([`crate::view::compare_page::compare_view`]: the summary table, the aligned steps, the
//! first divergence selected, `n`/`N`) — the answer `GET /api/compare/{a}/{b}` gives, so the same
//! as `hiveterm diff A B` for the same two files. No server is asked: a static page and
//! `hiveterm serve`'s alike. The steps' seqs are the logs' lines (not linked).

use leptos::prelude::*;
use web_sys::File;

use crate::offline::compare::Comparing;

use crate::view::compare_page::{Links, compare_view};
use crate::view::page::Page;

/// The page, or two logs' comparison once they are picked.
pub fn page_or_comparison() -> impl IntoView {
    let comparing = Comparing::new();
    provide_context(comparing);
    move || match comparing.get() {
        None => view! { <Page /> }.into_any(),
        Some((a, b)) => view! { <OfflineComparePage a b /> }.into_any(),
    }
}

/// The comparison of logs `a` and `b`, made in the compare worker; how much of them is read
/// while it reads.
#[component]
pub fn OfflineComparePage(
    /// A.
    a: File,
    /// B.
    b: File,
) -> impl IntoView {
    let title = format!("{} ↔ {}", a.name(), b.name());
    let read = RwSignal::new(None::<(f64, f64)>);
    let load = crate::offline::compare::compare(a, b, move |r, t| read.set(Some((r, t))));
    let reading = move || {
        read.get()
            .filter(|&(r, t)| r < t)
            .map(|(r, t)| format!("reading the two logs: {:.0} %", 100.0 * r / t.max(1.0)))
    };
    view! {
        <p class="cmp-reading">{reading}</p>
        {compare_view(title, crate::browser::pathname(), Links::None, load)}
    }
}
