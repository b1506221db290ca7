//! Sources of events other than `POST`: a command's output, followed files, standard input,
//! and the bundled demo logs. Each turns bytes into lines with [`LineReader`] and stores them
//! through [`Store::append`], so every source gives the same stored events as a POST of the
//! same lines would.
//!
//! - this file: `--stdin` ([`stdin`]) and `--demo` ([`demo`])
//! - `lines`: the one chunked read loop of every source, and the harness lines sources add
//! - `run`: a command's output ([`run_command`]); `follow`: a followed file ([`follow`]);
//!   `watch`: every agent log under some folders, one session each ([`watch`]); `mark`: what
//!   a followed file's bytes before its stored position were (a file rewritten in place);
//!   `opencode`: OpenCode's SQLite store, a session each ([`opencode::watch_opencode`])

pub(crate) mod follow;
mod follow_zst;
mod lines;
mod mark;
pub mod opencode;
mod run;
mod unzst;
mod watch;

use classifier::LineReader;

use crate::store::{Append, RawLine, Store, StoreError};

pub use follow::{follow, follow_session_id, followable};
use lines::pump;
pub use lines::{FOLLOW_POLL, event_line, note_line};
pub use run::{Finished, RunSink, run_command};
pub use watch::{IDLE, agent_folders, follow_subagents, watch, watch_session_id};

/// Reads standard input into `session` until it ends, then ends the session.
pub async fn stdin(store: &Store, session: &str, max_line: usize) -> Result<(), StoreError> {
    pump(
        store,
        session,
        tokio::io::stdin(),
        max_line,
        RawLine::from_line,
    )
    .await?;
    store.end_session(session).await.map(drop)
}

/// The bundled demo logs: name, title, bytes.
pub const DEMOS: &[(&str, &str, &[u8])] = &[
    (
        "demo-file_tools",
        "demo: file tools (Claude Code stream-json)",
        include_bytes!("../../../fixtures/claude-code-2.1.332/file_tools.stream.jsonl"),
    ),
    (
        "demo-mcp_tools",
        "demo: MCP tools (hyperhive event log)",
        include_bytes!("../../../fixtures/hyperhive/mcp_tools.events.jsonl"),
    ),
    (
        "demo-tool_errors",
        "demo: tool errors (Claude Code stream-json)",
        include_bytes!("../../../fixtures/claude-code-2.1.332/tool_errors.stream.jsonl"),
    ),
    (
        "demo-basic_markdown",
        "demo: markdown (Claude Code transcript)",
        include_bytes!("../../../fixtures/claude-code-2.1.332/basic_markdown.transcript.jsonl"),
    ),
    (
        "demo-api_fatal_400",
        "demo: API error (hyperhive event log)",
        include_bytes!("../../../fixtures/hyperhive/api_fatal_400.events.jsonl"),
    ),
];

/// Loads the demo logs as ended sessions, each once.
pub async fn demo(store: &Store, max_line: usize) -> Result<(), StoreError> {
    for (id, title, bytes) in DEMOS {
        if store.hub(id).await?.is_some() {
            continue;
        }
        let mut reader = LineReader::with_limit(max_line);
        let mut lines = Vec::new();
        reader.push(bytes, |line| lines.push(RawLine::from_line(line)));
        reader.finish(|line| lines.push(RawLine::from_line(line)));
        store
            .append(Append {
                session: (*id).to_owned(),
                lines,
                create: Some(((*title).to_owned(), "demo".to_owned())),
                follow: None,
                source: None,
                key: None,
            })
            .await?;
        store.end_session(id).await?;
    }
    Ok(())
}
