//! A session's subagents' files, found beside its main log, so `hiveterm classify`,
//! `summary` and `export` of a session read them with it (docs/CLI.md): Claude Code's
//! `<dir>/<session>/subagents/agent-<id>.jsonl` beside `<dir>/<session>.jsonl`, and Gemini
//! CLI's `<dir>/<session id>/<subagent id>.jsonl` beside a chat recording whose first line
//! names that `sessionId` (`"kind":"main"`), and Qwen Code's
//! `<project>/subagents/<session id>/agent-<type>-<call id>.jsonl` beside
//! `<project>/chats/<session id>.jsonl`. Oldest first — by the first time each file
//! holds, then by name — so a subagent started by another comes after the one that started it.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use classifier::parse_line;

/// One subagent's file.
#[derive(Debug, Clone, PartialEq)]
pub struct SubagentFile {
    /// Where it is.
    pub path: PathBuf,
    /// The subagent's id, as the file's name says.
    pub agent: Option<String>,
}

/// How many lines of a file are looked at for its first time.
const HEAD_LINES: usize = 32;

/// The subagents' files of the session whose main log is `main` (none for standard input, or
/// a log with no such folder beside it), oldest first.
pub fn subagent_files(main: Option<&PathBuf>) -> Vec<SubagentFile> {
    let Some(main) = main.filter(|p| p.as_os_str() != "-") else {
        return Vec::new();
    };
    let (Some(dir), Some(name)) = (main.parent(), main.file_name().and_then(|n| n.to_str())) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    if let Some(stem) = name.strip_suffix(".jsonl") {
        found.extend(listed(&dir.join(stem).join("subagents"), |n| {
            n.strip_prefix("agent-")?.strip_suffix(".jsonl")
        }));
    }
    if let (Some(stem), Some(project)) = (name.strip_suffix(".jsonl"), qwen_project(dir)) {
        found.extend(listed(&project.join("subagents").join(stem), |n| {
            n.strip_prefix("agent-")?.strip_suffix(".jsonl")
        }));
    }
    if let Some(id) = gemini_session(main) {
        found.extend(listed(&dir.join(id), |n| n.strip_suffix(".jsonl")));
    }
    let mut keyed: Vec<(f64, SubagentFile)> = found
        .into_iter()
        .map(|f| (first_time(&f.path).unwrap_or(f64::INFINITY), f))
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.path.cmp(&b.1.path)));
    keyed.into_iter().map(|(_, f)| f).collect()
}

/// The project folder of a Qwen Code session file's folder (`<project>/chats`).
fn qwen_project(dir: &Path) -> Option<&Path> {
    (dir.file_name()? == "chats")
        .then(|| dir.parent())
        .flatten()
}

/// The files of `dir` whose name `agent` accepts, with the id it gives.
fn listed(dir: &Path, agent: impl Fn(&str) -> Option<&str>) -> Vec<SubagentFile> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let id = agent(&name)?.to_owned();
            Some(SubagentFile {
                path: e.path(),
                agent: Some(id).filter(|id| !id.is_empty()),
            })
        })
        .collect()
}

/// A Gemini CLI main chat recording's `sessionId` (its first line's).
pub fn gemini_session(main: &Path) -> Option<String> {
    let mut first = Vec::new();
    BufReader::new(File::open(main).ok()?.take(64 * 1024))
        .read_until(b'\n', &mut first)
        .ok()?;
    let v: serde_json::Value = serde_json::from_slice(&first).ok()?;
    if v.get("kind")?.as_str()? != "main" {
        return None;
    }
    let id = v.get("sessionId")?.as_str()?;
    // A file name, not a path.
    (!id.is_empty() && id.len() <= 128 && !id.contains(['/', '\\']) && id != "..")
        .then(|| id.to_owned())
}

/// The first time any of a file's first lines holds.
fn first_time(path: &Path) -> Option<f64> {
    let reader = BufReader::new(File::open(path).ok()?);
    reader
        .split(b'\n')
        .take(HEAD_LINES)
        .map_while(Result::ok)
        .find_map(|line| parse_line(&line).ts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(rel: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fixtures")
            .join(rel)
    }

    #[test]
    fn a_sessions_subagents_files_are_found_beside_it() {
        let cases: &[(&str, &[(&str, &str)])] = &[
            (
                "claude-code-2.1.332/subagent.transcript.jsonl",
                &[(
                    "subagent.transcript/subagents/agent-ae89bd37fdd96fc64.jsonl",
                    "ae89bd37fdd96fc64",
                )],
            ),
            (
                "gemini-0.61.0/gemini.subagent.session.jsonl",
                &[(
                    "6a32b09a-db98-4639-82e6-0e4802f905b6/3379175b-11ed-4f13-84e8-b95f2ccef876.jsonl",
                    "3379175b-11ed-4f13-84e8-b95f2ccef876",
                )],
            ),
            ("claude-code-2.1.332/subagent.stream.jsonl", &[]),
            ("gemini-0.61.0/gemini.subagent.stream.jsonl", &[]),
        ];
        for (main, want) in cases {
            let main = fixture(main);
            let dir = main.parent().unwrap().to_owned();
            let got = subagent_files(Some(&main));
            let want: Vec<SubagentFile> = want
                .iter()
                .map(|(p, id)| SubagentFile {
                    path: dir.join(p),
                    agent: Some((*id).to_owned()),
                })
                .collect();
            assert_eq!(got, want, "{}", main.display());
        }
        assert!(subagent_files(None).is_empty());
        assert!(subagent_files(Some(&PathBuf::from("-"))).is_empty());
    }

    #[test]
    fn issue_47_a_qwen_sessions_subagents_are_found_in_its_projects_folder() {
        let home = tempfile::tempdir().unwrap();
        let project = home.path().join("-home-dev-work");
        let main = project.join("chats/s1.jsonl");
        let sub = project.join("subagents/s1/agent-general-call_7.jsonl");
        let other = project.join("subagents/s2/agent-general-call_8.jsonl");
        for p in [&main, &sub, &other] {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "{}\n").unwrap();
        }
        let want = SubagentFile {
            path: sub,
            agent: Some("general-call_7".to_owned()),
        };
        assert_eq!(subagent_files(Some(&main)), vec![want]);
    }
}
