//! Writing PostgreSQL: open, append and end, each one transaction that first takes the
//! session's row lock, so seqs are assigned in the database, gapless across replicas. A
//! write is answered only after its commit; the commit also announces it on [`CHANNEL`]
//! (`pg_notify` is delivered at commit) so other replicas bring their hubs up to it.

use deadpool_postgres::GenericClient;
use tokio::sync::oneshot;

use super::catchup::{CaughtUp, catch_up, refresh};
use super::handle::{CHANNEL, Postgres, Queued, pg};
use super::reader;
use super::rows::Rows;

use crate::hub::{MAX_INLINE_BATCH, SessionInfo, push_json_frame};
use crate::store::error::StoreError;
use crate::store::request::{Append, Appended};

/// Creates session `id` if it does not exist; answers whether it was created.
async fn insert_session(
    client: &impl GenericClient,
    id: &str,
    title: &str,
    source: &str,
) -> Result<bool, StoreError> {
    let n = client
        .execute(
            "INSERT INTO sessions(id, title, source, started, ended, last_seq, given_title)
             VALUES ($1, $2, $3, $4, NULL, 0, $2) ON CONFLICT (id) DO NOTHING",
            &[&id, &title, &source, &crate::clock::now()],
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
        let now = crate::clock::now();
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
                    StoreError::Raced(m) => StoreError::Raced(m.clone()),
                    StoreError::NotAfter(m) => StoreError::NotAfter(m.clone()),
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
        Ok((info, caught, answers, indexed)) => {
            tx.commit().await.map_err(pg)?;
            db.stats.wrote(&db.pool, indexed);
            db.shared.hubs.publish(
                &caught.hub,
                info,
                caught.fold,
                caught.preview_changed,
                caught.frames,
            );
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
///
/// The row lock is held from `lock_session` to the commit, and every replica's writes to the
/// session wait for it, so the work under it is kept to a few round trips: the catch-up (one
/// query, only when other replicas wrote since this one last looked), then every line of
/// every append folded here and stored by one statement (events, envelopes, the row's
/// `last_seq` and the `NOTIFY`). A statement per append, as before, cost two round trips
/// for each POST of the batch while the other replicas waited.
async fn write_appends(
    db: &Postgres,
    tx: &impl GenericClient,
    appends: Vec<Append>,
) -> Result<(SessionInfo, CaughtUp, Vec<Appended>, u64), StoreError> {
    let id = appends[0].session.clone();
    let mut created = false;
    if let Some((title, source)) = appends.iter().find_map(|a| a.create.as_ref()) {
        created = insert_session(tx, &id, title, source).await?;
    }
    let t0 = std::time::Instant::now();
    let Some(mut info) = lock_session(tx, &id).await? else {
        return Err(StoreError::NoSession(id));
    };
    if info.ended.is_some() {
        return Err(StoreError::Ended(id));
    }
    for a in &appends {
        if let Some(key) = &a.key {
            super::keys::check_key(tx, &id, key).await?;
        }
    }
    let locked = std::time::Instant::now();
    let mut caught = catch_up(db, tx, &info).await?;
    let caught_up = std::time::Instant::now();
    let n: usize = appends.iter().map(|a| a.lines.len()).sum();
    let mut rows = Rows::with_capacity(n);
    let mut answers = Vec::with_capacity(appends.len());
    for a in appends {
        let seqs = fold_lines(db, tx, &mut info, &mut caught, &mut rows, a).await?;
        // Only the first append (the one that made it) says it created the session.
        answers.push(Appended {
            created: std::mem::take(&mut created),
            seqs,
        });
    }
    let payload = format!("events {} {id}", info.last_seq);
    // The index's columns (`crate::index`), set by the statement that sets `last_seq`: the
    // row is written anew anyway, so this costs no round trip.
    let (title, index) = crate::index::row_of(&id, &info.given_title, &caught.fold);
    info.title = title;
    let mut index_args = crate::index::update_args(&id, &info.title, &index);
    index_args.remove(0);
    // After the 12 parameters of the events and the 7 of the search rows ($13–$19).
    let index_sets = crate::index::update_sql(|n| format!("${}", n + 18));
    let index_sets = index_sets
        .split_once(" SET ")
        .and_then(|(_, rest)| rest.split_once(" WHERE "))
        .map_or(String::new(), |(sets, _)| format!(", {sets}"));
    let e = &rows.events;
    let last_seq = info.last_seq as i64;
    let mut params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = vec![
        &id,
        &e.seq,
        &e.ts,
        &e.received,
        &e.raw,
        &e.cut_len,
        &e.cut_limit,
        &rows.rendered_seqs,
        &rows.rendered_json,
        &last_seq,
        &CHANNEL,
        &payload,
        &rows.search.seq,
        &rows.search.row,
        &rows.search.ts,
        &rows.search.level,
        &rows.search.icon,
        &rows.search.summary,
        &rows.search.body,
    ];
    params.extend(index_args.iter().map(super::index::pg_value));
    // The events' sources, the last parameter.
    params.push(&e.source);
    let sources = params.len();
    tx.execute(
        &format!(
            "WITH e AS (
             INSERT INTO events(session, seq, ts, received, raw, cut_len, cut_limit, source)
             SELECT $1, * FROM UNNEST($2::BIGINT[], $3::FLOAT8[], $4::FLOAT8[], $5::BYTEA[],
                                      $6::BIGINT[], $7::BIGINT[], ${sources}::TEXT[])
         ), r AS (
             INSERT INTO rendered(session, seq, json)
             SELECT $1, * FROM UNNEST($8::BIGINT[], $9::TEXT[])
             ON CONFLICT (session, seq) DO UPDATE SET json = EXCLUDED.json
         ), s AS (
             INSERT INTO search_rows(session, seq, rowno, ts, level, icon, summary, body)
             SELECT $1, * FROM UNNEST($13::BIGINT[], $14::INT[], $15::FLOAT8[], $16::TEXT[],
                                      $17::TEXT[], $18::TEXT[], $19::TEXT[])
             ON CONFLICT (session, seq, rowno) DO UPDATE SET ts = EXCLUDED.ts,
                 level = EXCLUDED.level, icon = EXCLUDED.icon, summary = EXCLUDED.summary,
                 body = EXCLUDED.body
         ), u AS (
             UPDATE sessions SET last_seq = $10{index_sets} WHERE id = $1
         )
         SELECT pg_notify($11, $12)"
        ),
        &params,
    )
    .await
    .map_err(pg)?;
    tracing::debug!(
        "session {id}: {} appends, {n} lines; row lock waited {:.1} ms, catch-up {:.1} ms, \
         fold and write {:.1} ms",
        answers.len(),
        locked.duration_since(t0).as_secs_f64() * 1e3,
        caught_up.duration_since(locked).as_secs_f64() * 1e3,
        caught_up.elapsed().as_secs_f64() * 1e3,
    );
    let indexed = rows.search.seq.len() as u64;
    Ok((info, caught, answers, indexed))
}

/// One append's lines folded, their rows added to `rows` (stored with the batch's), its
/// checkpoints, followed file position and idempotency key stored; answers their seqs.
async fn fold_lines(
    db: &Postgres,
    tx: &impl GenericClient,
    info: &mut SessionInfo,
    caught: &mut CaughtUp,
    rows: &mut Rows,
    a: Append,
) -> Result<Vec<u64>, StoreError> {
    let every = db.shared.checkpoint_every;
    let mut seqs = Vec::with_capacity(a.lines.len());
    let raws = a.lines.into_iter().map(|r| (r.bytes, r.cut, r.received));
    for (line, event, received, ts) in caught.fold.read(info.last_seq + 1, raws) {
        let (seq, cut) = (line.number, line.oversize.map(|o| (o.len, o.limit)));
        let source = a.source.as_deref();
        let step = caught.fold.step(&event, seq, ts, line.bytes.len(), source);
        caught.preview_changed |= step.preview_changed;
        if !step.env.msgs.is_empty() {
            let json = serde_json::to_string(&step.env)?;
            if let Some(frames) = &mut caught.frames {
                push_json_frame(frames, seq, &json);
            }
            rows.search.push(seq, &step.env);
            rows.rendered_seqs.push(seq as i64);
            rows.rendered_json.push(json);
        }
        if caught
            .frames
            .as_ref()
            .is_some_and(|f| f.len() > MAX_INLINE_BATCH)
        {
            caught.frames = None;
        }
        rows.events.push(seq, ts, received, line.bytes, cut, source);
        info.last_seq = seq;
        if let Some(cp) = caught.fold.checkpoint_due(seq, every) {
            super::schema::insert_checkpoint(tx, &a.session, seq, &cp).await?;
        }
        seqs.push(seq);
    }
    if let Some(f) = &a.follow {
        tx.execute(
            r#"INSERT INTO follows(path, session, dev, ino, "offset", within, mark)
               VALUES ($1, $2, $3, $4, $5, $6, $7)
               ON CONFLICT (path) DO UPDATE SET session = EXCLUDED.session, dev = EXCLUDED.dev,
               ino = EXCLUDED.ino, "offset" = EXCLUDED."offset", within = EXCLUDED.within,
               mark = EXCLUDED.mark"#,
            &[
                &f.path,
                &a.session,
                &(f.dev as i64),
                &(f.ino as i64),
                &(f.offset as i64),
                &(f.within as i64),
                &(f.mark as i64),
            ],
        )
        .await
        .map_err(pg)?;
    }
    if let (Some(key), Some(&first)) = (&a.key, seqs.first()) {
        tx.execute(
            "INSERT INTO idempotency(session, key, first_seq, last_seq, lines, body_sha256)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (session, key) DO UPDATE SET last_seq = EXCLUDED.last_seq,
             lines = idempotency.lines + EXCLUDED.lines",
            &[
                &a.session,
                &key.key,
                &(first as i64),
                &(info.last_seq as i64),
                &(seqs.len() as i64),
                &&key.body_sha256[..],
            ],
        )
        .await
        .map_err(pg)?;
    }
    Ok(seqs)
}
