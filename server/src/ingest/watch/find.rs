//! What the watch finds: the agents' folders, which files are logs and what each is (a main
//! log or a subagent's file), every log under a folder, a main log's session id, and the main
//! recording of a Gemini CLI subagent's.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::ingest::follow::follow_session_id;

/// The agents' default folders of logs under `home` (`--agents`): Claude Code's projects,
/// Codex's sessions, Gemini CLI's chats, Qwen Code's projects and Copilot CLI's session
/// states. (OpenCode keeps its sessions in one database: `crate::ingest::opencode`.)
pub fn agent_folders(home: &Path) -> Vec<PathBuf> {
    vec![
        home.join(".claude").join("projects"),
        home.join(".codex").join("sessions"),
        home.join(".gemini").join("tmp"),
        home.join(".qwen").join("projects"),
        home.join(".copilot").join("session-state"),
    ]
}

/// The session a watched main log's lines go to: `--follow`'s id for the path (a
/// `.jsonl.zst` that of its `.jsonl`).
pub fn watch_session_id(path: &Path) -> String {
    if let Some(dir) = copilot_session_dir(path) {
        // Every Copilot CLI session's log is `events.jsonl`: its folder names the session.
        return follow_session_id(&dir.with_extension("jsonl"));
    }
    match path.to_str().and_then(|p| p.strip_suffix(".zst")) {
        Some(plain) => follow_session_id(Path::new(plain)),
        None => follow_session_id(path),
    }
}

/// The folder of a Copilot CLI session whose log `path` is (`session-state/<id>/events.jsonl`).
fn copilot_session_dir(path: &Path) -> Option<&Path> {
    let dir = path.parent()?;
    let ok = name_of(path) == "events.jsonl"
        && dir.parent().map(name_of) == Some("session-state")
        && !name_of(dir).is_empty();
    ok.then_some(dir)
}

/// Whether `path` names an agent log (`*.jsonl`, `*.jsonl.zst`, not hidden).
pub(super) fn is_log(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let name = name.to_ascii_lowercase();
    let name = name.strip_suffix(".zst").unwrap_or(&name);
    !name.starts_with('.') && Path::new(name).extension().is_some_and(|e| e == "jsonl")
}

/// What is known of a main recording's stored lines: the subagents their calls name
/// (`super::gate`).
#[derive(Debug, Default)]
pub(super) struct Scan {
    /// Bytes of the file looked at (up to the end of a stored line).
    pub(super) offset: u64,
    /// Their mark (`crate::ingest::mark`): a file rewritten in place is read again.
    pub(super) mark: u64,
    /// The file's inode when looked at.
    pub(super) ino: u64,
    /// The subagents named (`"agentId":"…"`).
    pub(super) agents: HashSet<String>,
}

/// What lets a main recording's held subagents through (`super::gate`): where its stored
/// lines end (the file's inode and offset), and whether it is idle (unchanged for
/// `super::IDLE`, or gone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Gate {
    pub(super) stored: Option<(u64, u64)>,
    pub(super) idle: bool,
}

/// The subagents' recordings of one main recording held back (each with its id), and the
/// main recording's [`Gate`] when they were last looked at (`super::gate`).
#[derive(Debug)]
pub(super) struct Holds {
    pub(super) gate: Gate,
    pub(super) files: HashMap<PathBuf, String>,
}

/// What a log file is to the watch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Role {
    /// A session's main log.
    Main,
    /// A Claude Code subagent's transcript, `agent-<id>.jsonl`: its lines go to the session of
    /// this main log, tagged as subagent `<id>`'s.
    Sub(PathBuf, String),
    /// A Gemini CLI subagent's recording, `<chats>/<session id>/<agent>.jsonl`: its lines go
    /// to the session of the main recording in `<chats>` whose `sessionId` is `session`
    /// ([`gemini_main`]), tagged as `agent`'s.
    GeminiSub {
        chats: PathBuf,
        session: String,
        agent: String,
    },
}

fn name_of(path: &Path) -> &str {
    path.file_name().and_then(|n| n.to_str()).unwrap_or("")
}

/// `path`'s role.
pub(super) fn role(path: &Path) -> Role {
    let parent = path.parent();
    let dir = parent.map(name_of).unwrap_or("");
    let grand = parent.and_then(Path::parent);
    if dir == "subagents"
        && let Some(id) = name_of(path).strip_prefix("agent-")
    {
        // <project>/<session>/subagents/agent-<id>.jsonl: the main log is <project>/<session>.jsonl.
        let id = id.strip_suffix(".zst").unwrap_or(id);
        let id = id.strip_suffix(".jsonl").unwrap_or(id);
        return match grand.and_then(|g| Some((g.parent()?, name_of(g)))) {
            Some((project, session)) if !session.is_empty() => {
                Role::Sub(project.join(format!("{session}.jsonl")), id.to_owned())
            }
            _ => Role::Main,
        };
    }
    if copilot_session_dir(path).is_some() {
        return Role::Main;
    }
    if let Some(sub) = qwen_sub(path) {
        return sub;
    }
    let agent = name_of(path).strip_suffix(".jsonl").unwrap_or("");
    match grand {
        Some(chats) if is_gemini_id(dir) && !agent.is_empty() => Role::GeminiSub {
            chats: chats.to_owned(),
            session: dir.to_owned(),
            agent: agent.to_owned(),
        },
        _ => Role::Main,
    }
}

/// A Qwen Code subagent's transcript,
/// `<project>/subagents/<session id>/agent-<type>-<call id>.jsonl`: its lines go to the session
/// of `<project>/chats/<session id>.jsonl`, tagged `<type>-<call id>`.
fn qwen_sub(path: &Path) -> Option<Role> {
    let dir = path.parent()?;
    let subagents = dir.parent()?;
    if name_of(subagents) != "subagents" {
        return None;
    }
    let id = name_of(path)
        .strip_prefix("agent-")?
        .strip_suffix(".jsonl")?;
    let session = name_of(dir);
    let project = subagents.parent()?;
    (!id.is_empty() && !session.is_empty()).then(|| {
        let main = project.join("chats").join(format!("{session}.jsonl"));
        Role::Sub(main, id.to_owned())
    })
}

/// Whether `name` is shaped like a Gemini CLI session id (a UUID: 8-4-4-4-12 hex digits).
fn is_gemini_id(name: &str) -> bool {
    let groups: Vec<&str> = name.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The main chat recording in `chats` whose first line names `session` (`"kind":"main"`):
/// those whose name ends with the id's first eight characters (Gemini CLI names them
/// `session-<time>-<id8>.jsonl`) looked at first.
pub(super) fn gemini_main(chats: &Path, session: &str) -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(chats)
        .ok()?
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.path())
        .filter(|p| is_log(p))
        .collect();
    let short = format!("{}.jsonl", &session[..8.min(session.len())]);
    found.sort_by_key(|p| !name_of(p).ends_with(&short));
    found
        .into_iter()
        .find(|p| crate::session_files::gemini_session(p).as_deref() == Some(session))
}

/// Every log file under `dir`, at any depth, with its metadata (symbolic links not followed).
pub(super) fn walk(dir: &Path, found: &mut Vec<(PathBuf, std::fs::Metadata)>) {
    let mut stack = vec![dir.to_owned()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file()
                && is_log(&path)
                && let Ok(meta) = entry.metadata()
            {
                found.push((path, meta));
            }
        }
    }
}
