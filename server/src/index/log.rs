//! What a session's log says of it beyond its summary: its project, its title (the agent's
//! own title record, else the first prompt), how its last turn ended ([`IndexFold`], part of
//! the session's fold); and the title rule.

use classifier::{LiveEvent, LogEvent, RowKind, TermEnvelope, row_kind};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Longest title made from a prompt, in characters (then `…`).
pub const TITLE_CHARS: usize = 100;

/// The part of a session's fold the index needs beyond the summary: the project, the title
/// record or first prompt, and how the last turn ended.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct IndexFold {
    /// The first `cwd` the log gives.
    pub project: Option<String>,
    /// The agent's own title record: its rank (higher wins, a later one of the same rank
    /// replaces) and the title.
    pub record: Option<(u8, String)>,
    /// The first prompt, shortened to one line.
    pub prompt: Option<String>,
    /// A turn is open.
    pub in_flight: bool,
    /// How the last turn ended: `ok`, `failed`, `interrupted`.
    pub last_end: Option<String>,
}

/// Longest project path or title record kept, in characters.
const MAX_FIELD_CHARS: usize = MAX_TEXT_CHARS;

/// Longest project path or title in the index, in characters (the fold keeps at most
/// this of a `cwd` or a title record; a client's title is stored at most 1 KiB).
pub const MAX_TEXT_CHARS: usize = 1000;

impl IndexFold {
    /// Folds in one event and the envelope it classified to.
    pub fn add(&mut self, event: &LogEvent, env: &TermEnvelope) {
        match &event.event {
            LiveEvent::Stream { value } => self.claude(value),
            LiveEvent::Codex { value } => self.codex(value),
            // Qwen Code's session records and `-o json` array entries name the `cwd` as
            // Claude Code's do; OpenCode's documents their session's `directory`; Copilot
            // CLI's `session.start`/`session.resume` their `context.cwd`.
            LiveEvent::Qwen { value } => self.project(value.get("cwd")),
            LiveEvent::OpenCode { value } => {
                self.project(value.get("info").and_then(|i| i.get("directory")));
            }
            LiveEvent::Copilot { value } => {
                let data = value.get("data").and_then(|d| d.get("context"));
                self.project(data.and_then(|c| c.get("cwd")));
            }
            _ => {}
        }
        if env.parent.is_some() {
            return;
        }
        for msg in &env.msgs {
            let kind = row_kind(msg);
            match kind {
                RowKind::TurnStart => self.in_flight = true,
                RowKind::TurnOk | RowKind::TurnFail | RowKind::Interrupted => {
                    self.in_flight = false;
                    self.last_end = Some(
                        match kind {
                            RowKind::TurnOk => "ok",
                            RowKind::TurnFail => "failed",
                            _ => "interrupted",
                        }
                        .to_owned(),
                    );
                }
                _ => {}
            }
            let prompt_row = kind == RowKind::TurnStart
                || (msg.icon.is_none() && msg.summary.starts_with("prompt ← "));
            if self.prompt.is_none()
                && prompt_row
                && let Some(body) = msg.body.as_deref()
            {
                self.prompt = prompt_title(body);
            }
        }
    }

    fn project(&mut self, cwd: Option<&Value>) {
        if self.project.is_none()
            && let Some(cwd) = cwd.and_then(Value::as_str).filter(|c| !c.trim().is_empty())
        {
            self.project = Some(cut(cwd.trim(), MAX_FIELD_CHARS));
        }
    }

    fn record(&mut self, rank: u8, title: Option<&Value>) {
        let Some(title) = title.and_then(Value::as_str).and_then(one_line) else {
            return;
        };
        if self.record.as_ref().is_none_or(|(r, _)| rank >= *r) {
            self.record = Some((rank, cut(&title, MAX_FIELD_CHARS)));
        }
    }

    fn claude(&mut self, value: &Value) {
        self.project(value.get("cwd"));
        match value.get("type").and_then(Value::as_str) {
            Some("custom-title") => self.record(3, value.get("customTitle").or(value.get("title"))),
            Some("ai-title") => self.record(2, value.get("aiTitle").or(value.get("title"))),
            Some("summary") => self.record(1, value.get("summary")),
            _ => {}
        }
    }

    fn codex(&mut self, value: &Value) {
        let payload = value.get("payload");
        match value.get("type").and_then(Value::as_str) {
            Some("session_meta" | "turn_context") => {
                self.project(payload.and_then(|p| p.get("cwd")));
            }
            Some("event_msg")
                if payload.and_then(|p| p.get("type")).and_then(Value::as_str)
                    == Some("thread_name_updated") =>
            {
                self.record(3, payload.and_then(|p| p.get("thread_name")));
            }
            _ => {}
        }
    }
}

/// `s` cut to `max` characters, with `…`.
pub(crate) fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_owned(),
        Some((at, _)) => format!("{}…", &s[..at]),
    }
}

/// The first non-blank line of `text`, its whitespace collapsed; `None` when there is none.
fn one_line(text: &str) -> Option<String> {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    Some(line.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// A prompt as a title: its first line, at most [`TITLE_CHARS`] characters; `None` for a
/// prompt that is a client's injected block (`<environment_context>`, `<user_instructions>`,
/// a slash command's `<command-name>`…).
pub fn prompt_title(body: &str) -> Option<String> {
    let trimmed = body.trim_start();
    if let Some(rest) = trimmed.strip_prefix('<')
        && rest
            .split_once('>')
            .is_some_and(|(tag, _)| !tag.is_empty() && tag.chars().all(is_tag_char))
    {
        return None;
    }
    one_line(trimmed).map(|l| cut(&l, TITLE_CHARS))
}

fn is_tag_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ':' | '/')
}

/// Whether a client's title says nothing of the session: empty, its id, `standard input`, a
/// path or a file name (`--follow` titles a session with its path).
pub fn is_placeholder(title: &str, id: &str) -> bool {
    let t = title.trim();
    if t.is_empty() || t == id || t == "standard input" {
        return true;
    }
    let pathish = !t.contains(char::is_whitespace) && (t.contains('/') || t.contains('\\'));
    let file = !t.contains(char::is_whitespace)
        && [".jsonl", ".json", ".log", ".zst", ".txt", ".ndjson"]
            .iter()
            .any(|ext| t.to_ascii_lowercase().ends_with(ext));
    pathish || file
}

/// The title a session shows: its log's title record, else the title its client gave unless
/// that is a placeholder ([`is_placeholder`]), then the log's first prompt.
pub fn title(given: &str, id: &str, fold: &IndexFold) -> String {
    if let Some((_, record)) = &fold.record {
        return record.clone();
    }
    match &fold.prompt {
        Some(prompt) if is_placeholder(given, id) => prompt.clone(),
        _ => given.to_owned(),
    }
}
