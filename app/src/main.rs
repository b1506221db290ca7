//! Entry point: mounts the page in a window, or serves classification in a Web Worker (the
//! worker loads this same wasm).

fn main() {
    console_error_panic_hook::set_once();
    if app::worker::in_worker() {
        app::worker::run();
    } else {
        leptos::mount::mount_to_body(app::page::Page);
    }
}
