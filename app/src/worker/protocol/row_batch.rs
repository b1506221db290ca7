//! An offline log's rows as the worker sends them to the page: one flat byte buffer per chunk
//! (its `ArrayBuffer` transferred, not copied), not JSON. The page decodes it straight into
//! the envelopes it applies; no JSON string is built in the worker, held as a JS string, copied
//! into the page's wasm and parsed there (issue 12: memory follows the rows' metadata).
//!
//! Pure and never failing: [`decode`] of any bytes gives the envelopes read whole before
//! anything it cannot read. [`decode`]`(`[`encode`]`(envs, lazy))` gives back exactly
//! `envs` and `lazy` (a time that JSON cannot carry, not finite, travels as none, as in
//! `hiveterm classify`'s JSON).
//!
//! Layout: a version byte ([`VERSION`]), then per envelope a flags byte (bit 0: `seq`, bit 1:
//! `ts`, bit 2: `parent`), `seq` (varint), `ts` (8 bytes, little-endian `f64`), `parent`
//! (varint), the row count (varint), and per
//! row a flags byte (bits 0–1: level; 2: icon; 3: body; 4: coalesce key; 5: body left in the
//! file; bits 6–7: body format, 0 none, 1 markdown, 2 diff), then each present string as a
//! varint length and its UTF-8 (icon, summary, body, coalesce key), then the left body's line
//! count (varint).

use classifier::{BodyFormat, Level, RowKind, TermEnvelope, TermMsg};

use classifier::{line_count, row_kind};

use super::Lazy;

/// The layout's version, the buffer's first byte.
pub const VERSION: u8 = 1;

const SEQ: u8 = 1;
const TS: u8 = 2;
const PARENT: u8 = 4;
const ICON: u8 = 1 << 2;
const BODY: u8 = 1 << 3;
const COALESCE: u8 = 1 << 4;
const LAZY: u8 = 1 << 5;

fn level_bits(l: Level) -> u8 {
    match l {
        Level::Debug => 0,
        Level::Info => 1,
        Level::Warn => 2,
        Level::Error => 3,
    }
}

fn level_of(bits: u8) -> Level {
    match bits & 3 {
        0 => Level::Debug,
        1 => Level::Info,
        2 => Level::Warn,
        _ => Level::Error,
    }
}

fn format_bits(f: Option<BodyFormat>) -> u8 {
    match f {
        None => 0,
        Some(BodyFormat::Markdown) => 1 << 6,
        Some(BodyFormat::Diff) => 2 << 6,
    }
}

fn varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn string(out: &mut Vec<u8>, s: &str) {
    varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

/// The buffer of `envs` (rows whose body was left in the file listed in `lazy`, as
/// [`strip`] gives them: `(seq, idx, body lines)`, in order).
pub fn encode(envs: &[TermEnvelope], lazy: &[Lazy]) -> Vec<u8> {
    let strings: usize = envs
        .iter()
        .flat_map(|e| &e.msgs)
        .map(|m| m.summary.len() + m.icon.as_ref().map_or(0, |i| i.len()) + 8)
        .sum();
    let mut out = Vec::with_capacity(1 + envs.len() * 12 + strings);
    out.push(VERSION);
    let mut lazy = lazy.iter().peekable();
    for env in envs {
        let ts = env.ts.filter(|t| t.is_finite());
        out.push(
            if env.seq.is_some() { SEQ } else { 0 }
                | if ts.is_some() { TS } else { 0 }
                | if env.parent.is_some() { PARENT } else { 0 },
        );
        if let Some(seq) = env.seq {
            varint(&mut out, seq);
        }
        if let Some(ts) = ts {
            out.extend_from_slice(&ts.to_le_bytes());
        }
        if let Some(parent) = env.parent {
            varint(&mut out, parent);
        }
        varint(&mut out, env.msgs.len() as u64);
        for (idx, m) in env.msgs.iter().enumerate() {
            // The lazy list is in (seq, idx) order; skip entries of rows not sent.
            let key = env.seq.map(|s| (s, idx as u32));
            while lazy
                .peek()
                .is_some_and(|l| key.is_some_and(|k| (l.0, l.1) < k))
            {
                lazy.next();
            }
            let left = match (key, lazy.peek()) {
                (Some(k), Some(l)) if (l.0, l.1) == k && m.body.is_none() => {
                    let n = l.2;
                    lazy.next();
                    Some(n)
                }
                _ => None,
            };
            let mut flags = level_bits(m.level) | format_bits(m.body_format);
            flags |= if m.icon.is_some() { ICON } else { 0 };
            flags |= if m.body.is_some() { BODY } else { 0 };
            flags |= if m.coalesce_key.is_some() {
                COALESCE
            } else {
                0
            };
            flags |= if left.is_some() { LAZY } else { 0 };
            out.push(flags);
            if let Some(icon) = &m.icon {
                string(&mut out, icon);
            }
            string(&mut out, &m.summary);
            if let Some(body) = &m.body {
                string(&mut out, body);
            }
            if let Some(key) = &m.coalesce_key {
                string(&mut out, key);
            }
            if let Some(n) = left {
                varint(&mut out, u64::from(n));
            }
        }
    }
    out
}

/// Reads a buffer: position and bytes.
struct Reader<'a> {
    buf: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.buf.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn varint(&mut self) -> Option<u64> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Some(n);
            }
        }
        None
    }

    fn bytes(&mut self, n: usize) -> Option<&[u8]> {
        let end = self.at.checked_add(n)?;
        let s = self.buf.get(self.at..end)?;
        self.at = end;
        Some(s)
    }

    fn string(&mut self) -> Option<String> {
        let n = usize::try_from(self.varint()?).ok()?;
        let b = self.bytes(n)?;
        Some(String::from_utf8_lossy(b).into_owned())
    }

    fn envelope(&mut self, lazy: &mut Vec<Lazy>) -> Option<TermEnvelope> {
        let flags = self.byte()?;
        let seq = if flags & SEQ != 0 {
            Some(self.varint()?)
        } else {
            None
        };
        let ts = if flags & TS != 0 {
            let b: [u8; 8] = self.bytes(8)?.try_into().ok()?;
            Some(f64::from_le_bytes(b))
        } else {
            None
        };
        let parent = if flags & PARENT != 0 {
            Some(self.varint()?)
        } else {
            None
        };
        let n = self.varint()?;
        // Each row takes two bytes at least: a count past the buffer is garbage.
        let mut msgs = Vec::with_capacity(usize::try_from(n).ok()?.min(self.buf.len() / 2));
        let mut left = Vec::new();
        for idx in 0..n {
            let f = self.byte()?;
            let icon = if f & ICON != 0 {
                Some(self.string()?)
            } else {
                None
            };
            let summary = self.string()?;
            let body = if f & BODY != 0 {
                Some(self.string()?)
            } else {
                None
            };
            let coalesce_key = if f & COALESCE != 0 {
                Some(self.string()?)
            } else {
                None
            };
            if f & LAZY != 0 {
                let lines = u32::try_from(self.varint()?).unwrap_or(u32::MAX);
                if let Some(seq) = seq {
                    left.push((seq, u32::try_from(idx).ok()?, lines));
                }
            }
            msgs.push(TermMsg {
                icon: icon.map(Into::into),
                level: level_of(f),
                summary,
                body,
                body_format: match f >> 6 {
                    1 => Some(BodyFormat::Markdown),
                    2 => Some(BodyFormat::Diff),
                    _ => None,
                },
                coalesce_key,
            });
        }
        lazy.append(&mut left);
        Some(TermEnvelope {
            ts,
            seq,
            parent,
            msgs,
        })
    }
}

/// The envelopes of a buffer and its rows whose body was left in the file. Bytes that do not
/// read (they cannot: the worker wrote them) end it: what was read whole before is kept.
pub fn decode(buf: &[u8]) -> (Vec<TermEnvelope>, Vec<Lazy>) {
    let mut envs = Vec::new();
    let mut lazy = Vec::new();
    if buf.first() != Some(&VERSION) {
        return (envs, lazy);
    }
    let mut r = Reader { buf, at: 1 };
    while r.at < buf.len() {
        match r.envelope(&mut lazy) {
            Some(env) => envs.push(env),
            None => break,
        }
    }
    (envs, lazy)
}

/// Takes the bodies out of `envs` (what the page holds is the rows' metadata; a body is
/// read again from the file when it is shown, [`crate::worker::classify::bodies_in`]), returning the rows that had
/// one. Rows of an envelope without a `seq` keep theirs (none comes from a file).
pub fn strip(envs: &mut [TermEnvelope]) -> Vec<Lazy> {
    let mut lazy = Vec::new();
    for env in envs {
        let Some(seq) = env.seq else { continue };
        for (idx, msg) in env.msgs.iter_mut().enumerate() {
            if let Some(body) = msg.body.take() {
                let lines = u32::try_from(line_count(&body)).unwrap_or(u32::MAX);
                lazy.push((seq, idx as u32, lines));
            }
        }
    }
    lazy
}

/// Pushes `env` onto the rows to send, `out`, when it has rows; first takes out the row
/// that `env`'s first row replaces. A row that grows, such as an answer streamed a few words
/// at a time, comes again whole at every line (`coalesce_key`); the page replaces it with the
/// next row of its key (`crate::model::state::apply_lazy`). So the last row of the envelope
/// before is taken out when `env`'s first row has its key and both are the main agent's plain
/// rows (`RowKind::Other`: no turn, no tool call). The page ends with the same rows, and the
/// worker neither indexes, strips nor sends the replaced ones; it frees each as soon as the
/// row that replaces it is made (`crate::worker::classify::Classifier` pushes every envelope
/// through here). Rows keep their index (only an envelope's last row is taken), and an
/// envelope left without rows stays.
pub fn push_kept(out: &mut Vec<TermEnvelope>, env: TermEnvelope) {
    let Some(next) = env.msgs.first() else {
        return;
    };
    if let Some(prev) = out.last_mut()
        && prev.parent.is_none()
        && env.parent.is_none()
        && prev.msgs.last().is_some_and(|row| replaced(row, next))
    {
        prev.msgs.pop();
    }
    out.push(env);
}

/// Whether the page replaces `row` with `next` and `row` leaves nothing behind (no turn, no
/// reset, no tool call to list).
fn replaced(row: &TermMsg, next: &TermMsg) -> bool {
    row.coalesce_key.is_some()
        && row.coalesce_key == next.coalesce_key
        && row_kind(row) == RowKind::Other
        && row_kind(next) == RowKind::Other
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(envs: Vec<TermEnvelope>, lazy: Vec<Lazy>) {
        let buf = encode(&envs, &lazy);
        assert_eq!(decode(&buf), (envs, lazy));
    }

    fn msg(level: Level, summary: &str) -> TermMsg {
        TermMsg::new(level, summary)
    }

    #[test]
    fn tiny_cases_round_trip() {
        check(vec![], vec![]);
        check(
            vec![TermEnvelope {
                ts: None,
                seq: None,
                parent: None,
                msgs: vec![],
            }],
            vec![],
        );
        for level in [Level::Debug, Level::Info, Level::Warn, Level::Error] {
            check(
                vec![TermEnvelope {
                    ts: Some(1.5),
                    seq: Some(1),
                    parent: None,
                    msgs: vec![msg(level, "")],
                }],
                vec![],
            );
        }
        let all = TermMsg {
            icon: Some("🔧".into()),
            level: Level::Warn,
            summary: "Bash cargo test — \u{0}\n\"x\"".into(),
            body: Some("line\nline".into()),
            body_format: Some(BodyFormat::Diff),
            coalesce_key: Some("k".into()),
        };
        check(
            vec![TermEnvelope {
                ts: Some(-0.0),
                seq: Some(u64::MAX),
                parent: None,
                msgs: vec![all.clone(), all],
            }],
            vec![],
        );
        // A subagent's envelope: its parent travels (with and without seq and time).
        for (ts, seq) in [(Some(2.5), Some(9)), (None, None)] {
            check(
                vec![TermEnvelope {
                    ts,
                    seq,
                    parent: Some(3),
                    msgs: vec![msg(Level::Info, "a")],
                }],
                vec![],
            );
        }
        check(
            vec![TermEnvelope {
                ts: None,
                seq: Some(1 << 40),
                parent: Some(u64::MAX),
                msgs: vec![],
            }],
            vec![],
        );
        let md = msg(Level::Info, "").icon("●");
        let md = TermMsg {
            body_format: Some(BodyFormat::Markdown),
            ..md
        };
        // Bodies left in the file: listed with their rows, others' entries skipped.
        check(
            vec![
                TermEnvelope {
                    ts: Some(1e9),
                    seq: Some(300),
                    parent: None,
                    msgs: vec![msg(Level::Info, "a"), md.clone()],
                },
                TermEnvelope {
                    ts: None,
                    seq: Some(70_000_000_000),
                    parent: None,
                    msgs: vec![md],
                },
            ],
            vec![(300, 1, 12), (70_000_000_000, 0, u32::MAX)],
        );
    }

    #[test]
    fn a_time_json_cannot_carry_travels_as_none() {
        for ts in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let env = TermEnvelope {
                ts: Some(ts),
                seq: Some(2),
                parent: None,
                msgs: vec![msg(Level::Info, "x")],
            };
            let json: TermEnvelope =
                serde_json::from_str(&serde_json::to_string(&env).unwrap()).unwrap();
            assert_eq!(decode(&encode(&[env], &[])).0, vec![json]);
        }
    }

    #[test]
    fn lazy_entries_of_rows_not_sent_are_left_out() {
        let envs = vec![TermEnvelope {
            ts: None,
            seq: Some(5),
            parent: None,
            msgs: vec![msg(Level::Info, "a")],
        }];
        let buf = encode(&envs, &[(4, 0, 1), (5, 0, 3), (5, 1, 2), (6, 0, 1)]);
        assert_eq!(decode(&buf), (envs, vec![(5, 0, 3)]));
    }

    #[test]
    fn garbage_never_panics_and_keeps_whole_envelopes() {
        let envs: Vec<TermEnvelope> = (1..=3)
            .map(|s| TermEnvelope {
                ts: Some(s as f64),
                seq: Some(s),
                parent: None,
                msgs: vec![msg(Level::Error, "boom").icon("✗")],
            })
            .collect();
        let buf = encode(&envs, &[]);
        for cut in 0..buf.len() {
            let (got, _) = decode(&buf[..cut]);
            assert!(got.len() < envs.len(), "cut {cut}");
            assert_eq!(got[..], envs[..got.len()], "cut {cut}");
        }
        assert_eq!(decode(&[]), (vec![], vec![]));
        assert_eq!(decode(&[2, 1, 1]), (vec![], vec![]));
        assert!(
            decode(&[
                1, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f
            ])
            .0
            .is_empty()
        );
        let mut state = 7u32;
        for _ in 0..2000 {
            let n = (state % 40) as usize;
            let junk: Vec<u8> = (0..n)
                .map(|_| {
                    state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    (state >> 16) as u8
                })
                .collect();
            let mut b = vec![VERSION];
            b.extend(junk);
            let _ = decode(&b);
        }
    }

    /// Every fixture's rows, stripped of their bodies as the worker sends them, in every
    /// chunk size the worker uses: the buffer gives them back exactly.
    #[test]
    fn every_fixtures_rows_round_trip() {
        let input = crate::worker::classify::tests::every_fixture();
        let mut c = crate::worker::classify::Classifier::new();
        let mut total = 0;
        for piece in input.chunks(64 * 1024) {
            let mut envs = c.push(piece);
            let lazy = strip(&mut envs);
            total += envs.len();
            check(envs, lazy);
        }
        let mut envs = c.finish();
        let lazy = strip(&mut envs);
        check(envs, lazy);
        assert!(total > 300, "{total}");
        // And with the bodies kept (pasted text, an export's rows).
        let mut c = crate::worker::classify::Classifier::new();
        let mut whole = c.push(&input);
        whole.extend(c.finish());
        check(whole, vec![]);
    }
}
