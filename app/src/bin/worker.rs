//! The Web Worker's entry: classifies the logs the page sends (see `app::worker::run`). A separate
//! wasm so the page itself does not carry the classifier, and the worker carries no Leptos.

/// Classifying allocates and frees every string of every line: Talc does it faster than Rust's
/// default wasm allocator (dlmalloc).
#[cfg(target_family = "wasm")]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    console_error_panic_hook::set_once();
    app::worker::run::run();
}
