//! "Save as one file", purely (tested natively; the dialog is [`crate::share::save_button`], the
//! work [`crate::worker::export`] in a worker): the options, the steps of the dialog, what
//! the worker answers, the file's name.
//!
//! The page makes the same file as `hiveterm export` (an offline log) or `hiveterm share
//! SESSION --export` (a live session), in the browser, with no server needed for an offline
//! log. A redacted file's redactions are shown for review before it is handed over: the file
//! is made, then held until the reader accepts them (as a redacted share's link is).

use crate::model::summary::{count, grouped};
use crate::share::form::Report;

/// What the page says of pattern redaction before a file is saved.
pub const BEST_EFFORT_FILE: &str = "Pattern redaction is best effort: it replaces the secrets it knows the shape of (API keys, tokens, passwords in URLs, private keys, …), not every secret. Review the redactions and the rows before you send the file.";

/// What an unredacted file is.
pub const NOT_REDACTED: &str =
    "Not redacted: the file holds the log's rows as they are, secrets included.";

/// The options a file is saved with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveForm {
    /// The title its readers see (blank: the session's title, else the log's name; as
    /// `--title`, kept as typed).
    pub title: String,
    /// Secrets redacted first (on unless turned off: the file is meant to leave).
    pub redact: bool,
}

impl Default for SaveForm {
    fn default() -> SaveForm {
        SaveForm {
            title: String::new(),
            redact: true,
        }
    }
}

/// A file made, held until it is saved.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Saved {
    /// The file's name (`<log>.html`).
    pub name: String,
    /// Rows (envelopes) in it.
    pub rows: u64,
    /// Lines of the log.
    pub lines: u64,
    /// Its size.
    pub bytes: f64,
    /// Whether it was redacted, and its redactions.
    pub report: Option<Report>,
}

impl Saved {
    /// What the worker answered (`saved`); the file's name from the log's.
    pub fn of(log_name: &str, rows: f64, lines: f64, bytes: f64, report: Option<&str>) -> Saved {
        Saved {
            name: file_name(log_name),
            rows: rows as u64,
            lines: lines as u64,
            bytes,
            report: report.map(|r| serde_json::from_str(r).unwrap_or_default()),
        }
    }

    /// `40 lines · 1.2 MB`.
    pub fn figures(&self) -> String {
        format!("{} · {:.1} MB", count(self.lines, "line"), self.bytes / 1e6)
    }
}

/// Where the dialog is.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Step {
    /// Closed.
    #[default]
    Closed,
    /// Choosing the options (with what went wrong last time, if anything).
    Options(Option<String>),
    /// The worker makes the file: bytes of the log read, of all.
    Making(f64, f64),
    /// The file made: its redactions for review, and "save".
    Ready(Saved),
}

impl Step {
    /// What the dialog says while the file is made.
    pub fn making(read: f64, total: f64) -> String {
        if total > 0.0 {
            format!(
                "making the file… {:.0}% of {} KB",
                read / total * 100.0,
                grouped((total / 1000.0).ceil() as u64)
            )
        } else {
            "making the file…".to_owned()
        }
    }
}

/// The saved file's name: the log's without its extension, characters a file name should
/// not hold replaced, then `.html` (`run 1.jsonl` → `run 1.html`).
pub fn file_name(log_name: &str) -> String {
    let base = log_name.rsplit(['/', '\\']).next().unwrap_or_default();
    let stem = match base.rsplit_once('.') {
        Some((stem, ext)) if ext.len() <= 6 => stem,
        _ => base,
    };
    let clean: String = stem
        .chars()
        .map(|c| {
            if c.is_control() || "<>:\"/\\|?*".contains(c) {
                '_'
            } else {
                c
            }
        })
        .collect();
    let clean = clean.trim().trim_matches('.');
    if clean.is_empty() {
        "hiveterm.html".to_owned()
    } else {
        format!("{clean}.html")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::share::form::ShareText;

    #[test]
    fn file_names() {
        let check = |log: &str, expect: &str| assert_eq!(file_name(log), expect, "{log}");
        check("run-1.jsonl", "run-1.html");
        check("run 1.stream.jsonl", "run 1.stream.html");
        check("pasted log", "pasted log.html");
        check("agent-bob", "agent-bob.html");
        check("a/b\\c:d?.jsonl", "c_d_.html");
        check(".jsonl", "hiveterm.html");
        check("", "hiveterm.html");
        check("x.y.with-a-long-ext", "x.y.with-a-long-ext.html");
    }

    #[test]
    fn a_file_is_redacted_unless_asked_not_to_be() {
        let f = SaveForm::default();
        assert!(f.redact);
        assert_eq!(f.title, "");
    }

    #[test]
    fn the_workers_answer() {
        let report = r#"{"count":2,"events":1,"truncated":false,"items":[{"seq":4,"kind":"anthropic_key","preview":"sk-a… (108 chars)"},{"seq":4,"kind":"github_token","preview":"ghp_… (40 chars)"}]}"#;
        let s = Saved::of("run.jsonl", 12.0, 40.0, 1_234_567.0, Some(report));
        assert_eq!(s.name, "run.html");
        assert_eq!(s.figures(), "40 lines · 1.2 MB");
        assert_eq!(s.rows, 12);
        let r = s.report.unwrap();
        assert_eq!(r.items[0].seq, 4);
        assert_eq!(r.headline_in("line"), "2 secrets redacted in 1 line");
        assert_eq!(
            Saved::of("x", 1.0, 1.0, 1.0, None).figures(),
            "1 line · 0.0 MB"
        );
        assert_eq!(Step::making(60.0, 2000.0), "making the file… 3% of 2 KB");
        assert_eq!(Step::making(0.0, 0.0), "making the file…");
        assert!(BEST_EFFORT_FILE.starts_with("Pattern redaction is best effort"));
    }
}
