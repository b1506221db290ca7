//! The SQLite writer: one thread owns the write connection. It takes every queued command
//! at once and commits them in one transaction (group commit); only after the commit does
//! it install each touched session's new fold in its hub, publish the frames, and answer
//! the callers. So an acknowledged event is durable, and nothing is sent that is not stored.

use std::collections::HashMap;
use std::sync::Arc;

use rusqlite::Connection;
use tokio::sync::{mpsc, oneshot};

use crate::hub::{Hubs, SessionInfo};
use crate::store::error::StoreError;
use crate::store::note::{Note, NoteChange, NoteWrite};
use crate::store::request::{Append, Appended};
use crate::store::share::{ShareWrite, ShareWritten};

use super::commands::{Group, Pending};
use super::shared::Shared;

/// Most commands committed in one transaction.
const GROUP_MAX: usize = 256;
/// Lines after which no more commands join a transaction (`POST` stores at most
/// `crate::post::APPEND_LINES` per append).
const TURN_LINES: usize = 8192;

/// A command to the writer; each answers on its channel once committed (or failed).
pub(super) enum WriteCmd {
    Open {
        id: String,
        title: String,
        source: String,
        reply: oneshot::Sender<Result<bool, StoreError>>,
    },
    Append(Append, oneshot::Sender<Result<Appended, StoreError>>),
    End {
        id: String,
        reply: oneshot::Sender<Result<SessionInfo, StoreError>>,
    },
    /// A share link made or revoked (`super::shares`).
    Share(
        ShareWrite,
        oneshot::Sender<Result<ShareWritten, StoreError>>,
    ),
    /// A note made, changed or deleted (`super::notes`); its session's live pages are told
    /// after the commit.
    Note(NoteWrite, oneshot::Sender<Result<Option<Note>, StoreError>>),
    Shutdown,
}

impl WriteCmd {
    /// The session it writes to.
    fn session(&self) -> Option<&str> {
        match self {
            WriteCmd::Open { id, .. } | WriteCmd::End { id, .. } => Some(id),
            WriteCmd::Append(a, _) => Some(&a.session),
            WriteCmd::Share(..) | WriteCmd::Note(..) | WriteCmd::Shutdown => None,
        }
    }

    /// How many lines it stores.
    fn lines(&self) -> usize {
        match self {
            WriteCmd::Append(a, _) => a.lines.len(),
            _ => 0,
        }
    }
}

/// The writer thread's state.
pub(super) struct Writer {
    pub(super) conn: Connection,
    pub(super) shared: Arc<Shared>,
}

/// A command done inside the transaction, waiting for the commit to be answered.
enum Done {
    Open(
        oneshot::Sender<Result<bool, StoreError>>,
        Result<bool, StoreError>,
    ),
    Append(
        oneshot::Sender<Result<Appended, StoreError>>,
        Result<Appended, StoreError>,
    ),
    End(
        oneshot::Sender<Result<SessionInfo, StoreError>>,
        Result<SessionInfo, StoreError>,
    ),
    Share(
        oneshot::Sender<Result<ShareWritten, StoreError>>,
        Result<ShareWritten, StoreError>,
    ),
    /// A note's write, its session, and whether it deleted the note.
    Note(
        oneshot::Sender<Result<Option<Note>, StoreError>>,
        Result<Option<Note>, StoreError>,
        String,
        bool,
    ),
}

impl Done {
    /// The error that makes the whole group roll back: any but a refusal (which wrote nothing).
    fn fatal(&self) -> Option<String> {
        let err = match self {
            Done::Open(_, Err(e)) => e,
            Done::Append(_, Err(e)) => e,
            Done::End(_, Err(e)) => e,
            Done::Share(_, Err(e)) => e,
            Done::Note(_, Err(e), ..) => e,
            _ => return None,
        };
        (!err.is_refusal()).then(|| err.to_string())
    }

    fn answer(self, failed: Option<&str>) {
        let fail = |m: &str| StoreError::Corrupt(format!("commit failed: {m}"));
        match (self, failed) {
            (Done::Open(tx, r), None) => drop(tx.send(r)),
            (Done::Open(tx, r), Some(m)) => drop(tx.send(r.and(Err(fail(m))))),
            (Done::Append(tx, r), None) => drop(tx.send(r)),
            (Done::Append(tx, r), Some(m)) => drop(tx.send(r.and(Err(fail(m))))),
            (Done::End(tx, r), None) => drop(tx.send(r)),
            (Done::End(tx, r), Some(m)) => drop(tx.send(r.and(Err(fail(m))))),
            (Done::Share(tx, r), None) => drop(tx.send(r)),
            (Done::Share(tx, r), Some(m)) => drop(tx.send(r.and(Err(fail(m))))),
            (Done::Note(tx, r, ..), None) => drop(tx.send(r)),
            (Done::Note(tx, r, ..), Some(m)) => drop(tx.send(r.and(Err(fail(m))))),
        }
    }
}

fn fail_cmd(cmd: WriteCmd, msg: &str) {
    let err = || StoreError::Corrupt(format!("write failed: {msg}"));
    match cmd {
        WriteCmd::Open { reply, .. } => drop(reply.send(Err(err()))),
        WriteCmd::Append(_, reply) => drop(reply.send(Err(err()))),
        WriteCmd::End { reply, .. } => drop(reply.send(Err(err()))),
        WriteCmd::Share(_, reply) => drop(reply.send(Err(err()))),
        WriteCmd::Note(_, reply) => drop(reply.send(Err(err()))),
        WriteCmd::Shutdown => {}
    }
}

impl Writer {
    /// Writes groups of commands until [`WriteCmd::Shutdown`] or every sender is gone.
    pub(super) fn run(mut self, mut rx: mpsc::Receiver<WriteCmd>) {
        while let Some(first) = rx.blocking_recv() {
            let mut lines = first.lines();
            let mut group = vec![first];
            // One turn is bounded in commands and in lines, so a big append does not make
            // the appends queued behind it wait for many more.
            while group.len() < GROUP_MAX && lines < TURN_LINES {
                match rx.try_recv() {
                    Ok(cmd) => {
                        lines += cmd.lines();
                        group.push(cmd);
                    }
                    Err(_) => break,
                }
            }
            let shutdown = group.iter().any(|c| matches!(c, WriteCmd::Shutdown));
            self.write_group(group);
            if shutdown {
                break;
            }
        }
        if let Err(e) = self.conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)") {
            tracing::warn!("final WAL checkpoint: {e}");
        }
    }

    fn write_group(&mut self, group: Vec<WriteCmd>) {
        let mut pending: HashMap<String, Pending> = HashMap::new();
        let mut done: Vec<Done> = Vec::with_capacity(group.len());
        // The transaction, and where its search rows start (their FTS entries are added at
        // its end).
        let begun = self
            .conn
            .transaction()
            .map_err(|e| e.to_string())
            .and_then(|tx| {
                let from = super::search::last_id(&tx).map_err(|e| e.to_string())?;
                Ok((tx, from))
            });
        let (tx, search_from) = match begun {
            Ok(begun) => begun,
            Err(msg) => {
                for cmd in group {
                    fail_cmd(cmd, &msg);
                }
                return;
            }
        };
        let mut group_tx = Group {
            shared: &self.shared,
            tx: &tx,
            pending: &mut pending,
        };
        let mut sql_error: Option<String> = None;
        for cmd in group {
            if let Some(msg) = &sql_error {
                fail_cmd(cmd, msg);
                continue;
            }
            // Each command in its own savepoint, with its session's state before it: a
            // command that fails is undone alone, never another session's events.
            let session = cmd.session().map(str::to_owned);
            let before = session
                .as_ref()
                .and_then(|id| group_tx.pending.get(id))
                .map(Pending::snapshot);
            if let Err(e) = tx.execute_batch("SAVEPOINT cmd") {
                sql_error = Some(e.to_string());
                fail_cmd(cmd, &e.to_string());
                continue;
            }
            let item = match cmd {
                WriteCmd::Shutdown => continue,
                WriteCmd::Open {
                    id,
                    title,
                    source,
                    reply,
                } => Done::Open(reply, group_tx.open(&id, &title, &source)),
                WriteCmd::Append(a, reply) => Done::Append(reply, group_tx.append(a)),
                WriteCmd::End { id, reply } => Done::End(reply, group_tx.end(&id)),
                WriteCmd::Share(write, reply) => {
                    Done::Share(reply, super::shares::write(&tx, write))
                }
                WriteCmd::Note(write, reply) => {
                    let session = write.session().to_owned();
                    let deleted = matches!(write, NoteWrite::Delete { .. });
                    Done::Note(reply, super::notes::write(&tx, write), session, deleted)
                }
            };
            // A refused command (no such session, ended) wrote nothing; any other error
            // may have written part of a command, so that command is rolled back (the
            // whole group only if even that fails).
            let undone = match item.fatal() {
                None => tx.execute_batch("RELEASE cmd"),
                Some(msg) => {
                    tracing::error!("write failed, that command rolled back: {msg}");
                    if let Some(id) = session {
                        match (before, group_tx.pending.get_mut(&id)) {
                            (Some(before), Some(p)) => p.restore(before),
                            _ => drop(group_tx.pending.remove(&id)),
                        }
                    }
                    tx.execute_batch("ROLLBACK TO cmd; RELEASE cmd")
                }
            };
            if let Err(e) = undone {
                sql_error = Some(e.to_string());
            }
            done.push(item);
        }
        if sql_error.is_none()
            && let Err(e) = super::search::sync(&tx, search_from)
        {
            sql_error = Some(e.to_string());
        }
        let failed = match sql_error {
            Some(msg) => {
                let _ = tx.rollback();
                Some(msg)
            }
            None => tx.commit().err().map(|e| e.to_string()),
        };
        if let Some(msg) = &failed {
            tracing::error!("write failed, rolled back: {msg}");
        } else {
            publish(&self.shared.hubs, pending);
            for d in &done {
                if let Done::Note(_, Ok(Some(note)), session, deleted) = d
                    && let Some(hub) = self.shared.hubs.get(session)
                {
                    hub.notes().changed(if *deleted {
                        NoteChange::Deleted(note.id)
                    } else {
                        NoteChange::Stored(Arc::new(note.clone()))
                    });
                }
            }
        }
        for d in done {
            d.answer(failed.as_deref());
        }
    }
}

/// After a commit: the created sessions' hubs are registered, and every touched session's
/// new state is installed in its hub and its frames broadcast.
fn publish(hubs: &Hubs, pending: HashMap<String, Pending>) {
    for (id, p) in pending {
        let hub = if p.created {
            hubs.insert_created(id, p.hub)
        } else {
            p.hub
        };
        hubs.publish(&hub, p.info, p.fold, p.preview_changed, Some(p.frames));
    }
}
