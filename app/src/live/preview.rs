//! The live preview: the partial message being written, from SSE `preview` frames
//! (`docs/API.md`). Frames never reach the row reducer: they pass a [`PreviewGate`] (at most
//! one render every [`PREVIEW_EVERY_MS`], the newest state always rendered in the end) into a
//! signal of their own, shown as one row after the list.

use classifier::{TermEnvelope, icon};
use leptos::prelude::{RwSignal, Set, set_timeout};
use std::cell::RefCell;
use std::rc::Rc;

/// An SSE `preview` frame: the partial message being written (the contract's).
pub use contract::sse::{Preview as PreviewFrame, PreviewKind};

/// How a preview frame shows.
pub trait PreviewText {
    /// The row's icon: the classifier's thinking icon while thinking is written, its
    /// writing icon otherwise.
    fn icon(&self) -> &'static str;
    /// The text shown: its last [`PREVIEW_SHOWN_CHARS`] characters (`…` before a cut).
    fn shown_text(&self) -> String;
}

impl PreviewText for PreviewFrame {
    fn icon(&self) -> &'static str {
        if self.kind == Some(PreviewKind::Thinking) {
            icon::THINKING
        } else {
            icon::WRITING
        }
    }

    /// Its last [`PREVIEW_SHOWN_CHARS`] characters (`…` before a cut).
    fn shown_text(&self) -> String {
        let n = self.text.chars().count();
        if n <= PREVIEW_SHOWN_CHARS {
            return self.text.clone();
        }
        let tail: String = self.text.chars().skip(n - PREVIEW_SHOWN_CHARS).collect();
        format!("…{tail}")
    }
}

/// Whether an envelope's rows replace the preview: any row but the ones that update in
/// place (a `coalesce_key`: status and `thinking… ~N tokens` lines arrive between the
/// deltas of a message being written and must not blink the preview away).
pub fn replaces_preview(env: &TermEnvelope) -> bool {
    env.msgs.iter().any(|m| m.coalesce_key.is_none())
}

/// Shortest interval between two renders of the preview row.
pub const PREVIEW_EVERY_MS: f64 = 300.0;

/// Most characters of a preview shown (its end: the complete message replaces it anyway).
pub const PREVIEW_SHOWN_CHARS: usize = 4000;

/// What to do with the preview row.
#[derive(Debug, Clone, PartialEq)]
pub enum GateAction {
    /// Render this now (`None`: remove the row).
    Show(Option<PreviewFrame>),
    /// Arm a timer for this many ms, then call [`PreviewGate::fire`].
    Wait(f64),
    /// Nothing (a timer is armed and will render the newest state).
    Hold,
}

/// Throttles preview frames: the first renders at once, later ones at most every
/// [`PREVIEW_EVERY_MS`], and the newest always renders when its timer fires. Removal is
/// immediate: a cleared frame, or an envelope with rows after the preview's seq (the
/// complete message has arrived). A frame older than the newest row is a cleared one.
#[derive(Debug, Clone, Default)]
pub struct PreviewGate {
    latest: Option<PreviewFrame>,
    shown_at: Option<f64>,
    dirty: bool,
    armed: bool,
    row_seq: u64,
}

impl PreviewGate {
    /// A `preview` frame arrived at `now` (ms).
    pub fn frame(&mut self, f: PreviewFrame, now: f64) -> GateAction {
        if f.kind.is_none() || f.seq < self.row_seq {
            return self.clear();
        }
        self.latest = Some(f);
        self.dirty = true;
        if self.armed {
            return GateAction::Hold;
        }
        match self.shown_at {
            Some(t) if now - t < PREVIEW_EVERY_MS => {
                self.armed = true;
                GateAction::Wait(PREVIEW_EVERY_MS - (now - t))
            }
            _ => {
                self.shown_at = Some(now);
                self.dirty = false;
                GateAction::Show(self.latest.clone())
            }
        }
    }

    /// An envelope of `seq` whose rows [`replaces_preview`] arrived: answers whether the
    /// preview row must go.
    pub fn row(&mut self, seq: u64) -> bool {
        self.row_seq = self.row_seq.max(seq);
        if self.latest.as_ref().is_some_and(|p| p.seq < seq) {
            self.clear();
            true
        } else {
            false
        }
    }

    /// The armed timer fired at `now`: the state to render, if it changed since the last.
    pub fn fire(&mut self, now: f64) -> Option<Option<PreviewFrame>> {
        self.armed = false;
        if !self.dirty {
            return None;
        }
        self.dirty = false;
        self.shown_at = Some(now);
        Some(self.latest.clone())
    }

    /// Forgets the preview (a reconnect: the server sends the current one again).
    pub fn clear(&mut self) -> GateAction {
        self.latest = None;
        self.dirty = false;
        GateAction::Show(None)
    }
}

/// Applies a gate's answer to the preview signal, arming its timer if asked (the timer
/// renders the newest state then).
pub fn show(
    gate: Rc<RefCell<PreviewGate>>,
    preview: RwSignal<Option<PreviewFrame>>,
    action: GateAction,
) {
    match action {
        GateAction::Show(p) => preview.set(p),
        GateAction::Hold => {}
        GateAction::Wait(ms) => set_timeout(
            move || {
                let next = gate.borrow_mut().fire(crate::browser::now_ms());
                if let Some(p) = next {
                    preview.set(p);
                }
            },
            std::time::Duration::from_millis(ms.ceil().max(1.0) as u64),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn frame(seq: u64, kind: Option<&str>, text: &str) -> PreviewFrame {
        PreviewFrame {
            seq,
            kind: kind.map(|k| serde_json::from_value(Value::from(k)).unwrap()),
            tool: None,
            text: text.to_owned(),
        }
    }

    #[test]
    fn preview_frame_parses_the_documented_shape() {
        let f: PreviewFrame = serde_json::from_value(
            json!({"seq": 7, "kind": "tool_input", "tool": "Read", "text": "{\"file_p"}),
        )
        .unwrap();
        assert_eq!(
            f,
            PreviewFrame {
                seq: 7,
                kind: Some(PreviewKind::ToolInput),
                tool: Some("Read".into()),
                text: "{\"file_p".into()
            }
        );
        let cleared: PreviewFrame =
            serde_json::from_value(json!({"seq": 9, "kind": null, "tool": null, "text": ""}))
                .unwrap();
        assert_eq!(cleared.kind, None);
        assert_eq!(frame(1, Some("thinking"), "").icon(), "💭");
        assert_eq!(frame(1, Some("text"), "").icon(), "✍");
    }

    #[test]
    fn preview_shows_the_end_of_a_long_text() {
        let long = format!("{}é{}", "a".repeat(10), "b".repeat(PREVIEW_SHOWN_CHARS - 1));
        let shown = frame(1, Some("text"), &long).shown_text();
        assert_eq!(shown, format!("…é{}", "b".repeat(PREVIEW_SHOWN_CHARS - 1)));
        assert_eq!(frame(1, Some("text"), "short").shown_text(), "short");
    }

    #[test]
    fn preview_gate_renders_at_most_every_300_ms_and_always_the_newest() {
        let mut g = PreviewGate::default();
        let a = frame(1, Some("text"), "R");
        assert_eq!(g.frame(a.clone(), 0.0), GateAction::Show(Some(a)));
        // Within 300 ms: a timer for the rest of the interval; later frames wait for it.
        assert_eq!(
            g.frame(frame(2, Some("text"), "Re"), 100.0),
            GateAction::Wait(200.0)
        );
        assert_eq!(
            g.frame(frame(3, Some("text"), "Rea"), 150.0),
            GateAction::Hold
        );
        assert_eq!(g.fire(300.0), Some(Some(frame(3, Some("text"), "Rea"))));
        assert_eq!(
            g.frame(frame(4, Some("text"), "Read"), 350.0),
            GateAction::Wait(250.0)
        );
        assert_eq!(g.fire(600.0), Some(Some(frame(4, Some("text"), "Read"))));
        // Nothing new: a timer renders nothing.
        assert_eq!(g.fire(900.0), None);
        // After a quiet interval the next frame renders at once.
        let b = frame(5, Some("text"), "Reads");
        assert_eq!(g.frame(b.clone(), 1000.0), GateAction::Show(Some(b)));
    }

    #[test]
    fn rows_that_update_in_place_leave_the_preview() {
        let env = |v: Value| serde_json::from_value::<TermEnvelope>(v).unwrap();
        let check =
            |v: Value, want: bool| assert_eq!(replaces_preview(&env(v.clone())), want, "{v}");
        check(json!({"seq": 3, "msgs": []}), false);
        check(
            json!({"seq": 3, "msgs": [{"level": "debug", "summary": "thinking… ~6 tokens", "coalesce_key": "thinking"}]}),
            false,
        );
        check(
            json!({"seq": 3, "msgs": [{"level": "info", "summary": "Reading the lib file now."}]}),
            true,
        );
    }

    #[test]
    fn preview_gate_removes_at_once() {
        let mut g = PreviewGate::default();
        g.frame(frame(1, Some("text"), "R"), 0.0);
        // A cleared frame removes the row, even while a timer is armed.
        g.frame(frame(2, Some("text"), "Re"), 10.0);
        assert_eq!(g.frame(frame(3, None, ""), 20.0), GateAction::Show(None));
        assert_eq!(g.fire(300.0), None);
        // An envelope with rows after the preview removes it; one before it does not.
        g.frame(frame(10, Some("thinking"), "Hm"), 1000.0);
        assert!(!g.row(9));
        assert!(g.row(11));
        assert!(!g.row(12));
        // A frame older than the newest row is stale: removed, not shown.
        assert_eq!(
            g.frame(frame(10, Some("text"), "late"), 2000.0),
            GateAction::Show(None)
        );
        let c = frame(13, Some("text"), "new");
        assert_eq!(g.frame(c.clone(), 3000.0), GateAction::Show(Some(c)));
    }
}
