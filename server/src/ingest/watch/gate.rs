//! When a Gemini CLI subagent's recording may be imported: once its session holds the call
//! that started it.
//!
//! Gemini CLI writes the `invoke_agent` call into the main recording only when the call is
//! done (the record then names the subagent, `"agentId":"<its session id>"`), after the
//! subagent's whole recording. Stored as written, the subagent's lines would come before the
//! call they nest under, and classified then they could not name it. So the watch holds a
//! subagent's file back until the main recording's stored lines hold a call naming it — or
//! the main recording has not changed for [`IDLE`] (a run that stopped before writing the
//! call: the file is imported as `hiveterm classify` reads it, under the oldest call not yet
//! bound, if any). From then on its lines are stored as they come, each tagged with the
//! subagent's id and classified with its file's own context (`crate::fold`), so the session
//! gives the rows `hiveterm classify` gives reading the files one after the other.
//!
//! A held file is not looked at again while nothing that could let it through changes: at
//! each look, each main recording with held subagents is looked at once (where its stored
//! lines end, whether it is idle: its [`Gate`]); only when that changed are its held files'
//! ids looked up in what its stored lines name ([`Watcher::released`]). Thousands of held
//! files cost one store read and one `stat` per main recording a look.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use tokio::io::{AsyncReadExt, AsyncSeekExt};

use super::find::{Gate, Holds, Scan};
use super::{IDLE, Sub, Watcher};
use crate::ingest::mark;
use crate::store::StoreError;

/// Bytes read at a time.
const READ: usize = 1 << 20;

impl Watcher {
    /// Whether `agent`'s recording, a subagent of main recording `main`, must wait (nothing
    /// of it stored yet): the gate it waits at, or none (it may be imported).
    pub(super) async fn hold(
        &mut self,
        main: &Path,
        agent: &str,
    ) -> Result<Option<Gate>, StoreError> {
        let gate = self.gate(main).await?;
        Ok((!lets_through(&self.scans, main, agent, gate)).then_some(gate))
    }

    /// `path`, subagent `sub`'s recording, held back at `gate`.
    pub(super) fn held(&mut self, path: &Path, sub: &Sub, gate: Gate) {
        self.waiting.insert(path.to_owned(), sub.main.clone());
        // A main recording's held files are looked at again when its gate is not the one
        // first seen: one held later at a newer gate is looked at again once more.
        self.holds
            .entry(sub.main.clone())
            .or_insert_with(|| Holds {
                gate,
                files: HashMap::new(),
            })
            .files
            .insert(path.to_owned(), sub.agent.clone());
    }

    /// `path` no longer held (let through, or gone).
    pub(super) fn unhold(&mut self, path: &Path) {
        let Some(main) = self.waiting.remove(path) else {
            return;
        };
        if let Some(holds) = self.holds.get_mut(&main) {
            holds.files.remove(path);
            if holds.files.is_empty() {
                self.holds.remove(&main);
            }
        }
    }

    /// The held recordings their main recording now lets through, taken off hold and added
    /// to `found`: each main recording looked at once, its held files' ids only when its
    /// gate changed.
    pub(super) async fn released(
        &mut self,
        found: &mut Vec<(PathBuf, std::fs::Metadata)>,
    ) -> Result<(), StoreError> {
        let mains: Vec<PathBuf> = self.holds.keys().cloned().collect();
        let mut through = Vec::new();
        for main in mains {
            let gate = self.gate(&main).await?;
            let Some(holds) = self.holds.get_mut(&main) else {
                continue;
            };
            if holds.gate == gate {
                continue;
            }
            holds.gate = gate;
            for (path, agent) in &holds.files {
                if lets_through(&self.scans, &main, agent, gate) {
                    through.push(path.clone());
                }
            }
        }
        for path in through {
            self.unhold(&path);
            if let Ok(meta) = std::fs::symlink_metadata(&path)
                && meta.is_file()
            {
                found.push((path, meta));
            }
        }
        Ok(())
    }

    /// Main recording `main`'s gate now, the subagents its stored lines name read up to
    /// where they end.
    async fn gate(&mut self, main: &Path) -> Result<Gate, StoreError> {
        let key = self.main_key(main);
        let stored = self.store.followed(&key).await?.map(|(pos, _)| pos);
        if let Some(pos) = &stored {
            let scan = self.scans.entry(main.to_owned()).or_default();
            if scan.ino != pos.ino || scan.offset > pos.offset {
                *scan = Scan {
                    ino: pos.ino,
                    ..Scan::default()
                };
            }
            if scan.offset < pos.offset {
                read_agents(main, scan, pos.offset).await;
            }
        }
        let idle = match std::fs::metadata(main).and_then(|m| m.modified()) {
            Ok(mtime) => SystemTime::now()
                .duration_since(mtime)
                .is_ok_and(|age| age >= IDLE),
            Err(_) => true,
        };
        Ok(Gate {
            stored: stored.map(|p| (p.ino, p.offset)),
            idle,
        })
    }

    /// The key main log `main`'s position is stored under (`--follow`'s own path for the
    /// followed one).
    fn main_key(&self, main: &Path) -> String {
        match &self.fixed_main {
            Some((path, key)) if path == main => key.clone(),
            _ => main.to_string_lossy().into_owned(),
        }
    }
}

/// Whether main recording `main`'s gate `gate` lets `agent`'s recording through: the main
/// recording is idle, or its stored lines name it.
fn lets_through(scans: &HashMap<PathBuf, Scan>, main: &Path, agent: &str, gate: Gate) -> bool {
    let named = scans.get(main).is_some_and(|s| s.agents.contains(agent));
    gate.idle || (gate.stored.is_some() && named)
}

/// Reads `main` from `scan.offset` to `upto` (the end of a stored line), noting the
/// subagents named (from its start again if it was rewritten in place since: its mark,
/// `crate::ingest::mark`); a file that cannot be read is looked at again next time.
async fn read_agents(main: &Path, scan: &mut Scan, upto: u64) {
    let Ok(file) = std::fs::File::open(main) else {
        return;
    };
    if !mark::holds(&file, scan.offset, scan.mark) {
        *scan = Scan {
            ino: scan.ino,
            ..Scan::default()
        };
    }
    let Ok(again) = file.try_clone() else {
        return;
    };
    let mut f = tokio::fs::File::from_std(again);
    if f.seek(std::io::SeekFrom::Start(scan.offset)).await.is_err() {
        return;
    }
    let mut buf = Vec::new();
    let mut at = scan.offset;
    while at < upto {
        let want = READ.min((upto - at) as usize);
        let start = buf.len();
        buf.resize(start + want, 0);
        let Ok(n) = f.read(&mut buf[start..]).await else {
            return;
        };
        buf.truncate(start + n);
        if n == 0 {
            break;
        }
        at += n as u64;
        // Whole lines only: a name cut by the read is found with the rest of its line.
        let end = if at >= upto {
            buf.len()
        } else {
            buf.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)
        };
        agents_in(&buf[..end], &mut scan.agents);
        buf.drain(..end);
    }
    scan.offset = at - buf.len() as u64;
    scan.mark = mark::mark(&file, scan.offset).unwrap_or(0);
}

/// The ids after each `"agentId":"` in `bytes`.
fn agents_in(bytes: &[u8], agents: &mut HashSet<String>) {
    const KEY: &[u8] = b"\"agentId\":\"";
    for at in memchr::memmem::find_iter(bytes, KEY) {
        let rest = &bytes[at + KEY.len()..];
        let len = rest.iter().position(|&b| b == b'"').unwrap_or(rest.len());
        if let Ok(id) = std::str::from_utf8(&rest[..len])
            && !id.is_empty()
            && id.len() <= 256
        {
            agents.insert(id.to_owned());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subagents_a_recordings_calls_name_are_found() {
        let mut found = HashSet::new();
        agents_in(
            br#"{"toolCalls":[{"id":"a","name":"invoke_agent","agentId":"3379175b-11ed"},{"agentId":"x"}]}
{"text":"\"agentId\":\"not-a-key\""}
{"agentId":""}"#,
            &mut found,
        );
        let mut found: Vec<String> = found.into_iter().collect();
        found.sort();
        assert_eq!(found, ["3379175b-11ed", "x"]);
    }
}
