//! A Gemini log's share of the summary: tokens, models, tool calls, tool errors, subagents
//! and files changed, each counted once.
//!
//! - Tokens, as the CLI sums them: a stream-json `result`'s `stats` (`input_tokens`,
//!   `output_tokens`, `cached` as cache reads; all its models, the router's included); the
//!   `-o json` document's `stats.models.*.tokens` (`prompt`, `candidates`, `cached`); a
//!   recording's `tokens` of each `gemini` message once (`input`, `output`, `cached`; a message
//!   written twice carries them twice). A log with `result` lines counts only those.
//! - Models: the `stats.models` names and a recording message's `model` (not `auto`).
//! - Tool calls by the tool's Gemini name, once per call id (a recorded call is written again
//!   with its message); errors: `status: "error"` and shell exit codes other than 0.
//! - Subagents: `invoke_agent` calls; files changed: `write_file`/`replace` paths.
//! - No cost: `cost_usd` stays `null`.

use std::collections::{HashSet, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

use crate::field::Field;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::state::digest;
use super::typed::{Event, Record, Stats, Update};
use crate::prices::ModelTokens;
use crate::summary::files::Kept;
use crate::summary::report::Summary;

/// Call and message ids remembered to count each once.
const MAX_IDS: usize = 256;

/// Most models whose share of the runs' tokens is kept.
const MAX_MODELS: usize = 16;

/// Token counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Tokens {
    pub input: u64,
    pub output: u64,
    pub cached: u64,
    pub thoughts: u64,
}

impl Tokens {
    fn add(&mut self, o: Tokens) {
        self.input += o.input;
        self.output += o.output;
        self.cached += o.cached;
        self.thoughts += o.thoughts;
    }
}

/// The `-o json` document's tokens, summed over its models.
pub(crate) fn json_tokens(stats: &Value) -> Tokens {
    let mut t = Tokens::default();
    if let Some(models) = stats.field("models").and_then(Value::as_object) {
        for m in models.values() {
            let n = |k: &str| m.pointer(&format!("/tokens/{k}")).and_then(Value::as_u64);
            t.add(Tokens {
                input: n("prompt").or_else(|| n("input")).unwrap_or(0),
                output: n("candidates").unwrap_or(0),
                cached: n("cached").unwrap_or(0),
                thoughts: n("thoughts").unwrap_or(0),
            });
        }
    }
    t
}

/// A Gemini log's share of the summary: what [`crate::SummaryFold`] cannot read from rows.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct SummaryPart {
    /// Tokens of `result` lines and `-o json` documents, and whether there was one.
    run_tokens: Tokens,
    runs: u64,
    /// Tokens of recorded messages.
    message_tokens: Tokens,
    /// The runs' tokens by model (`stats.models`), the way [`ModelTokens`] counts them; at
    /// most [`MAX_MODELS`] models (`models_more`: a run named more, so no model's share is
    /// known for sure).
    run_by_model: Vec<ModelTokens>,
    models_more: bool,
    /// Hashes of the message and call ids counted, oldest first.
    ids: VecDeque<u64>,
    /// The same hashes as a set, for [`SummaryPart::first`]: not carried, made again from
    /// `ids` when they differ (a part read back).
    #[serde(skip)]
    seen: Seen,
}

/// The hashes of `SummaryPart::ids`, found at once rather than by a scan of all of them.
#[derive(Debug, Clone, Default)]
struct Seen(HashSet<u64, BuildHasherDefault<Digests>>);

/// A hasher of [`digest`]s, which are well mixed already: each is its own hash (SipHash of
/// every id counted was a hundredth of classifying a recording).
#[derive(Default)]
struct Digests(u64);

impl Hasher for Digests {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Derived data: parts are equal by what they carry, whatever their sets.
impl PartialEq for Seen {
    fn eq(&self, _: &Seen) -> bool {
        true
    }
}

impl SummaryPart {
    /// Folds in one Gemini line.
    pub(crate) fn add(&mut self, value: &Value, summary: &mut Summary, kept: &mut Kept) {
        let s = |k: &str| value.field(k).and_then(Value::as_str);
        match s("type") {
            Some("tool_use") => {
                let id = s("tool_id").unwrap_or("");
                if self.first(id) {
                    call(s("tool_name"), value.field("parameters"), summary, kept);
                }
            }
            Some("tool_result") if s("status") == Some("error") => summary.tool_errors += 1,
            Some("result") => self.result(
                Stats::of_value(value.field("stats")).as_ref(),
                summary,
                kept,
            ),
            Some("gemini") => self.message(&Record::of_value(value), summary, kept),
            None if value.field("session_id").is_some() => {
                self.runs += 1;
                if let Some(st) = value.field("stats") {
                    self.run_tokens.add(json_tokens(st));
                    models(Some(st), summary, kept);
                    for (name, m) in st
                        .field("models")
                        .and_then(Value::as_object)
                        .into_iter()
                        .flatten()
                    {
                        let n =
                            |k: &str| m.pointer(&format!("/tokens/{k}")).and_then(Value::as_u64);
                        let input = n("prompt").or_else(|| n("input")).unwrap_or(0);
                        let output = n("candidates").unwrap_or(0) + n("thoughts").unwrap_or(0);
                        self.model_share(name, input, output, n("cached").unwrap_or(0));
                    }
                }
            }
            None => {
                if let Some(msgs) = value
                    .field("$set")
                    .field("messages")
                    .and_then(Value::as_array)
                {
                    for m in msgs
                        .iter()
                        .filter(|m| m.field("type").and_then(Value::as_str) == Some("gemini"))
                    {
                        self.message(&Record::of_value(m), summary, kept);
                    }
                }
            }
            _ => {}
        }
    }

    /// Folds in one stream-json event read typed.
    pub(crate) fn add_event(&mut self, event: &Event, summary: &mut Summary, kept: &mut Kept) {
        match event {
            Event::ToolUse {
                tool_name,
                tool_id,
                parameters,
            } if self.first(tool_id.as_deref().unwrap_or("")) => {
                call(tool_name.as_deref(), Some(parameters), summary, kept);
            }
            Event::ToolResult { status, .. } if status.as_deref() == Some("error") => {
                summary.tool_errors += 1;
            }
            Event::Result { stats, .. } => self.result(stats.as_ref(), summary, kept),
            _ => {}
        }
    }

    /// A stream-json run's `result`, of figures `stats`.
    fn result(&mut self, stats: Option<&Stats>, summary: &mut Summary, kept: &mut Kept) {
        self.runs += 1;
        let n = |f: fn(&Stats) -> Option<u64>| stats.and_then(f).unwrap_or(0);
        self.run_tokens.add(Tokens {
            input: n(|s| s.input_tokens),
            output: n(|s| s.output_tokens),
            cached: n(|s| s.cached),
            thoughts: 0,
        });
        for name in stats.and_then(|s| s.models.as_ref()).into_iter().flatten() {
            model(Some(name), summary, kept);
        }
        if let Some(st) = stats {
            for (name, f) in st.models.iter().flatten().zip(&st.model_figures) {
                let n = |v: Option<u64>| v.unwrap_or(0);
                self.model_share(name, n(f.input_tokens), n(f.output_tokens), n(f.cached));
            }
        }
    }

    /// Adds one model's share of a run (`input` counting the `cached` among it, as Gemini
    /// counts them).
    fn model_share(&mut self, model: &str, input: u64, output: u64, cached: u64) {
        let known = self.run_by_model.iter().any(|m| m.model == model);
        if !known && self.run_by_model.len() >= MAX_MODELS {
            self.models_more = true;
            return;
        }
        let t = ModelTokens {
            model: model.chars().take(256).collect(),
            input: input.saturating_sub(cached),
            output,
            cache_read: cached,
            ..ModelTokens::default()
        };
        ModelTokens::add_to(&mut self.run_by_model, &t);
    }

    /// The runs' tokens by model, when every run said each model's share (none: read the
    /// session's tokens as one model's).
    pub(crate) fn by_model(&self) -> Option<&[ModelTokens]> {
        let whole = self.runs > 0 && !self.models_more && !self.run_by_model.is_empty();
        whole.then_some(self.run_by_model.as_slice())
    }

    /// Folds in one message record.
    pub(crate) fn add_record(&mut self, record: &Record, summary: &mut Summary, kept: &mut Kept) {
        if record.ty() == "gemini" {
            self.message(record, summary, kept);
        }
    }

    /// Folds in one update: its history's model messages.
    pub(crate) fn add_update(&mut self, update: &Update, summary: &mut Summary, kept: &mut Kept) {
        for m in update.messages.iter().flatten().flatten() {
            self.add_record(m, summary, kept);
        }
    }

    /// A recorded model message: its tokens and calls, once per id.
    fn message(&mut self, m: &Record, summary: &mut Summary, kept: &mut Kept) {
        if self.first(m.id()) {
            if let Some(t) = &m.tokens {
                self.message_tokens.add(Tokens {
                    input: t.input.unwrap_or(0),
                    output: t.output.unwrap_or(0),
                    cached: t.cached.unwrap_or(0),
                    thoughts: t.thoughts.unwrap_or(0),
                });
            }
            model(m.model.as_deref(), summary, kept);
        }
        for c in m.tool_calls.iter().flatten() {
            let cid = c.id.as_deref().unwrap_or("");
            if !self.first_call(cid) {
                continue;
            }
            call(c.name.as_deref(), c.args.as_ref(), summary, kept);
            let exit = c
                .result
                .first()
                .and_then(|p| p.response.as_ref()?.output.as_deref())
                .and_then(super::tools::shell_exit)
                .filter(|e| *e != 0);
            if c.status.as_deref() == Some("error") || exit.is_some() {
                summary.tool_errors += 1;
            }
        }
    }

    /// Whether call `cid` is counted for the first time: [`first`](Self::first) of
    /// `call:<cid>`, made on the stack when short.
    fn first_call(&mut self, cid: &str) -> bool {
        const PREFIX: &[u8] = b"call:";
        let mut buf = [0u8; 128];
        let n = PREFIX.len() + cid.len();
        match buf.get_mut(..n) {
            Some(key) => {
                key[..PREFIX.len()].copy_from_slice(PREFIX);
                key[PREFIX.len()..].copy_from_slice(cid.as_bytes());
                let key = std::str::from_utf8(key).expect("a prefix and a str are UTF-8");
                self.first(key)
            }
            None => self.first(&format!("call:{cid}")),
        }
    }

    /// Whether `id` is counted for the first time (an empty id always is).
    fn first(&mut self, id: &str) -> bool {
        if id.is_empty() {
            return true;
        }
        let h = digest(id);
        if self.seen.0.len() != self.ids.len() {
            self.seen.0 = self.ids.iter().copied().collect();
        }
        if !self.seen.0.insert(h) {
            return false;
        }
        if self.ids.len() >= MAX_IDS
            && let Some(old) = self.ids.pop_front()
        {
            self.seen.0.remove(&old);
        }
        self.ids.push_back(h);
        true
    }

    /// Sets what is known only at the end (tokens) on the summary so far.
    pub(crate) fn finish(&self, summary: &mut Summary) {
        let t = if self.runs > 0 {
            self.run_tokens
        } else {
            self.message_tokens
        };
        summary.input_tokens += t.input;
        summary.output_tokens += t.output;
        summary.cache_read_tokens += t.cached;
    }
}

fn call(name: Option<&str>, args: Option<&Value>, summary: &mut Summary, kept: &mut Kept) {
    let name = name.unwrap_or("?");
    kept.tool(summary, name);
    match name {
        "invoke_agent" => summary.subagents += 1,
        "write_file" | "replace" => {
            if let Some(path) = args
                .and_then(|a| a.field("file_path"))
                .and_then(Value::as_str)
            {
                kept.file(path);
            }
        }
        _ => {}
    }
}

fn models(stats: Option<&Value>, summary: &mut Summary, kept: &mut Kept) {
    if let Some(models) = stats
        .and_then(|s| s.field("models"))
        .and_then(Value::as_object)
    {
        for name in models.keys() {
            model(Some(name), summary, kept);
        }
    }
}

fn model(m: Option<&str>, summary: &mut Summary, kept: &mut Kept) {
    if let Some(m) = m
        && !m.is_empty()
        && m != "auto"
    {
        kept.model(summary, m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ids are counted once while remembered, the oldest forgotten past [`MAX_IDS`], and a
    /// part read back (its set of hashes not carried) answers as the part it was.
    #[test]
    fn an_id_counts_once_while_remembered_also_read_back() {
        let id = |k: usize| format!("id-{k}");
        let mut part = SummaryPart::default();
        for k in 0..MAX_IDS + 44 {
            assert!(part.first(&id(k)), "{k} is new");
        }
        assert!(part.first(""), "an empty id always counts");
        let mut back: SummaryPart =
            serde_json::from_str(&serde_json::to_string(&part).unwrap()).unwrap();
        assert_eq!(back, part);
        for p in [&mut part, &mut back] {
            for k in 44..MAX_IDS + 44 {
                assert!(!p.first(&id(k)), "{k} is remembered");
            }
            // The 44 oldest were forgotten: each counts again (and pushes out another).
            assert!(p.first(&id(0)));
            assert!(p.first(&id(44)), "pushed out by 0");
            assert!(!p.first(&id(MAX_IDS + 43)));
        }
    }

    /// A call id is counted as `call:<id>` is, short or long (made on the stack or not).
    #[test]
    fn a_call_counts_as_its_prefixed_id() {
        for len in [0, 1, 7, 122, 123, 124, 400] {
            let cid = "é".repeat(len / 2) + &"c".repeat(len % 2);
            let mut by_call = SummaryPart::default();
            let mut by_id = SummaryPart::default();
            assert!(by_call.first_call(&cid));
            assert!(by_id.first(&format!("call:{cid}")));
            assert_eq!(by_call, by_id, "{len}");
            assert!(!by_call.first_call(&cid), "{len}: counted once");
            assert!(!by_call.first(&format!("call:{cid}")), "{len}: the same id");
        }
    }
}
