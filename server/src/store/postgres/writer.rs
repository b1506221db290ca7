//! Writing PostgreSQL: open, append and end, each one transaction that first takes the
//! session's row lock, so seqs are assigned in the database, gapless across replicas. A
//! write is answered only after its commit; the commit also announces it on [`CHANNEL`]
//! (`pg_notify` is delivered at commit) so other replicas bring their hubs up to it.

use deadpool_postgres::GenericClient;
use tokio::sync::oneshot;

use super::catchup::{CaughtUp, catch_up, refresh};
use super::{CHANNEL, Postgres, pg, reader};
use classifier::event::line_event;

use crate::fold::{event_time, stored_line};
use crate::hub::{MAX_INLINE_BATCH, SessionInfo, push_json_frame};
use crate::store::{Append, Appended, StoreError};

/// The `events` rows of an append, column by column (for one `INSERT … UNNEST`).
struct EventRows {
    seq: Vec<i64>,
    ts: Vec<f64>,
    received: Vec<f64>,
    raw: Vec<Vec<u8>>,
    cut_len: Vec<Option<i64>>,
    cut_limit: Vec<Option<i64>>,
}

impl EventRows {
    fn with_capacity(n: usize) -> EventRows {
        EventRows {
            seq: Vec::with_capacity(n),
            ts: Vec::with_capacity(n),
            received: Vec::with_capacity(n),
            raw: Vec::with_capacity(n),
            cut_len: Vec::with_capacity(n),
            cut_limit: Vec::with_capacity(n),
        }
    }

    fn push(&mut self, seq: u64, ts: f64, received: f64, raw: Vec<u8>, cut: Option<(u64, u64)>) {
        self.seq.push(seq as i64);
        self.ts.push(ts);
        self.received.push(received);
        self.raw.push(raw);
        self.cut_len.push(cut.map(|c| c.0 as i64));
        self.cut_limit.push(cut.map(|c| c.1 as i64));
    }
}

/// Creates session `id` if it does not exist; answers whether it was created.
async fn insert_session(
    client: &impl GenericClient,
    id: &str,
    title: &str,
    source: &str,
) -> Result<bool, StoreError> {
    let n = client
        .execute(
            "INSERT INTO sessions(id, title, source, started, ended, last_seq)
             VALUES ($1, $2, $3, $4, NULL, 0) ON CONFLICT (id) DO NOTHING",
            &[&id, &title, &source, &crate::now()],
        )
        .await
        .map_err(pg)?;
    if n == 1 {
        tracing::info!("session {id} created ({source}): {title}");
    }
    Ok(n == 1)
}

/// The session's row, locked until the transaction ends.
async fn lock_session(
    client: &impl GenericClient,
    id: &str,
) -> Result<Option<SessionInfo>, StoreError> {
    let row = client
        .query_opt(
            &format!(
                "SELECT {} FROM sessions WHERE id = $1 FOR UPDATE",
                reader::SESSION_COLUMNS
            ),
            &[&id],
        )
        .await
        .map_err(pg)?;
    Ok(row.as_ref().map(reader::session_row))
}

/// Announces a commit to every replica: `kind` is `events` (events up to `seq` stored) or
/// `row` (the session row changed).
async fn notify(
    client: &impl GenericClient,
    kind: &str,
    id: &str,
    seq: u64,
) -> Result<(), StoreError> {
    let payload = format!("{kind} {seq} {id}");
    client
        .execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &payload])
        .await
        .map_err(pg)?;
    Ok(())
}

pub(super) async fn open_session(
    db: &Postgres,
    id: &str,
    title: &str,
    source: &str,
) -> Result<bool, StoreError> {
    let mut client = db.client().await?;
    let tx = client.transaction().await.map_err(pg)?;
    let created = insert_session(&tx, id, title, source).await?;
    if !created {
        tx.execute(
            "UPDATE sessions SET ended = NULL WHERE id = $1 AND ended IS NOT NULL",
            &[&id],
        )
        .await
        .map_err(pg)?;
    }
    notify(&tx, "row", id, 0).await?;
    tx.commit().await.map_err(pg)?;
    refresh(db, id).await?;
    Ok(created)
}

pub(super) async fn end_session(db: &Postgres, id: &str) -> Result<SessionInfo, StoreError> {
    let mut client = db.client().await?;
    let tx = client.transaction().await.map_err(pg)?;
    let Some(mut info) = lock_session(&tx, id).await? else {
        tx.rollback().await.map_err(pg)?;
        return Err(StoreError::NoSession(id.to_owned()));
    };
    if info.ended.is_none() {
        let now = crate::now();
        tx.execute("UPDATE sessions SET ended = $2 WHERE id = $1", &[&id, &now])
            .await
            .map_err(pg)?;
        notify(&tx, "row", id, info.last_seq).await?;
        (info.ended, info.live) = (Some(now), false);
    }
    tx.commit().await.map_err(pg)?;
    refresh(db, id).await?;
    Ok(info)
}

/// Appends queued for a session, each with the channel its answer goes to.
pub(super) type Queued = Vec<(Append, oneshot::Sender<Result<Appended, StoreError>>)>;

/// Stores lines: each through the session's fold, then the raw event, its envelope (if it
/// has rows) and, every `checkpoint_every` events, the fold. Publishes after the commit; a
/// refused or failed append is rolled back.
///
/// Appends to one session that arrive while another is being written wait in the session's
/// queue; whoever takes the session's write lock next writes all of them in one transaction
/// (group commit: one row lock, one commit, one fsync for many POSTs).
pub(super) async fn append(db: &Postgres, a: Append) -> Result<Appended, StoreError> {
    let slot = db.shared.slot_of(&a.session);
    let (reply, answer) = oneshot::channel();
    slot.queue
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((a, reply));
    {
        let _guard = slot.lock.lock().await;
        let batch = std::mem::take(&mut *slot.queue.lock().unwrap_or_else(|e| e.into_inner()));
        if !batch.is_empty() {
            write_batch(db, batch).await;
        }
    }
    answer.await.map_err(|_| StoreError::Closed)?
}

/// Writes queued appends of one session in one transaction and answers each (all with the
/// error when it fails).
async fn write_batch(db: &Postgres, batch: Queued) {
    let (appends, replies): (Vec<Append>, Vec<_>) = batch.into_iter().unzip();
    match commit_batch(db, appends).await {
        Ok(answers) => {
            for (reply, appended) in replies.into_iter().zip(answers) {
                let _ = reply.send(Ok(appended));
            }
        }
        Err(e) => {
            for reply in replies {
                // The same answer for each (a refusal stays a refusal: 404, 409).
                let err = match &e {
                    StoreError::NoSession(id) => StoreError::NoSession(id.clone()),
                    StoreError::Ended(id) => StoreError::Ended(id.clone()),
                    other => StoreError::Corrupt(other.to_string()),
                };
                let _ = reply.send(Err(err));
            }
        }
    }
}

async fn commit_batch(db: &Postgres, appends: Vec<Append>) -> Result<Vec<Appended>, StoreError> {
    let mut client = db.client().await?;
    let tx = client.transaction().await.map_err(pg)?;
    match write_appends(db, &tx, appends).await {
        Ok((info, caught, answers)) => {
            tx.commit().await.map_err(pg)?;
            caught
                .hub
                .publish(info, caught.fold, caught.preview_changed, caught.frames);
            Ok(answers)
        }
        Err(e) => {
            let _ = tx.rollback().await;
            Err(e)
        }
    }
}

/// The statements of a batch of appends to one session, inside its transaction: the
/// session's row (after them), its hub's next state, and each append's answer.
async fn write_appends(
    db: &Postgres,
    tx: &impl GenericClient,
    appends: Vec<Append>,
) -> Result<(SessionInfo, CaughtUp, Vec<Appended>), StoreError> {
    let id = appends[0].session.clone();
    let mut created = false;
    if let Some((title, source)) = appends.iter().find_map(|a| a.create.as_ref()) {
        created = insert_session(tx, &id, title, source).await?;
    }
    let Some(mut info) = lock_session(tx, &id).await? else {
        return Err(StoreError::NoSession(id));
    };
    if info.ended.is_some() {
        return Err(StoreError::Ended(id));
    }
    let mut caught = catch_up(db, tx, &info).await?;
    let mut answers = Vec::with_capacity(appends.len());
    for a in appends {
        let seqs = write_lines(db, tx, &mut info, &mut caught, a).await?;
        // Only the first append (the one that made it) says it created the session.
        answers.push(Appended {
            created: std::mem::take(&mut created),
            seqs,
        });
    }
    tx.execute(
        "UPDATE sessions SET last_seq = $2 WHERE id = $1",
        &[&id, &(info.last_seq as i64)],
    )
    .await
    .map_err(pg)?;
    notify(tx, "events", &id, info.last_seq).await?;
    Ok((info, caught, answers))
}

/// One append's lines: folded, then inserted; answers their seqs.
async fn write_lines(
    db: &Postgres,
    tx: &impl GenericClient,
    info: &mut SessionInfo,
    caught: &mut CaughtUp,
    a: Append,
) -> Result<Vec<u64>, StoreError> {
    let every = db.shared.checkpoint_every;
    // Every line's row goes in with one statement per table (arrays unnested), not one
    // round trip per line: a session's row lock is held for as short as can be.
    let n = a.lines.len();
    let mut events = EventRows::with_capacity(n);
    let (mut rendered_seqs, mut rendered_json) = (Vec::new(), Vec::new());
    let mut seqs = Vec::with_capacity(n);
    for raw in a.lines {
        let seq = info.last_seq + 1;
        let line = stored_line(seq, raw.bytes, raw.cut);
        let event = line_event(&line);
        let ts = event_time(&event, raw.received);
        let step = caught.fold.step(&event, seq, ts);
        caught.preview_changed |= step.preview_changed;
        if !step.env.msgs.is_empty() {
            let json = serde_json::to_string(&step.env)?;
            if let Some(frames) = &mut caught.frames {
                push_json_frame(frames, seq, &json);
            }
            rendered_seqs.push(seq as i64);
            rendered_json.push(json);
        }
        if caught
            .frames
            .as_ref()
            .is_some_and(|f| f.len() > MAX_INLINE_BATCH)
        {
            caught.frames = None;
        }
        events.push(seq, ts, raw.received, line.bytes, raw.cut);
        info.last_seq = seq;
        if seq.is_multiple_of(every) {
            let cp = caught.fold.checkpoint();
            super::schema::insert_checkpoint(tx, &a.session, seq, &cp).await?;
        }
        seqs.push(seq);
    }
    tx.execute(
        "INSERT INTO events(session, seq, ts, received, raw, cut_len, cut_limit)
         SELECT $1, * FROM UNNEST($2::BIGINT[], $3::FLOAT8[], $4::FLOAT8[], $5::BYTEA[],
                                  $6::BIGINT[], $7::BIGINT[])",
        &[
            &a.session,
            &events.seq,
            &events.ts,
            &events.received,
            &events.raw,
            &events.cut_len,
            &events.cut_limit,
        ],
    )
    .await
    .map_err(pg)?;
    if !rendered_seqs.is_empty() {
        tx.execute(
            "INSERT INTO rendered(session, seq, json)
             SELECT $1, * FROM UNNEST($2::BIGINT[], $3::TEXT[])
             ON CONFLICT (session, seq) DO UPDATE SET json = EXCLUDED.json",
            &[&a.session, &rendered_seqs, &rendered_json],
        )
        .await
        .map_err(pg)?;
    }
    if let Some(f) = &a.follow {
        tx.execute(
            r#"INSERT INTO follows(path, session, dev, ino, "offset") VALUES ($1, $2, $3, $4, $5)
               ON CONFLICT (path) DO UPDATE SET session = EXCLUDED.session, dev = EXCLUDED.dev,
               ino = EXCLUDED.ino, "offset" = EXCLUDED."offset""#,
            &[
                &f.path,
                &a.session,
                &(f.dev as i64),
                &(f.ino as i64),
                &(f.offset as i64),
            ],
        )
        .await
        .map_err(pg)?;
    }
    if let (Some(key), Some(&first)) = (&a.key, seqs.first()) {
        tx.execute(
            "INSERT INTO idempotency(session, key, first_seq, last_seq, lines)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (session, key) DO UPDATE SET last_seq = EXCLUDED.last_seq,
             lines = idempotency.lines + EXCLUDED.lines",
            &[
                &a.session,
                key,
                &(first as i64),
                &(info.last_seq as i64),
                &(seqs.len() as i64),
            ],
        )
        .await
        .map_err(pg)?;
    }
    Ok(seqs)
}
