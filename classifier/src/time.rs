//! Time without a clock: RFC 3339 timestamps to unix seconds and back to `HH:MMZ`, and the
//! one way a duration is written ([`duration`]).

use serde_json::Value;

/// Unix seconds of an RFC 3339 time string, if `v` is one.
pub(crate) fn rfc3339(v: Option<&Value>) -> Option<f64> {
    v.and_then(Value::as_str).and_then(parse_rfc3339)
}

/// Parses `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)` into unix seconds.
pub fn parse_rfc3339(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    if b.len() < 19 {
        return None;
    }
    // Every field is all digits, read where it is (no `str::parse`: a line's time is read at
    // every line).
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        b.get(r)?.iter().try_fold(0i64, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + i64::from(c - b'0'))
        })
    };
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hour, min, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || min > 59 || sec > 60 {
        return None;
    }
    let mut i = 19;
    let mut frac = 0.0;
    if b.get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return None;
        }
        frac = fraction(&s[start..i])?;
    }
    let offset = match b.get(i) {
        Some(b'Z' | b'z') if i + 1 == b.len() => 0,
        Some(&sign @ (b'+' | b'-')) if i + 6 == b.len() && b[i + 3] == b':' => {
            let secs = num(i + 1..i + 3)? * 3600 + num(i + 4..i + 6)? * 60;
            if sign == b'+' { secs } else { -secs }
        }
        _ => return None,
    };
    let days = days_from_civil(year, month, day);
    let secs = days * 86_400 + hour * 3600 + min * 60 + sec - offset;
    Some(secs as f64 + frac)
}

/// The nearest `f64` to `0.<digits>` (`digits`: ASCII digits, at least one), as `str::parse`
/// gives it. Up to 15 digits the numerator and `10^n` are both exact in an `f64`, so their one
/// correctly rounded quotient is that nearest value; longer fractions are parsed.
fn fraction(digits: &str) -> Option<f64> {
    const POW10: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    match POW10.get(digits.len()) {
        Some(&scale) => {
            let n = digits
                .bytes()
                .fold(0u64, |n, c| n * 10 + u64::from(c - b'0'));
            Some(n as f64 / scale)
        }
        None => format!("0.{digits}").parse().ok(),
    }
}

/// `HH:MMZ` of a unix time, in UTC.
pub fn hh_mm_z(unix: f64) -> String {
    let secs = unix.floor() as i64;
    let of_day = secs.rem_euclid(86_400);
    format!("{:02}:{:02}Z", of_day / 3600, (of_day % 3600) / 60)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian `(year, month, day)` of a day count since 1970-01-01: the inverse
/// of `days_from_civil` (Howard Hinnant's `civil_from_days`). Every date the project prints
/// (the page's local times, `hiveterm share --list`) goes through it.
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// `ms` milliseconds as [`duration`] writes them; `None` when there is nothing true to say
/// (negative, not a number).
pub(crate) fn millis(ms: f64) -> Option<String> {
    Some(duration(ms / 1000.0)).filter(|d| !d.is_empty())
}

/// A duration for a reader, the one style of every row summary and of the page (turn
/// durations): `250ms` under a second, `4.2s` under ten, `42s` under a minute, `3m 07s` under
/// an hour, then `1h 05m`. Rounded to the unit shown; empty for a negative or non-finite
/// value (nothing true to say).
pub fn duration(secs: f64) -> String {
    if !secs.is_finite() || secs < 0.0 {
        return String::new();
    }
    let ms = (secs * 1000.0).round();
    let mut out = String::with_capacity(8);
    let push = crate::text::push_u64;
    if ms < 1000.0 {
        push(&mut out, ms as u64);
        out.push_str("ms");
        return out;
    }
    let tenths = (secs * 10.0).round() as u64;
    if tenths < 100 {
        push(&mut out, tenths / 10);
        out.push('.');
        push(&mut out, tenths % 10);
        out.push('s');
        return out;
    }
    let s = secs.round() as u64;
    if s < 60 {
        push(&mut out, s);
        out.push('s');
        out
    } else if s < 3600 {
        format!("{}m {:02}s", s / 60, s % 60)
    } else {
        format!("{}h {:02}m", s / 3600, s % 3600 / 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expect: Option<f64>) {
        assert_eq!(parse_rfc3339(input), expect, "{input}");
    }

    #[test]
    fn parses_rfc3339() {
        check("1970-01-01T00:00:00Z", Some(0.0));
        check("2026-11-30T02:15:21.906Z", Some(1_796_004_921.906));
        check("2026-11-30T03:15:21+01:00", Some(1_796_004_921.0));
        check("2000-02-29T12:00:00Z", Some(951_825_600.0));
        check("2026-11-30", None);
        check("2026-13-30T02:15:21Z", None);
        check("2026-11-30T02:15:21", None);
        check("2026-11-30T02:15:21.Z", None);
        check("２０２６-11-30T02:15:21Z", None);
    }

    /// The fraction read digit by digit is `str::parse`'s: every fraction of up to four
    /// digits, and longer ones (to 20 digits, past the 15 read exactly) from a fixed sequence.
    #[test]
    fn fraction_is_str_parse() {
        let same = |digits: &str| {
            let want: f64 = format!("0.{digits}").parse().unwrap();
            assert_eq!(fraction(digits), Some(want), "{digits}");
        };
        for len in 1..=4 {
            for n in 0..10u32.pow(len as u32) {
                same(&format!("{n:0len$}"));
            }
        }
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let digits = format!("{x:020}");
            same(&digits[..5 + (x % 16) as usize]);
        }
        same("999999999999999");
        same("9999999999999999");
        same("00000000000000000001");
    }

    #[test]
    fn formats_hh_mm_z() {
        assert_eq!(hh_mm_z(1_796_004_921.9), "02:15Z");
        assert_eq!(hh_mm_z(0.0), "00:00Z");
        assert_eq!(hh_mm_z(-60.0), "23:59Z");
    }

    #[test]
    fn duration_cases() {
        let check = |secs: f64, want: &str| assert_eq!(duration(secs), want, "{secs}");
        check(0.0, "0ms");
        check(0.25, "250ms");
        check(0.9994, "999ms");
        check(0.9996, "1.0s");
        check(1.0, "1.0s");
        check(4.24, "4.2s");
        check(9.94, "9.9s");
        check(9.96, "10s");
        check(42.4, "42s");
        check(59.4, "59s");
        check(59.6, "1m 00s");
        check(125.0, "2m 05s");
        check(187.0, "3m 07s");
        check(3599.4, "59m 59s");
        check(3599.6, "1h 00m");
        check(3900.0, "1h 05m");
        check(360_000.0, "100h 00m");
        check(-1.0, "");
        check(-0.0, "0ms");
        check(f64::NAN, "");
        check(f64::INFINITY, "");
    }

    /// `civil_from_days` inverts `days_from_civil` on every day of 1600–2400 (leap years,
    /// century rules, before 1970 included).
    #[test]
    fn civil_from_days_inverts_days_from_civil() {
        for days in days_from_civil(1600, 1, 1)..=days_from_civil(2400, 12, 31) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days, "{y}-{m}-{d}");
            assert!(
                (1..=12).contains(&m) && (1..=31).contains(&d),
                "{y}-{m}-{d}"
            );
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(days_from_civil(2000, 2, 29)), (2000, 2, 29));
    }
}
