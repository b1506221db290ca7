//! The share button of a live session's page (not of a share link's): its dialog takes the
//! options (expiry, live, redact, title), makes the share (`POST /api/sessions/{id}/shares`
//! with the page's `?token=`), shows a redacted share's redactions for review before its link
//! (cancelling revokes it), then the link to copy. The steps are [`crate::share::form`]'s.

use leptos::prelude::*;

use crate::browser;
use crate::live::net;
use crate::share::form::{
    BEST_EFFORT, Created, Expires, Report, ShareForm, Step, link_of, report_of,
};
use crate::share::redaction_review::RedactionReview;

/// Makes the share of `session` with `form`, then the dialog's next step.
fn make(session: String, form: ShareForm, step: RwSignal<Step>) {
    step.set(Step::Making);
    leptos::task::spawn_local(async move {
        let url = format!("/api/sessions/{session}/shares");
        let answer: Result<Created, _> = net::write_json("POST", &url, Some(&form.body())).await;
        step.set(match answer {
            Ok(created) => Step::made(created),
            Err(e) => Step::Options(Some(format!("the link was not made: {e}"))),
        });
    });
}

/// Revokes a share whose redactions were not accepted (its link was never shown).
fn revoke(id: u64, step: RwSignal<Step>) {
    step.set(Step::Making);
    leptos::task::spawn_local(async move {
        let url = format!("/api/shares/{id}");
        let answer: Result<contract::share::Listed, _> =
            net::write_json("DELETE", &url, None).await;
        step.set(match answer {
            Ok(_) => Step::Closed,
            Err(e) => Step::Options(Some(format!(
                "the unsent link {id} could not be revoked ({e}): revoke it with hiveterm share --revoke {id}"
            ))),
        });
    });
}

/// The button and its dialog.
#[component]
pub fn ShareButton(
    /// The session shared.
    session: String,
) -> impl IntoView {
    let step = RwSignal::new(Step::Closed);
    let form = RwSignal::new(ShareForm::default());
    let session = StoredValue::new(session);
    view! {
        <button
            class="share-open"
            title="make a read-only link to this session"
            on:click=move |_| {
                if step.with_untracked(|s| *s == Step::Closed) {
                    step.set(Step::Options(None));
                }
            }
        >"share…"</button>
        {move || match step.get() {
            Step::Closed => None,
            Step::Options(error) => Some(view! { <Options form step error session /> }.into_any()),
            Step::Making => Some(view! {
                <div class="share-dialog" role="dialog"><p>"making the link…"</p></div>
            }.into_any()),
            Step::Review(created) => Some(view! { <Review created step /> }.into_any()),
            Step::Done(created) => Some(view! { <Done created step /> }.into_any()),
        }}
    }
}

/// The options, and "make link".
#[component]
fn Options(
    form: RwSignal<ShareForm>,
    step: RwSignal<Step>,
    error: Option<String>,
    session: StoredValue<String>,
) -> impl IntoView {
    view! {
        <div class="share-dialog" role="dialog" aria-label="share this session">
            <p class="share-what">
                "A read-only link to this session: its rows and summary, nothing else of this server."
            </p>
            <label class="share-opt">
                "title "
                <input
                    type="text"
                    class="share-title"
                    placeholder="the session's"
                    maxlength="200"
                    prop:value=move || form.with(|f| f.title.clone())
                    on:input=move |e| {
                        let t = event_target_value(&e);
                        form.update(|f| f.title = t);
                    }
                />
            </label>
            <label class="share-opt">
                "expires "
                <select
                    class="share-expires"
                    on:change=move |e| {
                        let v = Expires::of(&event_target_value(&e));
                        form.update(|f| f.expires = v);
                    }
                >
                    {Expires::ALL.map(|x| view! {
                        <option value=x.as_str() selected=move || form.with(|f| f.expires == x)>
                            {x.label()}
                        </option>
                    })}
                </select>
            </label>
            <Check
                form
                class="share-live"
                label="live: follows the session as it grows (else a snapshot of it now)"
                get=|f| f.live
                set=|f, on| f.live = on
            />
            <Check form class="share-redact" label="redact secrets" get=|f| f.redact set=|f, on| f.redact = on />
            <p class="share-note" hidden=move || !form.with(|f| f.redact)>{BEST_EFFORT}</p>
            {error.map(|e| view! { <p class="share-error">{e}</p> })}
            <div class="share-actions">
                <button
                    class="share-make"
                    on:click=move |_| make(session.get_value(), form.get_untracked(), step)
                >"make link"</button>
                <button class="share-cancel" on:click=move |_| step.set(Step::Closed)>"cancel"</button>
            </div>
        </div>
    }
}

/// One checkbox of the options.
#[component]
fn Check(
    form: RwSignal<ShareForm>,
    class: &'static str,
    label: &'static str,
    get: fn(&ShareForm) -> bool,
    set: fn(&mut ShareForm, bool),
) -> impl IntoView {
    view! {
        <label class="share-opt">
            <input
                type="checkbox"
                class=class
                prop:checked=move || form.with(get)
                on:change=move |e| {
                    let on = event_target_checked(&e);
                    form.update(|f| set(f, on));
                }
            />
            {label}
        </label>
    }
}

/// A redacted share's redactions, for review before its link shows.
#[component]
fn Review(created: Created, step: RwSignal<Step>) -> impl IntoView {
    let report: Report = report_of(&created).unwrap_or_default();
    let id = created.listed.share.id;
    view! {
        <div class="share-dialog share-review" role="dialog" aria-label="review the redactions">
            <RedactionReview report unit="event" note=BEST_EFFORT />
            <div class="share-actions">
                <button
                    class="share-accept"
                    on:click=move |_| step.update(|s| *s = std::mem::take(s).accept())
                >"the redactions look right: show the link"</button>
                <button
                    class="share-cancel"
                    title="the link was made but not shown: cancelling revokes it"
                    on:click=move |_| revoke(id, step)
                >"cancel (revokes it)"</button>
            </div>
        </div>
    }
}

/// The link, to copy.
#[component]
fn Done(created: Created, step: RwSignal<Step>) -> impl IntoView {
    let link = link_of(&created, &browser::origin());
    let expires = match created.listed.share.expires_at {
        Some(t) => format!(
            "It opens until {}.",
            crate::model::text::date_time(t, browser::local_offset_min(t))
        ),
        None => "It opens until it is revoked.".to_owned(),
    };
    let copied = RwSignal::new(false);
    let to_copy = link.clone();
    view! {
        <div class="share-dialog share-done" role="dialog" aria-label="the link">
            <p>"Anyone with this link can read this session (and nothing else):"</p>
            <input class="share-url" type="text" readonly prop:value=link />
            <p class="share-expiry">
                {expires}
                " Revoke it with "
                <code>{format!("hiveterm share --revoke {}", created.listed.share.id)}</code>
                "."
            </p>
            <div class="share-actions">
                <button
                    class="share-copy"
                    on:click=move |_| {
                        browser::copy_text(&to_copy);
                        copied.set(true);
                    }
                >{move || if copied.get() { "copied ✓" } else { "copy" }}</button>
                <button class="share-cancel" on:click=move |_| step.set(Step::Closed)>"close"</button>
            </div>
        </div>
    }
}
