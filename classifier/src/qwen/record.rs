//! A Qwen Code session record → the Claude Code transcript line of the same meaning, which
//! [`crate::stream`] then classifies (so a session file's rows and turns are a transcript's).
//!
//! | record | transcript line |
//! |---|---|
//! | `user` (its `parts`' texts) | a `user` prompt (a turn start) |
//! | `assistant` (`parts`: `text`, `text` + `thought`, `functionCall`) | an `assistant` message of `text`, `thinking` and `tool_use` blocks, its `usageMetadata` as `usage`; `stop_reason` `end_turn` when it calls no tool (the turn's end) |
//! | `tool_result` (`functionResponse`s, `toolCallResult.status`) | a `user` message of `tool_result` blocks, `is_error` for status `error` |
//! | `system` `ui_telemetry` `qwen-code.api_error` | a failed API call's `assistant` line (`isApiErrorMessage`: the turn fails) for an HTTP 4xx but 408/429, else a `system` `api_retry` |
//! | `system` `attribution_snapshot`, other `ui_telemetry` | none: no row |
//! | `system` of another subtype, a record of another type | `system` of that subtype or type (a debug `⚙` row) |
//!
//! Each line keeps the record's `timestamp` and `sessionId` (what makes it a transcript's).

use crate::field::Field;
use serde_json::{Map, Value, json};

/// The transcript line `record` reads as; `None` for a record that gives no row.
pub(crate) fn to_stream(record: &Value) -> Option<Value> {
    let ty = record.field("type").and_then(Value::as_str)?;
    let parts = record
        .field("message")
        .and_then(|m| m.field("parts"))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let (kind, message, extra) = match ty {
        "user" => ("user", user(parts), None),
        "assistant" => ("assistant", assistant(record, parts), None),
        "tool_result" => ("user", tool_result(record, parts), None),
        "system" => return system(record),
        other => return Some(bare_system(record, other)),
    };
    Some(line(record, kind, message, extra))
}

/// A transcript line of `kind` holding `message`, at the record's time and session.
fn line(record: &Value, kind: &str, message: Value, extra: Option<(&str, Value)>) -> Value {
    let mut map = Map::new();
    map.insert("type".into(), kind.into());
    for key in ["timestamp", "sessionId", "version"] {
        if let Some(v) = record.field(key) {
            map.insert(key.into(), v.clone());
        }
    }
    map.insert("message".into(), message);
    if let Some((k, v)) = extra {
        map.insert(k.into(), v);
    }
    Value::Object(map)
}

/// The texts of `parts` that are not thoughts, one after another.
fn text_of(parts: &[Value]) -> String {
    let texts: Vec<&str> = parts
        .iter()
        .filter(|p| p.field("thought").and_then(Value::as_bool) != Some(true))
        .filter_map(|p| p.field("text").and_then(Value::as_str))
        .collect();
    texts.join("\n")
}

fn user(parts: &[Value]) -> Value {
    json!({"role": "user", "content": text_of(parts)})
}

fn assistant(record: &Value, parts: &[Value]) -> Value {
    let mut content = Vec::with_capacity(parts.len());
    let mut calls = false;
    for p in parts {
        if let Some(call) = p.field("functionCall") {
            calls = true;
            content.push(json!({
                "type": "tool_use",
                "id": call.field("id").cloned().unwrap_or(Value::Null),
                "name": call.field("name").cloned().unwrap_or(Value::Null),
                "input": call.field("args").cloned().unwrap_or(Value::Null),
            }));
        } else if let Some(text) = p.field("text").and_then(Value::as_str) {
            content.push(
                if p.field("thought").and_then(Value::as_bool) == Some(true) {
                    json!({"type": "thinking", "thinking": text})
                } else {
                    json!({"type": "text", "text": text})
                },
            );
        }
    }
    let n = |k: &str| {
        record
            .field("usageMetadata")
            .and_then(|u| u.field(k))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    let usage = record.field("usageMetadata").map(|_| {
        json!({
            "input_tokens": n("promptTokenCount"),
            "output_tokens": n("candidatesTokenCount"),
            "cache_read_input_tokens": n("cachedContentTokenCount"),
        })
    });
    let mut message = json!({
        "id": record.field("uuid").cloned().unwrap_or(Value::Null),
        "role": "assistant",
        "content": content,
        "stop_reason": if calls { "tool_use" } else { "end_turn" },
    });
    if let Some(model) = record.field("model") {
        message["model"] = model.clone();
    }
    if let Some(usage) = usage {
        message["usage"] = usage;
    }
    message
}

fn tool_result(record: &Value, parts: &[Value]) -> Value {
    let failed = record
        .field("toolCallResult")
        .and_then(|r| r.field("status"))
        .and_then(Value::as_str)
        == Some("error");
    let blocks: Vec<Value> = parts
        .iter()
        .filter_map(|p| p.field("functionResponse"))
        .map(|r| {
            let response = r.field("response");
            let error = response.and_then(|x| x.field("error"));
            let text = match (response.and_then(|x| x.field("output")), error) {
                (Some(Value::String(s)), _) | (_, Some(Value::String(s))) => s.clone(),
                (Some(other), _) | (None, Some(other)) => other.to_string(),
                (None, None) => response.map(Value::to_string).unwrap_or_default(),
            };
            json!({
                "type": "tool_result",
                "tool_use_id": r.field("id").cloned().unwrap_or(Value::Null),
                "is_error": failed || error.is_some(),
                "content": text,
            })
        })
        .collect();
    json!({"role": "user", "content": blocks})
}

fn system(record: &Value) -> Option<Value> {
    let subtype = record
        .field("subtype")
        .and_then(Value::as_str)
        .unwrap_or("");
    match subtype {
        "attribution_snapshot" => None,
        "ui_telemetry" => {
            let event = record
                .field("systemPayload")
                .and_then(|p| p.field("uiEvent"))?;
            if event.field("event.name").and_then(Value::as_str) != Some("qwen-code.api_error") {
                return None;
            }
            Some(api_error(record, event))
        }
        other => Some(bare_system(record, other)),
    }
}

/// A `system` line of `subtype` at the record's time: a debug `⚙ <subtype>` row (a record
/// of a type or subtype not read here).
fn bare_system(record: &Value, subtype: &str) -> Value {
    let mut map = Map::new();
    map.insert("type".into(), "system".into());
    map.insert("subtype".into(), subtype.into());
    if let Some(ts) = record.field("timestamp") {
        map.insert("timestamp".into(), ts.clone());
    }
    Value::Object(map)
}

/// A failed API call: fatal (an HTTP 4xx but 408 and 429, which Qwen Code does not retry)
/// as an API error message that fails the turn, else a retry.
fn api_error(record: &Value, event: &Value) -> Value {
    let status = event.field("status_code").and_then(Value::as_u64);
    let message = event
        .field("error_message")
        .and_then(Value::as_str)
        .unwrap_or("API error");
    let fatal = status.is_some_and(|s| (400..500).contains(&s) && s != 408 && s != 429);
    if fatal {
        let text = format!("[API Error: {message}]");
        let mut line = line(
            record,
            "assistant",
            json!({
                "role": "assistant",
                "content": [{"type": "text", "text": text}],
                "stop_reason": "end_turn",
            }),
            Some(("isApiErrorMessage", Value::Bool(true))),
        );
        line["message"]["model"] = event.field("model").cloned().unwrap_or(Value::Null);
        return line;
    }
    let mut map = match bare_system(record, "api_retry") {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    if let Some(s) = status {
        map.insert("error_status".into(), s.into());
    }
    map.insert("error".into(), message.into());
    Value::Object(map)
}
