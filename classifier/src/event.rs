//! Source events: what one line of a log (or one message from a live agent) means.
//!
//! A line is recognised by its shape, never by the file it came from:
//! a hyperhive event-log line has `kind`; a Claude Code stream-json or transcript line has
//! `type` (transcripts add `uuid`/`sessionId`/`timestamp`) and becomes [`LiveEvent::Stream`].
//! Anything else still becomes an event ([`LiveEvent::Unrecognised`], [`LiveEvent::Unreadable`]),
//! so every line yields rows and parsing never fails.

use crate::field::Field;
use serde::Serialize;
use serde_json::Value;

use crate::gemini::typed::Fast;
use crate::lean::Hints;
use crate::lines::{Line, Oversize};

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

/// How many bytes of a bad line a preview keeps.
const PREVIEW_BYTES: usize = 200;

/// Parses one line (without its newline) of any supported log format. Never fails.
pub fn parse_line(line: &[u8]) -> LogEvent {
    parse(line, None)
}

/// [`parse_line`] for classifying only: a Claude Code line's [`LiveEvent::Stream`] value may
/// lack the top-level fields no row and no summary reads ([`crate::lean`]); its envelope and
/// its summary are [`parse_line`]'s, in the context `hints` was taken from.
pub(crate) fn parse_line_lean(line: &[u8], hints: Hints) -> LogEvent {
    parse(line, Some(hints))
}

fn parse(line: &[u8], lean: Option<Hints>) -> LogEvent {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let (line, bom) = match line.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => (rest, true),
        None => (line, false),
    };
    if lean.is_some()
        && let Some((fact, ts)) = crate::codex::fact::fast(line)
    {
        let mut event = LogEvent::at(ts, LiveEvent::CodexFact { fact });
        event.bom = bom;
        return event;
    }
    if lean.is_some()
        && let Some(exec) = crate::codex::exec_line::fast(line)
    {
        let mut event = LogEvent::at(None, LiveEvent::CodexExec { exec });
        event.bom = bom;
        return event;
    }
    if let Some(hints) = lean
        && let Some((line, ts)) = crate::gemini::typed::fast(line, hints.gemini_history_seen)
    {
        let event = match line {
            Fast::Message(record) => LiveEvent::GeminiRecord { record },
            Fast::Meta(meta) => LiveEvent::GeminiMeta { meta },
            Fast::Update(update) => LiveEvent::GeminiUpdate { update },
            Fast::Delta(text) => LiveEvent::GeminiDelta { text },
            Fast::Event(event) => LiveEvent::GeminiEvent { event },
        };
        let mut event = LogEvent::at(ts, event);
        event.bom = bom;
        return event;
    }
    let value = lean.and_then(|hints| crate::lean::parse(line, hints));
    let mut parsed = match value.map_or_else(|| serde_json::from_slice::<Value>(line), Ok) {
        Ok(value) => from_value(value),
        Err(err) => {
            let mut event = unreadable(line, describe_json_error(line, &err));
            if let LiveEvent::Unreadable { text, .. } = &mut event
                && line.len() <= MAX_TEXT_BYTES
            {
                *text = std::str::from_utf8(line).ok().map(str::to_owned);
            }
            LogEvent::at(None, event)
        }
    };
    parsed.bom = bom;
    parsed
}

/// What a framed line means: [`parse_line`] of a whole line, [`over_limit`] of an over-long
/// one. The one door from a [`Line`] to an event.
pub fn line_event(line: &Line) -> LogEvent {
    match line.oversize {
        None => parse_line(&line.bytes),
        Some(over) => LogEvent::at(None, over_limit(&line.bytes, over)),
    }
}

/// [`line_event`] for classifying only ([`parse_line_lean`]): the same envelope and summary.
/// `bytes`: the line's (its head when `oversize`).
pub(crate) fn line_event_lean(bytes: &[u8], oversize: Option<Oversize>, hints: Hints) -> LogEvent {
    match oversize {
        None => parse_line_lean(bytes, hints),
        Some(over) => LogEvent::at(None, over_limit(bytes, over)),
    }
}

/// The event of a line over the line limit, from its first bytes: an
/// [`LiveEvent::Unreadable`] saying how long it was, in the one wording every path shows
/// (`{len} bytes, over the {limit}-byte line limit`). Its preview always ends in `…`: the
/// line went on.
pub fn over_limit(head: &[u8], over: Oversize) -> LiveEvent {
    let Oversize { len, limit } = over;
    let mut event = unreadable(
        head,
        format!("{len} bytes, over the {limit}-byte line limit"),
    );
    if let LiveEvent::Unreadable { preview, .. } = &mut event
        && !preview.ends_with('…')
    {
        preview.push('…');
    }
    event
}

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

/// Interprets an already-parsed line. Never fails.
pub fn from_value(value: Value) -> LogEvent {
    let Value::Object(map) = &value else {
        if crate::qwen::detect::is_json_output(&value) {
            return LogEvent::at(None, LiveEvent::Qwen { value });
        }
        return LogEvent::at(None, LiveEvent::Unrecognised { value });
    };
    // OpenCode first: its `tool_use` lines have a `timestamp`, as Gemini's do.
    if crate::opencode::detect::is_opencode(map) {
        let ts = crate::opencode::detect::timestamp(map);
        return LogEvent::at(ts, LiveEvent::OpenCode { value });
    }
    // Codex and Gemini next: a Gemini recording's metadata line has a `kind` of its own, and
    // both agents' lines have a `type` that Claude Code's may share (`result`, `user`).
    if crate::codex::detect::is_codex(map) {
        let ts = crate::time::rfc3339(map.field("timestamp"));
        return LogEvent::at(ts, LiveEvent::Codex { value });
    }
    // Qwen Code before Gemini: its `tool_result` record has a Gemini event's `type` and `timestamp`.
    if crate::qwen::detect::is_record(map) {
        let ts = crate::time::rfc3339(map.field("timestamp"));
        return LogEvent::at(ts, LiveEvent::Qwen { value });
    }
    if crate::copilot::detect::is_copilot(map) {
        let ts = crate::time::rfc3339(map.field("timestamp"));
        return LogEvent::at(ts, LiveEvent::Copilot { value });
    }
    if crate::gemini::detect::is_gemini(map) {
        let ts = crate::gemini::detect::timestamp(map);
        if crate::gemini::detect::is_message_record(map) {
            let record = Box::new(crate::gemini::typed::Record::of_value(&value));
            return LogEvent::at(ts, LiveEvent::GeminiRecord { record });
        }
        return LogEvent::at(ts, LiveEvent::Gemini { value });
    }
    if let Some(kind) = map.field("kind") {
        let ts = map.field("ts").and_then(Value::as_f64);
        let kind = kind.as_str().map(str::to_owned);
        return LogEvent::at(ts, hyperhive_event(kind.as_deref(), value));
    }
    if map.field("type").is_some_and(Value::is_string) {
        let ts = crate::time::rfc3339(map.field("timestamp"));
        return LogEvent::at(ts, LiveEvent::Stream { value });
    }
    LogEvent::at(None, LiveEvent::Unrecognised { value })
}

/// Builds the event for a line that could not be read.
pub fn unreadable(line: &[u8], error: String) -> LiveEvent {
    let cut = floor_boundary(line, PREVIEW_BYTES);
    let mut preview = String::from_utf8_lossy(&line[..cut]).into_owned();
    if cut < line.len() {
        preview.push('…');
    }
    LiveEvent::Unreadable {
        error,
        preview,
        text: None,
    }
}

fn hyperhive_event(kind: Option<&str>, mut value: Value) -> LiveEvent {
    let obj = value.as_object_mut().expect("checked by caller");
    let text = |k: &str| obj.field(k).and_then(Value::as_str).map(str::to_owned);
    let field = |k: &str| obj.field(k).cloned().unwrap_or(Value::Null);
    let event = match kind {
        Some("turn_start") => match (text("from"), text("body")) {
            (None, None) => None,
            (from, body) => Some(LiveEvent::TurnStart {
                from: from.unwrap_or_default(),
                body: body.unwrap_or_default(),
            }),
        },
        Some("turn_end") => obj
            .field("ok")
            .and_then(Value::as_bool)
            .map(|ok| LiveEvent::TurnEnd {
                ok,
                note: text("note"),
            }),
        Some("note") => text("text").map(|text| LiveEvent::Note { text }),
        Some("stream") => match obj.field("value") {
            None | Some(Value::Null) => None,
            Some(_) => obj.remove("value").map(|value| LiveEvent::Stream { value }),
        },
        Some("status_changed") => Some(LiveEvent::StatusChanged {
            status: field("status"),
        }),
        Some("model_changed") => Some(LiveEvent::ModelChanged {
            model: field("model"),
        }),
        Some("effort_changed") => Some(LiveEvent::EffortChanged {
            effort: field("effort"),
        }),
        Some("token_usage_changed") => Some(LiveEvent::TokenUsageChanged {
            usage: field("usage"),
        }),
        Some("turn_state_changed") => Some(LiveEvent::TurnStateChanged {
            state: field("state"),
        }),
        _ => None,
    };
    event.unwrap_or(LiveEvent::Unrecognised { value })
}

fn describe_json_error(line: &[u8], err: &serde_json::Error) -> String {
    if let Err(utf8) = std::str::from_utf8(line) {
        return format!("invalid UTF-8 at byte {}", utf8.valid_up_to());
    }
    let msg = err.to_string();
    if msg.starts_with("recursion limit exceeded") {
        // serde_json stops at 128 levels; say so in words rather than its internal term.
        return format!(
            "not JSON: nested more than 128 levels deep (column {})",
            err.column()
        );
    }
    format!("not JSON: {msg}")
}

/// The largest `i <= max` that does not split a UTF-8 sequence (bytes need not be UTF-8).
fn floor_boundary(bytes: &[u8], max: usize) -> usize {
    if bytes.len() <= max {
        return bytes.len();
    }
    let mut i = max;
    while i > 0 && i > max - 4 && (bytes[i] & 0xC0) == 0x80 {
        i -= 1;
    }
    i
}
