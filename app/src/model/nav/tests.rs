//! The navigation reducer, natively: one small case per rule, and the two regressions that
//! were pinned only by minute-long browser tests before.

use super::*;
use crate::model::state::{ViewState, apply};
use classifier::{Level, TermEnvelope, TermMsg};

/// A view holding one row per seq in `seqs` (warn rows where `warn` says).
fn view(seqs: impl IntoIterator<Item = u64>, warn: &[u64]) -> ViewState {
    let mut s = ViewState::default();
    for seq in seqs {
        let level = if warn.contains(&seq) {
            Level::Warn
        } else {
            Level::Info
        };
        apply(
            &mut s,
            &TermEnvelope {
                ts: Some(seq as f64),
                seq: Some(seq),
                parent: None,
                msgs: vec![TermMsg::new(level, format!("row {seq}"))],
            },
        );
    }
    s
}

fn seq_at(s: &ViewState, n: usize) -> Option<u64> {
    s.visible_row(n).and_then(|r| r.seq)
}

/// Every row is 20 px (the estimate of a one-line row); the viewport is 200 px.
fn vp(top: f64) -> Viewport {
    Viewport { top, height: 200.0 }
}

#[test]
fn permalinks_parse_and_print() {
    let check = |hash: &str, want: Option<(u64, u64)>| {
        let got = SeqRange::parse(hash);
        assert_eq!(got.map(|r| (r.first, r.last)), want, "{hash:?}");
    };
    check("#120", Some((120, 120)));
    check("120", Some((120, 120)));
    check("#seq=120", Some((120, 120)));
    check("#seq=120-180", Some((120, 180)));
    check("#seq=180-120", Some((120, 180)));
    check("#120-121", Some((120, 121)));
    check("", None);
    check("#", None);
    check("#abc", None);
    check("#seq=1-x", None);
    check("#-5", None);
    check("#seq=", None);
    assert_eq!(SeqRange::one(7).hash(), "#7");
    assert_eq!(SeqRange::between(9, 3).hash(), "#seq=3-9");
    for r in [SeqRange::one(7), SeqRange::between(3, 9)] {
        assert_eq!(SeqRange::parse(&r.hash()), Some(r));
    }
    assert!(SeqRange::between(3, 9).contains(3) && SeqRange::between(3, 9).contains(9));
    assert!(!SeqRange::between(3, 9).contains(10));
}

#[test]
fn following_is_being_near_the_end() {
    let mut nav = Nav::new(false, None);
    nav.scrolled(vp(0.0), 1000.0);
    assert!(!nav.follows());
    nav.scrolled(vp(800.0 - FOLLOW_SLACK_PX), 1000.0);
    assert!(nav.follows());
    nav.scrolled(vp(800.0 - FOLLOW_SLACK_PX - 1.0), 1000.0);
    assert!(!nav.follows());
    assert_eq!(nav.jump_latest(), Scroll::Bottom);
    assert!(nav.follows() && nav.grew());
    assert_eq!(nav.tail_frame(), Scroll::Bottom);
}

#[test]
fn reveal_scrolls_only_to_a_row_out_of_view() {
    let s = view(1..=100, &[]);
    let lay = s.layout();
    let mut nav = Nav::new(true, None);
    // Row 3 (60..80 px) is in a viewport at the top: no scroll, still following.
    assert_eq!(nav.reveal(3, lay, vp(0.0)), Scroll::Stay);
    assert_eq!((nav.current(), nav.follows()), (Some(3), true));
    // Row 50 (1000 px) is below it: scrolled to a third of the way down, not following.
    let want = 1000.0 - 200.0 / 3.0;
    assert_eq!(nav.reveal(50, lay, vp(0.0)), Scroll::To(want));
    assert_eq!((nav.current(), nav.follows()), (Some(50), false));
    // Above the viewport, near the top: never a negative offset.
    assert_eq!(nav.reveal(1, lay, vp(500.0)), Scroll::To(0.0));
}

#[test]
fn keys_move_through_rows_and_problems() {
    let s = view(1..=10, &[4, 8]);
    let mut nav = Nav::new(false, None);
    let check = |nav: &Nav, key: &str, want: Option<usize>| {
        assert_eq!(nav.target(Key::of(key).unwrap(), &s), want, "{key}");
    };
    check(&nav, "j", Some(0));
    check(&nav, "k", Some(0));
    check(&nav, "n", Some(3));
    check(&nav, "N", Some(7));
    nav.reveal(9, s.layout(), vp(0.0));
    check(&nav, "j", Some(9));
    check(&nav, "k", Some(8));
    check(&nav, "n", None);
    check(&nav, "N", Some(7));
    check(&nav, "/", None);
    assert_eq!(Key::of("x"), None);
    assert_eq!(Key::of("G"), Some(Key::Latest));
    assert_eq!(Key::of("a"), Some(Key::Note));
    let empty = ViewState::default();
    assert_eq!(Nav::new(false, None).target(Key::Down, &empty), None);
}

/// Regression (2869a8f, "permalink losing its current row"): the debounced search runs once
/// 200 ms after load with the query unchanged (empty). It refiltered and cleared the current
/// row, so a `#seq` revealed before it lost its mark.
#[test]
fn regression_a_permalink_keeps_its_row_through_the_first_debounced_search() {
    let mut s = view(1..=100, &[]);
    let mut nav = Nav::new(true, SeqRange::parse("#60"));
    let n = nav.found(&s, false).expect("row 60 is held");
    nav.reveal(n, s.layout(), vp(0.0));
    assert_eq!(seq_at(&s, nav.current().unwrap()), Some(60));
    // The debounced search settles: the same (empty) query, so the same filter.
    let same = s.filter().clone();
    nav.filter(&mut s, same);
    assert_eq!(
        nav.current(),
        Some(n),
        "the permalink's row is still current"
    );
    assert_eq!(seq_at(&s, n), Some(60));
    // A changed query does refilter, and the old position means nothing then.
    let mut changed = s.filter().clone();
    changed.query = "row 6".into();
    nav.filter(&mut s, changed);
    assert_eq!(nav.current(), None);
    assert_eq!(s.visible_len(), 11);
}

/// Regression (3eee33c, "tail-follow queued on the same frame ran after the reveal"): a live
/// page follows its tail; history arrives (a tail frame is queued) and on the same frame the
/// permalink's row is revealed. The queued frame must not scroll away from it.
#[test]
fn regression_a_tail_frame_queued_before_a_reveal_does_not_scroll_away() {
    let s = view(1..=1500, &[]);
    let mut nav = Nav::new(true, SeqRange::parse("#100"));
    // The list grew while following: a tail frame is queued.
    assert!(nav.grew());
    // Same frame: the permalink's row is held and revealed (far above the bottom).
    let n = nav.found(&s, false).unwrap();
    let bottom = s.layout().total() - 200.0;
    assert!(matches!(
        nav.reveal(n, s.layout(), vp(bottom)),
        Scroll::To(_)
    ));
    // The queued frame runs after the reveal: it stays.
    assert_eq!(nav.tail_frame(), Scroll::Stay);
    assert_eq!(seq_at(&s, nav.current().unwrap()), Some(100));
    assert!(
        !nav.grew(),
        "no more tail frames until the reader goes back to the end"
    );
}

#[test]
fn a_permalink_waits_for_its_rows_and_pages_back_to_them() {
    // Live: the newest page holds 1001..=1500; the permalink is #100.
    let mut s = view(1001..=1500, &[]);
    let mut nav = Nav::new(true, SeqRange::parse("#100"));
    assert_eq!(nav.found(&s, false), None);
    assert_eq!(nav.pending(), Some(SeqRange::one(100)));
    assert_eq!(nav.seek_before(&s, Some(1001)), Some(1001));
    assert_eq!(
        nav.seek_before(&s, None),
        None,
        "the server has nothing older"
    );
    // Older pages come: 1..=1000 prepended.
    let older: Vec<TermEnvelope> = (1..=1000)
        .map(|seq| TermEnvelope {
            ts: Some(seq as f64),
            seq: Some(seq),
            parent: None,
            msgs: vec![TermMsg::new(Level::Info, "x")],
        })
        .collect();
    crate::model::state::prepend(&mut s, &older);
    assert_eq!(nav.seek_before(&s, Some(1)), None, "held now");
    let n = nav.found(&s, false).unwrap();
    assert_eq!(seq_at(&s, n), Some(100));
    assert_eq!(nav.pending(), None);
    assert_eq!(nav.found(&s, false), None, "found once");
    assert_eq!(nav.seek_before(&s, Some(1)), None);
}

#[test]
fn a_range_permalink_selects_and_finds_its_first_shown_row() {
    // Seqs 10..=30 step 2: #seq=15-21 starts at the row of seq 16.
    let s = view((10..=30).step_by(2), &[]);
    let mut nav = Nav::new(false, SeqRange::parse("#seq=15-21"));
    assert_eq!(nav.selection(), Some(SeqRange::between(15, 21)));
    let n = nav.found(&s, false).unwrap();
    assert_eq!(seq_at(&s, n), Some(16));
    // A range whose rows are not held yet, and nothing after it either: not found yet.
    let mut later = Nav::new(false, SeqRange::parse("#seq=40-50"));
    assert_eq!(later.found(&s, true), None);
    assert_eq!(later.pending(), Some(SeqRange::between(40, 50)));
    // A one-row permalink selects nothing (the current row marks it).
    assert_eq!(Nav::new(false, SeqRange::parse("#12")).selection(), None);
}

/// Regression: a range link to lines that give no row (`#seq=3-5` over a hyperhive log's
/// `status_changed`, `model_changed`, `turn_state_changed`) stayed pending forever in an
/// offline log or an export: nothing was revealed and the reader was left at the top.
#[test]
fn a_permalink_to_lines_without_rows_goes_to_the_next_row() {
    // Rows for seqs 1, 2, then 6.. (3 to 5 are rowless lines).
    let s = view([1, 2].into_iter().chain(6..=20), &[]);
    // Offline (read from line 1): the first row after the range, the range still selected.
    let mut nav = Nav::new(false, SeqRange::parse("#seq=3-5"));
    let n = nav.found(&s, true).unwrap();
    assert_eq!(seq_at(&s, n), Some(6));
    assert_eq!(nav.pending(), None);
    assert_eq!(nav.selection(), Some(SeqRange::between(3, 5)));
    // One line, and a line before the first row (the log's first line gave none).
    let mut one = Nav::new(false, SeqRange::parse("#4"));
    assert_eq!(one.found(&s, true).map(|n| seq_at(&s, n)), Some(Some(6)));
    let late = view(5..=9, &[]);
    let mut first = Nav::new(false, SeqRange::parse("#2"));
    assert_eq!(
        first.found(&late, true).map(|n| seq_at(&late, n)),
        Some(Some(5))
    );
    // Not while the rows after it have not arrived (the log is still being read).
    let head = view([1, 2], &[]);
    let mut wait = Nav::new(false, SeqRange::parse("#seq=3-5"));
    assert_eq!(wait.found(&head, true), None);
    assert_eq!(wait.found(&s, true).map(|n| seq_at(&s, n)), Some(Some(6)));
    // Live: only once the rows before it are held (paged back); until then it pages back.
    let newest = view(10..=20, &[]);
    let mut live = Nav::new(true, SeqRange::parse("#seq=3-5"));
    assert_eq!(live.found(&newest, false), None);
    assert_eq!(live.seek_before(&newest, Some(10)), Some(10));
    assert_eq!(live.found(&s, false).map(|n| seq_at(&s, n)), Some(Some(6)));
    // A range at the very end of the seqs cannot overflow.
    let mut end = Nav::new(false, Some(SeqRange::between(u64::MAX - 1, u64::MAX)));
    assert_eq!(end.found(&s, true), None);
}

#[test]
fn clicks_select_and_links_follow_the_selection() {
    let s = view(1..=20, &[]);
    let mut nav = Nav::new(false, None);
    assert_eq!(nav.link(&s), None);
    assert_eq!(nav.click(4, Some(5), false, &s), Some("#5".into()));
    assert_eq!(nav.link(&s), Some(SeqRange::one(5)));
    // Shift-click: from the current row's envelope to this one, either way.
    assert_eq!(nav.click(11, Some(12), true, &s), Some("#seq=5-12".into()));
    assert_eq!(nav.selection(), Some(SeqRange::between(5, 12)));
    assert_eq!(nav.link(&s), Some(SeqRange::between(5, 12)));
    assert_eq!(nav.current(), Some(11));
    assert_eq!(nav.click(1, Some(2), true, &s), Some("#seq=2-12".into()));
    // A plain click drops the selection.
    assert_eq!(nav.click(6, Some(7), false, &s), Some("#7".into()));
    assert_eq!(nav.selection(), None);
    // A row without a seq cannot be linked.
    assert_eq!(nav.click(6, None, true, &s), None);
    nav.deselect();
    assert_eq!(nav.link(&s), Some(SeqRange::one(7)));
}

#[test]
fn older_rows_put_before_keep_the_current_row() {
    let mut nav = Nav::new(true, None);
    nav.prepended(10);
    assert_eq!(nav.current(), None);
    let s = view(1..=5, &[]);
    nav.reveal(2, s.layout(), vp(0.0));
    nav.prepended(10);
    assert_eq!(nav.current(), Some(12));
    assert!(Nav::wants_older(vp(OLDER_AT_PX - 1.0)));
    assert!(!Nav::wants_older(vp(OLDER_AT_PX)));
}

#[test]
fn reset_forgets_all_but_a_kept_permalink() {
    let s = view(1..=5, &[]);
    let mut nav = Nav::new(true, None);
    nav.click(1, Some(2), false, &s);
    nav.click(3, Some(4), true, &s);
    nav.reset(false, None);
    assert_eq!(nav, Nav::new(false, None));
    nav.reset(false, SeqRange::parse("#seq=2-3"));
    assert_eq!(nav.pending(), Some(SeqRange::between(2, 3)));
    assert_eq!(nav.selection(), Some(SeqRange::between(2, 3)));
}

#[test]
fn first_error_goes_to_its_row_like_a_permalink() {
    // A live view following its tail, a range selected; "first error" is seq 24.
    let s = view((10..=30).step_by(2), &[]);
    let mut nav = Nav::new(true, SeqRange::parse("#seq=12-16"));
    assert_eq!(nav.found(&s, false).map(|n| seq_at(&s, n)), Some(Some(12)));
    nav.goto(24);
    assert!(!nav.follows(), "the tail is no longer followed");
    assert_eq!(nav.selection(), None, "the selection goes");
    assert_eq!(nav.pending(), Some(SeqRange::one(24)));
    let n = nav.found(&s, false).unwrap();
    assert_eq!(seq_at(&s, n), Some(24));
    // Not held yet (an older page): it pages back to it.
    let mut nav = Nav::new(true, None);
    nav.goto(3);
    assert_eq!(nav.found(&s, false), None);
    assert_eq!(nav.seek_before(&s, Some(10)), Some(10));
}

#[test]
fn a_notes_range_is_gone_to_and_selected() {
    let s = view((10..=30).step_by(2), &[]);
    let check = |range: &str, first_shown: u64, selected: Option<&str>| {
        let mut nav = Nav::new(true, None);
        let range = SeqRange::parse(range).unwrap();
        nav.goto_range(range);
        assert!(!nav.follows());
        assert_eq!(
            nav.selection(),
            selected.and_then(SeqRange::parse),
            "{range:?}"
        );
        let n = nav.found(&s, false).unwrap();
        assert_eq!(seq_at(&s, n), Some(first_shown));
    };
    check("#seq=14-20", 14, Some("#seq=14-20"));
    check("#seq=22-22", 22, None);
    check("#18", 18, None);
}
