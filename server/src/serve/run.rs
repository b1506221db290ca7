//! `hiveterm run`: a command as a session, stored and served here, or (`--to URL`) posted to
//! a remote hiveterm.

use std::sync::Arc;

use super::start::{RunArgs, ctrl_c, start, token};
use crate::ingest;

/// The exit code `hiveterm run` leaves with for a command that ended so.
fn exit_code(finished: &ingest::Finished) -> i32 {
    finished.code.unwrap_or(if finished.ok { 0 } else { 1 })
}

/// Interrupts the command on Ctrl-C (through the oneshot), and records that it did.
fn watch_ctrl_c() -> (
    tokio::sync::oneshot::Receiver<()>,
    Arc<std::sync::atomic::AtomicBool>,
    tokio::task::JoinHandle<()>,
) {
    let (interrupt_tx, interrupt_rx) = tokio::sync::oneshot::channel::<()>();
    let interrupted = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = interrupted.clone();
    let watcher = tokio::spawn(async move {
        ctrl_c().await;
        flag.store(true, std::sync::atomic::Ordering::SeqCst);
        let _ = interrupt_tx.send(());
    });
    (interrupt_rx, interrupted, watcher)
}

/// `hiveterm run --to URL`: the command's session posted to a remote hiveterm by the
/// forwarding engine of `serve --follow … --to` (`crate::forward`); answers the exit code.
async fn run_to(args: RunArgs, to: &str) -> Result<i32, String> {
    let remote = crate::forward::Remote::parse(to, token(&args.options)?)?;
    let id = format!("run-{}", (crate::clock::now() * 1000.0) as u64);
    let title = args.title.clone().unwrap_or_else(|| args.command.join(" "));
    println!("forwarding to {} as session {id}", remote.url());
    let (queue, lines) = tokio::sync::mpsc::unbounded_channel();
    let forwarder = tokio::spawn(crate::forward::forward_lines(
        remote,
        id.clone(),
        title,
        lines,
    ));
    let (interrupt_rx, _, watcher) = watch_ctrl_c();
    let sink = ingest::RunSink::Remote(queue);
    let finished = ingest::run_command(
        &sink,
        &id,
        &args.command,
        args.options.max_line_bytes.max(1),
        async {
            let _ = interrupt_rx.await;
        },
    )
    .await;
    drop(sink);
    // Every line stored and the session ended (or refused for good), unless Ctrl-C again.
    tokio::select! {
        done = forwarder => match done {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::error!("forwarding {id}: {e}"),
            Err(e) => tracing::error!("forwarding {id}: {e}"),
        },
        () = ctrl_c() => tracing::warn!("forwarding {id}: abandoned; the remote may lack its last lines"),
    }
    watcher.abort();
    Ok(exit_code(&finished))
}

/// `hiveterm run`: answers the exit code to leave with.
pub async fn run(args: RunArgs) -> Result<i32, String> {
    if let Some(to) = args.to.clone() {
        return run_to(args, &to).await;
    }
    let running = start(&args.options).await?;
    let store = running.store.clone();
    let id = format!("run-{}", (crate::clock::now() * 1000.0) as u64);
    let title = args.title.clone().unwrap_or_else(|| args.command.join(" "));
    store
        .open_session(&id, &title, "run")
        .await
        .map_err(|e| e.to_string())?;
    let token = running.token.as_deref();
    println!("listening on {}", running.link("", token));
    println!("session {}", running.link(&format!("s/{id}"), token));
    let (interrupt_rx, interrupted, watcher) = watch_ctrl_c();
    let finished = ingest::run_command(
        &ingest::RunSink::Store(&store),
        &id,
        &args.command,
        args.options.max_line_bytes.max(1),
        async {
            let _ = interrupt_rx.await;
        },
    )
    .await;
    let code = exit_code(&finished);
    if !args.once && !interrupted.load(std::sync::atomic::Ordering::SeqCst) {
        println!(
            "{} finished ({}); still serving {} — Ctrl-C to stop",
            args.command[0],
            if finished.ok {
                "ok".to_owned()
            } else {
                format!("exit {code}")
            },
            running.link(&format!("s/{id}"), token)
        );
        let _ = watcher.await;
    } else {
        watcher.abort();
    }
    running.stop().await;
    Ok(code)
}
