//! A tool call's arguments read ([`Arguments`]: the schema's types checked, unknown names
//! refused), answers kept under a size in bytes ([`fitting`], [`cut_to_bytes`]), bodies cut
//! ([`cut_bodies`]) and strings redacted ([`redact_strings`]).

use rmcp::model::JsonObject;
use serde_json::Value;

/// The smallest `max_bytes` a caller may ask for.
pub(crate) const MIN_BYTES: usize = 4096;
/// The largest `max_bytes`.
pub(crate) const MAX_BYTES: usize = 1024 * 1024;
/// `max_bytes` when not given: about 16,000 tokens.
pub(crate) const DEFAULT_BYTES: usize = 64 * 1024;

/// A call's arguments, read by name.
pub(crate) struct Arguments<'a>(pub(crate) &'a JsonObject);

impl Arguments<'_> {
    /// Refuses a name the tool does not take (a misspelt filter would otherwise widen it).
    pub(crate) fn only(&self, names: &[&str]) -> Result<(), String> {
        match self.0.keys().find(|k| !names.contains(&k.as_str())) {
            Some(k) => Err(format!(
                "unknown argument {k:?}: takes {}",
                names.join(", ")
            )),
            None => Ok(()),
        }
    }

    /// A string argument (`null` is absent).
    pub(crate) fn text(&self, name: &str) -> Result<Option<String>, String> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(format!("{name} must be a string")),
        }
    }

    /// A required string argument.
    pub(crate) fn required(&self, name: &str) -> Result<String, String> {
        self.text(name)?
            .ok_or_else(|| format!("{name} is required"))
    }

    /// A whole number argument (`null` is absent).
    pub(crate) fn number(&self, name: &str) -> Result<Option<u64>, String> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| format!("{name} must be a whole number, 0 or more")),
        }
    }

    /// `max_bytes`, within [`MIN_BYTES`] and [`MAX_BYTES`].
    pub(crate) fn max_bytes(&self) -> Result<usize, String> {
        Ok(self.number("max_bytes")?.map_or(DEFAULT_BYTES, |n| {
            usize::try_from(n)
                .unwrap_or(MAX_BYTES)
                .clamp(MIN_BYTES, MAX_BYTES)
        }))
    }
}

/// How many of `items`, from the first, fit in `max` bytes with `overhead` bytes of the rest
/// of the answer: at least one, so an answer always moves on.
pub(crate) fn fitting(items: &[Value], overhead: usize, max: usize) -> usize {
    let mut used = overhead;
    for (i, item) in items.iter().enumerate() {
        used += item.to_string().len() + 1;
        if used > max {
            return i.max(1);
        }
    }
    items.len()
}

/// An answer longer than `max` bytes cut to the items of its array `value[key]` that fit (at
/// least one; `overhead` bytes for the rest of the answer), its `next` set to the cursor after
/// the last one kept: `next(index, item)` of that item. A shorter answer is left as it is.
pub(crate) fn cut_to_bytes(
    value: &mut Value,
    key: &str,
    overhead: usize,
    max: usize,
    next: impl FnOnce(usize, &Value) -> Value,
) {
    if value.to_string().len() <= max {
        return;
    }
    let Some(items) = value[key].as_array_mut() else {
        return;
    };
    let keep = fitting(items, overhead, max);
    if keep == 0 {
        return;
    }
    items.truncate(keep);
    let cursor = next(keep - 1, &items[keep - 1]);
    value["next"] = cursor;
}

/// Each row's `body` of `envelopes` (`{"msgs": [row…]}`) cut to `max` bytes (on a character
/// boundary, `…` and `body_bytes`, its whole length, added); `max` 0 leaves bodies out.
pub(crate) fn cut_bodies(envelopes: &mut [Value], max: usize) {
    let rows = envelopes
        .iter_mut()
        .filter_map(|e| e.get_mut("msgs").and_then(Value::as_array_mut))
        .flatten();
    for row in rows {
        let Some(obj) = row.as_object_mut() else {
            continue;
        };
        let Some(Value::String(body)) = obj.get_mut("body") else {
            continue;
        };
        if body.len() <= max {
            continue;
        }
        let whole = body.len();
        if max == 0 {
            obj.remove("body");
        } else {
            cut_text(body, max);
        }
        obj.insert("body_bytes".into(), Value::from(whole));
    }
}

/// `text` cut to at most `max` bytes, on a character boundary, `…` after it.
fn cut_text(text: &mut String, max: usize) {
    if text.len() <= max {
        return;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text.push('…');
}

/// The fewest bytes [`shorten`] cuts a string to.
pub(crate) const SHORTEST: usize = 64;

/// When the items of `value[list]` do not fit in `max` bytes whole, their strings under `keys`
/// cut to one number of bytes (on character boundaries, `…`): the most that lets every item
/// fit, [`SHORTEST`] at least. So a search page keeps every hit, and every session it names,
/// rather than losing its last ones; left whole when even that would not fit (and then
/// [`cut_to_bytes`] drops items).
pub(crate) fn shorten(value: &mut Value, list: &str, keys: &[&str], max: usize) {
    let fits = |v: &Value| v.to_string().len() <= max;
    if fits(value) {
        return;
    }
    let longest = value[list]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|item| keys.iter().filter_map(|k| item[*k].as_str().map(str::len)))
        .max()
        .unwrap_or(0);
    let cut = |n: usize| {
        let mut v = value.clone();
        for item in v[list].as_array_mut().into_iter().flatten() {
            for k in keys {
                if let Some(Value::String(s)) = item.get_mut(*k) {
                    cut_text(s, n);
                }
            }
        }
        v
    };
    if longest <= SHORTEST || !fits(&cut(SHORTEST)) {
        return;
    }
    // Fits when cut to `lo` bytes, not when cut to `hi` (nor whole).
    let (mut lo, mut hi) = (SHORTEST, longest);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(&cut(mid)) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    *value = cut(lo);
}

/// Every string in `value` redacted (`classifier::redact::redact_text`), but those under the
/// keys `id` and `session`: the ids the next call names.
pub(crate) fn redact_strings(value: &mut Value) {
    match value {
        Value::String(s) => {
            if let std::borrow::Cow::Owned(r) = classifier::redact::redact_text(s).0 {
                *s = r;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(redact_strings),
        Value::Object(map) => {
            for (k, v) in map.iter_mut() {
                if k != "id" && k != "session" {
                    redact_strings(v);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn bodies_are_cut_on_a_character_boundary() {
        let check = |body: &str, max: usize, expect: Value| {
            let mut envs = vec![json!({"seq": 1, "msgs": [{"summary": "s", "body": body}]})];
            cut_bodies(&mut envs, max);
            assert_eq!(envs[0]["msgs"][0], expect, "{body:?} {max}");
        };
        check("short", 10, json!({"summary": "s", "body": "short"}));
        check(
            "ééé",
            3,
            json!({"summary": "s", "body": "é…", "body_bytes": 6}),
        );
        check("abc", 0, json!({"summary": "s", "body_bytes": 3}));
    }

    #[test]
    fn fitting_keeps_at_least_one() {
        let items = vec![json!("x".repeat(100)), json!("y".repeat(100))];
        assert_eq!(fitting(&items, 0, 10), 1);
        assert_eq!(fitting(&items, 0, 250), 2);
        assert_eq!(fitting(&items, 100, 250), 1);
    }

    #[test]
    fn answers_are_cut_after_the_last_item_that_fits() {
        let check = |n: usize, max: usize, expect: Value| {
            let items: Vec<Value> = (0..n)
                .map(|i| json!(format!("{i}{}", "x".repeat(99))))
                .collect();
            let mut answer = json!({"items": items, "next": null});
            cut_to_bytes(&mut answer, "items", 20, max, |i, item| {
                json!(format!("{i} {}", &item.as_str().unwrap()[..1]))
            });
            let kept = answer["items"].as_array().unwrap().len();
            assert_eq!(
                json!([kept, answer["next"]]),
                expect,
                "{n} items, {max} bytes"
            );
        };
        check(3, 10_000, json!([3, null]));
        check(3, 250, json!([2, "1 1"]));
        check(3, 50, json!([1, "0 0"]));
        check(0, 10, json!([0, null]));
    }

    #[test]
    fn long_strings_are_shortened_so_every_item_fits() {
        let hit = |i: usize, len: usize| json!({"session": format!("s{i}"), "summary": "é".repeat(len), "snippet": "x".repeat(len)});
        let page =
            |n: usize, len: usize| json!({"hits": (0..n).map(|i| hit(i, len)).collect::<Vec<_>>()});
        // Whole when they fit; cut to the most bytes that fit, each; whole when even the
        // shortest cut would not fit.
        let check = |n: usize, len: usize, max: usize| {
            let mut value = page(n, len);
            shorten(&mut value, "hits", &["summary", "snippet"], max);
            let size = value.to_string().len();
            let hits = value["hits"].as_array().unwrap();
            assert_eq!(hits.len(), n);
            let longest = hits
                .iter()
                .map(|h| h["snippet"].as_str().unwrap().trim_end_matches('…').len())
                .max()
                .unwrap();
            (size, longest)
        };
        assert_eq!(check(10, 100, 10_000).1, 100);
        let (size, longest) = check(50, 500, 20_000);
        assert!((19_000..=20_000).contains(&size), "{size}");
        assert!((SHORTEST..500).contains(&longest), "{longest}");
        assert_eq!(check(50, 500, 4096).1, 500);
        let mut chars = page(1, 10);
        shorten(&mut chars, "hits", &["summary"], 40);
        assert_eq!(
            chars["hits"][0]["summary"],
            "é".repeat(10),
            "64 bytes at least"
        );
        let mut one = json!({"hits": [hit(0, 400)]});
        shorten(&mut one, "hits", &["summary", "snippet"], 300);
        let size = one.to_string().len();
        assert!((290..=300).contains(&size), "{size}: the most that fits");
    }

    #[test]
    fn ids_are_kept_and_other_strings_redacted() {
        let token = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
        let mut v = json!({"id": token, "title": format!("token {token}"), "n": 1});
        redact_strings(&mut v);
        assert_eq!(v["id"], token);
        assert!(!v["title"].as_str().unwrap().contains(token), "{v}");
    }
}
