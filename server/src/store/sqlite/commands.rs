//! The statements of each writer command (open, end, append) inside a group's transaction,
//! and the pending state of the sessions a group touches: their fold moves on here and is
//! installed in their hubs only after the commit (`super::writer`).

use std::collections::HashMap;
use std::sync::Arc;

use rusqlite::{Connection, params};

use crate::fold::{LivePreview, SessionFold};
use crate::hub::{Hub, SessionInfo, push_json_frame};
use crate::store::error::StoreError;
use crate::store::request::{Append, Appended, IdempotencyKey};

use super::schema::{insert_checkpoint, insert_rendered, update_index};
use super::shared::Shared;

/// A session's state while a group is being written; installed in its hub after commit.
pub(super) struct Pending {
    pub(super) hub: Arc<Hub>,
    pub(super) created: bool,
    pub(super) info: SessionInfo,
    pub(super) fold: SessionFold,
    /// Whether this group changed the partial message (then a `preview` frame is published).
    pub(super) preview_changed: bool,
    pub(super) frames: Vec<u8>,
}

/// A session's pending state before a command, to go back to if the command fails (its
/// frames are only ever appended to, so their length is enough).
pub(super) struct Snapshot {
    info: SessionInfo,
    fold: SessionFold,
    preview_changed: bool,
    frames: usize,
}

impl Pending {
    pub(super) fn snapshot(&self) -> Snapshot {
        Snapshot {
            info: self.info.clone(),
            fold: self.fold.clone(),
            preview_changed: self.preview_changed,
            frames: self.frames.len(),
        }
    }

    pub(super) fn restore(&mut self, s: Snapshot) {
        self.info = s.info;
        self.fold = s.fold;
        self.preview_changed = s.preview_changed;
        self.frames.truncate(s.frames);
    }
}

/// One group's transaction and the pending state of the sessions it touches.
pub(super) struct Group<'a> {
    pub(super) shared: &'a Shared,
    pub(super) tx: &'a Connection,
    pub(super) pending: &'a mut HashMap<String, Pending>,
}

impl Group<'_> {
    /// Creates a session, or marks an existing one live again; answers whether it was
    /// created.
    pub(super) fn open(&mut self, id: &str, title: &str, source: &str) -> Result<bool, StoreError> {
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
    pub(super) fn end(&mut self, id: &str) -> Result<SessionInfo, StoreError> {
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
            let now = crate::clock::now();
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
    pub(super) fn append(&mut self, a: Append) -> Result<Appended, StoreError> {
        let every = self.shared.checkpoint_every;
        let tx = self.tx;
        if let Some(key) = &a.key {
            check_key(tx, &a.session, key)?;
        }
        let create = a.create.as_ref().map(|(t, s)| (t.as_str(), s.as_str()));
        let (p, created) = self.pending_for(&a.session, create)?;
        if p.info.ended.is_some() {
            return Err(StoreError::Ended(a.session));
        }
        let index_before = crate::index::Index::of(&p.fold);
        let mut insert = tx.prepare_cached(
            "INSERT INTO events(session, seq, ts, received, raw, cut_len, cut_limit, source)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )?;
        let mut seqs = Vec::with_capacity(a.lines.len());
        let raws = a.lines.into_iter().map(|r| (r.bytes, r.cut, r.received));
        for (line, event, received, ts) in p.fold.read(p.info.last_seq + 1, raws) {
            let (seq, cut) = (line.number, line.oversize.map(|o| (o.len, o.limit)));
            let step = p
                .fold
                .step(&event, seq, ts, line.bytes.len(), a.source.as_deref());
            p.preview_changed |= step.preview_changed;
            insert.execute(params![
                a.session,
                seq as i64,
                ts,
                received,
                line.bytes,
                cut.map(|c| c.0 as i64),
                cut.map(|c| c.1 as i64),
                a.source.as_deref(),
            ])?;
            if !step.env.msgs.is_empty() {
                let json = serde_json::to_string(&step.env)?;
                insert_rendered(tx, &a.session, seq, &step.env, &json)?;
                push_json_frame(&mut p.frames, seq, &json);
            }
            p.info.last_seq = seq;
            if let Some(cp) = p.fold.checkpoint_due(seq, every) {
                insert_checkpoint(tx, &a.session, seq, &cp)?;
            }
            seqs.push(seq);
        }
        tx.prepare_cached("UPDATE sessions SET last_seq = ?2 WHERE id = ?1")?
            .execute(params![a.session, p.info.last_seq as i64])?;
        // The index's columns, when the events changed them (`crate::index`).
        let (title, index) = crate::index::row_of(&a.session, &p.info.given_title, &p.fold);
        if index != index_before || title != p.info.title {
            update_index(tx, &a.session, &title, &index)?;
            p.info.title = title;
        }
        if let Some(f) = &a.follow {
            tx.prepare_cached(
                "INSERT OR REPLACE INTO follows(path, session, dev, ino, offset, within, mark)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![
                f.path,
                a.session,
                f.dev as i64,
                f.ino as i64,
                f.offset as i64,
                f.within as i64,
                f.mark as i64
            ])?;
        }
        if let (Some(key), Some(&first)) = (&a.key, seqs.first()) {
            tx.prepare_cached(
                "INSERT INTO idempotency(session, key, first_seq, last_seq, lines, body_sha256)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (session, key) DO UPDATE SET last_seq = excluded.last_seq,
                 lines = idempotency.lines + excluded.lines",
            )?
            .execute(params![
                a.session,
                key.key,
                first as i64,
                p.info.last_seq as i64,
                seqs.len() as i64,
                &key.body_sha256[..]
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
            started: crate::clock::now(),
            ended: None,
            live: true,
            last_seq: 0,
            given_title: title.to_owned(),
        };
        self.tx.execute(
            "INSERT INTO sessions(id, title, source, started, ended, last_seq, given_title)
             VALUES (?1, ?2, ?3, ?4, NULL, 0, ?2)",
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

/// A keyed append's checks in its transaction (see [`IdempotencyKey`]), as PostgreSQL's
/// (`store/postgres/keys.rs`): its key holds the lines its request takes it to, and its
/// first lines follow the key they must. Within one server `crate::post`'s turns already
/// make them hold; they are the store's promise on both backends.
fn check_key(tx: &Connection, id: &str, key: &IdempotencyKey) -> Result<(), StoreError> {
    let have = super::reader::keyed(tx, id, &key.key)?.map_or(0, |k| k.lines);
    if have != key.stored {
        return Err(StoreError::Raced(format!(
            "another request stored lines under this Idempotency-Key meanwhile ({have}, not \
             {}); nothing of this one was stored: send it again",
            key.stored
        )));
    }
    if let Some(after) = key.after.as_deref().filter(|_| key.stored == 0) {
        let newest = super::reader::last_key(tx, id)?.map(|(k, _)| k);
        if newest.as_deref().unwrap_or("") != after {
            return Err(StoreError::NotAfter(format!(
                "the session's newest Idempotency-Key is {newest:?}, not {after:?}; nothing \
                 was stored"
            )));
        }
    }
    Ok(())
}
