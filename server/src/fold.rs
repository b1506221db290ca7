//! The one per-session fold: each stored event, in seq order, becomes its envelope and moves
//! the session's state on (classifier context, badges, the postmortem summary, the partial
//! message being written).
//!
//! Lines are split by the classifier's `LineReader` and stored unclassified; a stored line
//! becomes an event through the classifier's `line_event` (the one wording of an over-long
//! line) and a row through `classify_log_event`, exactly as `classifier::LogClassifier` and
//! `hiveterm classify` do. Every path that turns stored events into rows goes through
//! [`SessionFold::step`]: the writer as it stores an event, a hub loaded from a checkpoint
//! plus the events after it, and the rebuild of the derived tables when the classifier
//! changes. So an event gives the same envelope, and the same badges after it, on every path. Backends store what
//! [`SessionFold::checkpoint`] gives and resume with [`SessionFold::resume`]; they never
//! classify by themselves.
//!
//! A session of several files (a main log and its subagents' files under `--watch`/`--follow`)
//! stores each subagent file's lines tagged with their source (the subagent's id,
//! [`StoredEvent::source`]), interleaved with the main file's as they were written. Each source is classified with a context of its own — made, at its first line,
//! as `LogClassifier::next_file` makes a subagent file's (the calls seen so far) — so its
//! lines give the envelopes `hiveterm classify` gives reading the files one after the other,
//! whatever the interleaving; untagged lines share the session's context.

use classifier::event::line_event;
use classifier::lines::Oversize;
use classifier::{
    ClassifyCtx, FileFold, Line, LogEvent, Preview, SummaryFold, TermEnvelope,
    classify_log_event_at,
};
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::badges::{Badges, Fold};
use crate::index::log::IndexFold;

mod clock;

/// One event as stored: its time and its line, numbered by its seq.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEvent {
    /// Its time (the line's, else when received).
    pub ts: f64,
    /// The line as stored: `number` is the seq, `bytes` as received (the first bytes only, and
    /// `oversize` set, for a line over the limit).
    pub line: Line,
    /// The file of the session it came from, when not the main one: the subagent's id.
    pub source: Option<String>,
}

impl StoredEvent {
    /// The event's seq.
    pub fn seq(&self) -> u64 {
        self.line.number
    }
}

/// The line stored as event `seq`: its bytes and, for a line over the limit, its full length
/// and the limit (what a [`classifier::LineReader`] said of it).
pub fn stored_line(seq: u64, bytes: Vec<u8>, cut: Option<(u64, u64)>) -> Line {
    Line {
        number: seq,
        bytes,
        oversize: cut.map(|(len, limit)| Oversize { len, limit }),
    }
}

/// The partial message being written (folded from every committed event in order) and the
/// seq of the event that last changed it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LivePreview {
    /// The fold.
    pub preview: Preview,
    /// The seq of the event that last changed it (0: none yet).
    pub seq: u64,
}

/// The part of a session's fold that is checkpointed (the preview is not: it is transient).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The classifier context.
    pub ctx: ClassifyCtx,
    /// The badges.
    pub badges: Badges,
    /// The summary fold.
    #[serde(default)]
    pub summary: SummaryFold,
    /// The index's share of the fold (`crate::index`).
    #[serde(default)]
    pub index: IndexFold,
    /// The contexts of the session's other files, by source ([`SessionFold::files`]).
    #[serde(default)]
    pub files: SourceContexts,
    /// The log's clock ([`SessionFold::clock`]).
    #[serde(default)]
    pub clock: Option<f64>,
}

/// The classify contexts of a session's subagents' files, by source, at most [`MAX_SOURCES`]
/// (the one longest unused is forgotten first: a subagent's file that ended long ago), and
/// each file's part of the summary fold ([`FileFold`]) while another file's lines are read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SourceContexts {
    /// Each source's context, when it was last used (the seq of its last line) and its part
    /// of the summary fold (when it is not the file in the fold).
    by_source: BTreeMap<String, (ClassifyCtx, u64, FileFold)>,
    /// The main file's part of the summary fold, when it is not the file in the fold.
    main: FileFold,
    /// The file whose part is in the summary fold (`None`: the main one).
    current: Option<String>,
}

/// Most sources whose contexts a session's fold keeps.
pub const MAX_SOURCES: usize = 64;

impl SourceContexts {
    /// `source`'s part of the summary fold swapped into `summary` (the file it holds now
    /// keeping its own), before a line of `source` (`None`: the main file).
    fn enter(&mut self, source: Option<&str>, summary: &mut SummaryFold) {
        if self.current.as_deref() == source {
            return;
        }
        let mut out = FileFold::default();
        summary.swap_file(&mut out);
        match self.current.take() {
            None => self.main = out,
            Some(s) => {
                if let Some(entry) = self.by_source.get_mut(&s) {
                    entry.2 = out;
                }
            }
        }
        let mut file = match source {
            None => std::mem::take(&mut self.main),
            Some(s) => self
                .by_source
                .get_mut(s)
                .map(|e| std::mem::take(&mut e.2))
                .unwrap_or_default(),
        };
        summary.swap_file(&mut file);
        self.current = source.map(str::to_owned);
    }

    /// The context of `source` for its line at `seq`: made from `main` as the next file's
    /// (`ClassifyCtx::next_file`) at its first line.
    fn of(&mut self, source: &str, main: &ClassifyCtx, seq: u64) -> &mut ClassifyCtx {
        if !self.by_source.contains_key(source) {
            if self.by_source.len() >= MAX_SOURCES
                && let Some(oldest) = self
                    .by_source
                    .iter()
                    .min_by_key(|(_, (_, used, _))| *used)
                    .map(|(s, _)| s.clone())
            {
                self.by_source.remove(&oldest);
            }
            let ctx = main.next_file(Some(source));
            let entry = (ctx, seq, FileFold::default());
            self.by_source.insert(source.to_owned(), entry);
        }
        let (ctx, used, _) = self.by_source.get_mut(source).expect("inserted above");
        *used = seq;
        ctx
    }

    /// Whether no source has a context.
    pub fn is_empty(&self) -> bool {
        self.by_source.is_empty()
    }
}

/// The `summary` column: the summary fold, the index's share and the other files' contexts.
#[derive(Serialize, Deserialize)]
struct SummaryColumn<S, I, F> {
    summary: S,
    index: I,
    #[serde(default)]
    files: F,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    clock: Option<f64>,
}

impl Checkpoint {
    /// The stored columns: `ctx`, `badges` and `summary` (the summary fold, the index's
    /// share and the other files' contexts, `{"summary", "index", "files"}`) as JSON.
    pub fn to_columns(&self) -> serde_json::Result<[String; 3]> {
        Ok([
            serde_json::to_string(&self.ctx)?,
            serde_json::to_string(&self.badges)?,
            serde_json::to_string(&SummaryColumn {
                summary: &self.summary,
                index: &self.index,
                files: &self.files,
                clock: self.clock,
            })?,
        ])
    }

    /// Reads the stored columns back; `None` when one does not parse.
    pub fn from_columns(ctx: &str, badges: &str, summary: &str) -> Option<Checkpoint> {
        let column: SummaryColumn<SummaryFold, IndexFold, SourceContexts> =
            serde_json::from_str(summary).ok()?;
        Some(Checkpoint {
            ctx: serde_json::from_str(ctx).ok()?,
            badges: serde_json::from_str(badges).ok()?,
            summary: column.summary,
            index: column.index,
            files: column.files,
            clock: column.clock,
        })
    }
}

/// A session's state after its newest folded event.
#[derive(Debug, Clone, Default)]
pub struct SessionFold {
    /// The classifier context (of the main file's lines).
    pub ctx: ClassifyCtx,
    /// The contexts of the session's other files' lines (tagged with a source).
    pub files: SourceContexts,
    /// The header's badges.
    pub badges: Badges,
    /// The postmortem summary (`GET …/summary`), the classifier's fold.
    pub summary: SummaryFold,
    /// The index's share (project, title, how the last turn ended).
    pub index: IndexFold,
    /// The partial message being written (not checkpointed: a restarted server has none).
    pub preview: LivePreview,
    /// Bytes of the events folded since the last checkpoint (or the one resumed from).
    pub since_checkpoint: u64,
    /// The log's clock: the last time a line of it stated ([`stated`]; `None`: none yet).
    pub clock: Option<f64>,
}

/// Bytes of events after which a checkpoint is made even before the interval's count: a
/// read that replays the events after a checkpoint (a snapshot share's state, summary) then
/// replays at most this much, whatever the size of the events (issue 25).
pub const CHECKPOINT_BYTES: u64 = 8 * 1024 * 1024;

/// What one [`SessionFold::step`] gave.
#[derive(Debug)]
pub struct Step {
    /// The event's envelope, with its seq and ts (no rows: nothing to show or store).
    pub env: TermEnvelope,
    /// The event changed the partial message.
    pub preview_changed: bool,
}

impl SessionFold {
    /// A fold resumed from a checkpoint (no partial message).
    pub fn resume(cp: Checkpoint) -> SessionFold {
        SessionFold {
            ctx: cp.ctx,
            files: cp.files,
            badges: cp.badges,
            summary: cp.summary,
            index: cp.index,
            preview: LivePreview::default(),
            since_checkpoint: 0,
            clock: cp.clock,
        }
    }

    /// The checkpoint to store after event `seq`, just folded, if one is due: every `every`
    /// events, and whenever the events since the last one come to [`CHECKPOINT_BYTES`]. The
    /// writers and the rebuild of derived tables place them by this one rule.
    pub fn checkpoint_due(&mut self, seq: u64, every: u64) -> Option<Checkpoint> {
        if !seq.is_multiple_of(every) && self.since_checkpoint < CHECKPOINT_BYTES {
            return None;
        }
        self.since_checkpoint = 0;
        Some(self.checkpoint())
    }

    /// The state to checkpoint.
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            ctx: self.ctx.clone(),
            badges: self.badges.clone(),
            summary: self.summary.clone(),
            index: self.index.clone(),
            files: self.files.clone(),
            clock: self.clock,
        }
    }

    /// Folds in `event` (the [`line_event`] of a [`stored_line`]: the classifier's one door
    /// from a line to an event, so an over-long line reads as it does everywhere), stored as
    /// `seq` at time `ts`, `bytes` long as stored, from `source` (`None`: the main file);
    /// answers its envelope: [`classifier::classify_line`]'s with its file's context, with
    /// `ts`.
    pub fn step(
        &mut self,
        event: &LogEvent,
        seq: u64,
        ts: f64,
        bytes: usize,
        source: Option<&str>,
    ) -> Step {
        self.since_checkpoint += bytes as u64;
        self.tick(event);
        if let Some(s) = source {
            self.files.of(s, &self.ctx, seq);
        }
        // The summary reads each file's lines in turn as if alone (`FileFold`).
        self.files.enter(source, &mut self.summary);
        let ctx = match source {
            Some(s) => self.files.of(s, &self.ctx, seq),
            None => &mut self.ctx,
        };
        let mut env = classify_log_event_at(event, ctx, seq);
        if source.is_none() {
            self.badges.turn.at_end = ctx.end_pending();
        }
        // The summary sees the envelope `hiveterm summary` sees: the line's own time only.
        self.summary.add(&event.event, &env);
        self.index.add(event, &env);
        env.ts = Some(ts);
        self.badges.apply(event, ts, &env);
        let preview_changed = self.preview.preview.apply(&event.event);
        if preview_changed {
            self.preview.seq = seq;
        }
        Step {
            env,
            preview_changed,
        }
    }

    /// The postmortem summary; of an ended session (`ended`), with the end of its log ending
    /// the turn in flight as the log says ([`crate::badges::Turn::at_end`], issue 45).
    pub fn summary_ended(&self, ended: bool) -> classifier::Summary {
        let mut s = self.summary.summary();
        crate::prices::settle(&mut s);
        if ended && self.badges.turn.in_flight {
            match self.badges.turn.at_end {
                Some(true) => s.turns_ok += 1,
                Some(false) => s.turns_failed += 1,
                None => {}
            }
        }
        s
    }

    /// Folds in a stored event.
    pub fn step_stored(&mut self, ev: &StoredEvent) -> Step {
        self.step(
            &line_event(&ev.line),
            ev.seq(),
            ev.ts,
            ev.line.bytes.len(),
            ev.source.as_deref(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_are_due_by_count_and_by_bytes() {
        const MIB: usize = 1024 * 1024;
        // (events' sizes, interval, the seqs a checkpoint is due after)
        let cases: &[(&[usize], u64, &[u64])] = &[
            (&[10; 9], 4, &[4, 8]),
            (&[3 * MIB; 7], 256, &[3, 6]),
            (&[9 * MIB, 1, 9 * MIB], 256, &[1, 3]),
            (&[5 * MIB, 1, 1, 3 * MIB, 1], 4, &[4]),
            (&[8 * MIB - 1, 1, 1], 256, &[2]),
        ];
        for (sizes, every, want) in cases {
            let mut fold = SessionFold::default();
            let mut due = Vec::new();
            for (i, &bytes) in sizes.iter().enumerate() {
                let seq = i as u64 + 1;
                let event = classifier::event::line_event(&Line::whole(seq, b"{}".to_vec()));
                fold.step(&event, seq, 0.0, bytes, None);
                if fold.checkpoint_due(seq, *every).is_some() {
                    due.push(seq);
                }
            }
            assert_eq!(due, *want, "{sizes:?} every {every}");
        }
    }

    /// Issue 45: one clock per log. A line without a time takes the last one the log
    /// stated, else the next one (within the append), and the server's (when received) only
    /// while the log states none; a harness line (`hiveterm run`'s, stamped by the server)
    /// keeps its own and is no clock of the log's; the clock is checkpointed.
    #[test]
    fn issue_45_a_line_without_a_time_takes_the_logs() {
        let ev =
            |line: &str| classifier::event::line_event(&Line::whole(1, line.as_bytes().to_vec()));
        let meta = ev(
            r#"{"sessionId":"s","projectHash":"h","lastUpdated":"2026-12-02T14:10:19.627Z","kind":"main"}"#,
        );
        let set = ev(r#"{"$set":{"lastUpdated":"2026-12-02T14:10:19.700Z"}}"#);
        let user =
            ev(r#"{"id":"u","timestamp":"2026-12-02T14:10:20.000Z","type":"user","content":"hi"}"#);
        let stream = ev(r#"{"type":"assistant","message":{"content":"x"}}"#);
        let harness = ev(r#"{"kind":"turn_start","ts":5000.5,"from":"operator","body":"go"}"#);
        let (t0, t1) = (1_796_220_619.627, 1_796_220_620.0);
        let now = 9e9;
        // (the fold's clock before, the events, the times they are stored with)
        let cases: Vec<(Option<f64>, Vec<&LogEvent>, Vec<f64>)> = vec![
            (
                None,
                vec![&set, &meta, &set, &user, &set],
                vec![t0, t0, t0, t1, t1],
            ),
            (Some(t1), vec![&set, &set], vec![t1, t1]),
            (None, vec![&set], vec![now]),
            (
                None,
                vec![&harness, &stream, &stream],
                vec![5000.5, now, now],
            ),
            (Some(t0), vec![&harness, &stream], vec![5000.5, t0]),
        ];
        for (clock, events, want) in cases {
            let fold = SessionFold {
                clock,
                ..SessionFold::default()
            };
            let got = fold.times(events.iter().map(|e| (*e, now)));
            assert_eq!(got, want, "{clock:?}");
        }
        let mut fold = SessionFold::default();
        fold.step(&meta, 1, t0, 10, None);
        fold.step(&harness, 2, 5000.5, 10, None);
        assert_eq!(fold.clock, Some(t0));
        let [ctx, badges, summary] = fold.checkpoint().to_columns().unwrap();
        let back = SessionFold::resume(Checkpoint::from_columns(&ctx, &badges, &summary).unwrap());
        assert_eq!(back.times([(&set, now)]), vec![t0]);
    }

    /// Each source's lines are classified with a context of its own, kept in the checkpoint;
    /// past [`MAX_SOURCES`] the one longest unused is forgotten.
    #[test]
    fn each_source_has_its_context_checkpointed_and_bounded() {
        let mut fold = SessionFold::default();
        let line = |seq: u64| {
            classifier::event::line_event(&Line::whole(
                seq,
                br#"{"type":"system","subtype":"init","session_id":"s"}"#.to_vec(),
            ))
        };
        fold.step(&line(1), 1, 0.0, 10, None);
        let prompt = |seq: u64| {
            classifier::event::line_event(&Line::whole(
                seq,
                br#"{"type":"user","message":{"role":"user","content":"go"}}"#.to_vec(),
            ))
        };
        for i in 0..MAX_SOURCES as u64 + 1 {
            fold.step(&prompt(i + 2), i + 2, 0.0, 10, Some(&format!("agent-{i}")));
        }
        assert_eq!(fold.files.by_source.len(), MAX_SOURCES);
        assert!(!fold.files.by_source.contains_key("agent-0"));
        assert!(
            fold.files
                .by_source
                .contains_key(&format!("agent-{MAX_SOURCES}"))
        );
        // The main file's context saw only its own line.
        let mut only = ClassifyCtx::new();
        classify_log_event_at(&line(1), &mut only, 1);
        assert_eq!(fold.ctx, only);
        assert_ne!(fold.ctx, fold.files.by_source["agent-1"].0);
        let cp = fold.checkpoint();
        let [ctx, badges, summary] = cp.to_columns().unwrap();
        let back = Checkpoint::from_columns(&ctx, &badges, &summary).unwrap();
        assert_eq!(back.files, fold.files);
        // A summary column from before the sources were kept reads as none.
        let old = r#"{"summary":{},"index":{}}"#;
        assert!(Checkpoint::from_columns(&ctx, &badges, old).is_some_and(|c| c.files.is_empty()));
    }
}
