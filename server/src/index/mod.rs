//! The sessions' index: what each session's log says of it — agent and version, project (the
//! cwd the log gives), model, the log's own start and end, its title, how it ended (its
//! status), turns, errors, tokens, cost and first error — kept as columns of the `sessions`
//! table, the same on both backends (`GET /api/sessions`, `GET /api/usage`, `hiveterm usage`).
//!
//! Where each comes from:
//! - agent, version, model, turns, errors, first error, tokens, cost, the log's start and
//!   end: the session's postmortem summary fold ([`classifier::SummaryFold`], what
//!   `hiveterm summary --json` says of the same log); the model is the first one the log
//!   names (Claude Code's `init`, Codex's `turn_context`), else the model badge;
//! - project, title and how the last turn ended: [`IndexFold`], part of the session's fold
//!   (`crate::fold`) and checkpointed with it. The project is the first `cwd` the log gives
//!   (Claude Code's lines and `init`, Codex's `session_meta` and `turn_context`); Gemini and
//!   hyperhive logs give none (`null`).
//!
//! **Title.** The agent's own title record wins: Claude Code's `custom-title` (the user named
//! it), then `ai-title`, then `summary` lines; Codex's `thread_name_updated` event. Else the
//! session keeps the title its client gave when it made it (`hiveterm run --title`,
//! `POST …/events?title=`) — unless that title is only a placeholder: the session's id, a path
//! or file name (`--follow` titles a session with its path), `standard input`, or empty; then
//! the log's first prompt, one line of at most [`TITLE_CHARS`] characters (a prompt that opens
//! with an injected `<environment_context>`-style block is not one). The title the client gave
//! is kept (`given_title`), so the rule is applied again whenever the log says more, and by the
//! derived-table rebuild.
//!
//! **Status** ([`status`], and [`STATUS_SQL`] for filters): `in flight` while a turn is open on
//! a live session; an ended session whose turn was still open was `interrupted`; else how the
//! last turn ended (`ok`, `failed`, `interrupted`); a session with no ended turn is `live`
//! while it is live, and once ended `failed` if it has error rows, else `ok`. What the log
//! says is stored (`outcome`: `in flight`, `ok`, `failed`, `interrupted` or null), the rest
//! read with the session's `ended`, so ending a session needs no other write.
//!
//! The writers update the columns from the fold after each append, in its transaction, when
//! [`Index::of`] changed; the derived-table rebuild (`crate::store::derived`) sets them again
//!
//! - [`log`]: what the log says beyond its summary ([`IndexFold`]) and the title rule;
//! - [`row`]: the columns from a session's fold ([`Index`]), its status, a listed [`Entry`];
//! - [`query`]: a page of the index as SQL (filters, sorts, keyset cursor), the columns' update;
//! - [`usage`]: tokens and cost per group;
//! - [`api`]: the HTTP handlers of `GET /api/sessions` and `GET /api/usage`;
//! - [`stream`]: the handler of `GET /api/index/stream`, the index live: one SSE stream of
//!   the changed entries (which sessions changed, and the sending: `crate::feed`).

pub mod api;
pub mod log;
pub mod query;
pub mod row;
pub mod stream;
pub mod usage;

pub use log::{IndexFold, MAX_TEXT_CHARS, TITLE_CHARS, is_placeholder, prompt_title, title};
pub use query::*;
pub use row::*;
pub use usage::*;

#[cfg(test)]
mod tests;
