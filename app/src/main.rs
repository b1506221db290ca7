//! The page's entry: mounts the page, the compare page at `/compare/{a}/{b}`, in a
//! comparison's one file or under a comparison link (`/p/<token>/compare`), or the usage page
//! at `/usage`; the page gives way to two logs' comparison when they are picked on its start
//! page (`view/offline_compare.rs`). (The worker has its own entry,
//! `src/bin/worker.rs`.)

fn main() {
    console_error_panic_hook::set_once();
    // A comparison's one file (`hiveterm diff -o`), whatever its path.
    if let Some(meta) = app::offline::export::meta().filter(|m| m.kind == "compare") {
        let title = meta.title;
        leptos::mount::mount_to_body(move || {
            leptos::view! { <app::view::compare_page::EmbeddedComparePage title /> }
        });
        return;
    }
    let path = app::browser::pathname().unwrap_or_default();
    // A comparison link (`hiveterm share --compare A B`), read-only.
    if let Some(base) = app::share::link::compare_share_base(&path) {
        leptos::mount::mount_to_body(move || {
            leptos::view! { <app::share::compare_link::SharedComparePage base /> }
        });
        return;
    }
    match app::model::compare::route(&path) {
        Some((a, b)) => leptos::mount::mount_to_body(move || {
            leptos::view! { <app::view::compare_page::ComparePage a b /> }
        }),
        None if app::model::usage::route(&path) => {
            leptos::mount::mount_to_body(app::view::usage_page::UsagePage);
        }
        None => leptos::mount::mount_to_body(app::view::offline_compare::page_or_comparison),
    }
}
