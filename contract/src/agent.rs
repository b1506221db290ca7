//! The agents a session's log can be of: the names the postmortem summary gives (`agent` of
//! `classifier::Summary`) and the sessions' index answers and filters by.

/// Every agent the classifier recognises, in the start page's filter order (docs/API.md,
/// `GET /api/sessions`: `agent`).
pub const AGENTS: [&str; 7] = [
    "claude-code",
    "codex",
    "gemini",
    "opencode",
    "qwen",
    "copilot",
    "hyperhive",
];
