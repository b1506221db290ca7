//! `hiveterm serve --follow PATH… --to URL` and `hiveterm run --to URL -- CMD…`: an agent
//! host's logs, or a command's output, posted to a remote hiveterm (any replica, behind any load
//! balancer) instead of a local database, so the host needs no database access. One engine,
//! [`Outbox`], posts a remote session's lines in order, in batches, each under its own
//! `Idempotency-Key`, retried until stored; the two differ only in where the lines come from
//! and how their keys are named ([`follow::forward_follow`], [`forward_lines`]).
//!
//! **Exactly once.** Every POST carries an `Idempotency-Key` that names what it holds, so a
//! retry of it is the same request: a POST stored but answered `5xx` (a proxy's 502/504), cut
//! off, or answered too late is sent again, unchanged, until it is answered `200`, and the
//! remote stores only the lines it does not have yet. Nothing is asked or guessed between
//! tries; nothing is sent twice.
//!
//! **Resume.** Each followed file is one remote session (the id `--follow` gives it locally),
//! fed by this forwarder alone. A batch's key is `hiveterm-forward.<round>.<start>.<end>`: the
//! bytes `start..end` of the file (whole lines), `round` counting the times the file was read
//! again from its start (truncated, replaced). A forwarder (re)started on a file asks the remote
//! for the session's newest key (`GET …/keys/last`) and reads those bytes again: when their
//! body is the one stored under the key (its SHA-256), it re-sends it if the remote has only
//! part of it and goes on from `end`; otherwise the file changed while no forwarder ran, and it
//! is read again from its start (`round + 1`). So the position is the receiver's, not a local
//! count. A session fed by a forwarder from before keys is resumed after its `last_seq` lines.
//!
//! Plain `http://host:port[/prefix]` only (no TLS in hiveterm: put a TLS-terminating proxy
//! on the agent host, or a tunnel). A file truncated while followed is read again from its
//! start, and a file replaced by another (rotation) is read to its end, then the new one from
//! its start; their lines are appended after those already sent (as `--follow` does locally).
//!
//! A run (`run --to`) is one new remote session, fed as its command writes (keys
//! `hiveterm-run.<lines before>.<lines>`); the command never waits for the remote (its lines
//! queue here while the remote is away), and the session is ended when the command has exited
//! and every line is stored.

mod follow;
mod outbox;
mod remote;

use std::path::PathBuf;

pub use follow::forward_follow;
use outbox::{Batch, Outbox, Unsent, oversize_note};
pub use remote::Remote;

/// [`line_to_send`] for a line a run made (`crate::ingest`'s lines).
pub(crate) fn raw_to_send(line: crate::store::RawLine) -> Vec<u8> {
    match line.cut {
        None => line.bytes,
        Some((len, limit)) => oversize_note(len, limit),
    }
}

/// `hiveterm run --to URL`: posts the lines `lines` gives to remote session `id` (created with
/// `title`), in order, until every sender is dropped; then ends the session. Lines that come
/// while a POST is out wait and go together in the next.
pub(crate) async fn forward_lines(
    remote: Remote,
    id: String,
    title: String,
    mut lines: tokio::sync::mpsc::UnboundedReceiver<Vec<u8>>,
) -> Result<(), String> {
    let outbox = Outbox { remote, id, title };
    let mut batch = Batch::default();
    // Lines posted so far: the next batch's key says where it starts.
    let mut sent = 0u64;
    // The key of the last batch stored: the next follows it.
    let mut after = String::new();
    let mut next = None;
    loop {
        let line = match next.take() {
            Some(line) => line,
            None => match lines.recv().await {
                Some(line) => line,
                None => break,
            },
        };
        batch.push(line);
        while !batch.is_full() {
            match lines.try_recv() {
                Ok(line) if batch.would_overflow(&line) => {
                    next = Some(line);
                    break;
                }
                Ok(line) => batch.push(line),
                Err(_) => break,
            }
        }
        let n = batch.lines.len() as u64;
        let key = format!("hiveterm-run.{sent}.{n}");
        match outbox.send(&key, &after, &batch.take_body()).await {
            Ok(()) => {}
            Err(Unsent::Refused(why)) => return Err(why),
            Err(Unsent::Moved(why)) => {
                return Err(format!(
                    "{}: another producer posted to it: {why}",
                    outbox.id
                ));
            }
        }
        after = key;
        sent += n;
    }
    outbox.end().await
}

/// `hiveterm serve --follow … --to URL`: forwards each of `paths` until `stop` resolves (or
/// the remote refuses one).
pub async fn run(
    remote: Remote,
    paths: &[PathBuf],
    max_line: usize,
    stop: impl std::future::Future<Output = ()>,
) -> Result<(), String> {
    let mut tasks = tokio::task::JoinSet::new();
    for path in paths {
        let (path, id) = (path.clone(), crate::ingest::follow::follow_session_id(path));
        println!(
            "forwarding {} to {} as session {id}",
            path.display(),
            remote.url()
        );
        let remote = remote.clone();
        tasks.spawn(async move {
            let shown = path.display().to_string();
            let result = forward_follow(remote, id, path, max_line).await;
            (shown, result)
        });
    }
    tokio::select! {
        () = stop => Ok(()),
        Some(done) = tasks.join_next() => match done {
            Ok((path, Err(e))) => Err(format!("forwarding {path}: {e}")),
            Ok((_, Ok(()))) => Ok(()),
            Err(e) => Err(format!("a forwarder failed: {e}")),
        },
    }
}
