//! `hiveterm serve` and `hiveterm run`: open the store, bind, start the sources, print the
//! URL, and shut down cleanly on Ctrl-C (SSE streams end, the HTTP server drains, every
//! queued write is committed, the writer stops).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use tokio::net::TcpListener;

use crate::store::Store;
use crate::{AppState, Config, app, ingest};

/// Options shared by `serve` and `run`.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeOptions {
    /// Address to listen on. Anything but loopback requires --token.
    #[arg(long, default_value = "127.0.0.1:7171")]
    pub addr: SocketAddr,
    /// The database file (created if missing).
    #[arg(long, default_value = "hiveterm.db")]
    pub db: PathBuf,
    /// Require this token on every API call (`Authorization: Bearer T` or `?token=T`).
    #[arg(long)]
    pub token: Option<String>,
    /// The page's built files.
    #[arg(long = "static", default_value = "dist")]
    pub static_dir: PathBuf,
    /// Longest line stored whole, in bytes; longer lines become an error row.
    #[arg(long, default_value_t = 4 * 1024 * 1024)]
    pub max_line_bytes: usize,
    /// Largest POST body, in bytes; larger is refused with 413.
    #[arg(long, default_value_t = 16 * 1024 * 1024)]
    pub max_request_bytes: usize,
}

/// `hiveterm serve` only.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub options: ServeOptions,
    /// Follow these growing .jsonl logs (any supported format), one session each.
    #[arg(long, num_args = 1..)]
    pub follow: Vec<PathBuf>,
    /// Read a log from standard input as one session.
    #[arg(long)]
    pub stdin: bool,
    /// Load the bundled demo logs as sessions.
    #[arg(long)]
    pub demo: bool,
}

/// `hiveterm run`.
#[derive(Debug, Clone, clap::Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub options: ServeOptions,
    /// The session's title (default: the command line).
    #[arg(long)]
    pub title: Option<String>,
    /// Exit when the command exits, with its exit code, instead of serving until Ctrl-C.
    #[arg(long)]
    pub once: bool,
    /// The agent command and its arguments.
    #[arg(last = true, required = true, num_args = 1..)]
    pub command: Vec<String>,
}

/// A running server.
struct Running {
    state: AppState,
    store: Store,
    url: String,
    server: tokio::task::JoinHandle<std::io::Result<()>>,
    stop_http: Arc<tokio::sync::Notify>,
}

async fn start(options: &ServeOptions) -> Result<Running, String> {
    if !options.addr.ip().is_loopback() && options.token.is_none() {
        return Err(format!(
            "listening on {} (beyond loopback) requires --token",
            options.addr
        ));
    }
    let store = Store::open(&options.db)
        .map_err(|e| format!("cannot open {}: {e}", options.db.display()))?;
    let config = Config {
        max_line_bytes: options.max_line_bytes.max(1),
        max_request_bytes: options.max_request_bytes.max(1),
        token: options.token.clone(),
        static_dir: options.static_dir.clone(),
        ..Config::default()
    };
    let state = AppState::new(store.clone(), config);
    let listener = TcpListener::bind(options.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", options.addr))?;
    let local = listener
        .local_addr()
        .map_err(|e| format!("cannot listen on {}: {e}", options.addr))?;
    let host = if local.ip().is_unspecified() {
        SocketAddr::new([127, 0, 0, 1].into(), local.port())
    } else {
        local
    };
    let url = format!("http://{host}/");
    let stop_http = Arc::new(tokio::sync::Notify::new());
    let stop = stop_http.clone();
    let router = app(state.clone());
    let server = tokio::spawn(async move {
        axum::serve(listener, router)
            .with_graceful_shutdown(async move { stop.notified().await })
            .await
    });
    tracing::info!("database {}", options.db.display());
    Ok(Running {
        state,
        store,
        url,
        server,
        stop_http,
    })
}

impl Running {
    /// The URL of a path, with the token when there is one.
    fn link(&self, path: &str, token: Option<&str>) -> String {
        let mut url = format!("{}{}", self.url, path.trim_start_matches('/'));
        if let Some(token) = token {
            url.push_str(&format!("?token={token}"));
        }
        url
    }

    async fn stop(self) {
        self.state.begin_shutdown();
        self.stop_http.notify_one();
        match self.server.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::error!("HTTP server: {e}"),
            Err(e) => tracing::error!("HTTP server task: {e}"),
        }
        self.store.close().await;
        tracing::info!("stopped; every acknowledged event is committed");
    }
}

async fn ctrl_c() {
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// `hiveterm serve`.
pub async fn serve(args: ServeArgs) -> Result<(), String> {
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
            running.link(&format!("s/{id}"), args.options.token.as_deref())
        );
        let (store, path) = (store.clone(), path.clone());
        sources.spawn(async move {
            if let Err(e) = ingest::follow(store, id, path.clone(), max_line).await {
                tracing::error!("following {}: {e}", path.display());
            }
        });
    }
    if args.stdin {
        let id = format!("stdin-{}", (crate::now() * 1000.0) as u64);
        store
            .open_session(&id, "standard input", "stdin")
            .await
            .map_err(|e| e.to_string())?;
        println!(
            "reading standard input as {}",
            running.link(&format!("s/{id}"), args.options.token.as_deref())
        );
        let store = store.clone();
        sources.spawn(async move {
            if let Err(e) = ingest::stdin(&store, &id, max_line).await {
                tracing::error!("reading standard input: {e}");
            }
        });
    }
    println!(
        "listening on {}",
        running.link("", args.options.token.as_deref())
    );
    ctrl_c().await;
    sources.abort_all();
    running.stop().await;
    Ok(())
}

/// `hiveterm run`: answers the exit code to leave with.
pub async fn run(args: RunArgs) -> Result<i32, String> {
    let running = start(&args.options).await?;
    let store = running.store.clone();
    let id = format!("run-{}", (crate::now() * 1000.0) as u64);
    let title = args.title.clone().unwrap_or_else(|| args.command.join(" "));
    store
        .open_session(&id, &title, "run")
        .await
        .map_err(|e| e.to_string())?;
    let token = args.options.token.as_deref();
    println!("listening on {}", running.link("", token));
    println!("session {}", running.link(&format!("s/{id}"), token));
    let (interrupt_tx, interrupt_rx) = tokio::sync::oneshot::channel::<()>();
    let interrupted = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = interrupted.clone();
    let watcher = tokio::spawn(async move {
        ctrl_c().await;
        flag.store(true, std::sync::atomic::Ordering::SeqCst);
        let _ = interrupt_tx.send(());
    });
    let finished = ingest::run_command(
        &store,
        &id,
        &args.command,
        args.options.max_line_bytes.max(1),
        async {
            let _ = interrupt_rx.await;
        },
    )
    .await
    .map_err(|e| e.to_string())?;
    let code = finished.code.unwrap_or(if finished.ok { 0 } else { 1 });
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
