//! The sessions' index: what each session's log says of it — agent and version, project (the
//! cwd the log gives), model, the log's own start and end, its title, how it ended (its
//! status), turns, errors, tokens, cost and first error — kept as columns of the `sessions`
//! table, the same on both backends (`GET /api/sessions`, `GET /api/usage`, `hiveterm usage`).
//!
//! Where each comes from:
//! - agent, version, model, turns, errors, first error, tokens, cost, the log's start and
//!   end: the session's postmortem summary fold ([`classifier::SummaryFold`], what
//!   `hiveterm summary --json` says of the same log); the model is the first one the log
//!   names (Claude Code's `init`, Codex's `turn_context`), else the model badge;
//! - project, title and how the last turn ended: [`IndexFold`], part of the session's fold
//!   (`crate::fold`) and checkpointed with it. The project is the first `cwd` the log gives
//!   (Claude Code's lines and `init`, Codex's `session_meta` and `turn_context`); Gemini and
//!   hyperhive logs give none (`null`).
//!
//! **Title.** The agent's own title record wins: Claude Code's `custom-title` (the user named
//! it), then `ai-title`, then `summary` lines; Codex's `thread_name_updated` event. Else the
//! session keeps the title its client gave when it made it (`hiveterm run --title`,
//! `POST …/events?title=`) — unless that title is only a placeholder: the session's id, a path
//! or file name (`--follow` titles a session with its path), `standard input`, or empty; then
//! the log's first prompt, one line of at most [`TITLE_CHARS`] characters (a prompt that opens
//! with an injected `<environment_context>`-style block is not one). The title the client gave
//! is kept (`given_title`), so the rule is applied again whenever the log says more, and by the
//! derived-table rebuild.
//!
//! **Status** ([`status`], and [`STATUS_SQL`] for filters): `in flight` while a turn is open on
//! a live session; an ended session whose turn was still open was `interrupted`; else how the
//! last turn ended (`ok`, `failed`, `interrupted`); a session with no ended turn is `live`
//! while it is live, and once ended `failed` if it has error rows, else `ok`. What the log
//! says is stored (`outcome`: `in flight`, `ok`, `failed`, `interrupted` or null), the rest
//! read with the session's `ended`, so ending a session needs no other write.
//!
//! The writers update the columns from the fold after each append, in its transaction, when
//! [`Index::of`] changed; the derived-table rebuild (`crate::store::derived`) sets them again
//! from the fold of every session.

use classifier::{LiveEvent, LogEvent, RowKind, TermEnvelope, row_kind};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::fold::SessionFold;
use crate::hub::SessionInfo;

/// Longest title made from a prompt, in characters (then `…`).
pub const TITLE_CHARS: usize = 100;

/// The part of a session's fold the index needs beyond the summary: the project, the title
/// record or first prompt, and how the last turn ended.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct IndexFold {
    /// The first `cwd` the log gives.
    pub project: Option<String>,
    /// The agent's own title record: its rank (higher wins, a later one of the same rank
    /// replaces) and the title.
    pub record: Option<(u8, String)>,
    /// The first prompt, shortened to one line.
    pub prompt: Option<String>,
    /// A turn is open.
    pub in_flight: bool,
    /// How the last turn ended: `ok`, `failed`, `interrupted`.
    pub last_end: Option<String>,
}

/// Longest project path or title record kept, in characters.
const MAX_FIELD_CHARS: usize = 1000;

impl IndexFold {
    /// Folds in one event and the envelope it classified to.
    pub fn add(&mut self, event: &LogEvent, env: &TermEnvelope) {
        match &event.event {
            LiveEvent::Stream { value } => self.claude(value),
            LiveEvent::Codex { value } => self.codex(value),
            _ => {}
        }
        if env.parent.is_some() {
            return;
        }
        for msg in &env.msgs {
            let kind = row_kind(msg);
            match kind {
                RowKind::TurnStart => self.in_flight = true,
                RowKind::TurnOk | RowKind::TurnFail | RowKind::Interrupted => {
                    self.in_flight = false;
                    self.last_end = Some(
                        match kind {
                            RowKind::TurnOk => "ok",
                            RowKind::TurnFail => "failed",
                            _ => "interrupted",
                        }
                        .to_owned(),
                    );
                }
                _ => {}
            }
            let prompt_row = kind == RowKind::TurnStart
                || (msg.icon.is_none() && msg.summary.starts_with("prompt ← "));
            if self.prompt.is_none()
                && prompt_row
                && let Some(body) = msg.body.as_deref()
            {
                self.prompt = prompt_title(body);
            }
        }
    }

    fn project(&mut self, cwd: Option<&Value>) {
        if self.project.is_none()
            && let Some(cwd) = cwd.and_then(Value::as_str).filter(|c| !c.trim().is_empty())
        {
            self.project = Some(cut(cwd.trim(), MAX_FIELD_CHARS));
        }
    }

    fn record(&mut self, rank: u8, title: Option<&Value>) {
        let Some(title) = title.and_then(Value::as_str).and_then(one_line) else {
            return;
        };
        if self.record.as_ref().is_none_or(|(r, _)| rank >= *r) {
            self.record = Some((rank, cut(&title, MAX_FIELD_CHARS)));
        }
    }

    fn claude(&mut self, value: &Value) {
        self.project(value.get("cwd"));
        match value.get("type").and_then(Value::as_str) {
            Some("custom-title") => self.record(3, value.get("customTitle").or(value.get("title"))),
            Some("ai-title") => self.record(2, value.get("aiTitle").or(value.get("title"))),
            Some("summary") => self.record(1, value.get("summary")),
            _ => {}
        }
    }

    fn codex(&mut self, value: &Value) {
        let payload = value.get("payload");
        match value.get("type").and_then(Value::as_str) {
            Some("session_meta" | "turn_context") => {
                self.project(payload.and_then(|p| p.get("cwd")));
            }
            Some("event_msg")
                if payload.and_then(|p| p.get("type")).and_then(Value::as_str)
                    == Some("thread_name_updated") =>
            {
                self.record(3, payload.and_then(|p| p.get("thread_name")));
            }
            _ => {}
        }
    }
}

/// `s` cut to `max` characters, with `…`.
fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_owned(),
        Some((at, _)) => format!("{}…", &s[..at]),
    }
}

/// The first non-blank line of `text`, its whitespace collapsed; `None` when there is none.
fn one_line(text: &str) -> Option<String> {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    Some(line.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// A prompt as a title: its first line, at most [`TITLE_CHARS`] characters; `None` for a
/// prompt that is a client's injected block (`<environment_context>`, `<user_instructions>`,
/// a slash command's `<command-name>`…).
pub fn prompt_title(body: &str) -> Option<String> {
    let trimmed = body.trim_start();
    if let Some(rest) = trimmed.strip_prefix('<')
        && rest
            .split_once('>')
            .is_some_and(|(tag, _)| !tag.is_empty() && tag.chars().all(is_tag_char))
    {
        return None;
    }
    one_line(trimmed).map(|l| cut(&l, TITLE_CHARS))
}

fn is_tag_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ':' | '/')
}

/// Whether a client's title says nothing of the session: empty, its id, `standard input`, a
/// path or a file name (`--follow` titles a session with its path).
pub fn is_placeholder(title: &str, id: &str) -> bool {
    let t = title.trim();
    if t.is_empty() || t == id || t == "standard input" {
        return true;
    }
    let pathish = !t.contains(char::is_whitespace) && (t.contains('/') || t.contains('\\'));
    let file = !t.contains(char::is_whitespace)
        && [".jsonl", ".json", ".log", ".zst", ".txt", ".ndjson"]
            .iter()
            .any(|ext| t.to_ascii_lowercase().ends_with(ext));
    pathish || file
}

/// The title a session shows: its log's title record, else the title its client gave unless
/// that is a placeholder ([`is_placeholder`]), then the log's first prompt.
pub fn title(given: &str, id: &str, fold: &IndexFold) -> String {
    if let Some((_, record)) = &fold.record {
        return record.clone();
    }
    match &fold.prompt {
        Some(prompt) if is_placeholder(given, id) => prompt.clone(),
        _ => given.to_owned(),
    }
}

/// A session's index columns, as the fold says them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Index {
    pub agent: Option<String>,
    pub agent_version: Option<String>,
    pub project: Option<String>,
    pub model: Option<String>,
    /// The log's first and last times (unix seconds).
    pub started_at: Option<f64>,
    pub ended_at: Option<f64>,
    /// How the log says the session stands: `in flight`, `ok`, `failed`, `interrupted`, or
    /// `None` (no turn ended, none open).
    pub outcome: Option<String>,
    pub turns: u64,
    pub errors: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cache_read_tokens: u64,
    pub cache_creation_tokens: u64,
    /// US dollars; `None`: the log never says.
    pub cost: Option<f64>,
    /// The seq of the first envelope with an error row.
    pub first_error: Option<u64>,
}

impl Index {
    /// The columns of a session whose events folded into `fold`.
    pub fn of(fold: &SessionFold) -> Index {
        let s = fold.summary.summary_head(0);
        let model = s.models.first().cloned().or_else(|| {
            fold.badges
                .model
                .as_ref()
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
        let outcome = if fold.index.in_flight {
            Some("in flight".to_owned())
        } else {
            fold.index.last_end.clone()
        };
        Index {
            agent: s.agent,
            agent_version: s.agent_version,
            project: fold.index.project.clone(),
            model,
            started_at: s.started_at,
            ended_at: s.ended_at,
            outcome,
            turns: s.turns,
            errors: s.errors,
            input_tokens: s.input_tokens,
            output_tokens: s.output_tokens,
            cache_read_tokens: s.cache_read_tokens,
            cache_creation_tokens: s.cache_creation_tokens,
            cost: s.cost_usd.filter(|c| c.is_finite()),
            first_error: s.first_error_seq,
        }
    }

    /// Seconds from the log's first time to its last.
    pub fn duration(&self) -> Option<f64> {
        self.started_at
            .zip(self.ended_at)
            .map(|(a, b)| ((b - a) * 1000.0).round() / 1000.0)
    }
}

/// The statuses, as `?status=` takes them.
pub const STATUSES: [&str; 5] = ["live", "in flight", "ok", "failed", "interrupted"];

/// A session's status: how its log says it stands (`outcome`), whether it has ended, and
/// its error rows (see the module's doc).
pub fn status(outcome: Option<&str>, ended: bool, errors: u64) -> &'static str {
    match outcome {
        Some("in flight") if ended => "interrupted",
        Some("in flight") => "in flight",
        Some("ok") => "ok",
        Some("failed") => "failed",
        Some(_) => "interrupted",
        None if !ended => "live",
        None if errors > 0 => "failed",
        None => "ok",
    }
}

/// [`status`] as SQL over a `sessions` row (both backends).
pub const STATUS_SQL: &str = "(CASE WHEN outcome = 'in flight' AND ended IS NULL THEN 'in flight' \
     WHEN outcome = 'in flight' THEN 'interrupted' \
     WHEN outcome IS NOT NULL THEN outcome \
     WHEN ended IS NULL THEN 'live' \
     WHEN errors > 0 THEN 'failed' ELSE 'ok' END)";

/// What a session's row should say once its events folded into `fold`: its title ([`title`],
/// `given` the title its client gave) and its index columns.
pub fn row_of(id: &str, given: &str, fold: &SessionFold) -> (String, Index) {
    (title(given, id, &fold.index), Index::of(fold))
}

/// A session as the index lists it: its row and its index columns.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub info: SessionInfo,
    pub index: Index,
}

impl Entry {
    /// The session's status.
    pub fn status(&self) -> &'static str {
        status(
            self.index.outcome.as_deref(),
            self.info.ended.is_some(),
            self.index.errors,
        )
    }

    /// Its JSON in `GET /api/sessions` (docs/API.md).
    pub fn to_json(&self) -> Value {
        let (i, x) = (&self.info, &self.index);
        json!({
            "id": i.id,
            "title": i.title,
            "source": i.source,
            "started": i.started,
            "ended": i.ended,
            "live": i.live,
            "last_seq": i.last_seq,
            "agent": x.agent,
            "agent_version": x.agent_version,
            "project": x.project,
            "model": x.model,
            "status": self.status(),
            "started_at": x.started_at,
            "ended_at": x.ended_at,
            "duration": x.duration(),
            "turns": x.turns,
            "errors": x.errors,
            "first_error": x.first_error,
            "tokens": {
                "input": x.input_tokens,
                "output": x.output_tokens,
                "cache_read": x.cache_read_tokens,
                "cache_creation": x.cache_creation_tokens,
            },
            "cost": x.cost,
        })
    }
}

/// How `GET /api/sessions` sorts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sort {
    /// By `started` (when the session was made), newest first.
    #[default]
    Newest,
    /// By cost, highest first (unknown last).
    Cost,
    /// By error rows, most first.
    Errors,
}

impl Sort {
    /// From `?sort=`.
    pub fn parse(s: &str) -> Option<Sort> {
        match s {
            "newest" => Some(Sort::Newest),
            "cost" => Some(Sort::Cost),
            "errors" => Some(Sort::Errors),
            _ => None,
        }
    }

    /// The sort key before `started` and id, as SQL (`None`: newest).
    pub fn key_sql(self) -> Option<&'static str> {
        match self {
            Sort::Newest => None,
            Sort::Cost => Some("COALESCE(cost, -1.0)"),
            Sort::Errors => Some("errors"),
        }
    }

    /// A row's sort key (what [`Sort::key_sql`] gives).
    pub fn key_of(self, e: &Entry) -> Option<f64> {
        match self {
            Sort::Newest => None,
            Sort::Cost => Some(e.index.cost.unwrap_or(-1.0)),
            Sort::Errors => Some(e.index.errors as f64),
        }
    }
}

/// Where a page of the index starts: after the row with this key, `started` and id.
#[derive(Debug, Clone, PartialEq)]
pub struct Cursor {
    pub key: Option<f64>,
    pub started: f64,
    pub id: String,
}

impl Cursor {
    /// The cursor after `e`, for `sort`.
    pub fn after(sort: Sort, e: &Entry) -> Cursor {
        Cursor {
            key: sort.key_of(e),
            started: e.info.started,
            id: e.info.id.clone(),
        }
    }

    /// As text: `started~id`, with `key~` before it for the sorts that have a key.
    pub fn to_text(&self) -> String {
        match self.key {
            None => format!("{}~{}", self.started, self.id),
            Some(k) => format!("{k}~{}~{}", self.started, self.id),
        }
    }

    /// Read back for `sort`; `None` when it is not one.
    pub fn parse(sort: Sort, text: &str) -> Option<Cursor> {
        let num = |t: &str| t.parse::<f64>().ok().filter(|x| x.is_finite());
        let (key, rest) = match sort {
            Sort::Newest => (None, text),
            _ => {
                let (k, rest) = text.split_once('~')?;
                (Some(num(k)?), rest)
            }
        };
        let (started, id) = rest.split_once('~')?;
        Some(Cursor {
            key,
            started: num(started)?,
            id: id.to_owned(),
        })
    }
}

/// What `GET /api/sessions` asks of the index.
#[derive(Debug, Clone, Default)]
pub struct Query {
    /// One session only (`GET /api/sessions/{id}`).
    pub id: Option<String>,
    pub agent: Option<String>,
    pub project: Option<String>,
    pub status: Option<String>,
    /// A substring of the title, case-insensitively (ASCII); `%` and `_` are plain.
    pub q: Option<String>,
    pub sort: Sort,
    pub after: Option<Cursor>,
    pub limit: usize,
}

/// A value bound to a statement, whichever backend.
#[derive(Debug, Clone)]
pub enum Arg {
    Text(Option<String>),
    Real(Option<f64>),
    Int(Option<i64>),
}

/// `n` as a database integer (saturating).
pub fn int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The statement that sets a session's title and index columns: `ph(n)` writes placeholder
/// `n`; its arguments are [`update_args`].
pub fn update_sql(ph: impl Fn(usize) -> String) -> String {
    let sets: Vec<String> = std::iter::once("title")
        .chain(INDEX_COLUMNS.split(", "))
        .enumerate()
        .map(|(i, c)| format!("{c} = {}", ph(i + 2)))
        .collect();
    format!(
        "UPDATE sessions SET {} WHERE id = {}",
        sets.join(", "),
        ph(1)
    )
}

/// The arguments of [`update_sql`].
pub fn update_args(id: &str, title: &str, x: &Index) -> Vec<Arg> {
    let text = |s: &Option<String>| Arg::Text(s.clone());
    vec![
        Arg::Text(Some(id.to_owned())),
        Arg::Text(Some(title.to_owned())),
        text(&x.agent),
        text(&x.agent_version),
        text(&x.project),
        text(&x.model),
        Arg::Real(x.started_at),
        Arg::Real(x.ended_at),
        text(&x.outcome),
        Arg::Int(Some(int(x.turns))),
        Arg::Int(Some(int(x.errors))),
        Arg::Int(Some(int(x.input_tokens))),
        Arg::Int(Some(int(x.output_tokens))),
        Arg::Int(Some(int(x.cache_read_tokens))),
        Arg::Int(Some(int(x.cache_creation_tokens))),
        Arg::Real(x.cost),
        Arg::Int(x.first_error.map(int)),
    ]
}

/// The columns of a session row (`SessionInfo`, in the backends' `session_row` order): the
/// last is the title its client gave.
pub const SESSION_COLUMNS: &str =
    "id, title, source, started, ended, last_seq, COALESCE(given_title, title)";

/// The columns of an index row, in [`Index`]'s order after [`SESSION_COLUMNS`].
pub const INDEX_COLUMNS: &str = "agent, agent_version, project, model, started_at, ended_at, \
     outcome, turns, errors, input_tokens, output_tokens, cache_read_tokens, \
     cache_creation_tokens, cost, first_error";

/// The SQL of a page of the index and its arguments; `ph(n)` writes placeholder `n` (from 1),
/// `instr` is the backend's substring position function (`instr`, `strpos`).
pub fn page_sql(query: &Query, instr: &str, ph: impl Fn(usize) -> String) -> (String, Vec<Arg>) {
    let mut args: Vec<Arg> = Vec::new();
    let mut bind = |a: Arg| {
        args.push(a);
        ph(args.len())
    };
    let mut wheres: Vec<String> = Vec::new();
    if let Some(id) = &query.id {
        wheres.push(format!("id = {}", bind(Arg::Text(Some(id.clone())))));
    }
    if let Some(agent) = &query.agent {
        wheres.push(format!("agent = {}", bind(Arg::Text(Some(agent.clone())))));
    }
    if let Some(project) = &query.project {
        wheres.push(format!(
            "project = {}",
            bind(Arg::Text(Some(project.clone())))
        ));
    }
    if let Some(status) = &query.status {
        wheres.push(format!(
            "{STATUS_SQL} = {}",
            bind(Arg::Text(Some(status.clone())))
        ));
    }
    if let Some(q) = &query.q {
        // `instr`/`strpos` are plain substring searches: no pattern characters.
        // The same `LOWER` on both sides (SQLite's folds ASCII only, PostgreSQL's more).
        let q = bind(Arg::Text(Some(q.clone())));
        wheres.push(format!("{instr}(LOWER(title), LOWER({q})) > 0"));
    }
    let key = query.sort.key_sql();
    let cols = format!("{SESSION_COLUMNS}, {INDEX_COLUMNS}");
    let filter = |more: &[String]| {
        let all: Vec<&String> = wheres.iter().chain(more).collect();
        if all.is_empty() {
            String::new()
        } else {
            format!(
                "WHERE {}",
                all.iter()
                    .map(|w| w.as_str())
                    .collect::<Vec<_>>()
                    .join(" AND ")
            )
        }
    };
    let after = query.after.as_ref().map(|c| {
        let s = bind(Arg::Real(Some(c.started)));
        let id = bind(Arg::Text(Some(c.id.clone())));
        let k = match (key, c.key) {
            (Some(_), Some(k)) => Some(bind(match query.sort {
                Sort::Errors => Arg::Int(Some(k as i64)),
                _ => Arg::Real(Some(k)),
            })),
            _ => None,
        };
        (
            format!("started <= {s} AND (started < {s} OR (started = {s} AND id > {id}))"),
            k,
        )
    });
    let limit = bind(Arg::Int(Some(int(query.limit as u64))));
    let sql = match (key, after) {
        (None, None) => format!(
            "SELECT {cols} FROM sessions {} ORDER BY started DESC, id LIMIT {limit}",
            filter(&[])
        ),
        (None, Some((tail, _))) | (Some(_), Some((tail, None))) => format!(
            "SELECT {cols} FROM sessions {} ORDER BY started DESC, id LIMIT {limit}",
            filter(&[tail])
        ),
        (Some(key), None) => format!(
            "SELECT {cols} FROM sessions {} ORDER BY {key} DESC, started DESC, id LIMIT {limit}",
            filter(&[])
        ),
        // After a cursor, the rest of its key's run and the keys below it, each read from
        // the sort's index from where it starts (one condition with an OR would scan the
        // whole run before the cursor: most sessions have 0 errors), then merged.
        (Some(key), Some((tail, Some(k)))) => format!(
            "SELECT * FROM (SELECT {cols}, {key} AS sort_key FROM sessions {} \
             ORDER BY started DESC, id LIMIT {limit}) AS same_key \
             UNION ALL \
             SELECT * FROM (SELECT {cols}, {key} AS sort_key FROM sessions {} \
             ORDER BY {key} DESC, started DESC, id LIMIT {limit}) AS lower_keys \
             ORDER BY sort_key DESC, started DESC, id LIMIT {limit}",
            filter(&[format!("{key} = {k}"), tail]),
            filter(&[format!("{key} < {k}")]),
        ),
    };
    (sql, args)
}

/// How `GET /api/usage` groups sessions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum By {
    /// The UTC day the session started (the log's first time, else when it was made).
    #[default]
    Day,
    Agent,
    Model,
    Project,
}

impl By {
    /// From `?by=` / `--by`.
    pub fn parse(s: &str) -> Option<By> {
        match s {
            "day" => Some(By::Day),
            "agent" => Some(By::Agent),
            "model" => Some(By::Model),
            "project" => Some(By::Project),
            _ => None,
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            By::Day => "day",
            By::Agent => "agent",
            By::Model => "model",
            By::Project => "project",
        }
    }
}

/// One group of `GET /api/usage`: the sums of its sessions' index columns.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct UsageGroup {
    /// The day (`YYYY-MM-DD`), agent, model or project; `null`: the log does not say.
    pub key: Option<String>,
    pub sessions: u64,
    pub tokens: Tokens,
    /// The sum of the costs known; `null` when no session's is.
    pub cost: Option<f64>,
    /// Sessions whose cost is unknown (their logs never say).
    pub cost_unknown: u64,
}

/// Token sums.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Tokens {
    pub input: u64,
    pub output: u64,
    pub cache_read: u64,
    pub cache_creation: u64,
}

impl UsageGroup {
    /// Adds `o` into this one (for the total).
    pub fn add(&mut self, o: &UsageGroup) {
        self.sessions += o.sessions;
        self.tokens.input += o.tokens.input;
        self.tokens.output += o.tokens.output;
        self.tokens.cache_read += o.tokens.cache_read;
        self.tokens.cache_creation += o.tokens.cache_creation;
        self.cost = match (self.cost, o.cost) {
            (Some(a), Some(b)) => Some(a + b),
            (a, b) => a.or(b),
        };
        self.cost_unknown += o.cost_unknown;
    }
}

/// The JSON of `GET /api/usage` and `hiveterm usage --json`: `{"by", "since", "groups",
/// "total"}`.
pub fn usage_json(by: By, since: Option<f64>, groups: &[UsageGroup]) -> Value {
    let mut total = UsageGroup::default();
    for g in groups {
        total.add(g);
    }
    json!({"by": by.name(), "since": since, "groups": groups, "total": total})
}

/// The SQL of usage by `by` since `since` (unix seconds): `day` is the SQL of a UTC day
/// (`YYYY-MM-DD`) of a unix time `{t}` (the backend's), `ph` the one placeholder. Columns: key, sessions, the four token
/// sums, the cost sum, sessions with a cost.
pub fn usage_sql(by: By, since: Option<f64>, day: &str, ph: &str) -> (String, Vec<Arg>) {
    let when = "COALESCE(started_at, started)";
    let key = match by {
        By::Day => day.replace("{t}", when),
        By::Agent => "agent".to_owned(),
        By::Model => "model".to_owned(),
        By::Project => "project".to_owned(),
    };
    let mut args = Vec::new();
    let filter = match since {
        Some(t) => {
            args.push(Arg::Real(Some(t)));
            format!("WHERE {when} >= {ph}")
        }
        None => String::new(),
    };
    (
        format!(
            "SELECT {key} AS k, CAST(COUNT(*) AS BIGINT), CAST(SUM(input_tokens) AS BIGINT), \
             CAST(SUM(output_tokens) AS BIGINT), CAST(SUM(cache_read_tokens) AS BIGINT), \
             CAST(SUM(cache_creation_tokens) AS BIGINT), SUM(cost), CAST(COUNT(cost) AS BIGINT) \
             FROM sessions {filter} GROUP BY k"
        ),
        args,
    )
}

/// Reads `--since`/`?since=`: a day (`YYYY-MM-DD`, UTC midnight), an RFC 3339 time, or unix
/// seconds.
pub fn parse_since(s: &str) -> Option<f64> {
    let s = s.trim();
    if let Ok(t) = s.parse::<f64>() {
        return t.is_finite().then_some(t);
    }
    if s.len() == 10 {
        return parse_day(s);
    }
    // An RFC 3339 time: the classifier's reading of a log's timestamps.
    let line = format!("{{\"type\":\"user\",\"timestamp\":{}}}", json!(s));
    classifier::parse_line(line.as_bytes())
        .ts
        .filter(|t| t.is_finite())
}

fn parse_day(s: &str) -> Option<f64> {
    let mut parts = s.split('-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: u32 = parts.next()?.parse().ok()?;
    let d: u32 = parts.next()?.parse().ok()?;
    if parts.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(((era * 146_097 + doe - 719_468) * 86_400) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompts_make_one_line_titles_and_injected_blocks_none() {
        assert_eq!(
            prompt_title("\n  Fix the   build\nthen more").as_deref(),
            Some("Fix the build")
        );
        assert_eq!(prompt_title("<environment_context>\n<cwd>/x</cwd>"), None);
        assert_eq!(
            prompt_title("<user_instructions>do</user_instructions>"),
            None
        );
        assert_eq!(
            prompt_title("<b is less than c").as_deref(),
            Some("<b is less than c")
        );
        let long = "é".repeat(300);
        assert_eq!(
            prompt_title(&long).unwrap().chars().count(),
            TITLE_CHARS + 1
        );
    }

    #[test]
    fn placeholders() {
        for t in [
            "",
            "s1",
            "/home/u/.claude/projects/x/a.jsonl",
            "a.jsonl",
            "standard input",
        ] {
            assert!(is_placeholder(t, "s1"), "{t}");
        }
        for t in ["my build", "Fix the login bug", "deploy/v2 rollout plan"] {
            assert!(!is_placeholder(t, "s1"), "{t}");
        }
    }

    #[test]
    fn days_and_times() {
        assert_eq!(parse_since("1970-01-01"), Some(0.0));
        assert_eq!(parse_since("2026-12-02"), Some(1_796_169_600.0));
        assert_eq!(parse_since("1796169600"), Some(1_796_169_600.0));
        assert_eq!(parse_since("2026-12-02T00:00:00Z"), Some(1_796_169_600.0));
        assert_eq!(parse_since("yesterday"), None);
    }

    #[test]
    fn cursors_read_back() {
        for (sort, text) in [
            (Sort::Newest, "12.5~run-1"),
            (Sort::Cost, "-1~12.5~a~b"),
            (Sort::Errors, "3~1796169600.123~x"),
        ] {
            let c = Cursor::parse(sort, text).unwrap();
            assert_eq!(c.to_text(), text);
        }
        assert_eq!(Cursor::parse(Sort::Cost, "12.5~run"), None);
        assert_eq!(Cursor::parse(Sort::Newest, "inf~x"), None);
    }
}
