//! The workers' side: a dropped file (or pasted text) classified off the main thread, and
//! markdown bodies rendered there. Each worker is its own wasm: the classifier worker
//! (`src/bin/worker.rs`, [`run::run`]) carries the classifier and the `onefile` crate, the
//! compare worker (`src/bin/cmpworker.rs`, [`compare::run`]) the classifier and the alignment,
//! the markdown worker (`src/bin/mdworker.rs`, [`markdown::run`]) the renderer; none carries
//! Leptos, and the page's wasm carries neither.
//!
//! The page may import one module of this folder: [`protocol`], the messages both sides
//! send (typed, one encoder and decoder) and the rows' flat layout. The rest is the
//! workers' own:
//! - [`read_ahead`]: which byte ranges of a log are read, in order, and how far ahead (pure).
//! - [`classify`]: the log classified chunk by chunk, checkpoints every 4 MiB, a body read
//!   again from the nearest one (pure).
//! - [`trigrams`] / [`body_search`]: a search of the bodies that classifies again only the
//!   spans whose bodies can hold the query (pure).
//! - [`compare`]: the compare worker's loop (`src/bin/cmpworker.rs`): two dropped logs
//!   classified and aligned, the compare page's answer made (issue 48).
//! - [`export`]: "save as one file" made in a worker by the `onefile` crate.
//! - [`unzip`]: a zstd-compressed log decompressed before it is read (wasm).
//! - `job` (wasm): the log's stream read ahead into buffers that go round, each chunk
//!   classified and its rows posted; `range_read` (wasm): a range read again for the search
//!   into one reused buffer; [`run`]: the classifier worker's loop;
//!   [`markdown`]: the markdown worker's.

pub mod body_search;
pub mod classify;
pub mod compare;
pub mod export;
#[cfg(target_arch = "wasm32")]
pub mod job;
pub mod markdown;
pub mod protocol;
#[cfg(target_arch = "wasm32")]
pub mod range_read;
pub mod read_ahead;
pub mod run;
pub mod trigrams;
pub mod unzip;
