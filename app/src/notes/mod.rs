//! Notes on a postmortem: a row or a range of rows annotated with markdown, by whoever reads
//! the log — kept by the server for its sessions and share links, in the tab for an offline
//! log, in the file for an export (read-only there).
//!
//! - [`model`]: the notes, purely (ordered, under which row, stepping, a draft's checks),
//!   tested natively.
//! - [`handle`]: where they are read and written ([`handle::NotesHandle`], in context).
//! - [`view`]: the notes under a row, the editor, the summary header's "N notes".

pub mod handle;
pub mod model;
pub mod view;
