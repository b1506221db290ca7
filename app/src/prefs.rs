//! The reader's preferences, kept in `localStorage`.

const EXPAND_KEY: &str = "hiveterm.expand-tool-output";

#[cfg(target_arch = "wasm32")]
fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Whether bodied rows open by default (the expand-tool-output preference). Off by default.
pub fn expand_tool_output() -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        storage()
            .and_then(|s| s.get_item(EXPAND_KEY).ok().flatten())
            .is_some_and(|v| v == "1")
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = EXPAND_KEY;
        false
    }
}

/// Stores the expand-tool-output preference.
pub fn set_expand_tool_output(on: bool) {
    #[cfg(target_arch = "wasm32")]
    if let Some(s) = storage() {
        let _ = s.set_item(EXPAND_KEY, if on { "1" } else { "0" });
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = on;
}
