//! The formats' data-driven tests' one harness: lines in, rows out (`icon|level|summary`, one
//! string a row), through every path that must agree — `classify_line` (the lean parse) with
//! the end of the log's rows in the last envelope, `LogClassifier` fed in 5-byte chunks, and a
//! context serialised and read back before every line (a server's checkpoints).

use crate::classify_line;
use crate::ctx::ClassifyCtx;
use crate::lines::Line;
use crate::log::LogClassifier;
use crate::msg::TermEnvelope;

/// The envelopes of `lines`, classified in order with one context, checked against the other
/// two paths.
pub(crate) fn envs<S: AsRef<str>>(lines: &[S]) -> Vec<TermEnvelope> {
    let lines: Vec<&str> = lines.iter().map(AsRef::as_ref).collect();
    let line = |i: usize, l: &str| Line::whole(i as u64 + 1, l.as_bytes().to_vec());
    let mut ctx = ClassifyCtx::new();
    let mut by_line: Vec<TermEnvelope> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| classify_line(&line(i, l), &mut ctx))
        .collect();
    // The end of the log ends what it ends, in the last line's envelope.
    let end = ctx.end_of_log();
    if let Some(last) = by_line.last_mut() {
        last.msgs.extend(end);
    }
    let text = lines.join("\n");
    let mut log = LogClassifier::new();
    let mut whole = Vec::new();
    for chunk in text.as_bytes().chunks(5) {
        log.feed(chunk, |e| whole.push(e));
    }
    log.finish(|e| whole.push(e));
    assert_eq!(by_line, whole, "{lines:?}");
    let mut ctx = ClassifyCtx::new();
    for (i, l) in lines.iter().enumerate() {
        ctx = serde_json::from_str(&serde_json::to_string(&ctx).unwrap()).unwrap();
        let mut env = classify_line(&line(i, l), &mut ctx);
        if i + 1 == lines.len() {
            ctx = serde_json::from_str(&serde_json::to_string(&ctx).unwrap()).unwrap();
            env.msgs.extend(ctx.end_of_log());
        }
        assert_eq!(env, by_line[i], "checkpointed, line {}", i + 1);
    }
    by_line
}

/// One `icon|level|summary` per row of `lines`.
pub(crate) fn rows<S: AsRef<str>>(lines: &[S]) -> Vec<String> {
    envs(lines)
        .into_iter()
        .flat_map(|e| e.msgs)
        .map(|m| {
            let icon = m.icon.unwrap_or_default();
            format!("{icon}|{}|{}", m.level.as_str(), m.summary)
        })
        .collect()
}

/// `lines` give exactly the rows `expect`.
pub(crate) fn check<S: AsRef<str> + std::fmt::Debug>(lines: &[S], expect: &[&str]) {
    assert_eq!(rows(lines), expect, "{lines:?}");
}
