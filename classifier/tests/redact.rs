//! The redactor (`classifier::redact`): exact outputs for each kind, JSON kept valid, and a
//! corpus of fake secrets (each must be caught) and look-alikes (each must pass untouched),
//! with recall and false positives printed (`cargo test -p classifier --test redact -- --nocapture`).
//!
//! Every secret here is fake: made up in the shape of the real thing.

use classifier::redact::{Redactor, redact_line, redact_text};
use serde_json::Value;

/// Redacts `input` as one log line and compares the result; a JSON input must stay JSON.
#[track_caller]
fn check(input: &str, expect: &str) {
    let out = redact_line(input.as_bytes());
    let got = String::from_utf8(out.line.into_owned()).expect("UTF-8 in, UTF-8 out");
    assert_eq!(got, expect, "\ninput: {input}");
    if serde_json::from_str::<Value>(input).is_ok() {
        serde_json::from_str::<Value>(&got).expect("a JSON line stays JSON");
    }
    assert_eq!(
        out.findings.is_empty(),
        input == expect,
        "findings iff changed: {input}"
    );
}

/// Text that must pass untouched.
#[track_caller]
fn pass(input: &str) {
    check(input, input);
}

// Fake secrets, one per shape.
const ANTHROPIC: &str = "sk-ant-api03-Zx9fK2mQ7vLp4RtY8wNc3HbJ6dGs1aUe5oIk0lPq-7TyVbNm2XcRf_AA";
const OPENAI: &str = "sk-proj-4fQ9zLm2Xv7RtK1pW8cN3bY6hJ0dG5sA";
const OPENAI_LEGACY: &str = "sk-Tq3Lm8Zx1Vc6Bn4Mk9Jh2Gf7Ds5Ap0Qw3Er8Ty1Ui6Op4As";
const AWS_ID: &str = "AKIAIOSFODNN7EXAMPLE";
const AWS_SECRET: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const GITHUB: &str = "ghp_R4nd0mL00k1ngT0k3nV4lu3Xy2Zq8Wm5Np7K";
const GITHUB_OAUTH: &str = "gho_16C7e42F292c6912E7710c838347Ae178B4a";
const GITHUB_PAT: &str =
    "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ012345";
const GITLAB: &str = "glpat-xK3mP9qR2vL7wN4tY8zB";
const SLACK: &str = "xoxb-2048617093-1729384756012-Qw3Er8Ty1Ui6Op4As9Df2Gh7";
const STRIPE: &str = "sk_live_4eC39HqLyjWDarjtT1zdp7dc2Q";
const GOOGLE: &str = "AIzaSyD3x4mpl3K3yF0rT3st1ngPurp0s3sXyZ1";
const NPM: &str = "npm_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5";
const PYPI: &str = "pypi-AgEIcHlwaS5vcmcCJGQ4ZjY3YjM0LTk5ZWQtNDk3Ny1iNmEwLWI3YzFkZTY1YTk0NwACKlsz";
const HUGGINGFACE: &str = "hf_QwErTyUiOpAsDfGhJkLzXcVbNm1234567890";
const JWT: &str = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkphbmUifQ.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";

#[test]
fn tokens_by_shape() {
    check(
        &format!("export ANTHROPIC_API_KEY={ANTHROPIC}"),
        "export ANTHROPIC_API_KEY=[REDACTED:anthropic_key]",
    );
    check(
        &format!("using {OPENAI} for now"),
        "using [REDACTED:openai_key] for now",
    );
    check(
        &format!("key: \"{OPENAI_LEGACY}\""),
        "key: \"[REDACTED:openai_key]\"",
    );
    check(
        &format!("aws_access_key_id = {AWS_ID}"),
        "aws_access_key_id = [REDACTED:aws_access_key_id]",
    );
    check(
        &format!("git remote set-url origin https://{GITHUB}@github.com/o/r"),
        "git remote set-url origin https://[REDACTED:github_token]@github.com/o/r",
    );
    check(&format!("GH {GITHUB_PAT}."), "GH [REDACTED:github_token].");
    check(&format!("token {GITLAB}"), "token [REDACTED:gitlab_token]");
    check(
        &format!("SLACK_BOT={SLACK}"),
        "SLACK_BOT=[REDACTED:slack_token]",
    );
    check(&format!("stripe {STRIPE}"), "stripe [REDACTED:stripe_key]");
    check(
        &format!("https://maps.googleapis.com/x?key={GOOGLE}&q=1"),
        "https://maps.googleapis.com/x?key=[REDACTED:google_key]&q=1",
    );
    check(&format!("npm {NPM}"), "npm [REDACTED:npm_token]");
    check(&format!("pypi {PYPI}"), "pypi [REDACTED:pypi_token]");
    check(&format!("hf {HUGGINGFACE}"), "hf [REDACTED:token]");
    check(
        &format!("Cookie: session={JWT};"),
        "Cookie: session=[REDACTED:jwt];",
    );
}

#[test]
fn structures_keep_their_surroundings() {
    check(
        "DATABASE_URL=postgres://admin:s3cr3t-P4ss@db.example.com:5432/app",
        "DATABASE_URL=postgres://admin:[REDACTED:url_password]@db.example.com:5432/app",
    );
    check(
        r#"curl -H "Authorization: Bearer 7f3a9c2e1b8d4f60" https://api.example.com"#,
        r#"curl -H "Authorization: Bearer [REDACTED:authorization]" https://api.example.com"#,
    );
    check(
        "authorization: Basic dXNlcjpwYXNzd29yZA==",
        "authorization: Basic [REDACTED:authorization]",
    );
    check(
        "Authorization: AWS4-HMAC-SHA256 Credential=x/20250101/us-east-1/s3/aws4_request, Signature=fe5f80f77d5fa3be",
        "Authorization: AWS4-HMAC-SHA256 [REDACTED:authorization]",
    );
    check(
        "curl https://hooks.slack.com/services/T0123ABCD/B0456EFGH/aBcDeFgHiJkLmNoPqRsTuVwX -d x",
        "curl https://hooks.slack.com/services/[REDACTED:slack_webhook] -d x",
    );
    check(
        "DB_PASSWORD=hunter2 DB_USER=app STRIPE_SECRET=abc123",
        "DB_PASSWORD=[REDACTED:password] DB_USER=app STRIPE_SECRET=[REDACTED:secret]",
    );
    check(
        "API_KEY=\"two words 42\" NEXT=1",
        "API_KEY=\"[REDACTED:secret]\" NEXT=1",
    );
    check(
        "mysql --password=Tr0ub4dor&3 -h db",
        "mysql --password=[REDACTED:password]&3 -h db",
    );
}

#[test]
fn credential_files() {
    // ~/.aws/credentials
    check(
        &format!(
            "[default]\naws_access_key_id = {AWS_ID}\naws_secret_access_key = {AWS_SECRET}\nregion = eu-west-1"
        ),
        "[default]\naws_access_key_id = [REDACTED:aws_access_key_id]\naws_secret_access_key = [REDACTED:aws_secret_key]\nregion = eu-west-1",
    );
    // .npmrc
    check(
        &format!("//registry.npmjs.org/:_authToken={NPM}\n_auth=dXNlcjpwYXNz\nalways-auth=true"),
        "//registry.npmjs.org/:_authToken=[REDACTED:npm_token]\n_auth=[REDACTED:npm_token]\nalways-auth=true",
    );
    // .pypirc
    check(
        &format!(
            "[pypi]\nusername = __token__\npassword = {PYPI}\n[internal]\npassword: letmein99"
        ),
        "[pypi]\nusername = __token__\npassword = [REDACTED:pypi_token]\n[internal]\npassword: [REDACTED:password]",
    );
    // gh's hosts.yml
    check(
        &format!(
            "github.com:\n    user: octocat\n    oauth_token: {GITHUB_OAUTH}\n    git_protocol: https"
        ),
        "github.com:\n    user: octocat\n    oauth_token: [REDACTED:github_token]\n    git_protocol: https",
    );
    check(
        "ghe.example.com:\n    oauth_token: 0123abcd4567ef89\n",
        "ghe.example.com:\n    oauth_token: [REDACTED:secret]\n",
    );
}

#[test]
fn private_key_blocks_keep_their_armour() {
    check(
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\nAAAAC3NzaC1lZDI1NTE5\n-----END OPENSSH PRIVATE KEY-----\n",
        "-----BEGIN OPENSSH PRIVATE KEY-----\n[REDACTED:private_key]\n-----END OPENSSH PRIVATE KEY-----\n",
    );
    check(
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB (cut)",
        "-----BEGIN RSA PRIVATE KEY-----\n[REDACTED:private_key]",
    );
    pass(
        "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
    );
}

#[test]
fn json_lines_stay_json_and_keep_their_bytes() {
    // A secret in a tool result: only that string is rewritten; key order, spacing and the
    // other strings keep their bytes.
    let line = format!(
        r#"{{"type":"user","message":{{"content":[{{"type":"tool_result","content":"A=1\nOPENAI_API_KEY={OPENAI}\nB=2"}}]}}, "n": 1.50}}"#
    );
    check(
        &line,
        r#"{"type":"user","message":{"content":[{"type":"tool_result","content":"A=1\nOPENAI_API_KEY=[REDACTED:openai_key]\nB=2"}]}, "n": 1.50}"#,
    );
    // Secret-named fields: the whole value (AWS STS output, a config object).
    check(
        &format!(
            r#"{{"Credentials":{{"AccessKeyId":"{AWS_ID}","SecretAccessKey":"{AWS_SECRET}","SessionToken":"IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQ"}}}}"#
        ),
        r#"{"Credentials":{"AccessKeyId":"[REDACTED:aws_access_key_id]","SecretAccessKey":"[REDACTED:aws_secret_key]","SessionToken":"[REDACTED:secret]"}}"#,
    );
    check(
        r#"{"db":{"user":"app","password":"p@ss word!"}}"#,
        r#"{"db":{"user":"app","password":"[REDACTED:password]"}}"#,
    );
    check(
        r#"{"headers":{"Authorization":"Bearer 9f8e7d6c5b4a3210","Accept":"*/*"}}"#,
        r#"{"headers":{"Authorization":"Bearer [REDACTED:authorization]","Accept":"*/*"}}"#,
    );
    // Escapes inside a redacted string are written back correctly.
    check(
        r#"{"text":"say \"hi\"\tpassword=\u0068unter2 \\ done"}"#,
        r#"{"text":"say \"hi\"\tpassword=[REDACTED:password] \\ done"}"#,
    );
    // A private key across escaped newlines in a JSON string.
    check(
        r#"{"content":"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----"}"#,
        r#"{"content":"-----BEGIN PRIVATE KEY-----\n[REDACTED:private_key]\n-----END PRIVATE KEY-----"}"#,
    );
    // Not JSON (cut short): redacted as text.
    check(
        &format!(r#"{{"content":"token={GITLAB}"#),
        r#"{"content":"token=[REDACTED:gitlab_token]"#,
    );
}

#[test]
fn placeholders_and_code_are_not_secrets() {
    pass("export API_KEY=$API_KEY");
    pass("password=${DB_PASSWORD}");
    pass("API_TOKEN=<your token here>");
    pass("SECRET=***");
    pass(r#"api_key = os.environ["API_KEY"]"#);
    pass("const token = getToken();");
    pass("token = process.env.GITHUB_TOKEN");
    pass(r#"curl -H "Authorization: Bearer $TOKEN" https://api.example.com"#);
    pass(r#"{"password":"","token":null,"api_key":"<redacted>"}"#);
    pass(r#"{"password":"[REDACTED:password]"}"#);
}

#[test]
fn report_previews_are_masked() {
    let line = format!("k={OPENAI}");
    let out = redact_line(line.as_bytes());
    assert_eq!(out.findings.len(), 1);
    assert_eq!(out.findings[0].kind.as_str(), "openai_key");
    assert_eq!(out.findings[0].preview, "sk-p… (40 chars)");
    let out = redact_line(b"PASSWORD=hunter2");
    assert_eq!(out.findings[0].preview, "h… (7 chars)");
    let (text, findings) = redact_text("nothing here");
    assert!(findings.is_empty());
    assert!(matches!(text, std::borrow::Cow::Borrowed(_)));
}

/// A deterministic base64 blob, as `cat` of a binary file or an embedded image shows it.
fn base64_blob(len: usize) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    (0..len)
        .map(|i| {
            if i > 0 && i % 76 == 0 {
                return '\n';
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ALPHABET[(x % 64) as usize] as char
        })
        .collect()
}

#[test]
fn corpus_recall_and_false_positives() {
    let secrets: Vec<(&str, String)> = vec![
        ("anthropic_key", format!("ANTHROPIC_API_KEY={ANTHROPIC}")),
        ("anthropic_key", format!("the key is {ANTHROPIC}, keep it")),
        ("openai_key", format!("OPENAI_API_KEY={OPENAI}")),
        ("openai_key", format!("client = OpenAI(api_key=\"{OPENAI_LEGACY}\")")),
        ("aws_access_key_id", format!("AWS_ACCESS_KEY_ID={AWS_ID}")),
        ("aws_secret_key", format!("AWS_SECRET_ACCESS_KEY={AWS_SECRET}")),
        ("aws_secret_key", format!("aws_secret_access_key = {AWS_SECRET}")),
        ("aws_secret_key", format!(r#""SecretAccessKey": "{AWS_SECRET}""#)),
        ("github_token", format!("GITHUB_TOKEN={GITHUB}")),
        ("github_token", format!("    oauth_token: {GITHUB_OAUTH}")),
        ("github_token", GITHUB_PAT.to_owned()),
        ("gitlab_token", format!("PRIVATE-TOKEN: {GITLAB}")),
        ("slack_token", format!("token={SLACK}")),
        (
            "slack_webhook",
            "https://hooks.slack.com/services/T0123ABCD/B0456EFGH/aBcDeFgHiJkLmNoPqRsTuVwX"
                .to_owned(),
        ),
        ("stripe_key", format!("Stripe.api_key = '{STRIPE}'")),
        ("stripe_key", "rk_test_51HxQ2bC3dE4fG5hI6jK7lM8n".to_owned()),
        ("google_key", format!("GOOGLE_API_KEY={GOOGLE}")),
        ("google_key", "ya29.a0AfH6SMBx3kLm9Qp2Rv7Tw4Yz8Nc1Hb6Jd".to_owned()),
        ("npm_token", format!("//registry.npmjs.org/:_authToken={NPM}")),
        ("pypi_token", format!("password = {PYPI}")),
        ("token", format!("HF_TOKEN={HUGGINGFACE}")),
        (
            "token",
            "SG.aBcDeFgHiJkLmNoPqRsTuV.wXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ012".to_owned(),
        ),
        ("jwt", format!("Authorization: Bearer {JWT}")),
        ("jwt", format!("id_token {JWT}")),
        (
            "private_key",
            "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oJ8b9VyS\n-----END EC PRIVATE KEY-----".to_owned(),
        ),
        ("url_password", "redis://:Sup3rS3cret@cache.internal:6379/0".to_owned()),
        ("url_password", "https://deploy:gh-Pa55word@git.example.com/r.git".to_owned()),
        ("authorization", "Authorization: token 1a2b3c4d5e6f7a8b9c0d".to_owned()),
        ("authorization", "proxy-authorization: Basic Ym9iOnNlY3JldA==".to_owned()),
        ("password", "DB_PASSWORD=correct-horse-battery".to_owned()),
        ("password", "POSTGRES_PASSWORD=\"p@55w0rd\"".to_owned()),
        ("password", "password: hunter22".to_owned()),
        ("secret", "JWT_SECRET=supersecretvalue".to_owned()),
        ("secret", "SENTRY_AUTH_TOKEN=sntrys_abc123def456ghi789".to_owned()),
        ("secret", "MY_SERVICE_KEY=9b1f3e7a2c8d4f60aa11".to_owned()),
        ("secret", r#"{"client_secret": "GOCSPX-like-but-not-quite-42"}"#.to_owned()),
        // Issue 25: what a reader sees — codes, controls and format characters around or in
        // a token, escapes in a line that is not JSON, and edge shapes of documented kinds.
        ("github_token", format!("\u{1b}[32m{GITHUB}\u{1b}[0m")),
        ("github_token", format!(r#"{{"text":"\u001b[32m{GITHUB}\u001b[0m"}}"#)),
        ("github_token", format!("{}\u{7}{}", &GITHUB[..12], &GITHUB[12..])),
        ("github_token", format!("{}\u{202e}{}", &GITHUB[..12], &GITHUB[12..])),
        ("password", "\u{1b}[01;31m\u{1b}[KDB_PASSWORD=\u{1b}[m\u{1b}[Khunter2-9fQ2".to_owned()),
        ("anthropic_key", format!(r#"{{"text":"\u0073k-{}"#, &ANTHROPIC[3..])),
        ("password", r#"{"password":8374920165}"#.to_owned()),
        ("url_password", "postgres://app:Xk29fLq7/Pw83mZa@db/app".to_owned()),
        ("password", "I found DB_PASSWORD=hunter2-9fQ2xLm7Rk4t in .env".to_owned()),
    ];
    let lookalikes: Vec<String> = vec![
        "commit 3f786850e387550fdab836ed7e6dc881de23001b (HEAD -> main)".to_owned(),
        "Merge 3f78685 into a1b2c3d".to_owned(),
        "id 550e8400-e29b-41d4-a716-446655440000 created".to_owned(),
        r#"{"session_id":"550e8400-e29b-41d4-a716-446655440000","uuid":"6ba7b810-9dad-11d1-80b4-00c04fd430c8"}"#.to_owned(),
        base64_blob(4000),
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==".to_owned(),
        r#""integrity": "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg==","#.to_owned(),
        r#"checksum = "a9a2b6cb1b7f8b5d2e4c3f1e0d9c8b7a6f5e4d3c2b1a09f8e7d6c5b4a3f2e1d0""#.to_owned(),
        r#"hash = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef""#.to_owned(),
        "resolved \"https://registry.yarnpkg.com/left-pad/-/left-pad-1.3.0.tgz#3b8a1f\"".to_owned(),
        "The password must be at least 8 characters long.".to_owned(),
        "Set your API key in the environment, then rotate the token monthly.".to_owned(),
        "Authorization: the process of granting access, after authentication.".to_owned(),
        "the token: see the docs for how to make one".to_owned(),
        "max_tokens=4096 temperature=0.2".to_owned(),
        r#"{"usage":{"input_tokens":1234,"output_tokens":56,"cache_read_input_tokens":7}}"#.to_owned(),
        r#"{"icon":"🧠","level":"debug","summary":"thinking… ~120 tokens","coalesce_key":"thinking-tok"}"#.to_owned(),
        r#"{"type":"system","subtype":"init","apiKeySource":"none","tools":["Bash","Read"]}"#.to_owned(),
        "a risk-assessment-framework-2024-update-v2 and the task-runner-configuration-file".to_owned(),
        "pip install scikit-learn; import sklearn; sk-learn is not a package".to_owned(),
        "ssh://git@github.com/org/repo.git and git@github.com:org/repo.git".to_owned(),
        "https://example.com:8080/path?q=1 and mailto:someone@example.com".to_owned(),
        "let cache_key = format!(\"{user}:{id}\"); map.insert(primary_key, v);".to_owned(),
        "SORT_KEY=created_at PAGE_SIZE=50 NODE_ENV=production".to_owned(),
        "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa\n-----END CERTIFICATE-----".to_owned(),
        "AKIA is the prefix of AWS access key ids; EXAMPLEKEY is not one".to_owned(),
        "eyJ is how base64 JSON starts; a.b.c is not a JWT".to_owned(),
        "time 12:30:45, ratio 3:2, key: value pairs, a == b, x => y".to_owned(),
        "password: see the docs".to_owned(),
        "http://localhost:5173/@vite/client".to_owned(),
        "see http://localhost:5173/@vite/client and https://mastodon.social/@someone".to_owned(),
        "\u{1b}[32mok\u{1b}[0m \u{1b}[1mcompiled 12 crates\u{1b}[0m in 3.2s".to_owned(),
        r#"{"max_password_length":64,"password":12,"tokens":4096}"#.to_owned(),
    ];

    let mut caught = 0;
    for (kind, line) in &secrets {
        let out = redact_line(line.as_bytes());
        let text = String::from_utf8_lossy(&out.line);
        let marker = format!("[REDACTED:{kind}]");
        if text.contains(&marker) {
            caught += 1;
        } else {
            println!("MISSED {kind}: {line} → {text}");
        }
    }
    let mut false_positives = 0;
    for line in &lookalikes {
        let out = redact_line(line.as_bytes());
        if !out.findings.is_empty() {
            false_positives += 1;
            println!(
                "FALSE POSITIVE: {line} → {}",
                String::from_utf8_lossy(&out.line)
            );
        }
    }
    println!(
        "redaction corpus: recall {caught}/{} ({:.0}%), false positives {false_positives}/{} look-alikes",
        secrets.len(),
        100.0 * caught as f64 / secrets.len() as f64,
        lookalikes.len()
    );
    assert_eq!(caught, secrets.len(), "every fake secret is caught");
    assert_eq!(false_positives, 0, "no look-alike is touched");
}

/// The real fixtures hold no secrets: every line passes byte for byte, each file redacted
/// by one `Redactor` (nothing one line leaves open takes a later line's words).
#[test]
fn fixtures_pass_untouched() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures");
    let mut lines = 0;
    for dir in ["claude-code-2.1.332", "hyperhive"] {
        for entry in std::fs::read_dir(format!("{root}/{dir}")).expect("fixtures") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                continue; // a session's subagents' files: copies of listed fixtures
            }
            let data = std::fs::read(&path).expect("read");
            // One redaction over the file, as every path redacts a log.
            let mut redactor = Redactor::new();
            for line in data.split(|&b| b == b'\n') {
                let out = redactor.redact_line(line);
                assert!(
                    out.findings.is_empty(),
                    "{}: {:?} in {}",
                    path.display(),
                    out.findings,
                    String::from_utf8_lossy(line)
                );
                lines += 1;
            }
        }
    }
    assert!(lines > 100);
}

/// Hostile logs (bad UTF-8, deep nesting, odd shapes) and every cut of a line full of secrets:
/// the redactor never panics, and a JSON line stays JSON.
#[test]
fn hostile_input_never_breaks_it() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/hostile");
    let mut lines: Vec<Vec<u8>> = Vec::new();
    for entry in std::fs::read_dir(root).expect("hostile") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "jsonl") {
            let data = std::fs::read(&path).expect("read");
            lines.extend(data.split(|&b| b == b'\n').map(<[u8]>::to_vec));
        }
    }
    let dense = format!(
        r#"{{"a":"Authorization: Bearer {JWT} -----BEGIN PRIVATE KEY-----\nAAAA","b":"x://u:p@h password= 'q KEY=\"{GITHUB}","c":"{AWS_ID}"}}"#
    );
    for cut in 0..=dense.len() {
        lines.push(dense.as_bytes()[..cut].to_vec());
    }
    // Each line alone, and all of them through one Redactor (what one line leaves open
    // meets every later one).
    let mut redactor = Redactor::new();
    for line in &lines {
        for out in [redact_line(line), redactor.redact_line(line)] {
            if serde_json::from_slice::<Value>(line).is_ok() {
                serde_json::from_slice::<Value>(&out.line).expect("a JSON line stays JSON");
            }
        }
    }
    // Every cut of a log dense in what carries from line to line, controls and escapes.
    let dense = "-----BEGIN RSA PRIVATE KEY-----\u{1b}[31mMIIE\u{7}ow\\u0073k-ant-\u{202e}AAAA\r\n\
                 sk-ant-api03-Zx9fK2mQ\u{200b}7vLp \\u00 \\ud83d password: 1234 é\u{85}\u{ad}";
    for cut in (0..=dense.len()).filter(|&c| dense.is_char_boundary(c)) {
        let mut redactor = Redactor::new();
        for piece in [&dense[..cut], &dense[cut..], dense] {
            redactor.redact_line(piece.as_bytes());
            redactor.redact_text(piece);
            let json = serde_json::json!({"text": piece, "password": 12345}).to_string();
            let out = redactor.redact_line(json.as_bytes());
            serde_json::from_slice::<Value>(&out.line).expect("a JSON line stays JSON");
        }
    }
}
