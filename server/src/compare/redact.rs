//! A comparison's answer redacted (`hiveterm diff -o --redact`, a redacted comparison share):
//! every string of its JSON — names, prompts, targets, the summaries' files and titles —
//! through [`classifier::redact::redact_text`], as `hiveterm redact` redacts a log's text.
//! Best effort, like every redaction.

use serde_json::Value;

/// `json` with its every string (keys are the answer's own names) redacted; how many
/// redactions were made. Text that is not JSON is redacted as text.
pub fn redact_json(json: &str) -> (String, u64) {
    let Ok(mut value) = serde_json::from_str::<Value>(json) else {
        let (text, findings) = classifier::redact::redact_text(json);
        return (text.into_owned(), findings.len() as u64);
    };
    let mut count = 0;
    walk(&mut value, &mut count);
    (serde_json::to_string(&value).unwrap_or_default(), count)
}

fn walk(v: &mut Value, count: &mut u64) {
    match v {
        Value::String(s) => {
            let (text, findings) = classifier::redact::redact_text(s);
            if !findings.is_empty() {
                *count += findings.len() as u64;
                *s = text.into_owned();
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| walk(i, count)),
        Value::Object(map) => map.values_mut().for_each(|i| walk(i, count)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_string_is_redacted_and_counted() {
        let key = format!("sk-ant-api03-{}", "A".repeat(95));
        let json = format!(
            r#"{{"a":"x","pairs":[{{"a":{{"seq":3,"target":"curl -H 'x-api-key: {key}'"}}}}],"turns":[{{"a":{{"prompt":"use {key}"}}}}]}}"#
        );
        let (out, n) = redact_json(&json);
        assert_eq!(n, 2);
        assert!(!out.contains(&key), "{out}");
        assert!(out.contains("[REDACTED:"), "{out}");
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["pairs"][0]["a"]["seq"], 3);
        assert_eq!(
            redact_json(r#"{"a":"plain"}"#),
            (r#"{"a":"plain"}"#.to_owned(), 0)
        );
    }
}
