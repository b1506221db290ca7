use super::find::*;
use super::import::next_session;
use crate::ingest::follow_session_id;
use std::path::{Path, PathBuf};

#[test]
fn roles_of_the_agents_files() {
    let check = |path: &str, want: Role| assert_eq!(role(Path::new(path)), want, "{path}");
    check("/p/s1.jsonl", Role::Main);
    check(
        "/p/s1/subagents/agent-a1.jsonl",
        Role::Sub(PathBuf::from("/p/s1.jsonl"), "a1".to_owned()),
    );
    check("/p/s1/subagents/notes.jsonl", Role::Main);
    check("/2026/12/02/rollout-2026-x.jsonl.zst", Role::Main);
    check("/proj/chats/abc-123/sub-9.jsonl", Role::Main);
    check("/proj/chats/session-2.jsonl", Role::Main);
    // A Gemini CLI subagent's recording: in a folder named by its parent's session id.
    check(
        "/proj/chats/6a32b09a-db98-4639-82e6-0e4802f905b6/3379175b-11ed.jsonl",
        Role::GeminiSub {
            chats: PathBuf::from("/proj/chats"),
            session: "6a32b09a-db98-4639-82e6-0e4802f905b6".to_owned(),
            agent: "3379175b-11ed".to_owned(),
        },
    );
    check(
        "/proj/chats/6a32b09a-db98-4639-82e6-0e4802f905bX/s.jsonl",
        Role::Main,
    );
    check("/proj/chats/6a32b09a-db98-4639-82e6/s.jsonl", Role::Main);
}

#[test]
fn a_gemini_subagents_main_recording_is_found_by_its_session_id() {
    let dir = tempfile::tempdir().unwrap();
    let chats = dir.path();
    let id = "6a32b09a-db98-4639-82e6-0e4802f905b6";
    let first = |id: &str, kind: &str| format!("{{\"sessionId\":\"{id}\",\"kind\":\"{kind}\"}}\n");
    std::fs::write(
        chats.join("session-1-6a32b09a.jsonl"),
        first("other", "main"),
    )
    .unwrap();
    std::fs::write(
        chats.join("session-2-aaaaaaaa.jsonl"),
        first(id, "subagent"),
    )
    .unwrap();
    assert_eq!(gemini_main(chats, id), None);
    std::fs::write(chats.join("session-3-bbbbbbbb.jsonl"), first(id, "main")).unwrap();
    assert_eq!(
        gemini_main(chats, id),
        Some(chats.join("session-3-bbbbbbbb.jsonl"))
    );
}

#[test]
fn a_replaced_log_gets_a_new_session_each_time() {
    assert_eq!(next_session("f-a-1", 0xab, "f-a-1"), "f-a-1-iab");
    assert_eq!(next_session("f-a-1", 0xab, "f-a-1-iab"), "f-a-1-iab-2");
    assert_eq!(next_session("f-a-1", 0xab, "f-a-1-iab-2"), "f-a-1-iab-3");
    assert_eq!(next_session("f-a-1", 0xcd, "f-a-1-iab-2"), "f-a-1-icd");
}

#[test]
fn what_is_a_log() {
    for (name, want) in [
        ("a.jsonl", true),
        ("rollout-1.jsonl.zst", true),
        (".a.jsonl", false),
        ("a.json", false),
        ("a.jsonl.tmp", false),
        ("logs.json", false),
    ] {
        assert_eq!(is_log(Path::new(name)), want, "{name}");
    }
}

#[test]
fn a_compressed_rollout_goes_on_in_its_plain_session() {
    let a = Path::new("/h/.codex/sessions/2026/12/02/rollout-x.jsonl");
    let z = Path::new("/h/.codex/sessions/2026/12/02/rollout-x.jsonl.zst");
    assert_eq!(watch_session_id(a), watch_session_id(z));
    assert_eq!(watch_session_id(a), follow_session_id(a));
}

/// Regression: the watch's own opens and reads of its logs and folders (inotify's `IN_OPEN`,
/// `IN_CLOSE_NOWRITE`) were taken as changes, so each look set off the next and an idle
/// watch of a few hundred logs kept a core busy.
#[test]
fn the_watchs_own_reads_are_not_changes() {
    use notify::event::{
        AccessKind, AccessMode, CreateKind, DataChange, EventKind, ModifyKind, RemoveKind,
        RenameMode,
    };
    let check =
        |kind: EventKind, want: bool| assert_eq!(super::names_a_change(&kind), want, "{kind:?}");
    for mode in [
        AccessMode::Any,
        AccessMode::Execute,
        AccessMode::Read,
        AccessMode::Other,
    ] {
        check(EventKind::Access(AccessKind::Open(mode)), false);
        check(EventKind::Access(AccessKind::Close(mode)), false);
    }
    check(
        EventKind::Access(AccessKind::Open(AccessMode::Write)),
        false,
    );
    check(EventKind::Access(AccessKind::Read), false);
    check(EventKind::Access(AccessKind::Any), false);
    check(EventKind::Access(AccessKind::Other), false);
    check(
        EventKind::Access(AccessKind::Close(AccessMode::Write)),
        true,
    );
    check(EventKind::Create(CreateKind::File), true);
    check(EventKind::Create(CreateKind::Folder), true);
    check(EventKind::Modify(ModifyKind::Data(DataChange::Any)), true);
    check(EventKind::Modify(ModifyKind::Name(RenameMode::To)), true);
    check(EventKind::Remove(RemoveKind::File), true);
    check(EventKind::Any, true);
    check(EventKind::Other, true);
}
