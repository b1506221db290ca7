//! A comparison link (issue 48): `hiveterm share --compare A B`, or `POST
//! /api/compare/{a}/{b}/shares` — a share of two sessions' comparison and of nothing else.
//!
//! It is a share like a session's (one row of the store's `shares`, `session` A and
//! `compare_with` B): the same token, expiry, revocation and listing, checked on every
//! request. A **snapshot** (the default) reaches each session's newest event when it was made
//! (`snapshot_seq` A's, `compare_seq` B's); a **live** one compares the sessions as they are
//! when it is read. A **redacted** one reads both sessions' events through the redactor before
//! they are classified (as a redacted session link reads them), then passes every string of
//! the answer — the sessions' ids among them — through it again (`crate::compare::redact`).
//!
//! What its token opens (every other read under `/p/<token>` is `404`, `crate::share::view`):
//!
//! | method and path                  | answer                                               |
//! |----------------------------------|------------------------------------------------------|
//! | `GET /p/<token>`                 | `303` to `/p/<token>/compare`                        |
//! | `GET /p/<token>/compare`         | the page (`index.html`), which shows the comparison  |
//! | `GET /p/<token>/api/share`       | what the link is (`compare: true`, its title)        |
//! | `GET /p/<token>/api/compare`     | the comparison: `GET /api/compare/{a}/{b}`'s answer, as of the snapshots |
//!
//! The page shows a step's `#seq` as text, not as a link to its session: the link grants the
//! comparison, not the sessions' rows.

use axum::extract::{Path, Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use contract::share::{Review, ShareInfo};

use super::{
    Created, ShareError, ShareOptions, check_title, dead_page, new_token, resolve, token_hash,
};
use crate::error::AppError;
use crate::state::AppState;
use crate::store::{NewShare, Share, Store, StoreError};

/// Makes a comparison link of sessions `a` and `b` as of `now`: a snapshot of each up to its
/// newest stored event, or live. A comparison has no notes, so no comment link.
pub async fn create(
    store: &Store,
    (a, b): (&str, &str),
    options: &ShareOptions,
    now: f64,
) -> Result<Created, ShareError> {
    for id in [a, b] {
        if !crate::error::valid_session_id(id) {
            return Err(ShareError::NoSession(id.to_owned()));
        }
    }
    if options.comments {
        return Err(ShareError::Bad(
            "a comparison link takes no comments: its page has no notes".into(),
        ));
    }
    check_title(options)?;
    let (ia, ib) = (info_of(store, a).await?, info_of(store, b).await?);
    let token = new_token().map_err(ShareError::Failed)?;
    let share = store
        .create_share(NewShare {
            session: ia.id,
            token_hash: token_hash(&token),
            title: options.title.clone().filter(|t| !t.trim().is_empty()),
            created_at: now,
            expires_at: options.expires_in.map(|s| now + s as f64),
            snapshot_seq: (!options.live).then_some(ia.last_seq),
            redact: options.redact,
            comments: false,
            compare_with: Some(ib.id),
            compare_seq: (!options.live).then_some(ib.last_seq),
        })
        .await?;
    Ok(Created { share, token })
}

/// Session `id`'s row, or why not.
async fn info_of(store: &Store, id: &str) -> Result<crate::store::SessionInfo, ShareError> {
    store
        .session_info(id)
        .await?
        .ok_or_else(|| ShareError::NoSession(id.to_owned()))
}

/// The title a comparison link's readers see: the share's, else `A ↔ B`; redacted when the
/// link is.
pub fn title(share: &Share) -> String {
    let title = share.title.clone().unwrap_or_else(|| {
        let b = share.compare_with.as_deref().unwrap_or_default();
        format!("{} ↔ {b}", share.session)
    });
    if share.redact {
        classifier::redact::redact_text(&title).0.into_owned()
    } else {
        title
    }
}

/// What a comparison link says of itself (`GET /p/<token>/api/share`).
pub(crate) fn info(share: &Share) -> ShareInfo {
    ShareInfo {
        title: Some(title(share)),
        created_at: Some(share.created_at),
        expires_at: share.expires_at,
        live: share.live(),
        // Two sessions' snapshots: `GET /api/shares` lists their seqs.
        snapshot_seq: None,
        redact: share.redact,
        comments: false,
        compare: true,
    }
}

/// The comparison a link shows, as JSON: the sessions up to their snapshots (now, for a live
/// link), aligned on a blocking thread; redacted when the link is. A session gone since is
/// `404` (naming neither).
pub async fn answer(store: &Store, share: &Share) -> Result<String, AppError> {
    let gone = || AppError::NotFound("no such share link".into());
    let b = share.compare_with.as_deref().ok_or_else(gone)?;
    let read = |e: String| {
        if e.starts_with("no session") {
            gone()
        } else {
            AppError::Internal(e)
        }
    };
    let redact = share.redact;
    let sa = crate::compare::read_session_at(store, &share.session, share.snapshot_seq, redact)
        .await
        .map_err(read)?;
    let sb = crate::compare::read_session_at(store, b, share.compare_seq, redact)
        .await
        .map_err(read)?;
    tokio::task::spawn_blocking(move || {
        let json = crate::compare::api::answer_json(&sa, &sb);
        if redact {
            crate::compare::redact::redact_json(&json).0
        } else {
            json
        }
    })
    .await
    .map_err(|e| AppError::Internal(e.to_string()))
}

/// The redactions a redacted comparison link makes in its sessions' events (up to its
/// snapshots; a live one's: up to now), for review: A's, then B's.
pub async fn reports(store: &Store, share: &Share) -> Result<[Review; 2], StoreError> {
    let a = crate::redacted::report_of(store, share).await?;
    let of_b = Share {
        session: share.compare_with.clone().unwrap_or_default(),
        snapshot_seq: share.compare_seq,
        ..share.clone()
    };
    let b = crate::redacted::report_of(store, &of_b).await?;
    Ok([a, b])
}

/// Both sessions' reviews as one (`POST …/shares`' `redactions`): the counts summed, A's
/// items then B's (as many as one review lists).
pub fn merged([a, b]: [Review; 2]) -> Review {
    let mut report = a.report;
    report.count += b.report.count;
    report.events += b.report.events;
    let room = contract::share::REPORT_ITEMS.saturating_sub(report.items.len());
    report.items.extend(b.report.items.into_iter().take(room));
    report.truncated = report.count > report.items.len() as u64;
    Review { report, ..a }
}

/// `GET /p/<token>/api/compare`: a comparison link's comparison; `404` under a session's.
pub(crate) async fn read(
    State(state): State<AppState>,
    Path(token): Path<String>,
) -> Result<Response, AppError> {
    let share = resolve(state.store(), &token, crate::clock::now()).await?;
    if !share.is_comparison() {
        return Err(AppError::NotFound("no such API route".into()));
    }
    let body = answer(state.store(), &share).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// `GET /p/<token>/compare`: the page of a comparison link (a dead one's short page; `404`
/// for a session's link, whose page is `/p/<token>`).
pub(crate) async fn page(
    State(state): State<AppState>,
    Path(token): Path<String>,
    req: Request,
) -> Response {
    if let Some(res) = crate::web::built_file(&state, req).await {
        return res;
    }
    match resolve(state.store(), &token, crate::clock::now()).await {
        Err(e) => dead_page(e),
        Ok(share) if !share.is_comparison() => {
            dead_page(AppError::NotFound("no such share link".into()))
        }
        Ok(_) => match crate::web::built_index(&state).await {
            Some(html) => crate::web::serve_index(html),
            None => (
                StatusCode::OK,
                axum::response::Html(
                    "<!doctype html><meta charset=utf-8><title>hiveterm</title>\
                     <p>The page is not built. This link's comparison: <a href=\"api/compare\">JSON</a>.</p>",
                ),
            )
                .into_response(),
        },
    }
}

/// Where `/p/<token>` (or `/p/<token>/`, `path`) sends a comparison link's reader: its page,
/// relative to the path (so a proxy's prefix stays).
pub(crate) fn redirect(path: &str, token: &str) -> Response {
    let to = if path.ends_with('/') {
        "compare".to_owned()
    } else {
        format!("{token}/compare")
    };
    (StatusCode::SEE_OTHER, [(header::LOCATION, to)]).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use contract::share::{Redaction, Report};

    fn review(count: u64, items: usize) -> Review {
        Review {
            report: Report {
                count,
                events: count,
                items: vec![Redaction::default(); items],
                truncated: count > items as u64,
            },
            note: "n".into(),
        }
    }

    #[test]
    fn issue_48_both_sessions_reviews_are_one() {
        let m = merged([review(2, 2), review(3, 3)]);
        assert_eq!((m.report.count, m.report.events), (5, 5));
        assert_eq!(m.report.items.len(), 5);
        assert!(!m.report.truncated);
        assert_eq!(m.note, "n");
        let full = merged([review(999, 999), review(5, 5)]);
        assert_eq!(full.report.items.len(), contract::share::REPORT_ITEMS);
        assert!(full.report.truncated);
    }

    #[test]
    fn issue_48_a_comparison_links_title_and_its_page() {
        let key = format!("sk-ant-api03-{}", "A".repeat(95));
        let mut share = Share {
            session: "a".into(),
            compare_with: Some(key.clone()),
            ..Share::default()
        };
        assert_eq!(title(&share), format!("a ↔ {key}"));
        share.redact = true;
        assert!(!title(&share).contains(&key), "{}", title(&share));
        assert!(info(&share).compare);
        let at = |path: &str| {
            redirect(path, "T")
                .headers()
                .get(header::LOCATION)
                .unwrap()
                .to_str()
                .unwrap()
                .to_owned()
        };
        assert_eq!(at("/p/T"), "T/compare");
        assert_eq!(at("/x/p/T/"), "compare");
    }
}
