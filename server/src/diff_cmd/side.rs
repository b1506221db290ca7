//! One run read from a log (its subagents' files after it, as `summary` reads them), or two
//! stored sessions (through [`hiveterm::compare::read_session`], as the compare page reads
//! them).

use std::path::PathBuf;

use classifier::LogClassifier;
use classifier::compare::RunFold;
use hiveterm::compare::{Side, read_session};

use crate::classify_cmd::{Failure, open, pump_session};

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
    Ok(Side::of_log(
        name,
        log.summary().unwrap_or_default(),
        fold.finish(),
    ))
}

pub(crate) fn from_db(db: &str, a: &str, b: &str) -> Result<(Side, Side), String> {
    crate::share_cmd::on_store(db, async |store| {
        Ok((read_session(store, a).await?, read_session(store, b).await?))
    })
}
