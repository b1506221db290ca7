//! An offline log: dropped, picked or pasted, classified in the page's worker, kept for a
//! reload of the tab; or the rows an exported file carries.
//!
//! - [`log_file`]: an offline log opened, read, kept, reopened, closed; it owns the
//!   worker's [`reader::Reader`] and the [`bodies::BodySource`].
//! - [`session`]: several files opened together as one session: which is the main log,
//!   the order, the subagents' ids (pure).
//! - [`progress`]: the reading's progress and the updates the worker brings (pure).
//! - [`reader`]: the page's side of the classifier worker (typed messages of
//!   [`crate::worker::protocol`]).
//! - [`bodies`]: bodies left in the file, asked again of the worker, cached (the
//!   bookkeeping pure).
//! - [`keep`]: the copy kept in IndexedDB for a reload of the tab (its pruning is pure).
//! - [`export`]: the facts of the page inside a one-file export (is it one, its workers'
//!   URLs, its meta, its envelopes; pure parts tested natively); [`embedded`]: the loader
//!   that shows its rows as an offline log.
//! - [`compare`]: two logs compared in the browser: the page's side of the compare worker.

pub mod bodies;
pub mod compare;
pub mod embedded;
pub mod export;
pub mod keep;
pub mod log_file;
pub mod progress;
pub mod reader;
pub mod session;
