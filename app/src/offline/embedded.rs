//! The loader of an exported file's rows (`hiveterm export`; its facts are
//! [`crate::offline::export`]'s): the embedded envelopes read chunk by chunk and handed to
//! the offline log as [`ReaderEvent::Rows`], as the worker's would be.

use js_sys::{Function, Promise, Reflect, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::browser::now_ms;
use crate::offline::export::{Envelopes, Meta, export};
use crate::offline::log_file::LogFile;
use crate::offline::progress::ReaderEvent;

/// How often rows are handed to the view while the data is read (ms).
const BATCH_MS: f64 = 150.0;

/// Shows the export's rows in `log`; false when this page is not an export.
pub fn load(log: LogFile) -> bool {
    let Some(ex) = export() else { return false };
    let meta = Reflect::get(&ex, &"meta".into()).ok();
    // The summary as the worker sends it: the JSON of `hiveterm summary --json`.
    let summary = meta
        .as_ref()
        .and_then(|m| Reflect::get(m, &"summary".into()).ok())
        .filter(JsValue::is_object)
        .and_then(|s| js_sys::JSON::stringify(&s).ok())
        .and_then(|s| s.as_string());
    let meta = meta
        .and_then(|m| js_sys::JSON::stringify(&m).ok())
        .and_then(|s| s.as_string())
        .and_then(|s| Meta::parse(&s))
        .unwrap_or_default();
    let Some(next) = Reflect::get(&ex, &"next".into())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
    else {
        return false;
    };
    log.open_embedded(&meta.title, meta.bytes, meta.notes);
    leptos::task::spawn_local(read(log, ex, next, (meta.bytes, meta.lines), summary));
    true
}

/// Reads the export's data (`total` bytes of envelopes, of a log of `lines` lines).
async fn read(
    log: LogFile,
    ex: JsValue,
    next: Function,
    (total, lines): (f64, u64),
    summary: Option<String>,
) {
    let mut parser = Envelopes::default();
    let (mut read, mut envs, mut sent, mut last) = (0.0, Vec::new(), false, now_ms());
    let rows = |envs, read, done| ReaderEvent::Rows {
        envs,
        read,
        total,
        lines,
        done,
        // The whole log's, computed by the exporter: the header shows it from the start.
        summary: summary.clone(),
        // An export carries its rows whole: no body is left in a file.
        lazy: Vec::new(),
        phases: Vec::new(),
    };
    loop {
        let chunk = match next.call0(&ex).map(|p| JsFuture::from(Promise::from(p))) {
            Ok(f) => f.await,
            Err(e) => Err(e),
        };
        let chunk = match chunk {
            Ok(c) if c.is_null() || c.is_undefined() => break,
            Ok(c) => c.unchecked_into::<Uint8Array>().to_vec(),
            Err(e) => {
                let why = e.as_string().unwrap_or_else(|| format!("{e:?}"));
                log.on_worker(ReaderEvent::Error(format!("cannot read the export: {why}")));
                return;
            }
        };
        read += chunk.len() as f64;
        envs.extend(parser.push(&chunk));
        // The first rows at once, then batches: each batch is one update of the view.
        if !envs.is_empty() && (!sent || now_ms() - last > BATCH_MS) {
            log.on_worker(rows(std::mem::take(&mut envs), read, false));
            (sent, last) = (true, now_ms());
        }
    }
    envs.extend(parser.finish());
    log.on_worker(rows(envs, read, true));
}

/// Every byte of the export's data, read to its end (a comparison's file: its answer).
pub async fn read_all() -> Result<Vec<u8>, String> {
    let ex = export().ok_or("this page is not an exported file")?;
    let next = Reflect::get(&ex, &"next".into())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or("the exported file has no data")?;
    let mut out = Vec::new();
    loop {
        let chunk = match next.call0(&ex).map(|p| JsFuture::from(Promise::from(p))) {
            Ok(f) => f.await,
            Err(e) => Err(e),
        };
        match chunk {
            Ok(c) if c.is_null() || c.is_undefined() => return Ok(out),
            Ok(c) => out.extend(c.unchecked_into::<Uint8Array>().to_vec()),
            Err(e) => {
                let why = e.as_string().unwrap_or_else(|| format!("{e:?}"));
                return Err(format!("cannot read the export: {why}"));
            }
        }
    }
}
