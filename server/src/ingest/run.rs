//! `hiveterm run`'s source: a command's stdout and stderr as lines of one session, stored
//! locally or (`run --to URL`) posted to a remote hiveterm; a failure on the viewer's side
//! never stops the command.

use std::process::Stdio;
use std::time::Duration;

use serde_json::json;
use tokio::io::AsyncRead;

use super::lines::{ChunkedLines, event_line, note_line, store_lines};
use crate::store::{RawLine, Store};

/// A stdout line of `hiveterm run`: stored as it is when it looks like JSON (a Claude Code
/// stream-json line), else as a note `stdout: …`.
fn stdout_line(line: classifier::Line) -> RawLine {
    let json_like = line
        .bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'{' || b == b'[');
    if json_like || line.oversize.is_some() {
        RawLine::from_line(line)
    } else {
        note_line(&format!("stdout: {}", String::from_utf8_lossy(&line.bytes)))
    }
}

/// A stderr line of `hiveterm run`: a note `stderr: …`.
fn stderr_line(line: classifier::Line) -> RawLine {
    let text = String::from_utf8_lossy(&line.bytes);
    let text = if line.oversize.is_some() {
        format!("stderr: {text}… (line cut)")
    } else {
        format!("stderr: {text}")
    };
    note_line(&text)
}

/// How a command ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// Its exit code, if it exited.
    pub code: Option<i32>,
    /// Whether it succeeded.
    pub ok: bool,
}

/// Where a run's lines go.
pub enum RunSink<'a> {
    /// The local store (`hiveterm run`).
    Store(&'a Store),
    /// A remote hiveterm (`hiveterm run --to URL`): the lines are queued for
    /// `crate::forward::forward_lines`, which posts them; the session ends when this is
    /// dropped and they are all stored.
    Remote(tokio::sync::mpsc::UnboundedSender<Vec<u8>>),
}

impl RunSink<'_> {
    /// Stores `lines` (or queues them for the remote).
    async fn put(&self, session: &str, lines: Vec<RawLine>) -> Result<(), String> {
        match self {
            RunSink::Store(store) => store_lines(store, session, lines, None)
                .await
                .map_err(|e| e.to_string()),
            RunSink::Remote(queue) => lines.into_iter().try_for_each(|line| {
                queue
                    .send(crate::forward::raw_to_send(line))
                    .map_err(|_| "the forwarder stopped (see above)".to_owned())
            }),
        }
    }
}

/// What a run could not store. The store failing (a full disk, a database error, the session
/// ended through the API) never stops the agent: its output keeps being read (a full pipe
/// would block it), the lines the store refused are counted and logged, and the session gets
/// a note saying how many were lost as soon as the store takes lines again (and in its
/// `turn_end`).
#[derive(Default)]
struct Lost {
    lines: std::sync::atomic::AtomicU64,
}

impl Lost {
    fn count(&self) -> u64 {
        self.lines.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Stores `lines`, or counts them lost.
    async fn store(&self, sink: &RunSink<'_>, session: &str, lines: Vec<RawLine>) {
        use std::sync::atomic::Ordering::Relaxed;
        let n = lines.len() as u64;
        match sink.put(session, lines).await {
            Ok(()) => {
                let lost = self.count();
                if lost > 0 {
                    let note = note_line(&format!(
                        "hiveterm: {lost} lines of the agent's output could not be stored (see the server's log); the agent kept running"
                    ));
                    if sink.put(session, vec![note]).await.is_ok() {
                        self.lines.fetch_sub(lost, Relaxed);
                    }
                }
            }
            Err(e) => {
                if self.lines.fetch_add(n, Relaxed) == 0 {
                    tracing::error!(
                        "cannot store the output of {session}: {e}; the agent keeps running, its lines are counted as lost until the store takes them again"
                    );
                }
            }
        }
    }
}

/// [`pump`] for a run: never stops on a store failure (see [`Lost`]).
async fn pump_run(
    sink: &RunSink<'_>,
    session: &str,
    input: impl AsyncRead + Unpin,
    max_line: usize,
    map: impl Fn(classifier::Line) -> RawLine,
    lost: &Lost,
) {
    let mut lines = ChunkedLines::new(format!("output of {session}"), input, max_line, map);
    while let Some(batch) = lines.next().await {
        lost.store(sink, session, batch).await;
    }
}

/// Runs `command` as session `session` (created by the caller, or by the remote's first POST):
/// a `turn_start` with the command line, each stdout line as a stream event, each stderr line
/// as a `stderr:` note, a `turn_end` with `ok` from the exit status; then ends the session
/// (a remote one when `sink` is dropped). `stop` resolving
/// interrupts the command (it is killed if it has not exited 3 s later). Nothing on the
/// viewer's side stops the command: a store failure is logged and noted (see [`Lost`]).
/// The command does not inherit `HIVETERM_TOKEN`.
pub async fn run_command(
    sink: &RunSink<'_>,
    session: &str,
    command: &[String],
    max_line: usize,
    stop: impl std::future::Future<Output = ()>,
) -> Finished {
    let lost = Lost::default();
    let shown = command.join(" ");
    lost.store(
        sink,
        session,
        vec![event_line(
            "turn_start",
            json!({ "from": "operator", "body": format!("$ {shown}") }),
        )],
    )
    .await;
    let spawned = tokio::process::Command::new(&command[0])
        .args(&command[1..])
        .env_remove("HIVETERM_TOKEN")
        .stdin(Stdio::inherit())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) => {
            let note = format!("cannot start {}: {e}", command[0]);
            tracing::error!("{note}");
            lost.store(
                sink,
                session,
                vec![event_line("turn_end", json!({ "ok": false, "note": note }))],
            )
            .await;
            end_run(sink, session).await;
            return Finished {
                code: None,
                ok: false,
            };
        }
    };
    let stdout = child.stdout.take().expect("piped");
    let stderr = child.stderr.take().expect("piped");
    let out = pump_run(sink, session, stdout, max_line, stdout_line, &lost);
    let err = pump_run(sink, session, stderr, max_line, stderr_line, &lost);
    let io = async { tokio::join!(out, err) };
    tokio::pin!(io, stop);
    let mut interrupted = false;
    tokio::select! {
        _ = &mut io => {},
        () = &mut stop => {
            interrupted = true;
            // The terminal's Ctrl-C reached the command too; give it a moment to finish.
            if tokio::time::timeout(Duration::from_secs(3), &mut io).await.is_err() {
                let _ = child.start_kill();
                io.await;
            }
        }
    }
    let status = child.wait().await;
    let (ok, code, note) = match status {
        Ok(s) if s.success() && !interrupted => (true, s.code(), None),
        Ok(s) => {
            let how = match (s.code(), interrupted) {
                (_, true) => "interrupted".to_owned(),
                (Some(c), false) => format!("exited with status {c}"),
                (None, false) => {
                    use std::os::unix::process::ExitStatusExt as _;
                    format!("killed by signal {}", s.signal().unwrap_or(0))
                }
            };
            (false, s.code(), Some(format!("{} {how}", command[0])))
        }
        Err(e) => (
            false,
            None,
            Some(format!("cannot wait for {}: {e}", command[0])),
        ),
    };
    let mut fields = json!({ "ok": ok });
    if let Some(note) = note {
        fields["note"] = json!(note);
    }
    let lost_lines = lost.count();
    if lost_lines > 0 {
        fields["lost_lines"] = json!(lost_lines);
    }
    lost.store(sink, session, vec![event_line("turn_end", fields)])
        .await;
    end_run(sink, session).await;
    Finished { code, ok }
}

/// Ends a run's local session; a failure is logged (the run is over either way). A remote
/// one is ended by its forwarder, after its last line.
async fn end_run(sink: &RunSink<'_>, session: &str) {
    if let RunSink::Store(store) = sink
        && let Err(e) = store.end_session(session).await
    {
        tracing::warn!("cannot mark {session} ended: {e}");
    }
}
