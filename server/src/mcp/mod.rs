//! `hiveterm mcp`: a Model Context Protocol server on stdio (JSON-RPC 2.0, through the
//! official SDK, `rmcp`) that lets a coding agent look things up in the sessions a server
//! stores: read-only, over the same database (a SQLite file or a `postgres://` URL), opened as
//! the one-shot commands open it ([`Store::open_admin`]: no start-up work, so it is safe beside
//! a serving `hiveterm`).
//!
//! - this file: the command's options ([`Args`]), the stdio loop ([`run`]) and the handler
//!   (`initialize`, `tools/list`, `tools/call`, `resources/list`, `resources/read`,
//!   `resources/templates/list`);
//! - [`tools`]: each tool's name, description and JSON schema (what `tools/list` answers);
//! - [`answer`]: each tool's answer, through the functions behind the HTTP API (`search`:
//!   `crate::search`; `list_sessions`: `crate::index::api::sessions_page`; `session_summary`:
//!   the session's fold at its newest event, as a snapshot share reads it; `session_rows`: the
//!   history pages, `Store::history_page`; `notes`: `crate::notes::api::notes_page`), so an
//!   answer is the HTTP API's on the same database;
//! - [`resources`]: each session as a resource, `hiveterm://session/<id>` (`resources/list`,
//!   a page at a time; `resources/read`, its summary; `resources/templates/list`);
//! - [`bound`]: arguments read, answers kept under a size in bytes (with a cursor to go on),
//!   bodies cut, and what is returned redacted.
//!
//! **Redaction** is on unless `--no-redact`: an agent's context goes to a model provider.
//! Rows and summaries come from the session's raw events redacted and then folded, as a
//! redacted share's do (`crate::redacted`); search hits, index entries and notes have their
//! strings passed through `classifier::redact::redact_text` (session ids are kept: the agent
//! needs them for the next call).

mod answer;
mod bound;
mod resources;
mod tools;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    InitializeResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, ServiceExt};

use crate::redacted;
use crate::store::Store;

/// Arguments of `hiveterm mcp`.
#[derive(clap::Args)]
#[command(after_long_help = SETUP)]
pub struct Args {
    /// The database: a SQLite file or a `postgres://` URL (as `hiveterm serve --db`).
    #[arg(long, env = "HIVETERM_DB", default_value = "hiveterm.db")]
    pub db: String,
    /// Return rows, summaries, hits and notes as stored, secrets and all (redacted by default:
    /// what a tool returns goes into the agent's context, and so to its model's provider).
    #[arg(long)]
    pub no_redact: bool,
}

/// How to add it to an agent (`hiveterm mcp --help`; docs/CLI.md says more).
const SETUP: &str = "\
Add it to an agent (give the absolute path of the database):

  Claude Code:  claude mcp add hiveterm -- hiveterm mcp --db /path/to/hiveterm.db
                (or in .mcp.json: {\"mcpServers\": {\"hiveterm\": {\"command\": \"hiveterm\",
                 \"args\": [\"mcp\", \"--db\", \"/path/to/hiveterm.db\"]}}})
                (claude -p asks no permission: add --allowedTools mcp__hiveterm)
  Codex CLI:    in ~/.codex/config.toml:
                  [mcp_servers.hiveterm]
                  command = \"hiveterm\"
                  args = [\"mcp\", \"--db\", \"/path/to/hiveterm.db\"]
                (or: codex mcp add hiveterm -- hiveterm mcp --db /path/to/hiveterm.db)
  Gemini CLI:   gemini mcp add --scope user hiveterm hiveterm mcp --db /path/to/hiveterm.db
                (or in ~/.gemini/settings.json, or .gemini/settings.json of a project:
                 {\"mcpServers\": {\"hiveterm\": {\"command\": \"hiveterm\",
                  \"args\": [\"mcp\", \"--db\", \"/path/to/hiveterm.db\"]}}})

Tools: search, list_sessions, session_summary, session_rows, notes.
Resources: hiveterm://session/<id>, each session's summary (resources/list pages them).";

/// Serves MCP on stdin/stdout until the client closes stdin.
pub fn run(args: &Args) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    // A wrong path in an agent's configuration should say so, not answer from a new empty file.
    if !crate::store::is_postgres(&args.db) && !std::path::Path::new(&args.db).is_file() {
        return Err(format!("{}: no such database", args.db));
    }
    rt.block_on(async {
        let store = Store::open_admin(&args.db).map_err(|e| format!("{}: {e}", args.db))?;
        let server = Server(answer::Reader {
            store: store.clone(),
            redact: !args.no_redact,
            redactions: redacted::Cache::default(),
        });
        let served = server
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| format!("mcp: {e}"));
        let result = match served {
            Ok(running) => running
                .waiting()
                .await
                .map(|_| ())
                .map_err(|e| format!("mcp: {e}")),
            Err(e) => Err(e),
        };
        store.close().await;
        result
    })
}

/// The handler, over what the tools read.
struct Server(answer::Reader);

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .build();
        InitializeResult::new(capabilities)
            .with_server_info(Implementation::new("hiveterm", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "The AI coding agent sessions hiveterm stores. `search` finds the rows that \
                 hold a text (an error, a path, a command) in every session; \
                 `list_sessions` lists sessions; `session_summary` says how one went; \
                 `session_rows` reads its rows by seq; `notes` reads what people noted on it. \
                 Answers are JSON; a non-null `next` is the cursor of the rest. Each session \
                 is also a resource, hiveterm://session/<id>, read as its summary.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools::all()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if !tools::NAMES.contains(&&*request.name) {
            return Err(ErrorData::invalid_params(
                format!("no tool {}", request.name),
                None,
            ));
        }
        let args = request.arguments.unwrap_or_default();
        let result = match answer::call(&self.0, &request.name, &args).await {
            Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
            Err(message) => CallToolResult::error(vec![ContentBlock::text(message)]),
        };
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        resources::list(&self.0, request.and_then(|r| r.cursor)).await
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(resources::templates())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        Ok(resources::read(&self.0, &request.uri).await?.into())
    }
}
