//! The hiveterm server: an agent session's raw events in SQLite, served as terminal rows.
//!
//! Events arrive from a running agent (`hiveterm run`), a followed log file (`--follow`),
//! standard input (`--stdin`) or an agent host (`POST /api/sessions/{id}/events`). Each is
//! stored once, byte for byte and unclassified, with its session, `seq` and `ts`. They leave
//! classified — the same [`classifier::classify`] on every path — as `TermEnvelope` JSON: a
//! live SSE tail, history pages for scrollback, and the header's badges. The HTTP API is
//! documented in `docs/API.md` (and in `api`).
//!
//! This crate does not classify (that is the `classifier` crate), does not render the page
//! (that is `app/`, whose built files it serves), and keeps no state but the database and
//! what can be rebuilt from it.
//!
//! Contents, in the order data flows:
//! - [`ingest`]: sources → raw lines ([`ingest::run_command`], [`ingest::follow`],
//!   [`ingest::stdin`], [`ingest::demo`]; POST lives in `api`).
//! - [`store`]: the database behind one handle, [`Store`]; a backend per module (SQLite:
//!   schema and self-migration, the one writer thread with group commit, a pool of readers).
//! - `fold`: the one per-session fold — each stored event, in seq order, to its envelope
//!   and the session's next state (classifier context, badges, partial message) — used by
//!   the writer, by a session loaded from a checkpoint, and by the derived-table rebuild.
//! - `badges`: events → the header's badges (`/state`), part of the fold.
//! - [`index`]: the sessions' index — what each session's log says of it (agent, project,
//!   title, status, turns, errors, tokens, cost, first error), columns of the sessions table
//!   set from the fold by the writers; `GET /api/sessions`' filters, sorts and keyset cursor,
//!   and usage (`GET /api/usage`, `hiveterm usage`).
//! - `hub`: per-session live state and the broadcast of committed, pre-rendered frames;
//!   `feed`: the sessions whose index entries changed, sent to the index's one live stream
//!   (`GET /api/index/stream`, at most once per session per 250 ms).
//! - `api` and `sse`: the HTTP handlers (their query strings typed in `query`); `web`: the
//!   page's files and its CSP.
//! - [`notes`]: notes on a session's rows — the rules, the owner's and a comment link's
//!   readers' HTTP handlers; stored beside the session ([`store`]).
//! - [`search`]: search across every session (`GET /api/search`, `hiveterm search`): a
//!   substring of rows' summaries and bodies, through an index the store keeps beside the
//!   stored envelopes (derived, rebuilt with them).
//! - [`mcp`]: `hiveterm mcp`, a Model Context Protocol server on stdio over the store: the
//!   search, index, summary, history and notes reads, for a coding agent, redacted.
//! - [`compare`]: two runs side by side, what `hiveterm diff` and the compare page's API
//!   (`GET /api/compare/{a}/{b}`) share.
//! - [`share`]: share links — making them, and the read-only `/p/<token>` page and reads;
//!   [`redacted`]: a redacted share's rows, folded from redacted raw events.
//! - [`session_files`]: a session's subagents' files beside its main log (`classify`,
//!   `export`, `--watch`).
//! - [`serve`]: options, binding, auth, shutdown — what `hiveterm serve`/`run` call.
//! - [`state`]: [`Config`] and [`AppState`], what every handler is given; [`error`]:
//!   [`AppError`], what a handler answers when it fails, and the session id's shape; `secret`:
//!   the one constant-time comparison; `clock`: [`now`].
//! - this file: [`app`], the router of the whole HTTP app, and the crate's re-exports.
//!
//! # Architecture notes
//!
//! **One writer.** All SQLite writes go through one thread owning the write connection. It
//! takes every pending command at once and commits them in one transaction (group commit), then
//! — only after the commit — publishes the new frames to the session's hub and answers the
//! callers. So an acknowledged event is durable, and nothing is ever sent that is not stored.
//! SQLite runs in WAL mode with `synchronous=FULL`; readers use their own connections.
//!
//! **Full-context classification everywhere.** A `tool_result` is shown according to its
//! `tool_use` (a `recv` result as markdown), which may be thousands of events earlier. The
//! [`classifier::ClassifyCtx`] carries that correlation. The writer keeps each session's
//! `fold::SessionFold` after its newest event and folds each new event into it, once, in the
//! transaction that stores it: the raw event goes to `events`, its envelope (if it has rows) to
//! `rendered`, and every `checkpoint_every` events (256) or 8 MiB of events the fold to `checkpoints`. The live
//! tail, an SSE client resuming after `Last-Event-ID` and every history page all serve those
//! same envelopes, so an event gives the same rows on every path, however far back its call
//! was. The raw events stay the record: `rendered`, `checkpoints` and the search index (each
//! stored envelope's rows, written with it; see [`search`]) are derived, and
//! `build.rs` fingerprints the classifier's source and the fold's; when they (or this crate's
//! version) change, both are dropped on open and derived again by replaying the raw events through the same
//! fold, so rows always come from the classifier being run. A session resumed after a restart
//! starts from its newest checkpoint and replays the rest.
//!
//! **Live fan-out.** Each commit becomes `hub::Batch`es (one, or pieces of at most 128 KiB)
//! holding the SSE bytes of its frames, rendered once and shared by every client (`Bytes`
//! clones). A client subscribes and
//! reads the head under the hub's lock (publishing happens under the same lock), so it
//! backfills `(after, head]` from the database and then takes batches after `head` from the
//! broadcast, with nothing lost or repeated; a client that falls behind the broadcast backfills
//! from the database again.
//!
//! **Partial messages.** The fold also carries a [`classifier::Preview`] (the message the agent
//! is streaming, `stream_event` lines, which have no rows); a batch that changes it ends with
//! one transient `preview` frame (no `id:`, never stored), and a client joining mid-message
//! gets the current one after its backlog.

pub(crate) mod api;
pub(crate) mod badges;
mod clock;
pub mod compare;
mod cuts;
pub mod error;
pub mod export;
pub(crate) mod feed;
pub(crate) mod fold;
pub mod forward;
pub mod guard;
pub(crate) mod hub;
pub mod index;
pub mod ingest;
pub mod mcp;
pub mod notes;
pub mod page;
pub mod post;
pub mod prices;
pub(crate) mod query;
pub mod redacted;
pub mod search;
pub(crate) mod secret;
pub mod serve;
pub mod session_files;
pub mod share;
pub(crate) mod sse;
pub mod state;
pub mod store;
pub(crate) mod web;

use axum::Router;

pub use crate::clock::now;
pub use crate::error::{AppError, valid_session_id};
pub use crate::hub::MAX_HUBS;
pub use crate::hub::MAX_INLINE_BATCH;
pub use crate::state::{AppState, Config, request_limit_for};
pub use crate::store::Store;
pub use crate::web::CSP;

/// The whole HTTP app: `/api/…` (see `api`), share links under `/p/` (see [`share`]) and the
/// page (see `web`), behind the perimeter ([`guard`]).
pub fn app(state: AppState) -> Router {
    Router::new()
        .nest(
            "/api",
            api::router(
                state.clone(),
                share::api::routes()
                    .merge(notes::api::routes())
                    .merge(search::routes()),
            ),
        )
        .merge(share::view::router())
        .merge(web::router())
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::guard,
        ))
        .with_state(state)
}
