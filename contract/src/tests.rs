//! Each type's JSON pinned as docs/API.md shows it: field names, order and what is left out
//! are the wire, which the server's tests and the page's end-to-end tests hold too.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::*;

/// `v` written, and read back the same.
fn pinned<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(v: &T, json: &str) {
    assert_eq!(serde_json::to_string(v).unwrap(), json);
    assert_eq!(&serde_json::from_str::<T>(json).unwrap(), v, "{json}");
}

#[test]
fn an_index_entry_and_page() {
    let e = SessionEntry {
        id: "run-1".into(),
        title: "Fix it".into(),
        source: "run".into(),
        started: 1.5,
        live: true,
        last_seq: 812,
        agent: Some("claude-code".into()),
        status: Status::InFlight,
        turns: 3,
        tokens: Tokens {
            input: 1,
            output: 2,
            cache_read: 3,
            cache_creation: 4,
        },
        cost: Some(0.5),
        cost_source: CostSource::Estimated,
        ..SessionEntry::default()
    };
    pinned(
        &e,
        r#"{"id":"run-1","title":"Fix it","source":"run","started":1.5,"ended":null,"live":true,"last_seq":812,"agent":"claude-code","agent_version":null,"project":null,"model":null,"status":"in flight","started_at":null,"ended_at":null,"duration":null,"turns":3,"errors":0,"first_error":null,"tokens":{"input":1,"output":2,"cache_read":3,"cache_creation":4},"cost":0.5,"cost_source":"estimated"}"#,
    );
    assert_eq!(e.tokens.total(), 10);
    let last = SessionsPage {
        sessions: vec![],
        next_before: None,
        next: None,
    };
    pinned(&last, r#"{"sessions":[],"next_before":null}"#);
    for s in Status::ALL {
        assert_eq!(Status::parse(s.as_str()), Some(s));
        assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
    }
    for s in Sort::ALL {
        assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
    }
    assert_eq!(Sort::parse("cost"), Some(Sort::Cost));
    assert_eq!(Status::parse("busy"), None);
}

#[test]
fn a_note_a_page_and_a_frame() {
    let note = Note {
        id: 7,
        from: 120,
        to: 134,
        text: "x".into(),
        author: "Ann".into(),
        reader: Some(Reader {
            link: 12,
            title: None,
        }),
        created_at: 2.5,
        updated_at: None,
    };
    pinned(
        &note,
        r#"{"id":7,"from":120,"to":134,"text":"x","author":"Ann","reader":{"link":12,"title":null},"created_at":2.5,"updated_at":null}"#,
    );
    assert_eq!((note.key(), note.bytes()), ((120, 134, 7), 4));
    pinned(
        &NotesPage {
            notes: vec![],
            next: Some("1.2.3".into()),
        },
        r#"{"notes":[],"next":"1.2.3"}"#,
    );
    pinned(&NotesFrame::Deleted(3), r#"{"deleted":3}"#);
    pinned(&NotesFrame::Reset(true), r#"{"reset":true}"#);
    let framed = serde_json::to_string(&NotesFrame::Note(Box::new(note))).unwrap();
    assert!(framed.starts_with(r#"{"note":{"id":7,"#), "{framed}");
    // An export's note (no reader, no updated_at) reads as one.
    let old: Note =
        serde_json::from_str(r#"{"id":1,"from":1,"to":2,"text":"t","created_at":1}"#).unwrap();
    assert_eq!(
        (old.reader, old.updated_at, old.author),
        (None, None, String::new())
    );
}

#[test]
fn a_hit_history_and_last_key() {
    let hit = Hit {
        session: "s".into(),
        seq: 9,
        row: 1,
        ts: 3.0,
        icon: None,
        level: "error".into(),
        summary: "boom".into(),
        place: search::Place::Body,
        snippet: "…boom".into(),
    };
    pinned(
        &hit,
        r#"{"session":"s","seq":9,"row":1,"ts":3.0,"icon":null,"level":"error","summary":"boom","in":"body","snippet":"…boom"}"#,
    );
    pinned(
        &HistoryPage {
            envelopes: vec![],
            next_before: None,
            head: Some(4),
            cut_by_bytes: false,
        },
        r#"{"envelopes":[],"next_before":null,"head":4,"cut_by_bytes":false}"#,
    );
    pinned(&post::LastKey::default(), r#"{"key":null}"#);
    pinned(
        &post::LastKey {
            key: Some("k".into()),
            stored: Some(post::Stored {
                first_seq: 1,
                last_seq: 2,
                lines: 2,
                body_sha256: None,
            }),
        },
        r#"{"key":"k","first_seq":1,"last_seq":2,"lines":2,"body_sha256":null}"#,
    );
    pinned(&ErrorBody { error: "no".into() }, r#"{"error":"no"}"#);
}

#[test]
fn issue_48_a_comparison_link_listed_and_shown() {
    let listed = share::Listed {
        share: share::Share {
            id: 4,
            session: "a".into(),
            created_at: 1.0,
            snapshot_seq: Some(9),
            compare_with: Some("b".into()),
            compare_seq: Some(7),
            ..share::Share::default()
        },
        live: false,
        status: share::ShareStatus::Active,
    };
    pinned(
        &listed,
        r#"{"id":4,"session":"a","title":null,"created_at":1.0,"expires_at":null,"snapshot_seq":9,"redact":false,"revoked_at":null,"comments":false,"compare_with":"b","compare_seq":7,"live":false,"status":"active"}"#,
    );
    let info = share::ShareInfo {
        title: Some("a ↔ b".into()),
        compare: true,
        ..share::ShareInfo::default()
    };
    pinned(
        &info,
        r#"{"title":"a ↔ b","created_at":null,"expires_at":null,"live":false,"snapshot_seq":null,"redact":false,"comments":false,"compare":true}"#,
    );
}

#[test]
fn a_share_made_listed_and_shown() {
    let listed = share::Listed {
        share: share::Share {
            id: 3,
            session: "run-1".into(),
            created_at: 1.0,
            snapshot_seq: Some(9),
            ..share::Share::default()
        },
        live: false,
        status: share::ShareStatus::Revoked,
    };
    pinned(
        &listed,
        r#"{"id":3,"session":"run-1","title":null,"created_at":1.0,"expires_at":null,"snapshot_seq":9,"redact":false,"revoked_at":null,"comments":false,"live":false,"status":"revoked"}"#,
    );
    let made = share::Created {
        listed,
        url: "/p/t".into(),
        redactions: Some(share::Review {
            report: share::Report {
                count: 1,
                events: 1,
                items: vec![share::Redaction {
                    seq: 4,
                    kind: "anthropic_key".into(),
                    preview: "sk-a…".into(),
                }],
                truncated: false,
            },
            note: share::REVIEW_NOTE.into(),
        }),
    };
    let json = serde_json::to_string(&made).unwrap();
    assert!(
        json.ends_with(r#""status":"revoked","url":"/p/t","redactions":{"count":1,"events":1,"items":[{"seq":4,"kind":"anthropic_key","preview":"sk-a…"}],"truncated":false,"note":"pattern redaction is best effort: review the rows before sending the link"}}"#),
        "{json}"
    );
    assert_eq!(serde_json::from_str::<share::Created>(&json).unwrap(), made);
    pinned(
        &share::ShareRequest {
            expires: Some("7d".into()),
            live: Some(false),
            ..share::ShareRequest::default()
        },
        r#"{"expires":"7d","live":false}"#,
    );
    assert!(serde_json::from_str::<share::ShareRequest>(r#"{"bogus":1}"#).is_err());
}

#[test]
fn state_and_preview_frames() {
    let state = State {
        session: Session {
            id: "s".into(),
            live: true,
            ..Session::default()
        },
        badges: Badges::default(),
    };
    pinned(
        &state,
        r#"{"id":"s","title":"","source":"","started":0.0,"ended":null,"live":true,"last_seq":0,"status":null,"model":null,"effort":null,"usage":null,"turn":{"in_flight":false,"since":null,"from":null,"count":0,"last_ok":null},"turn_state":null,"cost_usd":0.0,"duration_ms":0.0,"results":0,"errors":0,"warnings":0,"active_tools":[]}"#,
    );
    pinned(
        &sse::Preview {
            seq: 2,
            kind: Some(sse::PreviewKind::ToolInput),
            tool: Some("Read".into()),
            text: "{".into(),
        },
        r#"{"seq":2,"kind":"tool_input","tool":"Read","text":"{"}"#,
    );
    let usage = usage::Usage::of(
        usage::By::Agent,
        None,
        vec![usage::UsageGroup {
            key: Some("codex".into()),
            sessions: 2,
            cost: Some(1.0),
            ..usage::UsageGroup::default()
        }],
    );
    assert_eq!(usage.total.sessions, 2);
    assert_eq!(usage.total.key, None);
    let json = serde_json::to_string(&usage).unwrap();
    assert!(
        json.starts_with(
            r#"{"by":"agent","since":null,"groups":[{"key":"codex","sessions":2,"tokens":"#
        ),
        "{json}"
    );
}
