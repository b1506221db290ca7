//! One run read: a log (its subagents' files after it, as `summary` reads them) or a stored
//! session (as `share --export` reads it), into its summary and steps.

use std::path::PathBuf;

use classifier::compare::{Run, RunFold};
use classifier::{LogClassifier, Summary};

use crate::classify_cmd::{Failure, open, pump, pump_session};

/// One run read: its name, summary and steps; for a stored session, the session's seq of each
/// line of the log it was read as.
pub(crate) struct Side {
    pub(crate) name: String,
    pub(crate) summary: Summary,
    pub(crate) run: Run,
    seqs: Option<Vec<u64>>,
}

impl Side {
    /// The seq a user finds the step at: the log's line, or the session's seq.
    pub(crate) fn seq(&self, line: u64) -> u64 {
        self.seqs
            .as_ref()
            .and_then(|s| s.get((line as usize).wrapping_sub(1)).copied())
            .unwrap_or(line)
    }
}

pub(crate) fn read_path(path: &str, limit: usize) -> Result<Side, String> {
    let path = PathBuf::from(path);
    let (mut input, name) = open(Some(&path))?;
    let mut log = LogClassifier::with_limit(limit.max(1)).with_whole_summary();
    let mut fold = RunFold::new();
    pump_session(Some(&path), (&mut input, &name), &mut log, |env| {
        fold.add(&env);
        Ok(())
    })
    .map_err(|(failure, name)| match failure {
        Failure::Read(e) => format!("cannot read {name}: {e}"),
        Failure::Write(e) => format!("cannot write: {e}"),
    })?;
    Ok(Side {
        name,
        summary: log.summary().unwrap_or_default(),
        run: fold.finish(),
        seqs: None,
    })
}

pub(crate) fn from_db(db: &str, a: &str, b: &str) -> Result<(Side, Side), String> {
    crate::share_cmd::on_store(db, async |store| {
        Ok((read_session(store, a).await?, read_session(store, b).await?))
    })
}

/// A stored session, read as its log (its subagents' files after it, as `share --export`
/// reads it), its steps numbered by the session's seqs.
async fn read_session(store: &hiveterm::Store, id: &str) -> Result<Side, String> {
    if store
        .session_info(id)
        .await
        .map_err(|e| e.to_string())?
        .is_none()
    {
        return Err(format!("no session {id}"));
    }
    let mut main = Vec::new();
    let other = hiveterm::redacted::write_log(store, id, None, false, &mut main).await?;
    let mut seqs = vec![0; other.lines.len()];
    for (i, &line) in other.lines.iter().enumerate() {
        if let Some(s) = seqs.get_mut((line as usize).wrapping_sub(1)) {
            *s = i as u64 + 1;
        }
    }
    let mut log = LogClassifier::new().with_whole_summary();
    let mut fold = RunFold::new();
    let mut add = |env: classifier::TermEnvelope| {
        fold.add(&env);
        Ok(())
    };
    let failed = |_| format!("cannot read session {id}");
    pump(&mut main.as_slice(), &mut log, &mut add).map_err(failed)?;
    for (agent, bytes) in &other.files {
        log = log.next_file(Some(agent));
        pump(&mut bytes.as_slice(), &mut log, &mut add).map_err(failed)?;
    }
    Ok(Side {
        name: id.to_owned(),
        summary: log.summary().unwrap_or_default(),
        run: fold.finish(),
        seqs: Some(seqs),
    })
}
