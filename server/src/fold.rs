//! The one per-session fold: each stored event, in seq order, becomes its envelope and moves
//! the session's state on (classifier context, badges, the partial message being written).
//!
//! Every path that turns stored events into rows goes through [`SessionFold::step`]: the
//! writer as it stores an event, a hub loaded from a checkpoint plus the events after it,
//! and the rebuild of the derived tables when the classifier changes. So an event gives the
//! same envelope, and the same badges after it, on every path. Backends store what
//! [`SessionFold::checkpoint`] gives and resume with [`SessionFold::resume`]; they never
//! classify by themselves.

use classifier::event::over_limit;
use classifier::lines::Oversize;
use classifier::{ClassifyCtx, LogEvent, Preview, TermEnvelope, classify_log_event, parse_line};
use serde::{Deserialize, Serialize};

use crate::badges::Badges;

/// One event as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEvent {
    /// Its seq.
    pub seq: u64,
    /// Its time (the line's, else when received).
    pub ts: f64,
    /// The bytes as received (the first bytes only, for a cut line).
    pub raw: Vec<u8>,
    /// For a line over the limit: its full length and the limit.
    pub cut: Option<(u64, u64)>,
}

/// What a stored line means: [`parse_line`] of it, or for a cut line the classifier's
/// [`over_limit`] event (the one wording of every path).
pub fn event_of(raw: &[u8], cut: Option<(u64, u64)>) -> LogEvent {
    match cut {
        None => parse_line(raw),
        Some((len, limit)) => LogEvent::at(None, over_limit(raw, Oversize { len, limit })),
    }
}

/// The time an event is stored with: the line's own when it carries a usable one, else when
/// it was received.
pub fn event_time(event: &LogEvent, received: f64) -> f64 {
    event.ts.filter(|t| t.is_finite()).unwrap_or(received)
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
}

/// A session's state after its newest folded event.
#[derive(Debug, Clone, Default)]
pub struct SessionFold {
    /// The classifier context.
    pub ctx: ClassifyCtx,
    /// The header's badges.
    pub badges: Badges,
    /// The partial message being written (not checkpointed: a restarted server has none).
    pub preview: LivePreview,
}

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
            badges: cp.badges,
            preview: LivePreview::default(),
        }
    }

    /// The state to checkpoint.
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            ctx: self.ctx.clone(),
            badges: self.badges.clone(),
        }
    }

    /// Folds in `event`, stored as `seq` at time `ts`; answers its envelope.
    pub fn step(&mut self, event: &LogEvent, seq: u64, ts: f64) -> Step {
        let mut env = classify_log_event(event, &mut self.ctx);
        env.seq = Some(seq);
        env.ts = Some(ts);
        self.badges.apply(event, ts, &env.msgs);
        let preview_changed = self.preview.preview.apply(&event.event);
        if preview_changed {
            self.preview.seq = seq;
        }
        Step {
            env,
            preview_changed,
        }
    }

    /// Folds in a stored event.
    pub fn step_stored(&mut self, ev: &StoredEvent) -> Step {
        self.step(&event_of(&ev.raw, ev.cut), ev.seq, ev.ts)
    }
}
