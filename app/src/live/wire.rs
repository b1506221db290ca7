//! The live view's wire: `docs/API.md` of the server (history pages, state badges, the
//! session list), parsed purely and tested natively. The calls themselves are in
//! [`crate::live::net`]; the live view that uses them in [`crate::live::view`].
//!
//! History is read in pages, newest first: [`FIRST_PAGE`] envelopes when the page opens,
//! [`OLDER_PAGE`] more each time the reader scrolls near the top, and [`SEEK_PAGE`] at a time
//! while paging back to a permalink's row.

use serde_json::Value;

use classifier::TermEnvelope;
use contract::State;

/// Envelopes in the first history page a live view loads.
pub const FIRST_PAGE: u32 = 500;
/// Envelopes per older page, fetched as the reader scrolls near the top.
pub const OLDER_PAGE: u32 = 500;
/// Envelopes per page while paging back to a permalink (fewer round trips).
pub const SEEK_PAGE: u32 = 1000;

/// A page of history (`GET …/events/history`), newest first: the contract's.
pub use contract::HistoryPage;

/// One header badge: a label and its text.
pub type Badge = (String, String);

/// A badge's text from what the agent reported (any JSON, passed through by the server: a
/// string, or an object naming it by `name` or `state`).
fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::Null => None,
        Value::String(s) if s.is_empty() => None,
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => o
            .get("name") // contract-check: an agent's own status object, passed through as sent
            .or_else(|| o.get("state")) // contract-check: the same object
            .and_then(text_of)
            .or_else(|| Some(v.to_string())),
        other => Some(other.to_string()),
    }
}

/// The header's badges from a state (`GET …/state` or an SSE `state` frame): status, model,
/// effort, turn state, turns, tokens, cost, errors, warnings. Missing fields are left out.
pub fn badges(state: &State) -> Vec<Badge> {
    let b = &state.badges;
    let mut out = Vec::new();
    let mut push = |label: &str, v: Option<String>| {
        if let Some(v) = v {
            out.push((label.to_owned(), v));
        }
    };
    push("status", b.status.as_ref().and_then(text_of));
    push("model", b.model.as_ref().and_then(text_of));
    push("effort", b.effort.as_ref().and_then(text_of));
    push("turn_state", b.turn_state.as_ref().and_then(text_of));
    if b.turn.count > 0 {
        push("turns", Some(b.turn.count.to_string()));
    }
    if let Some(usage) = b.usage.as_ref().and_then(Value::as_object) {
        // The agent's usage object, passed through as it reported it (any of these keys).
        let n = |k: &str| usage.get(k).and_then(Value::as_u64).unwrap_or(0); // contract-check: the agent's usage object, passed through
        let input =
            n("input_tokens") + n("cache_read_input_tokens") + n("cache_creation_input_tokens");
        push(
            "tokens",
            Some(format!("{input} in · {} out", n("output_tokens"))),
        );
    }
    if b.cost_usd > 0.0 {
        push("cost", Some(format!("${:.4}", b.cost_usd)));
    }
    for (label, n) in [("errors", b.errors), ("warnings", b.warnings)] {
        if n > 0 {
            push(label, Some(n.to_string()));
        }
    }
    if !state.session.live {
        push("ended", Some("ended".to_owned()));
    }
    out
}

/// Whether a live page's banner shimmers: a turn is in flight, by the server's state or by the
/// rows (each main-agent turn started and not ended, so two overlapping runs keep it on until
/// both end) — and never once the session has ended (its `ended` badge).
pub fn shimmers(server_in_flight: bool, turns_in_flight: usize, badges: &[Badge]) -> bool {
    let ended = badges.iter().any(|(label, _)| label == "ended");
    !ended && (server_in_flight || turns_in_flight > 0)
}

/// Whether the state says a turn is in flight.
pub fn turn_in_flight(state: &State) -> bool {
    state.badges.turn.in_flight
}

/// The session id of a page path `/s/{id}` (decoded; only the API's id characters).
pub fn session_of_path(path: &str) -> Option<String> {
    let id = path.strip_prefix("/s/")?.trim_end_matches('/');
    let ok = !id.is_empty()
        && id.len() <= 100
        && !id.starts_with('.')
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    ok.then(|| id.to_owned())
}

/// Appends the page's `?token=` (if any) to an API URL.
pub fn with_token(url: &str, token: Option<&str>) -> String {
    match token {
        None => url.to_owned(),
        Some(t) => {
            let sep = if url.contains('?') { '&' } else { '?' };
            format!("{url}{sep}token={t}")
        }
    }
}

/// What the SSE stream reports (`docs/API.md`: `message`, `state`, `preview`, and the
/// browser's `open`/`error`).
#[derive(Debug, Clone, PartialEq)]
pub enum StreamMsg {
    /// An envelope.
    Envelope(TermEnvelope),
    /// A state frame.
    State(Box<State>),
    /// A preview frame.
    Preview(crate::live::preview::PreviewFrame),
    /// The session's notes changed (a `notes` frame): the change it carries.
    Notes(crate::notes::model::NoteFrame),
    /// Connected (again).
    Open,
    /// Lost; the browser retries.
    Error,
}

/// The SSE event names the live view listens to.
pub const STREAM_EVENTS: [&str; 6] = ["message", "state", "preview", "notes", "open", "error"];

impl StreamMsg {
    /// One SSE event, by name, with its `data` (absent for `open`/`error`); `None` for a
    /// frame that does not parse or an event the page does not listen to.
    pub fn parse(event: &str, data: Option<&str>) -> Option<StreamMsg> {
        match event {
            "message" => serde_json::from_str(data?).ok().map(StreamMsg::Envelope),
            "state" => serde_json::from_str(data?).ok().map(StreamMsg::State),
            "preview" => serde_json::from_str(data?).ok().map(StreamMsg::Preview),
            "notes" => Some(StreamMsg::Notes(crate::notes::model::parse_frame(
                data.unwrap_or_default(),
            ))),
            "open" => Some(StreamMsg::Open),
            "error" => Some(StreamMsg::Error),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_banner_shimmers_while_turns_run_and_never_once_ended() {
        let ended = vec![("ended".to_owned(), "ended".to_owned())];
        let model = vec![("model".to_owned(), "m".to_owned())];
        for (server, turns, badges, want) in [
            (false, 0, &model, false),
            (true, 0, &model, true),
            (false, 2, &model, true),
            (false, 1, &model, true),
            (true, 2, &ended, false),
            (false, 1, &ended, false),
        ] {
            assert_eq!(
                super::shimmers(server, turns, badges),
                want,
                "{server} {turns} {badges:?}"
            );
        }
    }

    use super::*;
    use serde_json::json;

    fn st(v: Value) -> State {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn history_page_parses_the_documented_shape() {
        let page: HistoryPage = serde_json::from_value(json!({
            "envelopes": [{"ts": 2.0, "seq": 9, "msgs": [{"level": "info", "summary": "x"}]}],
            "next_before": 9, "head": 12
        }))
        .unwrap();
        assert_eq!(page.envelopes.len(), 1);
        assert_eq!(page.next_before, Some(9));
        assert_eq!(page.head, Some(12));
        let end: HistoryPage =
            serde_json::from_value(json!({"envelopes": [], "next_before": null, "head": 0}))
                .unwrap();
        assert_eq!(end.next_before, None);
    }

    #[test]
    fn badges_from_state() {
        let state = st(json!({
            "status": "busy", "model": "claude-opus-5-5", "effort": null,
            "usage": {"input_tokens": 3866, "output_tokens": 800, "cache_read_input_tokens": 4},
            "turn": {"in_flight": true, "count": 3}, "cost_usd": 0.031464,
            "errors": 2, "warnings": 0, "live": true, "turn_state": "compacting"
        }));
        let b = badges(&state);
        let want: Vec<Badge> = [
            ("status", "busy"),
            ("model", "claude-opus-5-5"),
            ("turn_state", "compacting"),
            ("turns", "3"),
            ("tokens", "3870 in · 800 out"),
            ("cost", "$0.0315"),
            ("errors", "2"),
        ]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        assert_eq!(b, want);
        assert!(turn_in_flight(&state));
        assert!(!turn_in_flight(&st(json!({}))));
        assert_eq!(
            badges(&st(json!({"live": false}))),
            vec![("ended".into(), "ended".into())]
        );
    }

    #[test]
    fn stream_events_parse() {
        let check = |event: &str, data: Option<&str>, want: Option<StreamMsg>| {
            assert_eq!(StreamMsg::parse(event, data), want, "{event} {data:?}");
        };
        let env: TermEnvelope =
            serde_json::from_value(json!({"seq": 4, "msgs": [{"level": "info", "summary": "x"}]}))
                .unwrap();
        check(
            "message",
            Some(r#"{"seq": 4, "msgs": [{"level": "info", "summary": "x"}]}"#),
            Some(StreamMsg::Envelope(env)),
        );
        check("message", Some("not json"), None);
        check("message", None, None);
        check(
            "notes",
            Some("{}"),
            Some(StreamMsg::Notes(crate::notes::model::NoteFrame::Reset(
                true,
            ))),
        );
        check(
            "notes",
            Some(r#"{"deleted": 3}"#),
            Some(StreamMsg::Notes(crate::notes::model::NoteFrame::Deleted(3))),
        );
        check(
            "state",
            Some(r#"{"live": true}"#),
            Some(StreamMsg::State(Box::new(st(json!({"live": true}))))),
        );
        check(
            "preview",
            Some(r#"{"seq": 2, "kind": "text", "text": "Hi"}"#),
            Some(StreamMsg::Preview(crate::live::preview::PreviewFrame {
                seq: 2,
                kind: Some(crate::live::preview::PreviewKind::Text),
                tool: None,
                text: "Hi".into(),
            })),
        );
        check("open", None, Some(StreamMsg::Open));
        check("error", None, Some(StreamMsg::Error));
        check("ping", Some("{}"), None);
        assert_eq!(
            STREAM_EVENTS,
            ["message", "state", "preview", "notes", "open", "error"]
        );
    }

    #[test]
    fn session_paths() {
        let check = |p: &str, want: Option<&str>| {
            assert_eq!(session_of_path(p).as_deref(), want, "{p}");
        };
        check("/s/run-1", Some("run-1"));
        check("/s/run-1/", Some("run-1"));
        check("/s/", None);
        check("/s/.hidden", None);
        check("/s/a b", None);
        check("/", None);
        check("/x/abc", None);
    }

    #[test]
    fn token_is_appended() {
        assert_eq!(with_token("/a", None), "/a");
        assert_eq!(with_token("/a", Some("t")), "/a?token=t");
        assert_eq!(with_token("/a?b=1", Some("t")), "/a?b=1&token=t");
    }
}
