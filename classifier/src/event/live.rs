//! [`LiveEvent`] and [`LogEvent`]: what one line of a log means, the vocabulary every agent's
//! reading gives and the rows are made from. Types only, depending on none of the code that
//! reads lines (`crate::formats` makes them; the classifier's modules name them here).

use serde::Serialize;
use serde_json::Value;

/// One event of an agent session, as stored and classified.
///
/// Serialises to the hyperhive event-log shape (`{"kind": …}`), without `ts`, which lives
/// beside it in [`LogEvent`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LiveEvent {
    /// The harness woke the agent: a turn begins, prompted by `from` with `body`.
    TurnStart {
        /// Who prompted the turn (`operator`, an agent name, `user`).
        from: String,
        /// The wake prompt.
        body: String,
    },
    /// The turn ended, successfully or not.
    TurnEnd {
        /// Whether the turn succeeded.
        ok: bool,
        /// Why it failed, or any closing remark.
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    /// A line of harness text: `stderr: …`, `operator: …`, or chatter.
    Note {
        /// The note's text.
        text: String,
    },
    /// One raw Claude Code line (stream-json or transcript), unclassified.
    Stream {
        /// The line's JSON value.
        value: Value,
    },
    /// One raw OpenAI Codex CLI line (`codex exec --json` stdout or a rollout file),
    /// unclassified ([`crate::codex`]).
    Codex {
        /// The line's JSON value.
        value: Value,
    },
    /// A Codex rollout line that gives no row of its own (a token usage record or count, a turn
    /// context, settings, a turn start, a mirror), read typed by the classifier's parse (the
    /// whole parse keeps it a [`LiveEvent::Codex`]; [`crate::codex`]).
    CodexFact {
        /// What it states.
        fact: Box<crate::codex::fact::Fact>,
    },
    /// A `codex exec --json` line whose rows come from its typed fields (not an MCP call, a
    /// search or a plan item), read typed by the classifier's parse (the whole parse keeps it
    /// a [`LiveEvent::Codex`]; [`crate::codex`]).
    CodexExec {
        /// Its fields that are read.
        exec: Box<crate::codex::exec_line::Exec>,
    },
    /// One raw Google Gemini CLI line (`--output-format stream-json` stdout, a chat recording,
    /// or the `-o json` document), unclassified ([`crate::gemini`]).
    Gemini {
        /// The line's JSON value.
        value: Value,
    },
    /// A Google Gemini CLI chat recording's message record (`type` `user`, `gemini`, `info`,
    /// `warning` or `error`), read typed ([`crate::gemini`]): every other Gemini line is a
    /// [`LiveEvent::Gemini`].
    GeminiRecord {
        /// The record's fields that are read.
        record: Box<crate::gemini::typed::Record>,
    },
    /// A Gemini chat recording's metadata line of only a recording's own fields, read typed
    /// by the classifier's parse (the whole parse keeps it a [`LiveEvent::Gemini`]).
    GeminiMeta {
        /// Its fields that are read.
        meta: Box<crate::gemini::typed::Meta>,
    },
    /// A Gemini chat recording's `{"$set": …}` update, read typed by the classifier's parse
    /// (the whole parse keeps it a [`LiveEvent::Gemini`]).
    GeminiUpdate {
        /// Its fields that are read.
        update: Box<crate::gemini::typed::Update>,
    },
    /// A Gemini stream-json answer delta written as the Gemini CLI writes it, known from its
    /// bytes by the classifier's parse (`crate::gemini::typed`; the whole parse keeps it a
    /// [`LiveEvent::Gemini`]).
    GeminiDelta {
        /// The delta's text (its `content`).
        text: String,
    },
    /// A Gemini stream-json `init`, prompt, `tool_use`, `tool_result` or `result` of only the
    /// fields the Gemini CLI writes there, read typed by the classifier's parse
    /// (`crate::gemini::typed`; the whole parse keeps it a [`LiveEvent::Gemini`]).
    GeminiEvent {
        /// Its fields that are read.
        event: Box<crate::gemini::typed::Event>,
    },
    /// One raw OpenCode line (`opencode run --format json` stdout) or `opencode export`
    /// document, unclassified ([`crate::opencode`]).
    OpenCode {
        /// The line's (or the document's) JSON value.
        value: Value,
    },
    /// A Qwen Code line that is not stream-json: a session record or the `-o json` array
    /// ([`crate::qwen`]; its stream-json lines are [`LiveEvent::Stream`]s).
    Qwen {
        /// The line's JSON value.
        value: Value,
    },
    /// One raw GitHub Copilot CLI line (a session event of `--output-format json` stdout or
    /// `events.jsonl`, or the stdout's `result`), unclassified ([`crate::copilot`]).
    Copilot {
        /// The line's JSON value.
        value: Value,
    },
    /// Agent state changed: status (never a row; the header reads it).
    StatusChanged {
        /// The new status.
        status: Value,
    },
    /// Agent state changed: model (never a row).
    ModelChanged {
        /// The new model.
        model: Value,
    },
    /// Agent state changed: effort (never a row).
    EffortChanged {
        /// The new effort.
        effort: Value,
    },
    /// Agent state changed: token usage (never a row).
    TokenUsageChanged {
        /// The new usage.
        usage: Value,
    },
    /// Agent state changed: turn state (never a row).
    TurnStateChanged {
        /// The new turn state.
        state: Value,
    },
    /// Valid JSON of no shape this crate knows (no `kind`/`type`, an unknown `kind`,
    /// a field of the wrong type). Shown as the `!` warn row (`docs/ROWS.md`).
    Unrecognised {
        /// The value as read.
        value: Value,
    },
    /// A line that is not JSON at all (invalid UTF-8, bad syntax, too deep, too long).
    Unreadable {
        /// What was wrong, for a human.
        error: String,
        /// The start of the line, lossily decoded, for a human.
        preview: String,
        /// The whole line, when it is UTF-8 of at most [`MAX_TEXT_BYTES`]: it may be one line
        /// of a JSON document written over many lines (Gemini's `-o json`), which the context
        /// joins ([`crate::gemini`]'s `document`). Not serialised.
        #[serde(skip)]
        text: Option<String>,
    },
}

/// A [`LiveEvent`] with the time it happened, when the line says.
#[derive(Debug, Clone, PartialEq)]
pub struct LogEvent {
    /// Unix seconds.
    pub ts: Option<f64>,
    /// The event.
    pub event: LiveEvent,
    /// The line began with a UTF-8 byte-order mark, which was skipped.
    pub bom: bool,
}

/// Longest unreadable line whose text its event keeps ([`LiveEvent::Unreadable`]).
pub(crate) const MAX_TEXT_BYTES: usize = 1 << 20;

impl LogEvent {
    /// An event at a time, from a line without a byte-order mark.
    pub fn at(ts: Option<f64>, event: LiveEvent) -> LogEvent {
        LogEvent {
            ts,
            event,
            bom: false,
        }
    }
}
