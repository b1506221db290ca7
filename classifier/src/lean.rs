//! A line parsed for classifying only: the JSON value without the top-level fields no row and
//! no summary reads, which are checked but never built.
//!
//! A Claude Code transcript spends much of its bytes on fields the rows never show: the
//! bookkeeping lines (`api-request`, `attachment`, `cost-state`, … — [`QUIET_TYPES`]: no row,
//! only their `timestamp` counts), and in `user` and `assistant` lines the `toolUseResult` that
//! repeats, in another shape, the result the line already carries, and the uuid chain, cwd,
//! version and request ids of every line. [`parse`] reads such a line's other fields into the
//! usual [`Value`], and each of those fields through [`Checked`]: every byte is read by the
//! same `serde_json` deserializer as [`serde_json::from_slice`] (so the same strings, escapes,
//! UTF-8, numbers and nesting are accepted), but no string, array or map is built.
//!
//! The promise: the envelope classified from a [`parse`]d line is the one classified from the
//! whole [`Value`]. When [`parse`] cannot keep it — the line is not a JSON object, is not JSON
//! at all (its error row's wording comes from the whole parse), has a hyperhive `kind`, says
//! its `type` twice, is a `user` or `assistant` line without a `message` (another agent's), is a
//! Codex rollout line whose `payload` is no object (a Codex rollout line's payload is itself
//! read lean: `crate::codex::lean`), has Gemini fields read lean (`crate::gemini::lean`: a
//! model message's calls, tokens and thoughts, a `$set` history) but is not Gemini's, or is a
//! task event (`subtype` `task_started`/`task_notification`, a row of its fields whatever its
//! type) — it answers `None` and the caller parses the whole line.
//!
//! Nested fields are read lean by shape ([`shaped`]); the lines before may tell what a line's
//! rows will not read ([`Hints`], from the classifying context).

pub(crate) mod build;
pub(crate) mod checked;
pub(crate) mod lax;
pub(crate) mod shaped;

use crate::field::Field;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::Value;

use self::build::{Entries, Whole};
use self::checked::{Checked, Key};
use crate::formats::lean::Agent;

/// Line types Claude Code declares that carry nothing a reader needs as a row. (`result`,
/// `init` and `stream_event` are read by `stream::turns`: turn ends and starts, partial answers.)
pub(crate) const QUIET_TYPES: &[&str] = &[
    "rate_limit_event",
    "keep_alive",
    "control_request",
    "control_response",
    "control_cancel_request",
    "auth_status",
    "active_goal",
    // transcript bookkeeping
    "file-history-snapshot",
    "queue-operation",
    "attachment",
    "api-request",
    "api-request-blob",
    "api-request-shape",
    "progress",
    "last-prompt",
    "mode",
    "atis-latch",
    "cost-state",
    "tools-used",
    "agent-name",
    "agent-color",
];

/// What the lines before tell a lean parse (see [`parse`]); the context a line is classified in
/// makes it (`crate::formats::lean::lean_hints`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Hints {
    /// A Gemini recording's message was shown: a `$set` history's rows are decided
    /// ([`crate::gemini::lean`]).
    pub(crate) gemini_history_seen: bool,
}

/// The value of `line` (one JSON object) without the fields no row reads; `None` when only the
/// whole parse can promise the same rows (see the module's docs). `hints`: what the lines
/// before tell; the rows and summary of the line classified next are the whole parse's.
pub(crate) fn parse(line: &[u8], hints: Hints) -> Option<Value> {
    let first = line
        .iter()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))?;
    if *first != b'{' {
        return None;
    }
    // UTF-8 checked once for the whole line (invalid UTF-8 is the whole parse's error row), so
    // the deserializer reads a `str` and does not check each string again.
    let text = simdutf8::basic::from_utf8(line).ok()?;
    let mut de = serde_json::Deserializer::from_str(text);
    let value = Top(hints).deserialize(&mut de).ok()?;
    de.end().ok()?;
    value
}

/// Which top-level fields a line keeps, once its `type` is known.
#[derive(Clone, Copy, PartialEq)]
enum Keep {
    /// Every field: the type is not known yet, is not one of the below, or the line has `kind`.
    All,
    /// `type`, `subtype`, `timestamp` (the envelope's time), `kind` and `totalCostUSD` (a
    /// `cost-state` line's, for the summary): a bookkeeping line gives no row.
    Quiet,
    /// A `user` or `assistant` line: [`MESSAGE_KEYS`] only (its `toolUseResult`, the uuid chain,
    /// cwd, version, request ids… are never read).
    Message,
    /// A Codex rollout line: `type`, `timestamp`, `kind`, `subtype` and its `payload`, itself
    /// lean ([`crate::codex::lean`]).
    Rollout,
    /// A Gemini recording's model message (`type` `gemini`): every field, its `toolCalls`,
    /// `tokens` and `thoughts` lean ([`crate::gemini::lean`]).
    Gemini,
    /// A line of one of the agents whose fields the table of formats reads lean
    /// ([`crate::formats::lean::lean_field`]): a Copilot CLI event (known by its `type`), a Qwen Code
    /// session record (by its `provenance`). The fields its agent reads, some of them lean.
    Agent(Agent),
}

impl Keep {
    fn of(ty: &Value) -> Keep {
        match ty.as_str() {
            Some("user" | "assistant") => Keep::Message,
            Some(t) if crate::codex::detect::ROLLOUT_TYPES.contains(&t) => Keep::Rollout,
            Some("gemini") => Keep::Gemini,
            Some(t) if QUIET_TYPES.contains(&t) => Keep::Quiet,
            Some(t) if let Some(agent) = crate::formats::lean::lean_agent_of_type(t) => {
                Keep::Agent(agent)
            }
            _ => Keep::All,
        }
    }

    fn keeps(self, key: &str) -> bool {
        match self {
            Keep::All | Keep::Gemini => true,
            // `totalCostUSD`: a `cost-state` line's cost, which the summary reads.
            Keep::Quiet => matches!(
                key,
                "type" | "subtype" | "timestamp" | "kind" | "totalCostUSD"
            ),
            Keep::Message => MESSAGE_KEYS.contains(&key),
            Keep::Rollout => matches!(key, "type" | "subtype" | "timestamp" | "kind" | "payload"),
            Keep::Agent(agent) => crate::formats::lean::lean_keeps(agent, key),
        }
    }
}

/// The top-level fields of a `user` or `assistant` line that a row or the summary reads
/// (`stream.rs`, `stream/turns.rs`, `summary.rs`); `sessionId` only for being there (a
/// transcript line). A new read of another field must be added here: the equivalence test
/// (`tests/lean.rs`) fails until it is.
const MESSAGE_KEYS: &[&str] = &[
    "type",
    "subtype",
    "kind",
    "timestamp",
    "message",
    "isApiErrorMessage",
    "is_api_error_message",
    "isCompactSummary",
    "isMeta",
    "isSynthetic",
    "isSidechain",
    "parent_tool_use_id",
    "agentId",
    "sessionId",
    "version",
    // A Gemini chat recording's user record (`id`, `content`, no `message`): kept whole
    // here, so it is parsed once rather than again by the whole parse.
    "id",
    "content",
];

/// The top-level object: `Some(value)`, or `None` when the whole parse must decide.
struct Top(Hints);

impl<'de> DeserializeSeed<'de> for Top {
    type Value = Option<Value>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Option<Value>, D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Top {
    type Value = Option<Value>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Option<Value>, A::Error> {
        let mut map = Entries::new();
        let mut keep = Keep::All;
        let (mut typed, mut skipped, mut whole) = (false, false, false);
        // A Gemini field was read lean: the line must be Gemini's.
        let mut gemini = false;
        // A `message` was read lean: the line must be a `user` or `assistant` line.
        let mut message = false;
        // An agent's field was read lean ([`Keep::Agent`], an OpenCode `part`): the line must
        // be that agent's.
        let mut agent = None;
        while let Some(key) = access.next_key::<Key<'de>>()? {
            let key = key.0;
            // A Qwen Code session record, known by its `provenance`: its own fields (the whole
            // parse when one was dropped before it).
            if key == "provenance" && matches!(keep, Keep::All | Keep::Message) && !map.has("kind")
            {
                whole |= skipped;
                keep = Keep::Agent(Agent::QwenRecord);
            }
            if !keep.keeps(&key) {
                access.next_value::<Checked>()?;
                skipped = true;
                continue;
            }
            let value: Value = match (keep, key.as_ref(), map.field("type")) {
                (Keep::Rollout, "payload", Some(Value::String(line))) => {
                    access.next_value_seed(crate::formats::lean::lean_payload(line))?
                }
                (Keep::Agent(a), k, Some(Value::String(ty)))
                    if let Some(seed) = crate::formats::lean::lean_field(a, ty, k) =>
                {
                    agent = Some(a);
                    access.next_value_seed(seed)?
                }
                (Keep::All, k, Some(Value::String(ty)))
                    if !map.has("kind")
                        && let Some(seed) =
                            crate::formats::lean::lean_field(Agent::OpenCode, ty, k) =>
                {
                    agent = Some(Agent::OpenCode);
                    access.next_value_seed(seed)?
                }
                (Keep::Gemini, k, _)
                    if let Some(seed) = crate::formats::lean::lean_gemini_field(k) =>
                {
                    gemini = true;
                    access.next_value_seed(seed)?
                }
                (Keep::Message, "message", _) | (Keep::All, "message", None)
                    if !map.has("kind") =>
                {
                    let value = access.next_value_seed(crate::formats::lean::lean_message())?;
                    message |= value.is_object();
                    value
                }
                (_, "$set", _) => {
                    gemini = true;
                    access.next_value_seed(crate::formats::lean::lean_gemini_set(
                        self.0.gemini_history_seen,
                    ))?
                }
                _ => access.next_value_seed(Whole)?,
            };
            match key.as_ref() {
                // A second `type` could make a skipped field one that is read.
                "type" if typed => whole = true,
                "type" => {
                    typed = true;
                    if keep == Keep::All && !map.has("kind") {
                        keep = Keep::of(&value);
                    }
                }
                // A hyperhive line may show its whole value (the `!` row).
                "kind" => {
                    whole |= skipped;
                    keep = Keep::All;
                }
                _ => {}
            }
            map.push(key.into_owned(), value);
        }
        let map = map.into_map();
        // A `user` line without a `message` is not Claude Code's (a Gemini chat record's is
        // `content`): only the whole value can say what it is.
        whole |= skipped && keep == Keep::Message && !map.has("message");
        // A message of `parts` is a Qwen Code session record's (`crate::qwen`): whole.
        whole |= keep == Keep::Message && map.field("message").is_some_and(|m| m.has("parts"));
        // A rollout line's payload that is no object: the line's row shows all of it.
        whole |= keep == Keep::Rollout && !map.field("payload").is_some_and(Value::is_object);
        // A message read lean: only right for a `user` or `assistant` line.
        whole |= message && keep != Keep::Message;
        // Gemini's fields read lean: only right when the line is Gemini's (not Codex's first).
        whole |= gemini
            && (crate::codex::detect::is_codex(&map) || !crate::gemini::detect::is_gemini(&map));
        // An agent's fields dropped or read lean: only right when the line is that agent's.
        if let Keep::Agent(a) = keep {
            agent = Some(a);
        }
        whole |= agent.is_some_and(|a| crate::formats::lean::owner(&map) != Some(a));
        // A task event of any type is a row made of its fields.
        whole |= skipped
            && matches!(
                map.field("subtype").and_then(Value::as_str),
                Some("task_started" | "task_notification")
            );
        Ok((!whole).then_some(Value::Object(map)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `parse` of `line`: `None`, or the whole value without the fields named in `dropped`.
    fn check(line: &str, dropped: Option<&[&str]>) {
        let got = parse(line.as_bytes(), Hints::default());
        match dropped {
            None => assert_eq!(got, None, "{line}"),
            Some(keys) => {
                let mut whole: Value = serde_json::from_str(line).expect("test lines are JSON");
                for k in keys {
                    whole.as_object_mut().unwrap().shift_remove(*k);
                }
                assert_eq!(got, Some(whole), "{line}");
            }
        }
    }

    #[test]
    fn keeps_what_rows_read() {
        check(
            r#"{"type":"user","message":{"content":"hi"},"toolUseResult":{"a":[1,"x"]},"isMeta":true,"uuid":"u"}"#,
            Some(&["toolUseResult", "uuid"]),
        );
        check(
            r#"{"toolUseResult":"before the type","type":"user"}"#,
            Some(&[]),
        );
        check(
            r#"{"type":"api-request","timestamp":"2026-01-01T00:00:00Z","params":{"m":[1.5,null,true]},"x":"\u00e9\n"}"#,
            Some(&["params", "x"]),
        );
        check(
            r#"{"attachment":{"k":1},"type":"attachment","rendered":[]}"#,
            Some(&["rendered"]),
        );
        check(
            r#"{"type":"system","subtype":"init","toolUseResult":1}"#,
            Some(&[]),
        );
        check(r#"{"type":"nobody-knows","toolUseResult":1}"#, Some(&[]));
        check(r#"{"type":5,"toolUseResult":1}"#, Some(&[]));
        check(r#" {"ty\u0070e":"mode","mode":"x"} "#, Some(&["mode"]));
        // A kind first: a hyperhive line keeps everything.
        check(r#"{"kind":"note","type":"mode","mode":"x"}"#, Some(&[]));
    }

    #[test]
    fn a_codex_rollout_line_keeps_what_its_rows_read() {
        let lean = |line: &str| parse(line.as_bytes(), Hints::default()).map(|v| v.to_string());
        assert_eq!(
            lean(
                r#"{"timestamp":"t","ordinal":3,"type":"turn_context","payload":{"cwd":"/x","model":"m"},"metadata":{"a":1}}"#
            )
            .as_deref(),
            Some(r#"{"timestamp":"t","ordinal":3,"type":"turn_context","payload":{"model":"m"}}"#)
        );
        assert_eq!(
            lean(
                r#"{"timestamp":"t","type":"event_msg","payload":{"type":"item_completed","turn_id":"u","item":{"type":"AgentMessage","id":"i","content":[{"text":"hi"}]}}}"#
            )
            .as_deref(),
            Some(
                r#"{"timestamp":"t","type":"event_msg","payload":{"type":"item_completed","item":{"type":"AgentMessage","id":"i"}}}"#
            )
        );
        // Fields before the payload's type, and every field of an unknown type, are kept.
        let line = r#"{"timestamp":"t","type":"response_item","payload":{"extra":1,"type":"hologram","x":[1]}}"#;
        assert_eq!(lean(line).as_deref(), Some(line));
        // A payload that is no object: the whole parse (its row shows the whole line).
        check(
            r#"{"timestamp":"t","type":"event_msg","payload":5,"ordinal":1}"#,
            None,
        );
    }

    #[test]
    fn a_message_keeps_its_token_counts_and_no_signature() {
        let lean = |line: &str| parse(line.as_bytes(), Hints::default());
        let json = |s: &str| serde_json::from_str::<Value>(s).unwrap();
        // Before the line's type, as a transcript writes it, and after, as stream-json does.
        for line in [
            r#"{"message":{"id":"m","usage":{"input_tokens":1,"service_tier":"x","cache_creation":{"a":1},"output_tokens":2},"content":[{"type":"thinking","thinking":"t","signature":"s"},{"type":"redacted_thinking","data":"d"},{"type":"text","text":"hi","signature":"kept"}]},"type":"assistant","uuid":"u"}"#,
            r#"{"type":"assistant","message":{"id":"m","usage":{"input_tokens":1,"service_tier":"x","cache_creation":{"a":1},"output_tokens":2},"content":[{"type":"thinking","thinking":"t","signature":"s"},{"type":"redacted_thinking","data":"d"},{"type":"text","text":"hi","signature":"kept"}]},"uuid":"u"}"#,
        ] {
            let got = lean(line).expect("an assistant line is read lean");
            assert_eq!(
                got.field("message"),
                Some(&json(
                    r#"{"id":"m","usage":{"input_tokens":1,"output_tokens":2},"content":[{"type":"thinking","thinking":"t"},{"type":"redacted_thinking"},{"type":"text","text":"hi","signature":"kept"}]}"#
                )),
                "{line}"
            );
            assert_eq!(got.field("type"), Some(&json(r#""assistant""#)));
        }
        // A user message's text content is a string.
        check(
            r#"{"message":{"role":"user","content":"hi"},"type":"user"}"#,
            Some(&[]),
        );
        // A message read lean on a line that is not a user or assistant line: the whole parse.
        check(r#"{"message":{"usage":{"x":1}},"type":"system"}"#, None);
        check(r#"{"message":{"usage":{"x":1}}}"#, None);
        // A message that is no object, or after the type of another line or a `kind`: whole.
        check(r#"{"message":"boom","type":"error"}"#, Some(&[]));
        check(
            r#"{"type":"system","message":{"usage":{"x":1}}}"#,
            Some(&[]),
        );
        check(r#"{"kind":"note","message":{"usage":{"x":1}}}"#, Some(&[]));
    }

    #[test]
    fn leaves_the_hard_cases_to_the_whole_parse() {
        check(r#"{"type":"mode","mode":"x","kind":"note"}"#, None);
        check(r#"{"type":"mode","mode":"x","type":"user"}"#, None);
        check(
            r#"{"type":"mode","mode":"x","subtype":"task_started"}"#,
            None,
        );
        check(
            r#"{"subtype":"task_notification","type":"user","toolUseResult":1}"#,
            None,
        );
        check(r#"[1,2]"#, None);
        check(r#""text""#, None);
        check("", None);
        // Not JSON, in a skipped field: the error row comes from the whole parse.
        for bad in [
            r#"{"type":"mode","mode":"\ud800"}"#,
            r#"{"type":"mode","mode":1e999}"#,
            r#"{"type":"mode","mode":[1,}"#,
            r#"{"type":"mode","mode":"a	b"}"#,
            r#"{"type":"mode","mode":"x"} trailing"#,
            r#"{"type":"user","toolUseResult":{"a":01}}"#,
        ] {
            assert!(serde_json::from_str::<Value>(bad).is_err(), "{bad}");
            check(bad, None);
        }
        let mut invalid = br#"{"type":"mode","mode":""#.to_vec();
        invalid.extend_from_slice(b"\xff\"}");
        assert_eq!(parse(&invalid, Hints::default()), None);
        let deep = format!(
            r#"{{"type":"mode","mode":{}{}}}"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        assert!(serde_json::from_str::<Value>(&deep).is_err());
        check(&deep, None);
    }
}
