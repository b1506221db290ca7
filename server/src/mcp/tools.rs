//! The tools `tools/list` answers: a name, a description an agent can choose by, and the JSON
//! schema of the arguments. Every tool only reads.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{Value, json};

/// The tools' names, in the order they are listed.
pub(crate) const NAMES: [&str; 5] = [
    "search",
    "list_sessions",
    "session_summary",
    "session_rows",
    "notes",
];

/// Every tool.
pub(crate) fn all() -> Vec<Tool> {
    let max_bytes = json!({"type": "integer", "minimum": super::bound::MIN_BYTES,
        "maximum": super::bound::MAX_BYTES,
        "description": "Largest answer in bytes (default 65536); a longer one is cut at an \
            item and its `next` goes on from there."});
    let session = json!({"type": "string", "description": "A session id (as listed)."});
    vec![
        tool(
            "search",
            "Search every stored session's rows (tool calls, results, errors, prompts, answers) \
             for an exact text: a substring, 3+ characters, ASCII case-insensitive — code \
             search, not words (`ENOENT`, `rm -rf`, a path, a hash). Newest first; each hit \
             gives the session, the row's seq, its summary and a snippet. Use it to find \
             whether an error happened before and in which session.",
            json!({
                "query": {"type": "string", "minLength": 3, "maxLength": 256,
                          "description": "The text looked for, as written."},
                "session": {"type": "string", "description": "Only this session's rows."},
                "agent": {"type": "string",
                          "description": "Only sessions of this agent: claude-code, codex, gemini or hyperhive."},
                "project": {"type": "string",
                            "description": "Only sessions of this project (its working directory, exactly)."},
                "tool": {"type": "string",
                         "description": "Only calls of this tool, as the row names it (Bash, Read, Edit…)."},
                "since": {"type": "string",
                          "description": "Only rows from this time on: a day YYYY-MM-DD, an RFC 3339 time or unix seconds."},
                "level": {"type": "string", "enum": ["debug", "info", "warn", "error"],
                          "description": "Only rows of this level."},
                "limit": {"type": "integer", "minimum": 1, "maximum": 500,
                          "description": "Most hits (default 50)."},
                "cursor": {"type": "string", "description": "The `next` of the previous answer."},
                "max_bytes": max_bytes,
            }),
            &["query"],
        ),
        tool(
            "list_sessions",
            "List the stored sessions (newest first, or by cost or errors): id, title, agent, \
             project, model, status (live, in flight, ok, failed, interrupted), turns, errors \
             and the seq of the first error, tokens, cost (cost_source: stated by the log, \
             estimated from a price table, or unknown with unpriced_models named), when it \
             started and ended.",
            json!({
                "agent": {"type": "string",
                          "description": "Only this agent's: claude-code, codex, gemini or hyperhive."},
                "project": {"type": "string", "description": "Only this project's (its working directory, exactly)."},
                "status": {"type": "string", "enum": ["live", "in flight", "ok", "failed", "interrupted"]},
                "q": {"type": "string", "description": "Only sessions whose title holds this text."},
                "sort": {"type": "string", "enum": ["newest", "cost", "errors"]},
                "limit": {"type": "integer", "minimum": 1, "maximum": 1000,
                          "description": "Most sessions (default 50)."},
                "cursor": {"type": "string", "description": "The `next` of the previous answer."},
                "max_bytes": max_bytes,
            }),
            &[],
        ),
        tool(
            "session_summary",
            "How one session went, for a postmortem: its turns and how they ended, errors and \
             the first one (with its seq), tool calls by tool, duration, tokens, cost \
             (cost_source: stated by the log, estimated from a price table, or unknown), \
             models, files changed.",
            json!({"session": session}),
            &["session"],
        ),
        tool(
            "session_rows",
            "Read one session's rows between two seqs, oldest first: each event (`seq`, `ts`) \
             with its rows (icon, level, summary, body). Bodies longer than `max_body` bytes are \
             cut. Use it after `search` or `session_summary` to read around a seq.",
            json!({
                "session": session,
                "from": {"type": "integer", "minimum": 1, "description": "First seq (default 1)."},
                "to": {"type": "integer", "minimum": 1, "description": "Last seq (default: the newest)."},
                "limit": {"type": "integer", "minimum": 1, "maximum": 1000,
                          "description": "Most events (default 100)."},
                "max_body": {"type": "integer", "minimum": 0,
                             "description": "Bytes of a row's body kept (default 2000; 0: none)."},
                "max_bytes": max_bytes,
            }),
            &["session"],
        ),
        tool(
            "notes",
            "The notes people wrote on a session's rows (each on a seq range `from`-`to`, with \
             its text and author), ordered by `from`.",
            json!({
                "session": session,
                "cursor": {"type": "string", "description": "The `next` of the previous answer."},
                "max_bytes": max_bytes,
            }),
            &["session"],
        ),
    ]
}

fn tool(name: &'static str, description: &'static str, props: Value, required: &[&str]) -> Tool {
    let mut schema = JsonObject::new();
    schema.insert("type".into(), json!("object"));
    schema.insert("properties".into(), props);
    schema.insert("required".into(), json!(required));
    schema.insert("additionalProperties".into(), json!(false));
    Tool::new(name, description, Arc::new(schema)).with_annotations(
        ToolAnnotations::new()
            .read_only(true)
            .destructive(false)
            .idempotent(true)
            .open_world(false),
    )
}
