//! Data-driven cases: lines in, rows out (`icon|level|summary`, one row a line).

use crate::classify_line;
use crate::ctx::ClassifyCtx;
use crate::lines::Line;

/// The rows of `lines` classified in order, one `icon|level|summary` per row.
fn rows(lines: &[&str]) -> Vec<String> {
    let mut ctx = ClassifyCtx::new();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let env = classify_line(&Line::whole(i as u64 + 1, l.as_bytes().to_vec()), &mut ctx);
        for m in env.msgs {
            out.push(format!(
                "{}|{}|{}",
                m.icon.unwrap_or_default(),
                m.level.as_str(),
                m.summary
            ));
        }
    }
    out
}

fn check(lines: &[&str], expect: &[&str]) {
    assert_eq!(rows(lines), expect, "{lines:?}");
}

#[test]
fn stream_turn() {
    check(
        &[
            r#"{"type":"init","timestamp":"2026-12-02T14:10:19.633Z","session_id":"s1","model":"auto"}"#,
            r#"{"type":"message","timestamp":"2026-12-02T14:10:19.634Z","role":"user","content":"hi"}"#,
            r#"{"type":"message","timestamp":"2026-12-02T14:10:19.634Z","role":"assistant","content":"Hel","delta":true}"#,
            r#"{"type":"result","timestamp":"2026-12-02T14:10:19.743Z","status":"success","stats":{}}"#,
        ],
        &[
            "|debug|⚙ gemini session s1 · model auto",
            "◆|info|TURN ← user",
            "|info|",
            "✅|info|turn ok",
        ],
    );
}

#[test]
fn real_lines_are_gemini() {
    let log = include_str!("../../../fixtures/gemini-0.61.0/gemini.failing_command.stream.jsonl");
    let lines: Vec<&str> = log.lines().collect();
    let got = rows(&lines);
    assert!(got.iter().all(|r| !r.starts_with("!|")), "{got:#?}");
}
