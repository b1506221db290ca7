//! [`JsonWriter`]: envelopes written one after another as [`TermEnvelope::write_json`] writes
//! each, a growing row's body escaped once.
//!
//! A row that grows is sent whole each time it grows (a Gemini answer's paragraph, delta by
//! delta: the coalesce key replaces the row before). Escaped afresh each time, a paragraph of
//! `n` bytes in deltas of `d` cost `n² / 2d` bytes scanned for what JSON escapes: a 154 MB log
//! of answers of one paragraph (or one code block) took 2.4 times the floor. JSON escapes each
//! byte alone, so a body that begins with the last long one written is that body's escaped
//! text (kept) and then its own new bytes escaped.

use super::{TermEnvelope, TermMsg, escaped, json_str};

/// Shortest body kept for the row that may follow it grown (a shorter one costs less to
/// escape again than to keep).
const KEEP_MIN: usize = 1024;
/// Longest body kept (so what the writer holds stays bounded).
const KEEP_MAX: usize = 1 << 20;

/// Writes envelopes exactly as [`TermEnvelope::write_json`] does, one after another,
/// remembering the last long body written of a row with a coalesce key (a row that may grow).
#[derive(Debug, Default)]
pub struct JsonWriter {
    /// The body kept (empty: none).
    body: String,
    /// It escaped, without the quotes.
    escaped: Vec<u8>,
}

impl JsonWriter {
    /// A writer that remembers nothing yet.
    pub fn new() -> JsonWriter {
        JsonWriter::default()
    }

    /// Appends `env`'s JSON to `out`: the bytes of [`TermEnvelope::write_json`].
    pub fn write(&mut self, env: &TermEnvelope, out: &mut Vec<u8>) {
        env.write_json_with(out, |out, msg| self.row(msg, out));
    }

    fn row(&mut self, msg: &TermMsg, out: &mut Vec<u8>) {
        match (&msg.coalesce_key, &msg.body) {
            (Some(_), Some(body)) if body.len() >= KEEP_MIN => {
                msg.write_json_with(out, |out, body| self.body(body, out));
            }
            _ => msg.write_json(out),
        }
    }

    /// A body of at least [`KEEP_MIN`] bytes of a row with a coalesce key, as a JSON string.
    fn body(&mut self, body: &str, out: &mut Vec<u8>) {
        // (`self.body` is whole characters, so where it ends in `body` is a character's
        // boundary.)
        if let Some(new) = body.strip_prefix(self.body.as_str())
            && !self.body.is_empty()
            && body.len() <= KEEP_MAX
        {
            self.body.push_str(new);
            escaped(&mut self.escaped, new);
            out.reserve(self.escaped.len() + 2);
            out.push(b'"');
            out.extend_from_slice(&self.escaped);
            out.push(b'"');
            return;
        }
        let start = out.len();
        json_str(out, body);
        self.body.clear();
        self.escaped.clear();
        if body.len() <= KEEP_MAX {
            self.body.push_str(body);
            self.escaped
                .extend_from_slice(&out[start + 1..out.len() - 1]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msg::{BodyFormat, Level};

    /// The writer writes what `write_json` writes, envelope by envelope: rows of two keys
    /// growing by pieces of every kind of byte JSON escapes, over [`KEEP_MIN`] and back,
    /// started again, cut short, replaced, interleaved, with rows of no key or no body.
    #[test]
    fn writes_what_write_json_writes() {
        let pieces = [
            "plain text, ",
            "\"q\"",
            "\\",
            "\n",
            "\t",
            "\u{1}",
            "\u{1f}",
            "é",
            "—",
            "🦀",
            "\u{7f}",
            "x",
        ];
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let mut writer = JsonWriter::new();
        let mut texts = [String::new(), String::new()];
        let (mut got, mut want) = (Vec::new(), Vec::new());
        for step in 0..20_000 {
            let k = next(2) as usize;
            match next(40) {
                0 => texts[k].clear(),
                1 => {
                    let cut =
                        texts[k].floor_char_boundary(next(texts[k].len() as u64 + 1) as usize);
                    texts[k].truncate(cut);
                }
                2 => texts[k] = "y".repeat(next(3000) as usize),
                _ => {
                    for _ in 0..=next(40) {
                        texts[k].push_str(pieces[next(pieces.len() as u64) as usize]);
                    }
                }
            }
            let mut msgs = vec![
                TermMsg::new(Level::Info, "")
                    .body_as(texts[k].clone(), BodyFormat::Markdown)
                    .coalesce(format!("k{k}")),
            ];
            match next(6) {
                0 => msgs.insert(
                    0,
                    TermMsg::new(Level::Debug, "no key").body(texts[1 - k].clone()),
                ),
                1 => msgs.push(TermMsg::new(Level::Warn, "no body").coalesce(format!("k{k}"))),
                2 => msgs.push(
                    TermMsg::new(Level::Info, "")
                        .body(texts[1 - k].clone())
                        .coalesce(format!("k{}", 1 - k)),
                ),
                _ => {}
            }
            let env = TermEnvelope {
                ts: None,
                seq: Some(step),
                parent: None,
                msgs,
            };
            writer.write(&env, &mut got);
            env.write_json(&mut want);
            assert!(writer.body.len() <= KEEP_MAX);
        }
        assert_eq!(
            String::from_utf8(got).unwrap(),
            String::from_utf8(want).unwrap()
        );
    }
}
