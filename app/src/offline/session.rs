//! Several files opened together (dropped or picked at once) as one session, as `hiveterm
//! classify` reads a session (pure, tested natively): the main log first, then each
//! subagent's file, each read through `LogClassifier::next_file` with the subagent's id its
//! name gives.
//!
//! Which is which, by name (as the agents name them): Claude Code's subagents' files are
//! `agent-<id>.jsonl`; Gemini CLI's main recording is `session-….jsonl` and its subagents'
//! `<subagent session id>.jsonl` (a UUID). The main log is the `session-…` file if there is
//! one, else the first (by name) whose name gives no subagent id (not `agent-…`, not a
//! UUID), else the first; the others follow by name. A file
//! whose name gives no subagent id is read as a file of the session all the same (its lines
//! that name their agent are nested by that).

use crate::worker::protocol::Part;

/// The order to read files named `names` in (their indices) and, for each after the first,
/// its subagent's id.
pub fn order(names: &[String]) -> Vec<(usize, Option<String>)> {
    let mut idx: Vec<usize> = (0..names.len()).collect();
    idx.sort_by(|&a, &b| names[a].cmp(&names[b]).then(a.cmp(&b)));
    let main = idx
        .iter()
        .position(|&i| names[i].starts_with("session-"))
        .or_else(|| idx.iter().position(|&i| agent_of(&names[i]).is_none()))
        .unwrap_or(0);
    let first = idx.remove(main);
    std::iter::once((first, None))
        .chain(idx.into_iter().map(|i| (i, agent_of(&names[i]))))
        .collect()
}

/// The parts of a session of files of sizes `sizes` read in `order`: where each file after
/// the first starts, and its subagent's id.
pub fn parts(order: &[(usize, Option<String>)], sizes: &[f64]) -> Vec<Part> {
    let mut at = 0.0;
    let mut out = Vec::new();
    for (k, (i, agent)) in order.iter().enumerate() {
        if k > 0 {
            out.push((at, agent.clone()));
        }
        at += sizes[*i];
    }
    out
}

/// The name a session of files is shown by: the main log's, and how many more.
pub fn title(order: &[(usize, Option<String>)], names: &[String]) -> String {
    match order.first() {
        Some((main, _)) if order.len() > 1 => {
            let more = order.len() - 1;
            let s = if more == 1 { "" } else { "s" };
            format!("{} + {more} subagent file{s}", names[*main])
        }
        Some((main, _)) => names[*main].clone(),
        None => String::new(),
    }
}

/// A subagent's id from its file's name: Claude Code's `agent-<id>.jsonl`, Gemini CLI's
/// `<UUID>.jsonl`.
fn agent_of(name: &str) -> Option<String> {
    claude_agent(name).or_else(|| {
        let stem = name.strip_suffix(".jsonl")?;
        uuid_shaped(stem).then(|| stem.to_owned())
    })
}

fn claude_agent(name: &str) -> Option<String> {
    let id = name.strip_prefix("agent-")?.strip_suffix(".jsonl")?;
    (!id.is_empty()).then(|| id.to_owned())
}

/// `8-4-4-4-12` hexadecimal digits.
fn uuid_shaped(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(names: &[&str], want: &[(&str, Option<&str>)]) {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        let order = order(&names);
        let got: Vec<(&str, Option<&str>)> = order
            .iter()
            .map(|(i, a)| (names[*i].as_str(), a.as_deref()))
            .collect();
        assert_eq!(got, want, "{names:?}");
    }

    #[test]
    fn the_main_log_first_then_the_subagents_by_name() {
        check(&["s1.jsonl"], &[("s1.jsonl", None)]);
        check(
            &["agent-b2.jsonl", "s1.jsonl", "agent-a1.jsonl"],
            &[
                ("s1.jsonl", None),
                ("agent-a1.jsonl", Some("a1")),
                ("agent-b2.jsonl", Some("b2")),
            ],
        );
        let sub = "3379175b-11ed-4f13-84e8-b95f2ccef876.jsonl";
        check(
            &[sub, "session-2026-12-02T14-11-6a32b09a.jsonl"],
            &[
                ("session-2026-12-02T14-11-6a32b09a.jsonl", None),
                (sub, Some("3379175b-11ed-4f13-84e8-b95f2ccef876")),
            ],
        );
        // A recording renamed: the UUID-named file is still the subagent's.
        check(
            &[sub, "gemini.subagent.session.jsonl"],
            &[
                ("gemini.subagent.session.jsonl", None),
                (sub, Some("3379175b-11ed-4f13-84e8-b95f2ccef876")),
            ],
        );
        // Two logs that are no one's subagents: one session all the same, no ids.
        check(
            &["b.jsonl", "a.jsonl"],
            &[("a.jsonl", None), ("b.jsonl", None)],
        );
        // Only subagents' files: the first is read first.
        check(
            &["agent-b.jsonl", "agent-a.jsonl"],
            &[("agent-a.jsonl", None), ("agent-b.jsonl", Some("b"))],
        );
    }

    #[test]
    fn parts_start_where_the_files_before_end() {
        let names: Vec<String> = ["agent-x.jsonl", "main.jsonl", "agent-y.jsonl"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let o = order(&names);
        assert_eq!(
            parts(&o, &[10.0, 100.0, 7.0]),
            vec![(100.0, Some("x".into())), (110.0, Some("y".into()))]
        );
        assert_eq!(title(&o, &names), "main.jsonl + 2 subagent files");
        assert_eq!(title(&o[..1], &names), "main.jsonl");
    }

    #[test]
    fn uuids_are_told_apart() {
        assert!(uuid_shaped("3379175b-11ed-4f13-84e8-b95f2ccef876"));
        assert!(!uuid_shaped("3379175b-11ed-4f13-84e8-b95f2ccef87"));
        assert!(!uuid_shaped("session-2026"));
        assert!(!uuid_shaped("zz79175b-11ed-4f13-84e8-b95f2ccef876"));
    }
}
