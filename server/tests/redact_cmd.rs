//! `hiveterm redact`, the real binary: same lines, same order, terminators kept, secrets out,
//! `--report` on stderr, a missing file an error.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `hiveterm redact` with `args`, `stdin` piped in; answers (status, stdout, stderr).
fn redact(args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hiveterm"))
        .arg("redact")
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
