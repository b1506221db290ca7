//! Golden tests: every real log in `fixtures/` classified, its rows compared with a readable
//! golden file in `tests/golden/<fixture file name>.golden`.
//!
//! The same tests run natively (`cargo test`; `unsupported = test` makes them plain tests
//! there) and compiled to wasm32 in headless Chromium (`scripts/test.sh`), so native and
//! browser rows are proven identical. There is no file
//! system in the browser, so fixtures and goldens are compiled in with `include_bytes!` /
//! `include_str!`, listed once in [`FIXTURES`]; a native test fails when that list and the
//! files on disk disagree, so a new fixture cannot be skipped silently.
//!
//! Regenerate the goldens only on purpose, after a change to the rows you mean to make:
//! `UPDATE_GOLDEN=1 cargo test -p classifier --test golden`, then review `git diff`.
//! To add a fixture: copy it into `fixtures/<dir>/`, add it to [`FIXTURES`], create its
//! (empty) golden file so `include_str!` compiles, and regenerate.

use classifier::{
    BodyFormat, ClassifyCtx, LineReader, LogClassifier, RowKind, TermEnvelope, TermMsg,
    classify_line, row_kind, tool_of,
};
use serde_json::Value;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// One fixture log and its golden rows.
struct Fixture {
    /// Folder under `fixtures/`.
    dir: &'static str,
    /// File name; the golden file is `tests/golden/<name>.golden`.
    name: &'static str,
    /// The log's bytes.
    log: &'static [u8],
    /// The golden file's text as committed.
    golden: &'static str,
}

macro_rules! fixtures {
    ($($dir:literal / $name:literal,)*) => {
        &[$(Fixture {
            dir: $dir,
            name: $name,
            log: include_bytes!(concat!("../../fixtures/", $dir, "/", $name)),
            golden: include_str!(concat!("golden/", $name, ".golden")),
        },)*]
    };
}

/// Every file under `fixtures/` (checked by `fixture_list_matches_the_files` natively).
const FIXTURES: &[Fixture] = fixtures![
    "claude-code-2.1.332" / "api_fatal_400.stream.jsonl",
    "claude-code-2.1.332" / "api_fatal_400.transcript.jsonl",
    "claude-code-2.1.332" / "api_retry.stream.jsonl",
    "claude-code-2.1.332" / "api_retry.transcript.jsonl",
    "claude-code-2.1.332" / "basic_markdown.stream.jsonl",
    "claude-code-2.1.332" / "basic_markdown.transcript.jsonl",
    "claude-code-2.1.332" / "file_tools.stream.jsonl",
    "claude-code-2.1.332" / "file_tools.transcript.jsonl",
    "claude-code-2.1.332" / "mcp_tools.stream.jsonl",
    "claude-code-2.1.332" / "mcp_tools.transcript.jsonl",
    "claude-code-2.1.332" / "partial_messages.stream.jsonl",
    "claude-code-2.1.332" / "partial_messages.transcript.jsonl",
    "claude-code-2.1.332" / "resume_1_first.stream.jsonl",
    "claude-code-2.1.332" / "resume_1_first.transcript.jsonl",
    "claude-code-2.1.332" / "resume_2_resume.stream.jsonl",
    "claude-code-2.1.332" / "resume_3_continue.stream.jsonl",
    "claude-code-2.1.332" / "resume_4_compact.stream.jsonl",
    "claude-code-2.1.332" / "resume_5_after_compact.stream.jsonl",
    "claude-code-2.1.332" / "subagent.stream.jsonl",
    "claude-code-2.1.332" / "subagent.subagent-agent-ae89bd37fdd96fc64.transcript.jsonl",
    "claude-code-2.1.332" / "subagent.transcript.jsonl",
    "claude-code-2.1.332" / "tool_errors.stream.jsonl",
    "claude-code-2.1.332" / "tool_errors.transcript.jsonl",
    "hyperhive" / "api_fatal_400.events.jsonl",
    "hyperhive" / "file_tools.events.jsonl",
    "hyperhive" / "mcp_tools.events.jsonl",
    "gemini-0.61.0" / "gemini.api_fatal_400.session.jsonl",
    "gemini-0.61.0" / "gemini.api_fatal_400.stream.jsonl",
    "gemini-0.61.0" / "gemini.api_fatal_400_json.session.jsonl",
    "gemini-0.61.0" / "gemini.api_fatal_400_json.stderr.txt",
    "gemini-0.61.0" / "gemini.api_retry.session.jsonl",
    "gemini-0.61.0" / "gemini.api_retry.stream.jsonl",
    "gemini-0.61.0" / "gemini.basic_markdown.session.jsonl",
    "gemini-0.61.0" / "gemini.basic_markdown.stream.jsonl",
    "gemini-0.61.0" / "gemini.basic_markdown_json.session.jsonl",
    "gemini-0.61.0" / "gemini.basic_markdown_json.stdout.json",
    "gemini-0.61.0" / "gemini.failing_command.session.jsonl",
    "gemini-0.61.0" / "gemini.failing_command.stream.jsonl",
    "gemini-0.61.0" / "gemini.file_edit.session.jsonl",
    "gemini-0.61.0" / "gemini.file_edit.stream.jsonl",
    "gemini-0.61.0" / "gemini.file_read.session.jsonl",
    "gemini-0.61.0" / "gemini.file_read.stream.jsonl",
    "gemini-0.61.0" / "gemini.interrupted_stream.session.jsonl",
    "gemini-0.61.0" / "gemini.interrupted_stream.stream.jsonl",
    "gemini-0.61.0" / "gemini.plain_text.session.jsonl",
    "gemini-0.61.0" / "gemini.plain_text.stream.jsonl",
    "gemini-0.61.0" / "gemini.reasoning.session.jsonl",
    "gemini-0.61.0" / "gemini.reasoning.stream.jsonl",
    "gemini-0.61.0" / "gemini.resume_1_first.session.jsonl",
    "gemini-0.61.0" / "gemini.resume_1_first.stream.jsonl",
    "gemini-0.61.0" / "gemini.resume_2_latest.stream.jsonl",
    "gemini-0.61.0" / "gemini.resume_3_by_id.stream.jsonl",
    "gemini-0.61.0" / "gemini.shell_command.session.jsonl",
    "gemini-0.61.0" / "gemini.shell_command.stream.jsonl",
    "gemini-0.61.0" / "gemini.subagent.session.jsonl",
    "gemini-0.61.0" / "gemini.subagent.stream.jsonl",
    "gemini-0.61.0" / "gemini.subagent.subagent-3379175b.session.jsonl",
    "opencode-1.18.33" / "opencode.api_fatal_400.export.json",
    "opencode-1.18.33" / "opencode.api_fatal_400.stream.jsonl",
    "opencode-1.18.33" / "opencode.api_fatal_401.export.json",
    "opencode-1.18.33" / "opencode.api_fatal_401.stream.jsonl",
    "opencode-1.18.33" / "opencode.api_retry.export.json",
    "opencode-1.18.33" / "opencode.api_retry.stream.jsonl",
    "opencode-1.18.33" / "opencode.basic_markdown.export.json",
    "opencode-1.18.33" / "opencode.basic_markdown.stream.jsonl",
    "opencode-1.18.33" / "opencode.basic_markdown_thinking.export.json",
    "opencode-1.18.33" / "opencode.basic_markdown_thinking.stream.jsonl",
    "opencode-1.18.33" / "opencode.failing_command.export.json",
    "opencode-1.18.33" / "opencode.failing_command.stream.jsonl",
    "opencode-1.18.33" / "opencode.file_edit.export.json",
    "opencode-1.18.33" / "opencode.file_edit.stream.jsonl",
    "opencode-1.18.33" / "opencode.file_read.export.json",
    "opencode-1.18.33" / "opencode.file_read.stream.jsonl",
    "opencode-1.18.33" / "opencode.plain_text.export.json",
    "opencode-1.18.33" / "opencode.plain_text.stream.jsonl",
    "opencode-1.18.33" / "opencode.reasoning.export.json",
    "opencode-1.18.33" / "opencode.reasoning.stream.jsonl",
    "opencode-1.18.33" / "opencode.resume_1_first.export.json",
    "opencode-1.18.33" / "opencode.resume_1_first.stream.jsonl",
    "opencode-1.18.33" / "opencode.resume_2_continue.stream.jsonl",
    "opencode-1.18.33" / "opencode.resume_3_by_id.stream.jsonl",
    "opencode-1.18.33" / "opencode.shell_command.export.json",
    "opencode-1.18.33" / "opencode.shell_command.stream.jsonl",
    "opencode-1.18.33" / "opencode.todo_plan.export.json",
    "opencode-1.18.33" / "opencode.todo_plan.stream.jsonl",
    "codex-0.171.0" / "codex_api_fatal_400.session.jsonl",
    "codex-0.171.0" / "codex_api_fatal_400.stream.jsonl",
    "codex-0.171.0" / "codex_api_fatal_401.session.jsonl",
    "codex-0.171.0" / "codex_api_fatal_401.stream.jsonl",
    "codex-0.171.0" / "codex_api_retry.session.jsonl",
    "codex-0.171.0" / "codex_api_retry.stream.jsonl",
    "codex-0.171.0" / "codex_apply_patch.session.jsonl",
    "codex-0.171.0" / "codex_apply_patch.stream.jsonl",
    "codex-0.171.0" / "codex_basic_markdown.session.jsonl",
    "codex-0.171.0" / "codex_basic_markdown.stream.jsonl",
    "codex-0.171.0" / "codex_code_mode.session.jsonl",
    "codex-0.171.0" / "codex_code_mode.stream.jsonl",
    "codex-0.171.0" / "codex_failing_command.session.jsonl",
    "codex-0.171.0" / "codex_failing_command.stream.jsonl",
    "codex-0.171.0" / "codex_file_read.session.jsonl",
    "codex-0.171.0" / "codex_file_read.stream.jsonl",
    "codex-0.171.0" / "codex_interrupted_stream.session.jsonl",
    "codex-0.171.0" / "codex_interrupted_stream.stream.jsonl",
    "codex-0.171.0" / "codex_plain_text.session.jsonl",
    "codex-0.171.0" / "codex_plain_text.stream.jsonl",
    "codex-0.171.0" / "codex_reasoning.session.jsonl",
    "codex-0.171.0" / "codex_reasoning.stream.jsonl",
    "codex-0.171.0" / "codex_resume_1_first.session.jsonl",
    "codex-0.171.0" / "codex_resume_1_first.stream.jsonl",
    "codex-0.171.0" / "codex_resume_2_by_id.stream.jsonl",
    "codex-0.171.0" / "codex_resume_3_last.stream.jsonl",
    "codex-0.171.0" / "codex_shell_command.session.jsonl",
    "codex-0.171.0" / "codex_shell_command.stream.jsonl",
    "qwen-0.24.4" / "qwen.api_fatal_400.session.jsonl",
    "qwen-0.24.4" / "qwen.api_fatal_400.stream.jsonl",
    "qwen-0.24.4" / "qwen.api_fatal_400_json.stdout.json",
    "qwen-0.24.4" / "qwen.api_retry.session.jsonl",
    "qwen-0.24.4" / "qwen.api_retry.stream.jsonl",
    "qwen-0.24.4" / "qwen.basic_markdown_partial.stream.jsonl",
    "qwen-0.24.4" / "qwen.failing_command.session.jsonl",
    "qwen-0.24.4" / "qwen.failing_command.stream.jsonl",
    "qwen-0.24.4" / "qwen.file_edit.session.jsonl",
    "qwen-0.24.4" / "qwen.reasoning.stream.jsonl",
    "qwen-0.24.4" / "qwen.resume_1_first.session.jsonl",
    "qwen-0.24.4" / "qwen.todo_plan.stream.jsonl",
    "copilot-1.0.102" / "copilot.api_fatal_400.763da77a.events.jsonl",
    "copilot-1.0.102" / "copilot.api_fatal_400.91eff5d7.events.jsonl",
    "copilot-1.0.102" / "copilot.api_fatal_400.stream.jsonl",
    "copilot-1.0.102" / "copilot.api_retry.events.jsonl",
    "copilot-1.0.102" / "copilot.api_retry.stream.jsonl",
    "copilot-1.0.102" / "copilot.failing_command.events.jsonl",
    "copilot-1.0.102" / "copilot.failing_command.stream.jsonl",
    "copilot-1.0.102" / "copilot.file_edit.events.jsonl",
    "copilot-1.0.102" / "copilot.reasoning.stream.jsonl",
    "copilot-1.0.102" / "copilot.resume_1_first.events.jsonl",
    "copilot-1.0.102" / "copilot.todo_plan.stream.jsonl",
];

/// A session of several files: a main log and its subagents' logs, classified as one
/// (`hiveterm classify` of a session transcript reads its `subagents/` folder so).
struct Session {
    /// The golden file is `tests/golden/<name>.golden`.
    name: &'static str,
    /// The main log's bytes.
    main: &'static [u8],
    /// Each subagent's id (from its file's name) and log, oldest first.
    subagents: &'static [(&'static str, &'static [u8])],
    /// The golden file's text as committed.
    golden: &'static str,
}

/// The sessions with subagents' files beside them (their folders under `fixtures/`).
const SESSIONS: &[Session] = &[
    Session {
        name: "subagent.transcript.jsonl+subagents",
        main: include_bytes!("../../fixtures/claude-code-2.1.332/subagent.transcript.jsonl"),
        subagents: &[(
            "ae89bd37fdd96fc64",
            include_bytes!(
                "../../fixtures/claude-code-2.1.332/subagent.transcript/subagents/agent-ae89bd37fdd96fc64.jsonl"
            ),
        )],
        golden: include_str!("golden/subagent.transcript.jsonl+subagents.golden"),
    },
    Session {
        name: "gemini.subagent.session.jsonl+subagents",
        main: include_bytes!("../../fixtures/gemini-0.61.0/gemini.subagent.session.jsonl"),
        subagents: &[(
            "3379175b-11ed-4f13-84e8-b95f2ccef876",
            include_bytes!(
                "../../fixtures/gemini-0.61.0/6a32b09a-db98-4639-82e6-0e4802f905b6/3379175b-11ed-4f13-84e8-b95f2ccef876.jsonl"
            ),
        )],
        golden: include_str!("golden/gemini.subagent.session.jsonl+subagents.golden"),
    },
];

/// Classifies a session's files as one, as `hiveterm classify` does: the main log, then each
/// subagent's through [`LogClassifier::next_file`].
fn classify_session(session: &Session) -> Vec<(Vec<u8>, TermEnvelope)> {
    let mut out = Vec::new();
    let mut log = LogClassifier::new();
    let mut push = |env| out.push((Vec::new(), env));
    for chunk in session.main.chunks(CHUNK) {
        log.feed(chunk, &mut push);
    }
    log.finish(&mut push);
    for (agent, bytes) in session.subagents {
        log = log.next_file(Some(agent));
        for chunk in bytes.chunks(CHUNK) {
            log.feed(chunk, &mut push);
        }
        log.finish(&mut push);
    }
    out
}

#[wasm_bindgen_test(unsupported = test)]
fn session_goldens_match() {
    let update = updating();
    let mut failures = Vec::new();
    for session in SESSIONS {
        let envs = classify_session(session);
        let mut seqs: Vec<u64> = envs.iter().filter_map(|(_, e)| e.seq).collect();
        let n = seqs.len();
        seqs.dedup();
        assert_eq!(
            seqs.len(),
            n,
            "{}: every seq unique and in order",
            session.name
        );
        assert!(
            envs.iter().any(|(_, e)| e.parent.is_some()),
            "{}: some envelope is a subagent's",
            session.name
        );
        let actual = render(&envs);
        if update {
            if actual != session.golden {
                write_golden(session.name, &actual);
                println!("updated tests/golden/{}.golden", session.name);
            }
        } else if actual != session.golden {
            failures.push(format!(
                "{}: rows differ from its golden; {}",
                session.name,
                first_difference(session.golden, &actual)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Bytes fed to the line reader at a time: small and odd, so lines straddle chunk borders
/// as they do when a file is read in pieces.
const CHUNK: usize = 4093;

/// Classifies a whole log as `hiveterm classify` does: one context per file, seq = line
/// number. Returns each envelope with the raw line it came from.
fn classify_log(log: &[u8]) -> Vec<(Vec<u8>, TermEnvelope)> {
    let mut ctx = ClassifyCtx::new();
    let mut reader = LineReader::new();
    let mut out = Vec::new();
    for chunk in log.chunks(CHUNK) {
        reader.push(chunk, |line| {
            let env = classify_line(&line, &mut ctx);
            out.push((line.bytes, env));
        });
    }
    reader.finish(|line| {
        let env = classify_line(&line, &mut ctx);
        out.push((line.bytes, env));
    });
    // The end of the log ends what it ends (a Gemini recording's last turn), in the last
    // line's envelope, as `LogClassifier::finish` does.
    let end = ctx.end_of_log();
    if let Some((_, last)) = out.last_mut() {
        last.msgs.extend(end);
    }
    out
}

/// The readable golden text of a log's envelopes:
///
/// ```text
/// #12 ts=1765432100.5
///   info  [◆] TURN ← operator
///     ~ body_format: markdown
///     ~ coalesce_key: thinking
///     │ first body line
/// #13
///   (no rows)
/// #14 ts=1765432101 parent=12
///   info  [] …
/// ```
///
/// `parent=` is a subagent's envelope's `parent`.
///
/// `[]` is a row without an icon. Control characters other than tab are shown escaped
/// (`\u{1b}`), so none can hide in a golden file.
fn render(envs: &[(Vec<u8>, TermEnvelope)]) -> String {
    let mut out = String::new();
    for (_, env) in envs {
        match env.seq {
            Some(seq) => out.push_str(&format!("#{seq}")),
            None => out.push_str("#?"),
        }
        if let Some(ts) = env.ts {
            out.push_str(&format!(" ts={ts}"));
        }
        if let Some(parent) = env.parent {
            out.push_str(&format!(" parent={parent}"));
        }
        out.push('\n');
        if env.msgs.is_empty() {
            out.push_str("  (no rows)\n");
        }
        for row in &env.msgs {
            render_row(&mut out, row);
        }
    }
    out
}

fn render_row(out: &mut String, row: &TermMsg) {
    out.push_str(&format!(
        "  {:<5} [{}] {}\n",
        row.level.as_str(),
        escape(row.icon.as_deref().unwrap_or("")),
        escape(&row.summary),
    ));
    if let Some(format) = row.body_format {
        let name = match format {
            BodyFormat::Markdown => "markdown",
            BodyFormat::Diff => "diff",
        };
        out.push_str(&format!("    ~ body_format: {name}\n"));
    }
    if let Some(key) = &row.coalesce_key {
        out.push_str(&format!("    ~ coalesce_key: {}\n", escape(key)));
    }
    if let Some(body) = &row.body {
        for line in body.split('\n') {
            out.push_str(&format!("    │ {}\n", escape(line)));
        }
    }
}

/// Shows control characters other than tab as `\u{..}`; everything else as is.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() && c != '\t' {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// A short report of where `actual` first departs from `expected`, with context.
fn first_difference(expected: &str, actual: &str) -> String {
    const CONTEXT: usize = 3;
    const SHOWN: usize = 12;
    let exp: Vec<&str> = expected.lines().collect();
    let act: Vec<&str> = actual.lines().collect();
    let at = exp
        .iter()
        .zip(&act)
        .position(|(e, a)| e != a)
        .unwrap_or(exp.len().min(act.len()));
    let from = at.saturating_sub(CONTEXT);
    let mut report = format!(
        "first difference at golden line {} (golden has {} lines, actual {}):\n",
        at + 1,
        exp.len(),
        act.len()
    );
    for (i, line) in exp.iter().enumerate().take(at).skip(from) {
        report.push_str(&format!("  {:>5}   {line}\n", i + 1));
    }
    for (i, line) in exp.iter().enumerate().skip(at).take(SHOWN) {
        report.push_str(&format!("  {:>5} - {line}\n", i + 1));
    }
    for (i, line) in act.iter().enumerate().skip(at).take(SHOWN) {
        report.push_str(&format!("  {:>5} + {line}\n", i + 1));
    }
    report
}

/// Whether goldens are to be rewritten rather than compared (native only, on purpose).
fn updating() -> bool {
    cfg!(not(target_family = "wasm")) && std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1")
}

#[cfg(not(target_family = "wasm"))]
fn golden_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

#[cfg(not(target_family = "wasm"))]
fn write_golden(name: &str, text: &str) {
    let path = golden_dir().join(format!("{name}.golden"));
    if let Err(e) = std::fs::write(&path, text) {
        panic!("cannot write {}: {e}", path.display());
    }
}

#[cfg(target_family = "wasm")]
fn write_golden(_: &str, _: &str) {
    unreachable!("goldens are only written natively");
}

#[wasm_bindgen_test(unsupported = test)]
fn goldens_match() {
    let update = updating();
    let mut failures = Vec::new();
    for fx in FIXTURES {
        let actual = render(&classify_log(fx.log));
        if update {
            if actual != fx.golden {
                write_golden(fx.name, &actual);
                println!("updated tests/golden/{}.golden", fx.name);
            }
        } else if actual != fx.golden {
            failures.push(format!(
                "{}/{}: rows differ from tests/golden/{}.golden; {}",
                fx.dir,
                fx.name,
                fx.name,
                first_difference(fx.golden, &actual)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} fixtures differ from their goldens. If the change is intended, run \
         `UPDATE_GOLDEN=1 cargo test -p classifier --test golden` and review the diff.\n\n{}",
        failures.len(),
        FIXTURES.len(),
        failures.join("\n")
    );
}

/// Line types Claude Code declares (stream-json and transcript bookkeeping); none may come
/// out as an unrecognised (`!`) row. The same set as `checks/conformance.py`'s KNOWN.
const KNOWN_TYPES: &[&str] = &[
    "system",
    "assistant",
    "user",
    "result",
    "stream_event",
    "rate_limit_event",
    "tool_progress",
    "auth_status",
    "tool_use_summary",
    "prompt_suggestion",
    "conversation_reset",
    "keep_alive",
    "active_goal",
    "control_request",
    "control_response",
    "control_cancel_request",
    "summary",
    "file-history-snapshot",
    "queue-operation",
    "attachment",
    "api-request",
    "api-request-blob",
    "api-request-shape",
    "progress",
    "custom-title",
    "last-prompt",
    "mode",
    "atis-latch",
    "cost-state",
    "tools-used",
    "ai-title",
    "agent-name",
    "agent-color",
];

/// System subtypes the design notes show (`docs/ROWS.md`); a line of one of these must give a
/// row (as conformance.py).
const SHOWN_SYSTEM: &[&str] = &[
    "api_retry",
    "compact_boundary",
    "task_started",
    "task_notification",
    "api_error",
    "commands_changed",
    "plugin_install",
];

/// Whether a real line carries content a reader must see as at least one row: assistant
/// text/thinking/tool_use, a user tool_result, a system subtype the design notes show.
fn must_show(v: &Value) -> bool {
    let blocks: Vec<&Value> = v
        .pointer("/message/content")
        .and_then(Value::as_array)
        .map(|c| c.iter().filter(|b| b.is_object()).collect())
        .unwrap_or_default();
    fn block_type(b: &Value) -> &str {
        b.get("type").and_then(Value::as_str).unwrap_or("")
    }
    match v.get("type").and_then(Value::as_str) {
        Some("assistant") => blocks.iter().any(|b| match block_type(b) {
            "tool_use" => true,
            "text" | "thinking" => ["text", "thinking"].iter().any(|k| {
                b.get(k)
                    .and_then(Value::as_str)
                    .is_some_and(|s| !s.trim().is_empty())
            }),
            _ => false,
        }),
        Some("user") => blocks.iter().any(|b| block_type(b) == "tool_result"),
        Some("system") => v
            .get("subtype")
            .and_then(Value::as_str)
            .is_some_and(|s| SHOWN_SYSTEM.contains(&s)),
        _ => false,
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn fixtures_have_no_unrecognised_rows() {
    let mut problems = Vec::new();
    for fx in FIXTURES {
        for (bytes, env) in classify_log(fx.log) {
            let seq = env.seq.unwrap_or(0);
            let Ok(mut v) = serde_json::from_slice::<Value>(&bytes) else {
                continue;
            };
            // A hyperhive event-log line wraps the stream-json value.
            if v.get("kind").and_then(Value::as_str) == Some("stream")
                && v.get("value").is_some_and(Value::is_object)
            {
                v = v["value"].take();
            }
            let ty = v.get("type").and_then(Value::as_str).unwrap_or("");
            if KNOWN_TYPES.contains(&ty) {
                let unrecognised = env.msgs.iter().filter(|m| m.icon.as_deref() == Some("!"));
                for row in unrecognised {
                    problems.push(format!(
                        "{}/{} line {seq} (type {ty}) shown as unrecognised: {}",
                        fx.dir, fx.name, row.summary
                    ));
                }
            }
            if must_show(&v) && env.msgs.is_empty() {
                problems.push(format!(
                    "{}/{} line {seq} (type {ty}) has content but no row",
                    fx.dir, fx.name
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems; first ones:\n{}",
        problems.len(),
        problems[..problems.len().min(40)].join("\n")
    );
}

/// The compiled-in list is exactly the files under `fixtures/*/`, and every golden file
/// belongs to a listed fixture.
#[cfg(not(target_family = "wasm"))]
#[test]
fn fixture_list_matches_the_files() {
    use std::collections::BTreeSet;
    use std::path::Path;

    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut on_disk = BTreeSet::new();
    for dir in std::fs::read_dir(&root).expect("fixtures/ is readable") {
        let dir = dir.expect("fixtures/ entry");
        if !dir.file_type().expect("file type").is_dir() {
            continue; // fixtures/README.md
        }
        for file in std::fs::read_dir(dir.path()).expect("fixture folder is readable") {
            let file = file.expect("fixture entry");
            if file.file_type().expect("file type").is_dir() {
                continue; // a session's subagents' files: SESSIONS
            }
            on_disk.insert(format!(
                "{}/{}",
                dir.file_name().to_string_lossy(),
                file.file_name().to_string_lossy()
            ));
        }
    }
    let listed: BTreeSet<String> = FIXTURES
        .iter()
        .map(|f| format!("{}/{}", f.dir, f.name))
        .collect();
    let unlisted: Vec<_> = on_disk.difference(&listed).collect();
    let gone: Vec<_> = listed.difference(&on_disk).collect();
    assert!(
        unlisted.is_empty() && gone.is_empty(),
        "FIXTURES in classifier/tests/golden.rs is out of date.\n  on disk, not listed: \
         {unlisted:?}\n  listed, not on disk: {gone:?}\nList each new fixture, create an empty \
         tests/golden/<name>.golden, then run UPDATE_GOLDEN=1 cargo test -p classifier --test golden"
    );

    let names: BTreeSet<&str> = FIXTURES.iter().map(|f| f.name).collect();
    assert_eq!(
        names.len(),
        FIXTURES.len(),
        "two fixtures share a file name, so they would share a golden file"
    );
    let goldens: BTreeSet<String> = std::fs::read_dir(golden_dir())
        .expect("tests/golden/ is readable")
        .map(|e| {
            e.expect("golden entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let wanted: BTreeSet<String> = names
        .iter()
        .chain(SESSIONS.iter().map(|s| &s.name))
        .map(|n| format!("{n}.golden"))
        .collect();
    let stale: Vec<_> = goldens.difference(&wanted).collect();
    assert!(
        stale.is_empty(),
        "golden files without a fixture: {stale:?}"
    );
}

/// A tool's name as its call row's summary prints it (the rule of `classifier::tools`):
/// `mcp__hyperhive__send` → `send*`, `mcp__github__create_issue` → `github:create_issue`.
fn shown_tool_name(name: &str) -> String {
    match name.strip_prefix("mcp__").and_then(|r| r.split_once("__")) {
        Some(("hyperhive" | "bash" | "matrix", t)) if !t.is_empty() => format!("{t}*"),
        Some((s, t)) if !s.is_empty() && !t.is_empty() => format!("{s}:{t}"),
        _ => name.to_owned(),
    }
}

/// What a source line's rows must read back as, from how they are made.
#[derive(Default)]
struct Made {
    /// The kinds other than [`RowKind::Other`], in order.
    kinds: Vec<(RowKind, Option<String>)>,
    /// A user line: its text may open a turn (a prompt), first.
    prompt: bool,
    /// A transcript assistant line whose message ends the turn: may add a turn end, last.
    may_end: bool,
}

/// The row kinds a source line must give, from how its rows are made (`harness`: a hyperhive
/// turn event came before): a hyperhive `turn_start` is one turn start, a `turn_end` one turn
/// end (ok or fail by its `ok`); without a harness, a stream-json `init` is a turn start and
/// a `result` a turn end (fail when `is_error` or an `error_*` subtype); an assistant message
/// gives one tool call per `tool_use` block, naming its tool, in order; a user message's text
/// may open a turn (a prompt), first; Claude Code's interruption marker is one interruption;
/// nothing else gives a turn or tool-call row.
fn made_kinds(v: &Value, harness: bool) -> Made {
    let kinds = |kinds| Made {
        kinds,
        ..Made::default()
    };
    if let Some(kind) = v.get("kind").and_then(Value::as_str) {
        return match kind {
            "turn_start" => kinds(vec![(RowKind::TurnStart, None)]),
            "turn_end" => match v.get("ok").and_then(Value::as_bool) {
                Some(true) => kinds(vec![(RowKind::TurnOk, None)]),
                Some(false) => kinds(vec![(RowKind::TurnFail, None)]),
                None => Made::default(),
            },
            "stream" => made_kinds(v.get("value").unwrap_or(&Value::Null), harness),
            _ => Made::default(),
        };
    }
    let blocks = v
        .pointer("/message/content")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let subtype = v.get("subtype").and_then(Value::as_str).unwrap_or("");
    match v.get("type").and_then(Value::as_str) {
        Some("system") if subtype == "init" && !harness => kinds(vec![(RowKind::TurnStart, None)]),
        // The agent began compacting (a status with neither result nor error yet).
        Some("system")
            if subtype == "status"
                && v.get("status").and_then(Value::as_str) == Some("compacting")
                && v.get("compact_result").is_none()
                && v.get("compact_error").is_none() =>
        {
            kinds(vec![(RowKind::Compacting, None)])
        }
        Some("result") if !harness => {
            let fail = v.get("is_error").and_then(Value::as_bool) == Some(true)
                || subtype.starts_with("error");
            let kind = if fail {
                RowKind::TurnFail
            } else {
                RowKind::TurnOk
            };
            kinds(vec![(kind, None)])
        }
        Some("assistant") => {
            let calls = blocks
                .iter()
                .filter(|b| {
                    matches!(
                        b.get("type").and_then(Value::as_str),
                        Some("tool_use" | "server_tool_use" | "mcp_tool_use")
                    )
                })
                .map(|b| {
                    let name = b.get("name").and_then(Value::as_str).unwrap_or("?");
                    (RowKind::ToolCall, Some(shown_tool_name(name)))
                })
                .collect();
            let stop = v.pointer("/message/stop_reason").and_then(Value::as_str);
            Made {
                kinds: calls,
                prompt: false,
                may_end: v.get("sessionId").is_some()
                    && matches!(stop, Some("end_turn" | "stop_sequence" | "refusal")),
            }
        }
        Some("user") => {
            let text: String = match v.pointer("/message/content") {
                Some(Value::String(s)) => s.clone(),
                _ => blocks
                    .iter()
                    .filter_map(|b| b.get("text").and_then(Value::as_str))
                    .collect(),
            };
            if text.trim().starts_with("[Request interrupted by user") {
                kinds(vec![(RowKind::Interrupted, None)])
            } else {
                Made {
                    prompt: true,
                    ..Made::default()
                }
            }
        }
        _ => Made::default(),
    }
}

/// The row kinds a Codex line must give (`docs/ROWS.md`, "Codex"): `turn.started` one turn
/// start, `turn.completed` / `turn.failed` one turn end; an `item.started` command or file
/// change one `Bash` / `apply_patch` call (its `item.completed` none); in a rollout a
/// `function_call` of `exec_command` one `Bash` call, a `custom_tool_call` one call of its
/// name, a command or file change that no call made (code mode's, ids `exec-…`) one call,
/// `task_complete` one turn end (fail with an `error`), `turn_aborted` one interruption; any
/// rollout line of a turn may open it first (a prompt, or a bodiless turn start).
fn codex_made_kinds(v: &Value) -> Made {
    let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
    let tool = |name: &str| vec![(RowKind::ToolCall, Some(name.to_owned()))];
    let kinds = match s(v, "type").as_deref().unwrap_or("") {
        "turn.started" => vec![(RowKind::TurnStart, None)],
        "turn.completed" => vec![(RowKind::TurnOk, None)],
        "turn.failed" => vec![(RowKind::TurnFail, None)],
        "item.started" => match v.get("item").and_then(|i| s(i, "type")).as_deref() {
            Some("command_execution") => tool("Bash"),
            Some("file_change") => tool("apply_patch"),
            _ => vec![],
        },
        "response_item" | "event_msg" => {
            let p = &v["payload"];
            let kinds = match s(p, "type").as_deref().unwrap_or("") {
                "function_call" if s(p, "name").as_deref() == Some("exec_command") => tool("Bash"),
                "custom_tool_call" => tool(&s(p, "name").unwrap_or_default()),
                "task_complete" if p.get("error").is_some() => vec![(RowKind::TurnFail, None)],
                "task_complete" => vec![(RowKind::TurnOk, None)],
                "turn_aborted" => vec![(RowKind::Interrupted, None)],
                "item_completed" => {
                    let item = &p["item"];
                    let nested = s(item, "id").is_some_and(|id| id.starts_with("exec-"));
                    match s(item, "type").as_deref() {
                        Some("CommandExecution") if nested => tool("Bash"),
                        Some("FileChange") if nested => tool("apply_patch"),
                        _ => vec![],
                    }
                }
                _ => vec![],
            };
            return Made {
                kinds,
                prompt: true,
                may_end: false,
            };
        }
        _ => vec![],
    };
    Made {
        kinds,
        ..Made::default()
    }
}

/// Issue 8 §2: `row_kind` and `tool_of` agree with how every row of every real fixture was
/// made, so the page can rely on them instead of matching icons.
#[wasm_bindgen_test(unsupported = test)]
fn every_golden_row_reads_back_as_what_made_it() {
    let mut problems = Vec::new();
    let mut seen = std::collections::HashMap::<RowKind, usize>::new();
    for fx in FIXTURES {
        // Claude Code and hyperhive lines only: a Gemini log's rows are made from its own
        // shapes (and a recording's turn ends from the lines after), held by the unit tests of
        // `classifier/src/gemini/tests.rs` and by reading its golden files. So are OpenCode's
        // (`classifier/src/opencode/tests.rs`) and Copilot CLI's (`classifier/src/copilot/tests.rs`).
        // (Qwen Code's session records are read as the transcript lines of the same meaning,
        // `classifier/src/qwen/record.rs`: their raw lines do not say what made each row.)
        if ["gemini", "opencode", "qwen", "copilot"]
            .iter()
            .any(|a| fx.dir.starts_with(a))
        {
            continue;
        }
        let mut harness = false;
        for (bytes, env) in classify_log(fx.log) {
            let seq = env.seq.unwrap_or(0);
            let got: Vec<(RowKind, Option<String>)> = env
                .msgs
                .iter()
                .map(|m| (row_kind(m), tool_of(m).map(str::to_owned)))
                .collect();
            for (kind, _) in &got {
                *seen.entry(*kind).or_default() += 1;
            }
            let results = got
                .iter()
                .filter(|(k, _)| *k == RowKind::ToolResult)
                .count();
            let got: Vec<_> = got
                .into_iter()
                .filter(|(k, _)| !matches!(k, RowKind::Other | RowKind::ToolResult))
                .collect();
            let value = serde_json::from_slice::<Value>(&bytes).unwrap_or_default();
            // Each good `tool_result` block of a Claude Code line is one `←` result row.
            if !fx.dir.starts_with("codex") {
                let inner = match value.get("kind").and_then(Value::as_str) {
                    Some("stream") => value.get("value").unwrap_or(&Value::Null),
                    _ => &value,
                };
                let good = inner
                    .pointer("/message/content")
                    .and_then(Value::as_array)
                    .map_or(0, |blocks| {
                        blocks
                            .iter()
                            .filter(|b| {
                                b.get("type").and_then(Value::as_str) == Some("tool_result")
                                    && b.get("is_error").and_then(Value::as_bool) != Some(true)
                            })
                            .count()
                    });
                if inner.get("type").and_then(Value::as_str) == Some("user") && good != results {
                    problems.push(format!(
                        "{}/{} #{seq}: {results} result rows for {good} results",
                        fx.dir, fx.name
                    ));
                }
            }
            let made = if fx.dir.starts_with("codex") {
                codex_made_kinds(&value)
            } else {
                made_kinds(&value, harness)
            };
            if matches!(
                value.get("kind").and_then(Value::as_str),
                Some("turn_start" | "turn_end")
            ) {
                harness = true;
            }
            let mut want = made.kinds;
            if made.prompt && got.first() == Some(&(RowKind::TurnStart, None)) {
                want.insert(0, (RowKind::TurnStart, None));
            }
            if made.may_end
                && let Some(last @ (RowKind::TurnOk | RowKind::TurnFail, None)) = got.last()
            {
                want.push(last.clone());
            }
            if got != want {
                problems.push(format!(
                    "{}/{} #{seq}: {got:?}, made as {want:?}",
                    fx.dir, fx.name
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The fixtures exercise every kind the logs can show today.
    for kind in [
        RowKind::TurnStart,
        RowKind::TurnOk,
        RowKind::TurnFail,
        RowKind::ToolCall,
        RowKind::ToolResult,
        RowKind::Compacting,
        RowKind::Other,
    ] {
        assert!(
            seen.get(&kind).is_some_and(|n| *n > 0),
            "no {kind:?} row in the fixtures"
        );
    }
}

/// Issue 10: the real partial-message stream cut at every `stream_event` line, then ended by a
/// failed turn or by an interrupt: the `(interrupted)` row holds exactly the answer text
/// streamed since the last complete assistant message (none when there is none), before the
/// end row.
#[wasm_bindgen_test(unsupported = test)]
fn a_cut_partial_answer_is_kept_at_every_stream_event() {
    let fx = FIXTURES
        .iter()
        .find(|f| f.name == "partial_messages.stream.jsonl")
        .expect("the partial-message fixture");
    let lines: Vec<&[u8]> = fx
        .log
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    let endings: [(&str, RowKind); 2] = [
        (
            r#"{"type":"result","subtype":"error_during_execution","is_error":true}"#,
            RowKind::TurnFail,
        ),
        (
            r#"{"type":"user","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user]"}]}}"#,
            RowKind::Interrupted,
        ),
    ];
    let mut cuts = 0;
    for cut in 1..=lines.len() {
        let v: Value = serde_json::from_slice(lines[cut - 1]).unwrap();
        if v.get("type").and_then(Value::as_str) != Some("stream_event") {
            continue;
        }
        cuts += 1;
        // What was streamed: text deltas since the last assistant line, by reading the lines.
        let mut streamed = String::new();
        for line in &lines[..cut] {
            let v: Value = serde_json::from_slice(line).unwrap();
            match v.get("type").and_then(Value::as_str) {
                Some("assistant") => streamed.clear(),
                Some("stream_event")
                    if v.pointer("/event/delta/type").and_then(Value::as_str)
                        == Some("text_delta") =>
                {
                    streamed.push_str(v.pointer("/event/delta/text").unwrap().as_str().unwrap());
                }
                _ => {}
            }
        }
        for (end, kind) in endings {
            let mut log = lines[..cut].join(&b'\n');
            log.push(b'\n');
            log.extend_from_slice(end.as_bytes());
            let envs = classify_log(&log);
            let last = &envs.last().unwrap().1.msgs;
            let want_rows = if streamed.is_empty() { 1 } else { 2 };
            assert_eq!(last.len(), want_rows, "cut at {cut}: {last:?}");
            assert_eq!(row_kind(last.last().unwrap()), kind, "cut at {cut}");
            if !streamed.is_empty() {
                assert_eq!(last[0].summary, "(interrupted)", "cut at {cut}");
                assert_eq!(
                    last[0].body.as_deref(),
                    Some(streamed.as_str()),
                    "cut at {cut}"
                );
                assert_eq!(last[0].body_format, Some(BodyFormat::Markdown));
            }
        }
    }
    assert!(cuts >= 40, "only {cuts} stream_event lines");
}
