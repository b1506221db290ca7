//! Redaction judged on what a reader sees (issue 25), for the tests of the paths that redact
//! (`redact_cmd.rs`: `hiveterm redact`, `hiveterm export --redact`; `shares.rs`: a redacted
//! share's history and stream): the corpus of logs `classifier/tests/redact-seen.json`, and
//! the judgement of what a path made of one — no 12-character piece of a secret's random part
//! in its rows or its redacted log (control and format characters removed), the log's line
//! count kept, the text that is not a secret still there. Also the one-file export's helpers.
#![allow(dead_code)]

use serde_json::Value;

/// One log of the corpus.
pub struct Case {
    pub name: String,
    pub log: String,
    /// The secrets' random parts.
    pub secrets: Vec<String>,
    /// Text that must stay.
    pub keep: Vec<String>,
}

pub fn corpus() -> Vec<Case> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../classifier/tests/redact-seen.json"
    );
    let v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_owned())
            .collect()
    };
    v["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| Case {
            name: c["name"].as_str().unwrap().to_owned(),
            log: c["log"].as_str().unwrap().to_owned(),
            secrets: strings(&c["secrets"]),
            keep: strings(&c["keep"]),
        })
        .collect()
}

/// Every string in `v`, one a line.
pub fn strings(v: &Value, out: &mut String) {
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

/// Without control characters (but `\n`, `\t`) and format characters.
pub fn visible(s: &str) -> String {
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

/// What a reader sees of rows (any JSON holding them: envelopes, pages, frames) and of a
/// redacted log (a JSON line's strings decoded, another line as it is).
pub fn seen(rows: &[Value], log: Option<&str>) -> String {
    let mut out = String::new();
    for v in rows {
        strings(v, &mut out);
    }
    for line in log.unwrap_or_default().lines() {
        match serde_json::from_str::<Value>(line) {
            Ok(v) => strings(&v, &mut out),
            Err(_) => out.push_str(line),
        }
        out.push('\n');
    }
    visible(&out)
}

/// How `case` came through a path: its rows, and its redacted log when the path makes one.
/// The failures, one a line (empty: it held).
pub fn judge(case: &Case, path: &str, rows: &[Value], log: Option<&str>) -> Vec<String> {
    let mut failures = Vec::new();
    if let Some(log) = log
        && log.lines().count() != case.log.lines().count()
    {
        failures.push(format!("{path}: {}: line count changed", case.name));
    }
    let seen = seen(rows, log);
    failures.extend(leaks(case, path, &seen));
    for keep in &case.keep {
        if !seen.contains(keep.as_str()) {
            failures.push(format!("{path}: {}: lost {keep:?}", case.name));
        }
    }
    failures
}

/// The secrets of `case` that show in `seen` (what a reader sees: [`seen`]), one a line.
pub fn leaks(case: &Case, path: &str, seen: &str) -> Vec<String> {
    let mut failures = Vec::new();
    for secret in &case.secrets {
        let chars: Vec<char> = secret.chars().collect();
        let n = chars.len().min(12);
        if let Some(piece) = chars
            .windows(n)
            .map(|w| w.iter().collect::<String>())
            .find(|piece| seen.contains(piece.as_str()))
        {
            failures.push(format!(
                "{path}: {}: shows {piece:?} of {secret}",
                case.name
            ));
        }
    }
    failures
}

/// A built page's files, as small as `hiveterm export` accepts them (`--static`).
pub fn fake_page(dir: &std::path::Path) -> std::path::PathBuf {
    let dist = dir.join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    let glue = "async function __wbg_init(m){}\nexport { initSync, __wbg_init as default };\n";
    for (name, body) in [
        ("index.html", "<!doctype html>"),
        ("app-0123456789abcdef.js", glue),
        ("app-0123456789abcdef_bg.wasm", "\0asm"),
        ("terminal-0123456789abcdef.css", ".row{}"),
        ("worker.js", glue),
        ("worker_bg.wasm", "\0asm"),
        ("mdworker.js", glue),
        ("mdworker_bg.wasm", "\0asm"),
    ] {
        std::fs::write(dist.join(name), body).unwrap();
    }
    dist
}

/// The text of an exported file's block `id` (`<script … id="ID" …>…</script>`: a compressed
/// block also carries `data-bytes`).
pub fn block<'a>(html: &'a str, id: &str) -> &'a str {
    let at = html.find(&format!("id=\"{id}\"")).unwrap();
    let start = at + html[at..].find('>').unwrap() + 1;
    &html[start..start + html[start..].find("</script>").unwrap()]
}

/// The envelopes an exported file carries (its data blocks: raw DEFLATE written as 7-bit
/// text, onefile/src/text7.rs, in pieces: onefile/src/html.rs).
pub fn exported_envelopes(html: &str) -> Vec<Value> {
    let bytes = onefile::html::data(html).unwrap();
    let json = miniz_oxide::inflate::decompress_to_vec(&bytes).unwrap();
    String::from_utf8(json)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}
