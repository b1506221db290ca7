//! One clock per log (issue 45): the time each stored event is stored with. A line's own
//! time when it states one; else the log's — the last time it stated, else the next one a line
//! stored with it states; the server's (when the line was received) only while the log has
//! stated none.

use classifier::event::line_event;
use classifier::{Line, LogEvent};

use super::{SessionFold, stored_line};

/// The time a line states of its own that is the log's clock: any line's but a harness line's
/// (a hyperhive `turn_start`, `turn_end`, `note` or state change, which `hiveterm run` stamps
/// with the server's clock as it writes them; a hyperhive log states a time on every line).
fn stated(event: &LogEvent) -> Option<f64> {
    use classifier::LiveEvent as E;
    let harness = matches!(
        event.event,
        E::TurnStart { .. }
            | E::TurnEnd { .. }
            | E::Note { .. }
            | E::StatusChanged { .. }
            | E::ModelChanged { .. }
            | E::EffortChanged { .. }
            | E::TokenUsageChanged { .. }
            | E::TurnStateChanged { .. }
    );
    event.ts.filter(|t| t.is_finite() && !harness)
}

impl SessionFold {
    /// An append's lines (bytes, what a [`classifier::LineReader`] said of an over-long one,
    /// when received), stored from seq `first` on: each [`stored_line`], its [`line_event`],
    /// when it was received and the time it is stored with ([`SessionFold::times`]).
    pub fn read(
        &self,
        first: u64,
        lines: impl IntoIterator<Item = (Vec<u8>, Option<(u64, u64)>, f64)>,
    ) -> Vec<(Line, LogEvent, f64, f64)> {
        let read: Vec<(Line, LogEvent, f64)> = (first..)
            .zip(lines)
            .map(|(seq, (bytes, cut, received))| {
                let line = stored_line(seq, bytes, cut);
                let event = line_event(&line);
                (line, event, received)
            })
            .collect();
        let times = self.times(read.iter().map(|(_, e, r)| (e, *r)));
        read.into_iter()
            .zip(times)
            .map(|((line, event, received), ts)| (line, event, received, ts))
            .collect()
    }

    /// The times the events of one append (each with when it was received) are stored with:
    /// one clock per log (issue 45). A line's own time when it states one; else the log's: the
    /// last time it stated, else the next one a line of this append states (a file's lines
    /// before its first time); the server's (when received) only while the log has stated
    /// none. So an old log read today keeps its own times, and a log that states none (Claude
    /// Code's stream-json under `hiveterm run`) is timed as it arrives.
    pub fn times<'a>(&self, events: impl IntoIterator<Item = (&'a LogEvent, f64)>) -> Vec<f64> {
        let events: Vec<(Option<f64>, Option<f64>, f64)> = events
            .into_iter()
            .map(|(e, received)| (e.ts.filter(|t| t.is_finite()), stated(e), received))
            .collect();
        let mut next = vec![None; events.len() + 1];
        for (i, (_, stated, _)) in events.iter().enumerate().rev() {
            next[i] = stated.or(next[i + 1]);
        }
        let mut last = self.clock;
        let mut out = Vec::with_capacity(events.len());
        for (i, &(own, stated, received)) in events.iter().enumerate() {
            if stated.is_some() {
                last = stated;
            }
            out.push(own.or(last).or(next[i]).unwrap_or(received));
        }
        out
    }

    /// Moves the log's clock on past `event` ([`SessionFold::clock`]).
    pub(super) fn tick(&mut self, event: &LogEvent) {
        if let Some(t) = stated(event) {
            self.clock = Some(t);
        }
    }
}
