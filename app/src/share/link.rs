//! Where a live view reads from, and a share link's page (`/p/<token>`), purely: tested
//! natively, used by [`crate::live::view`] and the page.
//!
//! A live view reads a [`Source`]: a session of the server (`/s/{id}`, the `/api/sessions/{id}`
//! reads, with the page's `?token=`), or a share link (`/p/<token>`, its reads under
//! `/p/<token>/api` — `docs/API.md`, "Reads under a share" — never with a server token: the
//! token in the path is the capability). A share's page is read-only: no ingest, no session
//! list, no share button; its title comes from `…/api/share` ([`ShareInfo`]), and a dead link
//! (`410`/`404`) says so ([`dead_link`]).

use crate::live::wire::with_token;
use crate::model::summary::grouped;

/// Where a live view's reads go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A session of the server: `/api/sessions/{id}/…`, with the page's `?token=` if any.
    Session {
        /// The session id.
        id: String,
        /// The page's `?token=`, URL-encoded as it came.
        token: Option<String>,
    },
    /// A share link: `{base}/api/…`, where `base` is the page's path up to its token
    /// (`/p/<token>`, or below a proxy's prefix `/x/p/<token>`).
    Share {
        /// The page's path up to and including the token.
        base: String,
    },
}

/// Most characters of a share token the page takes (the server's are 43).
const MAX_TOKEN: usize = 128;

/// The share link a page path is (`/p/<token>` or `/p/<token>/`, possibly below a prefix):
/// the path up to and including the token. `None` for any other path.
pub fn share_base(path: &str) -> Option<String> {
    let at = path.rfind("/p/")?;
    let token = path[at + 3..].trim_end_matches('/');
    let ok = !token.is_empty()
        && token.len() <= MAX_TOKEN
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'));
    ok.then(|| path[..at + 3 + token.len()].to_owned())
}

/// The comparison link a page path is (`/p/<token>/compare`, issue 48: where the server sends
/// a comparison link's `/p/<token>`): the path up to and including the token, as
/// [`share_base`]. `None` for any other path.
pub fn compare_share_base(path: &str) -> Option<String> {
    let rest = path.trim_end_matches('/').strip_suffix("/compare")?;
    share_base(rest).filter(|base| base.len() == rest.len())
}

/// A comparison link's comparison (`GET /p/<token>/api/compare`).
pub fn compare_url(base: &str) -> String {
    format!("{base}/api/compare")
}

/// What a comparison link says of itself (`GET /p/<token>/api/share`).
pub fn compare_share_url(base: &str) -> String {
    format!("{base}/api/share")
}

impl Source {
    /// The source of a page at `path` with `?token=` `token`: a share link, a session, or
    /// none (the start page, an offline log).
    pub fn of_path(path: &str, token: Option<String>) -> Option<Source> {
        if let Some(base) = share_base(path) {
            return Some(Source::Share { base });
        }
        crate::live::wire::session_of_path(path).map(|id| Source::Session { id, token })
    }

    /// Whether this is a share link (read-only postmortem mode).
    pub fn is_share(&self) -> bool {
        matches!(self, Source::Share { .. })
    }

    /// The session id, for a session (what the share button shares).
    pub fn session(&self) -> Option<&str> {
        match self {
            Source::Session { id, .. } => Some(id),
            Source::Share { .. } => None,
        }
    }

    /// The title shown until the server tells one.
    pub fn first_title(&self) -> String {
        match self {
            Source::Session { id, .. } => id.clone(),
            Source::Share { .. } => "shared session".to_owned(),
        }
    }

    /// The URL of read `path` (`state`, `events/history?…`), with the session's token.
    fn url(&self, path: &str) -> String {
        match self {
            Source::Session { id, token } => {
                with_token(&format!("/api/sessions/{id}/{path}"), token.as_deref())
            }
            Source::Share { base } => format!("{base}/api/{path}"),
        }
    }

    /// A history page of `limit` envelopes older than `before` (the newest when `None`).
    pub fn history_url(&self, before: Option<u64>, limit: u32) -> String {
        let mut path = format!("events/history?limit={limit}");
        if let Some(b) = before {
            path.push_str(&format!("&before={b}"));
        }
        self.url(&path)
    }

    /// The state (badges, title, turn in flight).
    pub fn state_url(&self) -> String {
        self.url("state")
    }

    /// The postmortem summary.
    pub fn summary_url(&self) -> String {
        self.url("summary")
    }

    /// The SSE stream after seq `after`.
    pub fn stream_url(&self, after: u64) -> String {
        self.url(&format!("events/stream?after={after}"))
    }

    /// A session's stored raw events as JSONL (`GET …/events/raw`, for "save as one
    /// file"); `None` under a share link (it has no such read).
    pub fn raw_url(&self) -> Option<String> {
        (!self.is_share()).then(|| self.url("events/raw"))
    }

    /// The notes it shows (`GET`), and where a new one is posted (`POST`: a session's owner,
    /// or a comment link's reader).
    pub fn notes_url(&self) -> String {
        self.url("notes")
    }

    /// Note `id` of a session (`PATCH`/`DELETE`); `None` under a share link (its readers
    /// cannot change or delete one).
    pub fn note_url(&self, id: u64) -> Option<String> {
        (!self.is_share()).then(|| self.url(&format!("notes/{id}")))
    }

    /// What a share link shows (`…/api/share`); `None` for a session.
    pub fn share_url(&self) -> Option<String> {
        self.is_share().then(|| self.url("share"))
    }
}

/// What a share link shows (`GET /p/<token>/api/share`): the contract's.
pub use contract::share::ShareInfo;

/// How a link's facts read on the page.
pub trait LinkText {
    /// The title to show, if the share has one.
    fn title(&self) -> Option<&str>;
    /// The banner's line for the link.
    fn line(&self, offset_min: impl Fn(f64) -> i64) -> String;
}

impl LinkText for ShareInfo {
    fn title(&self) -> Option<&str> {
        self.title.as_deref().filter(|t| !t.trim().is_empty())
    }

    /// `shared snapshot · 1,284 events · made 2026-12-01 08:05 · redacted · expires
    /// 2026-12-08 08:05` (local times; `live` for a live share).
    fn line(&self, offset_min: impl Fn(f64) -> i64) -> String {
        let when = |t: f64| crate::model::text::date_time(t, offset_min(t));
        let mut parts = vec![if self.live {
            "shared live".to_owned()
        } else {
            "shared snapshot".to_owned()
        }];
        if let (false, Some(n)) = (self.live, self.snapshot_seq) {
            parts.push(match n {
                1 => "1 event".to_owned(),
                n => format!("{} events", grouped(n)),
            });
        }
        if let Some(t) = self.created_at {
            parts.push(format!("made {}", when(t)));
        }
        if self.redact {
            parts.push("redacted".to_owned());
        }
        parts.push(match self.expires_at {
            Some(t) => format!("expires {}", when(t)),
            None => "does not expire".to_owned(),
        });
        parts.join(" · ")
    }
}

/// What the page says for a share link the server answered `status` to: `410` expired or
/// revoked, `404` unknown. `None` for any other answer (not a dead link: a passing failure).
pub fn dead_link(status: u16) -> Option<&'static str> {
    match status {
        410 => Some(
            "This share link has expired or was revoked: it shows nothing any more. Ask whoever sent it for a new one.",
        ),
        404 => Some(
            "There is no such share link. Check that it was copied whole, or ask whoever sent it for a new one.",
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "Q2hhbmdlIHRoaXMgdG9rZW4gYmVmb3JlIHNoaXBwaW5n_-x";

    #[test]
    fn share_paths() {
        let check = |p: &str, want: Option<&str>| {
            assert_eq!(share_base(p).as_deref(), want, "{p}");
        };
        let base = format!("/p/{TOKEN}");
        check(&base, Some(&base));
        check(&format!("{base}/"), Some(&base));
        check(
            &format!("/tools/hiveterm/p/{TOKEN}/"),
            Some(&format!("/tools/hiveterm/p/{TOKEN}")),
        );
        check("/p/", None);
        check("/p/a.b", None);
        check("/p/a%20b", None);
        check(&format!("/p/{}", "a".repeat(129)), None);
        check("/s/run-1", None);
        check("/", None);
        check(&format!("/p/{TOKEN}/api/share"), None);
    }

    #[test]
    fn issue_48_a_comparison_links_page_and_reads() {
        let base = format!("/p/{TOKEN}");
        let check = |p: &str, want: Option<&str>| {
            assert_eq!(compare_share_base(p).as_deref(), want, "{p}");
        };
        check(&format!("{base}/compare"), Some(&base));
        check(&format!("{base}/compare/"), Some(&base));
        check(
            &format!("/x/p/{TOKEN}/compare"),
            Some(&format!("/x/p/{TOKEN}")),
        );
        check(&base, None);
        check(&format!("{base}/api/compare"), None);
        check("/compare/a/b", None);
        check("/p/compare", None);
        assert_eq!(compare_url(&base), format!("{base}/api/compare"));
        assert_eq!(compare_share_url(&base), format!("{base}/api/share"));
        // A comparison link is no session's link: its page reads none of a session's reads.
        assert_eq!(Source::of_path(&format!("{base}/compare"), None), None);
    }

    #[test]
    fn a_session_reads_its_api_with_the_page_token() {
        let s = Source::of_path("/s/run-1", Some("t%2B1".into())).unwrap();
        assert!(!s.is_share());
        assert_eq!(s.session(), Some("run-1"));
        assert_eq!(s.first_title(), "run-1");
        assert_eq!(s.state_url(), "/api/sessions/run-1/state?token=t%2B1");
        assert_eq!(s.summary_url(), "/api/sessions/run-1/summary?token=t%2B1");
        assert_eq!(
            s.raw_url().as_deref(),
            Some("/api/sessions/run-1/events/raw?token=t%2B1")
        );
        assert_eq!(
            s.history_url(Some(9), 500),
            "/api/sessions/run-1/events/history?limit=500&before=9&token=t%2B1"
        );
        assert_eq!(
            s.stream_url(12),
            "/api/sessions/run-1/events/stream?after=12&token=t%2B1"
        );
        assert_eq!(s.share_url(), None);
        let bare = Source::of_path("/s/run-1", None).unwrap();
        assert_eq!(
            bare.history_url(None, 500),
            "/api/sessions/run-1/events/history?limit=500"
        );
    }

    #[test]
    fn a_share_reads_under_its_path_and_never_sends_a_server_token() {
        let s = Source::of_path(&format!("/p/{TOKEN}/"), Some("server-token".into())).unwrap();
        let base = format!("/p/{TOKEN}/api");
        assert!(s.is_share());
        assert_eq!(s.session(), None);
        assert_eq!(s.state_url(), format!("{base}/state"));
        assert_eq!(s.summary_url(), format!("{base}/summary"));
        assert_eq!(
            s.history_url(Some(9), 1000),
            format!("{base}/events/history?limit=1000&before=9")
        );
        assert_eq!(s.stream_url(0), format!("{base}/events/stream?after=0"));
        assert_eq!(s.share_url(), Some(format!("{base}/share")));
        assert!(Source::of_path("/", None).is_none());
    }

    #[test]
    fn share_info_reads_the_documented_shape_and_says_what_the_link_is() {
        let info: ShareInfo = serde_json::from_str(
            r#"{"title": "Deploy outage", "created_at": 1764576300.5, "expires_at": 1765181100.5,
                "live": false, "snapshot_seq": 1284, "redact": true}"#,
        )
        .unwrap();
        assert_eq!(info.title(), Some("Deploy outage"));
        assert_eq!(
            info.line(|_| 0),
            "shared snapshot · 1,284 events · made 2025-12-01 08:05 · redacted · expires 2025-12-08 08:05"
        );
        assert_eq!(
            info.line(|_| 60),
            "shared snapshot · 1,284 events · made 2025-12-01 09:05 · redacted · expires 2025-12-08 09:05"
        );
        let live: ShareInfo = serde_json::from_str(
            r#"{"title": null, "created_at": 1764576300.5, "expires_at": null, "live": true,
                "snapshot_seq": null, "redact": false}"#,
        )
        .unwrap();
        assert_eq!(live.title(), None);
        assert_eq!(
            live.line(|_| 0),
            "shared live · made 2025-12-01 08:05 · does not expire"
        );
        let one = ShareInfo {
            snapshot_seq: Some(1),
            ..ShareInfo::default()
        };
        assert_eq!(
            one.line(|_| 0),
            "shared snapshot · 1 event · does not expire"
        );
        let blank = ShareInfo {
            title: Some("  ".into()),
            ..ShareInfo::default()
        };
        assert_eq!(blank.title(), None);
    }

    #[test]
    fn dead_links_say_so() {
        assert!(dead_link(410).unwrap().contains("expired or was revoked"));
        assert!(dead_link(404).unwrap().contains("no such share link"));
        for status in [0, 200, 401, 500, 503] {
            assert_eq!(dead_link(status), None, "{status}");
        }
    }
}
