//! A rollout line read straight from its bytes ([`fast`]), when it has only a rollout line's
//! own fields and may state a [`Fact`] ([`may_be_fact`]).

use serde::de::MapAccess;

use super::read::{LineType, Payload, PayloadSeed, rows};
use super::shape::Fact;
use crate::lean::lax::{Fields, Stamp, lax, read_line, skip, type_of};

/// A line read by [`fast`], and its time.
pub(crate) type Parsed = Option<(Box<Fact>, Option<f64>)>;

/// The fact of rollout line `line`, and its time, when it is one with only a rollout line's
/// own fields (`timestamp`, `ordinal`, `type`, `payload`, `metadata`). `None`: read it whole.
pub(crate) fn fast(line: &[u8]) -> Parsed {
    if !line.starts_with(b"{\"timestamp\":") || !may_be_fact(line) {
        return None;
    }
    let read = read_line::<Line>(simdutf8::basic::from_utf8(line).ok()?)?;
    let fact = read.payload?.fact(read.ty?)?;
    read.has_time.then(|| (Box::new(fact), read.time))
}

/// Whether `line` may be a fact's, by the first types written in it (the line's, then its
/// payload's), as a rollout writes them: most lines are of rows, and a read stopped at their
/// type would cost an error's message. Only ever says no to a line [`fast`] would not read.
fn may_be_fact(line: &[u8]) -> bool {
    const TYPE: &[u8] = b"\"type\":\"";
    let mut rest = line;
    let mut next_type = || {
        let at =
            memchr::memchr_iter(b'"', rest).find(|&i| rest[i..].starts_with(TYPE))? + TYPE.len();
        let end = at + memchr::memchr(b'"', &rest[at..])?;
        let ty = &rest[at..end];
        rest = &rest[end..];
        Some(ty)
    };
    let event = |ty: Option<&[u8]>| {
        matches!(
            ty,
            Some(
                b"token_count"
                    | b"thread_settings_applied"
                    | b"task_started"
                    | b"turn_started"
                    | b"item_completed"
            )
        )
    };
    match next_type() {
        Some(b"token_usage_record" | b"turn_context") => true,
        Some(b"event_msg") => event(next_type()),
        // Not written as a rollout writes it (no type, or the payload's first): the read
        // decides.
        None => true,
        ty => event(ty),
    }
}

/// A rollout line's fields, as [`fast`] reads them.
#[derive(Default)]
struct Line {
    ty: Option<LineType>,
    payload: Option<Payload>,
    time: Option<f64>,
    has_time: bool,
}

impl Fields for Line {
    fn field<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "timestamp" => {
                self.time = lax::<Stamp, A>(map)?.and_then(|t| t.0);
                self.has_time = true;
            }
            "type" => {
                // A line of another type is read whole.
                self.ty = Some(LineType::of(&type_of(map)?.0).ok_or_else(rows)?);
            }
            // A payload that is no map is no fact's (its row shows the line).
            "payload" => self.payload = Some(map.next_value_seed(PayloadSeed(self.ty))?),
            "ordinal" | "metadata" => skip(map)?,
            _ => return Err(rows()),
        }
        Ok(())
    }
}
