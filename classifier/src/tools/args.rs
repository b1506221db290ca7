//! Reading a tool's input tolerantly, and the small pieces every summary is built from.
//!
//! Every getter takes the keys that may carry an argument, in order of preference
//! (`&["text", "status"]`), skips keys that are absent, `null` or of an unusable type, and
//! never fails. Text that goes into a summary comes out on one line.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::msg::BodyFormat;
pub(super) use crate::text::one_line;

/// Longest a name, path, pattern or URL runs in a summary before it is cut with `…`.
pub(super) const NAME_MAX: usize = 160;
/// Longest a command's first line runs in a summary; a longer or multi-line command also
/// gets a body with all of it (`docs/TOOLS.md`, `run*`).
pub(super) const CMD_MAX: usize = 120;
/// How many list items a summary names before `, …` (`docs/TOOLS.md`, "Shape").
pub(super) const LIST_MAX: usize = 8;
/// Longest a list item or a generic key runs before it is cut.
pub(super) const ITEM_MAX: usize = 40;

/// A tool's input object, read by its own names, or by the names of the Claude Code tool of
/// the same meaning ([`Args::renamed`]).
#[derive(Clone, Copy)]
pub(super) struct Args<'a> {
    map: &'a Map<String, Value>,
    names: Option<&'a [(&'a str, &'a str)]>,
}

impl<'a> Args<'a> {
    /// The input `map`, read by its own names.
    pub(super) fn new(map: &'a Map<String, Value>) -> Args<'a> {
        Args { map, names: None }
    }

    /// Another agent's input `map` read as the input of a Claude Code tool: `names` pairs
    /// each name that tool reads with the name `map` has it under; no other name is read.
    /// (What the input made of those names alone would be, without making it.)
    pub(super) fn renamed(
        map: &'a Map<String, Value>,
        names: &'a [(&'a str, &'a str)],
    ) -> Args<'a> {
        Args {
            map,
            names: Some(names),
        }
    }

    /// The value of `key`, when present.
    pub(super) fn field(&self, key: &str) -> Option<&'a Value> {
        let key = match self.names {
            None => key,
            Some(names) => names.iter().find(|(k, _)| *k == key)?.1,
        };
        // (Most inputs are a few fields: looked at in turn, not hashed.)
        crate::field::Field::field(self.map, key)
    }

    /// The values of `keys` that are present and not null, in order.
    fn values<'k>(&self, keys: &'k [&'k str]) -> impl Iterator<Item = &'a Value> + 'k
    where
        'a: 'k,
    {
        let args = *self;
        keys.iter()
            .filter_map(move |k| args.field(k))
            .filter(|v| !v.is_null())
    }

    /// Whether any of `keys` is present with a value other than `null`.
    pub(super) fn has(&self, keys: &[&str]) -> bool {
        self.values(keys).next().is_some()
    }

    /// The first of `keys` holding a string, as it is (bodies, commands).
    pub(super) fn string(&self, keys: &[&str]) -> Option<&'a str> {
        self.values(keys).find_map(Value::as_str)
    }

    /// The first of `keys` holding a non-blank scalar, as raw text: a string, a number
    /// (`12`), or `true`/`false`.
    pub(super) fn text(&self, keys: &[&str]) -> Option<Cow<'a, str>> {
        self.values(keys).find_map(scalar_text)
    }

    /// [`Args::text`] on one line, cut at [`NAME_MAX`]: names, paths, patterns, URLs.
    pub(super) fn name(&self, keys: &[&str]) -> Option<String> {
        self.text(keys).map(|s| one_line(&s, NAME_MAX))
    }

    /// [`Args::text`] as an id: `#12` (a leading `#` in the value is not doubled).
    pub(super) fn id(&self, keys: &[&str]) -> Option<String> {
        self.name(keys)
            .map(|s| format!("#{}", s.trim_start_matches('#')))
    }

    /// [`Args::text`] as the quoted `"…"` preview: whitespace folded, 60 characters, quoted.
    pub(super) fn quoted(&self, keys: &[&str]) -> Option<String> {
        self.text(keys).map(|s| quote(&s))
    }

    /// The first of `keys` holding a finite number, or a string that reads as one.
    pub(super) fn num(&self, keys: &[&str]) -> Option<f64> {
        self.values(keys)
            .find_map(|v| match v {
                Value::Number(n) => n.as_f64(),
                Value::String(s) => s.trim().parse::<f64>().ok(),
                _ => None,
            })
            .filter(|n| n.is_finite())
    }

    /// Whether the first of `keys` that is set says yes: `true`, `"true"`, or a non-zero
    /// number. Absent, `null` or anything else is no.
    pub(super) fn flag(&self, keys: &[&str]) -> bool {
        match self.values(keys).next() {
            Some(Value::Bool(b)) => *b,
            Some(Value::String(s)) => s.trim().eq_ignore_ascii_case("true"),
            Some(Value::Number(n)) => n.as_f64().is_some_and(|n| n != 0.0),
            _ => false,
        }
    }

    /// The first of `keys` holding a list, its items as one-line text; a lone scalar is a
    /// list of one. `None` when no such key is set.
    pub(super) fn list(&self, keys: &[&str]) -> Option<Vec<String>> {
        self.values(keys).find_map(|v| match v {
            Value::Array(items) => Some(items.iter().map(item_text).collect()),
            Value::Object(_) => None,
            other => scalar_text(other).map(|s| vec![one_line(&s, ITEM_MAX)]),
        })
    }

    /// How many items the first of `keys` holds: an array's length, 1 for a lone scalar.
    pub(super) fn count(&self, keys: &[&str]) -> Option<usize> {
        self.values(keys).find_map(|v| match v {
            Value::Array(items) => Some(items.len()),
            Value::Object(_) => None,
            other => scalar_text(other).map(|_| 1),
        })
    }
}

/// A scalar as text; blank strings, arrays and objects give nothing.
pub(super) fn scalar_text(v: &Value) -> Option<Cow<'_, str>> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(Cow::Borrowed(s)),
        Value::Number(n) => Some(Cow::Owned(n.to_string())),
        Value::Bool(b) => Some(Cow::Borrowed(if *b { "true" } else { "false" })),
        _ => None,
    }
}

/// One list item on one line: a scalar's text, `[N]` for an array, `{…}` for an object.
fn item_text(v: &Value) -> String {
    match v {
        Value::Array(items) => format!("[{}]", items.len()),
        Value::Object(_) => "{…}".to_owned(),
        Value::Null => "null".to_owned(),
        other => one_line(&scalar_text(other).unwrap_or_default(), ITEM_MAX),
    }
}

/// Characters in the quoted `"…"` preview.
pub(super) const PREVIEW_MAX: usize = 60;

/// The quoted preview: `"check CI"` (`docs/TOOLS.md`: newlines folded, 60 characters, `…`).
pub(super) fn quote(s: &str) -> String {
    format!("\"{}\"", one_line(s, PREVIEW_MAX))
}

/// The first [`LIST_MAX`] items joined with `, `, then `, …` when there are more.
pub(super) fn join_list(items: &[String]) -> String {
    let mut out = items
        .iter()
        .take(LIST_MAX)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > LIST_MAX {
        out.push_str(", …");
    }
    out
}

/// A number as a reader expects it: integers plain (`86400`), fractions short (`1.5`),
/// huge values in exponent form (`1e300`).
pub(super) fn num_text(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else if n.abs() >= 1e15 {
        format!("{n:e}")
    } else {
        format!("{n}")
    }
}

/// A delay from now: `+5m`, `+2h`, `+1d` when the seconds divide evenly, else `+90s`;
/// a negative delay prints `-30s`.
pub(super) fn delay(secs: f64) -> String {
    let sign = if secs < 0.0 { '-' } else { '+' };
    let abs = secs.abs();
    let units = [(86_400.0, 'd'), (3_600.0, 'h'), (60.0, 'm')];
    let unit = units
        .iter()
        .find(|(size, _)| abs >= *size && abs < 1e15 && (abs % size) == 0.0);
    match unit {
        Some((size, suffix)) => format!("{sign}{}{suffix}", num_text(abs / size)),
        None => format!("{sign}{}s", num_text(abs)),
    }
}

/// A wait given in milliseconds: whole seconds as `30s`, anything else as `250ms`.
pub(super) fn millis(ms: f64) -> String {
    if ms % 1000.0 == 0.0 {
        format!("{}s", num_text(ms / 1000.0))
    } else {
        format!("{}ms", num_text(ms))
    }
}

/// A point in time as `HH:MMZ`: an RFC 3339 string or unix seconds. A string that is not
/// RFC 3339 is shown as it is, on one line and cut short.
pub(super) fn clock(v: &Value) -> Option<String> {
    match v {
        Value::Number(n) => n
            .as_f64()
            .filter(|n| n.is_finite())
            .map(crate::time::hh_mm_z),
        Value::String(s) if !s.trim().is_empty() => Some(
            crate::time::parse_rfc3339(s.trim())
                .map(crate::time::hh_mm_z)
                .unwrap_or_else(|| one_line(s, ITEM_MAX)),
        ),
        _ => None,
    }
}

/// A summary under construction: parts joined by separators, a separator only between two
/// parts, so a missing argument drops its part and nothing else.
#[derive(Default)]
pub(super) struct Parts(String);

impl Parts {
    /// Appends `part` after `sep` (no separator when it is the first part); `None` or an
    /// empty part adds nothing.
    pub(super) fn add(&mut self, sep: &str, part: Option<impl AsRef<str>>) -> &mut Parts {
        if let Some(part) = part {
            let part = part.as_ref();
            if !part.is_empty() {
                if !self.0.is_empty() {
                    self.0.push_str(sep);
                }
                self.0.push_str(part);
            }
        }
        self
    }

    /// Appends after a space.
    pub(super) fn sp(&mut self, part: Option<impl AsRef<str>>) -> &mut Parts {
        self.add(" ", part)
    }

    /// Appends after ` · `.
    pub(super) fn dot(&mut self, part: Option<impl AsRef<str>>) -> &mut Parts {
        self.add(" · ", part)
    }

    /// The text so far.
    pub(super) fn done(&mut self) -> String {
        std::mem::take(&mut self.0)
    }
}

/// A formatted call: what follows the tool's short name in the summary (empty for a call
/// with nothing to show, which prints as `name()`), and the body of the few tools that
/// have one.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Out {
    pub(super) args: String,
    pub(super) body: Option<(String, Option<BodyFormat>)>,
}

impl Out {
    /// A call with a summary and no body.
    pub(super) fn args(args: impl Into<String>) -> Out {
        Out {
            args: args.into(),
            body: None,
        }
    }

    /// Adds a body; an empty (or all-blank) body is left out.
    pub(super) fn with_body(mut self, body: &str, format: Option<BodyFormat>) -> Out {
        if !body.trim().is_empty() {
            self.body = Some((body.to_owned(), format));
        }
        self
    }
}

/// A shell command's summary part and its body: `$ <first line>` cut at [`CMD_MAX`] with
/// ` …` when more lines follow, and the whole command as a plain body when it has more than
/// one line or more than [`CMD_MAX`] characters.
pub(super) fn command(cmd: &str) -> (String, Option<String>) {
    let cmd = cmd.trim();
    let mut lines = cmd.lines();
    let first = one_line(lines.next().unwrap_or(""), CMD_MAX);
    let more_lines = lines.next().is_some();
    let mut summary = ["$ ", &first].concat();
    if more_lines && !summary.ends_with('…') {
        summary.push_str(" …");
    }
    // (No more bytes than the limit is no more characters.)
    let long = more_lines || (cmd.len() > CMD_MAX && cmd.chars().count() > CMD_MAX);
    (summary, long.then(|| cmd.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quoted preview folds its text onto one line.
    #[test]
    fn quote_is_one_line_quoted() {
        assert_eq!(quote("check\nCI"), "\"check CI\"");
    }

    #[test]
    fn formats_delays_and_numbers() {
        let check = |secs: f64, expect: &str| assert_eq!(delay(secs), expect, "{secs}");
        check(300.0, "+5m");
        check(90.0, "+90s");
        check(3600.0, "+1h");
        check(5400.0, "+90m");
        check(86_400.0, "+1d");
        check(0.0, "+0s");
        check(-120.0, "-2m");
        check(0.25, "+0.25s");
        check(1e300, "+1e300s");
        assert_eq!(num_text(86_400.0), "86400");
        assert_eq!(millis(250.0), "250ms");
        assert_eq!(millis(2000.0), "2s");
    }
}
