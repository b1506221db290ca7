//! Markdown bodies: rendered in the markdown worker (its own wasm, `src/bin/mdworker.rs`),
//! never in the page's.
//!
//! - [`render`]: the page's side of the markdown worker: one request per body, held until
//!   it listens, answers cached (pure bookkeeping, tested natively; the worker beneath).
//! - [`view`]: the one place HTML enters the DOM (`scripts/check-no-inner-html.sh`).

pub mod render;
pub mod view;
