//! What `serve` and `run` share: their options ([`ServeOptions`], [`ServeArgs`], [`RunArgs`]),
//! the token, the store opened and locked, the app bound ([`start`]: a [`Running`] server),
//! its clean stop, and Ctrl-C.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use tokio::net::TcpListener;

use crate::app;
use crate::guard::{self, Limits, Perimeter};
use crate::state::{AppState, Config};
use crate::store::Store;

/// Options shared by `serve` and `run`.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeOptions {
    /// Address to listen on. Anything but loopback requires --token.
    #[arg(long, default_value = "127.0.0.1:7171")]
    pub addr: SocketAddr,
    /// The database: a SQLite file (created if missing), or a PostgreSQL URL
    /// (`postgres://user@host/dbname`), which any number of replicas may share.
    #[arg(long, env = "HIVETERM_DB", default_value = "hiveterm.db")]
    pub db: String,
    /// Require this token on every API call (`Authorization: Bearer T` or `?token=T`); at
    /// least 16 characters. Visible to other users in `ps`: prefer --token-file or the
    /// HIVETERM_TOKEN environment variable.
    #[arg(long)]
    pub token: Option<String>,
    /// Read the token from this file (its first line, without surrounding whitespace).
    #[arg(long, conflicts_with = "token")]
    pub token_file: Option<PathBuf>,
    /// Another name the server is reached by (a reverse proxy's host, `name` or
    /// `name:port`); requests naming any other host than loopback are refused.
    #[arg(long = "public-name")]
    pub public_names: Vec<String>,
    /// Serve the page's built files from this directory instead of the page this binary
    /// carries (default: the carried page; `dist/` when the binary was built without one).
    #[arg(long = "static", value_name = "DIR")]
    pub static_dir: Option<PathBuf>,
    /// Longest line stored whole, in bytes; longer lines become an error row. The default is
    /// the limit of `hiveterm classify` and the page.
    #[arg(long, default_value_t = classifier::lines::MAX_LINE_BYTES)]
    pub max_line_bytes: usize,
    /// Largest POST body, in bytes; larger is refused with 413. Default: the line limit plus
    /// 1 MiB; it must be above the line limit (a longest line and its newline).
    #[arg(long)]
    pub max_request_bytes: Option<usize>,
    /// Your own prices over the built-in table (a JSON file, docs/CLI.md#prices): the cost
    /// of a session whose log states none is estimated with them.
    #[arg(long, value_name = "FILE")]
    pub prices: Option<PathBuf>,
}

/// `hiveterm serve` only.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub options: ServeOptions,
    /// Follow these growing .jsonl logs (any supported format), one session each.
    #[arg(long, num_args = 1..)]
    pub follow: Vec<PathBuf>,
    /// Import and follow every agent log under this folder, at any depth (repeatable): one
    /// session per log file, subagents' files in their session (docs/CLI.md).
    #[arg(long, value_name = "DIR")]
    pub watch: Vec<PathBuf>,
    /// Watch the agents' default folders of the user running it: ~/.claude/projects,
    /// ~/.codex/sessions, ~/.gemini/tmp, ~/.qwen/projects, ~/.copilot/session-state; and
    /// OpenCode's store.
    #[arg(long)]
    pub agents: bool,
    /// Read a log from standard input as one session.
    #[arg(long)]
    pub stdin: bool,
    /// Load the bundled demo logs as sessions.
    #[arg(long)]
    pub demo: bool,
    /// Post the --follow logs to the hiveterm at this URL (`http://host:port`) instead of
    /// serving them: no database, no listening; retried and resumed (docs/DEPLOY.md). The
    /// token (--token, --token-file, HIVETERM_TOKEN) is the remote's.
    #[arg(long, value_name = "URL", requires = "follow", conflicts_with_all = ["stdin", "demo", "watch", "agents"])]
    pub to: Option<String>,
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
    /// Post the session to the hiveterm at this URL (`http://host:port`) instead of storing
    /// and serving it: no database, no listening; retried (docs/DEPLOY.md). Exits when the
    /// command has exited and every line is stored. The token is the remote's.
    #[arg(long, value_name = "URL")]
    pub to: Option<String>,
    /// The agent command and its arguments.
    #[arg(last = true, required = true, num_args = 1..)]
    pub command: Vec<String>,
}

/// A running server.
pub(super) struct Running {
    state: AppState,
    pub(super) store: Store,
    url: String,
    /// The token in force, if any.
    pub(super) token: Option<String>,
    server: tokio::task::JoinHandle<std::io::Result<()>>,
    stop_http: Arc<tokio::sync::Notify>,
    /// The SQLite file, held (locked) until the process ends.
    _db_lock: Option<std::fs::File>,
}

/// Shortest token accepted.
pub const MIN_TOKEN_LEN: usize = 16;

/// The token from `--token`, `--token-file` or `HIVETERM_TOKEN` (in that order), checked.
pub(super) fn token(options: &ServeOptions) -> Result<Option<String>, String> {
    let (token, from) = if let Some(t) = &options.token {
        (Some(t.clone()), "--token")
    } else if let Some(path) = &options.token_file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the token file {}: {e}", path.display()))?;
        (
            Some(text.lines().next().unwrap_or("").trim().to_owned()),
            "the token file",
        )
    } else {
        (std::env::var("HIVETERM_TOKEN").ok(), "HIVETERM_TOKEN")
    };
    checked(token, from)
}

/// `token` (from `from`) if it is strong enough: [`MIN_TOKEN_LEN`] characters without
/// spaces, [`MIN_TOKEN_DISTINCT`] of them different.
fn checked(token: Option<String>, from: &str) -> Result<Option<String>, String> {
    match token {
        Some(t) if t.chars().count() < MIN_TOKEN_LEN || t.chars().any(char::is_whitespace) => {
            Err(format!(
                "the token from {from} is too short or has spaces: use at least {MIN_TOKEN_LEN} characters without spaces (e.g. `openssl rand -hex 16`)"
            ))
        }
        Some(t) if distinct_chars(&t) < MIN_TOKEN_DISTINCT => Err(format!(
            "the token from {from} has too few different characters ({} of at least {MIN_TOKEN_DISTINCT}): use a random one (e.g. `openssl rand -hex 16`)",
            distinct_chars(&t)
        )),
        t => Ok(t),
    }
}

/// Fewest different characters a token may have: `aaaaaaaaaaaaaaaa` or `abababababababab`
/// is long enough but guessed at once. A random token of 16 hex digits has fewer only about
/// once in 30,000 draws, one of 32 practically never.
pub const MIN_TOKEN_DISTINCT: usize = 6;

/// How many different characters `token` has.
fn distinct_chars(token: &str) -> usize {
    let mut chars: Vec<char> = token.chars().collect();
    chars.sort_unstable();
    chars.dedup();
    chars.len()
}

/// The database as logged: a PostgreSQL URL without its user and password.
fn db_label(db: &str) -> String {
    match db.split_once("://") {
        Some((scheme, rest)) if crate::store::is_postgres(db) => {
            let host = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
            format!("{scheme}://{host}")
        }
        _ => db.to_owned(),
    }
}

/// Creates the database file readable by its owner only (and makes an existing one so,
/// with its `-wal` and `-shm`), then takes an exclusive lock on it for this process's life:
/// a second server on the same file would end the first's live sessions.
fn lock_db(db: &std::path::Path) -> Result<std::fs::File, String> {
    use std::os::unix::fs::{OpenOptionsExt as _, PermissionsExt as _};
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .open(db)
        .map_err(|e| format!("cannot open {}: {e}", db.display()))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            return Err(format!(
                "{} is in use by another hiveterm (one server per database file): stop it, or pass another --db",
                db.display()
            ));
        }
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(format!("cannot lock {}: {e}", db.display()));
        }
    }
    for suffix in ["", "-wal", "-shm"] {
        let mut path = db.as_os_str().to_owned();
        path.push(suffix);
        let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600));
    }
    Ok(file)
}

pub(super) async fn start(options: &ServeOptions) -> Result<Running, String> {
    let token = token(options)?;
    if !options.addr.ip().is_loopback() && token.is_none() {
        return Err(format!(
            "listening on {} (beyond loopback) requires --token",
            options.addr
        ));
    }
    let max_line_bytes = options.max_line_bytes.max(1);
    let max_request_bytes = options
        .max_request_bytes
        .unwrap_or_else(|| crate::state::request_limit_for(max_line_bytes));
    if max_request_bytes <= max_line_bytes {
        return Err(format!(
            "--max-request-bytes {max_request_bytes} is not above --max-line-bytes \
             {max_line_bytes}: a line stored whole could not be posted"
        ));
    }
    let postgres = crate::store::is_postgres(&options.db);
    // Replicas share a PostgreSQL database; a SQLite file is this process's alone.
    let db_lock = if postgres {
        None
    } else {
        Some(lock_db(std::path::Path::new(&options.db))?)
    };
    let db_name = db_label(&options.db);
    let store = Store::open_db(&options.db, crate::store::CHECKPOINT_EVERY)
        .map_err(|e| format!("cannot open {db_name}: {e}"))?;
    let listener = TcpListener::bind(options.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", options.addr))?;
    let local = listener
        .local_addr()
        .map_err(|e| format!("cannot listen on {}: {e}", options.addr))?;
    let config = Config {
        max_line_bytes,
        max_request_bytes,
        token: token.clone(),
        static_dir: options
            .static_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from("dist")),
        page: if options.static_dir.is_none() {
            crate::page::embedded()
        } else {
            None
        },
        perimeter: Perimeter {
            port: Some(local.port()),
            public_names: options.public_names.clone(),
        },
        ..Config::default()
    };
    let state = AppState::new(store.clone(), config);
    let host = if local.ip().is_unspecified() {
        SocketAddr::new([127, 0, 0, 1].into(), local.port())
    } else {
        local
    };
    let url = format!("http://{host}/");
    let stop_http = Arc::new(tokio::sync::Notify::new());
    let stop = stop_http.clone();
    let router = app(state.clone());
    let limits = Limits::for_fd_limit(guard::raise_fd_limit());
    let server = tokio::spawn(guard::serve_connections(
        listener,
        router,
        limits,
        async move { stop.notified().await },
    ));
    tracing::info!(
        "database {db_name}; at most {} connections; the page {}",
        limits.max_connections,
        match (&state.config().page, &options.static_dir) {
            (Some(_), _) => "this binary carries".to_owned(),
            (None, Some(dir)) => format!("in {}", dir.display()),
            (None, None) => "in dist/ (this binary carries none)".to_owned(),
        }
    );
    Ok(Running {
        state,
        store,
        url,
        token,
        server,
        stop_http,
        _db_lock: db_lock,
    })
}

impl Running {
    /// The URL of a path, with the token when there is one.
    pub(super) fn link(&self, path: &str, token: Option<&str>) -> String {
        let mut url = format!("{}{}", self.url, path.trim_start_matches('/'));
        if let Some(token) = token {
            url.push_str(&format!("?token={token}"));
        }
        url
    }

    pub(super) async fn stop(self) {
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

pub(super) async fn ctrl_c() {
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(token: &str) -> Result<Option<String>, String> {
        checked(Some(token.to_owned()), "--token")
    }

    #[test]
    fn a_token_of_few_characters_is_refused_and_a_random_one_passes() {
        for weak in [
            "aaaaaaaaaaaaaaaa",
            "abababababababab",
            "abcdeabcdeabcdeabcde",
        ] {
            let err = check(weak).unwrap_err();
            assert!(err.contains("too few different characters"), "{err}");
        }
        assert!(check("0123456789abcdef").is_ok());
        // 10,000 random 32-character tokens, hex and URL-safe base64 alike, all pass.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let hex = b"0123456789abcdef";
        let b64 = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        for _ in 0..5_000 {
            for alphabet in [&hex[..], &b64[..]] {
                let t: String = (0..32)
                    .map(|_| char::from(alphabet[next(alphabet.len())]))
                    .collect();
                assert_eq!(check(&t), Ok(Some(t.clone())));
            }
        }
    }
}
