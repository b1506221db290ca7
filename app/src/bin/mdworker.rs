//! The markdown worker's entry: renders the markdown bodies the page shows (see
//! `app::worker::markdown`). Its own wasm, built small (the `page` profile): it carries
//! the markdown renderer (pulldown-cmark, ammonia) and neither Leptos nor the log classifier.

fn main() {
    console_error_panic_hook::set_once();
    app::worker::markdown::run();
}
