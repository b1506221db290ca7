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

use std::collections::HashSet;
use std::path::Path;
use std::time::SystemTime;

use tokio::io::{AsyncReadExt, AsyncSeekExt};

use super::find::Scan;
use super::{IDLE, Watcher};
use crate::store::StoreError;

/// Bytes read at a time.
const READ: usize = 1 << 20;

impl Watcher {
    /// Whether `agent`'s recording, a subagent of main recording `main`, may be imported
    /// (nothing of it stored yet).
    pub(super) async fn gate_open(&mut self, main: &Path, agent: &str) -> Result<bool, StoreError> {
        let key = self.main_key(main);
        if let Some((pos, _)) = self.store.followed(&key).await? {
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
            if scan.agents.contains(agent) {
                return Ok(true);
            }
        }
        let idle = match std::fs::metadata(main).and_then(|m| m.modified()) {
            Ok(mtime) => SystemTime::now()
                .duration_since(mtime)
                .is_ok_and(|age| age >= IDLE),
            Err(_) => true,
        };
        Ok(idle)
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

/// Reads `main` from `scan.offset` to `upto` (the end of a stored line), noting the
/// subagents named; a file that cannot be read is looked at again next time.
async fn read_agents(main: &Path, scan: &mut Scan, upto: u64) {
    let Ok(mut f) = tokio::fs::File::open(main).await else {
        return;
    };
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
