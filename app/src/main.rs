//! The page's entry: mounts the page, the compare page at `/compare/{a}/{b}`, or the usage
//! page at `/usage`. (The worker has its own entry, `src/bin/worker.rs`.)

fn main() {
    console_error_panic_hook::set_once();
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
