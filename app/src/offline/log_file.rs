//! An offline log's life on the page: opened (dropped, picked or pasted), read by the worker
//! with its progress shown and its summary (the header) updated as it is read, kept for a
//! reload of the tab and reopened by it, closed. The [`LogFile`] owns what serves the log
//! in hand: the worker's [`Reader`], the [`BodySource`] the rows ask for bodies, and the
//! log's `Blob` a save reads ([`LogFile::blob`]); its notes are kept in the tab with it
//! ([`NotesHandle::offline`]).

use leptos::prelude::*;

use crate::browser::{self, now_ms};
use crate::model::state::{apply_lazy, clear};
use crate::model::summary::SummaryView;
use crate::notes::handle::NotesHandle;
use crate::offline::bodies::BodySource;
use crate::offline::keep;
use crate::offline::progress::{Progress, ReaderEvent};
use crate::offline::reader::{Reader, text_blob};
use crate::offline::session;
use crate::view::navigator::Navigator;
use crate::worker::protocol::Part;

/// The offline log's signals and what changes them.
#[derive(Clone, Copy)]
pub struct LogFile {
    /// On a live session's page: a log opened there is opened offline at the page's root.
    live: bool,
    navi: Navigator,
    title: RwSignal<String>,
    /// Reading progress; `None`: no log open.
    pub progress: RwSignal<Option<Progress>>,
    /// This tab's kept log is being looked up (the start page waits for it).
    pub restoring: RwSignal<bool>,
    /// The summary of the log read so far (the header).
    pub summary: RwSignal<Option<SummaryView>>,
    started_at: StoredValue<f64>,
    /// The search in force and its number (the worker searches the bodies left in the file).
    search: StoredValue<(u64, String)>,
    /// The worker reading the log (`None` on a live page).
    reader: StoredValue<Option<Reader>, LocalStorage>,
    /// The bodies left in the log's file, for the rows.
    pub bodies: BodySource,
    /// The log in hand and its name, for "save as one file".
    pub blob: StoredValue<Option<(web_sys::Blob, String)>, LocalStorage>,
    /// Its notes, kept in the tab with it (stored: the handle's signals would make every
    /// copy of the log bigger).
    notes: StoredValue<NotesHandle>,
}

impl LogFile {
    /// No log open yet. Offline (`live` false) the worker's messages are handled from now
    /// on, and this tab's kept log, if any, is reopened (not in an exported file).
    pub fn new(
        navi: Navigator,
        title: RwSignal<String>,
        live: bool,
        notes: NotesHandle,
    ) -> LogFile {
        // An exported file (crate::offline::export) shows its own rows: no kept log to restore.
        let exported = crate::offline::export::embedded();
        let reader = StoredValue::new_local(None::<Reader>);
        let log = LogFile {
            live,
            navi,
            title,
            progress: RwSignal::new(None),
            restoring: RwSignal::new(!live && !exported && keep::has_tab()),
            summary: RwSignal::new(None),
            started_at: StoredValue::new(0.0),
            search: StoredValue::new((0, String::new())),
            reader,
            bodies: BodySource::new(move |want| {
                if let Some(r) = reader.get_value() {
                    r.bodies(want);
                }
            }),
            blob: StoredValue::new_local(None),
            notes: StoredValue::new(notes),
        };
        if !live {
            let url = crate::offline::export::worker_url();
            reader.set_value(Some(Reader::new(url, move |msg| log.on_worker(msg))));
        }
        if !live && !exported {
            keep::restore(move |kept| {
                if log.progress.with_untracked(Option::is_none)
                    && let Some((blob, name, parts)) = kept
                {
                    log.open_parts(blob, name, parts, true);
                }
                log.restoring.set(false);
            });
        }
        log
    }

    /// Whether a log is open.
    pub fn is_open(&self) -> bool {
        self.progress.with(Option::is_some)
    }

    fn reader(self) -> Option<Reader> {
        self.reader.get_value()
    }

    /// Takes an update of the worker (or of an export's loader, `crate::offline::embedded`).
    pub fn on_worker(self, msg: ReaderEvent) {
        let progress = self.progress;
        match msg {
            // Late rows of a log that was closed.
            _ if progress.with_untracked(Option::is_none) => {}
            ReaderEvent::Bodies(found) => self.bodies.answer(found),
            ReaderEvent::Hits { id, hits, .. } => {
                if self.search.with_value(|(n, _)| *n == id) && !hits.is_empty() {
                    self.navi.state.update(|s| {
                        s.add_body_hits(&hits);
                    });
                }
            }
            ReaderEvent::Rows {
                envs,
                read,
                total,
                lines,
                done,
                summary,
                lazy,
                phases,
            } => {
                let t0 = now_ms();
                // A chunk's summary but the last's lists only the subagents whose end changed.
                if let Some(v) = summary.as_deref().and_then(SummaryView::parse) {
                    let v = if done {
                        v
                    } else {
                        self.summary.with_untracked(|old| v.after(old.as_ref()))
                    };
                    if self.summary.with_untracked(|old| old.as_ref() != Some(&v)) {
                        self.summary.set(Some(v));
                    }
                }
                let any = !envs.is_empty();
                let t1 = now_ms();
                if any || done {
                    self.navi.state.update(|s| {
                        for env in envs {
                            apply_lazy(s, env, &lazy);
                        }
                        s.settle_bulk(done);
                    });
                }
                let now = now_ms();
                let elapsed = now - self.started_at.get_value();
                let (worker, decode) = phases.split_at(phases.len().saturating_sub(1));
                let page = [decode.first().copied().unwrap_or(0.0), now - t1, t1 - t0];
                progress.update(|p| {
                    if let Some(p) = p {
                        p.add_phases(worker, page);
                        (p.read, p.total, p.lines, p.done) = (read, total, lines, done);
                        if p.first_ms.is_none() && any {
                            p.first_ms = Some(elapsed);
                            if let Some(r) = self.reader() {
                                r.shown();
                            }
                        }
                        if done {
                            p.done_ms = Some(elapsed);
                        }
                    }
                });
            }
            ReaderEvent::Error(e) => {
                // The rows read before it are all shown.
                self.navi.state.update(|s| s.settle());
                progress.update(|p| {
                    if let Some(p) = p {
                        p.error = Some(e);
                        p.done = true;
                    }
                });
            }
        }
    }

    /// Opens a log. One opened by hand replaces the tab's kept one, and its `#seq` belonged
    /// to the last log; a reopened kept log (`kept`) keeps the URL's `#seq`, revealed once
    /// its row is held.
    pub fn open_blob(self, blob: web_sys::Blob, name: String, kept: bool) {
        self.open_parts(blob, name, Vec::new(), kept);
    }

    /// [`LogFile::open_blob`] of a session's several files in one blob (`parts`: where each
    /// after the first starts, [`crate::offline::session`]).
    fn open_parts(self, blob: web_sys::Blob, name: String, parts: Vec<Part>, kept: bool) {
        if self.live {
            // A live session's page is not an offline log's: the log is kept for this tab and
            // opened offline at the page's root (the back button comes back here).
            keep::keep(&blob, &name, &parts, browser::leave_for_offline);
            return;
        }
        self.start(name.clone(), blob.size(), kept);
        self.blob.set_value(Some((blob.clone(), name.clone())));
        self.notes.get_value().offline(Some(name.clone()), kept);
        if !kept {
            browser::clear_permalink();
            keep::keep(&blob, &name, &parts, || {});
        }
        if let Some(r) = self.reader() {
            r.read(blob, parts);
        }
        let query = self.search.with_value(|(_, q)| q.clone());
        self.search_bodies(query);
    }

    /// The search in force changed: the worker searches the bodies left in the file for it
    /// (the rows it finds are shown as they come, [`crate::model::state::ViewState::add_body_hits`]).
    pub fn search_bodies(self, query: String) {
        let mut id = 0;
        self.search.update_value(|(n, q)| {
            *n += 1;
            id = *n;
            q.clone_from(&query);
        });
        if self.progress.with_untracked(Option::is_some)
            && let Some(r) = self.reader()
        {
            r.search(id, &query);
        }
    }

    /// Opens the rows an exported file carries (`total` bytes of them), which
    /// `crate::offline::embedded` then hands to [`LogFile::on_worker`]; the URL's `#seq` is kept.
    pub fn open_embedded(self, name: &str, total: f64, notes: Vec<crate::notes::model::Note>) {
        self.start(name.to_owned(), total, true);
        self.notes.get_value().exported(notes);
    }

    /// A log being opened: the view cleared, its progress started.
    fn start(self, name: String, total: f64, kept: bool) {
        self.restoring.set(false);
        self.bodies.clear();
        self.navi.state.update(clear);
        self.summary.set(None);
        let permalink = if kept { browser::permalink() } else { None };
        self.navi.nav.update(|n| n.reset(false, permalink));
        self.started_at.set_value(now_ms());
        self.title.set(name.clone());
        self.progress.set(Some(Progress {
            name,
            total,
            ..Progress::default()
        }));
        self.navi.scroll(crate::model::nav::Scroll::To(0.0));
    }

    /// Opens dropped or picked files: one is a log; several are one session, read one after
    /// another as `hiveterm classify` reads a session ([`crate::offline::session`]).
    pub fn open_files(self, files: Vec<web_sys::File>) {
        let names: Vec<String> = files.iter().map(web_sys::File::name).collect();
        let order = session::order(&names);
        match files.len() {
            0 => {}
            1 => self.open_blob(files[0].clone().into(), names[0].clone(), false),
            _ => {
                let sizes: Vec<f64> = files.iter().map(|f| f.size()).collect();
                let seq = js_sys::Array::new();
                for (i, _) in &order {
                    seq.push(&files[*i]);
                }
                // A Blob of Blobs: nothing is copied.
                match web_sys::Blob::new_with_blob_sequence(&seq) {
                    Ok(blob) => self.open_parts(
                        blob,
                        session::title(&order, &names),
                        session::parts(&order, &sizes),
                        false,
                    ),
                    Err(_) => self.open_blob(files[0].clone().into(), names[0].clone(), false),
                }
            }
        }
    }

    /// Opens pasted text.
    pub fn open_text(self, text: String) {
        if let Some(blob) = text_blob(&text) {
            self.open_blob(blob, "pasted log".to_owned(), false);
        }
    }

    /// Closes the log: back to the start page, and the kept copy forgotten.
    pub fn close(self) {
        if let Some(r) = self.reader() {
            r.cancel();
        }
        keep::forget();
        self.blob.set_value(None);
        self.notes.get_value().offline(None, false);
        self.navi.state.update(clear);
        self.navi.nav.update(|n| n.reset(false, None));
        self.progress.set(None);
        self.summary.set(None);
        self.title.set("hiveterm".to_owned());
        browser::clear_permalink();
    }
}
