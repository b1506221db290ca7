//! The SQLite writer: one thread owns the write connection. It takes every queued command
//! at once and commits them in one transaction (group commit); only after the commit does
//! it install each touched session's new fold in its hub, publish the frames, and answer
//! the callers. So an acknowledged event is durable, and nothing is sent that is not stored.

use std::collections::HashMap;
use std::sync::Arc;

use rusqlite::{Connection, params};
use tokio::sync::{mpsc, oneshot};

use classifier::event::line_event;

use crate::fold::{LivePreview, SessionFold, event_time, stored_line};
use crate::hub::{Hub, Hubs, SessionInfo, push_json_frame};
use crate::store::{Append, Appended, StoreError};

use super::Shared;
use super::schema::{insert_checkpoint, insert_rendered};

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
    Shutdown,
}

impl WriteCmd {
    /// The session it writes to.
    fn session(&self) -> Option<&str> {
        match self {
            WriteCmd::Open { id, .. } | WriteCmd::End { id, .. } => Some(id),
            WriteCmd::Append(a, _) => Some(&a.session),
            WriteCmd::Shutdown => None,
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

/// A session's state while a group is being written; installed in its hub after commit.
struct Pending {
    hub: Arc<Hub>,
    created: bool,
    info: SessionInfo,
    fold: SessionFold,
    /// Whether this group changed the partial message (then a `preview` frame is published).
    preview_changed: bool,
    frames: Vec<u8>,
}

/// A session's pending state before a command, to go back to if the command fails (its
/// frames are only ever appended to, so their length is enough).
struct Snapshot {
    info: SessionInfo,
    fold: SessionFold,
    preview_changed: bool,
    frames: usize,
}

impl Pending {
    fn snapshot(&self) -> Snapshot {
        Snapshot {
            info: self.info.clone(),
            fold: self.fold.clone(),
            preview_changed: self.preview_changed,
            frames: self.frames.len(),
        }
    }

    fn restore(&mut self, s: Snapshot) {
        self.info = s.info;
        self.fold = s.fold;
        self.preview_changed = s.preview_changed;
        self.frames.truncate(s.frames);
    }
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
}

impl Done {
    /// The error that makes the whole group roll back: any but a refusal (which wrote nothing).
    fn fatal(&self) -> Option<String> {
        let err = match self {
            Done::Open(_, Err(e)) => e,
            Done::Append(_, Err(e)) => e,
            Done::End(_, Err(e)) => e,
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
        }
    }
}

fn fail_cmd(cmd: WriteCmd, msg: &str) {
    let err = || StoreError::Corrupt(format!("write failed: {msg}"));
    match cmd {
        WriteCmd::Open { reply, .. } => drop(reply.send(Err(err()))),
        WriteCmd::Append(_, reply) => drop(reply.send(Err(err()))),
        WriteCmd::End { reply, .. } => drop(reply.send(Err(err()))),
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
        let tx = match self.conn.transaction() {
            Ok(tx) => tx,
            Err(e) => {
                let msg = e.to_string();
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
        }
        for d in done {
            d.answer(failed.as_deref());
        }
    }
}

/// After a commit: the created sessions' hubs are registered, and every touched session's
/// new state is installed in its hub and its frames broadcast.
fn publish(hubs: &Hubs, pending: HashMap<String, Pending>) {
    let mut hubs = hubs.lock();
    for (id, p) in pending {
        if p.created {
            hubs.insert(id, p.hub.clone());
        }
        p.hub
            .publish(p.info, p.fold, p.preview_changed, Some(p.frames));
    }
}

/// One group's transaction and the pending state of the sessions it touches.
struct Group<'a> {
    shared: &'a Shared,
    tx: &'a Connection,
    pending: &'a mut HashMap<String, Pending>,
}

impl Group<'_> {
    /// Creates a session, or marks an existing one live again; answers whether it was
    /// created.
    fn open(&mut self, id: &str, title: &str, source: &str) -> Result<bool, StoreError> {
        let tx = self.tx;
        let (p, created) = self.pending_for(id, Some((title, source)))?;
        if !created && p.info.ended.is_some() {
            p.info.ended = None;
            p.info.live = true;
            tx.execute(
                "UPDATE sessions SET ended = NULL WHERE id = ?1",
                params![id],
            )?;
        }
        Ok(created)
    }

    /// Marks a session ended (idempotent).
    fn end(&mut self, id: &str) -> Result<SessionInfo, StoreError> {
        let tx = self.tx;
        let (p, _) = self.pending_for(id, None)?;
        if p.info.ended.is_none() {
            // A message cut off by the end is no longer being written.
            if !p.fold.preview.preview.is_empty() {
                p.fold.preview = LivePreview {
                    preview: classifier::Preview::new(),
                    seq: p.info.last_seq,
                };
                p.preview_changed = true;
            }
            let now = crate::now();
            p.info.ended = Some(now);
            p.info.live = false;
            tx.execute(
                "UPDATE sessions SET ended = ?2 WHERE id = ?1",
                params![id, now],
            )?;
        }
        Ok(p.info.clone())
    }

    /// Stores lines: each through the session's fold, then the raw event, its envelope (if
    /// it has rows) and, every `checkpoint_every` events, the fold.
    fn append(&mut self, a: Append) -> Result<Appended, StoreError> {
        let every = self.shared.checkpoint_every;
        let tx = self.tx;
        let create = a.create.as_ref().map(|(t, s)| (t.as_str(), s.as_str()));
        let (p, created) = self.pending_for(&a.session, create)?;
        if p.info.ended.is_some() {
            return Err(StoreError::Ended(a.session));
        }
        let mut insert = tx.prepare_cached(
            "INSERT INTO events(session, seq, ts, received, raw, cut_len, cut_limit)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        let mut seqs = Vec::with_capacity(a.lines.len());
        for raw in a.lines {
            let seq = p.info.last_seq + 1;
            let line = stored_line(seq, raw.bytes, raw.cut);
            let event = line_event(&line);
            let ts = event_time(&event, raw.received);
            let step = p.fold.step(&event, seq, ts);
            p.preview_changed |= step.preview_changed;
            insert.execute(params![
                a.session,
                seq as i64,
                ts,
                raw.received,
                line.bytes,
                raw.cut.map(|c| c.0 as i64),
                raw.cut.map(|c| c.1 as i64),
            ])?;
            if !step.env.msgs.is_empty() {
                let json = serde_json::to_string(&step.env)?;
                insert_rendered(tx, &a.session, seq, &json)?;
                push_json_frame(&mut p.frames, seq, &json);
            }
            p.info.last_seq = seq;
            if seq % every == 0 {
                insert_checkpoint(tx, &a.session, seq, &p.fold.checkpoint())?;
            }
            seqs.push(seq);
        }
        tx.prepare_cached("UPDATE sessions SET last_seq = ?2 WHERE id = ?1")?
            .execute(params![a.session, p.info.last_seq as i64])?;
        if let Some(f) = &a.follow {
            tx.prepare_cached(
                "INSERT OR REPLACE INTO follows(path, session, dev, ino, offset)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                f.path,
                a.session,
                f.dev as i64,
                f.ino as i64,
                f.offset as i64
            ])?;
        }
        Ok(Appended { created, seqs })
    }

    /// The pending state of session `id` in this group, from its hub (loaded if need be), or
    /// a new session when it does not exist and `create` is given. Also answers whether it
    /// was created by this call.
    fn pending_for(
        &mut self,
        id: &str,
        create: Option<(&str, &str)>,
    ) -> Result<(&mut Pending, bool), StoreError> {
        let mut created = false;
        if !self.pending.contains_key(id) {
            let p = match self.shared.hub(id)? {
                Some(hub) => {
                    let inner = hub.lock();
                    let (info, fold) = (inner.info.clone(), inner.fold.clone());
                    drop(inner);
                    Pending {
                        hub,
                        created: false,
                        info,
                        fold,
                        preview_changed: false,
                        frames: Vec::new(),
                    }
                }
                None => {
                    let Some((title, source)) = create else {
                        return Err(StoreError::NoSession(id.to_owned()));
                    };
                    created = true;
                    self.create(id, title, source)?
                }
            };
            self.pending.insert(id.to_owned(), p);
        }
        let p = self.pending.get_mut(id).expect("inserted above");
        Ok((p, created))
    }

    fn create(&self, id: &str, title: &str, source: &str) -> Result<Pending, StoreError> {
        let info = SessionInfo {
            id: id.to_owned(),
            title: title.to_owned(),
            source: source.to_owned(),
            started: crate::now(),
            ended: None,
            live: true,
            last_seq: 0,
        };
        self.tx.execute(
            "INSERT INTO sessions(id, title, source, started, ended, last_seq)
             VALUES (?1, ?2, ?3, ?4, NULL, 0)",
            params![info.id, info.title, info.source, info.started],
        )?;
        tracing::info!("session {id} created ({source}): {title:?}");
        Ok(Pending {
            hub: Arc::new(Hub::new(info.clone(), SessionFold::default())),
            created: true,
            info,
            fold: SessionFold::default(),
            preview_changed: false,
            frames: Vec::new(),
        })
    }
}
