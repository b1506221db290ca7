//! Small pure text helpers: case-insensitive search, highlight spans, clock and date formats
//! (durations are the classifier's [`classifier::duration`]), how much of a big body is drawn.

/// Whether `hay` contains `needle`, ignoring ASCII case. An empty needle matches.
pub fn contains_ci(hay: &str, needle: &str) -> bool {
    find_ci(hay, needle, 0).is_some()
}

/// Byte offset of the first match of `needle` in `hay` at or after `from`, ignoring ASCII case.
pub fn find_ci(hay: &str, needle: &str, from: usize) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    if n.is_empty() {
        return Some(from.min(h.len()));
    }
    if n.len() > h.len() {
        return None;
    }
    let first = n[0].to_ascii_lowercase();
    let last_start = h.len() - n.len();
    let mut i = from;
    while i <= last_start {
        if h[i].to_ascii_lowercase() == first && h[i..i + n.len()].eq_ignore_ascii_case(n) {
            // Only report matches on character boundaries (a needle is valid UTF-8).
            if hay.is_char_boundary(i) && hay.is_char_boundary(i + n.len()) {
                return Some(i);
            }
        }
        i += 1;
    }
    None
}

/// Splits `text` into pieces, each marked whether it matches `needle` (for `<mark>`).
pub fn highlight<'a>(text: &'a str, needle: &str) -> Vec<(&'a str, bool)> {
    let mut out = Vec::new();
    if needle.is_empty() {
        out.push((text, false));
        return out;
    }
    let mut at = 0;
    while let Some(m) = find_ci(text, needle, at) {
        if m > at {
            out.push((&text[at..m], false));
        }
        out.push((&text[m..m + needle.len()], true));
        at = m + needle.len();
    }
    if at < text.len() || out.is_empty() {
        out.push((&text[at..], false));
    }
    out
}

/// Most lines of a body drawn before the reader asks for all of it.
pub const BODY_SHOWN_LINES: usize = 2_000;
/// Most bytes of a body drawn before the reader asks for all of it.
pub const BODY_SHOWN_BYTES: usize = 128 * 1024;

/// Where a body's drawn part ends (a byte offset), if the body is over [`BODY_SHOWN_LINES`]
/// lines or [`BODY_SHOWN_BYTES`] bytes: after the last whole line that fits, or for one
/// enormous line at the last char boundary that fits. `None`: draw it all.
pub fn body_cut(body: &str) -> Option<usize> {
    let limit = if body.len() > BODY_SHOWN_BYTES {
        BODY_SHOWN_BYTES
    } else {
        body.len()
    };
    // The end of the BODY_SHOWN_LINES-th line, if it comes before the byte limit.
    let by_lines = nth_newline(body.as_bytes()[..limit].iter(), BODY_SHOWN_LINES).map(|i| i + 1);
    match by_lines {
        Some(end) if end < body.len() => Some(end),
        _ if limit == body.len() => None,
        _ => {
            let head = &body[..floor_char_boundary(body, limit)];
            Some(head.rfind('\n').map_or(head.len(), |i| i + 1))
        }
    }
}

/// Offset of the `n`-th (1-based) newline among `bytes`.
fn nth_newline<'a>(bytes: impl Iterator<Item = &'a u8>, n: usize) -> Option<usize> {
    bytes
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(n.checked_sub(1)?)
        .map(|(i, _)| i)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The label of the control that draws a whole body: `show all 250,000 lines (23.1 MB)`.
pub fn show_all_label(body: &str) -> String {
    let lines = body.lines().count();
    let bytes = body.len() as f64;
    let size = if bytes >= 1e6 {
        format!("{:.1} MB", bytes / 1e6)
    } else {
        format!("{:.0} KB", bytes / 1e3)
    };
    let mut n = lines.to_string();
    let mut at = n.len();
    while at > 3 {
        at -= 3;
        n.insert(at, ',');
    }
    let unit = if lines == 1 { "line" } else { "lines" };
    format!("show all {n} {unit} ({size})")
}

/// `HH:MM:SS` of unix seconds `ts` shifted by `offset_min` minutes (local time).
pub fn clock(ts: f64, offset_min: i64) -> String {
    let secs = ts.floor() as i64 + offset_min * 60;
    let day = secs.rem_euclid(86_400);
    format!("{:02}:{:02}:{:02}", day / 3600, day % 3600 / 60, day % 60)
}

/// `YYYY-MM-DD HH:MM` of unix seconds `ts` shifted by `offset_min` minutes (local time).
pub fn date_time(ts: f64, offset_min: i64) -> String {
    let secs = ts.floor() as i64 + offset_min * 60;
    let (days, day) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = classifier::civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}",
        day / 3600,
        day % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_ci_cases() {
        let check = |hay: &str, needle: &str, want: Option<usize>| {
            assert_eq!(find_ci(hay, needle, 0), want, "{hay:?} / {needle:?}");
        };
        check("Hello World", "world", Some(6));
        check("Hello World", "WORLD", Some(6));
        check("Hello", "", Some(0));
        check("", "a", None);
        check("ab", "abc", None);
        check("ÄÖü x", "x", Some(7));
        check("naïve", "ïv", Some(2));
        check("aaa", "aa", Some(0));
    }

    #[test]
    fn highlight_cases() {
        let check = |text: &str, needle: &str, want: &[(&str, bool)]| {
            assert_eq!(highlight(text, needle), want, "{text:?} / {needle:?}");
        };
        check("abc", "", &[("abc", false)]);
        check("abc", "b", &[("a", false), ("b", true), ("c", false)]);
        check("bab", "B", &[("b", true), ("a", false), ("b", true)]);
        check("", "x", &[("", false)]);
        check("xyz", "q", &[("xyz", false)]);
    }

    #[test]
    fn clock_cases() {
        assert_eq!(clock(0.0, 0), "00:00:00");
        assert_eq!(clock(1_764_468_000.25, 0), "02:00:00");
        assert_eq!(clock(1_764_468_000.0, 60), "03:00:00");
        assert_eq!(clock(59.9, 0), "00:00:59");
        assert_eq!(clock(0.0, -60), "23:00:00");
    }

    #[test]
    fn body_cut_cases() {
        assert_eq!(body_cut(""), None);
        assert_eq!(body_cut("a\nb\n"), None);
        // By lines: BODY_SHOWN_LINES whole lines are drawn, the rest is not.
        let lines = |n: usize| "x\n".repeat(n);
        assert_eq!(body_cut(&lines(BODY_SHOWN_LINES)), None);
        assert_eq!(
            body_cut(&(lines(BODY_SHOWN_LINES) + "tail")),
            Some(2 * BODY_SHOWN_LINES)
        );
        assert_eq!(
            body_cut(&lines(BODY_SHOWN_LINES + 1)),
            Some(2 * BODY_SHOWN_LINES)
        );
        // By bytes: long lines cut after the last whole line that fits.
        let long = "y".repeat(1000) + "\n";
        let body = long.repeat(BODY_SHOWN_BYTES / 1001 + 5);
        let cut = body_cut(&body).unwrap();
        assert_eq!(cut, (BODY_SHOWN_BYTES / 1001) * 1001);
        assert!(body[..cut].ends_with('\n'));
        // Exactly at the byte limit: all of it.
        assert_eq!(body_cut(&"z".repeat(BODY_SHOWN_BYTES)), None);
        assert_eq!(
            body_cut(&"z".repeat(BODY_SHOWN_BYTES + 1)),
            Some(BODY_SHOWN_BYTES)
        );
    }

    /// One enormous line of multi-byte chars, at every length around the limit: the cut is a
    /// char boundary within the limit, and nothing short enough is cut.
    #[test]
    fn body_cut_sweeps_char_boundaries() {
        for ch in ["é", "€", "😀"] {
            for extra in 0..12 {
                let n = (BODY_SHOWN_BYTES - 6 + extra) / ch.len() + 1;
                let body = ch.repeat(n);
                match body_cut(&body) {
                    None => assert!(body.len() <= BODY_SHOWN_BYTES),
                    Some(cut) => {
                        assert!(body.len() > BODY_SHOWN_BYTES);
                        assert!(body.is_char_boundary(cut) && cut <= BODY_SHOWN_BYTES);
                        assert!(cut + ch.len() > BODY_SHOWN_BYTES, "{ch} {n}: {cut}");
                    }
                }
            }
        }
    }

    #[test]
    fn show_all_labels() {
        assert_eq!(show_all_label("a\nb"), "show all 2 lines (0 KB)");
        assert_eq!(show_all_label(&"x".repeat(1500)), "show all 1 line (2 KB)");
        let body = "line of text\n".repeat(250_000);
        assert_eq!(show_all_label(&body), "show all 250,000 lines (3.2 MB)");
        assert_eq!(
            show_all_label(&"\n".repeat(1_234_567)),
            "show all 1,234,567 lines (1.2 MB)"
        );
    }

    #[test]
    fn date_time_cases() {
        assert_eq!(date_time(0.0, 0), "1970-01-01 00:00");
        assert_eq!(date_time(951_782_400.0, 0), "2000-02-29 00:00");
        assert_eq!(date_time(1_764_468_000.9, 0), "2025-11-30 02:00");
        assert_eq!(date_time(1_764_468_000.0, 24 * 60), "2025-12-01 02:00");
        assert_eq!(date_time(-1.0, 0), "1969-12-31 23:59");
        assert_eq!(date_time(0.0, -60), "1969-12-31 23:00");
    }

    /// Every day from 1900 to 2200 against a calendar counted forward day by day.
    #[test]
    fn date_time_every_day() {
        let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let month_days = |y: i64, m: i64| match m {
            2 if leap(y) => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        // 1900-01-01 is 25,567 days before 1970-01-01.
        let (mut y, mut m, mut d) = (1900, 1, 1);
        for day in -25_567_i64..84_000 {
            let want = format!("{y:04}-{m:02}-{d:02} 12:34");
            assert_eq!(
                date_time((day * 86_400 + 45_240) as f64, 0),
                want,
                "day {day}"
            );
            d += 1;
            if d > month_days(y, m) {
                (d, m) = (1, m + 1);
                if m > 12 {
                    (m, y) = (1, y + 1);
                }
            }
        }
        assert_eq!((y, m), (2199, 12));
    }
}
