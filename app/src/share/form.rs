//! The share button's logic, purely (tested natively; the dialog is
//! [`crate::share::button`]): the options a share is made with, the body of
//! `POST /api/sessions/{id}/shares`, its answer (the link, and for a redacted share the
//! redactions found), and the steps of the dialog.
//!
//! A redacted share shows its redactions for review before its link is shown: the server
//! makes the share and reports what it redacted in the same answer, so the page holds the
//! link back until the reader accepts the report, and revokes the share if they do not
//! (`DELETE /api/shares/{id}`): a link never shown is never sent.

use crate::model::summary::{count, grouped};

/// What the page says of pattern redaction, wherever it offers or reports it.
pub const BEST_EFFORT: &str = "Pattern redaction is best effort: it replaces the secrets it knows the shape of (API keys, tokens, passwords in URLs, private keys, …), not every secret. Review the redactions and the rows before you send the link.";

/// How long a share opens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Expires {
    /// Seven days (the server's default).
    #[default]
    Week,
    /// A day.
    Day,
    /// Until revoked.
    Never,
}

impl Expires {
    /// Every choice, in the dialog's order.
    pub const ALL: [Expires; 3] = [Expires::Week, Expires::Day, Expires::Never];

    /// The API's value (`expires`).
    pub fn as_str(self) -> &'static str {
        match self {
            Expires::Week => "7d",
            Expires::Day => "24h",
            Expires::Never => "never",
        }
    }

    /// The dialog's label.
    pub fn label(self) -> &'static str {
        match self {
            Expires::Week => "7 days",
            Expires::Day => "24 hours",
            Expires::Never => "never",
        }
    }

    /// The choice of an API value (the dialog's `<select>`); the default for anything else.
    pub fn of(v: &str) -> Expires {
        Expires::ALL
            .into_iter()
            .find(|e| e.as_str() == v)
            .unwrap_or_default()
    }
}

/// The options a share is made with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShareForm {
    /// How long it opens.
    pub expires: Expires,
    /// Follows the session as it grows (else a snapshot of it now).
    pub live: bool,
    /// Secrets redacted from what it shows.
    pub redact: bool,
    /// The title its readers see (blank: the session's).
    pub title: String,
}

/// The server's longest share title, in characters.
pub const MAX_TITLE: usize = 200;

impl ShareForm {
    /// The JSON body of `POST …/shares` (`docs/API.md`); a blank title is left out.
    pub fn body(&self) -> String {
        let title = self.title.trim();
        let body = contract::share::ShareRequest {
            expires: Some(self.expires.as_str().to_owned()),
            live: Some(self.live),
            redact: Some(self.redact),
            title: (!title.is_empty()).then(|| title.chars().take(MAX_TITLE).collect()),
            comments: None,
        };
        serde_json::to_string(&body).unwrap_or_default()
    }
}

/// The redactions of a redacted share (`redactions` of the answer) or of a saved file, and
/// the answer of `POST …/shares`: the contract's.
pub use contract::share::{Created, Redaction, Report};

/// How a report and an answer read on the page.
pub trait ShareText {
    /// The report's headline: `3 secrets redacted in 2 events` or `no secret found`.
    fn headline(&self) -> String {
        self.headline_in("event")
    }

    /// The headline where `events` counts `unit`s (`line` of a log: `… in 2 lines`).
    fn headline_in(&self, unit: &str) -> String;
}

impl ShareText for Report {
    fn headline_in(&self, unit: &str) -> String {
        if self.count == 0 {
            return "no secret found by the patterns".to_owned();
        }
        let mut line = format!(
            "{} redacted in {}",
            count(self.count, "secret"),
            count(self.events, unit)
        );
        if self.truncated {
            line.push_str(&format!(
                " (the first {} listed)",
                grouped(self.items.len() as u64)
            ));
        }
        line
    }
}

/// The link to send of a share made: the page's origin and the share's path.
pub fn link_of(created: &Created, origin: &str) -> String {
    format!("{}{}", origin.trim_end_matches('/'), created.url)
}

/// The redactions of a share made (none unless it is redacted).
pub fn report_of(created: &Created) -> Option<Report> {
    created.redactions.as_ref().map(|r| r.report.clone())
}

/// Where the share dialog is.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Step {
    /// Closed.
    #[default]
    Closed,
    /// Choosing the options (with what went wrong last time, if anything).
    Options(Option<String>),
    /// The request is on its way.
    Making,
    /// A redacted share made; its link held back until its redactions are accepted.
    Review(Created),
    /// The share made and accepted: its link shown, to copy.
    Done(Created),
}

impl Step {
    /// The step after the server answered: a redacted share's report first, else the link.
    pub fn made(created: Created) -> Step {
        if created.redactions.is_some() {
            Step::Review(created)
        } else {
            Step::Done(created)
        }
    }

    /// The reader accepted the redactions: the link.
    pub fn accept(self) -> Step {
        match self {
            Step::Review(c) => Step::Done(c),
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn the_body_carries_the_options() {
        let body = |f: &ShareForm| serde_json::from_str::<Value>(&f.body()).unwrap();
        assert_eq!(
            body(&ShareForm::default()),
            json!({"expires": "7d", "live": false, "redact": false})
        );
        let f = ShareForm {
            expires: Expires::Never,
            live: true,
            redact: true,
            title: "  Deploy \"outage\" ".into(),
        };
        assert_eq!(
            body(&f),
            json!({"expires": "never", "live": true, "redact": true, "title": "Deploy \"outage\""})
        );
        let long = ShareForm {
            title: "é".repeat(300),
            ..ShareForm::default()
        };
        assert_eq!(
            body(&long)["title"].as_str().unwrap().chars().count(),
            MAX_TITLE
        );
    }

    #[test]
    fn expiry_choices() {
        assert_eq!(
            Expires::ALL.map(Expires::as_str),
            ["7d", "24h", "never"],
            "the values the server takes"
        );
        for e in Expires::ALL {
            assert_eq!(Expires::of(e.as_str()), e);
        }
        assert_eq!(Expires::of("3y"), Expires::Week);
        assert_eq!(Expires::Day.label(), "24 hours");
    }

    /// The answer as `docs/API.md` shows it.
    fn answer(redacted: bool) -> Created {
        let mut v = json!({"id": 3, "session": "run-1", "title": "Deploy outage, 1 Dec",
            "created_at": 1796149800.1, "expires_at": 1796754600.1, "snapshot_seq": 1284,
            "redact": redacted, "revoked_at": null, "live": false, "status": "active",
            "url": "/p/Q2hhbmdlIHRoaXMgdG9rZW4gYmVmb3JlIHNoaXBwaW5n"});
        if redacted {
            v["redactions"] = json!({"count": 2, "events": 2, "truncated": false,
                "items": [{"seq": 17, "kind": "anthropic_key", "preview": "sk-a… (108 chars)"},
                          {"seq": 40, "kind": "aws_access_key_id", "preview": "AKIA… (20 chars)"}],
                "note": "pattern redaction is best effort: review the rows before sending the link"});
        }
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn the_answer_gives_the_link() {
        let c = answer(false);
        assert_eq!(c.listed.share.id, 3);
        assert_eq!(c.redactions, None);
        assert_eq!(
            link_of(&c, "http://127.0.0.1:8080/"),
            "http://127.0.0.1:8080/p/Q2hhbmdlIHRoaXMgdG9rZW4gYmVmb3JlIHNoaXBwaW5n"
        );
        assert_eq!(Step::made(c.clone()), Step::Done(c));
    }

    #[test]
    fn a_redacted_share_is_reviewed_before_its_link_shows() {
        let c = answer(true);
        let r = report_of(&c).unwrap();
        assert_eq!(r.items.len(), 2);
        assert_eq!(r.items[0].kind, "anthropic_key");
        assert_eq!(r.items[1].preview, "AKIA… (20 chars)");
        assert_eq!(r.headline(), "2 secrets redacted in 2 events");
        let review = Step::made(c.clone());
        assert_eq!(review, Step::Review(c.clone()));
        assert_eq!(review.accept(), Step::Done(c));
        assert_eq!(Step::Making.accept(), Step::Making);
    }

    #[test]
    fn report_headlines() {
        assert_eq!(
            Report::default().headline(),
            "no secret found by the patterns"
        );
        let r = Report {
            count: 1_500,
            events: 1,
            truncated: true,
            items: vec![Redaction::default(); 1000],
        };
        assert_eq!(
            r.headline(),
            "1,500 secrets redacted in 1 event (the first 1,000 listed)"
        );
        assert!(BEST_EFFORT.starts_with("Pattern redaction is best effort"));
        let one = Report {
            count: 2,
            events: 1,
            ..Report::default()
        };
        assert_eq!(one.headline_in("line"), "2 secrets redacted in 1 line");
    }
}
