//! A session's redacted fold ([`Folded`]): its tip ([`State`], the fold after the newest
//! event folded), copies of it (checkpoints) and its newest envelopes; and the one bounded
//! read of events every redacted fold makes ([`read_events`]).

use std::collections::VecDeque;

use classifier::redact::Redactor;

use crate::fold::{SessionFold, StoredEvent};
use crate::store::{Store, StoreError};

/// Events between two checkpoints of a redacted fold, at first.
pub(super) const SPACING: u64 = 1024;
/// Most checkpoints of one redacted fold.
pub(super) const MAX_CHECKPOINTS: usize = 64;
/// Bytes of the newest envelopes kept for a live tail.
pub(super) const RECENT_BYTES: usize = 1024 * 1024;
/// Bytes of events read from the store at a time, about (at least one event, at most
/// [`MAX_PIECE`] events).
pub(super) const PIECE_BYTES: u64 = 4 * 1024 * 1024;
/// Most events read from the store at a time.
pub(super) const MAX_PIECE: u64 = 512;

/// The redacted fold after event `pos`: what a checkpoint copies.
#[derive(Clone, Default)]
pub(crate) struct State {
    /// The newest event folded.
    pub(super) pos: u64,
    /// The redaction of the session's events so far (what one event leaves open, a private
    /// key's lines or a token cut between two events, goes on into the next).
    pub(super) redactor: Redactor,
    pub(super) fold: SessionFold,
    /// The redactions: how many, on how many events, the first [`onefile::REPORT_ITEMS`] (seq, kind,
    /// masked preview); kept as the one-file export keeps its own.
    pub(super) report: onefile::Report,
}

impl State {
    /// Folds in the next event, redacted; answers its envelope's JSON when it has rows.
    pub(super) fn step(&mut self, mut ev: StoredEvent) -> Option<String> {
        let seq = ev.seq();
        let redacted = self.redactor.redact_line(&ev.line.bytes);
        if !redacted.findings.is_empty() {
            self.report.add(seq, &redacted.findings);
            ev.line.bytes = redacted.line.into_owned();
        }
        self.pos = seq;
        let env = self.fold.step_stored(&ev).env;
        if env.msgs.is_empty() {
            return None;
        }
        serde_json::to_string(&env).ok()
    }
}

/// A session's redacted fold: its tip, checkpoints and newest envelopes.
#[derive(Default)]
pub(crate) struct Folded {
    pub(super) tip: State,
    /// Copies of the fold, oldest first; the first is the empty fold (event 0).
    pub(super) checkpoints: Vec<State>,
    /// Events between two checkpoints now (doubled when they are thinned out).
    pub(super) spacing: u64,
    /// Bytes between two checkpoints now.
    pub(super) spacing_bytes: u64,
    /// Events and bytes folded into the tip since the newest checkpoint.
    pub(super) since: (u64, u64),
    /// The newest envelopes (seq and JSON), oldest first: every envelope of the events after
    /// `recent_from`.
    pub(super) recent: VecDeque<(u64, String)>,
    pub(super) recent_from: u64,
    pub(super) recent_bytes: usize,
}

impl Folded {
    /// Nothing folded yet.
    pub(super) fn new() -> Folded {
        Folded {
            checkpoints: vec![State::default()],
            spacing: SPACING,
            spacing_bytes: crate::fold::CHECKPOINT_BYTES,
            ..Folded::default()
        }
    }

    /// The tip moved on to `tip` by an event of `bytes` bytes, whose envelope is `env`: the
    /// newest envelopes and the checkpoints follow.
    pub(super) fn moved_on(&mut self, tip: &State, bytes: u64, env: Option<String>) {
        if let Some(json) = env {
            self.recent_bytes += json.len();
            self.recent.push_back((tip.pos, json));
            while self.recent_bytes > RECENT_BYTES
                && let Some((seq, old)) = self.recent.pop_front()
            {
                self.recent_bytes -= old.len();
                self.recent_from = seq;
            }
        }
        self.since.0 += 1;
        self.since.1 += bytes;
        if self.since.0 >= self.spacing || self.since.1 >= self.spacing_bytes {
            self.checkpoints.push(tip.clone());
            self.since = (0, 0);
            if self.checkpoints.len() > MAX_CHECKPOINTS {
                // Every other one, the empty fold kept: memory stays bounded, reads cost twice.
                let mut i = 0;
                self.checkpoints.retain(|_| {
                    i += 1;
                    i % 2 == 1
                });
                self.spacing *= 2;
                self.spacing_bytes *= 2;
            }
        }
    }

    /// The newest of the checkpoints and the tip at or before event `seq`.
    pub(super) fn state_at_or_before(&self, seq: u64) -> &State {
        if self.tip.pos <= seq {
            return &self.tip;
        }
        let i = self.checkpoints.partition_point(|c| c.pos <= seq);
        &self.checkpoints[i.saturating_sub(1)]
    }
}

/// Reads session `session`'s events `(after, upto]` in pieces of about [`PIECE_BYTES`],
/// oldest first, each to `each` while it answers `true`.
pub(super) async fn read_events(
    store: &Store,
    session: &str,
    after: u64,
    upto: u64,
    mut each: impl FnMut(StoredEvent) -> bool,
) -> Result<(), StoreError> {
    let (mut pos, mut piece) = (after, 1u64);
    while pos < upto {
        let to = upto.min(pos + piece);
        let events = store.events(session, pos, to).await?;
        let bytes: u64 = events.iter().map(|e| e.line.bytes.len() as u64 + 64).sum();
        for ev in events {
            if !each(ev) {
                return Ok(());
            }
        }
        // As many events as make about PIECE_BYTES, judging by these.
        piece = (piece * PIECE_BYTES / bytes.max(1)).clamp(1, MAX_PIECE);
        pos = to;
    }
    Ok(())
}
