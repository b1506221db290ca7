//! A redacted share's rows (`crate::share`): the session's raw events, passed in order through
//! one `classifier::redact::Redactor` (a secret over several events goes whole) and then through the one fold (`crate::fold`), from the
//! first event on — so rows, bodies, badges and the summary all come from redacted data, and
//! a secret split across a tool call and its result is gone from both.
//!
//! **Memory does not grow with the shares, nor with the session's rows** (issue 25). Every
//! redacted share of a session shows the same rows up to its own last event, so the fold is
//! kept once per session ([`Cache`], a few sessions at most), and it keeps no envelope: only
//! the fold after the newest event folded (its tip), copies of it every 1,024 events or
//! [`crate::fold::CHECKPOINT_BYTES`] (its checkpoints, at most 64: beyond, every other one is
//! dropped and the spacing doubles), and the newest envelopes, up to 1 MiB, for a live tail
//! (`folded`). A history page, a snapshot's badges or summary, a stream's
//! backlog is folded again from the newest checkpoint before it: a bounded piece of work,
//! like a snapshot read of the session (a checkpoint and the events after it). The events are
//! read in pieces of about 4 MiB at most. A server restart folds again on first
//! use. Partial message previews are never sent under a redacted share (they are not stored,
//! so not redacted).

mod folded;
mod view;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use classifier::redact::Redactor;

use self::folded::{Folded, read_events};
use crate::store::{Share, Store, StoreError};

/// Redactions listed one by one in a report (all are counted): the export's.
pub use onefile::REPORT_ITEMS;
pub(crate) use view::View;

/// Sessions whose redacted fold stays in memory.
const CACHED: usize = 8;

/// The redacted folds of the sessions read lately under a redacted share, by session.
#[derive(Default)]
pub struct Cache {
    map: Mutex<HashMap<String, Arc<Redacted>>>,
}

impl Cache {
    /// The redacted fold of `share`'s session (`share` is a redacted one), made empty on
    /// first use; shared by every redacted share of the session.
    pub(crate) fn of(&self, share: &Share) -> Arc<Redacted> {
        self.of_session(&share.session)
    }

    /// The redacted fold of session `session` (a redacted share's, or what `hiveterm mcp`
    /// answers from), made empty on first use.
    pub(crate) fn of_session(&self, session: &str) -> Arc<Redacted> {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = map.get(session) {
            return r.clone();
        }
        if map.len() >= CACHED {
            // Drop the ones no request holds; if all are held, one more is fine for now.
            map.retain(|_, r| Arc::strong_count(r) > 1);
        }
        let r = Arc::new(Redacted::new(session));
        map.insert(session.to_owned(), r.clone());
        r
    }
}

/// One session's redacted fold.
pub struct Redacted {
    session: String,
    folded: tokio::sync::Mutex<Folded>,
}

impl Redacted {
    fn new(session: &str) -> Redacted {
        Redacted {
            session: session.to_owned(),
            folded: tokio::sync::Mutex::new(Folded::new()),
        }
    }

    /// The fold as of event `head` (moved on to it first, if need be), locked.
    pub(crate) async fn upto<'a>(
        &'a self,
        store: &'a Store,
        head: u64,
    ) -> Result<View<'a>, StoreError> {
        let mut folded = self.folded.lock().await;
        if folded.tip.pos < head {
            let mut tip = std::mem::take(&mut folded.tip);
            let from = tip.pos;
            let folded_ref = &mut *folded;
            let read = read_events(store, &self.session, from, head, |ev| {
                let bytes = ev.line.bytes.len() as u64;
                let env = tip.step(ev);
                folded_ref.moved_on(&tip, bytes, env);
                true
            })
            .await;
            // As far as it got: the checkpoints and newest envelopes went along with it.
            folded.tip = tip;
            read?;
        }
        Ok(View::new(folded, store, &self.session, head))
    }
}

/// The redaction report of a redacted share, as of its snapshot (a live one: as of now),
/// from the server's fold of its session (which the share's first reads then find made).
pub(crate) async fn report(
    store: &Store,
    cache: &Cache,
    share: &Share,
) -> Result<contract::share::Review, StoreError> {
    let head = reach(store, share).await?;
    let redacted = cache.of(share);
    redacted.upto(store, head).await?.report().await
}

/// The redaction report of a redacted share (see [`View::report`]), folded afresh: what
/// `hiveterm share --redact` prints for review.
pub async fn report_of(
    store: &Store,
    share: &Share,
) -> Result<contract::share::Review, StoreError> {
    let head = reach(store, share).await?;
    let redacted = Redacted::new(&share.session);
    redacted.upto(store, head).await?.report().await
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

/// The files of a session other than its main one, as [`write_log`] gathers them.
#[derive(Debug, Default)]
pub struct OtherFiles {
    /// Each source's lines (a subagent's id and its file's lines, one a line), in the order
    /// each first came.
    pub files: Vec<(String, Vec<u8>)>,
    /// The line each event is in the files written one after the other (the main file, then
    /// `files`): `lines[seq - 1]`, 1-based — the seq `hiveterm classify` gives it.
    pub lines: Vec<u64>,
}

/// Writes session `session`'s raw events up to `upto` (all when `None`) to `out`, one line
/// each, redacted when `redact` (the lines through one `classifier::redact::Redactor`, in seq
/// order): the log a share shows, for a one-file export of it (`hiveterm share … --export`).
/// The lines of the session's other files (tagged with a source: a subagent's file) are not
/// written to `out` but answered, to be read after it as the subagents'
/// files are (so they nest as the session's rows do, `crate::fold`).
pub async fn write_log(
    store: &Store,
    session: &str,
    upto: Option<u64>,
    redact: bool,
    out: &mut impl std::io::Write,
) -> Result<OtherFiles, String> {
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
    let mut failed = None;
    let mut redactor = Redactor::new();
    let mut other = OtherFiles::default();
    // Each event's file (0: the main one) and line in it.
    let mut at: Vec<(usize, u64)> = Vec::new();
    let mut mains = 0;
    // Lines of each other file so far.
    let mut counts: Vec<u64> = Vec::new();
    read_events(store, session, 0, head, |ev| {
        let mut line = if redact {
            redactor.redact_line(&ev.line.bytes).line.into_owned()
        } else {
            ev.line.bytes
        };
        line.push(b'\n');
        let Some(source) = ev.source else {
            mains += 1;
            at.push((0, mains));
            return match out.write_all(&line) {
                Ok(()) => true,
                Err(e) => {
                    failed = Some(format!("cannot write: {e}"));
                    false
                }
            };
        };
        let i = match other.files.iter().position(|(s, _)| *s == source) {
            Some(i) => i,
            None => {
                other.files.push((source, Vec::new()));
                counts.push(0);
                other.files.len() - 1
            }
        };
        other.files[i].1.extend_from_slice(&line);
        counts[i] += 1;
        at.push((i + 1, counts[i]));
        true
    })
    .await
    .map_err(|e| e.to_string())?;
    if let Some(e) = failed {
        return Err(e);
    }
    // Lines before each file: the main file's, then each other's in turn.
    let mut before = vec![0, mains];
    for lines in counts {
        before.push(before.last().copied().unwrap_or(0) + lines);
    }
    other.lines = at.iter().map(|&(f, n)| before[f] + n).collect();
    Ok(other)
}

#[cfg(test)]
mod tests {
    use super::folded::{MAX_CHECKPOINTS, RECENT_BYTES, SPACING, State};
    use super::*;
    use crate::store::{Append, HistoryPage, RawLine};

    fn share(id: u64, session: &str) -> Share {
        Share {
            id,
            session: session.into(),
            title: None,
            created_at: 0.0,
            expires_at: None,
            snapshot_seq: None,
            redact: true,
            revoked_at: None,
            comments: false,
            ..Share::default()
        }
    }

    #[test]
    fn the_shares_of_a_session_share_one_fold() {
        let cache = Cache::default();
        let a = cache.of(&share(1, "s"));
        let b = cache.of(&share(2, "s"));
        let c = cache.of(&share(3, "t"));
        assert!(Arc::ptr_eq(&a, &b));
        assert!(!Arc::ptr_eq(&a, &c));
    }

    /// A store whose session `s` has `n` notes, one in 500 with a GitHub token.
    async fn store_of(n: usize) -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_with(&dir.path().join("t.db"), 256).unwrap();
        let line = |i: usize| {
            let text = if i % 500 == 7 {
                format!("{i} ghp_R4nd0mL00k1ngT0k3nV4lu3Xy2Zq8Wm5Np7K")
            } else {
                format!("note {i} {}", "z".repeat(i % 40))
            };
            RawLine::now(
                serde_json::json!({"kind": "note", "text": text})
                    .to_string()
                    .into(),
            )
        };
        for from in (0..n).step_by(4096) {
            let lines = (from..(from + 4096).min(n)).map(line).collect();
            let append = Append {
                session: "s".into(),
                lines,
                create: Some(("s".into(), "post".into())),
                follow: None,
                source: None,
                key: None,
            };
            store.append(append).await.unwrap();
        }
        (dir, store)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_fold_keeps_bounded_copies_and_reads_what_a_whole_fold_gives() {
        // Past MAX_CHECKPOINTS × SPACING events: the copies are thinned out once.
        let n = 70_000u64;
        let (_dir, store) = store_of(n as usize).await;
        let mut whole = State::default();
        let mut envs = Vec::new();
        read_events(&store, "s", 0, n, |ev| {
            if let Some(json) = whole.step(ev) {
                envs.push((whole.pos, json));
            }
            true
        })
        .await
        .unwrap();
        assert_eq!(envs.len() as u64, n, "a row each");
        assert!(!envs.iter().any(|(_, j)| j.contains("ghp_")), "redacted");
        let r = Redacted::new("s");
        for head in [n / 2, n] {
            let view = r.upto(&store, head).await.unwrap();
            // Pages: from the newest envelopes, from copies, across copies.
            for (before, limit) in [
                (None, 5),
                (Some(head - 10), 1000),
                (Some(40_000), 3),
                (Some(1_500), 1000),
                (Some(3), 10),
            ] {
                let page = view.page(before, limit).await.unwrap();
                let hi = before.map_or(head + 1, |b| b.min(head + 1));
                let mut want = HistoryPage::new(limit);
                for (seq, json) in envs.iter().rev().filter(|(seq, _)| *seq < hi) {
                    if !want.push(*seq, json) {
                        break;
                    }
                }
                assert!(
                    page == want.finish(head),
                    "page {before:?} {limit} at {head}"
                );
            }
            // Frames: from the newest envelopes, and folded again (in pieces).
            for after in [head - 3, head - 5_000, 0] {
                let mut got = Vec::new();
                let mut pos = after;
                while pos < head {
                    let (frames, reached) = view.frames(pos, 64 * 1024).await.unwrap();
                    assert!(reached > pos, "moves on");
                    got.extend(frames);
                    pos = reached;
                }
                let mut want = Vec::new();
                for (seq, json) in envs.iter().filter(|(s, _)| *s > after && *s <= head) {
                    crate::hub::push_json_frame(&mut want, *seq, json);
                }
                assert!(got == want, "frames after {after} to {head}");
            }
            if head == n {
                let summary = serde_json::to_value(view.summary(false).await.unwrap()).unwrap();
                assert_eq!(
                    summary,
                    serde_json::to_value(whole.fold.summary.summary()).unwrap()
                );
            }
            drop(view);
            let f = r.folded.lock().await;
            assert!(
                f.checkpoints.len() <= MAX_CHECKPOINTS,
                "{}",
                f.checkpoints.len()
            );
            assert!(f.recent_bytes <= RECENT_BYTES);
            assert_eq!(f.tip.pos, head);
        }
        let f = r.folded.lock().await;
        assert!(f.spacing > SPACING, "thinned out once at least");
        assert_eq!(f.tip.report.events, n.div_ceil(500));
    }
}
