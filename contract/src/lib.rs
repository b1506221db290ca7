//! The contract between the `hiveterm` server and its page: one serde type for every JSON
//! answer of the HTTP API, every server-sent event's frame, a share and a note
//! ([docs/API.md](../../docs/API.md) describes these types). The server writes them, the page
//! (`app/`), the one-file export (`onefile/`) and `hiveterm mcp` read them, so a field renamed
//! on one side is a compile error on the other — as the page's worker protocol
//! (`app/src/worker/protocol/`) already is. Pure data: no I/O, compiled natively and to
//! wasm32. The rows themselves (`TermEnvelope`, `TermMsg`) and the postmortem `Summary` are
//! the classifier's, reused here.
//!
//! Contents:
//!
//! - [`agent`]: the agents a session's log can be of ([`agent::AGENTS`]).
//! - [`index`]: the sessions' index, `GET /api/sessions` and the index stream's `session`
//!   frame: [`SessionEntry`], [`Tokens`], [`Sort`], [`Status`], [`CostSource`],
//!   [`SessionsPage`].
//! - [`history`]: a page of a session's envelopes, `GET …/events/history`: [`HistoryPage`].
//! - [`state`]: a session's header badges, `GET …/state` and the `state` frame: [`State`],
//!   [`Session`], [`Badges`], [`state::Turn`].
//! - [`share`]: share links, their listing, the answer that makes one, what a link shows of
//!   itself, the redactions to review: [`share::Listed`], [`share::Created`],
//!   [`share::ShareInfo`], [`share::Report`].
//! - [`search`]: `GET /api/search`: [`Hit`], [`HitsPage`].
//! - [`note`]: a note on a row range, a page of them, a stream's `notes` frame: [`Note`],
//!   [`Reader`], [`NotesPage`], [`NotesFrame`].
//! - [`usage`]: tokens and cost per group of sessions, `GET /api/usage`: [`usage::Usage`],
//!   [`usage::UsageGroup`], [`usage::By`].
//! - [`sse`]: the live stream's `preview` frame: [`sse::Preview`].
//! - [`post`]: what a POST of events answers and a session's newest `Idempotency-Key`:
//!   [`post::Posted`], [`post::LastKey`].
//! - [`compare`]: two runs side by side, `GET /api/compare/{a}/{b}` and `hiveterm diff
//!   --json`: [`compare::Comparison`], [`compare::Report`].
//! - [`error`]: the body of every non-2xx `/api` answer: [`ErrorBody`].

pub mod agent;
pub mod compare;
pub mod error;
pub mod history;
pub mod index;
pub mod note;
pub mod post;
pub mod search;
pub mod share;
pub mod sse;
pub mod state;
pub mod usage;

pub use crate::agent::AGENTS;
pub use crate::error::ErrorBody;
pub use crate::history::HistoryPage;
pub use crate::index::{CostSource, SessionEntry, SessionsPage, Sort, Status, Tokens};
pub use crate::note::{Note, NotesFrame, NotesPage, Reader};
pub use crate::search::{Hit, HitsPage};
pub use crate::state::{Badges, Session, State};

#[cfg(test)]
mod tests;
