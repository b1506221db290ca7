//! The live view's wire: `docs/API.md` of the server (history pages, SSE stream, state).
//!
//! Parsing is pure and tested natively; the fetch and `EventSource` parts exist in wasm only.
//! The stream is opened once with `?after=<head>` of the first history page; the browser's
//! `EventSource` reconnects by itself and resumes with `Last-Event-ID`, and the reducer drops
//! any envelope it already holds, so a reconnect neither loses nor repeats rows.
//!
//! `preview` frames (the partial message being written) never reach the reducer: they pass
//! a [`PreviewGate`] (at most one render every [`PREVIEW_EVERY_MS`], the newest state always
//! rendered in the end) into a signal of their own, shown as one row after the list.

use classifier::TermEnvelope;
use serde::Deserialize;
use serde_json::Value;

/// A page of history (`GET …/events/history`), newest first.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct HistoryPage {
    /// Envelopes, newest first.
    #[serde(default)]
    pub envelopes: Vec<TermEnvelope>,
    /// `before` for the next older page; `None` at the start of the session.
    #[serde(default)]
    pub next_before: Option<u64>,
    /// Newest stored seq at the time of the read.
    #[serde(default)]
    pub head: Option<u64>,
}

/// An SSE `preview` frame: the partial message being written (`docs/API.md`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct PreviewFrame {
    /// The event that last changed it.
    #[serde(default)]
    pub seq: u64,
    /// `text`, `thinking`, `tool_input`; `None`: nothing is being written.
    #[serde(default)]
    pub kind: Option<String>,
    /// The tool whose input is being written.
    #[serde(default)]
    pub tool: Option<String>,
    /// Everything written so far.
    #[serde(default)]
    pub text: String,
}

impl PreviewFrame {
    /// The row's icon: 💭 for thinking, ✍ otherwise.
    pub fn icon(&self) -> &'static str {
        if self.kind.as_deref() == Some("thinking") {
            "💭"
        } else {
            "✍"
        }
    }

    /// The text shown: its last [`PREVIEW_SHOWN_CHARS`] characters (`…` before a cut).
    pub fn shown_text(&self) -> String {
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

/// One header badge: a label and its text.
pub type Badge = (String, String);

fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::Null => None,
        Value::String(s) if s.is_empty() => None,
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => o
            .get("name")
            .or_else(|| o.get("state"))
            .and_then(text_of)
            .or_else(|| Some(v.to_string())),
        other => Some(other.to_string()),
    }
}

/// The header's badges from a state object (`GET …/state` or an SSE `state` frame):
/// status, model, effort, turns, tokens, cost, errors, warnings. Missing fields are left out.
pub fn badges(state: &Value) -> Vec<Badge> {
    let mut out = Vec::new();
    let mut push = |label: &str, v: Option<String>| {
        if let Some(v) = v {
            out.push((label.to_owned(), v));
        }
    };
    push("status", state.get("status").and_then(text_of));
    push("model", state.get("model").and_then(text_of));
    push("effort", state.get("effort").and_then(text_of));
    if let Some(turn) = state.get("turn") {
        let count = turn.get("count").and_then(Value::as_u64).unwrap_or(0);
        if count > 0 {
            push("turns", Some(count.to_string()));
        }
    }
    if let Some(usage) = state.get("usage").filter(|u| u.is_object()) {
        let n = |k: &str| usage.get(k).and_then(Value::as_u64).unwrap_or(0);
        let input =
            n("input_tokens") + n("cache_read_input_tokens") + n("cache_creation_input_tokens");
        push(
            "tokens",
            Some(format!("{input} in · {} out", n("output_tokens"))),
        );
    }
    if let Some(cost) = state.get("cost_usd").and_then(Value::as_f64)
        && cost > 0.0
    {
        push("cost", Some(format!("${cost:.4}")));
    }
    for (label, key) in [("errors", "errors"), ("warnings", "warnings")] {
        if let Some(n) = state.get(key).and_then(Value::as_u64)
            && n > 0
        {
            push(label, Some(n.to_string()));
        }
    }
    if state.get("live").and_then(Value::as_bool) == Some(false) {
        push("ended", Some("ended".to_owned()));
    }
    out
}

/// Whether the state says a turn is in flight.
pub fn turn_in_flight(state: &Value) -> bool {
    state
        .pointer("/turn/in_flight")
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

/// The session id of a page path `/s/{id}` (decoded; only the API's id characters).
pub fn session_of_path(path: &str) -> Option<String> {
    let id = path.strip_prefix("/s/")?.trim_end_matches('/');
    let ok = !id.is_empty()
        && id.len() <= 100
        && !id.starts_with('.')
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    ok.then(|| id.to_owned())
}

/// Appends the page's `?token=` (if any) to an API URL.
pub fn with_token(url: &str, token: Option<&str>) -> String {
    match token {
        None => url.to_owned(),
        Some(t) => {
            let sep = if url.contains('?') { '&' } else { '?' };
            format!("{url}{sep}token={t}")
        }
    }
}

/// A session as the start page lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionItem {
    /// Its id (the page is `s/{id}`).
    pub id: String,
    /// Its title, or the id when it has none.
    pub title: String,
    /// Whether its producer is still running.
    pub live: bool,
    /// When it was created (unix seconds), if the server said.
    pub started: Option<f64>,
    /// Events stored (its newest seq).
    pub events: u64,
    /// How its events arrive (`run`, `follow`, `post`, …), or empty.
    pub source: String,
}

/// Sessions of `GET /api/sessions`, in the server's order (newest first). An entry without
/// an id is left out; other missing fields get defaults.
pub fn session_list(v: &Value) -> Vec<SessionItem> {
    v.get("sessions")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|s| {
                    let id = s.get("id")?.as_str()?.to_owned();
                    let str_of = |k: &str| s.get(k).and_then(Value::as_str).unwrap_or_default();
                    let title = Some(str_of("title"))
                        .filter(|t| !t.is_empty())
                        .unwrap_or(&id)
                        .to_owned();
                    Some(SessionItem {
                        title,
                        live: s.get("live").and_then(Value::as_bool).unwrap_or(false),
                        started: s.get("started").and_then(Value::as_f64),
                        events: s.get("last_seq").and_then(Value::as_u64).unwrap_or(0),
                        source: str_of("source").to_owned(),
                        id,
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The line under a listed session's title: `2026-12-01 08:05 · 41 events · run` (local
/// time; parts the server did not give are left out).
pub fn session_meta(s: &SessionItem, offset_min: impl Fn(f64) -> i64) -> String {
    let mut parts = Vec::new();
    if let Some(t) = s.started {
        parts.push(crate::text::date_time(t, offset_min(t)));
    }
    parts.push(match s.events {
        1 => "1 event".to_owned(),
        n => format!("{n} events"),
    });
    if !s.source.is_empty() {
        parts.push(s.source.clone());
    }
    parts.join(" · ")
}

#[cfg(target_arch = "wasm32")]
pub use imp::*;

#[cfg(target_arch = "wasm32")]
mod imp {
    use super::*;
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    use web_sys::{EventSource, MessageEvent};

    /// The page's `?token=`, URL-encoded as it came.
    pub fn page_token() -> Option<String> {
        let search = web_sys::window()?.location().search().ok()?;
        search
            .trim_start_matches('?')
            .split('&')
            .find_map(|kv| kv.strip_prefix("token=").map(str::to_owned))
    }

    async fn get_json<T: serde::de::DeserializeOwned>(url: &str) -> Result<T, String> {
        use wasm_bindgen_futures::JsFuture;
        let url = with_token(url, page_token().as_deref());
        let window = web_sys::window().ok_or("no window")?;
        let err = |e: JsValue| format!("{e:?}");
        let resp: web_sys::Response = JsFuture::from(window.fetch_with_str(&url))
            .await
            .map_err(err)?
            .unchecked_into();
        let text = JsFuture::from(resp.text().map_err(err)?)
            .await
            .map_err(err)?
            .as_string()
            .unwrap_or_default();
        if !resp.ok() {
            return Err(format!("{} {}", resp.status(), text));
        }
        serde_json::from_str(&text).map_err(|e| e.to_string())
    }

    /// A page of history older than `before` (newest when `None`).
    pub async fn history(id: &str, before: Option<u64>, limit: u32) -> Result<HistoryPage, String> {
        let mut url = format!("/api/sessions/{id}/events/history?limit={limit}");
        if let Some(b) = before {
            url.push_str(&format!("&before={b}"));
        }
        get_json(&url).await
    }

    /// The badges object.
    pub async fn state(id: &str) -> Result<Value, String> {
        get_json(&format!("/api/sessions/{id}/state")).await
    }

    /// The session list (`GET /api/sessions`), or an error on a static host. Asked for
    /// relative to the start page (at `/` that is `/api/sessions`), so a page in a static
    /// host's subfolder asks for nothing outside it.
    pub async fn sessions() -> Result<Value, String> {
        get_json("api/sessions").await
    }

    /// The signals the live view writes.
    pub struct LiveSignals {
        /// Session id.
        pub id: String,
        /// The rows.
        pub state: leptos::prelude::RwSignal<crate::state::ViewState>,
        /// Banner title.
        pub title: leptos::prelude::RwSignal<String>,
        /// Banner badges.
        pub badges: leptos::prelude::RwSignal<Vec<Badge>>,
        /// The server's turn-in-flight.
        pub server_in_flight: leptos::prelude::RwSignal<bool>,
        /// Connection status text.
        pub conn: leptos::prelude::RwSignal<String>,
        /// `before` of the next older history page.
        pub next_before: leptos::prelude::RwSignal<Option<u64>>,
        /// A permalink's seq still to be found.
        pub pending_seq: leptos::prelude::RwSignal<Option<u64>>,
        /// The preview row (throttled).
        pub preview: leptos::prelude::RwSignal<Option<PreviewFrame>>,
    }

    /// Applies a gate's answer to the preview signal (arming its timer if asked).
    fn gate_action(
        gate: std::rc::Rc<std::cell::RefCell<PreviewGate>>,
        preview: leptos::prelude::RwSignal<Option<PreviewFrame>>,
        action: GateAction,
    ) {
        use leptos::prelude::*;
        match action {
            GateAction::Show(p) => preview.set(p),
            GateAction::Hold => {}
            GateAction::Wait(ms) => set_timeout(
                move || {
                    let next = gate.borrow_mut().fire(js_sys::Date::now());
                    if let Some(p) = next {
                        preview.set(p);
                    }
                },
                std::time::Duration::from_millis(ms.ceil().max(1.0) as u64),
            ),
        }
    }

    fn show_state(sig: &LiveSignals, v: &Value) {
        use leptos::prelude::*;
        if let Some(t) = v
            .get("title")
            .and_then(Value::as_str)
            .filter(|t| !t.is_empty())
        {
            sig.title.set(t.to_owned());
        }
        sig.badges.set(badges(v));
        sig.server_in_flight.set(turn_in_flight(v));
    }

    /// Loads the newest history page (and older ones until a permalink's row is held), then
    /// follows the stream from the page's head.
    pub fn connect(sig: LiveSignals) {
        use leptos::prelude::*;
        sig.title.set(sig.id.clone());
        sig.conn.set("loading…".into());
        leptos::task::spawn_local(async move {
            if let Ok(v) = state(&sig.id).await {
                show_state(&sig, &v);
            }
            let first = match history(&sig.id, None, 500).await {
                Ok(p) => p,
                Err(e) => {
                    sig.conn.set(format!("cannot load: {e}"));
                    return;
                }
            };
            let head = first.head.unwrap_or(0);
            sig.state
                .update(|s| crate::state::prepend(s, &first.envelopes));
            sig.next_before.set(first.next_before);
            // A permalink to an older row: page back until it is held.
            for _ in 0..50 {
                let Some(want) = sig.pending_seq.get_untracked() else {
                    break;
                };
                let Some(before) = sig.next_before.get_untracked() else {
                    break;
                };
                let held = sig
                    .state
                    .with_untracked(|s| s.seq_range().0.is_some_and(|f| f <= want));
                if held {
                    break;
                }
                match history(&sig.id, Some(before), 1000).await {
                    Ok(p) => {
                        sig.state.update(|s| crate::state::prepend(s, &p.envelopes));
                        sig.next_before.set(p.next_before);
                    }
                    Err(_) => break,
                }
            }
            let state_sig = sig.state;
            let conn = sig.conn;
            let preview = sig.preview;
            let gate = std::rc::Rc::new(std::cell::RefCell::new(PreviewGate::default()));
            let sig2 = std::rc::Rc::new(sig);
            let sig3 = sig2.clone();
            let opened = stream(&sig2.id, head, move |m| match m {
                StreamMsg::Envelope(env) => {
                    if replaces_preview(&env)
                        && let Some(seq) = env.seq
                        && gate.borrow_mut().row(seq)
                    {
                        preview.set(None);
                    }
                    state_sig.update(|s| crate::state::apply(s, &env));
                }
                StreamMsg::Preview(f) => {
                    let action = gate.borrow_mut().frame(f, js_sys::Date::now());
                    gate_action(gate.clone(), preview, action);
                }
                StreamMsg::State(v) => show_state(&sig3, &v),
                StreamMsg::Open => {
                    // The server sends the current preview after the backlog.
                    let action = gate.borrow_mut().clear();
                    gate_action(gate.clone(), preview, action);
                    conn.set("● connected".into());
                }
                StreamMsg::Error => conn.set("reconnecting…".into()),
            });
            match opened {
                Ok(s) => std::mem::forget(s),
                Err(e) => conn.set(format!("cannot stream: {e}")),
            }
        });
    }

    /// What the stream reports.
    pub enum StreamMsg {
        /// An envelope.
        Envelope(TermEnvelope),
        /// A state frame.
        State(Value),
        /// A preview frame.
        Preview(PreviewFrame),
        /// Connected (again).
        Open,
        /// Lost; the browser retries.
        Error,
    }

    /// An open SSE stream; dropping it closes it.
    pub struct Stream {
        es: EventSource,
        _closures: Vec<Closure<dyn FnMut(web_sys::Event)>>,
    }

    impl Drop for Stream {
        fn drop(&mut self) {
            self.es.close();
        }
    }

    /// Turns an SSE event's `data` (absent for `open`/`error`) into what the stream reports.
    type ParseData = fn(Option<String>) -> Option<StreamMsg>;

    /// Opens the stream after `after`.
    pub fn stream(
        id: &str,
        after: u64,
        on: impl Fn(StreamMsg) + 'static,
    ) -> Result<Stream, String> {
        let url = with_token(
            &format!("/api/sessions/{id}/events/stream?after={after}"),
            page_token().as_deref(),
        );
        let es = EventSource::new(&url).map_err(|e| format!("{e:?}"))?;
        let on = std::rc::Rc::new(on);
        // Each SSE event name and what its `data` becomes; `open`/`error` carry none.
        let listeners: [(&str, ParseData); 5] = [
            ("message", |d| {
                serde_json::from_str(&d?).ok().map(StreamMsg::Envelope)
            }),
            ("state", |d| {
                serde_json::from_str(&d?).ok().map(StreamMsg::State)
            }),
            ("preview", |d| {
                serde_json::from_str(&d?).ok().map(StreamMsg::Preview)
            }),
            ("open", |_| Some(StreamMsg::Open)),
            ("error", |_| Some(StreamMsg::Error)),
        ];
        let mut closures = Vec::new();
        for (name, parse) in listeners {
            let o = on.clone();
            let c = Closure::wrap(Box::new(move |ev: web_sys::Event| {
                let data = ev
                    .dyn_ref::<MessageEvent>()
                    .and_then(|m| m.data().as_string());
                if let Some(msg) = parse(data) {
                    o(msg);
                }
            }) as Box<dyn FnMut(web_sys::Event)>);
            es.add_event_listener_with_callback(name, c.as_ref().unchecked_ref())
                .map_err(|e| format!("{e:?}"))?;
            closures.push(c);
        }
        Ok(Stream {
            es,
            _closures: closures,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn history_page_parses_the_documented_shape() {
        let page: HistoryPage = serde_json::from_value(json!({
            "envelopes": [{"ts": 2.0, "seq": 9, "msgs": [{"level": "info", "summary": "x"}]}],
            "next_before": 9, "head": 12
        }))
        .unwrap();
        assert_eq!(page.envelopes.len(), 1);
        assert_eq!(page.next_before, Some(9));
        assert_eq!(page.head, Some(12));
        let end: HistoryPage =
            serde_json::from_value(json!({"envelopes": [], "next_before": null, "head": 0}))
                .unwrap();
        assert_eq!(end.next_before, None);
    }

    #[test]
    fn badges_from_state() {
        let state = json!({
            "status": "busy", "model": "claude-opus-5-5", "effort": null,
            "usage": {"input_tokens": 3866, "output_tokens": 800, "cache_read_input_tokens": 4},
            "turn": {"in_flight": true, "count": 3}, "cost_usd": 0.031464,
            "errors": 2, "warnings": 0, "live": true
        });
        let b = badges(&state);
        let want: Vec<Badge> = [
            ("status", "busy"),
            ("model", "claude-opus-5-5"),
            ("turns", "3"),
            ("tokens", "3870 in · 800 out"),
            ("cost", "$0.0315"),
            ("errors", "2"),
        ]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        assert_eq!(b, want);
        assert!(turn_in_flight(&state));
        assert!(!turn_in_flight(&json!({})));
        assert_eq!(
            badges(&json!({"live": false})),
            vec![("ended".into(), "ended".into())]
        );
    }

    fn frame(seq: u64, kind: Option<&str>, text: &str) -> PreviewFrame {
        PreviewFrame {
            seq,
            kind: kind.map(str::to_owned),
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
                kind: Some("tool_input".into()),
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

    #[test]
    fn session_list_reads_the_documented_shape() {
        let v = serde_json::json!({"sessions": [
            {"id": "run-1", "title": "fix the build", "source": "run", "started": 1_764_468_000.5,
             "ended": null, "live": true, "last_seq": 41},
            {"id": "bare"},
            {"title": "no id"},
            {"id": "one", "title": "", "last_seq": 1, "live": false},
        ]});
        let list = session_list(&v);
        assert_eq!(
            list.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
            ["run-1", "bare", "one"]
        );
        let meta = |s: &SessionItem| session_meta(s, |_| 0);
        assert_eq!(list[0].title, "fix the build");
        assert!(list[0].live);
        assert_eq!(meta(&list[0]), "2025-11-30 02:00 · 41 events · run");
        assert_eq!(list[1].title, "bare");
        assert_eq!(meta(&list[1]), "0 events");
        assert_eq!(list[2].title, "one", "an empty title shows the id");
        assert_eq!(meta(&list[2]), "1 event");
        assert_eq!(
            session_meta(&list[0], |_| 60),
            "2025-11-30 03:00 · 41 events · run"
        );
        assert!(session_list(&serde_json::json!({"sessions": 3})).is_empty());
    }

    #[test]
    fn session_paths() {
        let check = |p: &str, want: Option<&str>| {
            assert_eq!(session_of_path(p).as_deref(), want, "{p}");
        };
        check("/s/run-1", Some("run-1"));
        check("/s/run-1/", Some("run-1"));
        check("/s/", None);
        check("/s/.hidden", None);
        check("/s/a b", None);
        check("/", None);
        check("/x/abc", None);
    }

    #[test]
    fn token_is_appended() {
        assert_eq!(with_token("/a", None), "/a");
        assert_eq!(with_token("/a", Some("t")), "/a?token=t");
        assert_eq!(with_token("/a?b=1", Some("t")), "/a?b=1&token=t");
    }
}
