//! A redacted share's rows (`crate::share`): the session's raw events, each passed through
//! `classifier::redact::redact_line` and then through the one fold (`crate::fold`), from the
//! first event on — so rows, bodies, badges and the summary all come from redacted data, and
//! a secret split across a tool call and its result is gone from both.
//!
//! The fold is kept per share in memory ([`Cache`], a few shares at most) and moved on as
//! the session grows (a live share); a server restart folds again on first use. Partial
//! message previews are never sent under a redacted share (they are not stored, so not
//! redacted).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use classifier::redact::redact_line;
use serde_json::json;
use tokio::sync::MutexGuard;

use crate::badges::Badges;
use crate::error::AppError;
use crate::fold::{SessionFold, StoredEvent};
use crate::hub::push_json_frame;
use crate::store::{HistoryPage, Share, Store, StoreError};

/// Events read from the store at a time.
const CHUNK: u64 = 512;
/// Redactions listed one by one in a report (all are counted): the export's.
pub use onefile::REPORT_ITEMS;
/// Redacted shares whose fold stays in memory.
const CACHED: usize = 16;

/// The redacted folds of the shares read lately, by share id.
#[derive(Default)]
pub struct Cache {
    map: Mutex<HashMap<u64, Arc<Redacted>>>,
}

impl Cache {
    /// The redacted fold of `share` (a redacted one), made empty on first use.
    pub(crate) fn of(&self, share: &Share) -> Arc<Redacted> {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = map.get(&share.id) {
            return r.clone();
        }
        if map.len() >= CACHED {
            // Drop the ones no request holds; if all are held, one more is fine for now.
            map.retain(|_, r| Arc::strong_count(r) > 1);
        }
        let r = Arc::new(Redacted {
            session: share.session.clone(),
            folded: tokio::sync::Mutex::new(Folded::default()),
        });
        map.insert(share.id, r.clone());
        r
    }

    /// Forgets share `id`'s fold (it was revoked).
    pub(crate) fn forget(&self, id: u64) {
        self.map
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
    }
}

/// One redacted share's fold.
pub struct Redacted {
    session: String,
    folded: tokio::sync::Mutex<Folded>,
}

/// Redacted events folded so far.
#[derive(Default)]
pub struct Folded {
    /// The newest event folded.
    pos: u64,
    fold: SessionFold,
    /// The envelopes with rows, oldest first: seq and JSON.
    envs: Vec<(u64, String)>,
    /// The redactions: how many, on how many events, the first [`REPORT_ITEMS`] (seq, kind,
    /// masked preview); kept as the one-file export keeps its own.
    report: onefile::Report,
}

impl Redacted {
    /// The fold moved on to event `upto` (at least), locked.
    pub(crate) async fn upto(
        &self,
        store: &Store,
        upto: u64,
    ) -> Result<MutexGuard<'_, Folded>, StoreError> {
        let mut folded = self.folded.lock().await;
        while folded.pos < upto {
            let to = upto.min(folded.pos + CHUNK);
            let events = store.events(&self.session, folded.pos, to).await?;
            for ev in events {
                folded.step(ev);
            }
            folded.pos = to;
        }
        Ok(folded)
    }
}

impl Folded {
    fn step(&mut self, mut ev: StoredEvent) {
        let seq = ev.seq();
        let redacted = redact_line(&ev.line.bytes);
        if !redacted.findings.is_empty() {
            self.report.add(seq, &redacted.findings);
            ev.line.bytes = redacted.line.into_owned();
        }
        let env = self.fold.step_stored(&ev).env;
        if !env.msgs.is_empty()
            && let Ok(json) = serde_json::to_string(&env)
        {
            self.envs.push((seq, json));
        }
    }

    /// The badges after the newest folded event.
    pub(crate) fn badges(&self) -> Badges {
        self.fold.badges.clone()
    }

    /// The summary after the newest folded event.
    pub(crate) fn summary(&self) -> classifier::Summary {
        self.fold.summary.summary()
    }

    /// A history page of envelopes `< before` and `<= head` (the shape of `docs/API.md`).
    pub(crate) fn page(&self, head: u64, before: Option<u64>, limit: usize) -> Vec<u8> {
        let hi = before.map_or(head + 1, |b| b.min(head + 1));
        let end = self.envs.partition_point(|(seq, _)| *seq < hi);
        let mut page = HistoryPage::new(limit);
        for (seq, json) in self.envs[..end].iter().rev() {
            if !page.push(*seq, json) {
                break;
            }
        }
        page.finish(head)
    }

    /// SSE frames of the envelopes of events `(after, upto]`.
    pub(crate) fn frames(&self, after: u64, upto: u64) -> Vec<u8> {
        let from = self.envs.partition_point(|(seq, _)| *seq <= after);
        let mut out = Vec::new();
        for (seq, json) in self.envs[from..].iter().take_while(|(seq, _)| *seq <= upto) {
            push_json_frame(&mut out, *seq, json);
        }
        out
    }

    /// The redactions so far, for a human to review before the link is sent:
    /// `{"count", "events", "items": [{"seq", "kind", "preview"}…], "truncated"}`
    /// ([`onefile::Report`]: the export's report, the same shape), and a `note`.
    pub(crate) fn report(&self) -> serde_json::Value {
        let mut report = serde_json::to_value(&self.report).unwrap_or_else(|_| json!({}));
        report["note"] =
            json!("pattern redaction is best effort: review the rows before sending the link");
        report
    }
}

/// The redaction report of a redacted share, as of its snapshot (a live one: as of now),
/// from the server's fold of it (which the share's first reads then find made).
pub(crate) async fn report(
    store: &Store,
    cache: &Cache,
    share: &Share,
) -> Result<serde_json::Value, AppError> {
    let head = reach(store, share).await?;
    let redacted = cache.of(share);
    Ok(redacted.upto(store, head).await?.report())
}

/// The redaction report of a redacted share (see [`Folded::report`]), folded afresh: what
/// `hiveterm share --redact` prints for review.
pub async fn report_of(store: &Store, share: &Share) -> Result<serde_json::Value, StoreError> {
    let head = reach(store, share).await?;
    let redacted = Redacted {
        session: share.session.clone(),
        folded: tokio::sync::Mutex::new(Folded::default()),
    };
    Ok(redacted.upto(store, head).await?.report())
}

/// The newest seq a share shows now.
async fn reach(store: &Store, share: &Share) -> Result<u64, StoreError> {
    Ok(match share.snapshot_seq {
        Some(seq) => seq,
        None => store
            .session_info(&share.session)
            .await?
            .map_or(0, |i| i.last_seq),
    })
}

/// Writes session `session`'s raw events up to `upto` (all when `None`) to `out`, one line
/// each, redacted when `redact` (each line through `classifier::redact::redact_line`): the
/// log a share shows, for a one-file export of it (`hiveterm share … --export`).
pub async fn write_log(
    store: &Store,
    session: &str,
    upto: Option<u64>,
    redact: bool,
    out: &mut impl std::io::Write,
) -> Result<(), String> {
    let head = match upto {
        Some(seq) => seq,
        None => {
            store
                .session_info(session)
                .await
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("no session {session}"))?
                .last_seq
        }
    };
    let mut pos = 0;
    while pos < head {
        let to = head.min(pos + CHUNK);
        for ev in store
            .events(session, pos, to)
            .await
            .map_err(|e| e.to_string())?
        {
            let line = if redact {
                redact_line(&ev.line.bytes).line.into_owned()
            } else {
                ev.line.bytes
            };
            out.write_all(&line)
                .and_then(|()| out.write_all(b"\n"))
                .map_err(|e| format!("cannot write: {e}"))?;
        }
        pos = to;
    }
    Ok(())
}
