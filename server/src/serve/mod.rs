//! `hiveterm serve` and `hiveterm run`: open the store, bind, start the sources, print the
//! URL, and shut down cleanly on Ctrl-C (SSE streams end, the HTTP server drains, every
//! queued write is committed, the writer stops).
//!
//! - this file: [`serve`]
//! - `run`: [`run`], locally or `--to URL`
//! - `start`: what both share: options, token, the store and the app started, stopped

mod run;
mod start;

pub use run::run;
pub use start::{MIN_TOKEN_LEN, RunArgs, ServeArgs, ServeOptions};
use start::{ctrl_c, start, token};

use crate::ingest;

/// `hiveterm serve`.
pub async fn serve(args: ServeArgs) -> Result<(), String> {
    for path in &args.follow {
        ingest::followable(path)?;
    }
    if let Some(to) = &args.to {
        let remote = crate::forward::Remote::parse(to, token(&args.options)?)?;
        let max_line = args.options.max_line_bytes.max(1);
        return crate::forward::run(remote, &args.follow, max_line, ctrl_c()).await;
    }
    let running = start(&args.options).await?;
    let store = running.store.clone();
    let max_line = args.options.max_line_bytes.max(1);
    if args.demo {
        ingest::demo(&store, max_line)
            .await
            .map_err(|e| format!("cannot load the demo logs: {e}"))?;
    }
    let mut sources = tokio::task::JoinSet::new();
    for path in &args.follow {
        let id = ingest::follow_session_id(path);
        store
            .open_session(&id, &path.display().to_string(), "follow")
            .await
            .map_err(|e| e.to_string())?;
        // Like `tail -F`, a path that is not there yet is waited for; say so, in case it is
        // a typo.
        let missing = if path.exists() {
            ""
        } else {
            " (not there yet: waiting for it)"
        };
        println!(
            "following {}{missing} as {}",
            path.display(),
            running.link(&format!("s/{id}"), running.token.as_deref())
        );
        // A Claude Code session transcript's subagents' files, as they appear.
        let (store2, id2, path2) = (store.clone(), id.clone(), path.clone());
        sources.spawn(async move {
            if let Err(e) = ingest::follow_subagents(store2, id2, path2.clone(), max_line).await {
                tracing::error!("following {}'s subagents: {e}", path2.display());
            }
        });
        let (store, path) = (store.clone(), path.clone());
        sources.spawn(async move {
            if let Err(e) = ingest::follow(store, id, path.clone(), max_line).await {
                tracing::error!("following {}: {e}", path.display());
            }
        });
    }
    if args.stdin {
        let id = format!("stdin-{}", (crate::clock::now() * 1000.0) as u64);
        store
            .open_session(&id, "standard input", "stdin")
            .await
            .map_err(|e| e.to_string())?;
        println!(
            "reading standard input as {}",
            running.link(&format!("s/{id}"), running.token.as_deref())
        );
        let store = store.clone();
        sources.spawn(async move {
            if let Err(e) = ingest::stdin(&store, &id, max_line).await {
                tracing::error!("reading standard input: {e}");
            }
        });
    }
    let mut watched = args.watch.clone();
    if args.agents {
        let home = std::env::var_os("HOME")
            .map(std::path::PathBuf::from)
            .ok_or("--agents: HOME is not set")?;
        watched.extend(ingest::agent_folders(&home));
        let db = ingest::opencode::opencode_db(&home);
        println!("reading {}", db.display());
        let store = store.clone();
        sources.spawn(async move {
            if let Err(e) = ingest::opencode::watch_opencode(store, db).await {
                tracing::error!("reading OpenCode's store: {e}");
            }
        });
    }
    if !watched.is_empty() {
        for dir in &watched {
            if dir.exists() && !dir.is_dir() {
                return Err(format!("--watch {}: not a folder", dir.display()));
            }
            let missing = if dir.exists() {
                ""
            } else {
                " (not there yet: waiting for it)"
            };
            println!("watching {}{missing}", dir.display());
        }
        let store = store.clone();
        sources.spawn(async move {
            if let Err(e) = ingest::watch(store, watched, max_line).await {
                tracing::error!("watching: {e}");
            }
        });
    }
    println!(
        "listening on {}",
        running.link("", running.token.as_deref())
    );
    ctrl_c().await;
    sources.abort_all();
    running.stop().await;
    Ok(())
}
