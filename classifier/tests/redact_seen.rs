//! Redaction judged on what a reader sees (issue 25): the logs of `redact-seen.json` — colour
//! codes, control and format characters touching or inside a token, private keys over lines,
//! events and content blocks, keys split over two text blocks, escapes in a line that is not
//! JSON, numeric passwords, URL passwords with a `/`, a password repeated in prose — each
//! redacted by one `Redactor`, line after line, then classified: no 12-character piece of a
//! secret's random part shows in the rows (control and format characters removed) nor in the
//! redacted log, the log keeps its line count, and the text that is not a secret stays.
//!
//! The same corpus runs through the paths in `server/tests/redact_cmd.rs` (`hiveterm redact`,
//! `hiveterm export --redact`) and `server/tests/shares.rs` (a redacted share's history and
//! stream).

use classifier::redact::{Redactor, redact_line};
use classifier::{ClassifyCtx, Line, classify_log_event, event::line_event};
use serde_json::Value;

/// One log of the corpus.
struct Case {
    name: String,
    log: String,
    secrets: Vec<String>,
    keep: Vec<String>,
}

fn corpus() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/redact-seen.json");
    let v: Value = serde_json::from_slice(&std::fs::read(path).expect("corpus")).expect("JSON");
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .expect("a list")
            .iter()
            .map(|s| s.as_str().expect("a string").to_owned())
            .collect()
    };
    v["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| Case {
            name: c["name"].as_str().expect("name").to_owned(),
            log: c["log"].as_str().expect("log").to_owned(),
            secrets: strings(&c["secrets"]),
            keep: strings(&c["keep"]),
        })
        .collect()
}

/// Without control characters (but `\n`, `\t`) and format characters: what a reader sees.
fn visible(s: &str) -> String {
    s.chars()
        .filter(|&c| {
            c == '\n'
                || c == '\t'
                || !(c.is_control()
                    || matches!(c, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
                        | '\u{2060}'..='\u{206f}' | '\u{feff}'))
        })
        .collect()
}

/// Every string in `v`, one a line.
fn strings(v: &Value, out: &mut String) {
    match v {
        Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
        Value::Object(o) => o.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// What a reader sees of a redacted log: its rows (every string of every row the classifier
/// makes of it) and the log itself (a JSON line's strings decoded, another line as it is).
fn seen(log: &str) -> String {
    let mut ctx = ClassifyCtx::new();
    let mut out = String::new();
    for (i, line) in log.lines().enumerate() {
        let line = Line {
            number: i as u64 + 1,
            bytes: line.as_bytes().to_vec(),
            oversize: None,
        };
        let env = classify_log_event(&line_event(&line), &mut ctx);
        strings(&serde_json::to_value(&env.msgs).expect("rows"), &mut out);
        match serde_json::from_slice::<Value>(&line.bytes) {
            Ok(v) => strings(&v, &mut out),
            Err(_) => out.push_str(&String::from_utf8_lossy(&line.bytes)),
        }
        out.push('\n');
    }
    visible(&out)
}

/// The 12-character pieces of `secret` that show in `seen` (the whole secret when shorter).
pub fn shown(seen: &str, secret: &str) -> Vec<String> {
    let chars: Vec<char> = secret.chars().collect();
    let n = chars.len().min(12);
    chars
        .windows(n)
        .map(|w| w.iter().collect::<String>())
        .filter(|piece| seen.contains(piece.as_str()))
        .collect()
}

/// A log redacted line after line by one `Redactor`.
fn redact_log(log: &str) -> String {
    let mut r = Redactor::new();
    let mut out = String::new();
    for line in log.lines() {
        let red = r.redact_line(line.as_bytes());
        out.push_str(&String::from_utf8_lossy(&red.line));
        out.push('\n');
    }
    out
}

/// Checks one redacted log of `case`: nothing of its secrets shows, its lines are counted
/// the same, what must stay stays. The failures, one a line.
fn judge(case: &Case, redacted: &str) -> Vec<String> {
    let mut failures = Vec::new();
    if redacted.lines().count() != case.log.lines().count() {
        failures.push(format!("{}: line count changed", case.name));
    }
    let seen = seen(redacted);
    for secret in &case.secrets {
        let shown = shown(&seen, secret);
        if !shown.is_empty() {
            failures.push(format!("{}: shows {:?} of {secret}", case.name, shown[0]));
        }
    }
    for keep in &case.keep {
        if !seen.contains(keep.as_str()) || !redacted.contains(keep.as_str()) {
            failures.push(format!("{}: lost {keep:?}", case.name));
        }
    }
    failures
}

#[test]
fn every_shape_is_redacted_as_seen() {
    let cases = corpus();
    assert!(cases.len() >= 20);
    let mut failures = Vec::new();
    for case in &cases {
        // The test's secrets are really there before redaction.
        let before = seen(&case.log);
        for secret in &case.secrets {
            assert!(
                !shown(&before, secret).is_empty(),
                "{}: {secret} not in the log",
                case.name
            );
        }
        let redacted = redact_log(&case.log);
        let found = judge(case, &redacted);
        if !found.is_empty() {
            println!("{}\n→ {redacted}", case.name);
        }
        failures.extend(found);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A redacted JSON line stays JSON, every line of every case.
#[test]
fn json_lines_stay_json() {
    for case in corpus() {
        let mut r = Redactor::new();
        for line in case.log.lines() {
            let out = r.redact_line(line.as_bytes());
            if serde_json::from_str::<Value>(line).is_ok() {
                serde_json::from_slice::<Value>(&out.line)
                    .unwrap_or_else(|e| panic!("{}: {e}: {line}", case.name));
            }
        }
    }
}

/// Exact outputs of the new shapes, one line each.
#[test]
fn exact_outputs() {
    let gh = "ghp_4Xq9LmZt2Rk8VbN3wYc7Hd1Fs6Jp0Ta5Ue2G";
    for (input, expect) in [
        (
            format!("{{\"kind\":\"note\",\"text\":\"\\u001b[32m{gh}\\u001b[0m\"}}"),
            "{\"kind\":\"note\",\"text\":\"\\u001b[32m[REDACTED:github_token]\\u001b[0m\"}"
                .to_owned(),
        ),
        (
            format!("a \u{1b}[1m{}\u{7}{} b", &gh[..10], &gh[10..]),
            "a \u{1b}[1m[REDACTED:github_token] b".to_owned(),
        ),
        (
            "{\"db\":{\"password\":8374920165,\"port\":5432}}".to_owned(),
            "{\"db\":{\"password\":\"[REDACTED:password]\",\"port\":5432}}".to_owned(),
        ),
        (
            "postgres://app:Xk29fLq7/Pw83mZa@db/app".to_owned(),
            "postgres://app:[REDACTED:url_password]@db/app".to_owned(),
        ),
        (
            "{\"text\":\"key \\u0073k-ant-api03-Zx9fK2mQ7vLp4RtY8wNc3Hb".to_owned(),
            "{\"text\":\"key [REDACTED:anthropic_key]".to_owned(),
        ),
        (
            "I found DB_PASSWORD=hunter2-9fQ2xLm7Rk4t in .env, so hunter2-9fQ2xLm7Rk4t goes"
                .to_owned(),
            "I found DB_PASSWORD=[REDACTED:password] in .env, so [REDACTED:password] goes"
                .to_owned(),
        ),
    ] {
        let out = redact_line(input.as_bytes());
        assert_eq!(String::from_utf8_lossy(&out.line), expect, "{input:?}");
    }
    for same in [
        "password: see the docs",
        "http://localhost:5173/@vite/client",
        "the vite client is http://localhost:5173/@vite/client, see",
        "{\"max_password_length\":1024,\"password\":12}",
    ] {
        let out = redact_line(same.as_bytes());
        assert_eq!(String::from_utf8_lossy(&out.line), same);
        assert!(out.findings.is_empty());
    }
}

/// A private key block left open is given up after a while: later long base64-looking
/// words are theirs again.
#[test]
fn an_open_key_block_ends() {
    let mut r = Redactor::new();
    let out = r.redact_line(b"-----BEGIN RSA PRIVATE KEY-----");
    assert!(out.findings.is_empty());
    let body = r.redact_line(b"MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB");
    assert_eq!(&body.line[..], b"[REDACTED:private_key]");
    let end = r.redact_line(b"-----END RSA PRIVATE KEY-----");
    assert!(end.findings.is_empty());
    let after = r.redact_line(b"commit Zx9fK2mQ7vLp4RtY8wNc3HbJ6dGs");
    assert!(after.findings.is_empty(), "closed by its END");
    // Never closed: 200 lines later it is over.
    let mut r = Redactor::new();
    r.redact_line(b"-----BEGIN PRIVATE KEY-----");
    for _ in 0..200 {
        r.redact_line(b"...");
    }
    let after = r.redact_line(b"Zx9fK2mQ7vLp4RtY8wNc3HbJ6dGs");
    assert!(after.findings.is_empty());
}
