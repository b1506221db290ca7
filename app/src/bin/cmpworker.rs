//! The compare worker's entry: aligns two logs dropped or picked to compare (see
//! `app::worker::compare`). Its own wasm, built as the classifier worker is (the `worker`
//! profile: it classifies two whole logs), carrying the classifier and the alignment and
//! neither Leptos nor the one-file export.

/// Classifying allocates and frees every string of every line: Talc does it faster than Rust's
/// default wasm allocator (dlmalloc).
#[cfg(target_family = "wasm")]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    console_error_panic_hook::set_once();
    app::worker::compare::run();
}
