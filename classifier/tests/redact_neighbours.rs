//! Issue 45 item 7 = issue 46 item 10: `(DB_PASSWORD=hunter2-…)` in prose was not redacted —
//! a secret-named assignment inside brackets kept the closing bracket in its value, and a
//! value with a bracket is code. The shape and its neighbours, swept: every ASCII punctuation
//! byte before the name (alone, and closing after the value), the secret names in every
//! case, each operator (`=`, `: `, `:=`, `=>`), quoted values, values ending at `)`, `]`, `,`,
//! `;` or a quote; and the look-alikes that must still pass untouched. Exact outputs, one
//! `check` helper as in `redact.rs`.
//!
//! Every secret here is fake.

use classifier::redact::redact_line;

/// The random-looking value the issue names.
const VALUE: &str = "hunter2-9fQ2xLm7Rk4t";

/// Redacts `input` as one log line and compares the result.
#[track_caller]
fn check(input: &str, expect: &str) {
    let out = redact_line(input.as_bytes());
    let got = String::from_utf8(out.line.into_owned()).expect("UTF-8 in, UTF-8 out");
    assert_eq!(got, expect, "\ninput: {input}");
    assert_eq!(
        out.findings.is_empty(),
        input == expect,
        "findings iff changed: {input}"
    );
}

/// `template` with `{V}` as the secret, and as its redaction of `kind`.
#[track_caller]
fn check_redacted(template: &str, kind: &str) {
    check(
        &template.replace("{V}", VALUE),
        &template.replace("{V}", &format!("[REDACTED:{kind}]")),
    );
}

/// The closer of a bracket (a tag's `>` closes with the next `<`); other marks close as
/// themselves.
fn closer(p: char) -> char {
    match p {
        '(' => ')',
        '[' => ']',
        '{' => '}',
        '<' => '>',
        '>' => '<',
        p => p,
    }
}

#[test]
fn issue_45_7_db_password_in_parentheses_in_prose() {
    check_redacted("(DB_PASSWORD={V})", "password");
    check_redacted("I set it (DB_PASSWORD={V}) in .env", "password");
    check_redacted("the old one (see DB_PASSWORD={V}).", "password");
    check_redacted("[DB_PASSWORD={V}]", "password");
    check_redacted("{DB_PASSWORD={V}}", "password");
}

/// Every ASCII punctuation byte right before the name, the value ended by a space; and the
/// same byte's closer right after the value, which stays.
#[test]
fn issue_45_7_any_punctuation_before_the_name() {
    let punctuation = (b'!'..=b'~')
        .map(char::from)
        .filter(char::is_ascii_punctuation);
    let mut wrapped = 0;
    for p in punctuation {
        check_redacted(&format!("x {p}DB_PASSWORD={{V}} y"), "password");
        check_redacted(&format!("{p}DB_PASSWORD={{V}}"), "password");
        // A closer that may end a value (`-`, `_`, `=`, `+`, `/`: base64, paths) is the
        // value's; a closing bracket before the name opens nothing.
        if !"-_=+/)]}".contains(p) {
            let q = closer(p);
            check_redacted(&format!("{p}DB_PASSWORD={{V}}{q}"), "password");
            check_redacted(&format!("see {p}DB_PASSWORD={{V}}{q} and more"), "password");
            wrapped += 1;
        }
    }
    assert_eq!(wrapped, 24);
    // Runs of marks: emphasis, strike-through, a table's cell.
    check_redacted("**DB_PASSWORD={V}**", "password");
    check_redacted("~~DB_PASSWORD={V}~~", "password");
    check_redacted("| x |DB_PASSWORD={V}| y |", "password");
    check_redacted("<code>DB_PASSWORD={V}</code>", "password");
    check_redacted("[API_KEY={V}](https://example.com/docs)", "secret");
    check_redacted("((DB_PASSWORD={V}))", "password");
    check_redacted("f(a, (b), DB_PASSWORD={V})", "password");
}

/// The names (upper, lower, mixed case) × the operators × how the value ends.
#[test]
fn issue_45_7_names_operators_and_value_ends() {
    let names = [
        ("DB_PASSWORD", "password"),
        ("db_password", "password"),
        ("dbPassword", "password"),
        ("Db_Password", "password"),
        ("API_KEY", "secret"),
        ("api_key", "secret"),
        ("apiKey", "secret"),
        ("SECRET", "secret"),
        ("secret", "secret"),
        ("Secret", "secret"),
        ("TOKEN", "secret"),
        ("token", "secret"),
        ("AWS_SECRET_ACCESS_KEY", "aws_secret_key"),
        ("aws_secret_access_key", "aws_secret_key"),
        ("awsSecretAccessKey", "aws_secret_key"),
        ("PASSWD", "password"),
        ("passwd", "password"),
        ("pass", "password"),
        ("PASS", "password"),
        ("DB_PASS", "password"),
        ("smtpPass", "password"),
    ];
    let forms = [
        // `=`, its value ended by each closer and separator.
        "({N}={V})",
        "[{N}={V}]",
        "{{N}={V}}",
        "see ({N}={V}).",
        "{N}={V}, then",
        "a={N}={V}; b",
        "x,{N}={V},y",
        "'{N}={V}'",
        "\"{N}={V}\"",
        "`{N}={V}`",
        // Quoted values, spaces around the operator.
        "({N}=\"{V}\")",
        "({N} = '{V}')",
        "[{N}= {V}]",
        // `:=` (Go, make); `=>` after a quoted name or a Ruby symbol.
        "({N} := {V})",
        "{N} := \"{V}\"",
        "['{N}' => '{V}']",
        "{:{N} => \"{V}\"}",
        "(\"{N}\" => {V})",
        // `: ` after a quoted name, or opening a list with a quoted value.
        "{\"{N}\": \"{V}\"}",
        "('{N}': '{V}')",
        "{ {N}: \"{V}\" }",
        "f(user: \"app\", {N}: \"{V}\")",
        "[{N}: '{V}']",
    ];
    for (name, kind) in names {
        for form in forms {
            check_redacted(&form.replace("{N}", name), kind);
        }
    }
}

/// Look-alikes: each passes untouched.
#[test]
fn issue_45_7_look_alikes_pass_untouched() {
    let lookalikes = [
        // Names that are not secrets, in brackets.
        "(PASSWORD_MIN_LENGTH=8)",
        "PASSWORD_MIN_LENGTH=8",
        "(password_reset_url=https://example.com/reset)",
        "[password_policy=strict]",
        "(max_tokens=4096, temperature=0.2)",
        "(SORT_KEY=created_at)",
        "(page_token=next, csrf_token=abc123def)",
        "(bypass=hunter2-9fQ2xLm7Rk4t)",
        "{compass=north}",
        // `pass` as a count.
        "tests (pass=12, fail=0)",
        "[pass: 1500]",
        "pass: 12",
        // Code, placeholders, in brackets.
        "f(password=getpw())",
        r#"(api_key=os.environ["API_KEY"])"#,
        "connect(token=process.env.GITHUB_TOKEN)",
        "(password=${DB_PASSWORD})",
        "(API_TOKEN=<your token here>)",
        "[SECRET=***]",
        "(password=)",
        "{token=null}",
        // Arrow functions, comparisons, type annotations.
        "tokens.map(token => token.trim())",
        "(password) => password.length > 8",
        "(a == b, token != x, x := y)",
        "fn login(user: &str, password: &str) -> bool",
        "function f(username: string, password: string): void",
        "def f(token: str = None):",
        "{ token: Option<String>, secret: Vec<u8> }",
        // Prose.
        "(the password: see below)",
        "(token: none)",
        "The password must be at least 8 characters (see the docs).",
        "time 12:30:45, ratio 3:2, key: value pairs, a == b, x => y",
    ];
    for line in lookalikes {
        check(line, line);
    }
}

/// Decisions on the edge, written down: a word after `=` is a value (`PASSWORD=below` cannot
/// be told from `PASSWORD=letmein`), so it is redacted in brackets as it was outside them; a
/// variable passed to a call is redacted as `password=pw` outside one is; a closing bracket
/// with nothing open before the name on its line is the value's (code opens what it closes:
/// `getpw()`, `env["X"]`), and a trailing one stays outside the redaction as before.
#[test]
fn issue_45_7_decisions_on_the_edge() {
    check("(see PASSWORD=below)", "(see PASSWORD=[REDACTED:password])");
    check("f(password=pw)", "f(password=[REDACTED:password])");
    check(
        "f(x, password=pw, y=1)",
        "f(x, password=[REDACTED:password], y=1)",
    );
    check("DB_PASSWORD=abc)def", "DB_PASSWORD=[REDACTED:password]");
    check("    password=pw)", "    password=[REDACTED:password])");
}
