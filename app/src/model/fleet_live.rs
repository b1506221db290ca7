//! The start page's table kept live, pure: what the index's stream (`GET /api/index/stream`,
//! docs/API.md) says ([`IndexMsg`]) and how a changed entry goes into the rows shown
//! ([`upsert`]) — in the server's order for the sort, and only if it passes the filters —
//! so the table needs no polling. `view::start_page` reads the stream and calls these.

use std::cmp::Ordering;

use super::fleet::{Filters, IndexRow, Sort, index_row};

/// The events of the index's stream the page listens to (`open` and `error` included, so a
/// reconnect is seen).
pub const INDEX_EVENTS: [&str; 4] = ["session", "reset", "open", "error"];

/// One event of the index's stream.
#[derive(Debug, Clone, PartialEq)]
pub enum IndexMsg {
    /// A session's entry changed (made, appended to, ended): its new row.
    Session(Box<IndexRow>),
    /// Changes were missed: read the index again.
    Reset,
    /// The stream (re)opened: read the index again (changes while it was closed are lost).
    Open,
    /// The stream failed; the browser reconnects by itself.
    Error,
}

impl IndexMsg {
    /// One SSE event, by name, with its `data`; `None` for one that does not parse or that
    /// the page does not listen to.
    pub fn parse(event: &str, data: Option<&str>) -> Option<IndexMsg> {
        match event {
            "session" => serde_json::from_str::<contract::SessionEntry>(data?)
                .ok()
                .as_ref()
                .and_then(index_row)
                .map(|row| IndexMsg::Session(Box::new(row))),
            "reset" => Some(IndexMsg::Reset),
            "open" => Some(IndexMsg::Open),
            "error" => Some(IndexMsg::Error),
            _ => None,
        }
    }
}

/// Whether `row` passes the filters, as the server applies them: agent, project and status
/// equal; the text a substring of the title, ASCII case folded.
pub fn passes(f: &Filters, row: &IndexRow) -> bool {
    let equal = |want: &str, got: Option<&str>| {
        let want = want.trim();
        want.is_empty() || got == Some(want)
    };
    let q = f.q.trim().to_ascii_lowercase();
    equal(&f.agent, row.agent.as_deref())
        && equal(&f.project, row.project.as_deref())
        && equal(&f.status, Some(&row.status))
        && (q.is_empty() || row.title.to_ascii_lowercase().contains(&q))
}

/// The server's order for `sort` (`Less`: `a` is shown first): the sort's key, highest
/// first (an unknown cost as -1), then the newest start (the log's own first time, else
/// when the server made it), then the id.
pub fn order(sort: Sort, a: &IndexRow, b: &IndexRow) -> Ordering {
    let key = |r: &IndexRow| match sort {
        Sort::Newest => 0.0,
        Sort::Cost => r.cost.unwrap_or(-1.0),
        Sort::Errors => r.errors as f64,
    };
    let started = |r: &IndexRow| r.started.unwrap_or(0.0);
    key(b)
        .total_cmp(&key(a))
        .then(started(b).total_cmp(&started(a)))
        .then_with(|| a.id.cmp(&b.id))
}

/// Puts a changed session's `row` into `rows` (sorted by `f.sort`, filtered by `f`):
/// replacing its old row, where the sort puts it (in place when its place did not change);
/// left out if it no longer passes the filters; and a row that sorts after every row shown
/// while the index has more pages (`complete` false) is not added (it comes with a later
/// page), unless it was shown already. Answers whether `rows` changed.
pub fn upsert(rows: &mut Vec<IndexRow>, row: IndexRow, f: &Filters, complete: bool) -> bool {
    let old = rows.iter().position(|r| r.id == row.id);
    if old.is_some_and(|i| rows[i] == row) {
        return false;
    }
    let removed = old.map(|i| rows.remove(i));
    if !passes(f, &row) {
        return removed.is_some();
    }
    let at = rows
        .iter()
        .position(|r| order(f.sort, &row, r) == Ordering::Less)
        .unwrap_or(rows.len());
    if at == rows.len() && !complete && removed.is_none() {
        return false;
    }
    rows.insert(at, row);
    true
}

/// The reads of the index under way, and the stream's rows received since the first of
/// them began: an answer may have been read before those rows' changes, so they are put in
/// again over it ([`Reads::end`]). The newest row of each session only.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reads {
    in_flight: u32,
    since: Vec<IndexRow>,
}

impl Reads {
    /// A read of the index begins.
    pub fn begin(&mut self) {
        self.in_flight += 1;
    }

    /// The stream said `row`: kept while a read is under way.
    pub fn seen(&mut self, row: &IndexRow) {
        if self.in_flight == 0 {
            return;
        }
        match self.since.iter_mut().find(|r| r.id == row.id) {
            Some(old) => old.clone_from(row),
            None => self.since.push(row.clone()),
        }
    }

    /// A read answered (or its answer was dropped): the rows to put over its answer (kept
    /// for the reads still under way, forgotten after the last).
    pub fn end(&mut self) -> Vec<IndexRow> {
        self.in_flight = self.in_flight.saturating_sub(1);
        if self.in_flight == 0 {
            std::mem::take(&mut self.since)
        } else {
            self.since.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn row(id: &str, started: f64, cost: Option<f64>, errors: u64) -> IndexRow {
        index_row(
            &serde_json::from_value(json!({"id": id, "title": format!("Title {id}"),
            "started": started, "cost": cost, "errors": errors, "status": "live",
            "agent": "codex", "project": "/w/app"}))
            .unwrap(),
        )
        .unwrap()
    }

    fn ids(rows: &[IndexRow]) -> Vec<&str> {
        rows.iter().map(|r| r.id.as_str()).collect()
    }

    fn newest() -> Vec<IndexRow> {
        vec![
            row("c", 30.0, None, 0),
            row("b", 20.0, Some(1.0), 2),
            row("a", 10.0, Some(3.0), 1),
        ]
    }

    #[test]
    fn an_update_of_a_listed_session_replaces_it_in_place() {
        let f = Filters::default();
        let mut rows = newest();
        let mut b = row("b", 20.0, Some(2.5), 7);
        b.status = "in flight".into();
        assert!(upsert(&mut rows, b.clone(), &f, false));
        assert_eq!(ids(&rows), ["c", "b", "a"]);
        assert_eq!(rows[1], b);
        assert!(
            !upsert(&mut rows, b, &f, false),
            "the same row again changes nothing"
        );
    }

    #[test]
    fn a_new_session_goes_where_the_sort_puts_it() {
        let mut f = Filters::default();
        let mut rows = newest();
        assert!(upsert(&mut rows, row("d", 40.0, None, 0), &f, false));
        assert_eq!(ids(&rows), ["d", "c", "b", "a"], "the newest on top");
        // The log's own start goes before when the server made it.
        let mut logged = row("logged", 99.0, None, 0);
        logged.started = Some(15.0);
        let mut by_log = newest();
        assert!(upsert(&mut by_log, logged, &f, false));
        assert_eq!(ids(&by_log), ["c", "b", "logged", "a"]);
        // Started at the same time as `b`: the id decides.
        assert!(upsert(&mut rows, row("ba", 20.0, None, 0), &f, true));
        assert_eq!(ids(&rows), ["d", "c", "b", "ba", "a"]);
        // Older than every row shown while more pages exist: it comes with a later page.
        assert!(!upsert(&mut rows, row("old", 1.0, None, 0), &f, false));
        assert_eq!(rows.len(), 5);
        // On the last page, it goes at the end.
        assert!(upsert(&mut rows, row("old", 1.0, None, 0), &f, true));
        assert_eq!(rows.last().unwrap().id, "old");

        f.sort = Sort::Cost;
        let mut rows = vec![
            row("a", 10.0, Some(3.0), 1),
            row("b", 20.0, Some(1.0), 2),
            row("c", 30.0, None, 0),
        ];
        assert!(upsert(&mut rows, row("d", 40.0, Some(2.0), 0), &f, false));
        assert_eq!(ids(&rows), ["a", "d", "b", "c"], "cost, unknown last");
        f.sort = Sort::Errors;
        let mut rows = vec![row("b", 20.0, Some(1.0), 2), row("a", 10.0, None, 1)];
        assert!(upsert(&mut rows, row("d", 40.0, None, 5), &f, false));
        assert_eq!(ids(&rows), ["d", "b", "a"]);
    }

    #[test]
    fn a_session_whose_key_changed_moves_to_keep_the_order() {
        let f = Filters {
            sort: Sort::Cost,
            ..Filters::default()
        };
        let mut rows = vec![
            row("a", 10.0, Some(3.0), 1),
            row("b", 20.0, Some(1.0), 2),
            row("c", 30.0, None, 0),
        ];
        assert!(upsert(&mut rows, row("c", 30.0, Some(9.0), 0), &f, false));
        assert_eq!(ids(&rows), ["c", "a", "b"]);
        // Below every other row shown: it stays, at the end (it was shown).
        assert!(upsert(&mut rows, row("c", 30.0, Some(0.5), 0), &f, false));
        assert_eq!(ids(&rows), ["a", "b", "c"]);
    }

    #[test]
    fn a_session_that_no_longer_passes_the_filters_leaves() {
        let mut f = Filters {
            status: "live".into(),
            ..Filters::default()
        };
        let mut rows = newest();
        let mut b = row("b", 20.0, Some(1.0), 2);
        b.status = "ok".into();
        assert!(upsert(&mut rows, b.clone(), &f, false));
        assert_eq!(ids(&rows), ["c", "a"]);
        assert!(
            !upsert(&mut rows, b, &f, true),
            "nor comes back while it fails them"
        );
        // A new one that fails them never comes in.
        f = Filters {
            agent: "codex".into(),
            project: " /w/app ".into(),
            q: "TITLE D".into(),
            ..Filters::default()
        };
        let mut d = row("d", 40.0, None, 0);
        assert!(passes(&f, &d), "trimmed, ASCII case folded");
        d.agent = Some("gemini".into());
        assert!(!upsert(&mut rows, d.clone(), &f, true));
        d.agent = Some("codex".into());
        d.title = "something else".into();
        assert!(!upsert(&mut rows, d.clone(), &f, true));
        d.title = "Title d".into();
        d.project = None;
        assert!(!upsert(&mut rows, d, &f, true));
        assert_eq!(ids(&rows), ["c", "a"]);
    }

    #[test]
    fn rows_seen_during_reads_go_over_each_answer() {
        let mut reads = Reads::default();
        reads.seen(&row("x", 1.0, None, 0));
        assert_eq!(reads.end(), [], "nothing kept while no read is under way");
        reads.begin();
        reads.seen(&row("a", 1.0, None, 0));
        reads.begin();
        reads.seen(&row("b", 2.0, None, 0));
        reads.seen(&row("a", 1.0, Some(2.0), 0));
        let first = reads.end();
        assert_eq!(ids(&first), ["a", "b"], "the newest of each");
        assert_eq!(first[0].cost, Some(2.0));
        assert_eq!(reads.end(), first, "the last read gets them too");
        assert_eq!(reads, Reads::default(), "then they are forgotten");
        assert_eq!(reads.end(), []);
    }

    #[test]
    fn the_streams_events_parse() {
        let data = json!({"id": "s1", "title": "T", "started": 5.5, "started_at": 4.5,
            "status": "ok", "live": false, "turns": 2, "cost": null});
        match IndexMsg::parse("session", Some(&data.to_string())) {
            Some(IndexMsg::Session(r)) => {
                assert_eq!((r.id.as_str(), r.started, r.turns), ("s1", Some(4.5), 2));
                assert_eq!(r.status, "ok");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(IndexMsg::parse("session", Some("{\"title\": 1}")), None);
        assert_eq!(IndexMsg::parse("session", Some("nope")), None);
        assert_eq!(IndexMsg::parse("session", None), None);
        assert_eq!(IndexMsg::parse("reset", Some("{}")), Some(IndexMsg::Reset));
        assert_eq!(IndexMsg::parse("open", None), Some(IndexMsg::Open));
        assert_eq!(IndexMsg::parse("error", None), Some(IndexMsg::Error));
        assert_eq!(IndexMsg::parse("message", Some("{}")), None);
        for name in INDEX_EVENTS {
            assert!(name == "session" || IndexMsg::parse(name, Some("{}")).is_some());
        }
    }
}
