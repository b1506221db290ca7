//! The start page: how to open a log, and the sessions of the server that serves the page
//! (none on a static host), kept current while the server answers.

use leptos::prelude::*;

use crate::browser::{local_offset_min, page_token};
use crate::live::wire::{SessionItem, session_list, session_meta, with_token};

/// How often the session list is asked for again.
const REFRESH: std::time::Duration = std::time::Duration::from_secs(5);

/// Keeps `sessions` current: asks the server now and every [`REFRESH`] after, for as long as
/// it answers (on a static host the first ask fails and nothing repeats).
pub fn refresh_sessions(sessions: RwSignal<Vec<SessionItem>>) {
    leptos::task::spawn_local(async move {
        if let Ok(v) = crate::live::net::sessions().await {
            let list = session_list(&v);
            if sessions.with_untracked(|s| *s != list) {
                sessions.set(list);
            }
            set_timeout(move || refresh_sessions(sessions), REFRESH);
        }
    });
}

/// The start page, while `shown`.
#[component]
pub fn StartPage(
    /// Whether nothing else is shown.
    #[prop(into)]
    shown: Signal<bool>,
    /// The server's sessions.
    sessions: RwSignal<Vec<SessionItem>>,
) -> impl IntoView {
    move || {
        shown.get().then(|| {
            let list = sessions.get();
            // A page opened with ?token= passes it on to the sessions it links to.
            let token = page_token();
            view! {
                <div class="empty">
                    <p class="hint">
                        "Drop a " <code>".jsonl"</code>
                        " log anywhere on this page, paste one, or "
                        <label class="linkish" for="file">"pick a file"</label>
                        ". It is read and classified right here in your browser; nothing is uploaded."
                    </p>
                    <p class="hint">
                        "Claude Code stream-json and transcripts (~/.claude/projects/…), Codex exec --json and rollouts (~/.codex/sessions/…, .jsonl.zst too), Gemini CLI stream-json and chat recordings (~/.gemini/tmp/…/chats/) and hyperhive event logs all work."
                    </p>
                    {(!list.is_empty()).then(|| view! {
                        <h2>"Sessions on this server"</h2>
                        <ul class="sessions">
                            {list.into_iter().map(|s| {
                                let meta = session_meta(&s, local_offset_min);
                                let href = with_token(&format!("s/{}", s.id), token.as_deref());
                                view! {
                                    <li>
                                        <a href=href>{s.title}</a>
                                        {s.live.then(|| view! { <span class="badge">"live"</span> })}
                                        <span class="session-meta">{meta}</span>
                                    </li>
                                }
                            }).collect::<Vec<_>>()}
                        </ul>
                    })}
                </div>
            }
        })
    }
}
