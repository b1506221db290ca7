//! The page's entry: mounts the page. (The worker has its own entry, `src/bin/worker.rs`.)

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::view::page::Page);
}
