//! `hiveterm redact`, the real binary: same lines, same order, terminators kept, secrets out,
//! `--report` on stderr, a missing file an error; and the redaction corpus of issue 25
//! (`classifier/tests/redact-seen.json`) through `hiveterm redact | hiveterm classify` and
//! `hiveterm export --redact`, judged on what a reader sees.

mod seen;

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

/// Runs `hiveterm redact` with `args`, `stdin` piped in; answers (status, stdout, stderr).
fn redact(args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    hiveterm(&["redact"], args, stdin)
}

/// Runs `hiveterm <command> <args>`, `stdin` piped in; answers (status, stdout, stderr).
fn hiveterm(command: &[&str], args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .args(command)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn hiveterm");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(stdin)
        .expect("write stdin");
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn same_lines_same_order_secrets_out() {
    let input = concat!(
        "{\"kind\":\"note\",\"ts\":1,\"text\":\"stderr: GITHUB_TOKEN=ghp_R4nd0mL00k1ngT0k3nV4lu3Xy2Zq8Wm5Np7K\"}\n",
        "\n",
        "not json: DB_PASSWORD=hunter2\r\n",
        "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}}\n",
        "last line without a newline, password=letmein9",
    );
    let (status, out, err) = redact(&["-", "--report"], input.as_bytes());
    assert_eq!(status, 0, "{err}");
    let out = String::from_utf8(out).expect("UTF-8");
    assert_eq!(
        out,
        concat!(
            "{\"kind\":\"note\",\"ts\":1,\"text\":\"stderr: GITHUB_TOKEN=[REDACTED:github_token]\"}\n",
            "\n",
            "not json: DB_PASSWORD=[REDACTED:password]\r\n",
            "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}}\n",
            "last line without a newline, password=[REDACTED:password]",
        )
    );
    assert_eq!(
        err,
        "line 1: github_token ghp_… (40 chars)\n\
         line 3: password h… (7 chars)\n\
         line 5: password le… (8 chars)\n\
         3 redactions on 3 of 5 lines\n"
    );
    // Without --report, stderr stays quiet.
    let (status, _, err) = redact(&[], input.as_bytes());
    assert_eq!((status, err.as_str()), (0, ""));
}

#[test]
fn fixtures_pass_byte_for_byte_and_a_missing_file_fails() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures/claude-code-2.1.332/mcp_tools.transcript.jsonl"
    );
    let (status, out, err) = redact(&[path, "--report"], b"");
    assert_eq!(status, 0, "{err}");
    assert_eq!(out, std::fs::read(path).expect("fixture"));
    assert!(err.starts_with("0 redactions on "), "{err}");

    let (status, out, err) = redact(&["/nonexistent/log.jsonl"], b"");
    assert_eq!(status, 1);
    assert!(out.is_empty());
    assert!(
        err.starts_with("hiveterm: cannot read /nonexistent/log.jsonl:"),
        "{err}"
    );
}

/// Every log of the corpus through `hiveterm redact` then `hiveterm classify` (the rows a
/// reader of the redacted log sees), and through `hiveterm export --redact` (the file's rows):
/// no piece of a secret shows, the line count is kept, what is not a secret stays.
#[test]
fn the_corpus_through_redact_classify_and_export() {
    let dir = tempfile::tempdir().unwrap();
    let dist = seen::fake_page(dir.path());
    let html = dir.path().join("out.html");
    let mut failures = Vec::new();
    let cases = seen::corpus();
    assert!(cases.len() >= 20);
    for case in &cases {
        let (status, out, err) = redact(&["-"], case.log.as_bytes());
        assert_eq!(status, 0, "{err}");
        let log = String::from_utf8(out).unwrap();
        let (status, rows, err) = hiveterm(&["classify", "-"], &[], log.as_bytes());
        assert_eq!(status, 0, "{err}");
        let rows: Vec<Value> = String::from_utf8(rows)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        failures.extend(seen::judge(case, "redact | classify", &rows, Some(&log)));

        let (status, _, err) = hiveterm(
            &["export", "-"],
            &[
                "-o",
                html.to_str().unwrap(),
                "--redact",
                "--static",
                dist.to_str().unwrap(),
            ],
            case.log.as_bytes(),
        );
        assert_eq!(status, 0, "{err}");
        let file = std::fs::read_to_string(&html).unwrap();
        let rows = seen::exported_envelopes(&file);
        failures.extend(seen::judge(case, "export --redact", &rows, None));
        // The file's title and name are the log's, and nothing else of it is outside the rows.
        for secret in &case.secrets {
            assert!(!file.contains(secret.as_str()), "{}: {secret}", case.name);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Issue 45 item 7 = issue 46 item 10: a secret-named assignment in brackets in prose,
/// `(DB_PASSWORD=hunter2-…)`, and its neighbours (`[…]`, `**…**`, `'NAME' => '…'`), through
/// `hiveterm redact` (exact lines, `--report`) and `hiveterm export --redact` (the file's rows
/// and the file): the value goes, the brackets and the text around stay.
#[test]
fn issue_45_7_db_password_in_parentheses_through_redact_and_export() {
    const VALUE: &str = "hunter2-9fQ2xLm7Rk4t";
    let prose = format!("I put it in .env (DB_PASSWORD={VALUE}) and restarted");
    let input = format!(
        "{prose}\n{}\n",
        serde_json::json!({"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "text", "text": format!("Set [API_KEY={VALUE}], **TOKEN={VALUE}** and ('SECRET' => '{VALUE}').")}
        ]}})
    );
    let (status, out, err) = redact(&["-", "--report"], input.as_bytes());
    assert_eq!(status, 0, "{err}");
    let out = String::from_utf8(out).unwrap();
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some("I put it in .env (DB_PASSWORD=[REDACTED:password]) and restarted")
    );
    let row: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(
        row["message"]["content"][0]["text"],
        "Set [API_KEY=[REDACTED:secret]], **TOKEN=[REDACTED:secret]** and ('SECRET' => '[REDACTED:secret]')."
    );
    assert_eq!(lines.next(), None);
    assert!(err.ends_with("4 redactions on 2 of 2 lines\n"), "{err}");

    let dir = tempfile::tempdir().unwrap();
    let dist = seen::fake_page(dir.path());
    let html = dir.path().join("out.html");
    let (status, _, err) = hiveterm(
        &["export", "-"],
        &[
            "-o",
            html.to_str().unwrap(),
            "--redact",
            "--static",
            dist.to_str().unwrap(),
        ],
        input.as_bytes(),
    );
    assert_eq!(status, 0, "{err}");
    let file = std::fs::read_to_string(&html).unwrap();
    assert!(!file.contains(VALUE), "the file holds the password");
    let rows = seen::exported_envelopes(&file);
    let shown = seen::seen(&rows, None);
    assert!(!shown.contains(VALUE), "{shown}");
    assert!(
        shown.contains("(DB_PASSWORD=[REDACTED:password]) and restarted"),
        "{shown}"
    );
    assert!(shown.contains("**TOKEN=[REDACTED:secret]**"), "{shown}");
}
