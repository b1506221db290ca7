//! Hostile input through the public API: whatever a line holds, it gives exactly one
//! envelope, nothing panics, time stays bounded, and a line that is not strict JSON gets a row
//! saying what was wrong (an error row; a debug row for a byte-order mark before valid JSON),
//! or, for a line of a JSON document written over many lines (a line `{` or `[` and the lines
//! after it, as `gemini -o json` prints), the debug row `⚙ JSON document · …` — a document that
//! turns out not to be one is an error row on the line that shows it (docs/FORMATS.md).
//!
//! These tests look only at levels, counts and the rows of unreadable lines, not at the
//! summaries of Claude Code rows. The small hostile logs live in `tests/hostile/*.jsonl`
//! (written by `tests/hostile/gen.py`, which also writes the 50 MB ones for
//! `checks/conformance.py --hostile`); the big cases here are generated in memory.
//! Native only: it reads files, and 50 MB lines are a native concern.

#![cfg(not(target_arch = "wasm32"))]

use classifier::markdown::{MAX_DEPTH, render};
use classifier::{
    ClassifyCtx, Level, Line, LiveEvent, LogClassifier, MAX_LINE_BYTES, TermEnvelope,
    classify_line, parse_line,
};

const MB: usize = 1024 * 1024;

/// Reads `input` in `chunk`-byte pieces with line limit `limit` and classifies every line with
/// one context.
fn classify_all(input: &[u8], chunk: usize, limit: usize) -> Vec<TermEnvelope> {
    let mut log = LogClassifier::with_limit(limit);
    let mut out = Vec::new();
    for piece in input.chunks(chunk) {
        log.feed(piece, |env| out.push(env));
    }
    log.finish(|env| out.push(env));
    out
}

/// The non-blank lines of `input` as the contract counts them: split on `\n`, blank when
/// only spaces, tabs and `\r`; with their 1-based numbers.
fn nonblank(input: &[u8]) -> Vec<(u64, &[u8])> {
    input
        .split(|&b| b == b'\n')
        .enumerate()
        .filter(|(_, l)| l.iter().any(|b| !matches!(b, b' ' | b'\t' | b'\r')))
        .map(|(i, l)| (i as u64 + 1, l))
        .collect()
}

/// What the contract asks of one line's envelope.
fn check_line(line: &[u8], env: &TermEnvelope, what: &str) {
    for msg in &env.msgs {
        for text in [Some(&msg.summary), msg.body.as_ref()]
            .into_iter()
            .flatten()
        {
            assert!(
                !text
                    .chars()
                    .any(|c| c.is_control() && c != '\n' && c != '\t'),
                "{what}: a control character reached a row: {text:?}"
            );
        }
    }
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if serde_json::from_slice::<serde_json::Value>(line).is_ok() {
        return;
    }
    let errors = env.msgs.iter().filter(|m| m.level == Level::Error).count();
    let after_bom = line.strip_prefix(b"\xEF\xBB\xBF");
    if after_bom.is_some_and(|rest| serde_json::from_slice::<serde_json::Value>(rest).is_ok()) {
        assert!(
            env.msgs
                .iter()
                .any(|m| m.summary.contains("byte-order mark")),
            "{what}: BOM not reported: {env:?}"
        );
    } else {
        let in_document = env.msgs.iter().any(|m| {
            m.level == Level::Debug
                && m.summary.starts_with("⚙ JSON document · ")
                && m.coalesce_key.as_deref() == Some("json-doc")
        });
        assert!(
            errors >= 1 || in_document,
            "{what}: not JSON, but no error row: {env:?}"
        );
    }
}

/// One envelope per non-blank line, numbered by line, each as [`check_line`] wants; whole and
/// in 7-byte chunks (the same rows either way).
fn check_log(input: &[u8], what: &str) -> Vec<TermEnvelope> {
    let envs = classify_all(input, input.len().max(1), MAX_LINE_BYTES);
    let lines = nonblank(input);
    assert_eq!(
        envs.len(),
        lines.len(),
        "{what}: envelopes per non-blank line"
    );
    for ((number, line), env) in lines.iter().zip(&envs) {
        assert_eq!(env.seq, Some(*number), "{what}: seq");
        check_line(line, env, &format!("{what} line {number}"));
    }
    assert_eq!(
        classify_all(input, 7, MAX_LINE_BYTES),
        envs,
        "{what}: chunked"
    );
    envs
}

#[test]
fn every_committed_hostile_log_holds() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/hostile")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    assert!(files.len() >= 6, "hostile logs missing: {files:?}");
    for path in files {
        let data = std::fs::read(&path).expect("read");
        check_log(&data, &path.display().to_string());
    }
}

/// A single line that is not JSON gives one envelope with an error row whose summary
/// contains `says`.
fn check_unreadable(line: &[u8], says: &str) {
    let env = classify_line(&Line::whole(1, line), &mut ClassifyCtx::new());
    let error = env
        .msgs
        .iter()
        .find(|m| m.level == Level::Error)
        .unwrap_or_else(|| panic!("{line:?}: no error row: {env:?}"));
    assert!(
        error.summary.contains(says),
        "{:?}: {:?} does not say {says:?}",
        String::from_utf8_lossy(&line[..line.len().min(80)]),
        error.summary
    );
    check_log(line, "unreadable");
}

#[test]
fn unreadable_lines_say_what_was_wrong() {
    check_unreadable(b"[[", "EOF while parsing");
    check_unreadable(b"not json", "expected");
    check_unreadable(b"{\"a\":1} trailing", "trailing characters");
    check_unreadable(b"{\"n\":NaN}", "expected value");
    check_unreadable(b"{\"n\":1e400}", "out of range");
    check_unreadable(b"\xff\xfe{}", "invalid UTF-8 at byte 0");
    check_unreadable(b"{\"t\":\"ok \xc3\"}", "invalid UTF-8 at byte 9");
    check_unreadable(b"{\"t\":\"\\ud800\"}", "hex escape");
    check_unreadable(b"{\"t\":\"\\ud800 x\"}", "hex escape");
    check_unreadable(b"{\"t\":\"\\udc00\"}", "escape");
    check_unreadable(b"\0", "expected value");
    check_unreadable(b"{\"t\":\"raw \0 nul\"}", "control character");
    check_unreadable(b"\xEF\xBB\xBF[[", "EOF while parsing");
}

#[test]
fn deep_nesting_is_one_error_row() {
    check_unreadable(&b"[".repeat(10_000), "nested more than 128 levels deep");
    check_unreadable(
        &b"{\"a\":".repeat(10_000),
        "nested more than 128 levels deep",
    );
    check_unreadable(
        &[&b"["[..]; 129].concat(),
        "nested more than 128 levels deep",
    );
    // Just inside serde_json's limit: valid JSON, parsed and classified like any other value.
    let ok = [b"[".repeat(127), b"]".repeat(127)].concat();
    assert!(matches!(
        parse_line(&ok).event,
        LiveEvent::Unrecognised { .. }
    ));
    check_log(&ok, "127 deep");
}

#[test]
fn byte_order_marks_first_line_and_mid_file() {
    let line = br#"{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]}}"#;
    let input = [
        &b"\xEF\xBB\xBF"[..],
        line,
        b"\n",
        b"\xEF\xBB\xBF",
        line,
        b"\n",
        line,
    ]
    .concat();
    let envs = check_log(&input, "BOMs");
    let bom_rows = |env: &TermEnvelope| {
        env.msgs
            .iter()
            .filter(|m| m.summary.contains("byte-order mark"))
            .count()
    };
    assert_eq!(envs.iter().map(bom_rows).collect::<Vec<_>>(), [1, 1, 0]);
    // The rows otherwise match the line without a BOM.
    let plain: Vec<_> = envs[2].msgs.iter().map(|m| m.level).collect();
    let with_bom: Vec<_> = envs[0].msgs.iter().map(|m| m.level).collect();
    assert_eq!(with_bom[..with_bom.len() - 1], plain[..]);
}

#[test]
fn crlf_logs_read_like_lf_logs() {
    let lf = b"{\"type\":\"no_such_type\"}\n{\n\n{\"kind\":\"note\",\"text\":\"hi\"}\n";
    let crlf = b"{\"type\":\"no_such_type\"}\r\n{\r\n\r\n{\"kind\":\"note\",\"text\":\"hi\"}\r\n";
    let a = check_log(lf, "lf");
    let b = check_log(crlf, "crlf");
    assert_eq!(a, b);
}

/// A line `{` may begin a JSON document over many lines: its row is the open document's; the
/// line that shows it is no document is an error row holding every line of it.
#[test]
fn a_document_that_is_none_is_an_error_row() {
    for (log, at) in [
        (&b"{\nhello\n"[..], 1),
        (b"{\n  \"a\": 1,\n{\"type\":\"x\"}\n", 2),
        (b"{\n  \"a\": oops\n}\n", 2),
        (b"\xEF\xBB\xBF{\n\xff\n", 1),
    ] {
        let envs = check_log(log, "broken document");
        assert!(
            envs[0].msgs[0]
                .summary
                .starts_with("⚙ JSON document · 1 line"),
            "{envs:?}"
        );
        let broken = envs[at]
            .msgs
            .iter()
            .find(|m| m.level == Level::Error && m.summary.contains("does not parse"))
            .unwrap_or_else(|| panic!("{envs:?}"));
        assert!(
            broken.body.as_deref().unwrap_or("").starts_with('{'),
            "{broken:?}"
        );
    }
}

#[test]
fn wrong_shapes_give_one_envelope_and_no_error() {
    let cases: &[&str] = &[
        r#"{"type":"assistant","message":{"content":"a string"}}"#,
        r#"{"type":"assistant","message":{"content":["a",1,null,true,[]]}}"#,
        r#"{"type":"assistant","message":{"content":null}}"#,
        r#"{"type":"assistant","message":{"content":42}}"#,
        r#"{"type":"assistant","message":{"content":{"type":"text"}}}"#,
        r#"{"type":"assistant","message":null}"#,
        r#"{"type":"assistant"}"#,
        r#"{"type":"assistant","message":{"content":[{"type":"text","text":5}]}}"#,
        r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"a","name":"Bash","input":"ls"}]}}"#,
        r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":5,"name":null,"input":null}]}}"#,
        r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"a","content":42}]}}"#,
        r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":null,"content":null}]}}"#,
        r#"{"type":"user","message":{"content":7}}"#,
        r#"{"type":"system","subtype":5}"#,
        r#"{"kind":"turn_start","from":5,"body":[]}"#,
        r#"{"kind":"turn_end","ok":"yes"}"#,
        r#"{"kind":7}"#,
        r#"[]"#,
        r#"null"#,
        r#""text""#,
    ];
    for case in cases {
        let env = classify_line(&Line::whole(1, case.as_bytes()), &mut ClassifyCtx::new());
        assert!(
            env.msgs.iter().all(|m| m.level != Level::Error),
            "{case}: valid JSON of a wrong shape is not an error: {env:?}"
        );
        check_log(case.as_bytes(), case);
    }
}

#[test]
fn unknown_types_are_warned_about() {
    for case in [
        r#"{"type":"no_such_type"}"#,
        r#"{"kind":"no_such_kind"}"#,
        r#"{"neither":"kind nor type"}"#,
        r#"[1,2,3]"#,
    ] {
        let env = classify_line(&Line::whole(1, case.as_bytes()), &mut ClassifyCtx::new());
        assert!(
            env.msgs.iter().any(|m| m.level == Level::Warn),
            "{case}: no warn row: {env:?}"
        );
    }
}

#[test]
fn a_tool_result_before_its_call_still_shows() {
    let log = concat!(
        r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_9","content":"early"}]}}"#,
        "\n",
        r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_9","name":"Bash","input":{"command":"ls"}}]}}"#,
        "\n",
        r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_9","content":"late"}]}}"#,
    );
    let envs = check_log(log.as_bytes(), "result before call");
    assert!(envs.iter().all(|e| !e.msgs.is_empty()), "{envs:?}");
}

/// A valid assistant line whose text is `n` bytes.
fn huge_text_line(n: usize) -> Vec<u8> {
    let mut line = br#"{"type":"assistant","message":{"content":[{"type":"text","text":""#.to_vec();
    line.resize(line.len() + n, b'x');
    line.extend_from_slice(br#""}]}}"#);
    line
}

#[test]
fn a_50_mb_json_line_is_read_whole() {
    let mut input = huge_text_line(50 * MB);
    input.extend_from_slice(b"\n{\"kind\":\"note\",\"text\":\"next\"}\n");
    let envs = classify_all(&input, 64 * 1024, MAX_LINE_BYTES);
    assert_eq!(envs.len(), 2);
    assert!(!envs[0].msgs.is_empty());
    assert!(envs[0].msgs.iter().all(|m| m.level != Level::Error));
    assert_eq!(envs[1].seq, Some(2));
    assert_eq!(envs[1].msgs.len(), 1);
}

#[test]
fn fifty_mb_of_garbage_is_one_error_row() {
    let mut input: Vec<u8> = (0..50 * MB as u64)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .map(|b| if b == b'\n' { b'?' } else { b })
        .collect();
    input.extend_from_slice(b"\n{\"kind\":\"note\",\"text\":\"next\"}");
    let envs = classify_all(&input, 4096, MAX_LINE_BYTES);
    assert_eq!(envs.len(), 2);
    assert_eq!(envs[0].msgs.len(), 1);
    assert_eq!(envs[0].msgs[0].level, Level::Error);
    assert!(
        envs[0].msgs[0]
            .body
            .as_ref()
            .is_some_and(|b| b.len() < 1024)
    );
    assert_eq!(envs[1].seq, Some(2));
}

#[test]
fn a_line_over_the_limit_is_one_error_row_and_the_next_goes_on() {
    // Over the default limit, fed in 1 MB pieces of one buffer: never held whole.
    let mut log = LogClassifier::new();
    let mut envs = Vec::new();
    let head = br#"{"type":"assistant","message":{"content":[{"type":"text","text":""#;
    log.feed(b"{\"kind\":\"note\",\"text\":\"before\"}\n", |e| {
        envs.push(e)
    });
    log.feed(head, |e| envs.push(e));
    let piece = vec![b'y'; MB];
    for _ in 0..MAX_LINE_BYTES / MB + 1 {
        log.feed(&piece, |e| envs.push(e));
    }
    log.feed(b"\"}]}}\n{\"kind\":\"note\",\"text\":\"after\"}", |e| {
        envs.push(e)
    });
    log.finish(|e| envs.push(e));
    let len = head.len() + (MAX_LINE_BYTES / MB + 1) * MB + 5;
    assert_eq!(envs.len(), 3, "{envs:?}");
    assert_eq!(
        envs.iter().map(|e| e.seq).collect::<Vec<_>>(),
        [Some(1), Some(2), Some(3)]
    );
    let over = &envs[1].msgs;
    assert_eq!(over.len(), 1);
    assert_eq!(over[0].level, Level::Error);
    let says = format!("unreadable line · {len} bytes, over the {MAX_LINE_BYTES}-byte line limit");
    assert!(over[0].summary.contains(&says), "{:?}", over[0].summary);
    assert!(
        over[0]
            .body
            .as_ref()
            .is_some_and(|b| b.starts_with("{\"type\":\"assistant\""))
    );
    assert_eq!(envs[2].msgs.len(), 1);

    // A smaller limit, the same way.
    let mut input = huge_text_line(3 * MB);
    input.extend_from_slice(b"\n\n{}\n");
    let envs = classify_all(&input, 4096, MB);
    assert_eq!(envs.len(), 2);
    assert!(
        envs[0].msgs[0]
            .summary
            .contains("over the 1048576-byte line limit")
    );
    assert_eq!(envs[1].seq, Some(3));
}

#[test]
fn many_bad_lines_in_a_row() {
    let mut input = Vec::new();
    for i in 0..20_000 {
        input.extend_from_slice(if i % 3 == 0 {
            b"{\n"
        } else if i % 3 == 1 {
            &b"[[[[[[[[[[[[\n"[..]
        } else {
            b"\xff\n"
        });
    }
    let envs = check_log(&input, "many bad lines");
    assert_eq!(envs.len(), 20_000);
}

/// Markdown bodies built to hit slow paths; see `benches/bodies/mod.rs`.
#[path = "../benches/bodies/mod.rs"]
mod bodies;

/// Elements the markdown module may produce.
const TAGS: &[&str] = &[
    "p",
    "em",
    "strong",
    "del",
    "a",
    "code",
    "pre",
    "ul",
    "ol",
    "li",
    "blockquote",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "br",
    "hr",
];

/// Safe and bounded: only known elements, no attribute but a link's `href`/`rel` and a
/// list's `start`, no `javascript:`, nesting within the cap, and the output at most a fixed
/// multiple of the input.
fn check_html(name: &str, input: &str, html: &str) {
    let (mut open, mut deepest) = (0usize, 0usize);
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        let end = rest[i..]
            .find('>')
            .unwrap_or_else(|| panic!("{name}: unclosed tag"));
        let tag = &rest[i + 1..i + end];
        rest = &rest[i + end + 1..];
        let (closing, tag) = match tag.strip_prefix('/') {
            Some(t) => (true, t),
            None => (false, tag),
        };
        let mut words = tag.split_whitespace();
        let element = words.next().unwrap_or("");
        assert!(TAGS.contains(&element), "{name}: <{tag}>");
        for attr in words {
            let ok = attr.starts_with("href=\"http")
                || attr.starts_with("href=\"#")
                || attr.starts_with("rel=\"noopener")
                || attr == "noreferrer\""
                || attr.starts_with("start=\"");
            assert!(ok, "{name}: attribute {attr} in <{tag}>");
        }
        if closing {
            open = open.saturating_sub(1);
        } else if !matches!(element, "br" | "hr") {
            open += 1;
            deepest = deepest.max(open);
        }
    }
    assert!(deepest <= MAX_DEPTH + 2, "{name}: nested {deepest} deep");
    assert!(
        html.len() <= input.len() * 12 + 4096,
        "{name}: {} bytes out of {}",
        html.len(),
        input.len()
    );
}

#[test]
fn hostile_markdown_bodies_render_bounded_and_safe() {
    let mut cases = vec![
        ("realistic".to_owned(), bodies::realistic(MB)),
        ("nested quotes 50 KB".to_owned(), ">".repeat(50 * 1024)),
    ];
    for b in bodies::hostile(MB) {
        cases.push((b.name.to_owned(), b.text));
    }
    cases.push(("script soup".into(), bodies::repeat_to("<script>alert(1)</script><img src=x onerror=alert(1)>[x](javascript:alert(1))![t](https://t.example/p.gif)\n", 200_000)));
    for (name, text) in &cases {
        let html = render(text);
        check_html(name, text, &html);
    }
}
