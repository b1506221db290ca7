//! The page's entry: mounts the page, the compare page at `/compare/{a}/{b}` or in a
//! comparison's one file, or the usage page at `/usage`. (The worker has its own entry,
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
    match app::model::compare::route(&path) {
        Some((a, b)) => leptos::mount::mount_to_body(move || {
            leptos::view! { <app::view::compare_page::ComparePage a b /> }
        }),
        None if app::model::usage::route(&path) => {
            leptos::mount::mount_to_body(app::view::usage_page::UsagePage);
        }
        None => leptos::mount::mount_to_body(app::view::page::Page),
    }
}
