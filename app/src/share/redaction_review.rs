//! The redactions of a share or a saved file, shown for review before the link or the file
//! leaves the page: the headline, what pattern redaction is (best effort), and every
//! redaction listed (where, what kind, a masked preview). The share dialog
//! ([`crate::share::button`]) and "save as one file" ([`crate::share::save_button`]) both show it.

use leptos::prelude::*;

use crate::share::form::{Report, ShareText};

/// The report: `unit` names what `seq` counts (`event` of a session, `line` of a log), and
/// `note` says what redaction is worth before what is sent.
#[component]
pub fn RedactionReview(report: Report, unit: &'static str, note: &'static str) -> impl IntoView {
    view! {
        <p class="share-headline">{report.headline_in(unit)}</p>
        <p class="share-note">{note}</p>
        <ol class="share-redactions">
            {report.items.into_iter().map(|r| view! {
                <li>
                    <span class="share-seq">{format!("{unit} {}", r.seq)}</span>
                    " "
                    <span class="share-kind">{r.kind}</span>
                    " "
                    <code class="share-preview">{r.preview}</code>
                </li>
            }).collect::<Vec<_>>()}
        </ol>
    }
}
