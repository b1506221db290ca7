//! The compare worker's loop (`src/bin/cmpworker.rs` calls [`run`], issue 48): two logs
//! dropped or picked on the start page to compare ([`ToCompare::Logs`], their `File`s
//! attached), each read a chunk at a time (`FileReaderSync`; a `.jsonl.zst` decompressed first
//! by [`crate::worker::unzip`]), classified and folded into its steps
//! ([`contract::compare::make::LogReader`], as `hiveterm diff` reads a log), the two aligned and
//! the compare page's answer made ([`contract::compare::make::comparison`], the server's) — all
//! off the page's main thread. It posts the bytes read as it goes, then the answer.
//!
//! Its own wasm, so neither the page nor the classifier worker grows: it carries the
//! classifier, the alignment and the answer's JSON, and no Leptos nor `onefile`.
//!
//! [`ToCompare::Logs`]: crate::worker::protocol::compare::ToCompare::Logs

/// Bytes of a log read and classified at a time.
pub const CHUNK: f64 = 4.0 * 1024.0 * 1024.0;

/// Starts listening for logs to compare (the compare worker only).
pub fn run() {
    #[cfg(target_arch = "wasm32")]
    imp::run();
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use contract::compare::Comparison;
    use contract::compare::make::{LogReader, Side, comparison};
    use js_sys::{Array, Uint8Array};
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    use web_sys::{Blob, FileReaderSync, MessageEvent};

    use super::CHUNK;
    use crate::worker::protocol::compare::{FromCompare, ToCompare};
    use crate::worker::protocol::port::{receive, reply, scope};
    use crate::worker::unzip;

    fn err(e: &JsValue) -> String {
        e.as_string().unwrap_or_else(|| format!("{e:?}"))
    }

    pub fn run() {
        let on = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            let Some((ToCompare::Logs { names }, data)) = receive::<ToCompare>(&ev) else {
                return;
            };
            let msg = match compare(names, &data.unchecked_into()) {
                Ok(c) => FromCompare::Done(Box::new(c)),
                Err(e) => FromCompare::Error(e),
            };
            reply(&msg, None);
        });
        scope().set_onmessage(Some(on.as_ref().unchecked_ref()));
        on.forget();
        reply(&FromCompare::Ready, None);
    }

    fn compare(names: [String; 2], files: &Array) -> Result<Comparison, String> {
        let reader = FileReaderSync::new().map_err(|e| err(&e))?;
        let blobs: Vec<Blob> = (0..2)
            .map(|i| {
                files
                    .get(i)
                    .dyn_into::<Blob>()
                    .map_err(|_| "two logs, please".to_owned())
            })
            .collect::<Result<_, _>>()?;
        let total: f64 = blobs.iter().map(Blob::size).sum();
        let mut before = 0.0;
        let mut sides: Vec<Side> = Vec::with_capacity(2);
        for (blob, name) in blobs.into_iter().zip(names) {
            let size = blob.size();
            let plain = unzip::plain(&reader, blob).map_err(|e| format!("{name}: {e}"))?;
            let side = read(&reader, &plain, name, |read| {
                reply(
                    &FromCompare::Read {
                        read: before + read.min(size),
                        total,
                    },
                    None,
                );
            })?;
            before += size;
            sides.push(side);
        }
        Ok(comparison(&sides[0], &sides[1]))
    }

    /// `blob` read [`CHUNK`] bytes at a time into its run, `progress` told after each.
    fn read(
        reader: &FileReaderSync,
        blob: &Blob,
        name: String,
        progress: impl Fn(f64),
    ) -> Result<Side, String> {
        let size = blob.size();
        let mut log = LogReader::new();
        let mut at = 0.0;
        while at < size {
            let end = (at + CHUNK).min(size);
            let buf = blob
                .slice_with_f64_and_f64(at, end)
                .and_then(|s| reader.read_as_array_buffer(&s))
                .map_err(|e| format!("cannot read {name}: {}", err(&e)))?;
            log.feed(&Uint8Array::new(&buf).to_vec());
            at = end;
            progress(at);
        }
        Ok(log.finish(name))
    }
}
