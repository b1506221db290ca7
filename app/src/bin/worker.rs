//! The Web Worker's entry: classifies the logs the page sends (see `app::worker::run`). A separate
//! wasm so the page itself does not carry the classifier, and the worker carries no Leptos.

fn main() {
    console_error_panic_hook::set_once();
    app::worker::run::run();
}
