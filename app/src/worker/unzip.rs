//! A zstd-compressed log (a Codex rollout idle long enough to become `rollout-*.jsonl.zst`)
//! dropped on the page: known by its first bytes whatever its name, decompressed whole in the
//! worker ([`classifier::zstd`], pure Rust) into a `Blob` of its lines, which is then read,
//! classified, searched, re-read for bodies and saved as any plain log is.

#[cfg(target_arch = "wasm32")]
pub use imp::plain;

#[cfg(target_arch = "wasm32")]
mod imp {
    use js_sys::{Array, Uint8Array};
    use wasm_bindgen::JsValue;
    use web_sys::{Blob, FileReaderSync};

    fn err(e: &JsValue) -> String {
        e.as_string().unwrap_or_else(|| format!("{e:?}"))
    }

    /// `blob` itself, or a `Blob` of its lines decompressed when it starts with a zstd frame;
    /// an error says why a compressed log cannot be read.
    pub fn plain(reader: &FileReaderSync, blob: Blob) -> Result<Blob, String> {
        let head = blob
            .slice_with_f64_and_f64(0.0, 4.0)
            .and_then(|s| reader.read_as_array_buffer(&s))
            .map_err(|e| err(&e))?;
        if !classifier::zstd::is_zstd(&Uint8Array::new(&head).to_vec()) {
            return Ok(blob);
        }
        let whole = reader.read_as_array_buffer(&blob).map_err(|e| err(&e))?;
        let bytes = Uint8Array::new(&whole).to_vec();
        let plain = match classifier::zstd::decompress(&bytes) {
            Some(result) => result?,
            None => return Ok(blob),
        };
        drop(bytes);
        let parts = Array::of1(&Uint8Array::from(plain.as_slice()));
        Blob::new_with_u8_array_sequence(&parts).map_err(|e| err(&e))
    }
}
