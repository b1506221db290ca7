//! What the watch finds: the agents' folders, which files are logs and what each is (a main
//! log or a subagent's file), every log under a folder, and a main log's session id.

use std::path::{Path, PathBuf};

use crate::ingest::follow_session_id;

/// The agents' default folders under `home`: Claude Code's projects, Codex's sessions,
/// Gemini CLI's chats (`--agents`).
pub fn agent_folders(home: &Path) -> Vec<PathBuf> {
    vec![
        home.join(".claude").join("projects"),
        home.join(".codex").join("sessions"),
        home.join(".gemini").join("tmp"),
    ]
}

/// The session a watched main log's lines go to: `--follow`'s id for the path (a
/// `.jsonl.zst` that of its `.jsonl`).
pub fn watch_session_id(path: &Path) -> String {
    match path.to_str().and_then(|p| p.strip_suffix(".zst")) {
        Some(plain) => follow_session_id(Path::new(plain)),
        None => follow_session_id(path),
    }
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

/// What a log file is to the watch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Role {
    /// A session's main log.
    Main,
    /// A subagent's file: its lines go to the session of this main log.
    Sub(PathBuf),
}

fn name_of(path: &Path) -> &str {
    path.file_name().and_then(|n| n.to_str()).unwrap_or("")
}

/// `path`'s role.
pub(super) fn role(path: &Path) -> Role {
    let parent = path.parent();
    let dir = parent.map(name_of).unwrap_or("");
    let grand = parent.and_then(Path::parent);
    if dir == "subagents" && name_of(path).starts_with("agent-") {
        // <project>/<session>/subagents/agent-<id>.jsonl: the main log is <project>/<session>.jsonl.
        return match grand.and_then(|g| Some((g.parent()?, name_of(g)))) {
            Some((project, session)) if !session.is_empty() => {
                Role::Sub(project.join(format!("{session}.jsonl")))
            }
            _ => Role::Main,
        };
    }
    Role::Main
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
