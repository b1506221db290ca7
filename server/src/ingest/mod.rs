//! Sources of events other than `POST`: a command's output, followed files, standard input,
//! and the bundled demo logs. Each turns bytes into lines with [`LineReader`] and stores them
//! through [`Store::append`], so every source gives the same stored events as a POST of the
//! same lines would.

mod follow;

use std::process::Stdio;
use std::time::Duration;

use classifier::LineReader;
use serde_json::json;
use tokio::io::{AsyncRead, AsyncReadExt};

use crate::store::{Append, FollowPos, RawLine, Store, StoreError};

pub use follow::{FOLLOW_POLL, follow, follow_session_id, followable};

/// Bytes read at a time.
const CHUNK: usize = 64 * 1024;

/// Stores `lines` in `session` (which must exist).
async fn store_lines(
    store: &Store,
    session: &str,
    lines: Vec<RawLine>,
    follow: Option<FollowPos>,
) -> Result<(), StoreError> {
    if lines.is_empty() && follow.is_none() {
        return Ok(());
    }
    store
        .append(Append {
            session: session.to_owned(),
            lines,
            create: None,
            follow,
            key: None,
        })
        .await
        .map(drop)
}

/// A hyperhive event line (`{"kind": …, "ts": now, …}`) built by hiveterm itself.
pub fn event_line(kind: &str, fields: serde_json::Value) -> RawLine {
    let mut value = json!({ "kind": kind, "ts": crate::now() });
    if let (Some(obj), serde_json::Value::Object(fields)) = (value.as_object_mut(), fields) {
        obj.extend(fields);
    }
    RawLine::now(value.to_string().into_bytes())
}

/// A note event line.
pub fn note_line(text: &str) -> RawLine {
    event_line("note", json!({ "text": text }))
}

/// Reads `input` to its end, storing each line as `map` makes it.
async fn pump(
    store: &Store,
    session: &str,
    mut input: impl AsyncRead + Unpin,
    max_line: usize,
    map: impl Fn(classifier::Line) -> RawLine,
) -> Result<(), StoreError> {
    let mut reader = LineReader::with_limit(max_line);
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = match input.read(&mut buf).await {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                tracing::warn!("reading input of {session}: {e}");
                break;
            }
        };
        let mut lines = Vec::new();
        reader.push(&buf[..n], |line| lines.push(map(line)));
        store_lines(store, session, lines, None).await?;
    }
    let mut lines = Vec::new();
    reader.finish(|line| lines.push(map(line)));
    store_lines(store, session, lines, None).await
}

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
    async fn store(&self, store: &Store, session: &str, lines: Vec<RawLine>) {
        use std::sync::atomic::Ordering::Relaxed;
        let n = lines.len() as u64;
        match store_lines(store, session, lines, None).await {
            Ok(()) => {
                let lost = self.count();
                if lost > 0 {
                    let note = note_line(&format!(
                        "hiveterm: {lost} lines of the agent's output could not be stored (see the server's log); the agent kept running"
                    ));
                    if store_lines(store, session, vec![note], None).await.is_ok() {
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
    store: &Store,
    session: &str,
    mut input: impl AsyncRead + Unpin,
    max_line: usize,
    map: impl Fn(classifier::Line) -> RawLine,
    lost: &Lost,
) {
    let mut reader = LineReader::with_limit(max_line);
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = match input.read(&mut buf).await {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                tracing::warn!("reading output of {session}: {e}");
                break;
            }
        };
        let mut lines = Vec::new();
        reader.push(&buf[..n], |line| lines.push(map(line)));
        if !lines.is_empty() {
            lost.store(store, session, lines).await;
        }
    }
    let mut lines = Vec::new();
    reader.finish(|line| lines.push(map(line)));
    if !lines.is_empty() {
        lost.store(store, session, lines).await;
    }
}

/// Runs `command` as session `session` (created by the caller): a `turn_start` with the
/// command line, each stdout line as a stream event, each stderr line as a `stderr:` note, a
/// `turn_end` with `ok` from the exit status; then ends the session. `stop` resolving
/// interrupts the command (it is killed if it has not exited 3 s later). Nothing on the
/// viewer's side stops the command: a store failure is logged and noted (see [`Lost`]).
/// The command does not inherit `HIVETERM_TOKEN`.
pub async fn run_command(
    store: &Store,
    session: &str,
    command: &[String],
    max_line: usize,
    stop: impl std::future::Future<Output = ()>,
) -> Finished {
    let lost = Lost::default();
    let shown = command.join(" ");
    lost.store(
        store,
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
                store,
                session,
                vec![event_line("turn_end", json!({ "ok": false, "note": note }))],
            )
            .await;
            end_run(store, session).await;
            return Finished {
                code: None,
                ok: false,
            };
        }
    };
    let stdout = child.stdout.take().expect("piped");
    let stderr = child.stderr.take().expect("piped");
    let out = pump_run(store, session, stdout, max_line, stdout_line, &lost);
    let err = pump_run(store, session, stderr, max_line, stderr_line, &lost);
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
    lost.store(store, session, vec![event_line("turn_end", fields)])
        .await;
    end_run(store, session).await;
    Finished { code, ok }
}

/// Ends a run's session; a failure is logged (the run is over either way).
async fn end_run(store: &Store, session: &str) {
    if let Err(e) = store.end_session(session).await {
        tracing::warn!("cannot mark {session} ended: {e}");
    }
}

/// Reads standard input into `session` until it ends, then ends the session.
pub async fn stdin(store: &Store, session: &str, max_line: usize) -> Result<(), StoreError> {
    pump(
        store,
        session,
        tokio::io::stdin(),
        max_line,
        RawLine::from_line,
    )
    .await?;
    store.end_session(session).await.map(drop)
}

/// The bundled demo logs: name, title, bytes.
pub const DEMOS: &[(&str, &str, &[u8])] = &[
    (
        "demo-file_tools",
        "demo: file tools (Claude Code stream-json)",
        include_bytes!("../../../fixtures/claude-code-2.1.332/file_tools.stream.jsonl"),
    ),
    (
        "demo-mcp_tools",
        "demo: MCP tools (hyperhive event log)",
        include_bytes!("../../../fixtures/hyperhive/mcp_tools.events.jsonl"),
    ),
    (
        "demo-tool_errors",
        "demo: tool errors (Claude Code stream-json)",
        include_bytes!("../../../fixtures/claude-code-2.1.332/tool_errors.stream.jsonl"),
    ),
    (
        "demo-basic_markdown",
        "demo: markdown (Claude Code transcript)",
        include_bytes!("../../../fixtures/claude-code-2.1.332/basic_markdown.transcript.jsonl"),
    ),
    (
        "demo-api_fatal_400",
        "demo: API error (hyperhive event log)",
        include_bytes!("../../../fixtures/hyperhive/api_fatal_400.events.jsonl"),
    ),
];

/// Loads the demo logs as ended sessions, each once.
pub async fn demo(store: &Store, max_line: usize) -> Result<(), StoreError> {
    for (id, title, bytes) in DEMOS {
        if store.hub(id).await?.is_some() {
            continue;
        }
        let mut reader = LineReader::with_limit(max_line);
        let mut lines = Vec::new();
        reader.push(bytes, |line| lines.push(RawLine::from_line(line)));
        reader.finish(|line| lines.push(RawLine::from_line(line)));
        store
            .append(Append {
                session: (*id).to_owned(),
                lines,
                create: Some(((*title).to_owned(), "demo".to_owned())),
                follow: None,
                key: None,
            })
            .await?;
        store.end_session(id).await?;
    }
    Ok(())
}
